// What the timeline draws over its lanes: bus contention (shaded spans, a band,
// each transfer's share), the critical path outlined, set→wait arrows.
#include "timelinelayers.h"

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::verrocchio;
using namespace timelinepaint;


void TimelineBarsPlottable::drawContention(QCPPainter *painter)
{
    if (!data.contention)
        return;
    const LaneContention &contention = *data.contention;
    const QCPRange r = keyAxis()->range();
    const double px = nsPerPixel();
    // Per lane, the shaded lane and a solid band above the bars (which hide
    // the translucent shade); spans closer than a pixel drawn as one.
    RectBatches shades;
    // In strips on screen: the shades in lane L's strip, the bands in strip lanes + L.
    const std::size_t lanes = contention.laneCount();
    shades.useStrips(painter, 2 * lanes);
    for (std::size_t lane = 0; lane < lanes; ++lane) {
        const auto first = contention.spans.begin() + std::ptrdiff_t(contention.laneBegin[lane]);
        const auto last = contention.spans.begin() + std::ptrdiff_t(contention.laneBegin[lane + 1]);
        auto it = std::lower_bound(first, last, r.lower,
            [](const LaneContention::Span &s, double t) { return s.end < t; });
        if (!laneShown(rows, lane))
            continue;
        const double top = laneY(lane, 0), barTop = laneY(lane, kBarTop), bottom = laneY(lane, 1);
        auto flush = [&](double s, double e) {
            const QRectF rect = groupRect(BarGroup { s, e, std::uint32_t(lane), 0, 1, 0, 0, 0 });
            shades.add(QRectF(QPointF(rect.left(), top), QPointF(rect.right(), bottom)).normalized(),
                kContentionColor, QColor(), lane);
            shades.add(QRectF(QPointF(rect.left(), std::min(top, barTop) + 1),
                           QPointF(rect.right(), std::max(top, barTop) - 1)).normalized(),
                kContentionBandColor, QColor(), lanes + lane);
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
            const QRectF box(QPointF(keyAxis()->coordToPixel(it->start), laneY(lane, 0)),
                QPointF(keyAxis()->coordToPixel(it->end), laneY(lane, kBarTop)));
            pendingLabels.push_back(
                { box.normalized(), QStringLiteral("bus share %1 GB/s").arg(formatValue(share.rateGBps, 3)) });
            ++labelled;
        }
    }
}

QFont TimelineBarsPlottable::contentionLabelFont(const QFont &base)
{
    QFont small = base;
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
    return small;
}

QRectF TimelineBarsPlottable::contentionLabelRect(const QRectF &box, const QString &text, const QFont &small)
{
    const QFontMetricsF metrics(small);
    const QRectF label(box.left() + 2, box.bottom() + 1, metrics.horizontalAdvance(text) + 6, metrics.height());
    return label.right() > box.right() ? QRectF() : label;
}

void TimelineBarsPlottable::drawContentionLabels(QCPPainter *painter)
{
    // Labels on a light box just under the band, where they stay readable over any bar.
    const QFont small = contentionLabelFont(painter->font());
    const QFont saved = painter->font();
    painter->setFont(small);
    for (const auto &[box, text] : pendingLabels) {
        const QRectF label = contentionLabelRect(box, text, small);
        if (label.isEmpty())
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

void TimelineBarsPlottable::drawCriticalPath(QCPPainter *painter, const std::vector<BarGroup> &visible)
{
    const auto &onPath = *data.onPath;
    const TimelineBars &bars = *data.bars;
    // A 2-pixel frame around each bar on the path (a line under a merged
    // group), as filled edges: one batch instead of a stroked rectangle each.
    RectBatches edges;
    // In strips on screen: lane L's sides in strip 3L, its top edges in 3L + 1, its bottom edges in 3L + 2.
    edges.useStrips(painter, 3 * bars.laneCount());
    const bool indexed = data.nextOnPath && data.nextOnPath->size() == bars.bars.size();
    for (const BarGroup &g : visible) {
        bool any = false;
        if (indexed) {
            any = (*data.nextOnPath)[g.first] < g.first + g.count;
        } else {
            for (std::size_t i = g.first; i < g.first + g.count && !any; ++i) {
                const Bar &b = bars.bars[i];
                any = b.kind == Bar::Kind::Work && onPath[b.core()][b.instruction];
            }
        }
        if (!any)
            continue;
        const QRectF r = groupRect(g).adjusted(-2, -2, 2, 2);
        const std::size_t strip = 3 * g.lane;
        if (g.merged()) {
            edges.add(QRectF(r.left(), r.bottom() - 2, r.width(), 2), kCriticalColor, QColor(), strip + 2);
            continue;
        }
        edges.add(QRectF(r.left(), r.top(), 2, r.height()), kCriticalColor, QColor(), strip);
        edges.add(QRectF(r.right() - 2, r.top(), 2, r.height()), kCriticalColor, QColor(), strip);
        edges.add(QRectF(r.left() + 2, r.top(), r.width() - 4, 2), kCriticalColor, QColor(), strip + 1);
        edges.add(QRectF(r.left() + 2, r.bottom() - 2, r.width() - 4, 2), kCriticalColor, QColor(), strip + 2);
    }
    edges.paint(painter);
}

QPointF TimelineBarsPlottable::flagPoint(std::uint32_t core, std::uint32_t instruction) const
{
    const Instruction &in = data.trace->cores[core].instructions[instruction];
    const Timing &t = data.result->cores[core].instructions[instruction];
    return { keyAxis()->coordToPixel(t.end), laneY(laneOf(core, in.pipe), 0.5) };
}

// An arrow from the set_flag that released a wait to the wait's end.
void TimelineBarsPlottable::drawArrow(QCPPainter *painter, std::uint32_t core, std::uint32_t wait)
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

void TimelineBarsPlottable::drawAllArrows(QCPPainter *painter, const std::vector<BarGroup> &visible)
{
    painter->setPen(QPen(kArrowColor, 1));
    painter->setBrush(kArrowColor);
    std::size_t drawn = 0;
    for (const BarGroup &g : visible) {
        const Bar &b = data.bars->bars[g.first];
        if (g.merged() || b.kind != Bar::Kind::Stall)
            continue;
        drawArrow(painter, b.core(), b.instruction);
        if (++drawn >= kMaxArrows)
            break;
    }
}

} // namespace studio
