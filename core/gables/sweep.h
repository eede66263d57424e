// Gables design-space sweeps: the model evaluated over a grid of one or two
// parameters, each named by the pointer `roofline-cli evaluate --set` takes
// (/soc/bpeak_gbps, /use_case/work/GPU/fraction, ...), so a value is set
// exactly as --set sets it: ranges checked, other fractions rebalanced.
// Points run in parallel on std::threads; a sweep may compute one contiguous
// slice of the grid (a shard of a cluster job).
#pragma once

#include "model.h"
#include "../common/diagnostics.h"

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace roofline::gables {

struct SweepAxis
{
    std::string parameter; // "/soc/bpeak_gbps", ...
    std::vector<double> values;
    bool operator==(const SweepAxis &) const = default;
};

struct SweepSpec
{
    std::vector<SweepAxis> axes; // one or two; the first varies fastest
    // The points [begin, end) of the grid, x fastest (clamped to the grid).
    std::size_t begin = 0;
    std::size_t end = std::numeric_limits<std::size_t>::max();
    unsigned threads = 0; // 0: one per hardware thread
    bool operator==(const SweepSpec &) const = default;
};

struct SweepPoint
{
    double x = 0;
    double y = 0;        // 0 for a one-axis sweep
    bool ok = false;     // false: a value the model does not accept (see `error`)
    std::string error;   // why not, e.g. "/soc/bpeak_gbps: must be in (0, 1e+09], got -1"
    double attainableGops = 0;
    double timeNs = 0;   // per operation of the use case
    double averageIntensity = 0;
    std::string bound;   // describe(bound, soc): "IP[1] GPU link", "memory", ...
    const char *boundKind = ""; // kindName(): "ip_link", "memory", "balanced", ...
    bool operator==(const SweepPoint &) const = default;
};

struct SweepResult
{
    bool ok = true;                 // false: the spec is wrong (see the diagnostics)
    std::size_t gridSize = 0;       // every point of the grid
    std::size_t begin = 0;          // index of points[0] in the grid
    std::vector<SweepPoint> points; // the slice, x fastest
};

SweepResult runSweep(const Soc &soc, const SweepSpec &spec, Diagnostics &diagnostics);

} // namespace roofline::gables
