#include "brouwerplots.h"
#include "brouwerformat.h"

#include "brouwer/io.h"
#include "plotstyle.h"
#include "units.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::brouwer;

namespace {

const QColor kLoadStandard(140, 180, 225);
const QColor kExecStandard(31, 100, 180);
const QColor kLoadSwapping(250, 190, 120);
const QColor kExecSwapping(215, 90, 20);
constexpr double kMiB = 1024.0 * 1024.0;

// Colours that change with the theme. Greys are mirrored on dark by
// applyPlotTheme(); these are chosen per theme instead, because mirroring
// would defeat them:
//  - the uncalibrated hatch: dark lines on the bars in both themes (mirrored
//    to light grey it washed the swapping orange out on dark); a dark brown on
//    dark, chromatic, so the theme leaves it;
//  - the current point: a red disc with a black ring (the ring turns white on
//    dark), lighter red on dark so the disc itself stands out of the
//    background. (ssCircle: ssDisc fills with the pen's colour, which made it
//    a black dot, hard to see on dark.)
QBrush hatchBrush()
{
    return plotThemeDark() ? QBrush(QColor(24, 10, 0, 235), Qt::BDiagPattern)
                           : QBrush(QColor(40, 40, 40, 160), Qt::BDiagPattern);
}

QColor currentColor()
{
    return plotThemeDark() ? QColor(255, 100, 100) : QColor(215, 30, 30);
}

QString bytesText(double bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

// A linear axis whose coordinates are ms but whose tick labels speak `factor`
// times them (ms -> µs, s): the steps are chosen in the shown unit, so they are
// round there, and huge values read as powers of ten ("1.2·10¹¹"), never "e+11".
class ScaledLinearTicker : public QCPAxisTicker
{
public:
    double factor = 1;

protected:
    double getTickStep(const QCPRange &range) override
    {
        return QCPAxisTicker::getTickStep(QCPRange(range.lower * factor, range.upper * factor)) / factor;
    }
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        return QCPAxisTicker::getTickLabel(tick * factor, locale, formatChar, precision);
    }
};

QCPBars *stackedBars(QCustomPlot *plot, const QString &name, const QColor &color)
{
    auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setPen(Qt::NoPen);
    bars->setBrush(color);
    bars->setWidth(0.8);
    bars->setStackingGap(0);
    return bars;
}

void logAxis(QCPAxis *axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    axis->setTicker(ticker);
    axis->grid()->setSubGridVisible(true);
    axis->grid()->setSubGridPen(QPen(QColor(238, 238, 238), 0, Qt::SolidLine));
}

// Range of positive values with a margin on a log axis; [1, 10] when there are none.
QCPRange logRange(double lo, double hi)
{
    if (!(lo > 0) || !(hi > 0) || !std::isfinite(lo) || !std::isfinite(hi))
        return QCPRange(1, 10);
    if (hi / lo < 10) {
        const double mid = std::sqrt(lo * hi);
        lo = std::min(lo, mid / 3.2);
        hi = std::max(hi, mid * 3.2);
    }
    return QCPRange(lo / 1.6, hi * 1.6);
}

BrouwerTitle *addTitle(QCustomPlot *plot)
{
    plot->plotLayout()->insertRow(0);
    auto *title = new BrouwerTitle(plot, QFont(plot->font().family(), 11, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

// The whole title when the mouse is over a shortened one.
bool showTitleTip(const BrouwerTitle *title, QMouseEvent *event, QWidget *widget)
{
    if (!title->shortened() || !title->outerRect().contains(event->position().toPoint()))
        return false;
    QToolTip::showText(event->globalPosition().toPoint(), title->fullText().toHtmlEscaped(), widget);
    return true;
}

void smallFonts(QCustomPlot *plot)
{
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        QFont f = axis->labelFont();
        f.setPointSize(10);
        axis->setLabelFont(f);
    }
    QFont lf = plot->font();
    lf.setPointSize(9);
    plot->legend->setFont(lf);
    plot->legend->setBrush(QColor(255, 255, 255, 225));
    plot->legend->setBorderPen(QPen(QColor(180, 180, 180)));
    plot->legend->setIconTextPadding(10);
}

} // namespace

// --- Per-layer bars ----------------------------------------------------------

// --- Title -------------------------------------------------------------------

BrouwerTitle::BrouwerTitle(QCustomPlot *plot, const QFont &font)
    : QCPTextElement(plot, QString(), font)
{
}

void BrouwerTitle::setFullText(const QString &text)
{
    if (text == m_full)
        return;
    m_full = text;
    m_wrappedFor = -1;
    setText(text);
}

void BrouwerTitle::wrap(int width)
{
    if (width == m_wrappedFor)
        return;
    m_wrappedFor = width;
    const QFontMetrics fm(mFont);
    const int avail = std::max(40, width - mMargins.left() - mMargins.right() - 8);
    QStringList lines;
    QString line;
    const QStringList words = m_full.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    int i = 0;
    for (; i < words.size(); ++i) {
        const QString candidate = line.isEmpty() ? words[i] : line + QLatin1Char(' ') + words[i];
        if (line.isEmpty() || fm.horizontalAdvance(candidate) <= avail) {
            line = candidate;
            continue;
        }
        lines << line;
        line = words[i];
        if (lines.size() == kMaxLines - 1)
            break;
    }
    // The last line takes the rest, elided when it is still too long.
    for (++i; i < words.size(); ++i)
        line += QLatin1Char(' ') + words[i];
    if (!line.isEmpty())
        lines << line;
    for (QString &l : lines)
        l = fm.elidedText(l, Qt::ElideRight, avail);
    const QString wrapped = lines.join(QLatin1Char('\n'));
    m_shortened = QString(wrapped).replace(QLatin1Char('\n'), QLatin1Char(' ')) != m_full;
    setText(wrapped);
}

QSize BrouwerTitle::minimumOuterSizeHint() const
{
    // The title's row spans the whole plot: wrap to the viewport (the export size while exporting).
    const_cast<BrouwerTitle *>(this)->wrap(mParentPlot->viewport().width());
    return QCPTextElement::minimumOuterSizeHint();
}

QSize BrouwerTitle::maximumOuterSizeHint() const
{
    const_cast<BrouwerTitle *>(this)->wrap(mParentPlot->viewport().width());
    return QCPTextElement::maximumOuterSizeHint();
}

BrouwerBarsPlot::BrouwerBarsPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    setPlottingHint(QCP::phImmediateRefresh, false);
    setNoAntialiasingOnDrag(true);
    m_title = addTitle(this);
    smallFonts(this);
    m_loadStandard = stackedBars(this, tr("load"), kLoadStandard);
    m_loadSwapping = stackedBars(this, tr("load, swapping"), kLoadSwapping);
    m_execStandard = stackedBars(this, tr("execution"), kExecStandard);
    m_execSwapping = stackedBars(this, tr("execution, swapping"), kExecSwapping);
    m_loadSwapping->moveAbove(m_loadStandard);
    m_execStandard->moveAbove(m_loadSwapping);
    m_execSwapping->moveAbove(m_execStandard);
    m_uncalibrated = new QCPBars(xAxis, yAxis);
    m_uncalibrated->setName(tr("uncalibrated"));
    m_uncalibrated->setPen(QPen(QColor(60, 60, 60), 1));
    m_uncalibrated->setBrush(hatchBrush());
    m_uncalibrated->setWidth(0.8);
    m_compared = addGraph();
    m_compared->setLineStyle(QCPGraph::lsNone);
    // One pixel wide, a shade darker than the 1.5 px they were: a stroke wider than a pixel is
    // filled as a polygon by the raster engine, 142 of them on every memory move (60bee8b).
    m_compared->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(60, 60, 60), 1), Qt::NoBrush, 7));
    m_ticker = QSharedPointer<QCPAxisTickerText>::create();
    xAxis->setTicker(m_ticker);
    xAxis->setTickLabelRotation(60);
    setTickLabelCacheSize(xAxis, 256); // up to ~90 layer names shown: drawn once, not on every replot
    xAxis->grid()->setVisible(false);
    xAxis->setLabel(tr("Layer (in execution order)"));
    yAxis->setTicker(QSharedPointer<ScaledLinearTicker>::create());
    yAxis->setNumberFormat(QStringLiteral("gb")); // 1.2·10¹¹ for absurd calibrations, never 1.2e+11
    setTimeUnit(1);
    // The legend in a row of its own under the title, so it never hides a bar.
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(2);
    legend->setBorderPen(Qt::NoPen);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, legend);
    legend->setMargins(QMargins(4, 0, 4, 0));
    plotLayout()->setRowStretchFactor(1, 0.001);
}

void BrouwerBarsPlot::setResult(const Result &result, bool smeared, const QString &title, const Result *compared,
                                const QString &comparedName)
{
    m_layers = result.layers;
    m_smeared = smeared;
    const int n = int(m_layers.size());
    // Each layer in the two series of its regime only: a bar of height 0 draws nothing but
    // still cost a polygon fill per replot (half of the bars' 710 on a memory move). A stack
    // finds its base in the series below by key and passes over a series without it.
    QVector<QCPBarsData> ls, lw, es, ew, un;
    for (QVector<QCPBarsData> *v : {&ls, &lw, &es, &ew})
        v->reserve(n);
    double top = 0;
    for (int i = 0; i < n; ++i) {
        const LayerPrediction &l = m_layers[std::size_t(i)];
        const double load = smeared ? l.load.smearedMs : l.load.ms;
        const double exec = smeared ? l.exec.smearedMs : l.exec.ms;
        const bool swap = l.swapping();
        (swap ? lw : ls).append(QCPBarsData(i, load));
        (swap ? ew : es).append(QCPBarsData(i, exec));
        if (!l.load.calibrated || !l.exec.calibrated)
            un.append(QCPBarsData(i, load + exec));
        top = std::max(top, load + exec);
    }
    m_loadStandard->data()->set(ls, true);
    m_loadSwapping->data()->set(lw, true);
    m_execStandard->data()->set(es, true);
    m_execSwapping->data()->set(ew, true);
    m_uncalibrated->data()->set(un, true);
    if (m_uncalibrated->brush() != hatchBrush()) // the theme changed
        m_uncalibrated->setBrush(hatchBrush());
    m_uncalibrated->addToLegend();
    if (un.isEmpty())
        m_uncalibrated->removeFromLegend();

    QVector<double> ck, cv;
    if (compared && compared->layers.size() == m_layers.size()) {
        for (int i = 0; i < n; ++i) {
            ck.append(i);
            cv.append(compared->layers[std::size_t(i)].totalMs(smeared));
            top = std::max(top, cv.back());
        }
        m_compared->setName(tr("snapshot “%1”").arg(comparedName));
        m_compared->addToLegend();
    } else {
        m_compared->removeFromLegend();
    }
    m_compared->setData(ck, cv, true);

    if (n != m_tickedFor || result.layers.data() != m_tickedNames) {
        m_tickedFor = n;
        m_tickedNames = result.layers.data();
        updateTicks();
    }
    xAxis->setRange(-0.7, std::max(1, n) - 0.3);
    yAxis->setRange(0, top > 0 ? top * 1.18 : 1);
    setTimeUnit(top);
    m_title->setFullText(title);
}

void BrouwerBarsPlot::setTimeUnit(double topMs)
{
    // µs, ms or s (ns with base units, Edit ▸ Preferences) by the tallest bar.
    const TimeUnit unit = timeUnitFor((topMs > 0 ? topMs : 1) * 1e6);
    static_cast<ScaledLinearTicker *>(yAxis->ticker().data())->factor = unit.perNs * 1e6;
    if (unit.name != m_timeUnit) {
        m_timeUnit = unit.name;
        yAxis->setLabel(tr("Time per layer (%1)").arg(unit.name));
    }
}

void BrouwerBarsPlot::updateTicks()
{
    // Layer names under the bars: every k-th, about 16 pixels per label at the plot's width.
    const int n = int(m_layers.size());
    // A hidden plot (another tab, a headless export) is drawn at the export's size, about 1000 px.
    const int w = isVisible() ? width() : 1000;
    m_tickedWidth = width();
    const int room = std::max(10, (std::max(w, 300) - 90) / 16);
    const int step = std::max(1, int(std::ceil(double(n) / room)));
    QMap<double, QString> ticks;
    for (int i = 0; i < n; i += step) {
        QString name = QString::fromStdString(m_layers[std::size_t(i)].name);
        if (name.size() > 18)
            name = name.left(16) + QStringLiteral("…");
        ticks.insert(i, name);
    }
    m_ticker->setTicks(ticks);
}

void BrouwerBarsPlot::resizeEvent(QResizeEvent *event)
{
    if (width() != m_tickedWidth)
        updateTicks();
    QCustomPlot::resizeEvent(event);
}

void BrouwerBarsPlot::showEvent(QShowEvent *event)
{
    updateTicks(); // now at the width it is shown at
    QCustomPlot::showEvent(event);
}

QString BrouwerBarsPlot::layerTip(int index) const
{
    if (index < 0 || std::size_t(index) >= m_layers.size())
        return {};
    const LayerPrediction &l = m_layers[std::size_t(index)];
    auto part = [&](const PartPrediction &p) {
        return tr("%1 (%2%3)")
            .arg(brouwerTimeText(m_smeared ? p.smearedMs : p.ms), QString::fromLatin1(categoryLabel(p.submodel)),
                 p.calibrated ? QString() : tr(", uncalibrated: the device has no data for this regime"));
    };
    return tr("<b>%1</b> (%2)<br>required %3 · overflow F %4 elements<br>regime: %5<br>load %6<br>execution %7<br>"
              "total %8")
        .arg(QString::fromStdString(l.name).toHtmlEscaped(), QString::fromLatin1(categoryLabel(l.category)),
             bytesText(l.requiredBytes), QString::number(l.overflow, 'f', 0), l.swapping() ? tr("swapping") : tr("standard"),
             part(l.load), part(l.exec), brouwerTimeText(l.totalMs(m_smeared)));
}

void BrouwerBarsPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (showTitleTip(m_title, event, this))
        return;
    const QPointF pos = event->position();
    const int index = int(std::lround(xAxis->pixelToCoord(pos.x())));
    const bool inside = axisRect()->rect().contains(pos.toPoint());
    const QString text = inside ? layerTip(index) : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

QSize BrouwerBarsPlot::minimumSizeHint() const
{
    return m_hint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
}

QSize BrouwerBarsPlot::sizeHint() const
{
    return minimumSizeHint().expandedTo(QSize(320, 240)); // the splitter shares the rest by its stretch factors
}

// --- Total time against memory -----------------------------------------------

BrouwerCurvePlot::BrouwerCurvePlot(QWidget *parent)
    : QCustomPlot(parent)
{
    setPlottingHint(QCP::phImmediateRefresh, false);
    m_title = addTitle(this);
    smallFonts(this);
    logAxis(xAxis);
    logAxis(yAxis);
    xAxis->setLabel(tr("Available memory (MiB)"));
    setLogAxisScale(yAxis, 1);
    yAxis->setLabel(tr("Total time per inference (ms)"));
    m_compared = addGraph();
    m_compared->setPen(QPen(QColor(165, 165, 165), 2)); // solid: a dashed polyline costs milliseconds per replot
    m_compared->removeFromLegend();
    m_curve = addGraph();
    m_curve->setName(tr("total time"));
    m_curve->setPen(QPen(kExecStandard, 2));
    m_knees = addGraph();
    m_knees->setName(tr("knees"));
    m_knees->setLineStyle(QCPGraph::lsNone);
    m_knees->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kExecSwapping, 1.5), Qt::white, 6));
    m_current = addGraph();
    m_current->setName(tr("current"));
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), currentColor(), 11));
    m_line = new QCPItemStraightLine(this);
    m_line->setPen(QPen(currentColor(), 1, Qt::DotLine));
    m_label = new QCPItemText(this);
    m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_label->setPadding(QMargins(6, 2, 6, 2));
    m_label->setBrush(QColor(255, 255, 255, 210));
    QFont f = font();
    f.setPointSize(9);
    f.setBold(true);
    m_label->setFont(f);
    // The current point, its line and its label on the overlay layer (buffered, its own paint
    // buffer): a memory move redraws that layer only (replotChanged), not the curves, knees,
    // axes and legend, which do not change.
    for (QCPLayerable *item : std::initializer_list<QCPLayerable *>{m_current, m_line, m_label})
        item->setLayer(QStringLiteral("overlay"));
    // Only a replot that has run has drawn the rest (a queued one may still wait; a hidden
    // plot's may never run, and then there is no layer buffer to draw into).
    connect(this, &QCustomPlot::afterReplot, this, [this] { m_wholePlotChanged = false; });
    // The legend in one row under the title: inside the axis rect it hid the
    // current point's label on narrow plots (what a knee is: the tooltip and the primer).
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(3);
    legend->setBorderPen(Qt::NoPen);
    legend->setIconSize(22, 12);
    legend->setIconTextPadding(6);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, legend);
    legend->setMargins(QMargins(4, 0, 4, 0));
    plotLayout()->setRowStretchFactor(1, 0.001);
}

void BrouwerCurvePlot::setCurve(const Curve &curve, bool smeared, const QString &title)
{
    QVector<double> x, y;
    x.reserve(int(curve.points.size()));
    y.reserve(int(curve.points.size()));
    double lo = INFINITY, hi = 0;
    for (const CurvePoint &p : curve.points) {
        const double t = smeared ? p.smearedMs : p.totalMs;
        x.append(p.bytes / kMiB);
        y.append(t);
        if (t > 0) {
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
    }
    m_curve->setData(x, y, true);
    m_kneeList = curve.knees;
    QVector<double> kx, ky;
    for (const Knee &k : curve.knees) {
        // The total at the knee itself (the layer still fits): the curve's point at k.bytes.
        const auto it = std::lower_bound(curve.points.begin(), curve.points.end(), k.bytes,
                                         [](const CurvePoint &p, double b) { return p.bytes < b; });
        if (it == curve.points.end())
            continue;
        kx.append(k.bytes / kMiB);
        ky.append(smeared ? it->smearedMs : it->totalMs);
    }
    m_knees->setData(kx, ky, true);
    m_wholePlotChanged = true;
    xAxis->setRange(curve.points.empty() ? QCPRange(16, 16384)
                                         : QCPRange(curve.points.front().bytes / kMiB / 1.15,
                                                    curve.points.back().bytes / kMiB * 1.15));
    yAxis->setRange(logRange(lo, hi));
    // The curve's unit (µs, ms, s) by its largest value; the coordinates stay in ms.
    const TimeUnit unit = timeUnitFor((hi > 0 ? hi : 1) * 1e6);
    setLogAxisScale(yAxis, unit.perNs * 1e6);
    m_timeUnit = unit.name;
    yAxis->setLabel(tr("Total time per inference (%1)").arg(unit.name));
    updateLogTickFormat(xAxis);
    updateLogTickFormat(yAxis);
    m_title->setFullText(title);
}

void BrouwerCurvePlot::setComparedCurve(const Curve *curve, bool smeared, const QString &name)
{
    if (!curve && m_compared->data()->isEmpty())
        return; // none before either (the view says so on every update)
    QVector<double> x, y;
    if (curve) {
        for (const CurvePoint &p : curve->points) {
            x.append(p.bytes / kMiB);
            y.append(smeared ? p.smearedMs : p.totalMs);
        }
        m_compared->setName(tr("snapshot “%1”").arg(name));
        m_compared->addToLegend();
    } else {
        m_compared->removeFromLegend();
    }
    m_compared->setData(x, y, true);
    m_wholePlotChanged = true;
}

void BrouwerCurvePlot::setCurrent(double bytes, double totalMs)
{
    const double x = bytes / kMiB;
    m_current->setData({x}, {totalMs}, true);
    if (m_current->scatterStyle().brush().color() != currentColor()) { // the theme changed
        QCPScatterStyle style = m_current->scatterStyle();
        style.setBrush(currentColor());
        m_current->setScatterStyle(style);
        m_line->setPen(QPen(currentColor(), 1, Qt::DotLine));
        m_wholePlotChanged = true; // the legend's icon too
    }
    m_line->point1->setCoords(x, 1);
    m_line->point2->setCoords(x, 2);
    m_label->position->setCoords(x, totalMs);
    m_label->setText(tr("%1: %2").arg(bytesText(bytes), brouwerTimeText(totalMs)));
    // Keep the label inside the plot: to the left of the point in the right third.
    const double t = (std::log(x) - std::log(xAxis->range().lower))
        / (std::log(xAxis->range().upper) - std::log(xAxis->range().lower));
    const double v = (std::log(std::max(totalMs, 1e-300)) - std::log(yAxis->range().lower))
        / (std::log(yAxis->range().upper) - std::log(yAxis->range().lower));
    m_label->setPositionAlignment((t > 0.62 ? Qt::AlignRight : Qt::AlignLeft) | (v > 0.85 ? Qt::AlignTop : Qt::AlignBottom));
}

void BrouwerCurvePlot::replotChanged()
{
    if (m_wholePlotChanged) { // cleared when the replot has run (afterReplot)
        ++m_wholeReplots;
        replot(rpQueuedReplot);
        return;
    }
    // Only the current point moved. QCPLayer::replot() redraws the overlay's buffer and
    // schedules a paint (the other buffers are blitted as they are); it replots the whole
    // plot itself when a buffer is stale (a resize, a layer change, no replot yet).
    ++m_currentReplots;
    layer(QStringLiteral("overlay"))->replot();
}

void BrouwerCurvePlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (showTitleTip(m_title, event, this))
        return;
    const QPointF pos = event->position();
    QString text;
    double best = 8; // pixels
    for (const Knee &k : m_kneeList) {
        const double px = xAxis->coordToPixel(k.bytes / kMiB);
        if (std::abs(px - pos.x()) < best) {
            best = std::abs(px - pos.x());
            text = tr("Knee at %1: <b>%2</b> swaps below it").arg(bytesText(k.bytes), QString::fromStdString(k.layer).toHtmlEscaped());
        }
    }
    if (text.isEmpty() && axisRect()->rect().contains(pos.toPoint()))
        text = tr("Double-click to set the memory to %1").arg(bytesText(xAxis->pixelToCoord(pos.x()) * kMiB));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void BrouwerCurvePlot::mouseDoubleClickEvent(QMouseEvent *event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    if (axisRect()->rect().contains(event->position().toPoint()))
        emit memoryClicked(xAxis->pixelToCoord(event->position().x()) * kMiB);
}

QSize BrouwerCurvePlot::minimumSizeHint() const
{
    return m_hint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
}

QSize BrouwerCurvePlot::sizeHint() const
{
    return minimumSizeHint().expandedTo(QSize(320, 240)); // the splitter shares the rest by its stretch factors
}

// --- Predicted against measured ----------------------------------------------

BrouwerScatterPlot::BrouwerScatterPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    setPlottingHint(QCP::phImmediateRefresh, false);
    m_title = addTitle(this);
    smallFonts(this);
    logAxis(xAxis);
    logAxis(yAxis);
    setLogAxisScale(xAxis, 1);
    setLogAxisScale(yAxis, 1);
    xAxis->setLabel(tr("Measured time (ms)"));
    yAxis->setLabel(tr("Predicted time (ms)"));
    m_diagonal = addGraph();
    m_diagonal->setName(tr("predicted = measured"));
    m_diagonal->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
    m_load = addGraph();
    m_load->setName(tr("loading"));
    m_load->setLineStyle(QCPGraph::lsNone);
    m_load->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kLoadStandard.darker(140), 1.5), Qt::NoBrush, 7));
    m_exec = addGraph();
    m_exec->setName(tr("execution"));
    m_exec->setLineStyle(QCPGraph::lsNone);
    m_exec->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(kExecStandard), QColor(31, 100, 180, 150), 6));
    m_metrics = new QCPItemText(this);
    m_metrics->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_metrics->position->setCoords(0.02, 0.03);
    m_metrics->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_metrics->setTextAlignment(Qt::AlignLeft);
    m_metrics->setPadding(QMargins(6, 4, 6, 4));
    m_metrics->setBrush(QColor(255, 255, 255, 225));
    m_metrics->setPen(QPen(QColor(180, 180, 180)));
    QFont f = font();
    f.setPointSize(9);
    m_metrics->setFont(f);
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
}

void BrouwerScatterPlot::setPoints(const std::vector<Point> &points, const QString &title, const QString &metrics)
{
    m_points = points;
    QVector<QCPGraphData> load, exec;
    double lo = INFINITY, hi = 0;
    for (const Point &p : m_points) {
        if (!(p.measuredMs > 0) || !(p.predictedMs > 0))
            continue;
        (p.load ? load : exec).append(QCPGraphData(p.measuredMs, p.predictedMs));
        lo = std::min({lo, p.measuredMs, p.predictedMs});
        hi = std::max({hi, p.measuredMs, p.predictedMs});
    }
    // QCPGraph keys must be sorted; the points come in observation order.
    auto byKey = [](const QCPGraphData &a, const QCPGraphData &b) { return a.key < b.key; };
    std::sort(load.begin(), load.end(), byKey);
    std::sort(exec.begin(), exec.end(), byKey);
    m_load->data()->set(load, true);
    m_exec->data()->set(exec, true);
    const QCPRange range = logRange(lo, hi);
    m_diagonal->setData({range.lower, range.upper}, {range.lower, range.upper}, true);
    xAxis->setRange(range);
    yAxis->setRange(range);
    const TimeUnit unit = timeUnitFor((hi > 0 ? hi : 1) * 1e6); // one unit for both axes: the diagonal stays y = x
    setLogAxisScale(xAxis, unit.perNs * 1e6);
    setLogAxisScale(yAxis, unit.perNs * 1e6);
    xAxis->setLabel(tr("Measured time (%1)").arg(unit.name));
    yAxis->setLabel(tr("Predicted time (%1)").arg(unit.name));
    updateLogTickFormat(xAxis);
    updateLogTickFormat(yAxis);
    m_title->setFullText(title);
    // Empty state: no axes, grid or legend that are not data, only what to do next, in the middle.
    const bool empty = points.empty();
    m_metrics->setText(empty ? (metrics.isEmpty() ? tr("No measurements loaded.\n\nOpen measured per-layer times "
                                                       "(EdgeCaffe's CSV or ours,\nwith the memory limit per row) with "
                                                       "“Open measurements…” in the panel,\nor File ▸ Open, or drop "
                                                       "the files on the window.")
                                                  : metrics)
                             : metrics);
    m_metrics->position->setCoords(empty ? 0.5 : 0.02, empty ? 0.45 : 0.03);
    m_metrics->setPositionAlignment(empty ? Qt::AlignCenter : (Qt::AlignLeft | Qt::AlignTop));
    m_metrics->setTextAlignment(empty ? Qt::AlignCenter : Qt::AlignLeft);
    m_diagonal->setVisible(!empty);
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setVisible(!empty);
        axis->grid()->setVisible(!empty);
    }
    legend->setVisible(!empty);
}

void BrouwerScatterPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (showTitleTip(m_title, event, this))
        return;
    const QPointF pos = event->position();
    const Point *nearest = nullptr;
    double best = 8 * 8;
    for (const Point &p : m_points) {
        if (!(p.measuredMs > 0) || !(p.predictedMs > 0))
            continue;
        const double dx = xAxis->coordToPixel(p.measuredMs) - pos.x();
        const double dy = yAxis->coordToPixel(p.predictedMs) - pos.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            nearest = &p;
        }
    }
    if (!nearest) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("<b>%1</b><br>measured %2 · predicted %3")
                           .arg(nearest->label.toHtmlEscaped(), brouwerTimeText(nearest->measuredMs), brouwerTimeText(nearest->predictedMs)),
                       this);
}

QSize BrouwerScatterPlot::minimumSizeHint() const
{
    return m_hint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
}

QSize BrouwerScatterPlot::sizeHint() const
{
    return minimumSizeHint().expandedTo(QSize(320, 240)); // the splitter shares the rest by its stretch factors
}

} // namespace studio
