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

void decide(ShapeTest &t, double alpha)
{
    const bool eq1 = fusesByTest(t.t1.medianMs, t.t2.medianMs, t.t12.medianMs, alpha);
    const bool twoPrimitives = t.primitives >= 2;
    t.fuses = eq1 && !twoPrimitives;
    t.noiseOnly = eq1 && twoPrimitives;
}

int PairTiming::shapesFused() const
{
    return int(std::count_if(shapes.begin(), shapes.end(), [](const ShapeTest &t) { return t.fuses; }));
}

void decideOverShapes(PairTiming &p, double alpha)
{
    if (p.shapes.empty()) {
        decide(p, alpha);
        return;
    }
    int noise = 0;
    for (ShapeTest &t : p.shapes) {
        decide(t, alpha);
        noise += t.noiseOnly;
    }
    const ShapeTest &first = p.shapes.front();
    p.t1 = first.t1;
    p.t2 = first.t2;
    p.t12 = first.t12;
    p.primitives = first.primitives;
    const int n = int(p.shapes.size());
    p.fuses = 2 * p.shapesFused() > n;
    p.noiseOnly = !p.fuses && 2 * noise > n;
}

bool majoritySettled(int fused, int tested, int planned)
{
    const int separate = tested - fused;
    return 2 * fused > planned || 2 * separate >= planned;
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
        decideOverShapes(decided, alpha);
        r.fuses = decided.fuses;
        r.shapesTested = int(decided.shapes.size());
        r.shapesFused = decided.shapesFused();
        rules.pairs[p.first + "_" + p.second] = r;
    }
    return rules;
}

} // namespace roofline::nnmeter::lab
