// Verrocchio results as JSON summary, event list (JSON and CSV) and Chrome Trace.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace roofline::verrocchio {

using nlohmann::json;

// --- Results ----------------------------------------------------------------

namespace {

const char *kindName(Instruction::Kind kind)
{
    switch (kind) {
    case Instruction::Kind::Work: return "work";
    case Instruction::Kind::SetFlag: return "set_flag";
    case Instruction::Kind::WaitFlag: return "wait_flag";
    case Instruction::Kind::Barrier: return "pipe_barrier";
    }
    return "?";
}

const char *errorKindName(SimulationError::Kind kind)
{
    switch (kind) {
    case SimulationError::Kind::InvalidInput: return "invalid_input";
    case SimulationError::Kind::Deadlock: return "deadlock";
    case SimulationError::Kind::FlagAlreadySet: return "flag_already_set";
    case SimulationError::Kind::Cancelled: return "cancelled";
    }
    return "?";
}

const std::string &instructionName(const Trace &trace, const Instruction &in)
{
    return trace.names[in.name < trace.names.size() ? in.name : 0];
}

// Average rate of the data phase (after Init): GB/s or Gops/s; 0 when it took no time.
double achievedRate(const Machine &machine, const Instruction &in, const Timing &t)
{
    const double data = t.end - t.start - machine.pipe(in.pipe).initNs;
    return data > 0 ? in.size / data : 0;
}

std::string laneName(const Instruction &in)
{
    return in.kind == Instruction::Kind::Barrier ? "ALL" : pipeName(in.pipe);
}

constexpr std::size_t kMaxPathSteps = 1000;

} // namespace

json summaryToJson(const Trace &trace, const Machine &machine, const Result &result)
{
    json out = json::object();
    out["trace"] = trace.name;
    out["machine"] = machine.name;
    out["ok"] = result.ok();
    if (result.error) {
        out["error"] = {{"kind", errorKindName(result.error->kind)},
                        {"core", result.error->core},
                        {"instruction", result.error->instruction},
                        {"message", result.error->message}};
    } else {
        out["error"] = nullptr;
    }
    out["total_ns"] = result.totalNs;
    out["instructions"] = trace.instructionCount();
    json cores = json::array();
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const CoreResult &core = result.cores[c];
        json busy = json::object(), busyNs = json::object();
        for (Pipe p : kAllPipes) {
            busy[pipeName(p)] = result.busyFraction(c, p);
            busyNs[pipeName(p)] = core.busyNs[pipeIndex(p)];
        }
        cores.push_back({{"index", c},
                         {"name", trace.cores[c].name},
                         {"instructions", trace.cores[c].instructions.size()},
                         {"start_ns", core.startNs},
                         {"end_ns", core.endNs},
                         {"busy_fraction", std::move(busy)},
                         {"busy_ns", std::move(busyNs)}});
    }
    out["cores"] = std::move(cores);
    double stallNs = 0;
    for (const Stall &s : result.stalls)
        stallNs += s.end - s.start;
    out["stalls"] = {{"count", result.stalls.size()}, {"time_ns", stallNs}};
    out["contention"] = {{"intervals", result.contention.size()},
                         {"time_ns", result.contentionNs},
                         {"fraction", result.totalNs > 0 ? result.contentionNs / result.totalNs : 0}};
    json path = json::object();
    json steps = json::array();
    json pathNs = json::object();
    for (Pipe p : kAllPipes)
        pathNs[pipeName(p)] = 0.0;
    const auto &cp = result.criticalPath;
    for (std::size_t k = 0; k < cp.size(); ++k) {
        const PathStep &s = cp[k];
        const Instruction &in = trace.cores[s.core].instructions[s.instruction];
        const Timing &t = result.cores[s.core].instructions[s.instruction];
        if (in.kind == Instruction::Kind::Work)
            pathNs[pipeName(in.pipe)] = pathNs[pipeName(in.pipe)].get<double>() + (t.end - t.start);
        if (cp.size() > kMaxPathSteps && k >= kMaxPathSteps / 2 && k < cp.size() - kMaxPathSteps / 2)
            continue;
        steps.push_back({{"core", s.core},
                         {"instruction", s.instruction},
                         {"pipe", laneName(in)},
                         {"what", describe(trace, in)},
                         {"via", dependencyName(s.via)},
                         {"start_ns", t.start},
                         {"end_ns", t.end}});
    }
    path["length"] = cp.size();
    path["steps_omitted"] = cp.size() > kMaxPathSteps ? cp.size() - kMaxPathSteps : 0;
    path["work_ns_by_pipe"] = std::move(pathNs);
    path["steps"] = std::move(steps);
    out["critical_path"] = std::move(path);
    const TraceBounds bounds = traceBounds(trace, machine);
    out["bounds"] = {{"lower_bound_ns", bounds.lowerBoundNs},
                     {"bus_bytes", bounds.busBytes},
                     {"bus_ns", bounds.busNs}};
    out["warnings"] = result.warnings;
    return out;
}

json eventsToJson(const Trace &trace, const Machine &machine, const Result &result)
{
    json events = json::array();
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const auto &program = trace.cores[c].instructions;
        for (std::size_t i = 0; i < program.size(); ++i) {
            const Instruction &in = program[i];
            const Timing &t = result.cores[c].instructions[i];
            json e = {{"core", c},
                      {"index", i},
                      {"pipe", laneName(in)},
                      {"kind", kindName(in.kind)},
                      {"what", describe(trace, in)},
                      {"executed", bool(t.executed)}};
            if (in.kind == Instruction::Kind::Work) {
                e["name"] = instructionName(trace, in);
                e[movesBytes(in.pipe) ? "bytes" : "ops"] = in.size;
            } else if (in.kind != Instruction::Kind::Barrier) {
                e["event_id"] = in.eventId;
                e["partner"] = t.flag >= 0 ? json(std::int32_t(t.flag)) : json(nullptr);
            }
            if (t.executed) {
                e["start_ns"] = t.start;
                e["end_ns"] = t.end;
                if (in.kind == Instruction::Kind::Work)
                    e[movesBytes(in.pipe) ? "bandwidth_gbps" : "throughput_gops"] = achievedRate(machine, in, t);
                e["cause"] = t.cause >= 0 ? json(std::int32_t(t.cause)) : json(nullptr);
                e["cause_kind"] = dependencyName(t.causeKind);
            }
            events.push_back(std::move(e));
        }
    }
    json contention = json::array();
    for (const ContentionInterval &ci : result.contention) {
        json shares = json::array();
        for (const Share &s : result.sharesOf(ci))
            shares.push_back({{"core", s.core}, {"instruction", s.instruction}, {"rate_gbps", s.rateGBps}});
        contention.push_back({{"start_ns", ci.start}, {"end_ns", ci.end}, {"shares", std::move(shares)}});
    }
    json stalls = json::array();
    for (const Stall &s : result.stalls)
        stalls.push_back({{"core", s.core}, {"instruction", s.instruction}, {"start_ns", s.start}, {"end_ns", s.end}});
    return {{"events", std::move(events)}, {"stalls", std::move(stalls)}, {"contention", std::move(contention)}};
}

// eventsToCsv() is in exportstream.cpp: writeEventsCsv() into a string.

json chromeTrace(const Trace &trace, const Machine &machine, const Result &result)
{
    json events = json::array();
    const int busPid = static_cast<int>(result.cores.size());
    auto meta = [&](const char *what, int pid, int tid, const std::string &name) {
        json e = {{"ph", "M"}, {"name", what}, {"pid", pid}, {"args", {{"name", name}}}};
        if (tid >= 0)
            e["tid"] = tid;
        events.push_back(std::move(e));
    };
    constexpr int kBarrierTid = static_cast<int>(kPipeCount);
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const int pid = static_cast<int>(c);
        meta("process_name", pid, -1, trace.cores[c].name.empty() ? "core " + std::to_string(c) : trace.cores[c].name);
        for (Pipe p : kAllPipes)
            meta("thread_name", pid, static_cast<int>(pipeIndex(p)), pipeName(p));
        meta("thread_name", pid, kBarrierTid, "barriers");
        const auto &program = trace.cores[c].instructions;
        for (std::size_t i = 0; i < program.size(); ++i) {
            const Instruction &in = program[i];
            const Timing &t = result.cores[c].instructions[i];
            if (!t.executed)
                continue;
            const int tid = in.kind == Instruction::Kind::Barrier ? kBarrierTid : static_cast<int>(pipeIndex(in.pipe));
            json e = {{"pid", pid}, {"tid", tid}, {"ts", t.start / 1000}, {"cat", kindName(in.kind)}};
            json args = {{"index", i}};
            if (in.kind == Instruction::Kind::Work) {
                const std::string &name = instructionName(trace, in);
                e["name"] = name.empty() ? std::string(pipeName(in.pipe)) : name;
                e["ph"] = "X";
                e["dur"] = (t.end - t.start) / 1000;
                args["size"] = in.size;
                args["unit"] = movesBytes(in.pipe) ? "B" : "ops";
                args[movesBytes(in.pipe) ? "bandwidth_gbps" : "throughput_gops"] = achievedRate(machine, in, t);
                args["init_ns"] = machine.pipe(in.pipe).initNs;
            } else if (in.kind == Instruction::Kind::WaitFlag && t.end > t.start) {
                e["name"] = describe(trace, in);
                e["ph"] = "X";
                e["dur"] = (t.end - t.start) / 1000;
                args["stall_ns"] = t.end - t.start;
            } else {
                e["name"] = describe(trace, in);
                e["ph"] = "i";
                e["s"] = "t";
            }
            e["args"] = std::move(args);
            events.push_back(std::move(e));
        }
    }
    if (!result.contention.empty()) {
        meta("process_name", busPid, -1, "bus contention");
        for (const ContentionInterval &ci : result.contention) {
            json shares = json::array();
            for (const Share &s : result.sharesOf(ci))
                shares.push_back({{"core", s.core}, {"instruction", s.instruction}, {"rate_gbps", s.rateGBps}});
            events.push_back({{"name", std::to_string(ci.shareCount) + " transfers"},
                              {"cat", "contention"},
                              {"ph", "X"},
                              {"pid", busPid},
                              {"tid", 0},
                              {"ts", ci.start / 1000},
                              {"dur", (ci.end - ci.start) / 1000},
                              {"args", {{"shares", std::move(shares)}}}});
        }
    }
    return {{"traceEvents", std::move(events)},
            {"displayTimeUnit", "ns"},
            {"otherData", {{"trace", trace.name}, {"machine", machine.name}, {"total_ns", result.totalNs}}}};
}

} // namespace roofline::verrocchio
