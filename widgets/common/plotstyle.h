// The look every chart of the studio shares, in one place: log-log roofline
// axes with their grids and a title row, and small horizontal bar charts.
#pragma once

#include <QColor>
#include <QSharedPointer>
#include <QString>

class QCustomPlot;
class QCPAxis;
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

// Let `axis` keep the drawn pixmaps of up to `labels` tick labels. QCustomPlot keeps 16 per
// axis: an axis that shows more (the Brouwer bars' ~60 rotated layer names) draws every label
// of every replot from scratch (text shaping and a new pixmap each), a quarter of the bars'
// replot (docs/performance.md, Brouwer view).
void setTickLabelCacheSize(QCPAxis *axis, int labels);

// --- Theme -------------------------------------------------------------------
// Plots follow the window's theme: background, axes, grids, text, legends, and
// the greys the plots draw with (a black roof becomes a light one on dark);
// chromatic colours stay. Edit ▸ Preferences and --theme set it; exports and
// screenshots are drawn in it.
void setPlotThemeDark(bool dark);
// What setBackground(QBrush) set (QCustomPlot's background() is the pixmap).
QBrush plotBackgroundBrush(const QCustomPlot *plot);
bool plotThemeDark();
// Recolours `plot` for the current theme. Idempotent, and safe to call after a
// plot's own code has reset its colours (it remembers what it changed).
void applyPlotTheme(QCustomPlot *plot);
// applyPlotTheme() now and before every replot of `plot` (a plot rebuilds its
// items on each update); once per plot.
void installPlotTheme(QCustomPlot *plot);

} // namespace studio
