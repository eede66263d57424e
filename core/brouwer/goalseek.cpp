// Goal seek on the Brouwer model: the least memory that reaches a total time.
#include "goalseek.h"

#include "io.h"

#include <cmath>

namespace roofline::brouwer {

namespace {

std::string msText(double ms)
{
    return seekNumber(ms) + " ms";
}

} // namespace

GoalSeek seekMemory(const Device &device, const std::vector<LayerFeatures> &layers, const Params &params,
                    double targetMs, bool smeared, double minBytes, double maxBytes)
{
    GoalSeek g;
    g.pointer = "/memory";
    g.label = "available memory";
    g.unit = "B";
    g.targetValue = targetMs;
    g.target = "total " + msText(targetMs);
    g.from = params.availableBytes;
    if (!(std::isfinite(targetMs) && targetMs > 0)) {
        g.message = "the target must be a positive time, got " + seekNumber(targetMs);
        return g;
    }
    if (layers.empty() || !(minBytes > 0) || !(maxBytes > minBytes)) {
        g.message = "nothing to seek: no layers or an empty memory range";
        return g;
    }
    auto total = [&](double bytes) {
        Params p = params;
        p.availableBytes = bytes;
        ++g.evaluations;
        return evaluate(device, layers, p).totalMs(smeared);
    };
    const Curve curve = memoryCurve(device, layers, params.bytesPerElement, minBytes, maxBytes, 160);
    g.evaluations += int(curve.points.size());
    const auto timeOf = [&](const CurvePoint &p) { return smeared ? p.smearedMs : p.totalMs; };
    const double tolerance = kSeekResultTolerance * targetMs;
    const std::vector<CurvePoint> &pts = curve.points;
    if (timeOf(pts.back()) > targetMs + tolerance) {
        g.status = GoalSeek::Status::Unreachable;
        g.value = maxBytes;
        g.cap = timeOf(pts.back());
        g.achieved = g.cap;
        g.limitedBy = "the network's time with every layer in memory";
        g.message = "no memory up to " + formatBytes(maxBytes) + " gives " + g.target + ": " + g.limitedBy
            + " is " + msText(g.cap);
        return g;
    }
    std::size_t i = pts.size() - 1; // pts[i] reaches the target
    while (i > 0 && timeOf(pts[i - 1]) <= targetMs + tolerance)
        --i;
    double value = pts[i].bytes;
    if (i > 0) {
        // The boundary lies in (pts[i-1], pts[i]]: bisect there (log space; the time falls as memory grows).
        const SeekRange range{pts[i - 1].bytes, pts[i].bytes, true, +1};
        const MonotoneSeek s = seekMonotone([&](double b) { return -total(b); }, -targetMs, range);
        if (s.status == MonotoneSeek::Status::Found)
            value = s.x;
    }
    g.status = GoalSeek::Status::Found;
    g.value = value;
    g.achieved = total(value);
    g.relation = "≥";
    if (i == 0)
        g.message = g.target + " at every memory from " + formatBytes(minBytes) + " (now " + formatBytes(g.from) + ")";
    else
        g.message = g.target + " needs available memory ≥ " + formatBytes(value) + " (now " + formatBytes(g.from) + ", "
            + msText(total(g.from)) + ")";
    return g;
}

} // namespace roofline::brouwer
