#include "plotstyle.h"

#include <qcustomplot.h>

namespace studio {

QCPTextElement *setUpRooflineAxes(QCustomPlot *plot, const QString &xLabel, const QString &yLabel)
{
    plot->plotLayout()->insertRow(0);
    auto *title = new QCPTextElement(plot, QString(), QFont(plot->font().family(), 12, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, title);

    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(10);
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
        axis->grid()->setSubGridVisible(true);
        axis->grid()->setSubGridPen(QPen(QColor(238, 238, 238), 0, Qt::SolidLine));
        axis->grid()->setPen(QPen(QColor(200, 200, 200), 0, Qt::SolidLine));
        QFont labelFont = axis->labelFont();
        labelFont.setPointSize(10);
        axis->setLabelFont(labelFont);
    }
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);

    plot->legend->setVisible(true);
    plot->legend->setBrush(QColor(255, 255, 255, 225));
    plot->legend->setBorderPen(QPen(QColor(180, 180, 180)));
    QFont legendFont = plot->font();
    legendFont.setPointSize(9);
    plot->legend->setFont(legendFont);
    plot->legend->setIconTextPadding(10); // SVG renderers set text a little wider than Qt does
    return title;
}

void setUpBarChart(QCustomPlot *plot, const QSharedPointer<QCPAxisTickerText> &ticker)
{
    plot->setMinimumHeight(150);
    plot->setAntialiasedElements(QCP::aeAll);
    plot->setPlottingHint(QCP::phImmediateRefresh, false); // paint with the rest of the window, once per frame
    plot->yAxis->setTicker(ticker);
    plot->yAxis->setRangeReversed(true);
    plot->yAxis->grid()->setVisible(false);
    plot->yAxis->setTickLength(0, 0);
    plot->xAxis->setNumberFormat(QStringLiteral("g"));
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        QFont f = axis->tickLabelFont();
        f.setPointSize(9);
        axis->setTickLabelFont(f);
        QFont lf = axis->labelFont();
        lf.setPointSize(9);
        axis->setLabelFont(lf);
    }
    plot->legend->setVisible(true);
    QFont lf = plot->font();
    lf.setPointSize(8);
    plot->legend->setFont(lf);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    // The legend sits in a row of its own above the bars so it never hides one.
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->legend->setMargins(QMargins(4, 2, 4, 0));
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
}

QCPBars *addHorizontalBars(QCustomPlot *plot, const QString &name, const QColor &color, double width)
{
    auto *bars = new QCPBars(plot->yAxis, plot->xAxis);
    bars->setName(name);
    bars->setPen(QPen(color.darker(130)));
    bars->setBrush(color);
    bars->setWidth(width);
    return bars;
}

} // namespace studio
