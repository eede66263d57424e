#include "simulation.h"

#include "../common/diagnostics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

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

struct Event
{
    enum class Type : std::uint8_t { CoreStart, WorkEnd, DataStart, TransferEnd };
    double time = 0;
    std::uint64_t seq = 0; // FIFO among simultaneous events: deterministic results
    Type type = Type::CoreStart;
    std::uint32_t a = 0; // core, or transfer slot
    std::uint32_t b = 0; // instruction, or transfer version

    bool operator>(const Event &o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

struct PipeState
{
    std::vector<std::uint32_t> queue; // instructions of this pipe in program order
    std::size_t head = 0;             // the running or next instruction
    bool busy = false;                // a work instruction is running
    double freeAt = 0;
    std::int32_t last = -1;           // the previous instruction on the pipe
};

struct FlagQueue
{
    std::vector<std::uint32_t> sets;  // set_flag instructions on this key, program order
    std::vector<std::uint32_t> waits; // wait_flag instructions on this key
};

struct CoreState
{
    std::array<PipeState, kPipeCount> pipes;
    std::vector<std::uint32_t> segment;    // per instruction: how many barriers precede it
    std::vector<std::uint32_t> occurrence; // per flag instruction: its position in its FlagQueue
    std::vector<std::uint32_t> barriers;   // barrier k closes segment k
    std::vector<std::uint32_t> remaining;  // per segment: instructions not yet ended
    std::vector<double> lastEnd;           // per segment: latest end so far
    std::vector<std::int32_t> lastIndex;   // per segment: the instruction that ended last
    std::uint32_t firstOpen = 0;           // segments before it have all ended
    std::vector<double> openTime;          // per segment: when it opened
    std::vector<FlagQueue> flags = std::vector<FlagQueue>(kFlagKeys);
    bool started = false;
};

struct Transfer
{
    std::uint32_t core = 0;
    std::uint32_t instruction = 0;
    std::size_t group = 0; // 0: the whole bus (half duplex) or reads; 1: writes
    double remaining = 0;  // bytes
    double size = 0;
    double rate = 0;       // bytes/ns
    double cap = 0;        // Th_u
    double lastUpdate = 0;
    std::uint32_t version = 0;
};

class Simulator
{
public:
    Simulator(const Trace &trace, const Machine &machine, const std::function<bool()> &cancelled)
        : m_trace(trace)
        , m_machine(machine)
        , m_cancelled(cancelled)
    {
    }

    Result run();

private:
    void prepare();
    void advance(std::uint32_t core, double now);
    void startWork(std::uint32_t core, std::uint32_t index, double now);
    void beginTransfer(std::uint32_t core, std::uint32_t index, double now);
    void finishTransfer(std::uint32_t slot, double now);
    void complete(std::uint32_t core, std::uint32_t index, double now);
    void progressGroup(std::size_t group, double now);
    void assignRates(std::size_t group, double now);
    void recordContention(double now);
    void push(double time, Event::Type type, std::uint32_t a, std::uint32_t b);
    void fail(SimulationError::Kind kind, std::uint32_t core, std::uint32_t index, std::string message);
    void reportDeadlock();
    void finishResult();

    const Trace &m_trace;
    const Machine &m_machine;
    const std::function<bool()> &m_cancelled;
    Result m_result;
    std::vector<CoreState> m_cores;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    std::uint64_t m_seq = 0;

    std::vector<Transfer> m_transfers;      // slots
    std::vector<std::uint32_t> m_freeSlots;
    std::array<std::vector<std::uint32_t>, 2> m_active; // slots in their data phase, per bus group
    std::array<double, 2> m_groupCapacity{};
    // The contention interval under way, if any.
    bool m_contended = false;
    double m_contentionStart = 0;
    std::vector<Share> m_contentionShares;
};

void Simulator::push(double time, Event::Type type, std::uint32_t a, std::uint32_t b)
{
    m_events.push(Event{time, m_seq++, type, a, b});
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
    m_cores.resize(m_trace.cores.size());
    m_result.cores.resize(m_trace.cores.size());
    for (std::size_t c = 0; c < m_trace.cores.size(); ++c) {
        const auto &program = m_trace.cores[c].instructions;
        CoreState &state = m_cores[c];
        state.segment.resize(program.size());
        state.occurrence.assign(program.size(), 0);
        std::array<std::size_t, kPipeCount> perPipe{};
        for (const Instruction &in : program)
            ++perPipe[pipeIndex(in.pipe)];
        for (std::size_t p = 0; p < kPipeCount; ++p)
            state.pipes[p].queue.reserve(perPipe[p]);
        std::uint32_t segment = 0;
        state.remaining.push_back(0);
        for (std::uint32_t i = 0; i < program.size(); ++i) {
            const Instruction &in = program[i];
            state.segment[i] = segment;
            if (in.kind == Kind::Barrier) {
                state.barriers.push_back(i);
                ++segment;
                state.remaining.push_back(0);
                continue;
            }
            ++state.remaining[segment];
            state.pipes[pipeIndex(in.pipe)].queue.push_back(i);
            if (in.kind == Kind::SetFlag || in.kind == Kind::WaitFlag) {
                FlagQueue &q = state.flags[flagKey(in)];
                auto &list = in.kind == Kind::SetFlag ? q.sets : q.waits;
                state.occurrence[i] = static_cast<std::uint32_t>(list.size());
                list.push_back(i);
            }
        }
        state.lastEnd.assign(state.remaining.size(), 0);
        state.lastIndex.assign(state.remaining.size(), -1);
        state.openTime.assign(state.remaining.size(), 0);
        m_result.cores[c].instructions.resize(program.size());
        m_result.cores[c].startNs = static_cast<double>(c) * m_machine.skewNs;
        // Pair every flag with its partner now: the k-th set with the k-th wait.
        for (std::size_t key = 0; key < kFlagKeys; ++key) {
            const FlagQueue &q = state.flags[key];
            const std::size_t pairs = std::min(q.sets.size(), q.waits.size());
            for (std::size_t k = 0; k < pairs; ++k) {
                m_result.cores[c].instructions[q.sets[k]].flag = static_cast<std::int32_t>(q.waits[k]);
                m_result.cores[c].instructions[q.waits[k]].flag = static_cast<std::int32_t>(q.sets[k]);
            }
            if (q.sets.size() > q.waits.size()) {
                m_result.warnings.push_back(describeAt(m_trace, c, q.sets[q.waits.size()])
                                            + ": never waited for (" + std::to_string(q.sets.size())
                                            + " set_flag, " + std::to_string(q.waits.size())
                                            + " wait_flag on this flag)");
            }
        }
    }
    if (m_machine.busMode == BusMode::HalfDuplex)
        m_groupCapacity = {m_machine.busGBps, m_machine.busGBps};
    else
        m_groupCapacity = {m_machine.readGBps, m_machine.writeGBps};
}

// Starts whatever can start on the core at `now`, repeatedly, since an
// instruction that ends at once (a flag, a satisfied wait) may release others.
void Simulator::advance(std::uint32_t core, double now)
{
    CoreState &state = m_cores[core];
    if (!state.started)
        return;
    const auto &program = m_trace.cores[core].instructions;
    auto &timings = m_result.cores[core].instructions;
    bool progress = true;
    while (progress && !m_result.error) {
        progress = false;
        for (PipeState &pipe : state.pipes) {
            if (pipe.busy || pipe.head >= pipe.queue.size())
                continue;
            const std::uint32_t i = pipe.queue[pipe.head];
            const std::uint32_t segment = state.segment[i];
            if (segment > state.firstOpen)
                continue; // behind a barrier whose predecessors have not all ended
            Timing &t = timings[i];
            const Instruction &in = program[i];
            // Record the start once; waits keep it while they stall.
            const bool waitingAlready = in.kind == Kind::WaitFlag && t.end < 0;
            if (!waitingAlready) {
                t.start = now;
                // The latest of: previous on the pipe, the barrier opening the segment, the core's start.
                const double barrierTime = segment > 0 ? state.openTime[segment] : -1;
                if (pipe.last >= 0 && !(barrierTime > pipe.freeAt)) {
                    t.cause = pipe.last;
                    t.causeKind = Dependency::PipeOrder;
                } else if (segment > 0) {
                    t.cause = static_cast<std::int32_t>(state.barriers[segment - 1]);
                    t.causeKind = Dependency::Barrier;
                } else {
                    t.cause = -1;
                    t.causeKind = Dependency::CoreStart;
                }
            }
            // Only an instruction that ends at once (a flag, a satisfied wait)
            // can release another pipe: then look at every pipe again.
            switch (in.kind) {
            case Kind::Work:
                pipe.busy = true;
                startWork(core, i, now);
                break;
            case Kind::SetFlag:
                complete(core, i, now);
                progress = true;
                break;
            case Kind::WaitFlag:
                if (t.flag >= 0 && timings[t.flag].executed) {
                    complete(core, i, now);
                    progress = true;
                } else {
                    t.end = -1; // marks "stalled at the head of its pipe"
                }
                break;
            case Kind::Barrier: break; // never queued on a pipe
            }
        }
    }
}

void Simulator::startWork(std::uint32_t core, std::uint32_t index, double now)
{
    const Instruction &in = m_trace.cores[core].instructions[index];
    const PipeParams &p = m_machine.pipe(in.pipe);
    if (!usesBus(in.pipe)) {
        push(now + p.initNs + in.size / p.throughput, Event::Type::WorkEnd, core, index);
        return;
    }
    if (p.initNs > 0)
        push(now + p.initNs, Event::Type::DataStart, core, index);
    else
        beginTransfer(core, index, now);
}

void Simulator::beginTransfer(std::uint32_t core, std::uint32_t index, double now)
{
    const Instruction &in = m_trace.cores[core].instructions[index];
    if (in.size <= 0) {
        push(now, Event::Type::WorkEnd, core, index);
        return;
    }
    std::uint32_t slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = static_cast<std::uint32_t>(m_transfers.size());
        m_transfers.emplace_back();
    }
    Transfer &t = m_transfers[slot];
    const std::size_t group = m_machine.busMode == BusMode::Separate && in.pipe == Pipe::MTE3 ? 1 : 0;
    const std::uint32_t version = t.version + 1;
    t = Transfer{core, index, group, in.size, in.size, 0, m_machine.pipe(in.pipe).throughput, now, version};
    progressGroup(group, now);
    m_active[group].push_back(slot);
    assignRates(group, now);
    recordContention(now);
}

void Simulator::finishTransfer(std::uint32_t slot, double now)
{
    Transfer &t = m_transfers[slot];
    const std::size_t group = t.group;
    progressGroup(group, now);
    auto &active = m_active[group];
    active.erase(std::find(active.begin(), active.end(), slot));
    ++t.version; // invalidates any event still queued for this slot
    m_freeSlots.push_back(slot);
    assignRates(group, now);
    recordContention(now);
    complete(t.core, t.instruction, now);
}

// Bytes moved since the last change, at the rates of that period.
void Simulator::progressGroup(std::size_t group, double now)
{
    for (std::uint32_t slot : m_active[group]) {
        Transfer &t = m_transfers[slot];
        t.remaining -= t.rate * (now - t.lastUpdate);
        if (t.remaining <= t.size * 1e-12)
            t.remaining = 0; // rounding: it ends now
        t.lastUpdate = now;
    }
}

// Equal shares of the group's capacity, each capped by its pipe's Th_u
// (models.md 3.3); every active transfer gets a new end time.
void Simulator::assignRates(std::size_t group, double now)
{
    const auto &active = m_active[group];
    if (active.empty())
        return;
    const double share = m_groupCapacity[group] / static_cast<double>(active.size());
    for (std::uint32_t slot : active) {
        Transfer &t = m_transfers[slot];
        t.rate = std::min(t.cap, share);
        ++t.version;
        push(now + t.remaining / t.rate, Event::Type::TransferEnd, slot, t.version);
    }
}

void Simulator::recordContention(double now)
{
    if (m_contended && now > m_contentionStart) {
        m_result.contention.push_back({m_contentionStart, now, static_cast<std::uint32_t>(m_result.shares.size()),
                                       static_cast<std::uint32_t>(m_contentionShares.size())});
        m_result.shares.insert(m_result.shares.end(), m_contentionShares.begin(), m_contentionShares.end());
        m_result.contentionNs += now - m_contentionStart;
    }
    m_contended = false;
    for (const auto &group : m_active) {
        if (group.size() < 2 || m_contended)
            continue;
        for (std::uint32_t slot : group) {
            const Transfer &t = m_transfers[slot];
            m_contended = m_contended || earlier(t.rate, t.cap);
        }
    }
    m_contentionShares.clear();
    if (!m_contended)
        return;
    m_contentionStart = now;
    for (const auto &group : m_active) {
        for (std::uint32_t slot : group) {
            const Transfer &t = m_transfers[slot];
            m_contentionShares.push_back({t.core, t.instruction, t.rate});
        }
    }
}

void Simulator::complete(std::uint32_t core, std::uint32_t index, double now)
{
    CoreState &state = m_cores[core];
    const Instruction &in = m_trace.cores[core].instructions[index];
    auto &timings = m_result.cores[core].instructions;
    Timing &t = timings[index];
    t.executed = true;
    t.end = now;

    PipeState &pipe = state.pipes[pipeIndex(in.pipe)];
    pipe.busy = false;
    pipe.freeAt = now;
    pipe.last = static_cast<std::int32_t>(index);
    ++pipe.head;
    if (in.kind == Kind::Work)
        m_result.cores[core].busyNs[pipeIndex(in.pipe)] += now - t.start;

    if (in.kind == Kind::WaitFlag) {
        if (earlier(t.start, now))
            m_result.stalls.push_back({core, index, t.start, now});
        // The flag is binary: the next set on this key must not come before this
        // wait clears it. Checked here rather than at the set, because the wait
        // may still end at the very time of that set.
        const FlagQueue &q = state.flags[flagKey(in)];
        const std::uint32_t next = state.occurrence[index] + 1;
        if (next < q.sets.size() && timings[q.sets[next]].executed && earlier(timings[q.sets[next]].end, now)) {
            fail(SimulationError::Kind::FlagAlreadySet, core, q.sets[next],
                 describeAt(m_trace, core, q.sets[next]) + ": sets a flag that is already set (at t = "
                     + formatNumber(timings[q.sets[next]].end, 9) + " ns; the wait_flag that clears it, "
                     + describeAt(m_trace, core, index) + ", ends at t = " + formatNumber(now, 9) + " ns)");
        }
    }
    // Barrier bookkeeping: segments end in order, since nothing of a later
    // segment can start before an earlier one has ended.
    const std::uint32_t segment = state.segment[index];
    if (now >= state.lastEnd[segment]) {
        state.lastEnd[segment] = now;
        state.lastIndex[segment] = static_cast<std::int32_t>(index);
    }
    --state.remaining[segment];
    while (state.firstOpen < state.barriers.size() && state.remaining[state.firstOpen] == 0) {
        const std::uint32_t s = state.firstOpen;
        const std::uint32_t barrier = state.barriers[s];
        Timing &b = timings[barrier];
        b.executed = true;
        b.start = b.end = now;
        if (state.lastIndex[s] >= 0) {
            b.cause = state.lastIndex[s];
            b.causeKind = Dependency::Barrier;
        } else if (s > 0) {
            b.cause = static_cast<std::int32_t>(state.barriers[s - 1]);
            b.causeKind = Dependency::Barrier;
        }
        state.openTime[s + 1] = now;
        ++state.firstOpen;
    }
}

void Simulator::reportDeadlock()
{
    const auto waitMessage = [&](std::size_t c, std::uint32_t i) {
        const auto &timings = m_result.cores[c].instructions;
        const Instruction &in = m_trace.cores[c].instructions[i];
        std::string why;
        if (timings[i].flag < 0) {
            const FlagQueue &q = m_cores[c].flags[flagKey(in)];
            why = "no matching set_flag: core " + std::to_string(c) + " sets this flag "
                + std::to_string(q.sets.size()) + " time(s) and waits for it " + std::to_string(q.waits.size())
                + " time(s)";
        } else {
            why = "its matching set_flag never runs: " + describeAt(m_trace, c, timings[i].flag);
        }
        return "deadlock: " + describeAt(m_trace, c, i) + " waits forever since t = "
            + formatNumber(timings[i].start, 9) + " ns; " + why;
    };
    for (std::size_t c = 0; c < m_cores.size(); ++c) {
        const auto &timings = m_result.cores[c].instructions;
        // The first stalled wait in program order explains the rest of the core.
        std::uint32_t first = std::numeric_limits<std::uint32_t>::max();
        for (const PipeState &pipe : m_cores[c].pipes) {
            if (pipe.head < pipe.queue.size()) {
                const std::uint32_t i = pipe.queue[pipe.head];
                if (m_trace.cores[c].instructions[i].kind == Kind::WaitFlag && timings[i].end < 0)
                    first = std::min(first, i);
            }
        }
        if (first != std::numeric_limits<std::uint32_t>::max()) {
            fail(SimulationError::Kind::Deadlock, static_cast<std::uint32_t>(c), first, waitMessage(c, first));
            return;
        }
    }
    for (std::size_t c = 0; c < m_cores.size(); ++c) {
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
    std::int32_t lastCore = -1, lastIndex = -1;
    for (std::size_t c = 0; c < m_result.cores.size(); ++c) {
        CoreResult &core = m_result.cores[c];
        core.endNs = core.startNs;
        for (std::size_t i = 0; i < core.instructions.size(); ++i) {
            const Timing &t = core.instructions[i];
            if (!t.executed)
                continue;
            core.endNs = std::max(core.endNs, t.end);
            if (lastCore < 0 || t.end > m_result.totalNs) {
                m_result.totalNs = t.end;
                lastCore = static_cast<std::int32_t>(c);
                lastIndex = static_cast<std::int32_t>(i);
            }
        }
        m_result.totalNs = std::max(m_result.totalNs, core.endNs);
    }
    if (lastCore < 0)
        return;
    // Walk back along the edge that set each step's time.
    const auto &timings = m_result.cores[lastCore].instructions;
    std::vector<PathStep> path;
    std::int32_t i = lastIndex;
    while (i >= 0) {
        const Timing &t = timings[i];
        const Instruction &in = m_trace.cores[lastCore].instructions[i];
        PathStep step{static_cast<std::uint32_t>(lastCore), static_cast<std::uint32_t>(i), t.causeKind};
        std::int32_t next = t.cause;
        if (in.kind == Kind::WaitFlag && t.flag >= 0 && (earlier(t.start, t.end) || t.cause < 0)
            && timings[t.flag].executed) {
            step.via = Dependency::Flag;
            next = t.flag;
        }
        path.push_back(step);
        i = next;
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
    prepare();
    for (std::uint32_t c = 0; c < m_cores.size(); ++c)
        push(m_result.cores[c].startNs, Event::Type::CoreStart, c, 0);
    std::uint32_t sinceCheck = 0;
    while (!m_events.empty() && !m_result.error) {
        if (++sinceCheck == 1024) {
            sinceCheck = 0;
            if (m_cancelled && m_cancelled()) {
                fail(SimulationError::Kind::Cancelled, 0, 0, "cancelled: a newer request superseded this simulation");
                return std::move(m_result);
            }
        }
        const Event e = m_events.top();
        m_events.pop();
        switch (e.type) {
        case Event::Type::CoreStart:
            m_cores[e.a].started = true;
            advance(e.a, e.time);
            break;
        case Event::Type::WorkEnd:
            complete(e.a, e.b, e.time);
            advance(e.a, e.time);
            break;
        case Event::Type::DataStart:
            beginTransfer(e.a, e.b, e.time);
            break;
        case Event::Type::TransferEnd: {
            const Transfer &t = m_transfers[e.a];
            if (t.version != e.b)
                break; // re-timed since
            const std::uint32_t core = t.core;
            finishTransfer(e.a, e.time);
            advance(core, e.time);
            break;
        }
        }
    }
    if (!m_result.error)
        reportDeadlock();
    finishResult();
    return std::move(m_result);
}

} // namespace

Result simulate(const Trace &trace, const Machine &machine)
{
    return simulate(trace, machine, {});
}

Result simulate(const Trace &trace, const Machine &machine, const std::function<bool()> &cancelled)
{
    return Simulator(trace, machine, cancelled).run();
}

} // namespace roofline::verrocchio
