#include "sensitivity.h"

#include "io.h"

#include <algorithm>
#include <functional>

namespace roofline::gables {

std::vector<Sensitivity> sensitivity(const Soc &soc, double relativeStep)
{
    std::vector<Sensitivity> out;
    // One working copy, put back after each probe (copying the whole SoC for each of the
    // 2 + 4 per IP probes cost as much as the evaluations at 64 IPs: docs/performance.md).
    Soc changed = soc;
    // Evaluates P_att with one parameter set to `value` by `set`; `restore` puts back
    // what `set` changed (by default: `set` with the current value).
    auto probe = [&](std::string pointer, std::string label, double current, double lo, double hi,
                     const std::function<void(Soc &, double)> &set,
                     const std::function<void(Soc &)> &restore = nullptr) {
        Sensitivity s;
        s.pointer = std::move(pointer);
        s.label = std::move(label);
        s.lowValue = std::clamp(current * (1 - relativeStep), lo, hi);
        s.highValue = std::clamp(current * (1 + relativeStep), lo, hi);
        const auto putBack = [&] {
            if (restore)
                restore(changed);
            else
                set(changed, current);
        };
        set(changed, s.lowValue);
        s.lowGops = evaluate(changed).attainableGops;
        putBack();
        set(changed, s.highValue);
        s.highGops = evaluate(changed).attainableGops;
        putBack();
        out.push_back(std::move(s));
    };
    constexpr double kMinRate = 1e-9; // keeps every probed rate > 0
    probe("/soc/ppeak_gops", "Ppeak", soc.ppeakGops, kMinRate, Limits::maxRate,
          [](Soc &s, double v) { s.ppeakGops = v; });
    probe("/soc/bpeak_gbps", "Bpeak", soc.bpeakGBps, kMinRate, Limits::maxRate,
          [](Soc &s, double v) { s.bpeakGBps = v; });
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
        probe("/soc/memory_side_memory/bandwidth_gbps", "B_msm", soc.msmBandwidthGBps, kMinRate, Limits::maxRate,
              [](Soc &s, double v) { s.msmBandwidthGBps = v; });
    for (std::size_t j = 0; j < soc.buses.size(); ++j)
        probe("/soc/buses/" + soc.buses[j].name + "/bandwidth_gbps", "bus " + soc.buses[j].name,
              soc.buses[j].bandwidthGBps, kMinRate, Limits::maxRate,
              [j](Soc &s, double v) { s.buses[j].bandwidthGBps = v; });

    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        if (!ip.isActive())
            continue; // an idle IP's parameters change nothing
        const std::string hw = "/soc/ips/" + ip.name;
        const std::string work = "/use_case/work/" + ip.name;
        probe(hw + "/acceleration", ip.name + " A", ip.acceleration, kMinRate, Limits::maxAcceleration,
              [i](Soc &s, double v) { s.ips[i].acceleration = v; });
        probe(hw + "/bandwidth_gbps", ip.name + " B", ip.bandwidthGBps, kMinRate, Limits::maxRate,
              [i](Soc &s, double v) { s.ips[i].bandwidthGBps = v; });
        probe(work + "/intensity_ops_per_byte", ip.name + " I", ip.intensity, kMinRate, Limits::maxIntensity,
              [i](Soc &s, double v) { s.ips[i].intensity = v; });
        if (soc.ips.size() > 1)
            probe(work + "/fraction", ip.name + " f", ip.fraction, 0, 1,
                  [i](Soc &s, double v) { setFraction(s.ips, i, v); },
                  [&soc](Soc &s) { // setFraction rebalances the others: every share back
                      for (std::size_t k = 0; k < s.ips.size(); ++k)
                          s.ips[k].fraction = soc.ips[k].fraction;
                  });
        if (soc.memorySideMemory)
            probe(work + "/miss_ratio", ip.name + " m", ip.missRatio, 0, 1,
                  [i](Soc &s, double v) { s.ips[i].missRatio = v; });
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Sensitivity &a, const Sensitivity &b) { return a.swing() > b.swing(); });
    return out;
}

} // namespace roofline::gables
