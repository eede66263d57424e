#include "model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace roofline::gables {

Result evaluate(const Soc &soc)
{
    Result r;
    r.ips.resize(soc.ips.size());
    r.busDataBytes.assign(soc.buses.size(), 0.0);
    r.busNs.assign(soc.buses.size(), 0.0);
    double allDataBytes = 0; // Σ D_i = Σ f_i / I_i

    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        IpTerms &t = r.ips[i];
        if (!ip.isActive())
            continue; // f_i = 0: T_i = 0, D_i = 0, I_i ignored (seed 003, III.B)
        t.active = true;
        t.computeNs = ip.fraction / ip.peakGops(soc.ppeakGops); // C_i
        t.dataBytes = ip.fraction / ip.intensity;               // D_i
        t.linkNs = t.dataBytes / ip.bandwidthGBps;
        t.timeNs = std::max(t.linkNs, t.computeNs);             // T_IP[i]
        t.scaledRoofGops = 1.0 / t.timeNs;
        allDataBytes += t.dataBytes;
        const double missRatio = soc.memorySideMemory ? ip.missRatio : 1.0;
        r.memoryDataBytes += missRatio * t.dataBytes;
        t.serialNs = std::max(t.timeNs, missRatio * t.dataBytes / soc.bpeakGBps);
        for (std::size_t j = 0; j < soc.buses.size(); ++j) {
            if (std::find(ip.buses.begin(), ip.buses.end(), soc.buses[j].name) != ip.buses.end())
                r.busDataBytes[j] += t.dataBytes;
        }
    }
    r.memoryNs = r.memoryDataBytes / soc.bpeakGBps; // T_memory
    r.averageIntensity = allDataBytes > 0 ? 1.0 / allDataBytes : 0;
    r.memoryIntensity = r.memoryDataBytes > 0 ? 1.0 / r.memoryDataBytes : 0;
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
        r.msmNs = allDataBytes / soc.msmBandwidthGBps;
    for (std::size_t j = 0; j < soc.buses.size(); ++j)
        r.busNs[j] = r.busDataBytes[j] / soc.buses[j].bandwidthGBps;

    std::vector<Term> terms;
    if (soc.serialized) {
        // models.md 1.4: T = Σ_i max(C_i, D_i/B_i, m_i D_i/Bpeak); each IP's
        // dominant term is listed, the IP that takes longest is named.
        r.timeNs = 0;
        double longest = -1;
        for (std::size_t i = 0; i < r.ips.size(); ++i) {
            const IpTerms &t = r.ips[i];
            if (!t.active)
                continue;
            r.timeNs += t.serialNs;
            Term term{Term::Kind::Compute, int(i), -1, t.computeNs};
            if (t.linkNs > term.timeNs)
                term = {Term::Kind::Link, int(i), -1, t.linkNs};
            if (t.serialNs > term.timeNs)
                term = {Term::Kind::Memory, int(i), -1, t.serialNs};
            r.bound.limiting.push_back(term);
            if (t.serialNs > longest) {
                longest = t.serialNs;
                r.bound.ip = int(i);
            }
        }
        r.bound.kind = Bound::Kind::Serialized;
        r.attainableGops = r.timeNs > 0 ? 1.0 / r.timeNs : 0;
        return r;
    }

    terms.reserve(2 + soc.buses.size() + 2 * soc.ips.size()); // grown term by term, it was most of a 64-IP evaluation
    terms.push_back({Term::Kind::Memory, -1, -1, r.memoryNs});
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
        terms.push_back({Term::Kind::MemorySideMemory, -1, -1, r.msmNs});
    for (std::size_t j = 0; j < soc.buses.size(); ++j)
        terms.push_back({Term::Kind::Bus, -1, int(j), r.busNs[j]});
    for (std::size_t i = 0; i < r.ips.size(); ++i) {
        if (!r.ips[i].active)
            continue;
        terms.push_back({Term::Kind::Compute, int(i), -1, r.ips[i].computeNs});
        terms.push_back({Term::Kind::Link, int(i), -1, r.ips[i].linkNs});
    }
    r.timeNs = std::max_element(terms.begin(), terms.end(), [](const Term &a, const Term &b) {
                   return a.timeNs < b.timeNs;
               })->timeNs;
    r.attainableGops = r.timeNs > 0 ? 1.0 / r.timeNs : 0; // P_attainable

    for (const Term &term : terms) {
        if (term.timeNs >= r.timeNs * (1 - kBalanceTolerance))
            r.bound.limiting.push_back(term);
    }
    // Keep the order readable: IPs by index, compute before link, then memory, MSM, buses.
    std::stable_sort(r.bound.limiting.begin(), r.bound.limiting.end(), [](const Term &a, const Term &b) {
        const int ia = a.ip < 0 ? 1 << 30 : a.ip;
        const int ib = b.ip < 0 ? 1 << 30 : b.ip;
        return ia < ib;
    });
    if (r.bound.limiting.size() > 1) {
        r.bound.kind = Bound::Kind::Balanced;
    } else {
        const Term &only = r.bound.limiting.front();
        r.bound.ip = only.ip;
        r.bound.bus = only.bus;
        switch (only.kind) {
        case Term::Kind::Compute: r.bound.kind = Bound::Kind::IpCompute; break;
        case Term::Kind::Link: r.bound.kind = Bound::Kind::IpLink; break;
        case Term::Kind::Memory: r.bound.kind = Bound::Kind::Memory; break;
        case Term::Kind::MemorySideMemory: r.bound.kind = Bound::Kind::MemorySideMemory; break;
        case Term::Kind::Bus: r.bound.kind = Bound::Kind::Bus; break;
        }
    }
    return r;
}

double attainableGops(const Soc &soc)
{
    if (soc.buses.size() > kLeanBuses)
        return evaluate(soc).attainableGops;
    // evaluate()'s arithmetic, term for term: the sums accumulate in IP order, and the
    // maximum visits the same values in the same order (memory, cache, buses, then each
    // IP's compute and link) with max_element's `largest < next`, so the result is the
    // same double, whatever the inputs.
    double busDataBytes[kLeanBuses] = {};
    double allDataBytes = 0, memoryDataBytes = 0, serialNs = 0;
    for (const Ip &ip : soc.ips) {
        if (!ip.isActive())
            continue;
        const double computeNs = ip.fraction / ip.peakGops(soc.ppeakGops);
        const double dataBytes = ip.fraction / ip.intensity;
        const double linkNs = dataBytes / ip.bandwidthGBps;
        allDataBytes += dataBytes;
        const double missRatio = soc.memorySideMemory ? ip.missRatio : 1.0;
        memoryDataBytes += missRatio * dataBytes;
        serialNs += std::max(std::max(linkNs, computeNs), missRatio * dataBytes / soc.bpeakGBps);
        for (std::size_t j = 0; j < soc.buses.size(); ++j) {
            if (std::find(ip.buses.begin(), ip.buses.end(), soc.buses[j].name) != ip.buses.end())
                busDataBytes[j] += dataBytes;
        }
    }
    double timeNs = 0;
    if (soc.serialized) {
        timeNs = serialNs;
    } else {
        const auto visit = [&timeNs](double termNs) {
            if (timeNs < termNs)
                timeNs = termNs;
        };
        timeNs = memoryDataBytes / soc.bpeakGBps;
        if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
            visit(allDataBytes / soc.msmBandwidthGBps);
        for (std::size_t j = 0; j < soc.buses.size(); ++j)
            visit(busDataBytes[j] / soc.buses[j].bandwidthGBps);
        for (const Ip &ip : soc.ips) {
            if (!ip.isActive())
                continue;
            visit(ip.fraction / ip.peakGops(soc.ppeakGops));
            visit(ip.fraction / ip.intensity / ip.bandwidthGBps);
        }
    }
    return timeNs > 0 ? 1.0 / timeNs : 0;
}

const char *kindName(Bound::Kind kind)
{
    switch (kind) {
    case Bound::Kind::IpCompute: return "ip_compute";
    case Bound::Kind::IpLink: return "ip_link";
    case Bound::Kind::Memory: return "memory";
    case Bound::Kind::MemorySideMemory: return "memory_side_memory";
    case Bound::Kind::Bus: return "bus";
    case Bound::Kind::Balanced: return "balanced";
    case Bound::Kind::Serialized: return "serialized";
    }
    return "";
}

const char *kindName(Term::Kind kind)
{
    switch (kind) {
    case Term::Kind::Compute: return "compute";
    case Term::Kind::Link: return "link";
    case Term::Kind::Memory: return "memory";
    case Term::Kind::MemorySideMemory: return "memory_side_memory";
    case Term::Kind::Bus: return "bus";
    }
    return "";
}

std::string describe(const Term &term, const Soc &soc)
{
    if (term.kind == Term::Kind::Memory && term.ip < 0)
        return "memory";
    if (term.kind == Term::Kind::MemorySideMemory)
        return "memory-side memory";
    if (term.kind == Term::Kind::Bus)
        return "bus " + (term.bus >= 0 && std::size_t(term.bus) < soc.buses.size() ? soc.buses[term.bus].name : "?");
    const std::string name = term.ip >= 0 && std::size_t(term.ip) < soc.ips.size() ? soc.ips[term.ip].name : "?";
    return "IP[" + std::to_string(term.ip) + "] " + name + " " + kindName(term.kind);
}

std::string describe(const Bound &bound, const Soc &soc)
{
    if (bound.kind == Bound::Kind::Serialized) {
        if (bound.ip < 0 || std::size_t(bound.ip) >= soc.ips.size())
            return "serialized";
        return "serialized (longest: IP[" + std::to_string(bound.ip) + "] " + soc.ips[bound.ip].name + ")";
    }
    if (bound.kind != Bound::Kind::Balanced)
        return bound.limiting.empty() ? std::string() : describe(bound.limiting.front(), soc);
    std::string out = "balanced (";
    for (std::size_t i = 0; i < bound.limiting.size(); ++i) {
        if (i)
            out += ", ";
        out += describe(bound.limiting[i], soc);
    }
    return out + ")";
}

double fractionSum(const std::vector<Ip> &ips)
{
    return std::accumulate(ips.begin(), ips.end(), 0.0, [](double s, const Ip &ip) { return s + ip.fraction; });
}

double normalizeFractions(std::vector<Ip> &ips)
{
    const double sum = fractionSum(ips);
    if (sum > 0) {
        for (Ip &ip : ips)
            ip.fraction /= sum;
    }
    return sum;
}

double setFraction(std::vector<Ip> &ips, std::size_t index, double value, const std::vector<bool> &locked)
{
    if (index >= ips.size())
        return 0;
    auto isLocked = [&](std::size_t i) { return i < locked.size() && locked[i]; };
    double lockedSum = 0;
    double freeSum = 0;
    std::size_t freeCount = 0;
    for (std::size_t i = 0; i < ips.size(); ++i) {
        if (i == index)
            continue;
        if (isLocked(i)) {
            lockedSum += ips[i].fraction;
        } else {
            freeSum += ips[i].fraction;
            ++freeCount;
        }
    }
    const double available = std::max(0.0, 1.0 - lockedSum);
    // With nobody to rebalance against, the IP takes exactly what is left.
    value = freeCount == 0 ? available : std::clamp(std::isfinite(value) ? value : 0.0, 0.0, available);
    const double rest = available - value;
    for (std::size_t i = 0; i < ips.size(); ++i) {
        if (i == index || isLocked(i))
            continue;
        ips[i].fraction = freeSum > 0 ? ips[i].fraction / freeSum * rest : rest / double(freeCount);
    }
    ips[index].fraction = value;
    return value;
}

void removeIp(Soc &soc, std::size_t index)
{
    if (index >= soc.ips.size())
        return;
    soc.ips.erase(soc.ips.begin() + std::ptrdiff_t(index));
    if (soc.ips.empty())
        return;
    if (fractionSum(soc.ips) > 0) {
        normalizeFractions(soc.ips);
    } else {
        for (Ip &ip : soc.ips)
            ip.fraction = 1.0 / double(soc.ips.size());
    }
}

std::string uniqueIpName(const Soc &soc, const std::string &stem)
{
    for (std::size_t n = soc.ips.size();; ++n) {
        std::string candidate = stem + " " + std::to_string(n);
        if (std::none_of(soc.ips.begin(), soc.ips.end(), [&](const Ip &ip) { return ip.name == candidate; }))
            return candidate;
    }
}

} // namespace roofline::gables
