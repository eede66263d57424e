// Second estimator: Nvidia's NVDLA performance sheet (nvdla/hw
// perf/NVDLA_OpenSource_Performance.xlsx) as restated in
// shared/reference/models.md 2.6. One row per convolution or fully connected
// layer, cycles = max(DRAM, MAC); bias, activation, pooling, LRN and
// element-wise layers are assumed fused (no rows).
#pragma once

#include "accelerator.h"
#include "model.h"
#include "network.h"
#include "../common/diagnostics.h"

#include <string>
#include <vector>

namespace roofline::amaix {

struct BaselineOptions
{
    std::string dataType;     // empty: the network's, else the accelerator's default
    double fcBatch = 1;       // frames sharing one fetch of the FC weights
    double weightCompression = 0; // fraction of weight bytes saved, 0..1
    bool winograd = true;     // the sheet assumes Winograd for 3x3 stride-1 convolutions
    bool operator==(const BaselineOptions &) const = default;
};

struct BaselineRow
{
    int layer = -1;
    double inKB = 0, outKB = 0, weightKB = 0;
    double dramCycles = 0, macCycles = 0, cycles = 0;
    double timeNs = 0;
    bool pooledOutput = false; // out_KB is after a fused pooling layer
    bool operator==(const BaselineRow &) const = default;
};

struct BaselineResult
{
    bool ok = true;
    std::string error;
    std::vector<BaselineRow> rows;
    std::vector<double> layerNs; // per network layer (0 for fused layers)
    double totalNs = 0;
    double fps = 0;
    double macUtilization = 0; // share of the cycles the MAC array is busy: Σ MAC_cyc / Σ cycles
    bool operator==(const BaselineResult &) const = default;
};

// MACs per cycle: T_k·T_c under the nvdla model, else the ops/cycle of the
// unit convolutions map to; bandwidth of that mapping's memory.
BaselineResult evaluateBaseline(const Network &network, const Accelerator &accelerator,
                                const BaselineOptions &options = {});

// --- Comparison with measured times ---------------------------------------

struct MeasuredTime
{
    std::string layer; // a network layer's name, or "total"
    double timeNs = 0;
    int line = 0; // in the CSV, for messages
    bool operator==(const MeasuredTime &) const = default;
};

struct ComparisonRow
{
    std::string layer;
    double measuredNs = 0;
    double amaixNs = 0;
    double baselineNs = 0;
    // (estimate - measured) / measured
    double amaixError() const { return measuredNs > 0 ? (amaixNs - measuredNs) / measuredNs : 0; }
    double baselineError() const { return measuredNs > 0 ? (baselineNs - measuredNs) / measuredNs : 0; }
    bool operator==(const ComparisonRow &) const = default;
};

struct Comparison
{
    std::vector<ComparisonRow> rows; // in the CSV's order; a "total" row is not among them
    ComparisonRow total;             // measured: the CSV's "total" row if given, else the sum of its rows
    bool operator==(const Comparison &) const = default;
};

// Per-layer and total error of both estimators. A measured name that is not a
// layer of the network is an error (pointer "line N").
Comparison compare(const Network &network, const Result &amaix, const BaselineResult &baseline,
                   const std::vector<MeasuredTime> &measured, Diagnostics &diagnostics);

} // namespace roofline::amaix
