#include "layout.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::verrocchio {

namespace {
constexpr std::array<std::uint8_t, kPipeCount> kPositionOfPipe = [] {
    std::array<std::uint8_t, kPipeCount> position{};
    for (std::size_t i = 0; i < kLaneOrder.size(); ++i)
        position[static_cast<std::size_t>(kLaneOrder[i])] = static_cast<std::uint8_t>(i);
    return position;
}();
} // namespace

std::size_t lanePosition(Pipe pipe)
{
    return pipeIndex(pipe) < kPipeCount ? kPositionOfPipe[pipeIndex(pipe)] : 0;
}

Pipe pipeOfLane(std::size_t lane)
{
    return kLaneOrder[lane % kPipeCount];
}

namespace {

// The cores that get lanes (Bar::kMaxLanes).
std::size_t laneCores(const Trace &trace, const Result &result)
{
    return std::min({ trace.cores.size(), result.cores.size(), Bar::kMaxLanes / kPipeCount });
}

// Each instruction's lane position (bits 0-6) and whether it is a work bar
// (bit 7), one byte each, and each lane's work bars: the first pass of the
// bars. The second pass reads these and the timings, not the 32-byte
// instructions again, and the stalls look instructions up in time order,
// where at 10⁶ instructions a 1 MB table stays in cache and the 24 MB trace
// did not. Without a result (BarsPlan), every work instruction counts as a bar.
constexpr std::uint8_t kIsBar = BarsPlan::kIsWork;

void barPositions(const Trace &trace, const Result *result, std::size_t cores,
    std::vector<std::vector<std::uint8_t>> &position, std::vector<std::size_t> &workCount)
{
    position.assign(cores, {});
    workCount.assign(cores * kPipeCount, 0);
    for (std::size_t c = 0; c < cores; ++c) {
        const Instruction *program = trace.cores[c].instructions.data();
        const std::size_t n = trace.cores[c].instructions.size();
        const Timing *timings = result ? result->cores[c].instructions.data() : nullptr;
        const std::size_t timed = result ? std::min(n, result->cores[c].instructions.size()) : n;
        position[c].resize(n);
        std::uint8_t *pos = position[c].data();
        std::size_t *count = workCount.data() + c * kPipeCount;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t pipe = pipeIndex(program[i].pipe);
            const std::uint8_t lane = pipe < kPipeCount ? kPositionOfPipe[pipe] : 0;
            const bool bar = i < timed && program[i].kind == Instruction::Kind::Work
                && (!timings || (timings[i].executed && timings[i].end >= timings[i].start));
            pos[i] = bar ? std::uint8_t(lane | kIsBar) : lane;
            count[lane] += bar ? 1 : 0;
        }
    }
}

// The bars themselves (TimelineBars::bars, laneBegin), from barPositions()'
// tables. kCheck: the tables came from the trace alone (BarsPlan), so each
// work bar's timing is checked as it is written; false when one is not a bar
// after all (not executed, or ending before it starts), and `out` is then
// to be laid out again with the result's own tables.
template<bool kCheck>
bool laneBars(const Trace &trace, const Result &result, std::size_t cores,
    const std::vector<std::vector<std::uint8_t>> &position, const std::vector<std::size_t> &workCount,
    TimelineBars &out)
{
    // Without per-lane vectors (this runs on every slider step of a
    // 10^5-instruction trace): barPositions() counted, this fills each lane's
    // segment with its work bars (in start order: a pipe is FIFO) followed by
    // its stalls (in end order, which is start order within a lane), and
    // merges the two runs.
    const std::size_t lanes = cores * kPipeCount;
    std::vector<std::size_t> programSize(cores);
    for (std::size_t c = 0; c < cores; ++c)
        programSize[c] = trace.cores[c].instructions.size();
    const auto laneAt = [&](std::size_t core, std::size_t instruction) {
        return core * kPipeCount + (position[core][instruction] & ~kIsBar);
    };
    auto isStall = [&](const Stall &s) {
        return s.core < cores && s.instruction < programSize[s.core] && s.end > s.start;
    };

    std::vector<std::size_t> stallCount(lanes, 0);
    for (const Stall &s : result.stalls) {
        if (isStall(s))
            ++stallCount[laneAt(s.core, s.instruction)];
    }
    out.laneBegin.assign(lanes + 1, 0);
    for (std::size_t lane = 0; lane < lanes; ++lane)
        out.laneBegin[lane + 1] = out.laneBegin[lane] + workCount[lane] + stallCount[lane];
    out.bars.resize(out.laneBegin[lanes]);
    std::vector<std::size_t> workNext(out.laneBegin.begin(), out.laneBegin.end() - 1);
    std::vector<std::size_t> stallNext(lanes);
    for (std::size_t lane = 0; lane < lanes; ++lane)
        stallNext[lane] = out.laneBegin[lane] + workCount[lane];
    Bar *bars = out.bars.data();
    for (std::size_t c = 0; c < cores; ++c) {
        const Timing *timings = result.cores[c].instructions.data();
        const std::uint8_t *pos = position[c].data();
        std::size_t *next = workNext.data() + c * kPipeCount;
        const auto laneBase = static_cast<std::uint32_t>(c * kPipeCount);
        bool allBars = true;
        for (std::size_t i = 0; i < programSize[c]; ++i) {
            if (!(pos[i] & kIsBar))
                continue;
            const std::uint8_t p = pos[i] & ~kIsBar;
            if constexpr (kCheck) // no branch: the pass is memory-bound
                allBars &= timings[i].executed & (timings[i].end >= timings[i].start);
            bars[next[p]++] = { timings[i].start, timings[i].end, static_cast<std::uint32_t>(i), laneBase + p,
                Bar::Kind::Work };
        }
        if (!allBars)
            return false;
    }
    for (const Stall &s : result.stalls) {
        if (!isStall(s))
            continue;
        const auto lane = static_cast<std::uint32_t>(laneAt(s.core, s.instruction));
        bars[stallNext[lane]++] = { s.start, s.end, s.instruction, lane, Bar::Kind::Stall };
    }
    const auto byStart = [](const Bar &a, const Bar &b) { return a.start < b.start; };
    std::vector<Bar> firstRun; // the work bars of the lane being merged
    for (std::size_t lane = 0; lane < lanes; ++lane) {
        const auto first = out.bars.begin() + std::ptrdiff_t(out.laneBegin[lane]);
        const auto middle = first + std::ptrdiff_t(workCount[lane]);
        const auto last = out.bars.begin() + std::ptrdiff_t(out.laneBegin[lane + 1]);
        // Both runs are sorted in practice; sort them anyway if a result ever says otherwise.
        if (!std::is_sorted(first, middle, byStart))
            std::stable_sort(first, middle, byStart);
        if (!std::is_sorted(middle, last, byStart))
            std::stable_sort(middle, last, byStart);
        if (first == middle || middle == last || !byStart(*middle, *(middle - 1)))
            continue; // one run, or the stalls all start after the work: already in order
        // A stable merge through one reused buffer (std::inplace_merge takes a
        // temporary buffer per lane): on equal starts the work bar comes first.
        firstRun.assign(first, middle);
        std::merge(firstRun.begin(), firstRun.end(), middle, last, first, byStart);
    }
    return true;
}

} // namespace

TimelineBars timelineBars(const Trace &trace, const Result &result)
{
    const std::size_t cores = laneCores(trace, result);
    std::vector<std::vector<std::uint8_t>> position;
    std::vector<std::size_t> workCount;
    barPositions(trace, &result, cores, position, workCount);
    TimelineBars out;
    laneBars<false>(trace, result, cores, position, workCount, out);
    return out;
}

BarsPlan::BarsPlan(const Trace &trace)
{
    barPositions(trace, nullptr, std::min(trace.cores.size(), Bar::kMaxLanes / kPipeCount), position, workCount);
}

bool BarsPlan::fits(const Trace &trace) const
{
    if (position.size() != std::min(trace.cores.size(), Bar::kMaxLanes / kPipeCount))
        return false;
    for (std::size_t c = 0; c < position.size(); ++c) {
        if (position[c].size() != trace.cores[c].instructions.size())
            return false;
    }
    return true;
}

TimelineBars timelineBars(const Trace &trace, const Result &result, const BarsPlan &plan)
{
    // A result that stopped early has work that never ran; a plan of another
    // trace, or of a result with fewer cores, lanes of other sizes.
    if (!result.ok() || !plan.fits(trace) || laneCores(trace, result) != plan.position.size())
        return timelineBars(trace, result);
    for (std::size_t c = 0; c < plan.position.size(); ++c) {
        if (result.cores[c].instructions.size() != plan.position[c].size())
            return timelineBars(trace, result); // (a result edited after the simulation)
    }
    TimelineBars out;
    if (!laneBars<true>(trace, result, plan.position.size(), plan.position, plan.workCount, out))
        return timelineBars(trace, result); // a work instruction that is no bar (negative or NaN length)
    return out;
}

LaneContention laneContention(const Trace &trace, const Result &result, const BarsPlan *plan)
{
    LaneContention out;
    std::vector<std::uint32_t> shareLanes;
    laneContention(trace, result, plan, out, shareLanes);
    return out;
}

void laneContention(const Trace &trace, const Result &result, const BarsPlan *plan, LaneContention &out,
    std::vector<std::uint32_t> &shareLanes)
{
    const std::size_t cores = laneCores(trace, result);
    const std::size_t lanes = cores * kPipeCount;
    // The lane of a transfer: from the plan's byte per instruction when it is
    // this trace's (a 100 kB table at 10⁵ instructions, where the 32-byte
    // instructions are read in no order), else from the instruction.
    const bool planned = plan && plan->fits(trace) && plan->position.size() == cores;
    constexpr std::uint32_t kNoLane = std::numeric_limits<std::uint32_t>::max();
    const auto laneOfShare = [&](const Share &share) -> std::uint32_t {
        if (share.core >= cores || share.instruction >= trace.cores[share.core].instructions.size())
            return kNoLane;
        const std::size_t position = planned
            ? std::size_t(plan->position[share.core][share.instruction] & ~BarsPlan::kIsWork)
            : lanePosition(trace.cores[share.core].instructions[share.instruction].pipe);
        return static_cast<std::uint32_t>(share.core * kPipeCount + position);
    };
    // Two passes over the intervals instead of a vector per lane copied into
    // one (at 10⁵ instructions some 3.7·10⁴ spans in 12 lanes: the lanes'
    // regrowth and the copy were most of the time): the first finds each
    // share's lane and counts each lane's spans, the second writes them in
    // place. A span joins the lane's last one when its interval starts
    // before that one ends.
    shareLanes.clear();
    shareLanes.reserve(result.shares.size());
    std::vector<double> lastEnd(lanes, 0.0);
    std::vector<std::size_t> count(lanes, 0);
    for (const ContentionInterval &interval : result.contention) {
        for (const Share &share : result.sharesOf(interval)) {
            const std::uint32_t lane = laneOfShare(share);
            shareLanes.push_back(lane);
            if (lane == kNoLane)
                continue;
            if (count[lane] > 0 && interval.start <= lastEnd[lane]) {
                lastEnd[lane] = std::max(lastEnd[lane], interval.end);
            } else {
                ++count[lane];
                lastEnd[lane] = interval.end;
            }
        }
    }
    out.laneBegin.assign(lanes + 1, 0);
    for (std::size_t lane = 0; lane < lanes; ++lane)
        out.laneBegin[lane + 1] = out.laneBegin[lane] + count[lane];
    out.spans.resize(out.laneBegin[lanes]);
    std::vector<std::size_t> next(out.laneBegin.begin(), out.laneBegin.end() - 1);
    LaneContention::Span *const spans = out.spans.data();
    const std::uint32_t *shareLane = shareLanes.data();
    for (const ContentionInterval &interval : result.contention) {
        for (std::uint32_t k = 0; k < interval.shareCount; ++k) {
            const std::uint32_t lane = *shareLane++;
            if (lane == kNoLane)
                continue;
            std::size_t &n = next[lane];
            if (n > out.laneBegin[lane] && interval.start <= spans[n - 1].end)
                spans[n - 1].end = std::max(spans[n - 1].end, interval.end);
            else
                spans[n++] = { interval.start, interval.end };
        }
    }
}

namespace {

// A run's sums, kept in registers by mergeBars()' inner loop.
struct RunSums {
    // Not two doubles side by side: GCC then packed them in one register and
    // shuffled it at every bar.
    double end;
    std::size_t count;
    double busyNs;
    std::size_t stalls;
    double stallNs;
};

// Extends the run that opened at `groupStart` over the narrow bars from `it`
// that join it (see mergeBars()); returns the first bar that does not. Out of
// line on purpose: inlined into mergeBars(), whose push_back() may call the
// allocator, GCC kept the view's bounds and the sums in memory across that
// call (every XMM register is caller-saved), and the loop reloaded and
// re-shuffled them at each bar: 34 instructions a bar, 23 here.
[[gnu::noinline]] const Bar *extendRun(const Bar *it, const Bar *const last, const double viewStart,
    const double minWidth, const double maxGap, const double maxSpan, const double groupStart, RunSums &run)
{
    double groupEnd = run.end, busyNs = run.busyNs, stallNs = run.stallNs;
    std::size_t count = run.count, stalls = run.stalls;
    for (; it != last; ++it) {
        const double start = it->start, barEnd = it->end, barLength = barEnd - start;
        if (barEnd < viewStart)
            continue; // not in the view (cannot follow a bar that is, while a lane's ends are sorted)
        if (!(barLength < minWidth && start - groupEnd < maxGap && barEnd - groupStart <= maxSpan))
            break;
        groupEnd = std::max(groupEnd, barEnd);
        const bool barStall = it->kind == Bar::Kind::Stall;
        // Adding +0.0 leaves a sum as it is (lengths are not negative): no branch.
        stallNs += barStall ? barLength : 0.0;
        busyNs += barStall ? 0.0 : barLength;
        stalls += barStall ? 1 : 0;
        ++count;
    }
    run = { groupEnd, count, busyNs, stalls, stallNs };
    return it;
}

} // namespace

std::vector<BarGroup> mergeBars(const TimelineBars &bars, double viewStart, double viewEnd, double nsPerPixel,
    double minPixels, double maxGroupPixels)
{
    std::vector<BarGroup> out;
    const bool merge = std::isfinite(nsPerPixel) && nsPerPixel > 0;
    const double minWidth = merge ? minPixels * nsPerPixel : 0;
    const double maxGap = merge ? nsPerPixel : 0;
    const double maxSpan = merge ? std::max(maxGroupPixels, minPixels) * nsPerPixel : 0;
    const Bar *const all = bars.bars.data();
    for (std::size_t lane = 0; lane < bars.laneCount(); ++lane) {
        const Bar *const begin = all + bars.laneBegin[lane];
        const Bar *const end = all + bars.laneBegin[lane + 1];
        // Bars of a lane do not overlap (a pipe is FIFO and a stalled wait
        // holds its pipe), so ends are sorted too: start at the first bar whose
        // start is past viewStart, stepping back over bars that reach into the view.
        const Bar *it = std::lower_bound(begin, end, viewStart, [](const Bar &b, double t) { return b.start < t; });
        while (it != begin && (it - 1)->end >= viewStart)
            --it;
        // And stop at the first bar that starts after the view.
        const Bar *const last = std::upper_bound(it, end, viewEnd, [](double t, const Bar &b) { return t < b.start; });
        while (it != last) {
            const Bar &b = *it++;
            if (b.end < viewStart)
                continue;
            const double length = b.end - b.start;
            const bool stall = b.kind == Bar::Kind::Stall;
            BarGroup group { b.start, b.end, std::uint32_t(lane), std::size_t(&b - all), 1, stall ? 0 : length,
                stall ? length : 0, stall ? std::size_t(1) : std::size_t(0) };
            if (merge && length < minWidth) {
                // A narrow bar opens a run: the narrow bars that follow within a
                // pixel's gap join it while it spans at most maxSpan. Kept in
                // locals (the group in memory cost 44 instructions a bar, the
                // largest part of a 10^5-instruction redraw); the same sums in
                // the same order as bar by bar.
                RunSums run { group.end, 1, group.busyNs, group.stalls, group.stallNs };
                it = extendRun(it, last, viewStart, minWidth, maxGap, maxSpan, group.start, run);
                group.end = run.end;
                group.busyNs = run.busyNs;
                group.stallNs = run.stallNs;
                group.count = run.count;
                group.stalls = run.stalls;
            }
            out.push_back(group);
        }
    }
    return out;
}

} // namespace roofline::verrocchio
