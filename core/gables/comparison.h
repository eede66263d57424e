// The headline of one configuration against another (a pinned snapshot):
// attainable performance, its change, and whether the bound moved.
#pragma once

#include "model.h"

#include <string>

namespace roofline::gables {

struct Comparison
{
    double currentGops = 0;
    double baselineGops = 0;
    double changeGops = 0;     // current − baseline
    double relativeChange = 0; // change / baseline (0 when the baseline is 0)
    std::string currentBound;  // describe(bound, soc) of each
    std::string baselineBound;
    bool boundMoved = false;

    bool operator==(const Comparison &) const = default;
};

Comparison compare(const Soc &current, const Result &currentResult, const Soc &baseline, const Result &baselineResult);

// "P_att 160 Gops/s, +20.5% vs baseline (132.8 Gops/s); bound moved from memory to IP[1] GPU link"
std::string summarize(const Comparison &comparison, const std::string &baselineName);

} // namespace roofline::gables
