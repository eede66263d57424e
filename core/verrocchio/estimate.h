// Quick estimates without simulation.
//
// 1. The closed forms of seed 001 section 3.5 (models.md 3.4): one event split
//    evenly over N cores that start δt apart.
// 2. Lower bounds of a whole trace: no pipe can finish its work faster than
//    alone, and the bus cannot move all global-memory bytes faster than B_bus.
#pragma once

#include "trace.h"

#include <array>
#include <vector>

namespace roofline::verrocchio {

struct ClosedForm
{
    double timeNs = 0;  // P_{u,n}: from the first core's start to the last core's end
    double fullNs = 0;  // P_full: the span during which all N cores run (may be <= 0)
    double nMax = 0;    // N_max: cores that overlap when P_full <= 0 (case b); 0 when all overlap
    bool allOverlap = true; // case a of Fig. 11 (P_full > 0)

    bool operator==(const ClosedForm &) const = default;
};

// Units that use only core-local resources (S, MTE1, M, V): each core runs
// DS_single at Th_single.
//   P = 2(N−1)δt + P_full,  P_full = (DS_single − (N−1)·Th_single·δt) / Th_single
//   if P_full <= 0: P = 2(N_max−1)δt,  N_max = DS_single/(Th_single·δt) + 1
ClosedForm coreLocalClosedForm(double dsSingle, double thSingle, int cores, double skewNs);

// Bus units (MTE2, MTE3): all cores share Th_total.
//   P_full = (N·DS_single − 2(N−1)·Th_total·δt) / Th_total,  P = 2(N−1)δt + P_full
//   if P_full <= 0: P = 2(N_max−1)δt,  N_max = 2·Th_total·δt / (2·Th_total·δt − DS_single)
ClosedForm busClosedForm(double dsSingle, double thTotal, int cores, double skewNs);

struct TraceBounds
{
    // Per core and pipe: Σ (Init_u + size/Th_u) of its work, i.e. the pipe's time if it never waited.
    std::vector<std::array<double, kPipeCount>> pipeNs;
    double busBytes = 0;  // all MTE2 and MTE3 bytes of all cores
    double busNs = 0;     // busBytes / B_bus (half duplex), or the slower direction (separate)
    double lowerBoundNs = 0; // max of the busiest pipe (plus its core's skew) and busNs

    bool operator==(const TraceBounds &) const = default;
};

TraceBounds traceBounds(const Trace &trace, const Machine &machine);

} // namespace roofline::verrocchio
