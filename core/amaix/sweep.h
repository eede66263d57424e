// Design-space sweeps: the network evaluated over a grid of one or two
// accelerator parameters, or over the constant-area family T_k x T_c = const
// of seed 000, Fig. 13. Points run in parallel on std::threads; a sweep can be
// cancelled through an atomic flag and reports its progress.
#pragma once

#include "io.h"
#include "model.h"

#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace roofline::amaix {

struct SweepAxis
{
    enum class Kind {
        Parameter,   // `parameter` is a pointer accepted by resolveParameter()
        ConstantArea // nvdla: the values are T_k of the active data type, T_c = macProduct / T_k
    };
    Kind kind = Kind::Parameter;
    std::string parameter;
    double macProduct = 0;
    std::vector<double> values;
    bool operator==(const SweepAxis &) const = default;
};

struct SweepSpec
{
    std::vector<SweepAxis> axes; // one or two; the first varies fastest
    Options options;
    // The points [begin, end) of the grid, x fastest (clamped to the grid): a
    // shard of a sweep split over several processes or machines.
    std::size_t begin = 0;
    std::size_t end = std::numeric_limits<std::size_t>::max();
    bool operator==(const SweepSpec &) const = default;
};

struct SweepPoint
{
    double x = 0;
    double y = 0; // 0 for a one-axis sweep
    Status status = Status::Ok; // Infeasible: does not fit the CBUF; Invalid: the values are out of range
    double totalNs = 0;
    double fps = 0;
    bool operator==(const SweepPoint &) const = default;
};

struct SweepResult
{
    bool ok = true;     // false: the spec is wrong (see diagnostics)
    bool cancelled = false;
    std::size_t completed = 0;
    std::size_t gridSize = 0;       // every point of the grid
    std::size_t begin = 0;          // index of points[0] in the grid
    std::vector<SweepPoint> points; // the slice, x fastest; points not reached before a cancel keep status Invalid
    bool operator==(const SweepResult &) const = default;
};

struct SweepControl
{
    const std::atomic<bool> *cancel = nullptr;
    // Called on the calling thread with (points done, points total).
    std::function<void(std::size_t, std::size_t)> progress;
    unsigned threads = 0; // 0: one per hardware thread
};

// Evenly spaced values, `count` >= 1, both ends included; logValues needs from, to > 0.
std::vector<double> linearValues(double from, double to, std::size_t count);
std::vector<double> logValues(double from, double to, std::size_t count);

SweepResult runSweep(const Network &network, const Accelerator &accelerator, const SweepSpec &spec,
                     Diagnostics &diagnostics, const SweepControl &control = {});

} // namespace roofline::amaix
