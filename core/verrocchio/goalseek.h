// Verrocchio goal seek: the value of one machine number (as --set names it)
// at which the simulated total time reaches a target, by a bracketed search
// over the discrete-event simulation (docs/models/verrocchio.md, "Goal seek").
#pragma once

#include "simulation.h"
#include "trace.h"
#include "../common/goalseek.h"

#include <string>

namespace roofline::verrocchio {

// Rates (/pipes/<PIPE>/bandwidth_gbps or throughput_gops, /bus/bandwidth_gbps,
// /bus/read_gbps, /bus/write_gbps) are searched over [max(1e-9, value/1e6),
// Limits::maxRate] in log space; times (/pipes/<PIPE>/init_ns,
// /cores/skew_ns) over [0, their Limits maximum] linearly. The core count and
// the bus mode are refused (not continuous). The simulation re-times shared
// transfers, so the total need not be exactly monotone; seekMonotone() then
// reports NotMonotone and so does this (message). Unreachable targets name
// the critical resource at the end of the range (the busiest pipe).
GoalSeek seekTotalTime(const Trace &trace, const Machine &machine, const std::string &pointer, double targetNs);

} // namespace roofline::verrocchio
