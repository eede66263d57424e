#include "sensitivity.h"

#include "io.h"

#include <algorithm>
#include <cmath>

namespace roofline::verrocchio {

namespace {

struct Parameter
{
    std::string pointer;
    std::string label;
    std::string unit;
    double Machine::*field = nullptr; // bus and skew
    Pipe pipe = Pipe::S;               // pipes: which one
    bool throughput = false;           // pipes: Th (true) or Init (false)
    bool isRate = false;
    double limit = 0;

    double &of(Machine &m) const
    {
        if (field)
            return m.*field;
        return throughput ? m.pipe(pipe).throughput : m.pipe(pipe).initNs;
    }
};

} // namespace

std::vector<Sensitivity> sensitivity(const Trace &trace, const Machine &machine, double relativeStep,
                                     const std::function<bool()> &cancelled)
{
    if (!std::isfinite(relativeStep) || relativeStep <= 0 || relativeStep > 1)
        return {};

    // Which pipes do work (and move a non-zero amount of it).
    std::array<bool, kPipeCount> works{}, sized{};
    for (const CoreProgram &core : trace.cores) {
        for (const Instruction &in : core.instructions) {
            if (in.kind != Instruction::Kind::Work)
                continue;
            works[pipeIndex(in.pipe)] = true;
            sized[pipeIndex(in.pipe)] = sized[pipeIndex(in.pipe)] || in.size > 0;
        }
    }

    std::vector<Parameter> parameters;
    for (Pipe pipe : kAllPipes) {
        const std::string name = pipeName(pipe);
        const std::string base = "/pipes/" + name + "/";
        if (sized[pipeIndex(pipe)]) {
            Parameter p;
            p.pointer = base + (movesBytes(pipe) ? "bandwidth_gbps" : "throughput_gops");
            p.label = name + " Th";
            p.unit = movesBytes(pipe) ? "GB/s" : "Gops/s";
            p.pipe = pipe;
            p.throughput = true;
            p.isRate = true;
            p.limit = Limits::maxRate;
            parameters.push_back(p);
        }
        if (works[pipeIndex(pipe)]) {
            Parameter p;
            p.pointer = base + "init_ns";
            p.label = name + " Init";
            p.unit = "ns";
            p.pipe = pipe;
            p.limit = Limits::maxInitNs;
            parameters.push_back(p);
        }
    }
    const bool reads = sized[pipeIndex(Pipe::MTE2)];
    const bool writes = sized[pipeIndex(Pipe::MTE3)];
    auto bus = [&](const char *pointer, const char *label, double Machine::*field) {
        Parameter p;
        p.pointer = pointer;
        p.label = label;
        p.unit = "GB/s";
        p.field = field;
        p.isRate = true;
        p.limit = Limits::maxRate;
        parameters.push_back(p);
    };
    if (machine.busMode == BusMode::HalfDuplex && (reads || writes))
        bus("/bus/bandwidth_gbps", "B_bus", &Machine::busGBps);
    if (machine.busMode == BusMode::Separate && reads)
        bus("/bus/read_gbps", "Read BW", &Machine::readGBps);
    if (machine.busMode == BusMode::Separate && writes)
        bus("/bus/write_gbps", "Write BW", &Machine::writeGBps);
    if (trace.cores.size() > 1) {
        Parameter p;
        p.pointer = "/cores/skew_ns";
        p.label = "Skew δt";
        p.unit = "ns";
        p.field = &Machine::skewNs;
        p.limit = Limits::maxSkewNs;
        parameters.push_back(p);
    }

    auto stop = [&] { return cancelled && cancelled(); };
    if (stop())
        return {};
    const SimulationPlan plan(trace); // one pass over the trace for all the simulations below
    Result r = simulate(trace, plan, machine, cancelled);
    if (!r.ok())
        return {}; // cannot run, or cancelled

    std::vector<Sensitivity> rows;
    Machine moved = machine;
    for (const Parameter &p : parameters) {
        const double value = p.of(moved);
        if (!(value > 0))
            continue; // 0 stays 0 under a relative step
        Sensitivity row;
        row.pointer = p.pointer;
        row.label = p.label;
        row.unit = p.unit;
        row.value = value;
        const double floor = p.isRate ? value * 0.01 : 0.0;
        row.lowValue = std::clamp(value * (1 - relativeStep), floor, p.limit);
        row.highValue = std::clamp(value * (1 + relativeStep), floor, p.limit);
        bool ok = true;
        for (auto [at, total] : {std::pair{row.lowValue, &row.lowNs}, std::pair{row.highValue, &row.highNs}}) {
            if (stop())
                return {};
            p.of(moved) = at;
            // Stops within 1024 events when cancelled; each simulation refills the one before's arrays.
            r = simulate(trace, plan, moved, cancelled, std::move(r));
            if (r.error && r.error->kind == SimulationError::Kind::Cancelled)
                return {};
            ok = ok && r.ok() && std::isfinite(r.totalNs);
            *total = r.totalNs;
        }
        p.of(moved) = value;
        if (ok)
            rows.push_back(row);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Sensitivity &a, const Sensitivity &b) { return a.swing() > b.swing(); });
    return rows;
}

} // namespace roofline::verrocchio
