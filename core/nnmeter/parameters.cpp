#include "parameters.h"

#include "io.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace roofline::nnmeter {

namespace {

// The limits the device loader (io.cpp) accepts.
const double kMaxRate = DeviceRanges::rate().max;
const double kMaxOverheadUs = DeviceRanges::overheadUs().max;

std::vector<std::string> split(const std::string &pointer)
{
    std::vector<std::string> parts;
    std::size_t at = 1;
    while (at <= pointer.size()) {
        const std::size_t slash = pointer.find('/', at);
        parts.push_back(pointer.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
        if (slash == std::string::npos)
            break;
        at = slash + 1;
    }
    return parts;
}

double *numberSlot(Device &device, const std::string &pointer)
{
    if (pointer == "/peak_gflops")
        return &device.peakGflops;
    if (pointer == "/bandwidth_gbps")
        return &device.bandwidthGBps;
    if (pointer == "/kernel_overhead_us")
        return &device.kernelOverheadUs;
    if (pointer.rfind("/efficiency/", 0) != 0)
        return nullptr;
    const std::vector<std::string> parts = split(pointer);
    if (parts.size() != 3 || (parts[2] != "compute" && parts[2] != "memory"))
        return nullptr;
    Efficiency *e = nullptr;
    if (parts[1] == "default")
        e = &device.defaultEfficiency;
    else if (auto it = device.efficiency.find(parts[1]); it != device.efficiency.end())
        e = &it->second;
    else if (isOperatorName(parts[1]))
        e = &(device.efficiency[parts[1]] = device.defaultEfficiency); // a kind not listed yet: from the default
    if (!e)
        return nullptr;
    return parts[2] == "compute" ? &e->compute : &e->memory;
}

std::optional<bool> parseSwitch(const std::string &text)
{
    if (text == "true" || text == "on" || text == "1")
        return true;
    if (text == "false" || text == "off" || text == "0")
        return false;
    return std::nullopt;
}

std::string ms(double v)
{
    return v >= 1 ? seekNumber(v) + " ms" : seekNumber(v * 1e3) + " µs";
}

} // namespace

std::vector<NumberParameter> numberParameters(const Device &device)
{
    std::vector<NumberParameter> out{
        {"/peak_gflops", "P_peak", "GFLOP/s", 0, kMaxRate, true},
        {"/bandwidth_gbps", "B_peak", "GB/s", 0, kMaxRate, true},
        {"/kernel_overhead_us", "kernel overhead", "µs", 0, kMaxOverheadUs, true},
        {"/efficiency/default/compute", "compute efficiency (default)", "", 0, 1, true},
        {"/efficiency/default/memory", "memory efficiency (default)", "", 0, 1, true},
    };
    for (const auto &[kind, e] : device.efficiency) {
        (void)e;
        out.push_back({"/efficiency/" + kind + "/compute", "compute efficiency (" + kind + ")", "", 0, 1, true});
        out.push_back({"/efficiency/" + kind + "/memory", "memory efficiency (" + kind + ")", "", 0, 1, true});
    }
    return out;
}

std::optional<double> numberValue(const Device &device, const std::string &pointer)
{
    Device copy = device; // numberSlot may add a kind listed nowhere yet
    const double *slot = numberSlot(copy, pointer);
    if (!slot)
        return std::nullopt;
    return *slot;
}

bool applyOverride(Device &device, const std::string &assignment, Diagnostics &diagnostics)
{
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || assignment.empty() || assignment.front() != '/') {
        diagnostics.error("", "expected POINTER=VALUE with a JSON pointer such as /peak_gflops=50, got \"" + assignment + "\"");
        return false;
    }
    const std::string pointer = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    Device next = device;
    const std::vector<std::string> parts = split(pointer);
    if (parts.size() == 2 && parts[0] == "fusions") {
        const std::string &rule = parts[1];
        const std::size_t sep = rule.find('_', 3);
        // BF_<a>_<b>, where <a> may itself hold no '_' (operator names have none but channel_shuffle, a unit)
        if (rule.rfind("BF_", 0) != 0 || sep == std::string::npos || !isOperatorName(rule.substr(3, sep - 3))
            || !isOperatorName(rule.substr(sep + 1))) {
            diagnostics.error(pointer, "expected BF_<op1>_<op2> with two operator names (docs/file-formats-nnmeter.md)");
            return false;
        }
        const std::optional<bool> on = parseSwitch(text);
        if (!on) {
            diagnostics.error(pointer, "expected true or false, got \"" + text + "\"");
            return false;
        }
        next.rules.pairs[rule.substr(3)].fuses = *on;
    } else if (pointer == "/multi_outbound" || pointer == "/multi_inbound" || (parts.size() == 2 && parts[0] == "units")) {
        const std::optional<bool> on = parseSwitch(text);
        if (!on) {
            diagnostics.error(pointer, "expected true or false, got \"" + text + "\"");
            return false;
        }
        if (pointer == "/multi_outbound")
            next.rules.multiOutbound = *on;
        else if (pointer == "/multi_inbound")
            next.rules.multiInbound = *on;
        else if (std::find(unitNames().begin(), unitNames().end(), parts[1]) == unitNames().end()) {
            diagnostics.error(pointer, "unknown fusion unit \"" + parts[1] + "\" (se, hswish, swish, channel_shuffle, global_pool)");
            return false;
        } else
            next.rules.units[parts[1]] = *on;
    } else {
        double *slot = numberSlot(next, pointer);
        if (!slot) {
            diagnostics.error(pointer, "not a setting of an nn-Meter device (peak_gflops, bandwidth_gbps, "
                                       "kernel_overhead_us, efficiency/<kind>/compute|memory, fusions/BF_<a>_<b>, "
                                       "multi_outbound, multi_inbound, units/<name>)");
            return false;
        }
        // The parser and the ranges of every other way in (the device file, a
        // session): a denormal such as 1e-320 is refused here as there.
        const std::optional<double> value = parseFiniteNumber(text);
        if (!value) {
            diagnostics.error(pointer, "expected a number, got \"" + text + "\"");
            return false;
        }
        const bool efficiency = pointer.rfind("/efficiency/", 0) == 0;
        const Range range = efficiency ? DeviceRanges::efficiency()
            : pointer == "/kernel_overhead_us" ? DeviceRanges::overheadUs()
                                              : DeviceRanges::rate();
        if (const std::string why = range.check(*value); !why.empty()) {
            diagnostics.error(pointer, why);
            return false;
        }
        *slot = *value;
    }
    device = std::move(next);
    return true;
}

std::vector<Sensitivity> sensitivity(const network::Network &net, const Device &device, double relativeStep)
{
    std::vector<Sensitivity> rows;
    const Detection detection = detectKernels(net, device.rules, device.bytesPerElement);
    auto kernelSum = [&](const Device &d) {
        double sum = 0;
        for (const Kernel &k : detection.kernels)
            sum += predictKernel(net, k, d).ms; // detection depends on the rules only
        return sum;
    };
    for (const NumberParameter &p : numberParameters(device)) {
        const double value = *numberValue(device, p.pointer);
        if (!(value > 0))
            continue;
        Sensitivity s{p.label, p.pointer, value * (1 - relativeStep), std::min(value * (1 + relativeStep), p.upper), 0, 0};
        if (s.highValue <= s.lowValue)
            continue;
        Device low = device, high = device;
        *numberSlot(low, p.pointer) = s.lowValue;
        *numberSlot(high, p.pointer) = s.highValue;
        s.lowMs = kernelSum(low);
        s.highMs = kernelSum(high);
        rows.push_back(std::move(s));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Sensitivity &a, const Sensitivity &b) {
        return std::abs(a.highMs - a.lowMs) > std::abs(b.highMs - b.lowMs);
    });
    return rows;
}

GoalSeek seekLatency(const network::Network &net, const Device &device, const std::string &pointer, double targetMs)
{
    GoalSeek g;
    g.pointer = pointer;
    g.targetValue = targetMs;
    g.target = "kernel sum " + ms(targetMs);
    const std::vector<NumberParameter> params = numberParameters(device);
    const auto param = std::find_if(params.begin(), params.end(), [&](const NumberParameter &p) { return p.pointer == pointer; });
    if (param == params.end()) {
        g.message = pointer + ": not a number of this device that goal seek can vary";
        return g;
    }
    g.label = param->label;
    g.unit = param->unit;
    if (!(std::isfinite(targetMs) && targetMs > 0)) {
        g.message = "the target must be a positive time, got " + seekNumber(targetMs);
        return g;
    }
    const Detection detection = detectKernels(net, device.rules, device.bytesPerElement);
    Device moved = device;
    double *slot = numberSlot(moved, pointer);
    g.from = *slot;
    auto sumAt = [&](double x) {
        *slot = x;
        double sum = 0;
        for (const Kernel &k : detection.kernels)
            sum += predictKernel(net, k, moved).ms;
        return sum;
    };
    const bool overhead = pointer == "/kernel_overhead_us";
    // Rates and efficiencies: larger is faster; the overhead: larger is slower.
    const SeekRange range = overhead ? SeekRange{0, kMaxOverheadUs, false, -1}
                                     : SeekRange{std::max(1e-12, g.from / 1e6), param->upper, true, +1};
    const MonotoneSeek s = seekMonotone([&](double x) { return -sumAt(x); }, -targetMs, range);
    g.evaluations = s.evaluations;
    g.value = s.x;
    const double now = sumAt(g.from);
    auto valueText = [&](double v) { return seekNumber(v) + (g.unit.empty() ? "" : " " + g.unit); };
    switch (s.status) {
    case MonotoneSeek::Status::Found:
        g.status = GoalSeek::Status::Found;
        g.achieved = sumAt(s.x);
        g.relation = overhead ? "≤" : "≥";
        g.message = g.target + " at " + g.label + " " + g.relation + " " + valueText(s.x) + " (now " + valueText(g.from)
                    + ", " + ms(now) + ")";
        break;
    case MonotoneSeek::Status::AboveRange:
    case MonotoneSeek::Status::BelowRange: {
        g.status = GoalSeek::Status::Unreachable;
        g.cap = sumAt(s.x);
        g.achieved = g.cap;
        // What still takes the time at the best end: the other roof, the overhead or learned kernels.
        double computeMs = 0, memoryMs = 0, learnedMs = 0;
        for (const Kernel &k : detection.kernels) {
            const KernelPrediction p = predictKernel(net, k, moved);
            if (p.source == Source::Learned)
                learnedMs += p.ms;
            else
                (p.computeBound ? computeMs : memoryMs) += p.ms;
        }
        g.limitedBy = learnedMs >= std::max(computeMs, memoryMs) ? "learned kernels"
                      : computeMs >= memoryMs                     ? "compute-bound kernels"
                                                                  : "memory-bound kernels";
        g.message = "no " + g.label + " reaches " + g.target + ": at " + valueText(s.x) + " the kernel sum is "
                    + ms(g.cap) + ", held by " + g.limitedBy;
        break;
    }
    case MonotoneSeek::Status::NotMonotone:
    case MonotoneSeek::Status::Failed:
        g.message = "the search over " + g.label + " failed";
        break;
    }
    return g;
}

} // namespace roofline::nnmeter
