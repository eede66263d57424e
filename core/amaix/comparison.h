// The headline of one AMAIX configuration against another (a pinned
// snapshot): inference time and FPS, their change, and how many timed layers
// are compute-bound in each. Pure, for the studio's comparison readout and
// the review bundle's snapshot table.
#pragma once

#include "layersummary.h"
#include "model.h"

#include <string>

namespace roofline::amaix {

struct SnapshotComparison {
    bool currentOk = false; // the configurations evaluated (Result::ok())
    bool baselineOk = false;
    double currentNs = 0; // total inference time
    double baselineNs = 0;
    double changeNs = 0; // current − baseline (0 unless both are ok)
    double relativeChange = 0; // change / baseline (0 unless both are ok)
    double currentFps = 0;
    double baselineFps = 0;
    int currentComputeBound = 0; // timed layers that are compute-bound
    int baselineComputeBound = 0;
    int currentTimed = 0;
    int baselineTimed = 0;
    std::string baselineError; // why the baseline does not evaluate

    bool operator==(const SnapshotComparison &) const = default;
};

SnapshotComparison compareSnapshot(const Result &current, const SummaryTotals &currentTotals, const Result &baseline,
    const SummaryTotals &baselineTotals);

// "Inference 5.32 ms (188 FPS), −12.4% (−0.75 ms) vs baseline (6.07 ms); compute-bound layers 14 → 18".
// Times in the unit that suits the current time (ns, µs, ms, s), 4 significant
// digits; "+0.0% (+0 ms)" for no change. When either side does not evaluate the
// text says which and why.
std::string summarize(const SnapshotComparison &comparison, const std::string &baselineName);

} // namespace roofline::amaix
