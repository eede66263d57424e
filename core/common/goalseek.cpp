#include "goalseek.h"

#include <cmath>
#include <cstdio>

namespace roofline {

namespace {

bool reaches(double value, double target)
{
    return value >= target - kSeekResultTolerance * std::abs(target);
}

double midpoint(double a, double b, bool logarithmic)
{
    if (logarithmic && a > 0 && b > 0)
        return std::sqrt(a) * std::sqrt(b); // geometric mean without overflow
    return a + (b - a) / 2;
}

bool narrowEnough(double a, double b)
{
    const double scale = std::max(1.0, std::max(std::abs(a), std::abs(b)));
    return std::abs(b - a) <= kSeekArgumentTolerance * scale;
}

} // namespace

MonotoneSeek seekMonotone(const std::function<double(double)> &goodness, double target, SeekRange range)
{
    MonotoneSeek out;
    if (!(range.lower < range.upper) || !std::isfinite(target)) {
        out.status = MonotoneSeek::Status::Failed;
        return out;
    }
    out.fLower = goodness(range.lower);
    out.fUpper = goodness(range.upper);
    out.evaluations = 2;
    if (!std::isfinite(out.fLower) || !std::isfinite(out.fUpper)) {
        out.status = MonotoneSeek::Status::Failed;
        out.x = !std::isfinite(out.fLower) ? range.lower : range.upper;
        return out;
    }
    const bool increasing = range.direction != 0 ? range.direction > 0 : out.fUpper >= out.fLower;
    const double flatness = kSeekResultTolerance * std::max(std::abs(out.fLower), std::abs(out.fUpper));
    if ((increasing && out.fUpper < out.fLower - flatness) || (!increasing && out.fLower < out.fUpper - flatness)) {
        out.status = MonotoneSeek::Status::NotMonotone; // the ends contradict the stated direction
        out.x = range.lower;
        out.fx = out.fLower;
        return out;
    }
    double good = increasing ? range.upper : range.lower;
    double bad = increasing ? range.lower : range.upper;
    const double fGood = std::max(out.fLower, out.fUpper);
    const double fBad = std::min(out.fLower, out.fUpper);
    if (!reaches(fGood, target)) {
        out.status = MonotoneSeek::Status::AboveRange;
        out.x = good;
        out.fx = fGood;
        return out;
    }
    if (reaches(fBad, target) && fBad > target + kSeekResultTolerance * std::abs(target)) {
        // Even the worst end is better than the target: the result cannot fall that low.
        out.status = MonotoneSeek::Status::BelowRange;
        out.x = bad;
        out.fx = fBad;
        return out;
    }
    if (reaches(fBad, target)) { // the bad end is already at the target, within tolerance
        out.status = MonotoneSeek::Status::Found;
        out.x = bad;
        out.fx = fBad;
        return out;
    }
    double fAtGood = fGood;
    for (int step = 0; step < 200 && !narrowEnough(bad, good); ++step) {
        const double mid = midpoint(bad, good, range.logarithmic);
        if (mid == bad || mid == good)
            break;
        const double f = goodness(mid);
        ++out.evaluations;
        if (!std::isfinite(f)) {
            out.status = MonotoneSeek::Status::Failed;
            out.x = mid;
            return out;
        }
        if (f >= target) {
            good = mid;
            fAtGood = f;
        } else {
            bad = mid;
        }
    }
    out.x = good;
    out.fx = fAtGood;
    // The model moved the wrong way inside the bracket: a jump, or not monotone.
    out.status = reaches(fAtGood, target) ? MonotoneSeek::Status::Found : MonotoneSeek::Status::NotMonotone;
    return out;
}

std::string seekNumber(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

} // namespace roofline
