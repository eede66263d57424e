#include "comparison.h"

#include "layout.h"

#include <cmath>
#include <cstdio>

namespace roofline::verrocchio {

Headline headline(const Result &result)
{
    Headline h;
    h.ok = result.ok();
    h.totalNs = std::isfinite(result.totalNs) ? result.totalNs : 0;
    h.contentionNs = std::isfinite(result.contentionNs) ? result.contentionNs : 0;
    const std::size_t cores = result.cores.size();
    for (Pipe pipe : kAllPipes) {
        double sum = 0;
        for (std::size_t c = 0; c < cores; ++c)
            sum += result.busyFraction(c, pipe);
        const double mean = cores ? sum / double(cores) : 0;
        h.busy[pipeIndex(pipe)] = std::isfinite(mean) ? mean : 0;
    }
    for (Pipe pipe : kLaneOrder) {
        const double b = h.busy[pipeIndex(pipe)];
        if (b > 0 && (!h.critical || b > h.criticalBusy)) {
            h.critical = pipe;
            h.criticalBusy = b;
        }
    }
    return h;
}

Comparison compare(const Result &current, const Result &baseline)
{
    Comparison c;
    c.current = headline(current);
    c.baseline = headline(baseline);
    c.changeNs = c.current.totalNs - c.baseline.totalNs;
    c.relativeChange = c.baseline.totalNs > 0 ? c.changeNs / c.baseline.totalNs : 0;
    c.contentionChangeNs = c.current.contentionNs - c.baseline.contentionNs;
    c.resourceMoved = c.current.critical != c.baseline.critical;
    return c;
}

namespace {
std::string format(const char *pattern, double a)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, a);
    return buffer;
}

std::string percent(double fraction)
{
    return format("%.1f%%", 100 * fraction);
}

std::string signedDuration(double ns)
{
    if (ns == 0)
        return "±0";
    return (ns > 0 ? "+" : "\xe2\x88\x92") + formatDuration(std::abs(ns)); // U+2212 minus
}

std::string resource(const Headline &h)
{
    if (!h.critical)
        return "none";
    return std::string(pipeName(*h.critical)) + " (busy " + percent(h.criticalBusy) + ")";
}
} // namespace

std::string formatDuration(double ns)
{
    if (!std::isfinite(ns))
        return "\xe2\x80\x94"; // an em dash, never "nan"
    const double a = std::abs(ns);
    if (a >= 1e6)
        return format("%.4g", ns / 1e6) + " ms";
    if (a >= 1e3)
        return format("%.4g", ns / 1e3) + " \xc2\xb5s";
    return format("%.4g", ns) + " ns";
}

std::string summarize(const Comparison &c, const std::string &baselineName)
{
    std::string text = "total " + formatDuration(c.current.totalNs);
    if (c.baseline.totalNs > 0) {
        const double pct = 100 * c.relativeChange;
        text += ", " + (pct >= 0 ? "+" + format("%.1f", pct) : "\xe2\x88\x92" + format("%.1f", -pct)) + "% vs "
                + baselineName + " (" + formatDuration(c.baseline.totalNs) + ")";
    } else {
        text += " vs " + baselineName + " (" + formatDuration(c.baseline.totalNs) + ")";
    }
    if (c.resourceMoved)
        text += "; critical resource moved from " + resource(c.baseline) + " to " + resource(c.current);
    else
        text += "; critical resource " + resource(c.current) + ", was busy " + percent(c.baseline.criticalBusy);
    text += "; contention " + formatDuration(c.current.contentionNs) + " (" + signedDuration(c.contentionChangeNs) + ")";
    if (!c.current.ok || !c.baseline.ok)
        text += !c.current.ok ? "; the current simulation stopped on an error" : "; the snapshot's simulation stopped on an error";
    return text;
}

} // namespace roofline::verrocchio
