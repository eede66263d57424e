// The look every chart of the studio shares, in one place: log-log roofline
// axes with their grids and a title row, and small horizontal bar charts.
#pragma once

#include <QColor>
#include <QSharedPointer>
#include <QString>

class QCustomPlot;
class QCPAxisTickerText;
class QCPBars;
class QCPTextElement;

namespace studio {

// Log-log axes (decades, 8 sub-ticks, light grids), the x/y labels, a bold
// title row on top, and a translucent legend. Returns the title element.
QCPTextElement *setUpRooflineAxes(QCustomPlot *plot, const QString &xLabel, const QString &yLabel);

// A horizontal bar chart: categories on a reversed y axis with text ticks,
// values along x, 9 pt labels, the legend in a row of its own above the bars.
void setUpBarChart(QCustomPlot *plot, const QSharedPointer<QCPAxisTickerText> &ticker);
QCPBars *addHorizontalBars(QCustomPlot *plot, const QString &name, const QColor &color, double width);

} // namespace studio
