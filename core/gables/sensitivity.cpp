#include "sensitivity.h"

#include "io.h"

#include "../common/shares.h"

#include <algorithm>

namespace roofline::gables {

namespace {

// One parameter to move: which number of the SoC, its row's names, its range.
struct Probe
{
    enum class Kind { Ppeak, Bpeak, Msm, Bus, Acceleration, Bandwidth, Intensity, Fraction, MissRatio };
    Kind kind = Kind::Ppeak;
    std::size_t index = 0; // the IP or bus
    double current = 0;
    double lo = 0, hi = 0;
    std::string pointer, label;
};

// Sets the probed number of `s` to `value` (a fraction rebalances the others, as in the GUI).
void set(Soc &s, const Probe &p, double value)
{
    switch (p.kind) {
    case Probe::Kind::Ppeak: s.ppeakGops = value; break;
    case Probe::Kind::Bpeak: s.bpeakGBps = value; break;
    case Probe::Kind::Msm: s.msmBandwidthGBps = value; break;
    case Probe::Kind::Bus: s.buses[p.index].bandwidthGBps = value; break;
    case Probe::Kind::Acceleration: s.ips[p.index].acceleration = value; break;
    case Probe::Kind::Bandwidth: s.ips[p.index].bandwidthGBps = value; break;
    case Probe::Kind::Intensity: s.ips[p.index].intensity = value; break;
    case Probe::Kind::Fraction: setFraction(s.ips, p.index, value); break;
    case Probe::Kind::MissRatio: s.ips[p.index].missRatio = value; break;
    }
}

// Puts back what set() changed, from the unchanged SoC.
void restore(Soc &s, const Probe &p, const Soc &original)
{
    if (p.kind != Probe::Kind::Fraction) {
        set(s, p, p.current);
        return;
    }
    for (std::size_t k = 0; k < s.ips.size(); ++k) // setFraction rebalanced the others: every share back
        s.ips[k].fraction = original.ips[k].fraction;
}

} // namespace

std::vector<Sensitivity> sensitivity(const Soc &soc, double relativeStep, unsigned threads)
{
    std::vector<Probe> probes;
    probes.reserve(3 + soc.buses.size() + 5 * soc.ips.size());
    constexpr double kMinRate = 1e-9; // keeps every probed rate > 0
    using K = Probe::Kind;
    auto add = [&](K kind, std::size_t index, std::string pointer, std::string label, double current, double lo,
                   double hi) { probes.push_back({ kind, index, current, lo, hi, std::move(pointer), std::move(label) }); };
    add(K::Ppeak, 0, "/soc/ppeak_gops", "Ppeak", soc.ppeakGops, kMinRate, Limits::maxRate);
    add(K::Bpeak, 0, "/soc/bpeak_gbps", "Bpeak", soc.bpeakGBps, kMinRate, Limits::maxRate);
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
        add(K::Msm, 0, "/soc/memory_side_memory/bandwidth_gbps", "B_msm", soc.msmBandwidthGBps, kMinRate,
            Limits::maxRate);
    for (std::size_t j = 0; j < soc.buses.size(); ++j)
        add(K::Bus, j, "/soc/buses/" + soc.buses[j].name + "/bandwidth_gbps", "bus " + soc.buses[j].name,
            soc.buses[j].bandwidthGBps, kMinRate, Limits::maxRate);
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        if (!ip.isActive())
            continue; // an idle IP's parameters change nothing
        const std::string hw = "/soc/ips/" + ip.name;
        const std::string work = "/use_case/work/" + ip.name;
        add(K::Acceleration, i, hw + "/acceleration", ip.name + " A", ip.acceleration, kMinRate, Limits::maxAcceleration);
        add(K::Bandwidth, i, hw + "/bandwidth_gbps", ip.name + " B", ip.bandwidthGBps, kMinRate, Limits::maxRate);
        add(K::Intensity, i, work + "/intensity_ops_per_byte", ip.name + " I", ip.intensity, kMinRate,
            Limits::maxIntensity);
        if (soc.ips.size() > 1)
            add(K::Fraction, i, work + "/fraction", ip.name + " f", ip.fraction, 0, 1);
        if (soc.memorySideMemory)
            add(K::MissRatio, i, work + "/miss_ratio", ip.name + " m", ip.missRatio, 0, 1);
    }

    std::vector<Sensitivity> out(probes.size());
    // Rows [begin, end) on a private working copy, put back after each probe (a copy
    // per evaluation cost as much as the evaluations at 64 IPs: docs/performance.md);
    // attainableGops() is evaluate()'s P_att without building its Result.
    auto fill = [&](std::size_t begin, std::size_t end) {
        Soc changed = soc;
        for (std::size_t k = begin; k < end; ++k) {
            Probe &p = probes[k];
            Sensitivity &s = out[k];
            s.pointer = std::move(p.pointer);
            s.label = std::move(p.label);
            s.lowValue = std::clamp(p.current * (1 - relativeStep), p.lo, p.hi);
            s.highValue = std::clamp(p.current * (1 + relativeStep), p.lo, p.hi);
            set(changed, p, s.lowValue);
            s.lowGops = attainableGops(changed);
            restore(changed, p, soc);
            set(changed, p, s.highValue);
            s.highGops = attainableGops(changed);
            restore(changed, p, soc);
        }
    };
    fillInShares(probes.size(), threads, fill);
    std::stable_sort(out.begin(), out.end(),
                     [](const Sensitivity &a, const Sensitivity &b) { return a.swing() > b.swing(); });
    return out;
}

} // namespace roofline::gables
