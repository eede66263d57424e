#include "geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::gables {

Roof scaledRoof(const Ip &ip, int index, double ppeakGops, Interval x)
{
    Roof roof;
    roof.kind = RoofKind::Ip;
    roof.ip = index;
    roof.ridge = ip.ridgeIntensity(ppeakGops);
    const double f = ip.fraction;
    auto value = [&](double i) { return std::min(ip.bandwidthGBps * i, ip.peakGops(ppeakGops)) / f; };
    roof.points.push_back({x.lower, value(x.lower)});
    if (roof.ridge > x.lower && roof.ridge < x.upper)
        roof.points.push_back({roof.ridge, value(roof.ridge)});
    roof.points.push_back({x.upper, value(x.upper)});
    return roof;
}

Roof bandwidthRoof(double bandwidthGBps, Interval x, RoofKind kind, int bus)
{
    Roof roof;
    roof.kind = kind;
    roof.bus = bus;
    roof.points = {{x.lower, bandwidthGBps * x.lower}, {x.upper, bandwidthGBps * x.upper}};
    return roof;
}

double roofValueAt(const Roof &roof, double x)
{
    const auto &p = roof.points;
    if (p.empty())
        return 0;
    if (x <= p.front().x)
        return p.front().y;
    if (x >= p.back().x)
        return p.back().y;
    for (std::size_t i = 1; i < p.size(); ++i) {
        if (x <= p[i].x) {
            // Straight in log-log space.
            const double t = (std::log(x) - std::log(p[i - 1].x)) / (std::log(p[i].x) - std::log(p[i - 1].x));
            return std::exp(std::log(p[i - 1].y) + t * (std::log(p[i].y) - std::log(p[i - 1].y)));
        }
    }
    return p.back().y;
}

namespace {
double decadeBelow(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decadeAbove(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }
} // namespace

PlotGeometry plotGeometry(const Soc &soc, const Result &result)
{
    return plotGeometry(soc, result, Interval{}, Interval{});
}

namespace {
// The held range `cover`, widened where `range` (the fit) reaches past it. A side
// that must grow grows a decade past the fit: a drag that pushed an axis once tends
// to push on the same way, and each widening redraws the whole plot and moves every
// roof on screen (docs/views/gables.md).
Interval covering(Interval range, Interval cover)
{
    if (!(cover.lower > 0 && cover.upper > cover.lower))
        return range; // nothing to cover
    return {range.lower < cover.lower ? range.lower / 10 : cover.lower,
            range.upper > cover.upper ? range.upper * 10 : cover.upper};
}
} // namespace

PlotGeometry plotGeometry(const Soc &soc, const Result &result, Interval coverX, Interval coverY)
{
    PlotGeometry g;

    // x: every operating intensity, I_avg and every ridge of an active IP.
    double xLo = std::numeric_limits<double>::max();
    double xHi = 0;
    auto includeX = [&](double v) {
        if (v > 0 && std::isfinite(v)) {
            xLo = std::min(xLo, v);
            xHi = std::max(xHi, v);
        }
    };
    for (const Ip &ip : soc.ips) {
        if (!ip.isActive())
            continue;
        includeX(ip.intensity);
        includeX(ip.ridgeIntensity(soc.ppeakGops));
    }
    includeX(result.averageIntensity);
    includeX(result.memoryIntensity);
    for (double bytes : result.busDataBytes) {
        if (bytes > 0)
            includeX(1.0 / bytes);
    }
    includeX(soc.ppeakGops / soc.bpeakGBps); // the memory roof's ridge against Ppeak
    if (xHi <= 0) {
        xLo = 0.1;
        xHi = 10;
    }
    g.xRange = {decadeBelow(xLo) / 10, decadeAbove(xHi) * 10};
    if (g.xRange.upper / g.xRange.lower < 1e3) // at least three decades, centred
        g.xRange = {g.xRange.lower / 10, g.xRange.upper * 10};
    g.xRange = covering(g.xRange, coverX);

    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        if (!soc.ips[i].isActive())
            continue;
        g.ipRoofs.push_back(scaledRoof(soc.ips[i], int(i), soc.ppeakGops, g.xRange));
        g.selections.push_back({RoofKind::Ip, int(i), -1, {soc.ips[i].intensity, result.ips[i].scaledRoofGops}});
    }
    g.memoryRoof = bandwidthRoof(soc.bpeakGBps, g.xRange);
    if (result.memoryIntensity > 0)
        g.selections.push_back({RoofKind::Memory, -1, -1, {result.memoryIntensity, soc.bpeakGBps * result.memoryIntensity}});
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0) {
        g.extraRoofs.push_back(bandwidthRoof(soc.msmBandwidthGBps, g.xRange, RoofKind::MemorySideMemory));
        if (result.averageIntensity > 0)
            g.selections.push_back({RoofKind::MemorySideMemory, -1, -1,
                                    {result.averageIntensity, soc.msmBandwidthGBps * result.averageIntensity}});
    }
    for (std::size_t j = 0; j < soc.buses.size() && j < result.busDataBytes.size(); ++j) {
        if (result.busDataBytes[j] <= 0)
            continue; // an idle bus sets no bound
        const double at = 1.0 / result.busDataBytes[j];
        g.extraRoofs.push_back(bandwidthRoof(soc.buses[j].bandwidthGBps, g.xRange, RoofKind::Bus, int(j)));
        g.selections.push_back({RoofKind::Bus, -1, int(j), {at, soc.buses[j].bandwidthGBps * at}});
    }

    if (soc.serialized) {
        // No roof selects the serialized time; the point sits at I_avg.
        g.attainable = {result.averageIntensity, result.attainableGops};
    } else if (!g.selections.empty()) {
        // Equation 8: the attainable point is the lowest selected point; its height is P_att.
        g.attainable = std::min_element(g.selections.begin(), g.selections.end(), [](const Selection &a,
                                                                                     const Selection &b) {
                           return a.selected.y < b.selected.y;
                       })->selected;
    }

    // y: from a decade under the attainable point to a decade over the highest
    // flat roof or selected point, so every roof's knee is visible.
    double yLo = result.attainableGops > 0 ? result.attainableGops : 1;
    double yHi = yLo;
    for (const Selection &s : g.selections) {
        yLo = std::min(yLo, s.selected.y);
        yHi = std::max(yHi, s.selected.y);
    }
    for (const Roof &roof : g.ipRoofs)
        yHi = std::max(yHi, roof.points.back().y);
    // An IP with a tiny f_i has a scaled roof far above everything that matters;
    // keep at most ten decades so the binding roofs stay readable.
    yHi = std::min(yHi, yLo * 1e8);
    g.yRange = covering({decadeBelow(yLo) / 10, decadeAbove(yHi) * 10}, coverY);
    return g;
}

} // namespace roofline::gables
