#include "comparison.h"

#include "../common/diagnostics.h"

#include <cstdio>

namespace roofline::gables {

Comparison compare(const Soc &current, const Result &currentResult, const Soc &baseline, const Result &baselineResult)
{
    Comparison c;
    c.currentGops = currentResult.attainableGops;
    c.baselineGops = baselineResult.attainableGops;
    c.changeGops = c.currentGops - c.baselineGops;
    c.relativeChange = c.baselineGops > 0 ? c.changeGops / c.baselineGops : 0;
    c.currentBound = describe(currentResult.bound, current);
    c.baselineBound = describe(baselineResult.bound, baseline);
    c.boundMoved = c.currentBound != c.baselineBound;
    return c;
}

std::string summarize(const Comparison &c, const std::string &baselineName)
{
    char percent[32];
    std::snprintf(percent, sizeof percent, "%+.1f%%", c.relativeChange * 100);
    std::string out = "P_att " + formatNumber(c.currentGops, 4) + " Gops/s, " + percent + " vs " + baselineName + " ("
        + formatNumber(c.baselineGops, 4) + " Gops/s); ";
    out += c.boundMoved ? "bound moved from " + c.baselineBound + " to " + c.currentBound
                        : "bound unchanged: " + c.currentBound;
    return out;
}

} // namespace roofline::gables
