#include "simulation.h"

#include "../common/diagnostics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <array>
#include <bit>
#include <cassert>

namespace roofline::verrocchio {

const char *dependencyName(Dependency d)
{
    switch (d) {
    case Dependency::CoreStart: return "core_start";
    case Dependency::PipeOrder: return "pipe_order";
    case Dependency::Flag: return "flag";
    case Dependency::Barrier: return "barrier";
    }
    return "?";
}

double Result::busyFraction(std::size_t core, Pipe pipe) const
{
    if (core >= cores.size() || totalNs <= 0)
        return 0;
    return cores[core].busyNs[pipeIndex(pipe)] / totalNs;
}

namespace {

using Kind = Instruction::Kind;

constexpr std::size_t kFlagKeys = kPipeCount * kPipeCount * (kMaxEventId + 1);
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

std::size_t flagKey(const Instruction &in)
{
    return (pipeIndex(in.flagSource()) * kPipeCount + pipeIndex(in.flagDestination())) * (kMaxEventId + 1)
        + in.eventId;
}

// Two times closer than this (relative) count as simultaneous in the checks
// that compare them; the timeline itself is never rounded.
bool earlier(double a, double b)
{
    return a < b - 1e-12 * std::max(1.0, std::abs(b));
}

// Events in the heap. The ends of bus transfers are not here: a transfer is
// re-timed whenever another one starts or ends, and each re-timing used to
// leave a stale event behind (four of five events popped were stale). Each
// active transfer now keeps its own end time, and the next event is the
// earliest of the heap's top, the heads of the Init queues (InitQueue) and
// the earliest transfer end of each bus group, ordered by (time, seq) exactly
// as one heap of all of them would be.
struct Event
{
    enum class Type : std::uint8_t { CoreStart, WorkEnd, DataStart };
    double time = 0;
    std::uint64_t seq = 0; // FIFO among simultaneous events: deterministic results
    std::uint32_t index = 0; // instruction
    Type type = Type::CoreStart;
    std::uint8_t pipe = 0;
    // Not next to `index`: GCC then built the pair in a vector register at
    // every pipe the sweep looked at, for the few that push an event.
    std::uint32_t core = 0;
};

// True when `a` comes after `b`: later time, or the same time and pushed later.
bool after(double aTime, std::uint64_t aSeq, double bTime, std::uint64_t bSeq)
{
    return aTime != bTime ? aTime > bTime : aSeq > bSeq;
}

// The transfers in their Init, waiting for their data phase (DataStart
// events), of the bus pipes with one Init_u: each is queued at now + Init_u,
// and now never decreases, so they come due in the order they were queued,
// and a ring in that order replaces a push and a pop of the heap per transfer.
// At most one per pipe and core is pending: prepare() sizes it once.
struct InitQueue
{
    std::vector<Event> ring; // a power of two long
    std::uint32_t mask = 0;  // ring.size() - 1
    std::uint32_t head = 0;  // both counters run on, taken modulo the ring's size
    std::uint32_t tail = 0;

    bool empty() const { return head == tail; }
    const Event &front() const { return ring.data()[head & mask]; }
    void pop() { ++head; }
    void push(const Event &e)
    {
        // Never full: prepare() sized it for every transfer that can be in its
        // Init at once. Checked where asserts are on (the ASan and fuzz builds).
        assert(tail - head <= mask);
        ring.data()[tail++ & mask] = e;
    }
};

} // namespace

// The machine-independent part of a simulation (SimulationPlan), per core.
struct SimulationPlan::Data
{
    // Per instruction, in program order, what the sweep and completeWork() need of it;
    // each pipe's queue is a list through `next`. One pass over the program
    // builds it (a 10⁶-instruction trace is 24 MB: each pass over it counts).
    struct Entry
    {
        std::uint32_t next = kNone;    // the next instruction on the same pipe
        std::uint32_t segment = 0;     // how many barriers precede it
        std::uint32_t nextSet = kNone; // waits: the set_flag after its partner on the same flag (binary-flag check);
                                       // sets: the next set_flag on the same flag (building the plan)
        std::int32_t partner = -1;     // flags: the matching wait_flag or set_flag (Timing::flag)
        Kind kind = Kind::Work;
        std::uint8_t partnerPipe = 0;  // set_flags: the pipe of the matching wait_flag
        std::uint16_t key = 0;         // flags: flagKey()
    };
    struct Core
    {
        std::vector<Entry> entries;               // per instruction
        std::vector<std::uint32_t> barriers;      // barrier k closes segment k
        std::vector<std::uint32_t> remaining;     // per segment: its instructions (barriers excluded)
        std::array<std::uint32_t, kPipeCount> first{}; // each pipe's first instruction; kNone: none
        std::array<std::uint32_t, kFlagKeys> setCount{};  // set_flag instructions per flag
        std::array<std::uint32_t, kFlagKeys> waitCount{}; // wait_flag instructions per flag
    };
    std::vector<Core> cores;
    std::size_t busTransfers = 0;          // MTE2 and MTE3 work instructions of all cores
    std::size_t waitFlags = 0;             // wait_flag instructions of all cores (each stalls at most once)
    bool negativeSizes = false;            // a work instruction's size below 0 or NaN (the loaders refuse them)
    std::optional<SimulationError> error;  // the first flag set twice (models.md §3.2)
    std::vector<std::string> warnings;     // flags set but never waited for

    explicit Data(const Trace &trace);
};
static_assert(sizeof(SimulationPlan::Data::Entry) == 20); // the plan's 20 bytes per instruction

namespace {

using Entry = SimulationPlan::Data::Entry;

// 16 bytes (whether it is busy is a bit of CoreState::busy).
struct PipeState
{
    std::uint32_t head = kNone;  // the running or next instruction; kNone: none left
    std::int32_t last = -1;      // the previous instruction on the pipe
    double freeAt = 0;
};
static_assert(sizeof(PipeState) == 16);

struct CoreState
{
    const Entry *entries = nullptr; // per instruction: the plan's
    const Instruction *program = nullptr; // per instruction: the trace's
    Timing *timings = nullptr;      // per instruction: the result's (sized once, in prepare())
    double *busyNs = nullptr;       // the result's, per pipe
    std::array<PipeState, kPipeCount> pipes;
    std::span<const std::uint32_t> barriers; // barrier k closes segment k (the plan's)
    std::vector<std::uint32_t> remaining;  // per segment: instructions not yet ended
    std::vector<double> lastEnd;           // per segment: latest end so far
    std::vector<std::int32_t> lastIndex;   // per segment: the instruction that ended last
    std::uint32_t firstOpen = 0;           // segments before it have all ended
    std::vector<double> openTime;          // per segment: when it opened
    // Per flag: the last set_flag that ran, 0 before any (the only reader asks
    // about a set after another, never about instruction 0). Sets of one flag
    // share a pipe, so they run in program order: a set has run iff it is at
    // most this one.
    std::array<std::uint32_t, kFlagKeys> lastSetRun;
    // Bit p: pipe p has something to do at the next look — not busy, not
    // empty, not behind a barrier, and not a wait still waiting for its set.
    // advance() looks only at these pipes, in the same order as at all of them.
    unsigned ready = 0;
    unsigned busy = 0; // bit p: a work instruction is running on pipe p
    bool started = false;
    // The latest end of an executed instruction and the first (lowest index)
    // instruction that ends then; finishResult() reads these instead of
    // scanning every timing again.
    double latestEnd = 0;
    std::uint32_t latestIndex = kNone;
};

// A transfer in its data phase. Kept in place in its bus group's list (in
// order of start, the order retime() and recordContention() walk), not in
// slots reached through an index: every re-timing and contention record
// walks them all. 64 bytes: its group's list is moved and walked often, and
// its size divided by 80 cost a multiplication at every step.
struct Transfer
{
    double remaining = 0;  // bytes, at the group's last re-timing (Simulator::m_groupUpdated)
    double rounding = 0;   // size · 1e-12: at most this left counts as ended
    double rate = 0;       // bytes/ns
    double cap = 0;        // Th_u
    double slowBelow = 0;  // earlier(rate, cap) iff rate < slowBelow
    double endTime = 0;    // at the current rate
    std::uint64_t endSeq = 0; // its place among simultaneous events
    std::uint32_t core = 0;
    std::uint32_t instruction = 0; // its pipe: the instruction's
};
static_assert(sizeof(Transfer) == 64);

// A bus group's transfers in their data phase, in order of start. At most
// one per MTE2 and MTE3 pipe of each core are, so prepare() sizes it once and
// the used slots end at `last` (a vector's push_back() of a Transfer cost
// some 45 machine instructions). A pointer rather than a count: stores to the
// transfers' integer fields would make the compiler reload a count.
struct TransferList
{
    std::vector<Transfer> slots;
    Transfer *first = nullptr;
    Transfer *last = nullptr;

    std::size_t size() const { return static_cast<std::size_t>(last - first); }
    Transfer &operator[](std::size_t k) { return first[k]; }
    const Transfer &operator[](std::size_t k) const { return first[k]; }
    const Transfer *begin() const { return first; }
    const Transfer *end() const { return last; }
    void pop() { --last; }
};

class Simulator
{
public:
    // `plan`: the trace's, or null to build it.
    // `recycled`: an earlier result whose arrays this one reuses (emptied, their capacity kept).
    Simulator(const Trace &trace, const SimulationPlan::Data *plan, const Machine &machine,
        const std::function<bool()> &cancelled, Result &&recycled = {})
        : m_trace(trace)
        , m_machine(machine)
        , m_cancelled(cancelled)
        , m_plan(plan)
        , m_result(emptied(std::move(recycled)))
    {
    }

    Result run();

private:
    void prepare();
    // `ended`: the work that ended at `now` just before, if any (completeWork()
    // leaves noteEnd() for it to the sweep, which notes its flags' ends once).
    void advance(std::uint32_t core, double now, std::uint32_t ended = kNone);
    template<bool kBarriers>
    [[gnu::always_inline]] inline void sweep(std::uint32_t core, CoreState &state, double now, std::uint32_t ended);
    template<bool kBarriers>
    [[gnu::always_inline]] static inline void recordStart(const CoreState &state, const PipeState &pipe,
                                                          std::uint32_t segment, Timing &t, double now);
    [[gnu::always_inline]] inline void closeSegment(CoreState &state, std::uint32_t segment, std::uint32_t index,
                                                    unsigned &ready, double now);
    [[gnu::always_inline]] inline void startWork(std::uint32_t core, std::size_t pipe, std::uint32_t index, double now);
    void beginTransfer(std::uint32_t core, std::size_t pipe, std::uint32_t index, double now);
    std::uint32_t finishTransfer(std::size_t group, double now); // the instruction that ended
    // Ends the work at the head of the pipe (sweep() ends the flags).
    // `index`: the head of the pipe, which the caller has at hand (looked up
    // again here, it was reloaded after every store to the timings).
    [[gnu::always_inline]] inline void completeWork(CoreState &state, std::size_t pipe, std::uint32_t index,
                                                    double now);
    void refreshReady(CoreState &state, const Timing *timings, std::size_t pipe);
    [[gnu::noinline, gnu::cold]] void failFlagAlreadySet(std::uint32_t core, std::uint32_t set, std::uint32_t wait,
                                                         double now);
    static void noteEnd(CoreState &state, std::uint32_t index, double end);
    static bool allRan(const CoreState &state);
    void fillUnrunFlags();
    void closeSegments(CoreState &state, Timing *timings, double now);
    // push(), retime() and recordContention() run for nearly every event; as
    // calls (GCC -O2 would not inline them) their entries and exits were some
    // 20 machine instructions per trace instruction. Inlining beginTransfer(),
    // startWork() or finishTransfer() as well cost more than it saved.
    [[gnu::always_inline]] inline void retime(std::size_t group, double now, bool started);
    [[gnu::always_inline]] inline void recordContention(double now);
    void dropOpenContention();
    [[gnu::always_inline]] inline void push(double time, Event::Type type, std::uint32_t core, std::uint32_t index,
                                            std::size_t pipe);
    Event pop();
    void fail(SimulationError::Kind kind, std::uint32_t core, std::uint32_t index, std::string message);
    void reportDeadlock();
    void finishResult();
    static Result emptied(Result &&recycled);

    const Trace &m_trace;
    const Machine &m_machine;
    const std::function<bool()> &m_cancelled;
    const SimulationPlan::Data *m_plan;
    std::optional<SimulationPlan::Data> m_ownPlan;
    Result m_result;
    std::vector<CoreState> m_cores;
    // A binary heap, earliest on top, in the first m_eventCount slots. At most
    // one event per pipe (its work's end) and one per core (its start) are
    // pending, so prepare() sizes it once; push() still grows it.
    std::vector<Event> m_events;
    std::size_t m_eventCount = 0;
    // The DataStart events, not in the heap: one queue per Init_u of MTE2
    // and MTE3 (one queue when they are equal; none when a duration could be
    // negative, see prepare()), m_initQueueOf[pipe] its index.
    std::array<InitQueue, 2> m_initQueues;
    std::size_t m_initQueueCount = 0;
    std::array<std::uint8_t, kPipeCount> m_initQueueOf{};
    std::uint64_t m_seq = 0;
    std::size_t m_busTransfers = 0; // MTE2 and MTE3 work instructions of all cores

    // Per bus group (0: the whole bus in half duplex, or reads; 1: writes):
    // the transfers in their data phase, in order of start.
    std::array<TransferList, 2> m_active;
    std::array<std::uint32_t, 2> m_nextEnd{kNone, kNone}; // per bus group: the one that ends first
    std::array<double, 2> m_groupCapacity{};
    // Per bus group: when its transfers were last re-timed (retime() brings
    // them all to that time, and a new one starts then).
    std::array<double, 2> m_groupUpdated{};
    std::array<double, kPipeCount> m_slowBelow{}; // per pipe: Transfer::slowBelow
    // Per bus group: at least two transfers and one of them below its Th_u.
    std::array<bool, 2> m_groupContended{false, false};
    // The contention interval under way, if any; its shares are already at the
    // end of m_result.shares, from m_contentionFirstShare on.
    bool m_contended = false;
    double m_contentionStart = 0;
    std::size_t m_contentionFirstShare = 0;
};

// A plain binary heap. (std::push_heap moved the new event out of memory it
// had just written field by field: a store-forwarding stall on every push.)
// Keys (time, seq) are unique, so any correct heap pops the same sequence.
inline void Simulator::push(double time, Event::Type type, std::uint32_t core, std::uint32_t index,
                            std::size_t pipe)
{
    const Event e{time, m_seq++, index, type, static_cast<std::uint8_t>(pipe), core};
    if (m_eventCount == m_events.size()) [[unlikely]]
        m_events.resize(2 * m_events.size() + 1);
    std::size_t hole = m_eventCount++;
    while (hole > 0) {
        const std::size_t parent = (hole - 1) / 2;
        if (!after(m_events[parent].time, m_events[parent].seq, e.time, e.seq))
            break;
        m_events[hole] = m_events[parent];
        hole = parent;
    }
    m_events[hole] = e;
}

Event Simulator::pop()
{
    const Event top = m_events.front();
    const std::size_t n = --m_eventCount;
    const Event last = m_events[n];
    if (n == 0)
        return top;
    std::size_t hole = 0;
    for (;;) {
        std::size_t child = 2 * hole + 1;
        if (child >= n)
            break;
        if (child + 1 < n && after(m_events[child].time, m_events[child].seq, m_events[child + 1].time,
                                   m_events[child + 1].seq))
            ++child;
        if (!after(last.time, last.seq, m_events[child].time, m_events[child].seq))
            break;
        m_events[hole] = m_events[child];
        hole = child;
    }
    m_events[hole] = last;
    return top;
}

// A fresh result (every field at its default) holding `recycled`'s arrays,
// emptied: filling them again maps no new pages and moves nothing as they grow.
Result Simulator::emptied(Result &&recycled)
{
    Result r;
    const auto reuse = [](auto &to, auto &from) {
        to = std::move(from);
        to.clear();
    };
    r.cores = std::move(recycled.cores); // kept, not cleared: each core's timings are reused below
    for (CoreResult &core : r.cores) {
        CoreResult fresh;
        reuse(fresh.instructions, core.instructions);
        core = std::move(fresh);
    }
    reuse(r.stalls, recycled.stalls);
    reuse(r.contention, recycled.contention);
    reuse(r.shares, recycled.shares);
    reuse(r.criticalPath, recycled.criticalPath);
    return r;
}

void Simulator::fail(SimulationError::Kind kind, std::uint32_t core, std::uint32_t index, std::string message)
{
    if (m_result.error)
        return;
    m_result.error = SimulationError{kind, static_cast<std::int32_t>(core), static_cast<std::int32_t>(index),
                                     std::move(message)};
}

void Simulator::prepare()
{
    if (!m_plan)
        m_plan = &m_ownPlan.emplace(m_trace);
    const SimulationPlan::Data &plan = *m_plan;
    m_cores.resize(m_trace.cores.size());
    m_result.cores.resize(m_trace.cores.size());
    for (std::size_t c = 0; c < m_trace.cores.size(); ++c) {
        const SimulationPlan::Data::Core &planned = plan.cores[c];
        CoreState &state = m_cores[c];
        auto &timings = m_result.cores[c].instructions;
        // Each flag's partner is written when it ends (sweep(); -1 for work in
        // completeWork()), in the word it shares with the executed bit, or by
        // fillUnrunFlags() when the simulation stops early: a pass over every
        // timing here cost 15 machine instructions per trace instruction.
        timings.resize(planned.entries.size());
        m_result.cores[c].startNs = static_cast<double>(c) * m_machine.skewNs;
        state.entries = planned.entries.data();
        state.program = m_trace.cores[c].instructions.data();
        state.timings = timings.data();
        state.busyNs = m_result.cores[c].busyNs.data();
        state.barriers = planned.barriers;
        state.remaining = planned.remaining;
        state.lastSetRun.fill(0);
        for (std::size_t p = 0; p < kPipeCount; ++p)
            state.pipes[p].head = planned.first[p];
        state.lastEnd.assign(state.remaining.size(), 0);
        state.lastIndex.assign(state.remaining.size(), -1);
        state.openTime.assign(state.remaining.size(), 0);
    }
    if (plan.error && !m_result.error)
        m_result.error = plan.error;
    m_result.warnings.insert(m_result.warnings.end(), plan.warnings.begin(), plan.warnings.end());
    m_busTransfers = plan.busTransfers;
    m_events.resize(m_cores.size() * (kPipeCount + 1));
    for (TransferList &active : m_active) {
        active.slots.resize(2 * m_cores.size());
        active.first = active.last = active.slots.data();
    }
    // Each start or end of a transfer closes at most one contention interval;
    // an interval has some two or three shares. Growing these arrays by
    // doubling moved them several times at 10⁶ instructions.
    m_result.contention.reserve(2 * m_busTransfers);
    m_result.shares.reserve(4 * m_busTransfers);
    // Each wait_flag stalls at most once. Grown by doubling, the stalls were
    // copied some 17 times at 10⁵ instructions (3 machine instructions per
    // trace instruction); the doubling's capacity is about as large.
    m_result.stalls.reserve(plan.waitFlags);
    if (m_machine.busMode == BusMode::HalfDuplex)
        m_groupCapacity = {m_machine.busGBps, m_machine.busGBps};
    else
        m_groupCapacity = {m_machine.readGBps, m_machine.writeGBps};
    for (std::size_t p = 0; p < kPipeCount; ++p) {
        const double cap = m_machine.pipes[p].throughput;
        m_slowBelow[p] = cap - 1e-12 * std::max(1.0, std::abs(cap));
    }
    // The Init queues need time never to run backwards: no duration below 0,
    // i.e. no size, Init_u, rate or bus bandwidth below 0 (the loaders refuse
    // them; simulate() does not). Without that, the DataStarts go to the heap.
    bool forward = !plan.negativeSizes && m_groupCapacity[0] > 0 && m_groupCapacity[1] > 0;
    for (const PipeParams &p : m_machine.pipes)
        forward = forward && p.throughput > 0 && p.initNs >= 0;
    const double mte2Init = m_machine.pipe(Pipe::MTE2).initNs, mte3Init = m_machine.pipe(Pipe::MTE3).initNs;
    m_initQueueCount = !forward ? 0 : mte2Init == mte3Init ? 1 : 2;
    m_initQueueOf[pipeIndex(Pipe::MTE3)] = m_initQueueCount == 2 ? 1 : 0;
    for (std::size_t q = 0; q < m_initQueueCount; ++q) {
        m_initQueues[q].ring.resize(std::bit_ceil(m_cores.size() * (3 - m_initQueueCount)));
        m_initQueues[q].mask = static_cast<std::uint32_t>(m_initQueues[q].ring.size() - 1);
    }
}

// Starts whatever can start on the core at `now`, repeatedly, since an
// instruction that ends at once (a flag, a satisfied wait) may release others.
void Simulator::advance(std::uint32_t core, double now, std::uint32_t ended)
{
    CoreState &state = m_cores[core];
    if (!state.started)
        return; // (nothing of it has run)
    if (state.barriers.empty())
        sweep<false>(core, state, now, ended);
    else
        sweep<true>(core, state, now, ended);
}

// advance() for a core with pipe_barriers (kBarriers) or without: then all
// its instructions are in the one segment, which is always open, and the
// tests and the bookkeeping of segments go.
template<bool kBarriers>
inline void Simulator::sweep(std::uint32_t core, CoreState &state, double now, std::uint32_t ended)
{
    Timing *const timings = state.timings;
    const Entry *const entries = state.entries;
    // The ready bits in a local: stores to the timings' and the events' integer
    // fields would otherwise make the compiler reload them after each.
    unsigned ready = state.ready;
    // The flags that end here all end at `now`, as `ended` did: noteEnd()
    // once, for the lowest index, is what it would keep of them one by one.
    std::uint32_t firstEnded = ended;
    // earlier(x, now) is x < nowBound: the same expression, evaluated once.
    const double nowBound = now - 1e-12 * std::max(1.0, std::abs(now));
    // Sweeps until no pipe has anything to do. A sweep that completes nothing
    // clears every bit it visits, and only a completion sets a bit behind the
    // sweep, so this stops exactly where "sweep again while one made
    // progress" did, without its last, empty sweep.
    while (ready != 0 && !m_result.error) {
        // The pipes in order, skipping those with nothing to do (busy, empty,
        // behind a barrier whose predecessors have not all ended, or a wait
        // whose set_flag has not run): they would change nothing.
        for (unsigned p = 0;; ++p) {
            const unsigned rest = ready >> p;
            if (rest == 0)
                break;
            p += static_cast<unsigned>(std::countr_zero(rest));
            const unsigned bit = 1u << p;
            PipeState &pipe = state.pipes[p];
            const std::uint32_t i = pipe.head;
            const Entry &entry = entries[i];
            const Kind kind = entry.kind;
            Timing &t = timings[i];
            // Record the start once; waits keep it while they stall.
            if (kind != Kind::WaitFlag || !(t.end < 0))
                recordStart<kBarriers>(state, pipe, entry.segment, t, now);
            if (kind == Kind::Work) {
                // The pipe's next instruction starts when this one ends, many
                // events from now: fetch what it reads meanwhile.
                if (const std::uint32_t next = entry.next; next != kNone) {
                    __builtin_prefetch(&entries[next]);
                    __builtin_prefetch(&timings[next], 1);
                    __builtin_prefetch(&state.program[next]);
                }
                state.busy |= bit;
                ready &= ~bit;
                startWork(core, p, i, now);
                continue;
            }
            // entry.partner is the timing's flag, without unpacking it.
            if (kind == Kind::WaitFlag && !(entry.partner >= 0 && timings[entry.partner].executed)) {
                t.end = -1; // marks "stalled at the head of its pipe"
                ready &= ~bit;
                continue;
            }
            // A flag: it ends now, and only such an instruction can release
            // another pipe (then look at every pipe again). Its pipe is not
            // busy (it was ready).
            t.flag = entry.partner;
            t.executed = true;
            t.end = now;
            firstEnded = std::min(firstEnded, i);
            pipe.freeAt = now;
            pipe.last = static_cast<std::int32_t>(i);
            pipe.head = entry.next;
            // The bit stays set for a fresh instruction (never a stalled wait).
            if (pipe.head == kNone || (kBarriers && entries[pipe.head].segment > state.firstOpen))
                ready &= ~bit;
            if (kind == Kind::SetFlag) {
                state.lastSetRun[entry.key] = i;
                if (entry.partner >= 0 && timings[entry.partner].end < 0) {
                    // Its wait_flag stalls at the head of its pipe (not busy, in an open
                    // segment: it was looked at), and its set has now run: it can go on.
                    ready |= 1u << entry.partnerPipe;
                }
            } else {
                if (t.start < nowBound) // earlier(t.start, now)
                    m_result.stalls.push_back({core, i, t.start, now});
                // The flag is binary: the next set on this key must not come before this
                // wait clears it. Checked here rather than at the set, because the wait
                // may still end at the very time of that set.
                // (nextSet: kNone, which no set reaches, or a set after another, so never 0.)
                const std::uint32_t next = entry.nextSet;
                if (state.lastSetRun[entry.key] >= next && timings[next].end < nowBound) [[unlikely]]
                    failFlagAlreadySet(core, next, i, now);
            }
            if constexpr (kBarriers)
                closeSegment(state, entry.segment, i, ready, now);
        }
    }
    state.ready = ready;
    if (firstEnded != kNone)
        noteEnd(state, firstEnded, now);
}

// When `t` starts: the latest of the previous instruction on the pipe, the
// barrier opening its segment and the core's start sets its cause.
template<bool kBarriers>
inline void Simulator::recordStart(const CoreState &state, const PipeState &pipe, std::uint32_t segment, Timing &t,
                                   double now)
{
    t.start = now;
    const double barrierTime = kBarriers && segment > 0 ? state.openTime[segment] : -1;
    if (pipe.last >= 0 && !(barrierTime > pipe.freeAt)) {
        t.cause = pipe.last;
        t.causeKind = Dependency::PipeOrder;
    } else if (kBarriers && segment > 0) {
        t.cause = static_cast<std::int32_t>(state.barriers[segment - 1]);
        t.causeKind = Dependency::Barrier;
    } else {
        t.cause = -1;
        t.causeKind = Dependency::CoreStart;
    }
}

// Barrier bookkeeping after instruction `index` of `segment` ended:
// segments end in order, since nothing of a later segment can start before
// an earlier one has ended. `ready`: the core's ready bits, or sweep()'s copy.
inline void Simulator::closeSegment(CoreState &state, std::uint32_t segment, std::uint32_t index, unsigned &ready,
                                    double now)
{
    if (now >= state.lastEnd[segment]) {
        state.lastEnd[segment] = now;
        state.lastIndex[segment] = static_cast<std::int32_t>(index);
    }
    --state.remaining[segment];
    state.ready = ready; // closeSegments() works on the core's
    closeSegments(state, state.timings, now);
    ready = state.ready;
}

inline void Simulator::startWork(std::uint32_t core, std::size_t pipe, std::uint32_t index, double now)
{
    const Instruction &in = m_cores[core].program[index];
    const PipeParams &p = m_machine.pipes[pipe];
    if (!usesBus(static_cast<Pipe>(pipe))) {
        push(now + p.initNs + in.size / p.throughput, Event::Type::WorkEnd, core, index, pipe);
        return;
    }
    if (p.initNs > 0 && m_initQueueCount != 0)
        m_initQueues[m_initQueueOf[pipe]].push(
            Event{now + p.initNs, m_seq++, index, Event::Type::DataStart, static_cast<std::uint8_t>(pipe), core});
    else if (p.initNs > 0)
        push(now + p.initNs, Event::Type::DataStart, core, index, pipe);
    else
        beginTransfer(core, pipe, index, now);
}

void Simulator::beginTransfer(std::uint32_t core, std::size_t pipe, std::uint32_t index, double now)
{
    const Instruction &in = m_cores[core].program[index];
    if (in.size <= 0) {
        push(now, Event::Type::WorkEnd, core, index, pipe);
        return;
    }
    const std::size_t group = m_machine.busMode == BusMode::Separate && in.pipe == Pipe::MTE3 ? 1 : 0;
    const double cap = m_machine.pipes[pipe].throughput;
    // In place, field by field (a Transfer built and copied cost twice the
    // stores); retime() sets its rate, end and sequence number before any
    // reads them.
    Transfer &t = *m_active[group].last++;
    t.remaining = in.size;
    t.rounding = in.size * 1e-12;
    t.cap = cap;
    t.slowBelow = m_slowBelow[pipe];
    t.core = core;
    t.instruction = index;
    retime(group, now, true);
    recordContention(now);
}

// Ends the group's transfer that ends first (m_nextEnd).
std::uint32_t Simulator::finishTransfer(std::size_t group, double now)
{
    auto &active = m_active[group];
    const std::size_t ended = m_nextEnd[group];
    const std::uint32_t core = active[ended].core;
    const std::uint32_t index = active[ended].instruction; // the head of its pipe
    // Out of the list, the others kept in order of start. By hand: the list
    // holds a few transfers, and erase()'s call to memmove cost more than
    // moving them. (The empty asm keeps GCC from making the loop a memmove
    // call again.)
    for (std::size_t k = ended; k + 1 < active.size(); ++k) {
        active[k] = active[k + 1];
        asm volatile("" ::: );
    }
    active.pop();
    retime(group, now, false);
    recordContention(now);
    CoreState &state = m_cores[core];
    completeWork(state, pipeIndex(state.program[index].pipe), index, now);
    return index;
}

// After a transfer of the group started or ended: each active transfer's
// bytes moved since the last change (at the rates of that period), then equal
// shares of the group's capacity, each capped by its pipe's Th_u (models.md
// 3.3), and a new end time. One pass; a transfer that ended is already out of
// the list, and when `started`, the last one starts now and has moved nothing.
inline void Simulator::retime(std::size_t group, double now, bool started)
{
    auto &active = m_active[group];
    const std::size_t n = active.size();
    if (n == 0) {
        m_nextEnd[group] = kNone;
        m_groupContended[group] = false;
        return;
    }
    const double share = m_groupCapacity[group] / static_cast<double>(n);
    const std::size_t moved = started ? n - 1 : n;
    // In locals: stored through the transfers' fields of the same types, the
    // members would be reloaded on every turn.
    std::uint64_t seq = m_seq;
    const double since = m_groupUpdated[group];
    m_groupUpdated[group] = now;
    std::uint32_t nextEnd = 0;
    double first = 0;
    bool slowed = false;
    for (std::size_t k = 0; k < n; ++k) {
        Transfer &t = active[k];
        if (k < moved) {
            t.remaining -= t.rate * (now - since);
            if (t.remaining <= t.rounding)
                t.remaining = 0; // rounding: it ends now
        }
        t.rate = std::min(t.cap, share);
        t.endTime = now + t.remaining / t.rate;
        t.endSeq = seq++;
        slowed = slowed || t.rate < t.slowBelow; // earlier(t.rate, t.cap)
        // Sequence numbers rise along the loop: among equal times the first wins.
        if (k == 0 || t.endTime < first) {
            nextEnd = static_cast<std::uint32_t>(k);
            first = t.endTime;
        }
    }
    m_seq = seq;
    m_nextEnd[group] = nextEnd;
    m_groupContended[group] = n >= 2 && slowed;
}

// A simulation stopped by an error leaves the interval under way unrecorded.
void Simulator::dropOpenContention()
{
    if (m_contended)
        m_result.shares.resize(m_contentionFirstShare);
    m_contended = false;
}

inline void Simulator::recordContention(double now)
{
    if (m_contended) {
        if (now > m_contentionStart) {
            m_result.contention.push_back({m_contentionStart, now, static_cast<std::uint32_t>(m_contentionFirstShare),
                                           static_cast<std::uint32_t>(m_result.shares.size() - m_contentionFirstShare)});
            m_result.contentionNs += now - m_contentionStart;
        } else {
            m_result.shares.resize(m_contentionFirstShare); // an empty interval: no record
        }
    }
    // Rates change only in retime(), which notes whether its group is contended.
    m_contended = m_groupContended[0] | m_groupContended[1]; // (no branch)
    if (!m_contended)
        return;
    m_contentionStart = now;
    m_contentionFirstShare = m_result.shares.size();
    auto &shares = m_result.shares;
    for (const Transfer &t : m_active[0])
        shares.push_back({t.core, t.instruction, t.rate});
    for (const Transfer &t : m_active[1])
        shares.push_back({t.core, t.instruction, t.rate});
}

// Ends the work at the head of the pipe; the caller passes `index` on to
// advance(), which notes its end.
inline void Simulator::completeWork(CoreState &state, std::size_t p, std::uint32_t index, double now)
{
    PipeState &pipe = state.pipes[p];
    const Entry &entry = state.entries[index];
    Timing &t = state.timings[index];
    t.flag = -1;
    t.executed = true;
    t.end = now;

    state.busy &= ~(1u << p);
    pipe.freeAt = now;
    pipe.last = static_cast<std::int32_t>(index);
    pipe.head = entry.next;
    if (pipe.head != kNone && state.entries[pipe.head].segment <= state.firstOpen)
        state.ready |= 1u << p; // a fresh instruction: never a stalled wait
    else
        state.ready &= ~(1u << p);
    state.busyNs[p] += now - t.start;
    if (!state.barriers.empty())
        closeSegment(state, entry.segment, index, state.ready, now);
}

// Completes every barrier whose segment has nothing left to run, in order. A
// pipe_barrier with nothing before it (or right after another) has an empty
// condition and completes at once (models.md §3.2), at the core's start.
void Simulator::closeSegments(CoreState &state, Timing *timings, double now)
{
    while (state.firstOpen < state.barriers.size() && state.remaining[state.firstOpen] == 0) {
        const std::uint32_t s = state.firstOpen;
        const std::uint32_t barrier = state.barriers[s];
        Timing &b = timings[barrier];
        b.executed = true;
        b.start = b.end = now;
        noteEnd(state, barrier, now);
        if (state.lastIndex[s] >= 0) {
            b.cause = state.lastIndex[s];
            b.causeKind = Dependency::Barrier;
        } else if (s > 0) {
            b.cause = static_cast<std::int32_t>(state.barriers[s - 1]);
            b.causeKind = Dependency::Barrier;
        }
        state.openTime[s + 1] = now;
        ++state.firstOpen;
        for (std::size_t p = 0; p < kPipeCount; ++p)
            refreshReady(state, timings, p);
    }
}

void Simulator::failFlagAlreadySet(std::uint32_t core, std::uint32_t set, std::uint32_t wait, double now)
{
    const Timing &t = m_result.cores[core].instructions[set];
    fail(SimulationError::Kind::FlagAlreadySet, core, set,
         describeAt(m_trace, core, set) + ": sets a flag that is already set (at t = " + formatNumber(t.end, 9)
             + " ns; the wait_flag that clears it, " + describeAt(m_trace, core, wait) + ", ends at t = "
             + formatNumber(now, 9) + " ns)");
}

void Simulator::noteEnd(CoreState &state, std::uint32_t index, double end)
{
    // Time only moves forward, so the first test usually decides.
    if (end > state.latestEnd || state.latestIndex == kNone || (end == state.latestEnd && index < state.latestIndex)) {
        state.latestEnd = end;
        state.latestIndex = index;
    }
}

// Whether every instruction of the core ran: a pipe's head moves on only when
// its instruction ends, and barriers end in order (firstOpen counts them).
// (A count of ended instructions, kept for this, cost a store per instruction.)
bool Simulator::allRan(const CoreState &state)
{
    for (const PipeState &pipe : state.pipes) {
        if (pipe.head != kNone)
            return false;
    }
    return state.firstOpen == state.barriers.size();
}

void Simulator::refreshReady(CoreState &state, const Timing *timings, std::size_t p)
{
    const PipeState &pipe = state.pipes[p];
    bool ready = !(state.busy & (1u << p)) && pipe.head != kNone && state.entries[pipe.head].segment <= state.firstOpen;
    if (ready && state.entries[pipe.head].kind == Kind::WaitFlag) {
        const Timing &t = timings[pipe.head];
        const std::int32_t partner = state.entries[pipe.head].partner;
        ready = !(t.end < 0) || (partner >= 0 && timings[partner].executed);
    }
    if (ready)
        state.ready |= 1u << p;
    else
        state.ready &= ~(1u << p);
}

// The flag partners of the instructions that did not run (sweep() and
// completeWork() wrote those of the others), for a simulation that stopped
// early.
void Simulator::fillUnrunFlags()
{
    for (std::size_t c = 0; c < m_cores.size(); ++c) {
        const CoreState &state = m_cores[c];
        auto &timings = m_result.cores[c].instructions;
        if (allRan(state))
            continue;
        for (std::size_t i = 0; i < timings.size(); ++i) {
            if (!timings[i].executed)
                timings[i].flag = state.entries[i].partner;
        }
    }
}

void Simulator::reportDeadlock()
{
    const auto waitMessage = [&](std::size_t c, std::uint32_t i) {
        const auto &timings = m_result.cores[c].instructions;
        const Instruction &in = m_trace.cores[c].instructions[i];
        std::string why;
        if (timings[i].flag < 0) {
            const std::size_t key = flagKey(in);
            why = "no matching set_flag: core " + std::to_string(c) + " sets this flag "
                + std::to_string(m_plan->cores[c].setCount[key]) + " time(s) and waits for it "
                + std::to_string(m_plan->cores[c].waitCount[key]) + " time(s)";
        } else {
            why = "its matching set_flag never runs: " + describeAt(m_trace, c, timings[i].flag);
        }
        return "deadlock: " + describeAt(m_trace, c, i) + " waits forever since t = "
            + formatNumber(timings[i].start, 9) + " ns; " + why;
    };
    for (std::size_t c = 0; c < m_cores.size(); ++c) {
        const auto &timings = m_result.cores[c].instructions;
        // The first stalled wait in program order explains the rest of the core.
        std::uint32_t first = kNone;
        for (const PipeState &pipe : m_cores[c].pipes) {
            if (pipe.head != kNone) {
                const std::uint32_t i = pipe.head;
                if (m_cores[c].entries[i].kind == Kind::WaitFlag && timings[i].end < 0)
                    first = std::min(first, i);
            }
        }
        if (first != kNone) {
            fail(SimulationError::Kind::Deadlock, static_cast<std::uint32_t>(c), first, waitMessage(c, first));
            return;
        }
    }
    for (std::size_t c = 0; c < m_cores.size(); ++c) {
        if (allRan(m_cores[c]))
            continue;
        for (std::uint32_t i = 0; i < m_result.cores[c].instructions.size(); ++i) {
            if (!m_result.cores[c].instructions[i].executed) {
                fail(SimulationError::Kind::Deadlock, static_cast<std::uint32_t>(c), i,
                     "deadlock: " + describeAt(m_trace, c, i) + " never runs");
                return;
            }
        }
    }
}

void Simulator::finishResult()
{
    // The first instruction, cores in order and each in program order, that
    // ends last: per core, the first one at its latest end (noteEnd()).
    std::int32_t lastCore = -1, lastIndex = -1;
    for (std::size_t c = 0; c < m_result.cores.size(); ++c) {
        CoreResult &core = m_result.cores[c];
        const CoreState &state = m_cores[c]; // prepare() sized both alike
        core.endNs = core.startNs;
        if (state.latestIndex != kNone) {
            core.endNs = std::max(core.endNs, state.latestEnd);
            if (lastCore < 0 || state.latestEnd > m_result.totalNs) {
                m_result.totalNs = state.latestEnd;
                lastCore = static_cast<std::int32_t>(c);
                lastIndex = static_cast<std::int32_t>(state.latestIndex);
            }
        }
        // A core that runs nothing ends where it starts; its (skewed) start is
        // not an event of the trace, so it does not move the trace's end.
        if (state.latestIndex != kNone)
            m_result.totalNs = std::max(m_result.totalNs, core.endNs);
    }
    if (lastCore < 0)
        return;
    // Walk back along the edge that set each step's time once, writing the
    // steps last to first, then reverse them. (Walking twice, to count and
    // then to write them in place, took fewer instructions, but at 10⁶
    // instructions the second walk missed the cache again at every step: the
    // timings are 24 MB.)
    const auto &timings = m_result.cores[lastCore].instructions;
    const Entry *entries = m_cores[lastCore].entries;
    const auto before = [&](std::int32_t i, Dependency &via) {
        const Timing &t = timings[i];
        via = t.causeKind;
        if (entries[i].kind == Kind::WaitFlag && t.flag >= 0 && (earlier(t.start, t.end) || t.cause < 0)
            && timings[t.flag].executed) {
            via = Dependency::Flag;
            return static_cast<std::int32_t>(t.flag);
        }
        return static_cast<std::int32_t>(t.cause);
    };
    std::vector<PathStep> path = std::move(m_result.criticalPath); // empty; a recycled result's capacity
    for (std::int32_t i = lastIndex; i >= 0;) {
        PathStep &step = path.emplace_back();
        step.core = static_cast<std::uint32_t>(lastCore);
        step.instruction = static_cast<std::uint32_t>(i);
        i = before(i, step.via);
    }
    std::reverse(path.begin(), path.end());
    m_result.criticalPath = std::move(path);
}

Result Simulator::run()
{
    if (m_trace.cores.size() > static_cast<std::size_t>(std::max(m_machine.coreCount, 0))) {
        fail(SimulationError::Kind::InvalidInput, 0, 0,
             "the trace has " + std::to_string(m_trace.cores.size()) + " cores, the machine only "
                 + std::to_string(m_machine.coreCount));
        return std::move(m_result);
    }
    for (std::size_t c = 0; c < m_trace.cores.size(); ++c) {
        if (m_trace.cores[c].instructions.size() > Timing::kMaxCoreInstructions) {
            fail(SimulationError::Kind::InvalidInput, static_cast<std::uint32_t>(c), 0,
                 "core " + std::to_string(c) + " has " + std::to_string(m_trace.cores[c].instructions.size())
                     + " instructions; at most " + std::to_string(Timing::kMaxCoreInstructions) + " per core are supported");
            return std::move(m_result);
        }
    }
    prepare();
    for (std::uint32_t c = 0; c < m_cores.size(); ++c)
        push(m_result.cores[c].startNs, Event::Type::CoreStart, c, 0, 0);
    std::uint32_t sinceCheck = 0;
    while (!m_result.error) {
        if (++sinceCheck == 1024) {
            sinceCheck = 0;
            if (m_cancelled && m_cancelled()) {
                fail(SimulationError::Kind::Cancelled, 0, 0, "cancelled: a newer request superseded this simulation");
                dropOpenContention();
                fillUnrunFlags();
                return std::move(m_result);
            }
        }
        // The earliest transfer end of either bus group...
        const Transfer *ending = nullptr;
        std::size_t group = 0;
        if (m_nextEnd[0] != kNone)
            ending = &m_active[0][m_nextEnd[0]];
        if (m_nextEnd[1] != kNone) {
            const Transfer &other = m_active[1][m_nextEnd[1]];
            if (!ending || after(ending->endTime, ending->endSeq, other.endTime, other.endSeq)) {
                ending = &other;
                group = 1;
            }
        }
        // ...unless an event of the heap or of an Init queue comes first.
        const Event *event = m_eventCount != 0 ? m_events.data() : nullptr;
        std::size_t queue = kNone;
        if (!m_initQueues[0].empty()) {
            const Event &head = m_initQueues[0].front();
            if (!event || after(event->time, event->seq, head.time, head.seq)) {
                event = &head;
                queue = 0;
            }
        }
        if (!m_initQueues[1].empty()) { // never used when MTE2 and MTE3 have the same Init_u
            const Event &head = m_initQueues[1].front();
            if (!event || after(event->time, event->seq, head.time, head.seq)) {
                event = &head;
                queue = 1;
            }
        }
        if (event && (!ending || !after(event->time, event->seq, ending->endTime, ending->endSeq))) {
            if (queue != kNone) {
                const Event e = *event;
                m_initQueues[queue].pop();
                beginTransfer(e.core, e.pipe, e.index, e.time);
                continue;
            }
            const Event e = pop();
            switch (e.type) {
            case Event::Type::CoreStart:
                m_cores[e.core].started = true;
                closeSegments(m_cores[e.core], m_result.cores[e.core].instructions.data(), e.time);
                for (std::size_t p = 0; p < kPipeCount; ++p)
                    refreshReady(m_cores[e.core], m_result.cores[e.core].instructions.data(), p);
                advance(e.core, e.time);
                break;
            case Event::Type::WorkEnd: {
                CoreState &state = m_cores[e.core];
                const std::uint32_t index = state.pipes[e.pipe].head;
                completeWork(state, e.pipe, index, e.time);
                advance(e.core, e.time, index);
                break;
            }
            case Event::Type::DataStart: // in the heap only when there are no Init queues (prepare())
                beginTransfer(e.core, e.pipe, e.index, e.time);
                break;
            }
        } else if (ending) {
            const std::uint32_t core = ending->core;
            const double time = ending->endTime;
            const std::uint32_t index = finishTransfer(group, time);
            advance(core, time, index);
        } else {
            break;
        }
    }
    dropOpenContention();
    fillUnrunFlags();
    if (!m_result.error)
        reportDeadlock();
    finishResult();
    return std::move(m_result);
}

} // namespace

// One pass over the program per core: the pipe queues, the barrier segments,
// and every flag paired with its partner (the k-th set with the k-th wait).
// The pairs are made as the pass goes, through queues of the sets or waits
// still unpaired threaded through the entries' nextSet (per flag only one
// kind waits at a time): collecting every flag's sets and waits in vectors
// first and pairing them after cost some 40 machine instructions per trace
// instruction.
SimulationPlan::Data::Data(const Trace &trace)
{
    cores.resize(trace.cores.size());
    for (std::size_t c = 0; c < trace.cores.size(); ++c) {
        const auto &program = trace.cores[c].instructions;
        Core &core = cores[c];
        core.entries.resize(program.size());
        Entry *const entries = core.entries.data();
        core.remaining.assign(1, 0);
        // Per flag key: the first set_flag not yet paired (the rest follow it
        // through nextSet, which links each set to the next one on the flag),
        // the first and last wait_flag not yet paired (linked through nextSet
        // until paired), and the last set_flag so far.
        std::array<std::uint32_t, kFlagKeys> setHead, waitHead, waitTail, lastSet;
        setHead.fill(kNone);
        waitHead.fill(kNone);
        waitTail.fill(kNone);
        lastSet.fill(kNone);
        const auto pair = [&](std::uint32_t set, std::uint32_t wait) {
            entries[set].partner = static_cast<std::int32_t>(wait);
            entries[set].partnerPipe = static_cast<std::uint8_t>(pipeIndex(program[wait].pipe));
            entries[wait].partner = static_cast<std::int32_t>(set);
            // The set after its partner, if there is one yet (else the next set sets it).
            entries[wait].nextSet = entries[set].nextSet;
        };
        // Per pipe: where the index of its next instruction goes (its first's, or
        // the last one's next).
        std::array<std::uint32_t *, kPipeCount> link;
        core.first.fill(kNone);
        for (std::size_t p = 0; p < kPipeCount; ++p)
            link[p] = &core.first[p];
        // In locals: the stores to the entries would make the compiler reload
        // the vectors' sizes and the segment's count.
        const Instruction *const code = program.data();
        const std::uint32_t count = static_cast<std::uint32_t>(program.size());
        std::uint32_t segment = 0, inSegment = 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            const Instruction &in = code[i];
            if (in.kind == Kind::Barrier) {
                core.barriers.push_back(i);
                core.remaining.back() = inSegment;
                core.remaining.push_back(0);
                inSegment = 0;
                ++segment;
                continue;
            }
            ++inSegment;
            Entry &e = entries[i];
            e.segment = segment;
            e.kind = in.kind;
            const std::size_t p = pipeIndex(in.pipe);
            *link[p] = i;
            link[p] = &e.next;
            if (in.kind == Kind::SetFlag) {
                const std::size_t key = flagKey(in);
                e.key = static_cast<std::uint16_t>(key);
                ++core.setCount[key];
                if (lastSet[key] != kNone) {
                    entries[lastSet[key]].nextSet = i;
                    const std::int32_t wait = entries[lastSet[key]].partner;
                    if (wait >= 0)
                        entries[wait].nextSet = i; // the set after the wait's partner
                }
                lastSet[key] = i;
                if (waitHead[key] != kNone) {
                    const std::uint32_t wait = waitHead[key];
                    waitHead[key] = entries[wait].nextSet;
                    pair(i, wait);
                } else if (setHead[key] == kNone) {
                    setHead[key] = i; // (later ones follow it through nextSet)
                }
            } else if (in.kind == Kind::WaitFlag) {
                const std::size_t key = flagKey(in);
                e.key = static_cast<std::uint16_t>(key);
                ++core.waitCount[key];
                ++waitFlags;
                if (setHead[key] != kNone) {
                    const std::uint32_t set = setHead[key];
                    setHead[key] = entries[set].nextSet;
                    pair(set, i);
                } else {
                    (waitHead[key] == kNone ? waitHead[key] : entries[waitTail[key]].nextSet) = i;
                    waitTail[key] = i;
                }
            } else {
                negativeSizes = negativeSizes || !(in.size >= 0);
                busTransfers += usesBus(in.pipe) ? 1 : 0;
            }
        }
        core.remaining.back() = inSegment;
        for (std::size_t key = 0; key < kFlagKeys; ++key) {
            // Waits never paired: no set after their partner.
            for (std::uint32_t wait = waitHead[key]; wait != kNone;) {
                const std::uint32_t next = entries[wait].nextSet;
                entries[wait].nextSet = kNone;
                wait = next;
            }
            const std::uint32_t sets = core.setCount[key], waits = core.waitCount[key];
            if (sets > waits + 1) {
                // Two set_flags after the last wait_flag of this flag: the second sets
                // a flag no wait can have cleared (models.md §3.2: an error, not a warning).
                const std::uint32_t firstSet = setHead[key], second = entries[firstSet].nextSet;
                if (!error)
                    error = SimulationError{SimulationError::Kind::FlagAlreadySet, static_cast<std::int32_t>(c),
                        static_cast<std::int32_t>(second),
                        describeAt(trace, c, second) + ": sets a flag that is already set (by "
                            + describeAt(trace, c, firstSet) + "; no wait_flag clears it in between)"};
            } else if (sets > waits) {
                warnings.push_back(describeAt(trace, c, setHead[key]) + ": never waited for ("
                                   + std::to_string(sets) + " set_flag, "
                                   + std::to_string(waits) + " wait_flag on this flag)");
            }
        }
    }
}

SimulationPlan::SimulationPlan(const Trace &trace)
    : m_data(std::make_unique<const Data>(trace))
{
}

SimulationPlan::~SimulationPlan() = default;

bool SimulationPlan::fits(const Trace &trace) const
{
    if (m_data->cores.size() != trace.cores.size())
        return false;
    for (std::size_t c = 0; c < trace.cores.size(); ++c) {
        if (m_data->cores[c].entries.size() != trace.cores[c].instructions.size())
            return false;
    }
    return true;
}

Result simulate(const Trace &trace, const Machine &machine)
{
    return simulate(trace, machine, {});
}

Result simulate(const Trace &trace, const Machine &machine, const std::function<bool()> &cancelled)
{
    return Simulator(trace, nullptr, machine, cancelled).run();
}

Result simulate(const Trace &trace, const SimulationPlan &plan, const Machine &machine,
    const std::function<bool()> &cancelled)
{
    return Simulator(trace, plan.fits(trace) ? &plan.data() : nullptr, machine, cancelled).run();
}

Result simulate(const Trace &trace, const SimulationPlan &plan, const Machine &machine,
    const std::function<bool()> &cancelled, Result &&recycled)
{
    return Simulator(trace, plan.fits(trace) ? &plan.data() : nullptr, machine, cancelled, std::move(recycled)).run();
}

} // namespace roofline::verrocchio
