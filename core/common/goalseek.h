// Goal seek: the value of one parameter at which a model's result reaches a
// target ("60 FPS needs DRAM ≥ 41.3 GB/s"), or why no value does ("no Bpeak
// reaches 200 Gops/s: IP[0] CPU compute caps it at 75").
//
// Every model's goal seek (core/gables/goalseek.h, core/amaix/goalseek.h,
// core/verrocchio/goalseek.h) returns a GoalSeek. Gables solves exactly (its
// attainable performance is piecewise in each parameter); the others use
// seekMonotone() below, a bracketed bisection on a result that moves one way
// only as the parameter grows.
#pragma once

#include <functional>
#include <string>

namespace roofline {

struct GoalSeek
{
    enum class Status {
        Found,       // `value` reaches the target
        Unreachable, // no value in the parameter's range does; `limitedBy` says what stops it
        Invalid      // the parameter or the target cannot be sought; `message` says why
    };
    Status status = Status::Invalid;
    std::string pointer; // the parameter, as --set names it: "/soc/bpeak_gbps"
    std::string label;   // "Bpeak", "DRAM bandwidth", "MTE2 Th"
    std::string unit;    // of the parameter: "GB/s"
    std::string target;  // what was sought, in words: "P_att 200 Gops/s", "60 FPS", "total 10 µs"
    double targetValue = 0; // in the model's unit: Gops/s, ns, FPS
    double from = 0;        // the parameter now
    double value = 0;       // Found: the value that reaches the target; when a range of values does
                            // (a plateau), its end nearest the bad side, so `relation` holds;
                            // Unreachable: the end of the range that comes nearest
    double achieved = 0;    // the result at `value`, in the target's unit
    double cap = 0;         // Unreachable: the best (or, for a target worse than now, the worst)
                            // result any value in range gives
    std::string limitedBy;  // Unreachable: the bound that stops it ("IP[0] CPU compute")
    std::string relation;   // "≥" or "≤": every value on that side of `value` reaches the target too
    std::string message;    // one line for a person
    int evaluations = 0;    // model evaluations spent (0 for a closed form)

    bool found() const { return status == Status::Found; }
};

// The range a parameter is sought in, and how to bisect it.
struct SeekRange
{
    double lower = 0;
    double upper = 0;
    bool logarithmic = true; // bisect in log space (rates, sizes); linear for ratios such as m_i ∈ [0, 1]
    int direction = 0;       // +1: the result gets better as the value grows (a rate), −1: worse (a
                             // latency, a miss ratio), 0: judged from the two ends. Decides which end
                             // is the bad one when the result is flat over the range.
};

struct MonotoneSeek
{
    enum class Status { Found, BelowRange, AboveRange, NotMonotone, Failed };
    Status status = Status::Failed;
    double x = 0;        // Found: the boundary; otherwise the end of the range whose result is nearest the target
    double fx = 0;       // the result at x
    double fLower = 0;   // the result at the two ends of the range
    double fUpper = 0;
    int evaluations = 0;
};

// Relative tolerances of seekMonotone(): the bracket is narrowed until its
// ends differ by kSeekArgumentTolerance (relative, or absolute below 1), and a
// result within kSeekResultTolerance of the target counts as reaching it.
inline constexpr double kSeekArgumentTolerance = 1e-12;
inline constexpr double kSeekResultTolerance = 1e-6;

// Finds x in [range.lower, range.upper] with goodness(x) = target, where
// goodness moves one way only (non-decreasing or non-increasing) over the
// range and larger is better (pass −time for a time). Returns the boundary of
// the set {x : goodness(x) ≥ target} (so that every x beyond it on the better
// side reaches the target too): bisection keeping goodness(bad end) < target
// ≤ goodness(good end), at most 200 steps. `goodness` returns NaN for a value
// the model rejects; the search then reports Failed. When the target is
// outside [min, max] of the two ends, Below/AboveRange.
MonotoneSeek seekMonotone(const std::function<double(double)> &goodness, double target, SeekRange range);

// "≥ 41.3 GB/s" style helpers shared by the models' messages.
std::string seekNumber(double value); // four significant digits: 41.25 → "41.25", 1.23456e10 → "1.235e+10"

} // namespace roofline
