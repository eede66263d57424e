// The Gables multi-IP roofline model (Hill & Reddi, HPCA 2019; seed 003,
// section III; restated in shared/reference/models.md section 1).
//
// Units: Ppeak in Gops/s, bandwidths in GB/s, intensities in ops/byte. The use
// case is normalised to one operation of work, so every time term is in
// nanoseconds per operation (= seconds per Gop) and P_att = 1/T is in Gops/s.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace roofline::gables {

struct Ip
{
    std::string name;
    std::string color;          // "#rrggbb"; empty: the view picks from its palette
    double acceleration = 1;    // A_i: peak is A_i * Ppeak
    double bandwidthGBps = 1;   // B_i: the IP's link to the interconnect
    double fraction = 0;        // f_i: share of the use case's work, Σ f_i = 1
    double intensity = 1;       // I_i: ops per byte moved off chip
    // Extensions (models.md 1.4), neutral by default:
    double missRatio = 1;            // m_i: share of D_i that misses the memory-side memory (when the Soc has one)
    std::vector<std::string> buses;  // names of the buses on this IP's path to memory
    // Free-text source of each number, keyed by the file's field name
    // ("acceleration", "bandwidth_gbps", "fraction", "intensity_ops_per_byte").
    std::map<std::string, std::string> sources;

    // An IP with the given roofline and work; everything else at its default.
    static Ip make(std::string name, double acceleration, double bandwidthGBps, double fraction, double intensity)
    {
        Ip ip;
        ip.name = std::move(name);
        ip.acceleration = acceleration;
        ip.bandwidthGBps = bandwidthGBps;
        ip.fraction = fraction;
        ip.intensity = intensity;
        return ip;
    }

    bool isActive() const { return fraction > 0; }
    double peakGops(double ppeakGops) const { return acceleration * ppeakGops; }
    // Intensity at which the IP's own roofline turns from its link to its compute roof.
    double ridgeIntensity(double ppeakGops) const { return peakGops(ppeakGops) / bandwidthGBps; }

    bool operator==(const Ip &) const = default;
};

// An interconnect bus shared by the IPs that list it (models.md 1.4).
struct Bus
{
    std::string name;
    double bandwidthGBps = 1;
    std::string source;

    bool operator==(const Bus &) const = default;
};

struct Soc
{
    std::string name;
    std::string description;
    std::string useCaseName;
    double ppeakGops = 1;  // Ppeak: peak of IP[0], the reference for A_i
    double bpeakGBps = 1;  // Bpeak: off-chip memory bandwidth
    std::map<std::string, std::string> sources; // "ppeak_gops", "bpeak_gbps"
    std::vector<Ip> ips;
    // Extensions (models.md 1.4), all off by default:
    bool memorySideMemory = false; // a system cache in front of DRAM: the IPs' miss ratios apply
    double msmBandwidthGBps = 0;   // its bandwidth B_msm; 0: not a bound
    std::vector<Bus> buses;      // interconnect buses; each adds T_bus,j to the max
    bool serialized = false;     // IPs run one after another instead of concurrently

    bool operator==(const Soc &) const = default;
};

// One of the terms whose maximum sets the SoC's time.
struct Term
{
    enum class Kind { Compute, Link, Memory, MemorySideMemory, Bus };
    Kind kind = Kind::Memory;
    int ip = -1;  // for Compute and Link
    int bus = -1; // for Bus
    double timeNs = 0;

    bool operator==(const Term &) const = default;
};

struct IpTerms
{
    bool active = false;
    double computeNs = 0; // C_i = f_i / (A_i Ppeak)
    double dataBytes = 0; // D_i = f_i / I_i
    double linkNs = 0;    // D_i / B_i
    double timeNs = 0;    // T_i = max(D_i/B_i, C_i)
    double scaledRoofGops = 0; // Scaled_i(I_i) = 1/T_i; 0 for an idle IP
    double serialNs = 0;  // serialized work: max(C_i, D_i/B_i, m_i D_i/Bpeak)

    bool operator==(const IpTerms &) const = default;
};

struct Bound
{
    enum class Kind { IpCompute, IpLink, Memory, MemorySideMemory, Bus, Balanced, Serialized };
    Kind kind = Kind::Memory;
    int ip = -1;               // for IpCompute and IpLink; for Serialized the IP that takes longest
    int bus = -1;              // for Bus
    std::vector<Term> limiting; // every term within the balance tolerance of the maximum

    bool operator==(const Bound &) const = default;
};

struct Result
{
    std::vector<IpTerms> ips;
    double memoryDataBytes = 0; // Σ m_i D_i (Σ D_i without a memory-side memory)
    double memoryNs = 0;        // T_mem = Σ m_i D_i / Bpeak
    double msmNs = 0;           // T_msm = Σ D_i / B_msm (0 when not modelled)
    std::vector<double> busDataBytes; // per bus: Σ_{i on j} D_i
    std::vector<double> busNs;        // per bus: T_bus,j = Σ_{i on j} D_i / B_bus,j
    double timeNs = 0;          // max(T_0 … T_{N-1}, T_mem)
    double attainableGops = 0;  // P_att = 1 / timeNs
    double averageIntensity = 0; // I_avg = 1 / Σ_{f_i>0} f_i/I_i
    double memoryIntensity = 0;  // where the DRAM roof is read: 1 / Σ m_i f_i/I_i (= I_avg when all m_i = 1)
    Bound bound;

    bool operator==(const Result &) const = default;
};

// Terms within this relative distance of the maximum all count as limiting;
// with more than one, the design is "balanced" (models.md 1.2).
inline constexpr double kBalanceTolerance = 1e-3;

// Evaluates the model (seed 003, section III.D, equations for T_IP[i], T_memory
// and P_attainable), with the extensions of models.md 1.4 when the Soc enables
// them. Requires a Soc that passes validate(); IPs with f_i = 0 contribute
// nothing, so no division by zero can happen.
Result evaluate(const Soc &soc);

// evaluate(soc).attainableGops, bit for bit (the same operations in the same order),
// without building the Result: no allocation for up to kLeanBuses buses. What a
// caller that needs P_att alone uses (the sensitivity's 2 + 8 per IP evaluations
// built 64 term lists each at 64 IPs: docs/performance.md).
double attainableGops(const Soc &soc);
inline constexpr std::size_t kLeanBuses = 16; // more: attainableGops() calls evaluate()

// "IP[1] GPU link", "memory", "balanced (CPU compute, GPU link, memory)".
std::string describe(const Bound &bound, const Soc &soc);
std::string describe(const Term &term, const Soc &soc);
const char *kindName(Bound::Kind kind); // "ip_compute", "ip_link", "memory", "bus", "balanced", ...
const char *kindName(Term::Kind kind);  // "compute", "link", "memory", "memory_side_memory", "bus"

// --- Work fractions -------------------------------------------------------

// Sets ips[index].fraction and rescales the other unlocked IPs in proportion
// to their current fractions so that Σ f_i stays 1 (equally when they are all
// zero). The value is clamped to what the locked IPs leave. Returns the value set.
// `locked` may be shorter than ips (missing entries are unlocked).
double setFraction(std::vector<Ip> &ips, std::size_t index, double value, const std::vector<bool> &locked = {});

// Scales all fractions so that they sum to 1; returns the sum before scaling.
double normalizeFractions(std::vector<Ip> &ips);
double fractionSum(const std::vector<Ip> &ips);

// Removes an IP and hands its work to the others in proportion.
void removeIp(Soc &soc, std::size_t index);
// A name not yet used by any IP: "IP 3", "IP 4", ...
std::string uniqueIpName(const Soc &soc, const std::string &stem = "IP");

} // namespace roofline::gables
