// AMAIX goal seek: the value of one accelerator number (as --set names it) at
// which the time per inference or the frame rate reaches a target, by a
// bracketed search (docs/models/amaix.md, "Goal seek").
#pragma once

#include "model.h"
#include "../common/goalseek.h"

#include <string>

namespace roofline::amaix {

enum class InferenceTarget { TimeNs, Fps };

// Searches a continuous parameter (clock, a unit's ops/cycle, a memory's
// bandwidth; whole-number ones such as T_k or the CBUF size are refused) over
// [max(1e-9, value/1e6), Limits::maxRate] with seekMonotone(): the time per
// inference never grows when a rate grows (each pipe's time is the max of
// ops/peak and bytes/bandwidth, seed 000 section 2.3). The result is the
// smallest value that reaches the target, within kSeekResultTolerance.
// Unreachable targets name what caps them at the end of the range: the unit
// or memory that takes the largest share of the time there.
GoalSeek seekInference(const Network &network, const Accelerator &accelerator, const Options &options,
                       const std::string &pointer, double target, InferenceTarget kind);

} // namespace roofline::amaix
