#include "comparison.h"

#include "../common/diagnostics.h"

#include <cmath>
#include <cstdio>

namespace roofline::amaix {

SnapshotComparison compareSnapshot(const Result &current, const SummaryTotals &currentTotals, const Result &baseline,
    const SummaryTotals &baselineTotals)
{
    SnapshotComparison c;
    c.currentOk = current.ok();
    c.baselineOk = baseline.ok();
    if (c.currentOk) {
        c.currentNs = current.totalNs;
        c.currentFps = current.fps;
        c.currentComputeBound = currentTotals.computeBoundLayers;
        c.currentTimed = currentTotals.timedLayers;
    }
    if (c.baselineOk) {
        c.baselineNs = baseline.totalNs;
        c.baselineFps = baseline.fps;
        c.baselineComputeBound = baselineTotals.computeBoundLayers;
        c.baselineTimed = baselineTotals.timedLayers;
    } else {
        c.baselineError = baseline.error;
    }
    if (c.currentOk && c.baselineOk) {
        c.changeNs = c.currentNs - c.baselineNs;
        c.relativeChange = c.baselineNs > 0 ? c.changeNs / c.baselineNs : 0;
    }
    return c;
}

namespace {

struct TimeScale {
    double perNs;
    const char *name;
};

TimeScale timeUnit(double ns)
{
    const double a = std::fabs(ns);
    if (a >= 1e9)
        return { 1e-9, "s" };
    if (a >= 1e6)
        return { 1e-6, "ms" };
    if (a >= 1e3)
        return { 1e-3, "\u00b5s" };
    return { 1, "ns" };
}

// "+12.4%", "−0.75" with a real minus sign.
std::string signedText(double value, const std::string &text)
{
    const std::string digits = text[0] == '-' ? text.substr(1) : text;
    return (value < 0 && digits.find_first_of("123456789") != std::string::npos ? "\u2212" : "+") + digits;
}

} // namespace

std::string summarize(const SnapshotComparison &c, const std::string &baselineName)
{
    if (!c.currentOk)
        return "The current configuration does not evaluate; no comparison with " + baselineName;
    const TimeScale unit = timeUnit(c.currentNs);
    auto time = [&](double ns) { return formatNumber(ns * unit.perNs, 4); };
    std::string out
        = "Inference " + time(c.currentNs) + " " + unit.name + " (" + formatNumber(c.currentFps, 4) + " FPS), ";
    if (!c.baselineOk)
        return out + baselineName + " does not evaluate: " + c.baselineError;
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", c.relativeChange * 100);
    out += signedText(c.relativeChange, percent) + " (" + signedText(c.changeNs, time(c.changeNs)) + " " + unit.name
        + ") vs " + baselineName + " (" + time(c.baselineNs) + " " + unit.name + "); compute-bound layers "
        + std::to_string(c.baselineComputeBound) + " \u2192 " + std::to_string(c.currentComputeBound);
    return out;
}

} // namespace roofline::amaix
