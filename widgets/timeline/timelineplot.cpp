#include "timelineplot.h"

#include "units.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::verrocchio;

namespace {

constexpr double kBarTop = 0.14; // bars fill [lane + kBarTop, lane + 1 − kBarTop]
constexpr std::size_t kMaxLabels = 600;
constexpr std::size_t kMaxArrows = 300;
constexpr std::size_t kMaxLegendNames = 10;
constexpr std::size_t kMaxVisibleLanes = 36;

const QColor kStallColor(150, 150, 150);
const QColor kMergedColor(110, 110, 110);
const QColor kContentionColor(197, 27, 125, 40);
const QColor kContentionBandColor(197, 27, 125); // unlike any instruction colour
const QColor kCriticalColor(200, 0, 40);
const QColor kArrowColor(30, 30, 30);
const QColor kGhostLineColor(90, 90, 90);
constexpr double kGhostInset = 0.015; // the ghost band: [lane + 1 − kBarTop + inset, lane + 1 − inset]

// Tick labels in the time unit the axis label names.
class TimeTicker : public QCPAxisTicker {
public:
    double perNs = 1;

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        const double v = tick * perNs;
        return formatValue(std::abs(v) < 1e-9 ? 0.0 : v, 6);
    }
};

QString laneLabel(std::size_t lane, std::size_t cores)
{
    const QString pipe = QString::fromLatin1(pipeName(pipeOfLane(lane)));
    return cores > 1 ? QStringLiteral("core %1  %2").arg(coreOfLane(lane)).arg(pipe) : pipe;
}

// Rectangles collected by fill and outline and painted with one drawRects()
// per pair: the raster engine fills a batch of axis-aligned rectangles many
// times faster than the same rectangles one call and one pen change each
// (docs/performance.md). Every rectangle stays its own <rect> in SVG.
class RectBatches {
public:
    void add(const QRectF &rect, const QColor &fill, const QColor &outline = QColor())
    {
        const quint64 key = (quint64(fill.rgba()) << 32) | (outline.isValid() ? outline.rgba() : 0u);
        auto it = std::find_if(m_batches.begin(), m_batches.end(), [&](const Batch &b) { return b.key == key; });
        if (it == m_batches.end()) {
            m_batches.push_back({ key, fill, outline, {} });
            it = m_batches.end() - 1;
        }
        it->rects.push_back(rect);
    }
    void paint(QCPPainter *painter)
    {
        // On screen, outlines are batched hairlines: the raster engine strokes
        // an outlined rectangle as a path, ten times slower than a fill. SVG and
        // PDF keep one outlined <rect> per bar, which editors handle better.
        const bool raster = painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster;
        std::vector<QLineF> lines;
        for (const Batch &b : m_batches) {
            const bool outline = b.outline.isValid();
            painter->setPen(outline && !raster ? QPen(b.outline, 0) : QPen(Qt::NoPen));
            painter->setBrush(b.fill);
            painter->drawRects(b.rects.data(), int(b.rects.size()));
            if (!outline || !raster)
                continue;
            lines.clear();
            for (const QRectF &r : b.rects) {
                lines.emplace_back(r.topLeft(), r.topRight());
                lines.emplace_back(r.topRight(), r.bottomRight());
                lines.emplace_back(r.bottomRight(), r.bottomLeft());
                lines.emplace_back(r.bottomLeft(), r.topLeft());
            }
            painter->setPen(QPen(b.outline, 0));
            painter->drawLines(lines.data(), int(lines.size()));
        }
        m_batches.clear();
    }

private:
    struct Batch {
        quint64 key;
        QColor fill;
        QColor outline;
        std::vector<QRectF> rects;
    };
    std::vector<Batch> m_batches;
};

QString formatTime(double ns, const TimeUnit &unit)
{
    return QStringLiteral("%1 %2").arg(formatValue(ns * unit.perNs), unit.name);
}

double nsPerPixelOf(const QCPAxis *axis)
{
    const double px = std::abs(axis->coordToPixel(axis->range().upper) - axis->coordToPixel(axis->range().lower));
    return px > 0 ? axis->range().size() / px : 0;
}

// The colour of a group's work when it is all one instruction (waits in
// between do not count), neutral for a mix.
QColor groupColorOf(const TimelineData &data, const BarGroup &g)
{
    const TimelineBars &bars = *data.bars;
    const Trace &trace = *data.trace;
    const auto nameOf = [&](const Bar &b) { return trace.cores[b.core].instructions[b.instruction].name; };
    std::optional<std::uint32_t> name;
    for (std::size_t i = g.first; i < g.first + g.count; ++i) {
        const Bar &b = bars.bars[i];
        if (b.kind == Bar::Kind::Stall)
            continue;
        if (name && nameOf(b) != *name)
            return kMergedColor;
        name = nameOf(b);
    }
    return name ? TimelinePlot::colorOfName(*name) : kMergedColor;
}

// A group's horizontal extent in pixels, at least one pixel wide so that nothing that ran is invisible.
std::pair<double, double> groupPixels(const QCPAxis *axis, const BarGroup &g)
{
    double x0 = axis->coordToPixel(g.start);
    double x1 = axis->coordToPixel(g.end);
    if (x1 - x0 < 1) {
        const double mid = (x0 + x1) / 2;
        x0 = mid - 0.5;
        x1 = mid + 0.5;
    }
    return { x0, x1 };
}

} // namespace

// Paints the bars of a TimelineData on its axes: key = time (ns), value = lane.
class TimelineBarsPlottable : public QCPAbstractPlottable {
public:
    TimelineBarsPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis, bool compact)
        : QCPAbstractPlottable(keyAxis, valueAxis)
        , m_compact(compact)
    {
        setAntialiased(false); // axis-aligned rectangles: crisp and fast
    }

    TimelineData data;
    bool showCriticalPath = true;
    bool showFlagArrows = false;
    std::optional<InstructionRef> selected;

    double nsPerPixel() const { return nsPerPixelOf(keyAxis()); }

    std::vector<BarGroup> groups() const
    {
        if (!data.bars)
            return {};
        const QCPRange r = keyAxis()->range();
        return mergeBars(*data.bars, r.lower, r.upper, nsPerPixel(), m_compact ? 2.0 : 1.0);
    }

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain) const override
    {
        foundRange = data.result != nullptr;
        return QCPRange(0, data.result ? std::max(data.result->totalNs, 1e-3) : 1);
    }
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const override
    {
        foundRange = data.bars != nullptr;
        return QCPRange(0, data.bars ? double(std::max<std::size_t>(1, data.bars->laneCount())) : 1);
    }

protected:
    void drawLegendIcon(QCPPainter *, const QRectF &) const override { }

    void draw(QCPPainter *painter) override
    {
        if (!data.bars || !data.result || !data.trace)
            return;
        const TimelineBars &bars = *data.bars;
        const QRect clip = clipRect();
        drawLaneSeparators(painter, clip, bars.laneCount());
        if (!m_compact)
            drawContention(painter);
        const std::vector<BarGroup> visible = groups();
        RectBatches batches;
        std::vector<QRectF> hatched; // stalls wide enough for hatching
        struct Label {
            QRectF rect;
            std::size_t bar;
            QColor fill;
        };
        std::vector<Label> labelled; // bars wide enough for a name
        for (const BarGroup &g : visible) {
            const QRectF rect = groupRect(g);
            if (g.allStalls()) {
                if (m_compact)
                    batches.add(rect, QColor(215, 215, 215));
                else
                    batches.add(rect, QColor(245, 245, 245), kStallColor);
                if (!m_compact && !g.merged() && rect.width() >= 6)
                    hatched.push_back(rect);
                continue;
            }
            QColor fill = groupColor(g);
            if (g.merged()) { // denser stretches darker: the share of the group's span that was busy
                const double busy = std::clamp(g.busyNs / std::max(g.end - g.start, 1e-300), 0.0, 1.0);
                fill.setAlpha(int(60 + 195 * std::round(busy * 16) / 16)); // 17 shades: few batches
            }
            batches.add(rect, fill, !m_compact && rect.width() > 4 ? fill.darker(140) : QColor());
            if (!m_compact && !g.merged() && rect.width() > 24 && labelled.size() < kMaxLabels)
                labelled.push_back({ rect, g.first, fill });
        }
        batches.paint(painter);
        for (const QRectF &rect : hatched)
            drawHatching(painter, rect);
        if (m_compact)
            return;
        for (const Label &l : labelled)
            drawLabel(painter, l.rect, bars.bars[l.bar], l.fill);
        drawContentionLabels(painter);
        if (showCriticalPath && data.onPath)
            drawCriticalPath(painter, visible);
        if (showFlagArrows)
            drawAllArrows(painter, visible);
        if (selected)
            drawSelection(painter, *selected);
    }

private:
    double laneY(double lane) const { return valueAxis()->coordToPixel(lane); }

    QRectF groupRect(const BarGroup &g) const
    {
        const auto [x0, x1] = groupPixels(keyAxis(), g);
        const double y0 = laneY(g.lane + kBarTop);
        const double y1 = laneY(g.lane + 1 - kBarTop);
        return QRectF(QPointF(x0, std::min(y0, y1)), QPointF(x1, std::max(y0, y1)));
    }

    QColor groupColor(const BarGroup &g) const { return groupColorOf(data, g); }

    void drawLaneSeparators(QCPPainter *painter, const QRect &clip, std::size_t lanes)
    {
        for (std::size_t lane = 1; lane < lanes; ++lane) {
            const bool core = lane % kPipeCount == 0;
            if (m_compact && !core)
                continue;
            painter->setPen(QPen(core ? QColor(120, 120, 120) : QColor(230, 230, 230), core ? 1 : 0));
            const double y = laneY(double(lane));
            painter->drawLine(QLineF(clip.left(), y, clip.right(), y));
        }
    }

    void drawHatching(QCPPainter *painter, const QRectF &rect)
    {
        // Hatching drawn as clipped lines: pattern brushes do not survive SVG export.
        painter->setPen(QPen(kStallColor, 0));
        const double h = rect.height();
        const double step = 6;
        for (double x0 = rect.left() - h + std::fmod(rect.left(), step); x0 < rect.right(); x0 += step) {
            // Line from (x0, bottom) rising at 45° to (x0 + h, top), clipped to the rect.
            const double a = std::max(x0, rect.left());
            const double b = std::min(x0 + h, rect.right());
            if (b <= a)
                continue;
            painter->drawLine(QLineF(a, rect.bottom() - (a - x0), b, rect.bottom() - (b - x0)));
        }
    }

    bool drawLabel(QCPPainter *painter, const QRectF &rect, const Bar &bar, const QColor &fill)
    {
        const Trace &trace = *data.trace;
        const Instruction &in = trace.cores[bar.core].instructions[bar.instruction];
        const QString name = QString::fromStdString(trace.names[in.name < trace.names.size() ? in.name : 0]);
        const QFontMetricsF metrics(painter->font());
        if (name.isEmpty() || metrics.horizontalAdvance(name) + 6 > rect.width()
            || metrics.height() > rect.height() + 2)
            return false;
        painter->setPen(fill.lightnessF() < 0.55 ? Qt::white : Qt::black);
        painter->drawText(rect, Qt::AlignCenter, name);
        return true;
    }

    void drawContention(QCPPainter *painter)
    {
        const TimelineBars &bars = *data.bars;
        const QCPRange r = keyAxis()->range();
        const double px = nsPerPixel();
        // Per lane, the shaded lane and a solid band above the bars (which hide
        // the translucent shade); spans closer than a pixel drawn as one.
        RectBatches shades;
        for (std::size_t lane = 0; lane + 1 < bars.contentionBegin.size(); ++lane) {
            const auto first = bars.contention.begin() + std::ptrdiff_t(bars.contentionBegin[lane]);
            const auto last = bars.contention.begin() + std::ptrdiff_t(bars.contentionBegin[lane + 1]);
            auto it = std::lower_bound(first, last, r.lower,
                [](const TimelineBars::Span &s, double t) { return s.end < t; });
            const double top = laneY(double(lane)), barTop = laneY(lane + kBarTop), bottom = laneY(double(lane + 1));
            auto flush = [&](double s, double e) {
                const QRectF rect = groupRect(BarGroup { s, e, std::uint32_t(lane), 0, 1, 0, 0, 0 });
                shades.add(QRectF(QPointF(rect.left(), top), QPointF(rect.right(), bottom)).normalized(),
                    kContentionColor);
                shades.add(QRectF(QPointF(rect.left(), std::min(top, barTop) + 1),
                               QPointF(rect.right(), std::max(top, barTop) - 1)).normalized(),
                    kContentionBandColor);
            };
            double s = 0, e = -1;
            for (; it != last && it->start <= r.upper; ++it) {
                if (e >= s && it->start - e < px) {
                    e = std::max(e, it->end);
                    continue;
                }
                if (e >= s)
                    flush(s, e);
                s = it->start;
                e = it->end;
            }
            if (e >= s)
                flush(s, e);
        }
        shades.paint(painter);

        // The share of each transfer, where an interval is wide enough to say
        // it: only looked for when few intervals are in view.
        const Result &result = *data.result;
        const Trace &trace = *data.trace;
        const auto from = std::lower_bound(result.contention.begin(), result.contention.end(), r.lower,
            [](const ContentionInterval &c, double t) { return c.end < t; });
        const auto to = std::upper_bound(from, result.contention.end(), r.upper,
            [](double t, const ContentionInterval &c) { return t < c.start; });
        if (to - from > 4000)
            return; // then none is 70 pixels wide on any screen
        std::size_t labelled = 0;
        for (auto it = from; it != to && labelled < kMaxLabels; ++it) {
            if ((it->end - it->start) / std::max(px, 1e-300) <= 70)
                continue;
            for (const Share &share : result.sharesOf(*it)) {
                if (share.core >= trace.cores.size()
                    || share.instruction >= trace.cores[share.core].instructions.size())
                    continue;
                const std::size_t lane
                    = laneOf(share.core, trace.cores[share.core].instructions[share.instruction].pipe);
                const QRectF box(QPointF(keyAxis()->coordToPixel(it->start), laneY(double(lane))),
                    QPointF(keyAxis()->coordToPixel(it->end), laneY(lane + kBarTop)));
                pendingLabels.push_back(
                    { box.normalized(), QStringLiteral("bus share %1 GB/s").arg(formatValue(share.rateGBps, 3)) });
                ++labelled;
            }
        }
    }

    void drawContentionLabels(QCPPainter *painter)
    {
        // Labels on a light box just under the band, where they stay readable over any bar.
        QFont small = painter->font();
        small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
        const QFont saved = painter->font();
        painter->setFont(small);
        const QFontMetricsF metrics(small);
        for (const auto &[box, text] : pendingLabels) {
            const QRectF label(box.left() + 2, box.bottom() + 1, metrics.horizontalAdvance(text) + 6, metrics.height());
            if (label.right() > box.right())
                continue;
            painter->setPen(Qt::NoPen);
            painter->setBrush(QColor(255, 255, 255, 215));
            painter->drawRoundedRect(label, 2, 2); // a path, not a rect: the bars stay the only rects
            painter->setPen(kContentionBandColor.darker(150));
            painter->drawText(label, Qt::AlignCenter, text);
        }
        painter->setFont(saved);
        pendingLabels.clear();
    }

    void drawCriticalPath(QCPPainter *painter, const std::vector<BarGroup> &visible)
    {
        const auto &onPath = *data.onPath;
        const TimelineBars &bars = *data.bars;
        // A 2-pixel frame around each bar on the path (a line under a merged
        // group), as filled edges: one batch instead of a stroked rectangle each.
        RectBatches edges;
        for (const BarGroup &g : visible) {
            bool any = false;
            for (std::size_t i = g.first; i < g.first + g.count && !any; ++i) {
                const Bar &b = bars.bars[i];
                any = b.kind == Bar::Kind::Work && onPath[b.core][b.instruction];
            }
            if (!any)
                continue;
            const QRectF r = groupRect(g).adjusted(-2, -2, 2, 2);
            if (g.merged()) {
                edges.add(QRectF(r.left(), r.bottom() - 2, r.width(), 2), kCriticalColor);
                continue;
            }
            edges.add(QRectF(r.left(), r.top(), 2, r.height()), kCriticalColor);
            edges.add(QRectF(r.right() - 2, r.top(), 2, r.height()), kCriticalColor);
            edges.add(QRectF(r.left() + 2, r.top(), r.width() - 4, 2), kCriticalColor);
            edges.add(QRectF(r.left() + 2, r.bottom() - 2, r.width() - 4, 2), kCriticalColor);
        }
        edges.paint(painter);
    }

    QPointF flagPoint(std::uint32_t core, std::uint32_t instruction) const
    {
        const Instruction &in = data.trace->cores[core].instructions[instruction];
        const Timing &t = data.result->cores[core].instructions[instruction];
        const double lane = double(laneOf(core, in.pipe));
        return { keyAxis()->coordToPixel(t.end), laneY(lane + 0.5) };
    }

    // An arrow from the set_flag that released a wait to the wait's end.
    void drawArrow(QCPPainter *painter, std::uint32_t core, std::uint32_t wait)
    {
        const auto &timings = data.result->cores[core].instructions;
        const Timing &t = timings[wait];
        if (t.flag < 0 || std::size_t(t.flag) >= timings.size() || !timings[std::size_t(t.flag)].executed
            || !t.executed)
            return;
        const QPointF from = flagPoint(core, std::uint32_t(t.flag));
        const QPointF to = flagPoint(core, wait);
        painter->drawLine(QLineF(from, to));
        const QLineF line(to, from);
        if (line.length() < 4)
            return;
        const double angle = std::atan2(from.y() - to.y(), from.x() - to.x());
        const double a = 0.45, len = 8;
        const QPointF head[3] = { to, to + QPointF(len * std::cos(angle + a), len * std::sin(angle + a)),
            to + QPointF(len * std::cos(angle - a), len * std::sin(angle - a)) };
        painter->drawPolygon(head, 3);
    }

    void drawAllArrows(QCPPainter *painter, const std::vector<BarGroup> &visible)
    {
        painter->setPen(QPen(kArrowColor, 1));
        painter->setBrush(kArrowColor);
        std::size_t drawn = 0;
        for (const BarGroup &g : visible) {
            const Bar &b = data.bars->bars[g.first];
            if (g.merged() || b.kind != Bar::Kind::Stall)
                continue;
            drawArrow(painter, b.core, b.instruction);
            if (++drawn >= kMaxArrows)
                break;
        }
    }

    void drawSelection(QCPPainter *painter, InstructionRef ref)
    {
        const Trace &trace = *data.trace;
        if (ref.core >= trace.cores.size() || ref.instruction >= trace.cores[ref.core].instructions.size()
            || ref.core >= data.result->cores.size()
            || ref.instruction >= data.result->cores[ref.core].instructions.size())
            return;
        const Instruction &in = trace.cores[ref.core].instructions[ref.instruction];
        const Timing &t = data.result->cores[ref.core].instructions[ref.instruction];
        if (!t.executed)
            return;
        painter->setPen(QPen(Qt::black, 2.5));
        painter->setBrush(Qt::NoBrush);
        const BarGroup g { t.start, std::max(t.end, t.start), std::uint32_t(laneOf(ref.core, in.pipe)), 0, 1, 0, 0, 0 };
        painter->drawRect(groupRect(g).adjusted(-2, -2, 2, 2));
        // Its flags on demand: a wait's set, a set's wait.
        painter->setPen(QPen(kArrowColor, 1.5));
        painter->setBrush(kArrowColor);
        if (in.kind == Instruction::Kind::WaitFlag)
            drawArrow(painter, ref.core, ref.instruction);
        else if (in.kind == Instruction::Kind::SetFlag && t.flag >= 0)
            drawArrow(painter, ref.core, std::uint32_t(t.flag));
    }

    bool m_compact;
    std::vector<std::pair<QRectF, QString>> pendingLabels;
};

// Paints a snapshot's result faded in a thin band at the bottom of each lane,
// and a dashed line where it ends. Work only: its stalls would be noise there.
class TimelineGhostPlottable : public QCPAbstractPlottable {
public:
    TimelineGhostPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis)
        : QCPAbstractPlottable(keyAxis, valueAxis)
    {
        setAntialiased(false);
    }

    TimelineData data;
    QString name;
    std::size_t lanes = 0; // of the current result: lanes beyond it are not drawn

    std::vector<BarGroup> groups() const
    {
        if (!data.bars)
            return {};
        const QCPRange r = keyAxis()->range();
        std::vector<BarGroup> all = mergeBars(*data.bars, r.lower, r.upper, nsPerPixelOf(keyAxis()));
        std::erase_if(all, [&](const BarGroup &g) { return g.lane >= lanes || g.allStalls(); });
        return all;
    }

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain) const override
    {
        foundRange = data.result != nullptr;
        return QCPRange(0, data.result ? std::max(data.result->totalNs, 1e-3) : 1);
    }
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const override
    {
        foundRange = false;
        return QCPRange(0, 1);
    }

protected:
    void drawLegendIcon(QCPPainter *, const QRectF &) const override { }

    void draw(QCPPainter *painter) override
    {
        if (!data.bars || !data.result || !data.trace)
            return;
        RectBatches batches;
        for (const BarGroup &g : groups()) {
            const auto [x0, x1] = groupPixels(keyAxis(), g);
            const double y0 = valueAxis()->coordToPixel(g.lane + 1 - kBarTop + kGhostInset);
            const double y1 = valueAxis()->coordToPixel(g.lane + 1 - kGhostInset);
            QColor fill = groupColorOf(data, g);
            const double density = std::clamp(g.busyNs / std::max(g.end - g.start, 1e-300), 0.0, 1.0);
            fill.setAlpha(g.merged() ? int(40 + 100 * std::round(density * 16) / 16) : 140); // 17 shades: few batches
            batches.add(QRectF(QPointF(x0, std::min(y0, y1)), QPointF(x1, std::max(y0, y1))), fill);
        }
        batches.paint(painter);
        // Where the snapshot ended, labelled at the top of the chart.
        const QRect clip = clipRect();
        const double x = keyAxis()->coordToPixel(data.result->totalNs);
        if (x < clip.left() || x > clip.right())
            return;
        painter->setPen(QPen(kGhostLineColor, 1.5, Qt::DashLine));
        painter->drawLine(QLineF(x, clip.top(), x, clip.bottom()));
        const QString text = QObject::tr("%1 ends").arg(name);
        const QFontMetricsF metrics(painter->font());
        const double width = metrics.horizontalAdvance(text) + 8;
        QRectF label(x + 3, clip.top() + 2, width, metrics.height() + 2);
        if (label.right() > clip.right())
            label.moveRight(x - 3);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 225));
        painter->drawRoundedRect(label, 2, 2);
        painter->setPen(kGhostLineColor.darker(130));
        painter->drawText(label, Qt::AlignCenter, text);
    }
};

// --- TimelinePlot -------------------------------------------------------------

QColor TimelinePlot::colorOfName(std::uint32_t name)
{
    // Tableau 10: distinct, print-safe, readable on white.
    static const QColor palette[] = { QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0x9467bd),
        QColor(0x17becf), QColor(0x8c564b), QColor(0xe377c2), QColor(0xbcbd22), QColor(0xd62728), QColor(0x7f7f7f) };
    return palette[name == 0 ? 9 : (name - 1) % std::size(palette)];
}

TimelinePlot::TimelinePlot(QWidget *parent)
    : QCustomPlot(parent)
{
    qRegisterMetaType<InstructionRef>();
    setNoAntialiasingOnDrag(true);
    setAntialiasedElements(QCP::aeAxes | QCP::aeItems | QCP::aeLegendItems);
    setNotAntialiasedElements(QCP::aePlottables | QCP::aeGrid | QCP::aeSubGrid);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal);
    setMinimumSize(420, 240);
    setMouseTracking(true);

    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, new QCPTextElement(this, QString(), QFont(font().family(), 11, QFont::Bold)));

    auto ticker = QSharedPointer<TimeTicker>::create();
    ticker->setTickCount(8);
    xAxis->setTicker(ticker);
    xAxis->grid()->setPen(QPen(QColor(225, 225, 225), 0, Qt::DotLine));
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setLabel(tr("Core · pipe"));
    for (QCPAxis *axis : { xAxis, yAxis }) {
        QFont f = axis->labelFont();
        f.setPointSize(10);
        axis->setLabelFont(f);
    }

    m_bars = new TimelineBarsPlottable(xAxis, yAxis, false);
    m_bars->removeFromLegend();
    m_ghost = new TimelineGhostPlottable(xAxis, yAxis); // drawn after the bars, in the lanes' bottom gap
    m_ghost->removeFromLegend();

    legend->setVisible(true);
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(5);
    QFont legendFont = font();
    legendFont.setPointSize(9);
    legend->setFont(legendFont);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    plotLayout()->setRowSpacing(2);

    connect(
        xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &r) { clampRange(r); });
    connect(yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &r) {
        if (m_clamping || m_lanes == 0)
            return;
        const double lanes = double(m_lanes);
        const double size = std::min(r.size(), lanes);
        const double lower = std::clamp(r.lower, 0.0, lanes - size);
        if (lower != r.lower || size != r.size()) {
            m_clamping = true;
            yAxis->setRange(lower, lower + size);
            m_clamping = false;
        }
    });
}

std::size_t TimelinePlot::laneCount() const
{
    return m_lanes;
}

void TimelinePlot::setData(const TimelineData &data)
{
    const bool firstData = !m_data.result;
    const double oldTotal = m_data.result ? extentNs() : 0;
    m_data = data;
    m_bars->data = data;
    const std::size_t lanes = data.bars ? data.bars->laneCount() : 0;
    const bool lanesChanged = lanes != m_lanes;
    m_lanes = lanes;
    m_ghost->lanes = lanes;
    if (lanesChanged)
        updateLaneAxis();
    if (auto *title = qobject_cast<QCPTextElement *>(plotLayout()->element(0, 0))) {
        const TimeUnit unit = timeUnitFor(data.result ? data.result->totalNs : 1);
        title->setText(tr("%1 on %2 — total %3")
                           .arg(QString::fromStdString(data.trace ? data.trace->name : std::string()),
                               QString::fromStdString(data.machine.name),
                               formatTime(data.result ? data.result->totalNs : 0, unit)));
    }
    updateLegend();
    if (m_selected
        && (!data.trace || m_selected->core >= data.trace->cores.size()
            || m_selected->instruction >= data.trace->cores[m_selected->core].instructions.size()))
        m_selected.reset();
    m_bars->selected = m_selected;
    // Keep the user's zoom across edits; show the whole trace when it was whole before.
    const QCPRange r = xAxis->range();
    if (firstData || lanesChanged || (r.lower <= 0 && r.upper >= oldTotal))
        resetView();
    else
        clampRange(r);
}

void TimelinePlot::updateLaneAxis()
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const std::size_t cores = m_lanes / kPipeCount;
    for (std::size_t lane = 0; lane < m_lanes; ++lane)
        ticker->addTick(double(lane) + 0.5, laneLabel(lane, cores));
    yAxis->setTicker(ticker);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 2);
    m_clamping = true;
    yAxis->setRange(0, double(std::max<std::size_t>(1, std::min(m_lanes, kMaxVisibleLanes))));
    m_clamping = false;
}

void TimelinePlot::updateLegend()
{
    for (QCPBars *entry : m_legendEntries)
        removePlottable(entry);
    m_legendEntries.clear();
    legend->clearItems();
    if (!m_data.trace || !m_data.bars)
        return;
    auto add = [&](const QString &name, const QBrush &brush, const QPen &pen) {
        auto *entry = new QCPBars(xAxis, yAxis);
        entry->setName(name);
        entry->setBrush(brush);
        entry->setPen(pen);
        entry->setSelectable(QCP::stNone);
        m_legendEntries.push_back(entry);
    };
    // The instructions that ran, in order of their interned names (first seen first).
    std::vector<char> used(m_data.trace->names.size(), 0);
    for (const Bar &b : m_data.bars->bars) {
        if (b.kind == Bar::Kind::Work)
            used[m_data.trace->cores[b.core].instructions[b.instruction].name] = 1;
    }
    std::size_t shown = 0, hidden = 0;
    for (std::uint32_t n = 0; n < used.size(); ++n) {
        if (!used[n])
            continue;
        if (shown++ >= kMaxLegendNames) {
            ++hidden;
            continue;
        }
        const QString name = n == 0 ? tr("(unnamed)") : QString::fromStdString(m_data.trace->names[n]);
        add(name, colorOfName(n), Qt::NoPen);
    }
    if (hidden)
        add(tr("… %1 more").arg(hidden), Qt::NoBrush, Qt::NoPen);
    add(tr("stalled wait"), QColor(235, 235, 235), QPen(kStallColor));
    add(tr("bus contention"), kContentionBandColor, Qt::NoPen);
    if (m_showCriticalPath)
        add(tr("critical path"), Qt::NoBrush, QPen(kCriticalColor, 2));
    if (hasGhost())
        add(tr("snapshot “%1”: faded band, dashed end").arg(m_ghost->name), QColor(110, 110, 110, 110),
            QPen(kGhostLineColor, 1, Qt::DashLine));
}

double TimelinePlot::extentNs() const
{
    double total = m_data.result ? m_data.result->totalNs : 0;
    if (hasGhost())
        total = std::max(total, m_ghost->data.result->totalNs);
    return std::max(std::isfinite(total) ? total : 0.0, 1e-3);
}

void TimelinePlot::setGhost(const TimelineData *ghost, const QString &name)
{
    if (!ghost && !hasGhost())
        return; // nothing to do: the common case of every update without a snapshot
    const QCPRange r = xAxis->range();
    const double oldExtent = m_data.result ? extentNs() : 0;
    const bool whole = r.lower <= 0 && r.upper >= oldExtent;
    m_ghost->data = ghost && ghost->result && ghost->bars ? *ghost : TimelineData();
    m_ghost->name = name;
    updateLegend();
    if (m_data.result && whole && extentNs() != oldExtent)
        resetView();
}

bool TimelinePlot::hasGhost() const
{
    return m_ghost->data.result && m_ghost->data.bars;
}

std::vector<BarGroup> TimelinePlot::visibleGhostGroups() const
{
    return m_ghost->groups();
}

void TimelinePlot::resetView()
{
    const double total = m_data.result ? extentNs() : 1;
    setTimeRange(0, total * 1.01);
    m_clamping = true;
    yAxis->setRange(0, double(std::max<std::size_t>(1, std::min(m_lanes, kMaxVisibleLanes))));
    m_clamping = false;
}

void TimelinePlot::setTimeRange(double startNs, double endNs)
{
    xAxis->setRange(startNs, endNs); // clampRange() runs on rangeChanged
}

void TimelinePlot::clampRange(const QCPRange &r)
{
    if (m_clamping)
        return;
    const double total = m_data.result ? extentNs() : 1;
    const double lo = -0.02 * total, hi = 1.02 * total;
    double size = std::clamp(r.size(), std::max(total * 1e-9, 1e-4), hi - lo);
    double lower = std::clamp(r.lower, lo, hi - size);
    if (!std::isfinite(lower) || !std::isfinite(size)) {
        lower = 0;
        size = total;
    }
    m_clamping = true;
    if (lower != r.lower || lower + size != r.upper)
        xAxis->setRange(lower, lower + size);
    m_clamping = false;
    updateTimeAxis();
    emit timeRangeChanged(xAxis->range().lower, xAxis->range().upper);
}

void TimelinePlot::updateTimeAxis()
{
    const QCPRange r = xAxis->range();
    const TimeUnit unit = timeUnitFor(std::max(std::abs(r.lower), std::abs(r.upper)));
    static_cast<TimeTicker *>(xAxis->ticker().data())->perNs = unit.perNs;
    xAxis->setLabel(tr("Time (%1)").arg(unit.name));
}

void TimelinePlot::setShowCriticalPath(bool show)
{
    m_showCriticalPath = show;
    m_bars->showCriticalPath = show;
    updateLegend();
    replot(rpQueuedReplot);
}

void TimelinePlot::setShowFlagArrows(bool show)
{
    m_showFlagArrows = show;
    m_bars->showFlagArrows = show;
    replot(rpQueuedReplot);
}

void TimelinePlot::setSelected(std::optional<InstructionRef> selected)
{
    if (selected == m_selected)
        return;
    m_selected = selected;
    m_bars->selected = selected;
    replot(rpQueuedReplot);
}

std::vector<BarGroup> TimelinePlot::visibleGroups() const
{
    return m_bars->groups();
}

double TimelinePlot::nsPerPixel() const
{
    return m_bars->nsPerPixel();
}

std::optional<InstructionRef> TimelinePlot::instructionAt(const QPointF &pixel) const
{
    if (!m_data.bars || !axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double laneCoord = yAxis->pixelToCoord(pixel.y());
    if (laneCoord < 0 || laneCoord >= double(m_lanes))
        return std::nullopt;
    const auto lane = std::size_t(laneCoord);
    const double t = xAxis->pixelToCoord(pixel.x());
    const double slack = 2 * nsPerPixel(); // thin bars are hard to hit
    const TimelineBars &bars = *m_data.bars;
    const auto begin = bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[lane]);
    const auto end = bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[lane + 1]);
    auto it = std::upper_bound(begin, end, t + slack, [](double x, const Bar &b) { return x < b.start; });
    // The nearest bar that reaches t, looking back over the few within the slack.
    std::optional<InstructionRef> best;
    double bestDistance = slack;
    for (int steps = 0; it != begin && steps < 64; ++steps) {
        --it;
        const double distance = t < it->start ? it->start - t : (t > it->end ? t - it->end : 0);
        if (distance <= bestDistance) {
            best = InstructionRef { it->core, it->instruction };
            bestDistance = distance;
            if (distance == 0)
                break;
        }
        if (it->end < t - slack)
            break;
    }
    return best;
}

QString TimelinePlot::describeInstruction(InstructionRef ref) const
{
    if (!m_data.trace || !m_data.result || ref.core >= m_data.trace->cores.size()
        || ref.instruction >= m_data.trace->cores[ref.core].instructions.size()
        || ref.core >= m_data.result->cores.size()
        || ref.instruction >= m_data.result->cores[ref.core].instructions.size())
        return {};
    const Trace &trace = *m_data.trace;
    const Result &result = *m_data.result;
    const Instruction &in = trace.cores[ref.core].instructions[ref.instruction];
    const Timing &t = result.cores[ref.core].instructions[ref.instruction];
    const TimeUnit unit = timeUnitFor(std::max(result.totalNs, std::abs(t.end)));
    QStringList lines;
    lines << QString::fromStdString(describe(trace, in));
    lines << tr("core %1 · pipe %2 · instruction %3")
                 .arg(ref.core)
                 .arg(QString::fromLatin1(pipeName(in.pipe)))
                 .arg(ref.instruction);
    if (!t.executed) {
        lines << tr("did not run");
        return lines.join(QLatin1Char('\n'));
    }
    lines << tr("start %1 · end %2 · duration %3")
                 .arg(formatTime(t.start, unit), formatTime(t.end, unit), formatTime(t.end - t.start, unit));
    if (in.kind == Instruction::Kind::Work) {
        const bool bytes = movesBytes(in.pipe);
        lines << tr("size %1 %2").arg(formatValue(in.size, 6), bytes ? tr("bytes") : tr("ops"));
        const double init = m_data.machine.pipe(in.pipe).initNs;
        const double data = t.end - t.start - init;
        if (data > 0)
            lines << tr("achieved %1 %2 in the data phase (after Init %3 ns)")
                         .arg(formatValue(in.size / data), bytes ? tr("GB/s") : tr("Gops/s"), formatValue(init));
    }
    // What it waited for: the edge the simulation recorded.
    if (in.kind == Instruction::Kind::WaitFlag && t.flag >= 0) {
        const Timing &set = result.cores[ref.core].instructions[std::size_t(t.flag)];
        lines << tr("waited %1 for %2 at %3")
                     .arg(formatTime(std::max(0.0, t.end - t.start), unit),
                         QString::fromStdString(
                             describe(trace, trace.cores[ref.core].instructions[std::size_t(t.flag)])),
                         formatTime(set.end, unit));
    } else if (t.cause >= 0) {
        const Instruction &cause = trace.cores[ref.core].instructions[std::size_t(t.cause)];
        lines << tr("waited for: %1 (%2, instruction %3)")
                     .arg(QString::fromStdString(describe(trace, cause)),
                         QString::fromLatin1(dependencyName(t.causeKind)))
                     .arg(t.cause);
    } else {
        lines << tr("waited for: nothing (started with its core)");
    }
    if (m_data.onPath && (*m_data.onPath)[ref.core][ref.instruction])
        lines << tr("on the critical path");
    return lines.join(QLatin1Char('\n'));
}

QString TimelinePlot::tooltipAt(const QPointF &pixel) const
{
    QString text;
    if (const auto ref = instructionAt(pixel))
        text = describeInstruction(*ref);
    // Inside a contention interval on an MTE lane: the bus shares then.
    if (m_data.result && m_data.trace && axisRect()->rect().contains(pixel.toPoint())) {
        const double laneCoord = yAxis->pixelToCoord(pixel.y());
        const double t = xAxis->pixelToCoord(pixel.x());
        const auto &contention = m_data.result->contention;
        auto it = std::lower_bound(
            contention.begin(), contention.end(), t, [](const ContentionInterval &c, double x) { return c.end < x; });
        if (laneCoord >= 0 && laneCoord < double(m_lanes) && usesBus(pipeOfLane(std::size_t(laneCoord)))
            && it != contention.end() && it->start <= t) {
            const TimeUnit unit = timeUnitFor(m_data.result->totalNs);
            QStringList shares;
            for (const Share &s : m_data.result->sharesOf(*it))
                shares << tr("core %1 %2: %3 GB/s")
                              .arg(s.core)
                              .arg(QString::fromLatin1(
                                       pipeName(m_data.trace->cores[s.core].instructions[s.instruction].pipe)),
                                  formatValue(s.rateGBps));
            if (!text.isEmpty())
                text += QStringLiteral("\n\n");
            text += tr("bus contention %1 – %2: %3 transfers share the bus\n%4")
                        .arg(formatTime(it->start, unit), formatTime(it->end, unit))
                        .arg(it->shareCount)
                        .arg(shares.join(QLatin1Char('\n')));
        }
    }
    return text;
}

void TimelinePlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const QString text = tooltipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void TimelinePlot::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->position().toPoint();
    QCustomPlot::mousePressEvent(event);
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent *event)
{
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || (event->position().toPoint() - m_pressPos).manhattanLength() > 3)
        return; // a drag, not a click
    const auto ref = instructionAt(event->position());
    setSelected(ref);
    if (ref)
        emit instructionClicked(*ref);
}

// --- TimelineOverview ---------------------------------------------------------

TimelineOverview::TimelineOverview(TimelinePlot *timeline, QWidget *parent)
    : QCustomPlot(parent)
    , m_timeline(timeline)
{
    setNotAntialiasedElements(QCP::aeAll);
    setFixedHeight(64);
    xAxis->setVisible(false);
    yAxis->setVisible(false);
    yAxis->setRangeReversed(true);
    axisRect()->setAutoMargins(QCP::msNone);
    axisRect()->setMargins(QMargins(2, 2, 2, 2));
    m_bars = new TimelineBarsPlottable(xAxis, yAxis, true);
    m_bars->removeFromLegend();
    m_window = new QCPItemRect(this);
    m_window->setPen(QPen(QColor(30, 90, 200), 1));
    m_window->setBrush(QColor(30, 90, 200, 40));
    setToolTip(tr("The whole trace. Click or drag to move the timeline's view."));
    connect(timeline, &TimelinePlot::timeRangeChanged, this, [this](double a, double b) {
        setWindow(a, b);
        replot(rpQueuedReplot);
    });
}

void TimelineOverview::setData(const TimelineData &data)
{
    m_bars->data = data;
    const double total = data.result ? std::max(data.result->totalNs, 1e-3) : 1;
    xAxis->setRange(0, total * 1.01);
    yAxis->setRange(0, double(data.bars ? std::max<std::size_t>(1, data.bars->laneCount()) : 1));
}

void TimelineOverview::setWindow(double startNs, double endNs)
{
    m_window->topLeft->setCoords(startNs, yAxis->range().lower);
    m_window->bottomRight->setCoords(endNs, yAxis->range().upper);
}

void TimelineOverview::centreAt(double x)
{
    const QCPRange r = m_timeline->xAxis->range();
    const double t = xAxis->pixelToCoord(x);
    m_timeline->setTimeRange(t - r.size() / 2, t + r.size() / 2);
    m_timeline->replot(rpQueuedReplot);
}

void TimelineOverview::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        centreAt(event->position().x());
}

void TimelineOverview::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        centreAt(event->position().x());
}

} // namespace studio
