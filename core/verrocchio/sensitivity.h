// How much the total time of a trace moves when one machine parameter alone
// moves by a relative step (±10 % by default): the data of the timeline
// view's tornado chart, computed by simulating, never read off the screen.
//
// The parameters are those that can change the total time of this trace:
//  - Th_u and Init_u of every pipe that executes at least one work
//    instruction (Th_u only when some of that work has a non-zero size);
//  - the bus: B_bus in half-duplex mode, the read (MTE2) and write (MTE3)
//    bandwidths in separate mode, each only when the trace moves data that way;
//  - the skew δt, when the trace has more than one core.
// Parameters whose value is 0 (an Init or a skew of 0) are left out: a
// relative step does not move them. The core count N is left out too: it
// only has to be at least the trace's core count (extra cores stay idle,
// fewer make the trace invalid), so ±1 core is no sensitivity of the total.
// Moved values are clamped to the valid range: rates stay at least 1 % of
// their value (a rate must stay > 0) and at most Limits::maxRate; times stay
// within [0, their Limits maximum].
#pragma once

#include "simulation.h"
#include "trace.h"

#include <functional>
#include <string>
#include <vector>

namespace roofline::verrocchio {

struct Sensitivity
{
    std::string pointer; // as --set names it: "/pipes/MTE2/bandwidth_gbps", "/bus/bandwidth_gbps"
    std::string label;   // "MTE2 Th", "MTE2 Init", "B_bus", "Read BW", "Write BW", "Skew δt"
    std::string unit;    // of the value: "GB/s", "Gops/s", "ns"
    double value = 0;     // the machine's value
    double lowValue = 0;  // at (1 − step), clamped
    double highValue = 0; // at (1 + step), clamped
    double lowNs = 0;     // total time with lowValue
    double highNs = 0;    // total time with highValue

    double swing() const { return highNs > lowNs ? highNs - lowNs : lowNs - highNs; }
    bool operator==(const Sensitivity &) const = default;
};

// The rows sorted by swing, largest first (ties keep the order of the list
// above). Empty when the step is not a finite number in (0, 1], when the trace
// does not run to its end on this machine (a deadlock, too few cores), or when
// `cancelled` returns true (checked before every simulation).
std::vector<Sensitivity> sensitivity(const Trace &trace, const Machine &machine, double relativeStep = 0.1,
                                     const std::function<bool()> &cancelled = {});

} // namespace roofline::verrocchio
