#include "timelineplot.h"

#include "plottextimages.h"
#include "timelinelayers.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::verrocchio;
using namespace timelinepaint;

// --- TimelinePlot -------------------------------------------------------------

namespace {
// Tableau 10: distinct, print-safe, readable on white.
const QColor kNamePalette[] = { QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0x9467bd),
    QColor(0x17becf), QColor(0x8c564b), QColor(0xe377c2), QColor(0xbcbd22), QColor(0xd62728), QColor(0x7f7f7f) };
static_assert(std::size(kNamePalette) == TimelinePlot::kPaletteSize);
} // namespace

QColor TimelinePlot::paletteColor(std::uint8_t slot)
{
    return kNamePalette[slot % kPaletteSize];
}

QColor TimelinePlot::colorOfName(std::uint32_t name)
{
    return paletteColor(paletteSlotOfName(name));
}

TimelinePlot::TimelinePlot(QWidget *parent)
    : QCustomPlot(parent)
{
    qRegisterMetaType<InstructionRef>();
    setNoAntialiasingOnDrag(true);
    // Painted with the rest of the window, once per update: an immediate
    // repaint() per replot painted the window in several passes, and the
    // readout under the plot in each (docs/performance.md).
    setPlottingHint(QCP::phImmediateRefresh, false);
    // One paint buffer: the overlay layer, buffered by default for replots of
    // that layer alone (which neither timeline plot does), was a second
    // plot-sized pixmap, empty, blended into the window on every paint
    // (0.27 M instructions each, docs/performance.md). The overview too.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
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
        if (m_clamping || m_rowCount == 0)
            return;
        const double lanes = double(m_rowCount);
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
    m_ghost->premerged = data.premerged; // the snapshot's groups may be among them
    const std::size_t lanes = data.bars ? data.bars->laneCount() : 0;
    bool lanesChanged = lanes != m_lanes;
    m_lanes = lanes;
    m_ghost->lanes = lanes;
    lanesChanged = updateRows() || lanesChanged;
    if (lanesChanged)
        updateLaneAxis();
    updateTitle();
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

bool TimelinePlot::updateRows()
{
    std::vector<int> rows;
    if (m_hideEmptyLanes && m_data.bars) {
        const TimelineBars &bars = *m_data.bars;
        rows.assign(m_lanes, -1);
        int next = 0;
        for (std::size_t lane = 0; lane < m_lanes; ++lane) {
            if (bars.laneBegin[lane + 1] > bars.laneBegin[lane])
                rows[lane] = next++;
        }
        if (next == 0)
            rows.clear(); // nothing ran anywhere: show the lanes rather than nothing
    }
    std::vector<std::size_t> laneOfRow;
    for (std::size_t lane = 0; lane < m_lanes; ++lane) {
        if (rows.empty() || rows[lane] >= 0)
            laneOfRow.push_back(lane);
    }
    if (rows == m_rows && laneOfRow == m_laneOfRow)
        return false;
    m_rows = std::move(rows);
    m_laneOfRow = std::move(laneOfRow);
    m_rowCount = m_laneOfRow.size();
    m_bars->rows = m_rows;
    m_ghost->rows = m_rows;
    return true;
}

void TimelinePlot::setHideEmptyLanes(bool hide)
{
    if (hide == m_hideEmptyLanes)
        return;
    m_hideEmptyLanes = hide;
    if (updateRows())
        updateLaneAxis();
    replot(QCustomPlot::rpQueuedReplot);
}

std::vector<std::size_t> TimelinePlot::shownLanes() const
{
    return m_laneOfRow;
}

std::optional<std::size_t> TimelinePlot::laneAtPixel(double y) const
{
    const double row = yAxis->pixelToCoord(y);
    if (row < 0 || row >= double(m_rowCount))
        return std::nullopt;
    return m_laneOfRow[std::size_t(row)];
}

void TimelinePlot::updateLaneAxis()
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const std::size_t cores = m_lanes / kPipeCount;
    for (std::size_t row = 0; row < m_rowCount; ++row)
        ticker->addTick(double(row) + 0.5, laneLabel(m_laneOfRow[row], cores));
    yAxis->setTicker(ticker);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 2);
    m_clamping = true;
    yAxis->setRange(0, double(std::max<std::size_t>(1, std::min(m_rowCount, kMaxVisibleLanes))));
    m_clamping = false;
}

namespace {
// `text` broken at spaces into lines of at most `width` characters, at most
// `lines` of them, the last cut with "…" when the text is longer.
QString wrapped(const QString &text, qsizetype width, int lines)
{
    QStringList out;
    QString line;
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < words.size(); ++i) {
        QString word = words[i];
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            out << line;
            line.clear();
        }
        if (out.size() == lines - 1 && (i + 1 < words.size() || line.size() + word.size() + 1 > width)) {
            // The last line: what is left, cut to the width.
            QString rest = words.mid(i).join(QLatin1Char(' '));
            if (!line.isEmpty())
                rest = line + QLatin1Char(' ') + rest;
            if (rest.size() > width)
                rest = rest.left(width - 1) + QChar(0x2026);
            out << rest;
            return out.join(QLatin1Char('\n'));
        }
        if (word.size() > width)
            word = word.left(width - 1) + QChar(0x2026);
        line = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
    }
    if (!line.isEmpty())
        out << line;
    return out.join(QLatin1Char('\n'));
}
} // namespace

void TimelinePlot::updateTitle()
{
    auto *title = qobject_cast<QCPTextElement *>(plotLayout()->element(0, 0));
    if (!title)
        return;
    const TimeUnit unit = timeUnitFor(m_data.result ? m_data.result->totalNs : 1);
    // The trace's name on up to two lines of 64 characters (a converter's
    // names can be long), then the machine and the total: the same title on
    // screen and in every export, whatever the window's width.
    const QString name = QString::fromStdString(m_data.trace ? m_data.trace->name : std::string());
    const QString text = tr("%1\non %2 — total %3")
                             .arg(wrapped(name, 64, 2), QString::fromStdString(m_data.machine.name),
                                  formatTime(m_data.result ? m_data.result->totalNs : 0, unit));
    if (text != title->text())
        title->setText(text);
}

void TimelinePlot::updateLegend()
{
    // The entries wanted, compared with those shown: every update (and each
    // with a snapshot compared, twice) asks, and the answer rarely changes;
    // rebuilding made the plot measure every legend text again.
    std::vector<LegendEntry> wanted;
    if (m_data.trace && m_data.bars) {
        auto add = [&](const QString &name, const QBrush &brush, const QPen &pen) {
            wanted.push_back({ name, brush, pen });
        };
        // The instructions that ran, in order of their interned names (first seen first).
        std::vector<char> used(m_data.trace->names.size(), 0);
        if (m_data.namesUsed && m_data.namesUsed->size() == used.size()) {
            used = *m_data.namesUsed;
        } else {
            for (const Bar &b : m_data.bars->bars) {
                if (b.kind == Bar::Kind::Work)
                    used[m_data.trace->cores[b.core()].instructions[b.instruction].name] = 1;
            }
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
    if (wanted == m_legendShown && m_legendEntries.size() == wanted.size())
        return;
    for (QCPBars *entry : m_legendEntries)
        removePlottable(entry);
    m_legendEntries.clear();
    legend->clearItems();
    for (const LegendEntry &e : wanted) {
        auto *entry = new QCPBars(xAxis, yAxis);
        entry->setName(e.name);
        entry->setBrush(e.brush);
        entry->setPen(e.pen);
        entry->setSelectable(QCP::stNone);
        cacheLegendEntry(this, entry); // measured once, drawn from an image on each redraw
        m_legendEntries.push_back(entry);
    }
    m_legendShown = std::move(wanted);
}

namespace {
// The longer of a result and a snapshot (0: none), at least a picosecond.
double extentOf(double totalNs, double ghostTotalNs)
{
    const double total = std::max(totalNs, ghostTotalNs);
    return std::max(std::isfinite(total) ? total : 0.0, 1e-3);
}
} // namespace

double TimelinePlot::extentNs() const
{
    return extentOf(m_data.result ? m_data.result->totalNs : 0, ghostTotalNs());
}

QCPRange TimelinePlot::wholeRange(double totalNs, double ghostTotalNs)
{
    return QCPRange(0, extentOf(totalNs, ghostTotalNs) * 1.01);
}

MergeHints TimelinePlot::mergeHints() const
{
    const MergeKey key = mergeKey();
    MergeHints hints;
    hints.ghostTotalNs = ghostTotalNs();
    hints.ghostBars = hasGhost() ? m_ghost->data.bars : nullptr;
    // As setData() decides: a view of the whole trace follows the new result.
    hints.whole = !m_data.result || (key.lower <= 0 && key.upper >= extentNs());
    hints.lower = key.lower;
    hints.upper = key.upper;
    hints.left = key.left;
    hints.width = key.width;
    return hints;
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

double TimelinePlot::ghostTotalNs() const
{
    return hasGhost() ? m_ghost->data.result->totalNs : 0;
}

std::vector<BarGroup> TimelinePlot::visibleGhostGroups() const
{
    return m_ghost->groups();
}

int TimelinePlot::ghostMerges() const
{
    return m_ghost->merges();
}

int TimelinePlot::ghostPremergedUses() const
{
    return m_ghost->premergedUses();
}

void TimelinePlot::resetView()
{
    const QCPRange whole = m_data.result ? wholeRange(m_data.result->totalNs, ghostTotalNs())
                                         : QCPRange(0, 1.01);
    setTimeRange(whole.lower, whole.upper);
    m_clamping = true;
    yAxis->setRange(0, double(std::max<std::size_t>(1, std::min(m_rowCount, kMaxVisibleLanes))));
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

const std::vector<TimelinePlot::DrawnLabel> &TimelinePlot::drawnLabels() const
{
    return m_bars->drawnLabels;
}

std::vector<BarGroup> TimelinePlot::visibleGroups() const
{
    return m_bars->groups();
}

int TimelinePlot::premergedUses() const
{
    return m_bars->premergedUses();
}

int TimelinePlot::merges() const
{
    return m_bars->merges();
}

MergeKey TimelinePlot::mergeKey() const
{
    return m_bars->mergeKey();
}

void TimelinePlot::setLaneStrips(bool on)
{
    m_bars->laneStrips = on;
    m_ghost->laneStrips = on;
}

std::size_t TimelinePlot::stripRects() const
{
    return m_bars->stripRects;
}

double TimelinePlot::nsPerPixel() const
{
    return m_bars->nsPerPixel();
}

std::optional<InstructionRef> TimelinePlot::instructionAt(const QPointF &pixel) const
{
    if (!m_data.bars || !axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const std::optional<std::size_t> shown = laneAtPixel(pixel.y());
    if (!shown)
        return std::nullopt;
    const std::size_t lane = *shown;
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
            best = InstructionRef { it->core(), it->instruction };
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
        const std::optional<std::size_t> lane = laneAtPixel(pixel.y());
        const double t = xAxis->pixelToCoord(pixel.x());
        const auto &contention = m_data.result->contention;
        auto it = std::lower_bound(
            contention.begin(), contention.end(), t, [](const ContentionInterval &c, double x) { return c.end < x; });
        if (lane && usesBus(pipeOfLane(*lane))
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

} // namespace studio
