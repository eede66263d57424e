#include "sweep.h"

#include "io.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

namespace roofline::gables {

namespace {

// "POINTER=VALUE" with every bit of the value: --set parses it back exactly.
std::string assignment(const std::string &parameter, double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "=%.17g", value);
    return parameter + text;
}

} // namespace

SweepResult runSweep(const Soc &soc, const SweepSpec &spec, Diagnostics &diagnostics)
{
    SweepResult result;
    if (spec.axes.empty() || spec.axes.size() > 2) {
        diagnostics.error("axes", "a sweep needs one or two axes, got " + std::to_string(spec.axes.size()));
        result.ok = false;
        return result;
    }
    // Each axis must name a parameter: try its first value on the SoC. A
    // value the parameter does not accept makes only its points invalid, but
    // an unknown pointer is an error of the whole sweep.
    for (const SweepAxis &axis : spec.axes) {
        if (axis.values.empty()) {
            diagnostics.error(axis.parameter, "the axis has no values");
            result.ok = false;
            continue;
        }
        Soc probe = soc;
        Diagnostics check;
        if (!applyOverride(probe, assignment(axis.parameter, axis.values.front()), check)) {
            for (const Diagnostic &d : check.errors()) {
                if (d.message.rfind("unknown parameter", 0) == 0 || d.message.rfind("no IP", 0) == 0
                    || d.message.rfind("no bus", 0) == 0) {
                    diagnostics.error(d.pointer, d.message);
                    result.ok = false;
                }
            }
        }
    }
    if (!result.ok)
        return result;

    const std::size_t nx = spec.axes[0].values.size();
    const std::size_t ny = spec.axes.size() > 1 ? spec.axes[1].values.size() : 1;
    result.gridSize = nx * ny;
    result.begin = std::min(spec.begin, result.gridSize);
    const std::size_t end = std::clamp(spec.end, result.begin, result.gridSize);
    result.points.resize(end - result.begin);

    std::atomic<std::size_t> next{0};
    constexpr std::size_t kChunk = 64;
    const std::size_t count = result.points.size();
    auto worker = [&] {
        for (;;) {
            const std::size_t from = next.fetch_add(kChunk);
            if (from >= count)
                break;
            for (std::size_t i = from; i < std::min(count, from + kChunk); ++i) {
                SweepPoint &point = result.points[i];
                const std::size_t k = result.begin + i;
                point.x = spec.axes[0].values[k % nx];
                point.y = spec.axes.size() > 1 ? spec.axes[1].values[k / nx] : 0;
                Soc s = soc;
                Diagnostics why;
                bool ok = applyOverride(s, assignment(spec.axes[0].parameter, point.x), why);
                if (ok && spec.axes.size() > 1)
                    ok = applyOverride(s, assignment(spec.axes[1].parameter, point.y), why);
                if (!ok) {
                    point.error = why.errors().empty() ? "not accepted" : why.errors().front().toString();
                    continue;
                }
                const Result r = evaluate(s);
                point.ok = true;
                point.attainableGops = r.attainableGops;
                point.timeNs = r.timeNs;
                point.averageIntensity = r.averageIntensity;
                point.bound = describe(r.bound, s);
                point.boundKind = kindName(r.bound.kind);
            }
        }
    };
    unsigned threads = spec.threads ? spec.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<std::size_t>(threads, (count + kChunk - 1) / kChunk));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
        t.join();
    return result;
}

} // namespace roofline::gables
