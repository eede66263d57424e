// Pure geometry of the Gables plot (seed 003, section III.C): what to draw,
// in data coordinates, independent of any toolkit. The views only paint it.
#pragma once

#include "model.h"

#include <vector>

namespace roofline::gables {

struct Point
{
    double x = 0; // operational intensity, ops/byte
    double y = 0; // performance, Gops/s
    bool operator==(const Point &) const = default;
};

struct Interval
{
    double lower = 0;
    double upper = 0;
    bool operator==(const Interval &) const = default;
};

enum class RoofKind { Ip, Memory, MemorySideMemory, Bus };

// A roof drawn as a polyline over the x range (straight on log-log axes).
struct Roof
{
    RoofKind kind = RoofKind::Memory;
    int ip = -1;               // for RoofKind::Ip
    int bus = -1;              // for RoofKind::Bus
    std::vector<Point> points; // sorted by x; includes the ridge when inside the range
    double ridge = 0;          // x where the slanted part meets the flat part (0 for memory)
    bool operator==(const Roof &) const = default;
};

// A "vertical line" at an operating intensity (seed 003, III.C), from the
// bottom of the plot up to the point it selects on its roof.
struct Selection
{
    RoofKind kind = RoofKind::Memory;
    int ip = -1;     // for RoofKind::Ip
    int bus = -1;    // for RoofKind::Bus
    // (I_i, Scaled_i(I_i)); (I_avg, Bpeak I_avg) on the memory roof (I_mem with
    // miss ratios); (I_avg, B_msm I_avg); (I_bus, B_bus I_bus), I_bus = 1/Σ_{i on bus} D_i.
    Point selected;
    bool operator==(const Selection &) const = default;
};

struct PlotGeometry
{
    Interval xRange; // whole decades, with margin
    Interval yRange;
    std::vector<Roof> ipRoofs; // one per active IP, in IP order
    Roof memoryRoof;
    std::vector<Roof> extraRoofs;      // the memory-side memory, then each bus that carries data
    std::vector<Selection> selections; // active IPs in order, then memory, then the extra roofs
    Point attainable;                  // the lowest selected point (equation 8); (I_avg, P_att) when serialized
    bool operator==(const PlotGeometry &) const = default;
};

// Roof_i(I)/f_i = min(B_i I, A_i Ppeak)/f_i over [xMin, xMax]; requires f_i > 0.
Roof scaledRoof(const Ip &ip, int index, double ppeakGops, Interval x);
// bandwidth * I over [xMin, xMax].
Roof bandwidthRoof(double bandwidthGBps, Interval x, RoofKind kind = RoofKind::Memory, int bus = -1);

// Axis ranges that show every ridge, every selected point and the attainable
// point with a decade of margin, snapped to whole decades.
PlotGeometry plotGeometry(const Soc &soc, const Result &result);
// The same, with ranges that also cover `coverX` and `coverY` (an empty
// interval covers nothing), the roofs drawn across the wider range: the
// axes a live edit started from, held still while a slider moves. A side
// the fit reaches past grows a decade beyond the fit, so a drag that keeps
// going the same way does not widen the axes again at the next step.
PlotGeometry plotGeometry(const Soc &soc, const Result &result, Interval coverX, Interval coverY);

// Value of a polyline roof at x (log-log interpolation, clamped to the ends).
double roofValueAt(const Roof &roof, double x);

} // namespace roofline::gables
