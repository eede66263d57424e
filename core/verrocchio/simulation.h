// The Verrocchio discrete-event simulation (models.md 3.2–3.4).
//
//   const Result r = simulate(trace, machine);
//   if (!r.ok()) show(r.error->message);
//
// Pipes are FIFO; set_flag/wait_flag pairs are matched in order per
// (src, dst, id) on each core; pipe_barrier(ALL) orders everything before it
// before everything after it; MTE2 reads and MTE3 writes of all cores share the
// bus equally, rate = min(Th_u, B_bus / n_active), re-timed whenever a transfer
// starts or ends. Init_u is a fixed latency before the data phase, not shared.
//
// Cost: O(n log c) in the number of instructions n and cores c, times the
// number of transfers active at once (every start or end of a transfer
// re-times the active ones). That number is at most two per core, so it only
// grows with the core count, never with the trace length. About 252 machine
// instructions per trace instruction with a plan, 308 building it inside
// (callgrind); some 30–45 million trace instructions per second on one core of
// the development VM, the lower end at 10⁶ instructions, whose data do not stay
// in cache (docs/performance.md: "The simulator: 299 → 252", and the critical
// path walked once with the next instruction prefetched, 2026-11-28).
#pragma once

#include "trace.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace roofline::verrocchio {

// Why an instruction could not happen earlier: the edge of the dependency graph
// that the critical path follows.
enum class Dependency : std::uint8_t {
    CoreStart, // nothing before it: it started with its core (at c·δt)
    PipeOrder, // the previous instruction on the same pipe (FIFO)
    Flag,      // a wait_flag that stalled until its matching set_flag
    Barrier    // a pipe_barrier(ALL) (or, for the barrier, the last instruction before it)
};
const char *dependencyName(Dependency d); // "core_start", "pipe_order", "flag", "barrier"

// 24 bytes: a 10⁶-instruction result holds a million of them. The indices
// share their words with the flags, so a core runs at most
// kMaxCoreInstructions instructions (simulate() refuses more).
struct Timing
{
    static constexpr std::size_t kMaxCoreInstructions = std::size_t(1) << 29;
    double start = 0; // waits: when the pipe reached it; transfers: Init starts here
    double end = 0;   // -1 for a wait still stalled when the simulation stopped on an error
    std::int32_t cause : 30 = -1; // instruction on the same core that set `start`; -1: the core's start
    Dependency causeKind : 2 = Dependency::CoreStart;
    std::int32_t flag : 31 = -1; // waits: the matching set_flag; sets: the matching wait_flag
    bool executed : 1 = false;

    bool operator==(const Timing &) const = default;
};
static_assert(sizeof(Timing) == 24);

struct CoreResult
{
    std::vector<Timing> instructions; // parallel to CoreProgram::instructions
    std::array<double, kPipeCount> busyNs{}; // Σ (end − start) of work instructions, Init included
    double startNs = 0;
    double endNs = 0; // end of its last instruction (startNs for an empty program)

    bool operator==(const CoreResult &) const = default;
};

struct Stall
{
    std::uint32_t core = 0;
    std::uint32_t instruction = 0; // a wait_flag
    double start = 0;
    double end = 0;

    bool operator==(const Stall &) const = default;
};

struct Share
{
    std::uint32_t core = 0;
    std::uint32_t instruction = 0; // an MTE2 or MTE3 transfer in its data phase
    double rateGBps = 0;

    bool operator==(const Share &) const = default;
};

// A time span during which at least two transfers shared the bus and one of
// them got less than its own throughput Th_u.
struct ContentionInterval
{
    double start = 0;
    double end = 0;
    // Every transfer active on the bus then: Result::sharesOf(interval), kept
    // in one array for all intervals (10⁵-instruction traces have some 3·10⁴
    // intervals; one allocation each cost more than the rest of the record).
    std::uint32_t firstShare = 0;
    std::uint32_t shareCount = 0;

    bool operator==(const ContentionInterval &) const = default;
};

struct PathStep
{
    std::uint32_t core = 0;
    std::uint32_t instruction = 0;
    Dependency via = Dependency::CoreStart; // how this step depends on the step before it

    bool operator==(const PathStep &) const = default;
};

struct SimulationError
{
    enum class Kind { InvalidInput, Deadlock, FlagAlreadySet, Cancelled };
    Kind kind = Kind::InvalidInput;
    std::int32_t core = -1;
    std::int32_t instruction = -1;
    std::string message;

    bool operator==(const SimulationError &) const = default;
};

struct Result
{
    // Set when the trace cannot run to its end; the timings then hold what ran.
    std::optional<SimulationError> error;
    double totalNs = 0; // end of the last instruction of all cores
    std::vector<CoreResult> cores;
    std::vector<Stall> stalls;                   // every wait_flag that waited, in order of its end
    std::vector<ContentionInterval> contention;  // in time order, disjoint
    std::vector<Share> shares;                   // of all contention intervals, in their order
    double contentionNs = 0;                     // total length of the contention intervals
    std::vector<PathStep> criticalPath;          // first to last; its last step ends at totalNs
    std::vector<std::string> warnings;           // e.g. a flag set but never waited for

    bool ok() const { return !error; }
    std::span<const Share> sharesOf(const ContentionInterval &interval) const
    {
        return std::span<const Share>(shares).subspan(interval.firstShare, interval.shareCount);
    }
    double busyFraction(std::size_t core, Pipe pipe) const;

    bool operator==(const Result &) const = default;
};

// What a simulation needs of a trace whatever the machine: each pipe's queue
// in program order, the barrier segments, the set_flag/wait_flag pairs and
// the trace's flag warnings. simulate(trace, machine) builds it in one pass
// over the trace, some 18 % of a simulation at 10⁵ instructions; build it once
// and pass it to simulate() when the same trace is simulated on many machines
// (a slider, the sensitivity rows, a goal seek). 20 bytes per instruction.
// It refers to nothing in the trace: a plan stays valid as long as the trace
// is not changed, and only for that trace.
class SimulationPlan
{
public:
    explicit SimulationPlan(const Trace &trace);
    ~SimulationPlan();
    SimulationPlan(const SimulationPlan &) = delete;
    SimulationPlan &operator=(const SimulationPlan &) = delete;
    // Same number of cores and of instructions per core as `trace`.
    bool fits(const Trace &trace) const;
    struct Data; // simulation.cpp
    const Data &data() const { return *m_data; }

private:
    std::unique_ptr<const Data> m_data;
};

Result simulate(const Trace &trace, const Machine &machine);
// The same, giving up when `cancelled` returns true (asked every 1024 events):
// the result then carries a Cancelled error and is not meant to be shown.
Result simulate(const Trace &trace, const Machine &machine, const std::function<bool()> &cancelled);
// With the trace's plan built beforehand: the same result, bit for bit. A plan
// that does not fit the trace is not used (the trace's own is built).
Result simulate(const Trace &trace, const SimulationPlan &plan, const Machine &machine,
    const std::function<bool()> &cancelled = {});
// The same, reusing the arrays of a result no longer needed (of any trace and
// machine): the same result, bit for bit, without allocating its arrays
// again while they are large enough. A slider step that did allocate them
// wrote some 200 fresh pages at 10⁵ instructions (2–3 ms on the development
// VM; docs/performance.md).
Result simulate(const Trace &trace, const SimulationPlan &plan, const Machine &machine,
    const std::function<bool()> &cancelled, Result &&recycled);

} // namespace roofline::verrocchio
