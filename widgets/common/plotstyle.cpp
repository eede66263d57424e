#include "plotstyle.h"

#include "plottextimages.h"

#include <qcustomplot.h>

#include <algorithm>
#include <functional>

namespace studio {

namespace {

bool g_dark = false;

// A grey (low saturation) colour has its lightness mirrored on dark; others stay.
QColor themed(const QColor &original, bool dark)
{
    if (!dark || !original.isValid())
        return original;
    const QColor hsl = original.toHsl();
    if (hsl.hslSaturation() > 40)
        return original;
    QColor out = QColor::fromHsl(hsl.hslHue(), hsl.hslSaturation(), 255 - hsl.lightness(), hsl.alpha());
    // Mirrored light greys (grids, backgrounds) land a little lighter than the
    // darkest, so grids stay visible on the dark background.
    if (hsl.lightness() > 200)
        out = QColor::fromHsl(hsl.hslHue(), hsl.hslSaturation(), std::max(30, 255 - hsl.lightness() + 25), hsl.alpha());
    return out;
}

// Remembers the colour a slot had before theming, so applying twice, or after
// the plot's own code set a fresh colour, maps from the original.
template<class Get, class Set>
void themeSlot(QObject *owner, const char *key, Get get, Set set)
{
    const QColor current = get();
    const QByteArray originalKey = QByteArray("rs_orig_") + key;
    const QByteArray mappedKey = QByteArray("rs_mapped_") + key;
    QColor original = current;
    const QVariant mapped = owner->property(mappedKey.constData());
    if (mapped.isValid() && mapped.value<QColor>() == current)
        original = owner->property(originalKey.constData()).value<QColor>();
    const QColor next = themed(original, g_dark);
    owner->setProperty(originalKey.constData(), original);
    owner->setProperty(mappedKey.constData(), next);
    if (next != current)
        set(next);
}

void themePen(QObject *owner, const char *key, QPen pen, const std::function<void(const QPen &)> &set)
{
    themeSlot(owner, key, [&] { return pen.color(); }, [&](const QColor &c) {
        pen.setColor(c);
        set(pen);
    });
}

void themeBrush(QObject *owner, const char *key, QBrush brush, const std::function<void(const QBrush &)> &set)
{
    if (brush.style() == Qt::NoBrush)
        return;
    themeSlot(owner, key, [&] { return brush.color(); }, [&](const QColor &c) {
        brush.setColor(c);
        set(brush);
    });
}

} // namespace

QBrush plotBackgroundBrush(const QCustomPlot *plot)
{
    // QCustomPlot has a setter and no getter for it (background() is the pixmap);
    // a pointer to the protected member, formed in a derived class, reads it.
    struct Access : QCustomPlot
    {
        static QBrush brush(const QCustomPlot *p) { return p->*(&Access::mBackgroundBrush); }
    };
    return Access::brush(plot);
}

void setPlotThemeDark(bool dark)
{
    g_dark = dark;
}

bool plotThemeDark()
{
    return g_dark;
}

void applyPlotTheme(QCustomPlot *plot)
{
    // Light and never dark: the colours are the plot's own, nothing to do (no cost per replot).
    if (!g_dark && !plot->property("rs_was_dark").toBool())
        return;
    if (g_dark)
        plot->setProperty("rs_was_dark", true);
    {
        QBrush background = plotBackgroundBrush(plot);
        if (background.style() == Qt::NoBrush)
            background = QBrush(Qt::white);
        themeBrush(plot, "background", background, [plot](const QBrush &b) { plot->setBackground(b); });
    }
    for (QCPAxisRect *rect : plot->axisRects()) {
        themeBrush(rect, "background", rect->backgroundBrush(), [rect](const QBrush &b) { rect->setBackground(b); });
        for (QCPAxis *axis : rect->axes()) {
            themePen(axis, "base", axis->basePen(), [axis](const QPen &p) { axis->setBasePen(p); });
            themePen(axis, "tick", axis->tickPen(), [axis](const QPen &p) { axis->setTickPen(p); });
            themePen(axis, "subtick", axis->subTickPen(), [axis](const QPen &p) { axis->setSubTickPen(p); });
            themeSlot(axis, "label", [axis] { return axis->labelColor(); }, [axis](const QColor &c) { axis->setLabelColor(c); });
            themeSlot(axis, "ticklabel", [axis] { return axis->tickLabelColor(); },
                      [axis](const QColor &c) { axis->setTickLabelColor(c); });
            QCPGrid *grid = axis->grid();
            themePen(grid, "grid", grid->pen(), [grid](const QPen &p) { grid->setPen(p); });
            themePen(grid, "subgrid", grid->subGridPen(), [grid](const QPen &p) { grid->setSubGridPen(p); });
            themePen(grid, "zero", grid->zeroLinePen(), [grid](const QPen &p) { grid->setZeroLinePen(p); });
        }
    }
    QList<QCPLegend *> legends;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(element))
            themeSlot(text, "text", [text] { return text->textColor(); }, [text](const QColor &c) { text->setTextColor(c); });
        if (auto *legend = qobject_cast<QCPLegend *>(element))
            legends << legend;
    }
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPLayoutElement *element : rect->insetLayout()->elements(false)) {
            if (auto *legend = qobject_cast<QCPLegend *>(element); legend && !legends.contains(legend))
                legends << legend;
        }
    }
    for (QCPLegend *legend : legends) {
        themeBrush(legend, "brush", legend->brush(), [legend](const QBrush &b) { legend->setBrush(b); });
        themePen(legend, "border", legend->borderPen(), [legend](const QPen &p) { legend->setBorderPen(p); });
        themeSlot(legend, "text", [legend] { return legend->textColor(); },
                  [legend](const QColor &c) { legend->setTextColor(c); });
        // The items take the legend's colour: QCPLegend::setTextColor() passes it on
        // and new items start with it, so theming each item from its own current
        // colour would map an already themed one a second time (dark on dark).
        const QColor text = legend->textColor();
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            if (item && item->textColor() != text) // null: an empty cell of a wrapped legend grid
                item->setTextColor(text);
        }
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        themePen(p, "pen", p->pen(), [p](const QPen &pen) { p->setPen(pen); });
        themeBrush(p, "brush", p->brush(), [p](const QBrush &b) { p->setBrush(b); });
        // A graph's markers (the Gables Pₐₜₜ star is black in the light theme).
        if (auto *graph = qobject_cast<QCPGraph *>(p); graph && !graph->scatterStyle().isNone()) {
            const QCPScatterStyle style = graph->scatterStyle();
            if (style.isPenDefined()) { // else it draws with the graph's pen, themed above
                themePen(graph, "scatterpen", style.pen(), [graph](const QPen &pen) {
                    QCPScatterStyle s = graph->scatterStyle();
                    s.setPen(pen);
                    graph->setScatterStyle(s);
                });
            }
            themeBrush(graph, "scatterbrush", style.brush(), [graph](const QBrush &b) {
                QCPScatterStyle s = graph->scatterStyle();
                s.setBrush(b);
                graph->setScatterStyle(s);
            });
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (auto *text = qobject_cast<QCPItemText *>(item)) {
            themeSlot(text, "color", [text] { return text->color(); }, [text](const QColor &c) { text->setColor(c); });
            themePen(text, "pen", text->pen(), [text](const QPen &p) { text->setPen(p); });
            themeBrush(text, "brush", text->brush(), [text](const QBrush &b) { text->setBrush(b); });
        } else if (auto *line = qobject_cast<QCPItemLine *>(item)) {
            themePen(line, "pen", line->pen(), [line](const QPen &p) { line->setPen(p); });
        } else if (auto *straight = qobject_cast<QCPItemStraightLine *>(item)) {
            themePen(straight, "pen", straight->pen(), [straight](const QPen &p) { straight->setPen(p); });
        } else if (auto *rect = qobject_cast<QCPItemRect *>(item)) {
            themePen(rect, "pen", rect->pen(), [rect](const QPen &p) { rect->setPen(p); });
            themeBrush(rect, "brush", rect->brush(), [rect](const QBrush &b) { rect->setBrush(b); });
        } else if (auto *tracer = qobject_cast<QCPItemTracer *>(item)) {
            themePen(tracer, "pen", tracer->pen(), [tracer](const QPen &p) { tracer->setPen(p); });
            themeBrush(tracer, "brush", tracer->brush(), [tracer](const QBrush &b) { tracer->setBrush(b); });
        }
    }
}

void installPlotTheme(QCustomPlot *plot)
{
    if (plot->property("rs_theme_installed").toBool()) {
        applyPlotTheme(plot);
        return;
    }
    plot->setProperty("rs_theme_installed", true);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { applyPlotTheme(plot); });
    applyPlotTheme(plot);
}

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
    cacheLegendEntry(plot, bars); // redrawn on every step of a view: measured once, drawn from an image
    return bars;
}

namespace {
// The cache is a protected member of QCustomPlot's axis painter (qcustomplot.h, QCPAxis::mAxisPainter,
// QCPAxisPainterPrivate::mLabelCache; the header has no setter for it). A pointer to a protected
// member, taken in a class derived from its owner, reads it on the base class; nothing is
// constructed or overridden.
struct AxisAccess : QCPAxis
{
    static constexpr auto painter = &AxisAccess::mAxisPainter;
};
struct AxisPainterAccess : QCPAxisPainterPrivate
{
    static constexpr auto cache = &AxisPainterAccess::mLabelCache;
};
} // namespace

void setTickLabelCacheSize(QCPAxis *axis, int labels)
{
    if (QCPAxisPainterPrivate *painter = axis->*AxisAccess::painter)
        (painter->*AxisPainterAccess::cache).setMaxCost(labels);
}

} // namespace studio
