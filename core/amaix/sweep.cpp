#include "sweep.h"

#include "../common/jsonreader.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace roofline::amaix {

std::vector<double> linearValues(double from, double to, std::size_t count)
{
    std::vector<double> v(count, from);
    for (std::size_t i = 1; i < count; ++i)
        v[i] = from + (to - from) * double(i) / double(count - 1);
    return v;
}

std::vector<double> logValues(double from, double to, std::size_t count)
{
    std::vector<double> v(count, from);
    for (std::size_t i = 1; i < count; ++i)
        v[i] = from * std::pow(to / from, double(i) / double(count - 1));
    return v;
}

namespace {

struct ResolvedAxis
{
    const SweepAxis *axis = nullptr;
    Parameter parameter;
    Parameter tC; // constant area only
};

bool wholeAtLeastOne(double v)
{
    return std::isfinite(v) && v >= 1 && std::floor(v) == v;
}

// Range checks of the values a sweep may set, without building messages.
bool plausible(const Accelerator &a)
{
    if (!(a.clockGHz > 0))
        return false;
    for (const Unit &u : a.units) {
        if (!(u.opsPerCycle > 0) && !(a.scaling == ScalingModel::Nvdla && u.macArray))
            return false;
    }
    for (const Memory &m : a.memories) {
        if (!(m.bandwidthGBps > 0))
            return false;
    }
    for (const DataType &t : a.dataTypes) {
        if (t.bytes < 1 || (a.scaling == ScalingModel::Nvdla && t.tK < 1))
            return false;
    }
    if (a.scaling == ScalingModel::Nvdla) {
        const NvdlaParams &p = a.nvdla;
        if (!wholeAtLeastOne(p.tC) || !wholeAtLeastOne(p.atomNvdla) || !wholeAtLeastOne(p.atomAxi)
            || !wholeAtLeastOne(p.cbufEntryBytes) || !wholeAtLeastOne(p.cbufBanks) || !wholeAtLeastOne(p.cbufBytes)
            || p.cbufEntryBytes < p.atomNvdla || p.entriesPerBank() < 1)
            return false;
    }
    return true;
}

} // namespace

SweepResult runSweep(const Network &network, const Accelerator &accelerator, const SweepSpec &spec,
                     Diagnostics &diagnostics, const SweepControl &control)
{
    SweepResult result;
    if (spec.axes.empty() || spec.axes.size() > 2) {
        diagnostics.error("axes", "a sweep needs one or two axes, got " + std::to_string(spec.axes.size()));
        result.ok = false;
        return result;
    }
    std::vector<ResolvedAxis> axes;
    for (const SweepAxis &axis : spec.axes) {
        ResolvedAxis r;
        r.axis = &axis;
        if (axis.values.empty()) {
            diagnostics.error(axis.parameter, "the axis has no values");
            result.ok = false;
        }
        if (axis.kind == SweepAxis::Kind::ConstantArea) {
            const std::string &typeName = !spec.options.dataType.empty() ? spec.options.dataType
                : !network.dataType.empty()                              ? network.dataType
                                                                         : accelerator.defaultDataType;
            if (accelerator.scaling != ScalingModel::Nvdla || !(axis.macProduct > 0)) {
                diagnostics.error("t_k*t_c", "the constant-area family needs the nvdla model and a product > 0");
                result.ok = false;
                continue;
            }
            auto tK = resolveParameter(accelerator, "/data_types/" + jsonPointerToken(typeName) + "/t_k", diagnostics);
            auto tC = resolveParameter(accelerator, "/scaling/t_c", diagnostics);
            if (!tK || !tC) {
                result.ok = false;
                continue;
            }
            r.parameter = *tK;
            r.tC = *tC;
        } else {
            auto p = resolveParameter(accelerator, axis.parameter, diagnostics);
            if (!p) {
                result.ok = false;
                continue;
            }
            r.parameter = *p;
        }
        axes.push_back(r);
    }
    if (!result.ok)
        return result;

    const std::size_t nx = axes[0].axis->values.size();
    const std::size_t ny = axes.size() > 1 ? axes[1].axis->values.size() : 1;
    result.gridSize = nx * ny;
    result.begin = std::min(spec.begin, result.gridSize);
    const std::size_t total = std::clamp(spec.end, result.begin, result.gridSize) - result.begin;
    result.points.resize(total);
    for (std::size_t i = 0; i < total; ++i) {
        const std::size_t k = result.begin + i;
        result.points[i].x = axes[0].axis->values[k % nx];
        result.points[i].y = axes.size() > 1 ? axes[1].axis->values[k / nx] : 0;
        result.points[i].status = Status::Invalid;
    }

    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    constexpr std::size_t kChunk = 32;
    auto cancelled = [&] { return control.cancel && control.cancel->load(std::memory_order_relaxed); };
    auto worker = [&](bool reportProgress) {
        Accelerator acc = accelerator;
        Result scratch;
        while (!cancelled()) {
            const std::size_t begin = next.fetch_add(kChunk);
            if (begin >= total)
                break;
            const std::size_t end = std::min(total, begin + kChunk);
            for (std::size_t i = begin; i < end; ++i) {
                SweepPoint &point = result.points[i];
                const double values[2] = {point.x, point.y};
                for (std::size_t a = 0; a < axes.size(); ++a) {
                    axes[a].parameter.set(acc, values[a]);
                    if (axes[a].axis->kind == SweepAxis::Kind::ConstantArea)
                        axes[a].tC.set(acc, axes[a].axis->macProduct / values[a]);
                }
                // Integral fields (t_k, bytes) cannot take a fractional value.
                bool exact = true;
                for (std::size_t a = 0; a < axes.size(); ++a)
                    exact = exact && std::abs(axes[a].parameter.get(acc) - values[a]) < 1e-9;
                if (!exact || !plausible(acc)) {
                    point.status = Status::Invalid;
                    continue;
                }
                evaluate(network, acc, spec.options, scratch);
                point.status = scratch.status;
                point.totalNs = scratch.ok() ? scratch.totalNs : 0;
                point.fps = scratch.ok() ? scratch.fps : 0;
            }
            const std::size_t now = done.fetch_add(end - begin) + (end - begin);
            if (reportProgress && control.progress)
                control.progress(now, total);
        }
    };
    unsigned threads = control.threads ? control.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::min<std::size_t>(threads, (total + kChunk - 1) / kChunk));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker, false);
    worker(true);
    for (std::thread &t : pool)
        t.join();
    result.completed = done.load();
    result.cancelled = cancelled() && result.completed < total;
    if (control.progress)
        control.progress(result.completed, total);
    return result;
}

} // namespace roofline::amaix
