// What a user (the studio's sliders and rule check boxes, --set, sensitivity,
// goal seek) may change on an nn-Meter device, by JSON pointer into the device
// file (docs/file-formats-nnmeter.md), and what follows from changing it:
//
//   /peak_gflops, /bandwidth_gbps, /kernel_overhead_us        the roofline numbers
//   /efficiency/<kind>/compute, /efficiency/<kind>/memory     per kernel kind, or "default"
//   /fusions/BF_<a>_<b>                                       true/false (1/0): a pair rule
//   /multi_outbound, /multi_inbound                           seed Fig. 4(b) and 4(c)
//   /units/<name>                                             a fusion unit on or off
//
// The rules are the device's `rules` (its rules file, as edited).
#pragma once

#include "predict.h"
#include "../common/diagnostics.h"
#include "../common/goalseek.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline::nnmeter {

// A number of the device a slider, the tornado or goal seek can vary.
struct NumberParameter
{
    std::string pointer; // "/peak_gflops"
    std::string label;   // "P_peak"
    std::string unit;    // "GFLOP/s"
    double lower = 0;    // what the file format accepts
    double upper = 0;
    bool upperInclusive = true;
};

// The numbers of `device`: peak, bandwidth, overhead, then the efficiencies
// the device lists (default first).
std::vector<NumberParameter> numberParameters(const Device &device);
std::optional<double> numberValue(const Device &device, const std::string &pointer);

// Applies "POINTER=VALUE" to `device` (numbers as above; rules and units take
// true/false, on/off or 1/0). False with an error naming the pointer and the
// reason; `device` is then unchanged.
bool applyOverride(Device &device, const std::string &assignment, Diagnostics &diagnostics);

// The tornado: the kernel sum when one number alone moves by ±step (an
// efficiency is kept at most 1; a number at 0 is left out), largest swing first.
struct Sensitivity
{
    std::string label;
    std::string pointer;
    double lowValue = 0, highValue = 0; // the number at (1 − step) and (1 + step)
    double lowMs = 0, highMs = 0;       // the kernel sum there
};
std::vector<Sensitivity> sensitivity(const network::Network &net, const Device &device, double relativeStep);

// Goal seek on the kernel sum (ms): the value of one number (a rate, an
// efficiency or the overhead) at which the predicted latency reaches
// `targetMs`, by seekMonotone() (every kernel's analytical time is
// non-increasing in a rate and non-decreasing in the overhead). Learned
// kernels do not move with the device's numbers, so they cap what a rate can reach.
GoalSeek seekLatency(const network::Network &net, const Device &device, const std::string &pointer, double targetMs);

} // namespace roofline::nnmeter
