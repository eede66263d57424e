// How much the attainable performance moves when each parameter moves by a
// relative step (±10% by default): the data of a tornado chart, computed from
// the model, not from the plot.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace roofline::gables {

struct Sensitivity
{
    std::string pointer; // the parameter's JSON pointer, as --set names it: "/soc/bpeak_gbps"
    std::string label;   // "Bpeak", "GPU I", ...
    double lowValue = 0;  // the parameter at (1 − step), clamped to its range
    double highValue = 0; // at (1 + step)
    double lowGops = 0;   // P_att with lowValue
    double highGops = 0;  // P_att with highValue

    double swing() const { return highGops > lowGops ? highGops - lowGops : lowGops - highGops; }
    bool operator==(const Sensitivity &) const = default;
};

// Every parameter that can move: Ppeak, Bpeak, the memory-side memory's and
// the buses' bandwidths, and per active IP A_i, B_i, I_i, f_i (the other IPs
// rebalance as in the GUI) and m_i. Sorted by swing, largest first; ties keep
// that order.
//
// `threads` > 1 shares the parameters' evaluations among that many threads (the
// view's live tornado uses both cores, as AMAIX's does); the rows are the same
// whatever the count.
std::vector<Sensitivity> sensitivity(const Soc &soc, double relativeStep = 0.1, unsigned threads = 1);

} // namespace roofline::gables
