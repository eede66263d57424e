// Geometry of the timeline view, kept apart from painting so that it can be
// tested without a window: which lane an instruction is drawn in, the bars of
// a simulation result, and the level-of-detail merging that keeps a redraw of
// 10^5 instructions within a frame.
//
// Lanes run top to bottom per core in the order S, MTE2, MTE1, M, V, MTE3 (the
// order data flows through a DaVinci core). All times are in ns.
#pragma once

#include "simulation.h"
#include "trace.h"

#include <array>
#include <cstdint>
#include <vector>

namespace roofline::verrocchio {

inline constexpr std::array<Pipe, kPipeCount> kLaneOrder
    = { Pipe::S, Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::V, Pipe::MTE3 };
// Position of a pipe within its core's lanes (0 = S, 1 = MTE2, ..., 5 = MTE3).
std::size_t lanePosition(Pipe pipe);
inline std::size_t laneOf(std::size_t core, Pipe pipe)
{
    return core * kPipeCount + lanePosition(pipe);
}
inline std::size_t coreOfLane(std::size_t lane)
{
    return lane / kPipeCount;
}
Pipe pipeOfLane(std::size_t lane);

// 24 bytes (a 10⁶-instruction result has about as many bars): the core is
// the lane's (coreOfLane), and the lane shares a word with the kind.
struct Bar {
    enum class Kind : std::uint8_t { Work, Stall };
    static constexpr std::size_t kMaxLanes = std::size_t(1) << 24;
    double start = 0;
    double end = 0;
    std::uint32_t instruction = 0; // Work: the instruction; Stall: the wait_flag
    std::uint32_t lane : 24 = 0;
    Kind kind : 8 = Kind::Work;

    std::uint32_t core() const { return lane / kPipeCount; }
    bool operator==(const Bar &) const = default;
};
static_assert(sizeof(Bar) == 24);

// Bars of one result: every executed work instruction and every wait that
// stalled, grouped by lane and sorted by start within each lane (cores past
// Bar::kMaxLanes / 6, some 2.8 million, get none). `laneBegin`
// has one entry per lane plus one: lane L's bars are [laneBegin[L], laneBegin[L+1]).
struct TimelineBars {
    std::vector<Bar> bars;
    std::vector<std::size_t> laneBegin;
    std::size_t laneCount() const { return laneBegin.empty() ? 0 : laneBegin.size() - 1; }

    bool operator==(const TimelineBars &) const = default;
};
TimelineBars timelineBars(const Trace &trace, const Result &result);

// What timelineBars() needs of a trace whatever the result: each
// instruction's lane, whether it is work, and each lane's work count. Its
// first pass over the trace and the timings, 45 % of its instructions at 10⁵
// instructions; build it once per trace and pass it for the slider steps of
// that trace. It holds a byte per instruction. Used only for a result that
// ran to its end (Result::ok()) and only while every work instruction's end
// is not before its start (checked as the bars are written; otherwise the
// bars are laid out without it): the same bars, bit for bit. Like a
// SimulationPlan, it stays valid as long as the trace is not changed, and
// only for that trace (fits() checks only its shape).
class BarsPlan
{
public:
    explicit BarsPlan(const Trace &trace);
    bool fits(const Trace &trace) const; // same cores and instructions per core as `trace`

    std::vector<std::vector<std::uint8_t>> position; // per core, per instruction: lane position | kIsWork
    std::vector<std::size_t> workCount;              // per lane (of the cores that get lanes)
    static constexpr std::uint8_t kIsWork = 0x80;
};
TimelineBars timelineBars(const Trace &trace, const Result &result, const BarsPlan &plan);

// Per lane (the same lanes as the bars'), when one of its transfers shared the
// bus in a contention interval: back-to-back intervals joined, sorted by
// start. Lane L's spans are [laneBegin[L], laneBegin[L+1]); empty when there
// was none. Reads only the result and the trace, so it can be worked out
// beside timelineBars() (the studio's GUI thread does, while its worker lays
// the bars out).
struct LaneContention {
    struct Span {
        double start = 0;
        double end = 0;
        bool operator==(const Span &) const = default;
    };
    std::vector<Span> spans;
    std::vector<std::size_t> laneBegin;
    std::size_t laneCount() const { return laneBegin.empty() ? 0 : laneBegin.size() - 1; }

    bool operator==(const LaneContention &) const = default;
};
// `plan`, when it is the trace's (BarsPlan::fits()), gives each transfer's
// lane from its byte instead of the instruction: the same spans.
LaneContention laneContention(const Trace &trace, const Result &result, const BarsPlan *plan = nullptr);
// The same into `out`, whose vectors (and the scratch `shareLanes`, a lane
// per share) keep their capacity: a caller that reuses them, mapped once,
// allocates nothing per result (the studio's GUI thread does; its first
// result after opening a trace otherwise mapped some 230 pages here).
void laneContention(const Trace &trace, const Result &result, const BarsPlan *plan, LaneContention &out,
    std::vector<std::uint32_t> &shareLanes);

// What one drawn rectangle stands for: one bar (count == 1), or a run of
// adjacent bars of one lane, each narrower than a pixel, merged into one.
struct BarGroup {
    double start = 0;
    double end = 0;
    std::uint32_t lane = 0;
    std::size_t first = 0; // index into TimelineBars::bars
    std::size_t count = 1;
    double busyNs = 0; // Σ of the work members' lengths (≤ end − start)
    double stallNs = 0; // Σ of the stall members' lengths
    std::size_t stalls = 0; // members that are stalls

    bool merged() const { return count > 1; }
    bool allStalls() const { return stalls == count; }
    bool operator==(const BarGroup &) const = default;
};

// The rectangles to draw for the visible time range [viewStart, viewEnd] at
// `nsPerPixel`: bars at least `minPixels` wide are kept as they are; runs of
// narrower bars in one lane whose gaps are below one pixel become one group,
// at most `maxGroupPixels` wide so that the density of a busy stretch still shows
// (work and stalls alike: a pipe that alternates short waits and short work
// would otherwise never merge). The output is in lane order, then time order; its size is
// bounded by about (lanes × visible pixels), whatever the trace length.
// Bars that do not touch the range are skipped; a non-positive or non-finite
// `nsPerPixel` merges nothing.
std::vector<BarGroup> mergeBars(const TimelineBars &bars, double viewStart, double viewEnd, double nsPerPixel,
    double minPixels = 1.0, double maxGroupPixels = 4.0);

} // namespace roofline::verrocchio
