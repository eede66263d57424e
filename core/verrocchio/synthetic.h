// Synthetic traces of any length, for the benchmark and the level-of-detail
// tests: the double-buffered vector add of examples/verrocchio/vector-add-1core.txt
// (12 instructions per tile) repeated until the trace has about `instructions`
// instructions, split over `cores` cores. Not a measured workload.
#pragma once

#include "trace.h"

#include <cstddef>

namespace roofline::verrocchio {

Trace syntheticVectorAdd(std::size_t instructions, int cores);

} // namespace roofline::verrocchio
