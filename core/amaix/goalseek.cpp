#include "goalseek.h"

#include "io.h"
#include "sensitivity.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace roofline::amaix {

namespace {

std::string timeText(double ns)
{
    if (ns >= 1e6)
        return seekNumber(ns / 1e6) + " ms";
    if (ns >= 1e3)
        return seekNumber(ns / 1e3) + " µs";
    return seekNumber(ns) + " ns";
}

std::string targetText(double value, InferenceTarget kind)
{
    return kind == InferenceTarget::Fps ? seekNumber(value) + " FPS" : timeText(value) + " per inference";
}

// What takes the largest share of the time: "CONV_CORE compute (93% of the time)".
std::string largestShare(const Network &network, const Accelerator &acc, const Result &r)
{
    (void)network;
    std::map<std::string, double> shares;
    for (const Pipe &pipe : r.pipes) {
        if (pipe.onHost || pipe.dominant < 0)
            continue;
        const Stage &s = r.stages[std::size_t(pipe.dominant)];
        std::string name;
        if (pipe.bound == Bound::Compute)
            name = (s.unit >= 0 ? acc.units[std::size_t(s.unit)].name : std::string("host")) + " compute";
        else
            name = (s.memory >= 0 ? acc.memories[std::size_t(s.memory)].name : std::string("memory")) + " bandwidth";
        shares[name] += pipe.timeNs;
    }
    std::string best;
    double bestNs = -1;
    for (const auto &[name, ns] : shares) {
        if (ns > bestNs) {
            best = name;
            bestNs = ns;
        }
    }
    if (best.empty() || !(r.totalNs > 0))
        return "nothing";
    return best + " (" + seekNumber(100 * bestNs / r.totalNs) + "% of the time)";
}

} // namespace

GoalSeek seekInference(const Network &network, const Accelerator &accelerator, const Options &options,
                       const std::string &pointer, double target, InferenceTarget kind)
{
    GoalSeek g;
    g.pointer = pointer;
    g.targetValue = target;
    g.target = targetText(target, kind);
    Diagnostics diagnostics;
    const std::optional<Parameter> parameter = resolveParameter(accelerator, pointer, diagnostics);
    if (!parameter) {
        g.message = pointer + ": " + (diagnostics.errors().empty() ? "unknown parameter" : diagnostics.errors().front().message);
        return g;
    }
    g.pointer = parameter->pointer;
    const std::string type = activeDataType(network, accelerator, options);
    bool known = false;
    for (const SettableParameter &info : settableParameters(accelerator, type)) {
        if (info.pointer != parameter->pointer && info.pointer != pointer)
            continue;
        known = true;
        g.label = info.label;
        g.unit = info.unit;
        if (info.integer) {
            g.message = pointer + ": " + info.label + " is a whole number; goal seek varies continuous numbers "
                        "(clock, ops/cycle, bandwidths); sweep it with roofline-cli amaix-sweep";
            return g;
        }
    }
    if (!known) {
        g.message = pointer + ": not a parameter of this accelerator that goal seek can vary";
        return g;
    }
    if (!(std::isfinite(target) && target > 0)) {
        g.message = "the target must be a positive " + std::string(kind == InferenceTarget::Fps ? "frame rate" : "time")
                    + ", got " + seekNumber(target);
        return g;
    }
    Result now;
    evaluate(network, accelerator, options, now);
    if (!now.ok()) {
        g.message = "the network does not run on this accelerator: " + now.error;
        return g;
    }
    g.from = parameter->get(accelerator);
    // Goodness: larger is better. FPS as it is; a time as its negative.
    auto goodnessOf = [kind](const Result &r) { return kind == InferenceTarget::Fps ? r.fps : -r.totalNs; };
    const double goal = kind == InferenceTarget::Fps ? target : -target;
    Accelerator moved = accelerator;
    Result scratch;
    auto goodness = [&](double x) {
        parameter->set(moved, x);
        Diagnostics check;
        validate(moved, check);
        if (check.hasErrors())
            return std::numeric_limits<double>::quiet_NaN();
        evaluate(network, moved, options, scratch);
        return scratch.ok() ? goodnessOf(scratch) : std::numeric_limits<double>::quiet_NaN();
    };
    const SeekRange range{std::max(1e-9, g.from / 1e6), Limits::maxRate, true, +1};
    const MonotoneSeek s = seekMonotone(goodness, goal, range);
    g.evaluations = s.evaluations;
    g.value = s.x;
    auto valueText = [&](double v) { return seekNumber(v) + (g.unit.empty() ? "" : " " + g.unit); };
    auto resultAt = [&](double x) {
        Accelerator a = accelerator;
        parameter->set(a, x);
        return evaluate(network, a, options);
    };
    switch (s.status) {
    case MonotoneSeek::Status::Found: {
        g.status = GoalSeek::Status::Found;
        const Result at = resultAt(s.x);
        g.achieved = kind == InferenceTarget::Fps ? at.fps : at.totalNs;
        g.relation = "≥";
        const double nowGoodness = goodnessOf(now);
        const bool better = goal > nowGoodness + kSeekResultTolerance * std::abs(nowGoodness);
        if (better)
            g.message = g.target + " needs " + g.label + " ≥ " + valueText(s.x) + " (now " + valueText(g.from) + ")";
        else
            g.message = g.target + " at " + g.label + " = " + valueText(s.x) + " (now " + valueText(g.from) + ", "
                        + targetText(kind == InferenceTarget::Fps ? now.fps : now.totalNs, kind) + ")";
        break;
    }
    case MonotoneSeek::Status::AboveRange:
    case MonotoneSeek::Status::BelowRange: {
        g.status = GoalSeek::Status::Unreachable;
        const Result at = resultAt(s.x);
        g.cap = kind == InferenceTarget::Fps ? at.fps : at.totalNs;
        g.achieved = g.cap;
        g.limitedBy = largestShare(network, accelerator, at);
        if (s.status == MonotoneSeek::Status::AboveRange)
            g.message = "no " + g.label + " reaches " + g.target + ": " + g.limitedBy + " caps it at "
                        + targetText(g.cap, kind) + " (at " + valueText(s.x) + ")";
        else
            g.message = "no " + g.label + " down to " + valueText(range.lower) + " gives " + g.target + ": "
                        + g.limitedBy + " keeps it at " + targetText(g.cap, kind);
        break;
    }
    case MonotoneSeek::Status::NotMonotone:
        g.message = "the result does not move one way only in " + g.label + "; goal seek gave up";
        break;
    case MonotoneSeek::Status::Failed:
        g.message = "the accelerator rejects " + g.label + " = " + valueText(s.x) + "; goal seek gave up";
        break;
    }
    return g;
}

} // namespace roofline::amaix
