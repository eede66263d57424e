// Per-network-layer view of an AMAIX result, for the studio's roofline scatter
// and layer table: the stages of a layer (its tiles, its bias stage) summed,
// its time (the pipes it heads), and where it sits on the roofline.
// Pure and Qt-free so the geometry can be tested without a window.
#pragma once

#include "model.h"
#include "network.h"

#include <vector>

namespace roofline::amaix {

struct LayerSummary
{
    int layer = -1;     // network layer index
    int stageCount = 0; // AMAIX stages of this layer (tiles, bias stage)
    int tiles = 1;      // h-tiles of its main stage
    int unit = -1;      // of its main stage; -1: host
    int memory = -1;
    ConvMode mode = ConvMode::None;
    double ops = 0;
    double dIfmap = 0, dWeight = 0, dOfmap = 0; // bytes
    double timeNs = 0;       // Result::layerNs: the pipes this layer heads
    double standaloneNs = 0; // Σ of its stages alone on their rooflines
    Bound bound = Bound::Compute; // of the longest pipe it heads, else of its stages alone
    bool onHost = false;     // the accelerator does not run it (zero time)
    bool pipelined = false;  // runs inside a pipe headed by another layer and does not set its time

    double dTotal() const { return dIfmap + dWeight + dOfmap; }
    double intensity() const { return dTotal() > 0 ? ops / dTotal() : 0; } // ops/byte
    // Attained performance in ops/ns (= Gops/s): over its own time, or alone on
    // its roofline when it runs hidden in another layer's pipe; 0 when it has no time.
    double performance() const
    {
        const double t = timeNs > 0 ? timeNs : standaloneNs;
        return t > 0 ? ops / t : 0;
    }
    bool operator==(const LayerSummary &) const = default;
};

struct SummaryTotals
{
    double ops = 0, dIfmap = 0, dWeight = 0, dOfmap = 0;
    double timeNs = 0;
    double fps = 0;
    int timedLayers = 0;        // layers with time > 0
    int computeBoundLayers = 0; // of those, compute-bound
    double computeBoundNs = 0;  // their time
    double computeBoundShare() const { return timedLayers > 0 ? double(computeBoundLayers) / timedLayers : 0; }
    bool operator==(const SummaryTotals &) const = default;
};

// One entry per network layer that has stages (free layers such as concat and
// flatten have none), in network order. Reuses `out`'s storage.
void summarizeLayers(const Network &network, const Result &result, std::vector<LayerSummary> &out);
std::vector<LayerSummary> summarizeLayers(const Network &network, const Result &result);
SummaryTotals summarizeTotals(const std::vector<LayerSummary> &layers, const Result &result);

// A compute roof per unit (Gops/s) as the evaluation used it, or the unit's
// nominal peak when no stage ran on it.
std::vector<double> unitPeaks(const Accelerator &accelerator, const Options &options, const Result &result);

} // namespace roofline::amaix
