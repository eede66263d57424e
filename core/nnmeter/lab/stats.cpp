#include "stats.h"

#include <algorithm>
#include <cmath>

namespace roofline::nnmeter::lab {

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(q, 0.0, 1.0) * double(v.size() - 1);
    const auto lo = std::size_t(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

TimingStats summarize(const std::vector<double> &samples)
{
    TimingStats s;
    s.repetitions = int(samples.size());
    if (samples.empty())
        return s;
    s.medianMs = quantile(samples, 0.5);
    s.iqrMs = quantile(samples, 0.75) - quantile(samples, 0.25);
    std::vector<double> dev;
    dev.reserve(samples.size());
    for (double x : samples)
        dev.push_back(std::abs(x - s.medianMs));
    s.madMs = quantile(dev, 0.5);
    s.minMs = *std::min_element(samples.begin(), samples.end());
    return s;
}

} // namespace roofline::nnmeter::lab
