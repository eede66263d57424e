#include "goalseek.h"

#include "io.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace roofline::gables {

namespace {

enum class ParamKind { Ppeak, Bpeak, Acceleration, Bandwidth, Intensity, MissRatio, MsmBandwidth, BusBandwidth };

struct Param
{
    ParamKind kind = ParamKind::Bpeak;
    int index = -1; // IP or bus
    std::string pointer;
    std::string label;
    std::string unit;
    SeekRange range;
    bool reciprocal = true; // the terms are affine in 1/value; false: in the value itself (m_i)
};

constexpr double kMinValue = 1e-9;

std::vector<std::string> tokens(const std::string &pointer)
{
    std::vector<std::string> out;
    std::string token;
    for (std::size_t i = pointer.front() == '/' ? 1 : 0; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            out.push_back(token);
            token.clear();
        } else if (pointer[i] == '~' && i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
            token += pointer[++i] == '0' ? '~' : '/';
        } else {
            token += pointer[i];
        }
    }
    return out;
}

std::optional<int> findIp(const Soc &soc, const std::string &token)
{
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        if (soc.ips[i].name == token)
            return int(i);
    }
    if (!token.empty() && token.size() < 6 && token.find_first_not_of("0123456789") == std::string::npos
        && std::stoul(token) < soc.ips.size())
        return int(std::stoul(token));
    return std::nullopt;
}

// Resolves a --set pointer to a parameter goal seek can move; `error` says why not.
std::optional<Param> resolve(const Soc &soc, const std::string &pointer, std::string &error)
{
    if (pointer.empty()) {
        error = "no parameter given";
        return std::nullopt;
    }
    const std::vector<std::string> t = tokens(pointer);
    Param p;
    p.range = {kMinValue, Limits::maxRate, true, +1};
    p.unit = "GB/s";
    if (t.size() == 2 && t[0] == "soc" && t[1] == "ppeak_gops") {
        p = {ParamKind::Ppeak, -1, "/soc/ppeak_gops", "Ppeak", "Gops/s", p.range, true};
    } else if (t.size() == 2 && t[0] == "soc" && t[1] == "bpeak_gbps") {
        p = {ParamKind::Bpeak, -1, "/soc/bpeak_gbps", "Bpeak", "GB/s", p.range, true};
    } else if (t.size() == 3 && t[0] == "soc" && t[1] == "memory_side_memory" && t[2] == "bandwidth_gbps") {
        p = {ParamKind::MsmBandwidth, -1, "/soc/memory_side_memory/bandwidth_gbps", "B_msm", "GB/s", p.range, true};
    } else if (t.size() == 4 && t[0] == "soc" && t[1] == "buses" && t[3] == "bandwidth_gbps") {
        std::optional<int> bus;
        for (std::size_t j = 0; j < soc.buses.size(); ++j) {
            if (soc.buses[j].name == t[2] || std::to_string(j) == t[2])
                bus = int(j);
        }
        if (!bus) {
            error = "no bus named or numbered \"" + t[2] + "\"";
            return std::nullopt;
        }
        const std::string &name = soc.buses[std::size_t(*bus)].name;
        p = {ParamKind::BusBandwidth, *bus, "/soc/buses/" + name + "/bandwidth_gbps", "bus " + name, "GB/s",
             p.range, true};
    } else if (t.size() == 4 && ((t[0] == "soc" && t[1] == "ips") || (t[0] == "use_case" && t[1] == "work"))) {
        const std::optional<int> ip = findIp(soc, t[2]);
        if (!ip) {
            error = "no IP named or numbered \"" + t[2] + "\"";
            return std::nullopt;
        }
        const std::string &name = soc.ips[std::size_t(*ip)].name;
        if (t[0] == "soc" && t[3] == "acceleration") {
            p = {ParamKind::Acceleration, *ip, "/soc/ips/" + name + "/acceleration", name + " A", "",
                 {kMinValue, Limits::maxAcceleration, true, +1}, true};
        } else if (t[0] == "soc" && t[3] == "bandwidth_gbps") {
            p = {ParamKind::Bandwidth, *ip, "/soc/ips/" + name + "/bandwidth_gbps", name + " B", "GB/s", p.range, true};
        } else if (t[0] == "use_case" && t[3] == "intensity_ops_per_byte") {
            p = {ParamKind::Intensity, *ip, "/use_case/work/" + name + "/intensity_ops_per_byte", name + " I",
                 "ops/byte", {kMinValue, Limits::maxIntensity, true, +1}, true};
        } else if (t[0] == "use_case" && t[3] == "miss_ratio") {
            p = {ParamKind::MissRatio, *ip, "/use_case/work/" + name + "/miss_ratio", name + " m", "",
                 {0, 1, false, -1}, false};
        } else if (t[0] == "use_case" && t[3] == "fraction") {
            error = "P_att is not monotone in a work fraction (the other IPs take the rest), so goal seek cannot "
                    "bracket it; sweep it with roofline-cli gables-sweep";
            return std::nullopt;
        } else {
            error = "unknown parameter";
            return std::nullopt;
        }
    } else {
        error = "unknown parameter; use /soc/ppeak_gops, /soc/bpeak_gbps, /soc/ips/<IP>/acceleration, "
                "/soc/ips/<IP>/bandwidth_gbps, /soc/memory_side_memory/bandwidth_gbps, "
                "/soc/buses/<bus>/bandwidth_gbps, /use_case/work/<IP>/intensity_ops_per_byte or "
                "/use_case/work/<IP>/miss_ratio";
        return std::nullopt;
    }
    return p;
}

double get(const Soc &soc, const Param &p)
{
    switch (p.kind) {
    case ParamKind::Ppeak: return soc.ppeakGops;
    case ParamKind::Bpeak: return soc.bpeakGBps;
    case ParamKind::Acceleration: return soc.ips[std::size_t(p.index)].acceleration;
    case ParamKind::Bandwidth: return soc.ips[std::size_t(p.index)].bandwidthGBps;
    case ParamKind::Intensity: return soc.ips[std::size_t(p.index)].intensity;
    case ParamKind::MissRatio: return soc.ips[std::size_t(p.index)].missRatio;
    case ParamKind::MsmBandwidth: return soc.msmBandwidthGBps;
    case ParamKind::BusBandwidth: return soc.buses[std::size_t(p.index)].bandwidthGBps;
    }
    return 0;
}

void set(Soc &soc, const Param &p, double value)
{
    switch (p.kind) {
    case ParamKind::Ppeak: soc.ppeakGops = value; break;
    case ParamKind::Bpeak: soc.bpeakGBps = value; break;
    case ParamKind::Acceleration: soc.ips[std::size_t(p.index)].acceleration = value; break;
    case ParamKind::Bandwidth: soc.ips[std::size_t(p.index)].bandwidthGBps = value; break;
    case ParamKind::Intensity: soc.ips[std::size_t(p.index)].intensity = value; break;
    case ParamKind::MissRatio: soc.ips[std::size_t(p.index)].missRatio = value; break;
    case ParamKind::MsmBandwidth: soc.msmBandwidthGBps = value; break;
    case ParamKind::BusBandwidth: soc.buses[std::size_t(p.index)].bandwidthGBps = value; break;
    }
}

// One term of the maximum in seed 003 III.D (with the extensions of
// models.md 1.4) written as T_k(u) = a_k + b_k·u, u = 1/parameter (m_i itself
// for a miss ratio). Derived from the equations, term by term:
//   C_i = f_i/(A_i·Ppeak)         u = 1/Ppeak: b = f_i/A_i;   u = 1/A_i: b = f_i/Ppeak
//   D_i/B_i = f_i/(I_i·B_i)       u = 1/B_i: b = D_i;         u = 1/I_i: b = f_i/B_i
//   T_mem = Σ m_i·D_i / Bpeak     u = 1/Bpeak: b = Σ m_i D_i; u = 1/I_k: a = Σ_{i≠k} m_i D_i/Bpeak, b = m_k f_k/Bpeak;
//                                 u = m_k: a as before, b = D_k/Bpeak
//   T_msm = Σ D_i / B_msm         u = 1/B_msm: b = Σ D_i;     u = 1/I_k: a = Σ_{i≠k} D_i/B_msm, b = f_k/B_msm
//   T_bus,j = Σ_{i on j} D_i/B_j  u = 1/B_j: b = Σ_{i on j} D_i; u = 1/I_k (k on j): a = Σ_{i≠k} …, b = f_k/B_j
// Every other term is a constant (b = 0).
struct Affine
{
    Term term;
    double a = 0;
    double b = 0;
    double at(double u) const { return a + b * u; }
};

bool onBus(const Ip &ip, const Bus &bus)
{
    return std::find(ip.buses.begin(), ip.buses.end(), bus.name) != ip.buses.end();
}

std::vector<Affine> affineTerms(const Soc &soc, const Result &r, const Param &p)
{
    std::vector<Affine> out;
    const int k = p.index;
    const bool intensity = p.kind == ParamKind::Intensity;
    const bool miss = p.kind == ParamKind::MissRatio;
    auto dataExcept = [&](auto include, bool weighted) { // Σ over active IPs i ≠ k (when k varies) of (m_i) D_i
        double sum = 0;
        for (std::size_t i = 0; i < soc.ips.size(); ++i) {
            if (!r.ips[i].active || !include(i) || ((intensity || miss) && int(i) == k))
                continue;
            sum += (weighted && soc.memorySideMemory ? soc.ips[i].missRatio : 1.0) * r.ips[i].dataBytes;
        }
        return sum;
    };
    const bool kActive = k >= 0 && r.ips[std::size_t(k)].active;
    const double fk = k >= 0 ? soc.ips[std::size_t(k)].fraction : 0;

    Affine memory{{Term::Kind::Memory, -1, -1, r.memoryNs}, r.memoryNs, 0};
    if (p.kind == ParamKind::Bpeak) {
        memory = {memory.term, 0, r.memoryDataBytes};
    } else if ((intensity || miss) && kActive) {
        memory.a = dataExcept([](std::size_t) { return true; }, true) / soc.bpeakGBps;
        memory.b = intensity ? (soc.memorySideMemory ? soc.ips[std::size_t(k)].missRatio : 1.0) * fk / soc.bpeakGBps
                             : r.ips[std::size_t(k)].dataBytes / soc.bpeakGBps;
    }
    out.push_back(memory);
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0) {
        Affine msm{{Term::Kind::MemorySideMemory, -1, -1, r.msmNs}, r.msmNs, 0};
        if (p.kind == ParamKind::MsmBandwidth) {
            msm.a = 0;
            msm.b = r.msmNs * soc.msmBandwidthGBps; // Σ D_i
        } else if (intensity && kActive) {
            msm.a = dataExcept([](std::size_t) { return true; }, false) / soc.msmBandwidthGBps;
            msm.b = fk / soc.msmBandwidthGBps;
        }
        out.push_back(msm);
    }
    for (std::size_t j = 0; j < soc.buses.size(); ++j) {
        Affine bus{{Term::Kind::Bus, -1, int(j), r.busNs[j]}, r.busNs[j], 0};
        if (p.kind == ParamKind::BusBandwidth && int(j) == p.index) {
            bus.a = 0;
            bus.b = r.busDataBytes[j];
        } else if (intensity && kActive && onBus(soc.ips[std::size_t(k)], soc.buses[j])) {
            bus.a = dataExcept([&](std::size_t i) { return onBus(soc.ips[i], soc.buses[j]); }, false)
                    / soc.buses[j].bandwidthGBps;
            bus.b = fk / soc.buses[j].bandwidthGBps;
        }
        out.push_back(bus);
    }
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        if (!r.ips[i].active)
            continue;
        const Ip &ip = soc.ips[i];
        Affine compute{{Term::Kind::Compute, int(i), -1, r.ips[i].computeNs}, r.ips[i].computeNs, 0};
        Affine link{{Term::Kind::Link, int(i), -1, r.ips[i].linkNs}, r.ips[i].linkNs, 0};
        if (p.kind == ParamKind::Ppeak)
            compute = {compute.term, 0, ip.fraction / ip.acceleration};
        else if (p.kind == ParamKind::Acceleration && int(i) == k)
            compute = {compute.term, 0, ip.fraction / soc.ppeakGops};
        if (p.kind == ParamKind::Bandwidth && int(i) == k)
            link = {link.term, 0, r.ips[i].dataBytes};
        else if (intensity && int(i) == k)
            link = {link.term, 0, ip.fraction / ip.bandwidthGBps};
        out.push_back(compute);
        out.push_back(link);
    }
    return out;
}

const Affine &largestAt(const std::vector<Affine> &terms, double u)
{
    return *std::max_element(terms.begin(), terms.end(),
                             [u](const Affine &x, const Affine &y) { return x.at(u) < y.at(u); });
}

std::string gops(double value) { return seekNumber(value) + " Gops/s"; }

std::string withUnit(double value, const std::string &unit)
{
    return seekNumber(value) + (unit.empty() ? "" : " " + unit);
}

void finishFound(GoalSeek &g, const Soc &soc, const Param &p)
{
    Soc changed = soc;
    set(changed, p, g.value);
    g.achieved = evaluate(changed).attainableGops;
    g.relation = p.reciprocal ? "≥" : "≤";
    const double now = evaluate(soc).attainableGops;
    if (g.targetValue > now * (1 + kSeekResultTolerance))
        g.message = g.target + " needs " + p.label + " " + g.relation + " " + withUnit(g.value, p.unit) + " (now "
                    + withUnit(g.from, p.unit) + ")";
    else
        g.message = g.target + " at " + p.label + " = " + withUnit(g.value, p.unit) + " (now "
                    + withUnit(g.from, p.unit) + ", P_att " + gops(now) + ")";
}

void finishUnreachable(GoalSeek &g, const Param &p, bool tooHigh)
{
    if (tooHigh)
        g.message = "no " + p.label + " reaches " + g.target + ": " + g.limitedBy + " caps it at " + gops(g.cap);
    else
        g.message = "no " + p.label + " in [" + seekNumber(p.range.lower) + ", " + seekNumber(p.range.upper)
                    + "] brings P_att down to " + gops(g.targetValue) + ": at " + withUnit(g.value, p.unit) + " "
                    + g.limitedBy + " still gives " + gops(g.cap);
}

} // namespace

GoalSeek seekAttainable(const Soc &input, const std::string &pointer, double targetGops, SeekMethod method)
{
    GoalSeek g;
    g.pointer = pointer;
    g.targetValue = targetGops;
    g.target = "P_att " + gops(targetGops);
    std::string error;
    const std::optional<Param> resolved = resolve(input, pointer, error);
    if (!resolved) {
        g.message = pointer + ": " + error;
        return g;
    }
    const Param &p = *resolved;
    g.pointer = p.pointer;
    g.label = p.label;
    g.unit = p.unit;
    if (!(std::isfinite(targetGops) && targetGops > 0)) {
        g.message = "the target P_att must be a positive number of Gops/s, got " + seekNumber(targetGops);
        return g;
    }
    Soc soc = input;
    if (p.kind == ParamKind::MissRatio)
        soc.memorySideMemory = true; // as --set does: a miss ratio switches the memory-side memory on
    if (p.kind == ParamKind::MsmBandwidth && !(soc.memorySideMemory && soc.msmBandwidthGBps > 0)) {
        g.message = p.pointer + ": the SoC has no memory-side memory bandwidth to vary (set one with --set first)";
        return g;
    }
    g.from = get(soc, p);
    if ((p.kind == ParamKind::Acceleration || p.kind == ParamKind::Bandwidth || p.kind == ParamKind::Intensity
         || p.kind == ParamKind::MissRatio)
        && !soc.ips[std::size_t(p.index)].isActive()) {
        g.message = p.pointer + ": IP " + soc.ips[std::size_t(p.index)].name
                    + " has no work (f = 0), so its parameters do not move P_att";
        return g;
    }

    if (soc.serialized || method == SeekMethod::Bracketed) {
        const MonotoneSeek s = seekMonotone(
            [&](double x) {
                Soc changed = soc;
                set(changed, p, x);
                return evaluate(changed).attainableGops;
            },
            targetGops, p.range);
        g.evaluations = s.evaluations;
        g.value = s.x;
        g.achieved = s.fx;
        if (s.status == MonotoneSeek::Status::Found) {
            g.status = GoalSeek::Status::Found;
            finishFound(g, soc, p);
        } else if (s.status == MonotoneSeek::Status::AboveRange || s.status == MonotoneSeek::Status::BelowRange) {
            Soc changed = soc;
            set(changed, p, s.x);
            const Result at = evaluate(changed);
            g.status = GoalSeek::Status::Unreachable;
            g.cap = at.attainableGops;
            g.limitedBy = describe(at.bound, changed);
            finishUnreachable(g, p, s.status == MonotoneSeek::Status::AboveRange);
        } else {
            g.message = "P_att does not move one way only in " + p.label + "; goal seek gave up";
        }
        return g;
    }

    // Closed form: T(u) = max_k (a_k + b_k·u) is non-decreasing in u, so
    // {u : T(u) ≤ T*} = [uBest, u*] with u* = min over b_k > 0 of (T* − a_k)/b_k.
    const Result now = evaluate(soc);
    const std::vector<Affine> terms = affineTerms(soc, now, p);
    const double uBest = p.reciprocal ? 1 / p.range.upper : p.range.lower;
    const double uWorst = p.reciprocal ? 1 / p.range.lower : p.range.upper;
    auto valueOf = [&](double u) { return p.reciprocal ? 1 / u : u; };
    const double targetNs = 1 / targetGops;
    const Affine &best = largestAt(terms, uBest);
    const Affine &worst = largestAt(terms, uWorst);
    const double bestNs = best.at(uBest);
    const double worstNs = worst.at(uWorst);
    if (bestNs > targetNs * (1 + kSeekResultTolerance)) {
        g.status = GoalSeek::Status::Unreachable;
        g.value = valueOf(uBest);
        g.cap = 1 / bestNs;
        g.achieved = g.cap;
        g.limitedBy = describe(best.term, soc);
        finishUnreachable(g, p, true);
        return g;
    }
    if (worstNs < targetNs * (1 - kSeekResultTolerance)) {
        g.status = GoalSeek::Status::Unreachable;
        g.value = valueOf(uWorst);
        g.cap = 1 / worstNs;
        g.achieved = g.cap;
        g.limitedBy = describe(worst.term, soc);
        finishUnreachable(g, p, false);
        return g;
    }
    double u = uWorst;
    for (const Affine &t : terms) {
        if (t.b > 0)
            u = std::min(u, (targetNs - t.a) / t.b);
    }
    u = std::clamp(u, uBest, uWorst);
    g.status = GoalSeek::Status::Found;
    g.value = valueOf(u);
    finishFound(g, soc, p);
    return g;
}

Headroom headroom(const Soc &soc, const Result &result)
{
    Headroom h;
    if (soc.serialized || result.bound.limiting.empty()) {
        h.message = soc.serialized ? "serialized: the time is a sum, no single bound to move" : "";
        return h;
    }
    h.binding = result.bound.limiting.front();
    if (result.bound.kind == Bound::Kind::Balanced) {
        h.available = true;
        h.next = result.bound.limiting.size() > 1 ? result.bound.limiting[1] : h.binding;
        h.factor = 1;
        h.nextGops = result.attainableGops;
        h.message = describe(result.bound, soc) + ": no headroom, raise them together";
        return h;
    }
    // Every term of the maximum but the binding one: its parameter moves only that term.
    Param p;
    switch (h.binding.kind) {
    case Term::Kind::Compute: p.kind = ParamKind::Acceleration; break;
    case Term::Kind::Link: p.kind = ParamKind::Bandwidth; break;
    case Term::Kind::Memory: p.kind = ParamKind::Bpeak; break;
    case Term::Kind::MemorySideMemory: p.kind = ParamKind::MsmBandwidth; break;
    case Term::Kind::Bus: p.kind = ParamKind::BusBandwidth; break;
    }
    p.index = h.binding.kind == Term::Kind::Bus ? h.binding.bus : h.binding.ip;
    const std::vector<Affine> terms = affineTerms(soc, result, p);
    const Affine *next = nullptr;
    for (const Affine &t : terms) {
        if (t.term.kind == h.binding.kind && t.term.ip == h.binding.ip && t.term.bus == h.binding.bus)
            continue;
        if (t.term.timeNs > 0 && (!next || t.term.timeNs > next->term.timeNs))
            next = &t;
    }
    const std::string name = h.binding.ip >= 0 ? soc.ips[std::size_t(h.binding.ip)].name : "";
    switch (h.binding.kind) {
    case Term::Kind::Compute:
        h.pointer = "/soc/ips/" + name + "/acceleration";
        h.label = name + " peak";
        break;
    case Term::Kind::Link:
        h.pointer = "/soc/ips/" + name + "/bandwidth_gbps";
        h.label = name + " link bandwidth";
        break;
    case Term::Kind::Memory:
        h.pointer = "/soc/bpeak_gbps";
        h.label = "Bpeak";
        break;
    case Term::Kind::MemorySideMemory:
        h.pointer = "/soc/memory_side_memory/bandwidth_gbps";
        h.label = "B_msm";
        break;
    case Term::Kind::Bus:
        h.pointer = "/soc/buses/" + soc.buses[std::size_t(h.binding.bus)].name + "/bandwidth_gbps";
        h.label = "bus " + soc.buses[std::size_t(h.binding.bus)].name + " bandwidth";
        break;
    }
    const std::string bound = describe(h.binding, soc) + " bound";
    if (!next) {
        h.message = bound + "; nothing else limits it";
        return h;
    }
    h.available = true;
    h.next = next->term;
    h.factor = h.binding.timeNs / next->term.timeNs;
    h.nextGops = 1 / next->term.timeNs;
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.3g", h.factor);
    h.message = bound + "; " + factor + "× more " + h.label + " before " + describe(h.next, soc) + " limits (at "
                + gops(h.nextGops) + ")";
    return h;
}

std::vector<RoofReading> roofReadings(const Soc &soc, const Result &result, const PlotGeometry &geometry)
{
    std::vector<RoofReading> out;
    for (const Selection &s : geometry.selections) {
        RoofReading r;
        r.selection = s;
        switch (s.kind) {
        case RoofKind::Ip: r.name = "IP[" + std::to_string(s.ip) + "] " + soc.ips[std::size_t(s.ip)].name; break;
        case RoofKind::Memory: r.name = "memory"; break;
        case RoofKind::MemorySideMemory: r.name = "memory-side memory"; break;
        case RoofKind::Bus: r.name = "bus " + soc.buses[std::size_t(s.bus)].name; break;
        }
        r.intensity = s.selected.x;
        r.gops = s.selected.y;
        r.binding = !soc.serialized && r.gops <= result.attainableGops * (1 + kBalanceTolerance);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace roofline::gables
