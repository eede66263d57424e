// The lanes of the timeline: bars and merged groups, stalls (hatched), names,
// the selection; and the faded ghost of a snapshot. See timelinelayers.h.
#include "timelinelayers.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace studio {

using namespace roofline::verrocchio;
using namespace timelinepaint;

namespace timelinepaint {

QString laneLabel(std::size_t lane, std::size_t cores)
{
    const QString pipe = QString::fromLatin1(pipeName(pipeOfLane(lane)));
    return cores > 1 ? QStringLiteral("core %1  %2").arg(coreOfLane(lane)).arg(pipe) : pipe;
}

void RectBatches::useStrips(const QCPPainter *painter, std::size_t lanes)
{
    m_strips.reset();
    if (LaneStrips::usable(painter))
        m_strips.emplace(painter, lanes);
}

void RectBatches::add(const QRectF &rect, const QColor &fill, const QColor &outline, std::size_t lane)
{
    const quint64 key = (quint64(fill.rgba()) << 32) | (outline.isValid() ? outline.rgba() : 0u);
    auto it = std::find_if(m_batches.begin(), m_batches.end(), [&](const Batch &b) { return b.key == key; });
    if (it == m_batches.end()) {
        m_batches.push_back({ key, fill, outline, {}, LaneStrips::premultipliedOf(fill),
            outline.isValid() ? LaneStrips::premultipliedOf(outline) : 0u });
        it = m_batches.end() - 1;
    }
    // Orders: a batch's fills, then its outlines, then the next batch's, as paint() draws them.
    const std::size_t batch = std::size_t(it - m_batches.begin());
    if (m_strips && lane != kNoLane && batch < 0x7fff
        && (!outline.isValid() || it->outlinePremultiplied != 0)
        && m_strips->add(lane, rect, it->fillPremultiplied, it->outlinePremultiplied, std::uint16_t(2 * batch)))
        return;
    it->rects.push_back(rect);
}

void RectBatches::paint(QCPPainter *painter)
{
    // On screen, outlines are batched hairlines: the raster engine strokes
    // an outlined rectangle as a path, ten times slower than a fill. SVG and
    // PDF keep one outlined <rect> per bar, which editors handle better.
    const bool raster = painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster;
    m_stripRects = m_strips ? m_strips->count() : 0;
    if (m_strips)
        m_strips->paint(painter);
    std::vector<QLineF> lines;
    for (const Batch &b : m_batches) {
        if (b.rects.empty())
            continue;
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
    m_strips.reset();
}

bool LaneStrips::usable(const QCPPainter *painter)
{
    const QPaintEngine *engine = painter->paintEngine();
    if (!engine || engine->type() != QPaintEngine::Raster || !painter->device()
        || (painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching))
        || painter->testRenderHint(QPainter::Antialiasing) || painter->opacity() != 1.0
        || painter->compositionMode() != QPainter::CompositionMode_SourceOver
        || painter->device()->devicePixelRatio() != 1.0)
        return false;
    const QTransform t = painter->deviceTransform();
    return t.type() <= QTransform::TxTranslate && t.dx() == std::round(t.dx()) && t.dy() == std::round(t.dy());
}

LaneStrips::LaneStrips(const QCPPainter *painter, std::size_t lanes)
    : m_bandOfLane(lanes, -1)
{
    const QTransform t = painter->deviceTransform();
    m_offset = QPoint(int(t.dx()), int(t.dy()));
    m_area = QRect(0, 0, painter->device()->width(), painter->device()->height());
    if (painter->hasClipping()) // what the clip lets through is all that shows
        m_area &= painter->clipBoundingRect().translated(m_offset).toAlignedRect();
}

void LaneStrips::composite(Band &band, int row, int from, int to, quint32 colour, std::uint16_t order)
{
    from = std::max(from, m_area.left()) - m_area.left();
    to = std::min(to, m_area.right() + 1) - m_area.left();
    if (from >= to)
        return;
    band.left = std::min(band.left, from);
    band.right = std::max(band.right, to);
    // Source over, s + d × (1 − αs), each channel rounded as the raster engine's BYTE_MUL.
    const auto over = [](quint32 top, quint32 under) {
        quint64 d = (quint64(under) | (quint64(under) << 24)) & 0x00ff00ff00ff00ffull;
        d *= 255 - qAlpha(top);
        d = (d + ((d >> 8) & 0x00ff00ff00ff00ffull) + 0x0080008000800080ull) >> 8;
        d &= 0x00ff00ff00ff00ffull;
        return top + (quint32(d) | quint32(d >> 24));
    };
    quint32 *pixels = band.rows[std::size_t(row)].pixels.data();
    std::uint16_t *on = band.rows[std::size_t(row)].order.data();
    const bool opaque = qAlpha(colour) == 255;
    for (int x = from; x < to; ++x) {
        if (on[x] == kNone || on[x] <= order) { // drawn after what is there
            pixels[x] = opaque || on[x] == kNone ? colour : over(colour, pixels[x]);
            on[x] = order;
        } else if (qAlpha(pixels[x]) != 255) { // under what is there (a later rectangle's), and it shows through
            pixels[x] = over(pixels[x], colour);
        }
    }
}

bool LaneStrips::add(std::size_t lane, const QRectF &rect, quint32 fill, quint32 outline, std::uint16_t order)
{
    if (lane >= m_bandOfLane.size() || m_area.isEmpty() || (outline != 0 && qAlpha(outline) != 255))
        return false;
    const QRectF r = rect.translated(m_offset);
    const double x1 = std::min(r.left(), r.right()), x2 = std::max(r.left(), r.right());
    const double y1 = std::min(r.top(), r.bottom()), y2 = std::max(r.top(), r.bottom());
    if (!std::isfinite(x1) || !std::isfinite(x2) || !std::isfinite(y1) || !std::isfinite(y2))
        return false;
    // Clamped to just outside the area first: the pixels inside it stay the
    // same, and a bar far off screen cannot overflow an int.
    const auto clampX = [&](double v) { return std::clamp(v, double(m_area.left()) - 2, double(m_area.right()) + 2); };
    const auto clampY = [&](double v) { return std::clamp(v, double(m_area.top()) - 2, double(m_area.bottom()) + 2); };
    const int top = int(std::floor(clampY(y1))), bottom = int(std::floor(clampY(y2)));
    const int fillTop = qRound(clampY(y1)), fillBottom = qRound(clampY(y2));
    if (bottom < m_area.top() || top > m_area.bottom()) {
        ++m_count; // a lane scrolled out of view: no pixel of it shows, and it needs no strip
        return true;
    }
    int &index = m_bandOfLane[lane];
    if (index < 0) {
        index = int(m_bands.size());
        const auto width = std::size_t(m_area.width());
        Band band { top, bottom, fillTop, fillBottom, m_area.width(), 0, {} };
        for (Row &row : band.rows)
            row = { std::vector<quint32>(width, 0u), std::vector<std::uint16_t>(width, kNone) };
        m_bands.push_back(std::move(band));
    }
    Band &band = m_bands[std::size_t(index)];
    if (band.top != top || band.bottom != bottom || band.fillTop != fillTop || band.fillBottom != fillBottom)
        return false;
    ++m_count;
    // The fill: its rows are the middle ones, and the outline's top or bottom
    // row where it reaches them (qRound(y) is ⌊y⌋ or ⌊y⌋ + 1).
    const int from = qRound(clampX(x1)), to = qRound(clampX(x2));
    if (fillTop < fillBottom) {
        if (fillTop == top)
            composite(band, 0, from, to, fill, order);
        composite(band, 1, from, to, fill, order);
        if (fillBottom - 1 == bottom)
            composite(band, 2, from, to, fill, order);
    }
    if (outline != 0) {
        const quint32 edge = outline;
        const int left = int(std::floor(clampX(x1))), right = int(std::floor(clampX(x2)));
        composite(band, 0, left, right + 1, edge, std::uint16_t(order + 1));
        composite(band, 2, left, right + 1, edge, std::uint16_t(order + 1));
        composite(band, 1, left, left + 1, edge, std::uint16_t(order + 1));
        composite(band, 1, right, right + 1, edge, std::uint16_t(order + 1));
    }
    return true;
}

void LaneStrips::paint(QCPPainter *painter)
{
    int height = 0;
    for (const Band &band : m_bands)
        height = std::max(height, band.bottom - band.top + 1);
    if (height <= 0)
        return;
    QImage image(m_area.width(), height, QImage::Format_ARGB32_Premultiplied);
    for (const Band &band : m_bands) {
        const int width = band.right - band.left;
        if (width <= 0)
            continue;
        // Rows outside the area are clipped by the painter: drawn whole, as the rectangles are.
        const int rows = band.bottom - band.top + 1;
        for (int y = 0; y < rows; ++y) {
            const Row &row = band.rows[y == 0 ? 0 : y == rows - 1 ? 2 : 1];
            std::copy_n(row.pixels.data() + band.left, width, reinterpret_cast<quint32 *>(image.scanLine(y)));
        }
        painter->drawImage(QPoint(m_area.left() + band.left - m_offset.x(), band.top - m_offset.y()), image,
                           QRect(0, 0, width, rows));
    }
}

QString formatTime(double ns, const TimeUnit &unit)
{
    return QStringLiteral("%1 %2").arg(formatValue(ns * unit.perNs), unit.name);
}

MergeKey mergeKeyOf(const QCPAxis *axis, const double minPixels)
{
    const QRect rect = axis->axisRect()->rect();
    return { axis->range().lower, axis->range().upper, double(rect.left()), double(rect.width()), minPixels };
}

double nsPerPixelOf(const QCPAxis *axis)
{
    return mergeKeyOf(axis, 1).nsPerPixel();
}

// The colour of a group's work when it is all one instruction (waits in
// between do not count), neutral for a mix.
QColor groupColorOf(const TimelineData &data, const BarGroup &g)
{
    const TimelineBars &bars = *data.bars;
    const Trace &trace = *data.trace;
    const auto nameOf = [&](const Bar &b) { return trace.cores[b.core()].instructions[b.instruction].name; };
    if (data.nameRunEnd && data.nameRunEnd->size() == bars.bars.size()) {
        if (g.allStalls())
            return kMergedColor;
        std::size_t first = g.first;
        while (bars.bars[first].kind == Bar::Kind::Stall)
            ++first; // a work member exists: the loop stops inside the group
        if ((*data.nameRunEnd)[first] < g.first + g.count)
            return kMergedColor;
        return data.paletteSlot && data.paletteSlot->size() == bars.bars.size()
            ? TimelinePlot::paletteColor((*data.paletteSlot)[first])
            : TimelinePlot::colorOfName(nameOf(bars.bars[first]));
    }
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

} // namespace timelinepaint

void TimelineBarsPlottable::draw(QCPPainter *painter)
{
    drawnLabels.clear();
    stripRects = 0;
    if (!data.bars || !data.result || !data.trace)
        return;
    const TimelineBars &bars = *data.bars;
    const QRect clip = clipRect();
    drawLaneSeparators(painter, clip, bars.laneCount());
    if (!m_compact)
        drawContention(painter);
    const std::vector<BarGroup> visible = groups();
    RectBatches batches;
    if (laneStrips)
        batches.useStrips(painter, bars.laneCount());
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
                batches.add(rect, QColor(215, 215, 215), QColor(), g.lane);
            else
                batches.add(rect, QColor(245, 245, 245), kStallColor, g.lane);
            if (!m_compact && !g.merged() && rect.width() >= 6)
                hatched.push_back(rect);
            continue;
        }
        QColor fill = groupColor(g);
        if (g.merged()) { // denser stretches darker: the share of the group's span that was busy
            const double busy = std::clamp(g.busyNs / std::max(g.end - g.start, 1e-300), 0.0, 1.0);
            fill.setAlpha(int(60 + 195 * std::round(busy * 16) / 16)); // 17 shades: few batches
        }
        batches.add(rect, fill, !m_compact && rect.width() > 4 ? fill.darker(140) : QColor(), g.lane);
        // The name goes in the part of the bar that is in view: a bar running
        // past the edge of the chart had its name centred off the chart
        // (clipped away, on screen and in exports).
        const QRectF shown = rect.intersected(QRectF(clip));
        if (!m_compact && !g.merged() && shown.width() > 24 && labelled.size() < kMaxLabels)
            labelled.push_back({ shown, g.first, fill });
    }
    batches.paint(painter);
    stripRects = batches.stripRects();
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

void TimelineBarsPlottable::drawLaneSeparators(QCPPainter *painter, const QRect &clip, std::size_t lanes)
{
    std::size_t previous = 0; // the lane shown above, or none yet
    bool any = false;
    for (std::size_t lane = 0; lane < lanes; ++lane) {
        if (!laneShown(rows, lane))
            continue;
        const bool first = !any;
        any = true;
        const bool core = coreOfLane(lane) != coreOfLane(previous);
        previous = lane;
        if (first || (m_compact && !core))
            continue;
        painter->setPen(QPen(core ? QColor(120, 120, 120) : QColor(230, 230, 230), core ? 1 : 0));
        const double y = laneY(lane, 0);
        painter->drawLine(QLineF(clip.left(), y, clip.right(), y));
    }
}

void TimelineBarsPlottable::drawHatching(QCPPainter *painter, const QRectF &rect)
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

bool TimelineBarsPlottable::drawLabel(QCPPainter *painter, const QRectF &rect, const Bar &bar, const QColor &fill)
{
    const Trace &trace = *data.trace;
    const Instruction &in = trace.cores[bar.core()].instructions[bar.instruction];
    const QString name = QString::fromStdString(trace.names[in.name < trace.names.size() ? in.name : 0]);
    const QFontMetricsF metrics(painter->font());
    if (name.isEmpty() || metrics.horizontalAdvance(name) + 6 > rect.width()
        || metrics.height() > rect.height() + 2)
        return false;
    // Not under a contention label (drawn later, at the top of the bar): the
    // name moves to the part of the bar beside the label, or is left out.
    const QSizeF text(metrics.horizontalAdvance(name) + 6, metrics.height());
    const auto textBox = [&](const QRectF &area) {
        return QRectF(area.center().x() - text.width() / 2, area.center().y() - text.height() / 2, text.width(),
                      text.height());
    };
    QRectF area = rect;
    const QFont small = contentionLabelFont(painter->font());
    for (const auto &[box, label] : pendingLabels) {
        const QRectF taken = contentionLabelRect(box, label, small);
        if (taken.isEmpty() || !taken.intersects(textBox(area)))
            continue;
        const QRectF right(taken.right() + 2, area.top(), area.right() - taken.right() - 2, area.height());
        const QRectF left(area.left(), area.top(), taken.left() - area.left() - 2, area.height());
        if (right.width() >= text.width())
            area = right;
        else if (left.width() >= text.width())
            area = left;
        else
            return false;
    }
    const QColor color = fill.lightnessF() < 0.55 ? Qt::white : Qt::black;
    painter->setPen(color);
    painter->drawText(area, Qt::AlignCenter, name);
    drawnLabels.push_back({textBox(area), name, color, fill});
    return true;
}

void TimelineBarsPlottable::drawSelection(QCPPainter *painter, InstructionRef ref)
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

double MergeKey::nsPerPixel() const
{
    // QCPAxis::coordToPixel() of a horizontal linear axis, at both ends of the
    // range; the worker has no axis, so the formula is here, for both.
    const double size = upper - lower;
    const double px = std::abs(((upper - lower) / size * width + left) - ((lower - lower) / size * width + left));
    return px > 0 && std::isfinite(px) ? size / px : 0;
}

std::vector<BarGroup> TimelineGhostPlottable::groups() const
{
    if (!data.bars) {
        m_merged = {}; // the snapshot's bars are not kept for nothing
        return {};
    }
    const MergeKey key = mergeKeyOf(keyAxis(), 1.0);
    const double nsPerPixel = key.nsPerPixel();
    if (m_merged.bars != data.bars || m_merged.lower != key.lower || m_merged.upper != key.upper
        || m_merged.nsPerPixel != nsPerPixel) {
        const PremergedGroups *worker = nullptr;
        if (premerged) {
            const auto it = std::find_if(premerged->begin(), premerged->end(),
                [&](const PremergedGroups &p) { return p.of == data.bars && p.key == key; });
            worker = it == premerged->end() ? nullptr : &*it;
        }
        if (worker) {
            m_merged = { data.bars, key.lower, key.upper, nsPerPixel, worker->groups };
            ++m_premergedUses;
        } else {
            m_merged = { data.bars, key.lower, key.upper, nsPerPixel,
                mergeBars(*data.bars, key.lower, key.upper, nsPerPixel) };
            ++m_merges;
        }
    }
    // The current result's lanes and rows change with every result: filtered here, from the few groups.
    std::vector<BarGroup> all;
    all.reserve(m_merged.groups.size());
    std::copy_if(m_merged.groups.begin(), m_merged.groups.end(), std::back_inserter(all),
                 [&](const BarGroup &g) { return g.lane < lanes && !g.allStalls() && laneShown(rows, g.lane); });
    return all;
}

void TimelineGhostPlottable::draw(QCPPainter *painter)
{
    if (!data.bars || !data.result || !data.trace)
        return;
    RectBatches batches;
    if (laneStrips)
        batches.useStrips(painter, lanes);
    for (const BarGroup &g : groups()) {
        const auto [x0, x1] = groupPixels(keyAxis(), g);
        const double row = rowOf(rows, g.lane);
        const double y0 = valueAxis()->coordToPixel(row + 1 - kBarTop + kGhostInset);
        const double y1 = valueAxis()->coordToPixel(row + 1 - kGhostInset);
        QColor fill = groupColorOf(data, g);
        const double density = std::clamp(g.busyNs / std::max(g.end - g.start, 1e-300), 0.0, 1.0);
        fill.setAlpha(g.merged() ? int(40 + 100 * std::round(density * 16) / 16) : 140); // 17 shades: few batches
        const QRectF rect(QPointF(x0, std::min(y0, y1)), QPointF(x1, std::max(y0, y1)));
        batches.add(rect, fill, QColor(), g.lane);
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

} // namespace studio
