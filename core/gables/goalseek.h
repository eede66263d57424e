// Gables goal seek and the readouts that state the answer: the value of one
// parameter at which P_att reaches a target, the headroom to the next bound,
// and the value of each roof where the vertical lines meet it.
// docs/models/gables.md, "Goal seek and headroom".
#pragma once

#include "geometry.h"
#include "model.h"
#include "../common/goalseek.h"

#include <string>
#include <vector>

namespace roofline::gables {

enum class SeekMethod {
    ClosedForm, // exact: every term is a_k + b_k·u in u = 1/parameter (u = m_i for a miss ratio)
    Bracketed   // seekMonotone() on evaluate(): the check of the closed form, and serialized work
};

// The parameter named by `pointer` (as --set names it: /soc/ppeak_gops,
// /soc/bpeak_gbps, /soc/ips/<IP>/acceleration, /soc/ips/<IP>/bandwidth_gbps,
// /soc/memory_side_memory/bandwidth_gbps, /soc/buses/<bus>/bandwidth_gbps,
// /use_case/work/<IP>/intensity_ops_per_byte, /use_case/work/<IP>/miss_ratio;
// <IP> a name or an index) such that P_att = targetGops. Work fractions are
// refused (P_att is not monotone in f_i when the others rebalance).
// Serialized work is solved by the bracketed search whatever `method` says.
// Ranges sought: rates and intensities [1e-9, 1e9], accelerations [1e-9, 1e6],
// miss ratios [0, 1].
GoalSeek seekAttainable(const Soc &soc, const std::string &pointer, double targetGops,
                        SeekMethod method = SeekMethod::ClosedForm);

// How far the binding term can move before another one binds:
// "memory bound; 1.8× more Bpeak before IP[1] GPU link limits".
struct Headroom
{
    bool available = false;   // false for serialized work (no single next bound)
    Term binding;             // the term that sets T now (the first when balanced)
    Term next;                // the largest term of the others
    std::string pointer;      // the binding term's parameter: /soc/bpeak_gbps, /soc/ips/<IP>/bandwidth_gbps, ...
    std::string label;        // "Bpeak", "GPU B", "CPU A", "B_msm", "bus NoC"
    double factor = 1;        // T_binding / T_next: how many times more of the parameter before `next` binds
    double nextGops = 0;      // P_att then: 1/T_next
    std::string message;      // the sentence above; "balanced (...): raise them together" when factor is 1
};
Headroom headroom(const Soc &soc, const Result &result);

// Where a vertical line meets its roof (seed 003, III.C): the value read off
// the plot, labelled, for every selection of plotGeometry().
struct RoofReading
{
    Selection selection;
    std::string name;   // "IP[1] GPU", "memory", "memory-side memory", "bus NoC"
    double intensity = 0; // x of the line, ops/byte
    double gops = 0;      // the roof's value there, Gops/s
    bool binding = false; // the lowest: this reading is P_att (concurrent work)
};
std::vector<RoofReading> roofReadings(const Soc &soc, const Result &result, const PlotGeometry &geometry);

} // namespace roofline::gables
