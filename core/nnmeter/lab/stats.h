// Timing statistics of the kernel lab: the median of repeated runs and the
// noise seen around it (interquartile range and median absolute deviation).
// A shared 2-core machine is noisy, so every figure the lab writes carries its
// spread; the median is robust to the occasional run another process spoils.
#pragma once

#include <vector>

namespace roofline::nnmeter::lab {

struct TimingStats
{
    double medianMs = 0;
    double iqrMs = 0; // third minus first quartile
    double madMs = 0; // median absolute deviation from the median
    double minMs = 0;
    int repetitions = 0;
    // Relative noise, IQR / median (0 when the median is 0).
    double relativeIqr() const { return medianMs > 0 ? iqrMs / medianMs : 0; }
    bool operator==(const TimingStats &) const = default;
};

// Quantile q in [0, 1] of the values, linear between order statistics
// (the "type 7" rule of R and NumPy). 0 for no values.
double quantile(std::vector<double> values, double q);
TimingStats summarize(const std::vector<double> &samplesMs);

} // namespace roofline::nnmeter::lab
