#include "goalseek.h"

#include "comparison.h"
#include "io.h"

#include <cmath>
#include <limits>

namespace roofline::verrocchio {

namespace {

struct MachineNumber
{
    double Machine::*member = nullptr; // bus or skew
    int pipe = -1;                     // else a pipe's throughput or Init
    bool init = false;
    std::string label;
    std::string unit;
    bool time = false;
    double upper = Limits::maxRate;

    double get(const Machine &m) const
    {
        if (member)
            return m.*member;
        const PipeParams &p = m.pipes[std::size_t(pipe)];
        return init ? p.initNs : p.throughput;
    }
    void set(Machine &m, double v) const
    {
        if (member)
            m.*member = v;
        else if (init)
            m.pipes[std::size_t(pipe)].initNs = v;
        else
            m.pipes[std::size_t(pipe)].throughput = v;
    }
};

std::optional<MachineNumber> resolve(std::string path, std::string &error)
{
    if (!path.empty() && path.front() != '/')
        path.insert(path.begin(), '/');
    MachineNumber n;
    if (path == "/bus/bandwidth_gbps")
        n = {&Machine::busGBps, -1, false, "B_bus", "GB/s", false, Limits::maxRate};
    else if (path == "/bus/read_gbps")
        n = {&Machine::readGBps, -1, false, "Read BW", "GB/s", false, Limits::maxRate};
    else if (path == "/bus/write_gbps")
        n = {&Machine::writeGBps, -1, false, "Write BW", "GB/s", false, Limits::maxRate};
    else if (path == "/cores/skew_ns")
        n = {&Machine::skewNs, -1, false, "Skew δt", "ns", true, Limits::maxSkewNs};
    else if (path.rfind("/pipes/", 0) == 0) {
        const auto slash = path.find('/', 7);
        const std::string name = path.substr(7, slash == std::string::npos ? std::string::npos : slash - 7);
        const std::string field = slash == std::string::npos ? "" : path.substr(slash + 1);
        const std::optional<Pipe> pipe = pipeFromName(name);
        if (!pipe) {
            error = "no pipe named \"" + name + "\"";
            return std::nullopt;
        }
        const bool mte = *pipe == Pipe::MTE1 || *pipe == Pipe::MTE2 || *pipe == Pipe::MTE3;
        if (field == "init_ns")
            n = {nullptr, int(pipeIndex(*pipe)), true, std::string(pipeName(*pipe)) + " Init", "ns", true,
                 Limits::maxInitNs};
        else if (field == (mte ? "bandwidth_gbps" : "throughput_gops"))
            n = {nullptr, int(pipeIndex(*pipe)), false, std::string(pipeName(*pipe)) + " Th", mte ? "GB/s" : "Gops/s",
                 false, Limits::maxRate};
        else {
            error = "unknown field \"" + field + "\"; use " + (mte ? "bandwidth_gbps" : "throughput_gops")
                    + " or init_ns";
            return std::nullopt;
        }
    } else if (path == "/cores/count" || path == "/bus/mode") {
        error = "not a continuous number; goal seek varies rates and times";
        return std::nullopt;
    } else {
        error = "unknown parameter; use /pipes/<PIPE>/bandwidth_gbps, /pipes/<PIPE>/throughput_gops, "
                "/pipes/<PIPE>/init_ns, /bus/bandwidth_gbps, /bus/read_gbps, /bus/write_gbps or /cores/skew_ns";
        return std::nullopt;
    }
    return n;
}

std::string critical(const Result &r)
{
    const Headline h = headline(r);
    if (!h.critical)
        return "nothing busy";
    return std::string("the ") + pipeName(*h.critical) + " pipe (busy " + seekNumber(100 * h.criticalBusy) + "%)";
}

} // namespace

GoalSeek seekTotalTime(const Trace &trace, const Machine &machine, const std::string &pointer, double targetNs)
{
    GoalSeek g;
    g.pointer = pointer;
    g.targetValue = targetNs;
    g.target = "total " + formatDuration(targetNs);
    std::string error;
    const std::optional<MachineNumber> number = resolve(pointer, error);
    if (!number) {
        g.message = pointer + ": " + error;
        return g;
    }
    g.pointer = pointer.front() == '/' ? pointer : "/" + pointer;
    g.label = number->label;
    g.unit = number->unit;
    if (!(std::isfinite(targetNs) && targetNs > 0)) {
        g.message = "the target total time must be a positive number of ns, got " + seekNumber(targetNs);
        return g;
    }
    const SimulationPlan plan(trace); // one pass over the trace for the fifty-odd simulations below
    const Result now = simulate(trace, plan, machine);
    if (!now.ok()) {
        g.message = "the trace does not run on this machine: " + now.error->message;
        return g;
    }
    g.from = number->get(machine);
    Machine moved = machine;
    Result r; // each evaluation refills the one before's arrays
    auto goodness = [&](double x) {
        number->set(moved, x);
        r = simulate(trace, plan, moved, {}, std::move(r));
        return r.ok() ? -r.totalNs : std::numeric_limits<double>::quiet_NaN();
    };
    const SeekRange range = number->time ? SeekRange{0, number->upper, false, -1}
                                         : SeekRange{std::max(1e-9, g.from / 1e6), number->upper, true, +1};
    const MonotoneSeek s = seekMonotone(goodness, -targetNs, range);
    g.evaluations = s.evaluations;
    g.value = s.x;
    auto valueText = [&](double v) { return seekNumber(v) + " " + g.unit; };
    auto resultAt = [&](double x) {
        Machine m = machine;
        number->set(m, x);
        return simulate(trace, plan, m);
    };
    switch (s.status) {
    case MonotoneSeek::Status::Found: {
        g.status = GoalSeek::Status::Found;
        g.achieved = resultAt(s.x).totalNs;
        // Rates: more is faster; times: less is faster.
        g.relation = range.direction > 0 ? "≥" : "≤";
        if (targetNs < now.totalNs * (1 - kSeekResultTolerance))
            g.message = g.target + " needs " + g.label + " " + g.relation + " " + valueText(s.x) + " (now "
                        + valueText(g.from) + ")";
        else
            g.message = g.target + " at " + g.label + " = " + valueText(s.x) + " (now " + valueText(g.from) + ", total "
                        + formatDuration(now.totalNs) + ")";
        break;
    }
    case MonotoneSeek::Status::AboveRange:
    case MonotoneSeek::Status::BelowRange: {
        g.status = GoalSeek::Status::Unreachable;
        const Result at = resultAt(s.x);
        g.cap = at.totalNs;
        g.achieved = g.cap;
        g.limitedBy = critical(at);
        if (s.status == MonotoneSeek::Status::AboveRange)
            g.message = "no " + g.label + " reaches " + g.target + ": " + g.limitedBy + " keeps it at "
                        + formatDuration(g.cap) + " (at " + valueText(s.x) + ")";
        else
            g.message = "no " + g.label + " in [" + seekNumber(range.lower) + ", " + seekNumber(range.upper)
                        + "] makes it as slow as " + g.target + ": at most " + formatDuration(g.cap);
        break;
    }
    case MonotoneSeek::Status::NotMonotone:
        g.message = "the total time does not move one way only in " + g.label + " (bus sharing re-times "
                    "transfers); goal seek gave up near " + valueText(s.x);
        break;
    case MonotoneSeek::Status::Failed:
        g.message = "the trace does not run with " + g.label + " = " + valueText(s.x) + "; goal seek gave up";
        break;
    }
    return g;
}

} // namespace roofline::verrocchio
