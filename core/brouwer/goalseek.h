// Goal seek on the Brouwer model (seed 002): the least available memory at
// which a network's total time reaches a target, or why no memory in range does.
#pragma once

#include "../common/goalseek.h"
#include "model.h"

#include <vector>

namespace roofline::brouwer {

// The smallest memory m in [minBytes, maxBytes] such that the total time (plain
// or smeared back-transform) is at most `targetMs` at m and at every memory
// above it (relation "≥"). The total changes regime only at the knees, so the
// search walks the memory curve down from maxBytes (its samples include both
// sides of every knee) to the first sample that misses the target, then
// bisects between it and the sample above. Unreachable when even maxBytes
// misses it: the network's time with every layer in memory caps it.
GoalSeek seekMemory(const Device &device, const std::vector<LayerFeatures> &layers, const Params &params,
                    double targetMs, bool smeared, double minBytes, double maxBytes);

} // namespace roofline::brouwer
