// Fusion-rule detection (seed 004 section 4, eq. 1): two operators in a row
// fuse on a backend when running them together saves a good part of the
// cheaper one,
//     T1 + T2 − T12 > α · min(T1, T2),   α = 0.5,
// where T1 and T2 are each alone and T12 the pair run as the backend runs it.
// This file is the decision and the rule file it produces, free of timing, so
// it is tested on synthetic times; lab.cpp measures the times.
#pragma once

#include "../kernels.h"
#include "stats.h"

#include <string>
#include <vector>

namespace roofline::nnmeter::lab {

inline constexpr double kSeedAlpha = 0.5;

// Seed eq. 1.
bool fusesByTest(double t1Ms, double t2Ms, double t12Ms, double alpha = kSeedAlpha);

// One run of the test on one input shape.
struct ShapeTest
{
    network::Shape input;      // the first operator's input (C x H x W, batch 1)
    TimingStats t1, t2, t12;
    int primitives = 0;        // oneDNN primitives the pair ran as (1: oneDNN fused it; 0: unknown)
    bool fuses = false;        // decide() on this shape alone
    bool noiseOnly = false;
};

struct PairTiming
{
    std::string first, second; // nn-Meter operator names
    // The test on the first shape (the rule file keeps these times).
    TimingStats t1, t2, t12;
    int primitives = 0;        // oneDNN primitives the pair ran as (1: oneDNN fused it; 0: unknown)
    bool fuses = false;        // decide(): eq. 1 on the medians, and run as one primitive (the majority of shapes)
    bool noiseOnly = false;    // eq. 1 held but the pair ran as two primitives: noise, not fusion
    // Every shape the pair was tested on (empty: only the fields above, one shape).
    std::vector<ShapeTest> shapes;
    int shapesFused() const;
};

// The lab's decision for one pair: seed eq. 1 on the medians; a pair the
// backend demonstrably ran as two primitives is not fused even when eq. 1
// holds — with a cheap second operator (T2 a few µs beside a T1 of tens) the
// noise of T1 alone can satisfy eq. 1, and a rule must not rest on noise.
// Sets p.fuses and p.noiseOnly.
void decide(PairTiming &p, double alpha = kSeedAlpha);
void decide(ShapeTest &t, double alpha = kSeedAlpha);

// Over several shapes (the seed's test cases vary the operators'
// configurations; one shape can sit where a cheap operator is all noise): each
// shape decided alone, the rule by strict majority — a pair fuses when more
// than half of its shapes fuse (a tie does not fuse). noiseOnly when a
// majority held eq. 1 only by noise. The first shape's times become the
// pair's t1, t2, t12 and primitives. Without shapes, decide(p) as for one.
void decideOverShapes(PairTiming &p, double alpha = kSeedAlpha);
// True once `fused` of `tested` shapes out of `planned` settle the majority
// whatever the rest give (the lab then skips the rest).
bool majoritySettled(int fused, int tested, int planned);

// The rules file of the backend: one measured BF_<first>_<second> per pair
// (decide()), the connection rules as the runner executes them
// (multi-outbound never fuses: a oneDNN post-op replaces its primitive's
// output, so a node with two consumers would be computed twice; multi-inbound
// fuses, as the binary post-op reads the other operand) and every fusion unit
// on (units are graph patterns, not pair timings).
FusionRules rulesFromPairs(const std::vector<PairTiming> &pairs, const std::string &backend,
                           const std::string &description, const std::string &source, double alpha = kSeedAlpha);

} // namespace roofline::nnmeter::lab
