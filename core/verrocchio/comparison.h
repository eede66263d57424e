// The headline of one simulation result against another (a pinned snapshot):
// total time and its change, the critical resource (the busiest pipe) and
// its busy fraction, and the bus contention time. Used by the timeline view's
// readout and the review bundle's snapshot table.
#pragma once

#include "simulation.h"

#include <array>
#include <optional>
#include <string>

namespace roofline::verrocchio {

struct Headline
{
    bool ok = true;        // false when the simulation stopped on an error
    double totalNs = 0;
    double contentionNs = 0;
    // Per pipe (indexed by pipeIndex): busy time / total time, the mean over cores.
    std::array<double, kPipeCount> busy{};
    // The critical resource: the pipe with the largest mean busy fraction
    // (ties: the first in lane order S, MTE2, MTE1, M, V, MTE3); none when
    // nothing was busy.
    std::optional<Pipe> critical;
    double criticalBusy = 0; // busy[critical], 0 when none

    bool operator==(const Headline &) const = default;
};

Headline headline(const Result &result);

struct Comparison
{
    Headline current;
    Headline baseline;
    double changeNs = 0;          // current − baseline total
    double relativeChange = 0;    // changeNs / baseline total (0 when that is 0)
    double contentionChangeNs = 0; // current − baseline contention time
    bool resourceMoved = false;   // the critical pipe differs

    bool operator==(const Comparison &) const = default;
};

Comparison compare(const Result &current, const Result &baseline);

// "total 12.3 µs, +20.5% vs baseline (10.2 µs); critical resource moved from
// MTE2 (busy 81.2%) to M (busy 90.1%); contention 1.2 µs (−300 ns)". Times
// are printed in ns, µs or ms by size, with four significant digits.
std::string summarize(const Comparison &comparison, const std::string &baselineName);

// "12.3 µs": the time unit that suits `ns`, four significant digits.
std::string formatDuration(double ns);

} // namespace roofline::verrocchio
