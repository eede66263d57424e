#include "fusiontest.h"

#include <algorithm>

namespace roofline::nnmeter::lab {

bool fusesByTest(double t1, double t2, double t12, double alpha)
{
    return t1 + t2 - t12 > alpha * std::min(t1, t2);
}

void decide(PairTiming &p, double alpha)
{
    const bool eq1 = fusesByTest(p.t1.medianMs, p.t2.medianMs, p.t12.medianMs, alpha);
    const bool twoPrimitives = p.primitives >= 2;
    p.fuses = eq1 && !twoPrimitives;
    p.noiseOnly = eq1 && twoPrimitives;
}

FusionRules rulesFromPairs(const std::vector<PairTiming> &pairs, const std::string &backend,
                           const std::string &description, const std::string &source, double alpha)
{
    FusionRules rules;
    rules.backend = backend;
    rules.description = description;
    rules.source = source;
    rules.multiOutbound = false;
    rules.multiInbound = true;
    for (const std::string &unit : unitNames())
        rules.units[unit] = true;
    for (const PairTiming &p : pairs) {
        FusionRule r;
        r.measured = true;
        r.t1Ms = p.t1.medianMs;
        r.t2Ms = p.t2.medianMs;
        r.t12Ms = p.t12.medianMs;
        PairTiming decided = p;
        decide(decided, alpha);
        r.fuses = decided.fuses;
        rules.pairs[p.first + "_" + p.second] = r;
    }
    return rules;
}

} // namespace roofline::nnmeter::lab
