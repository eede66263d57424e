// nn-Meter predictors on a device description (seed 004 section 5; models.md 5).
//
// Model latency = Σ kernel latencies (the seed's sequential-kernel assumption,
// section 2.2). Each kernel's latency comes from, in order of preference:
//  1. a learned predictor of its kind (a random forest trained by the kernel
//     lab on this machine's measurements, forest.h), when the device has one;
//  2. the analytical roofline of the kernel on the device:
//        t = overhead + max(FLOPs / (P_peak · e_compute(kind)),
//                           bytes / (B_peak · e_memory(kind)))
//     where bytes are what the kernel reads from outside, writes out and its
//     weights: the intermediate tensors a fused kernel keeps in registers are
//     not counted. That is why fusion matters and why a FLOPs count misses it.
// Beside it, two baselines the seed compares with (section 7): the sum over
// operators run one by one (the operator-level lookup table, the same
// analytical formula per operator), and a FLOPs-proportional estimate
// (total FLOPs / (P_peak · e_compute("conv"))).
#pragma once

#include "forest.h"
#include "kernels.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace roofline::nnmeter {

struct Efficiency
{
    double compute = 1; // share of the peak a kernel of this kind reaches
    double memory = 1;  // share of the bandwidth
    bool operator==(const Efficiency &) const = default;
};

// A device description ("roofline-studio/nnmeter-device" files).
struct Device
{
    std::string name;
    std::string description;
    std::string source;
    std::string rulesFile; // as written in the file, relative to it
    FusionRules rules;
    double peakGflops = 0;      // P_peak, GFLOP/s
    double bandwidthGBps = 0;   // B_peak, GB/s
    int bytesPerElement = 4;    // fp32
    double kernelOverheadUs = 0; // per kernel launch (µs)
    Efficiency defaultEfficiency;
    std::map<std::string, Efficiency> efficiency; // by kernel kind ("conv", "dwconv", ...)
    // Learned predictors by kernel kind (the kernel lab's forests), with the
    // file each came from (relative to the device file).
    std::map<std::string, std::shared_ptr<const Forest>> predictors;
    std::map<std::string, std::string> predictorFiles;

    const Efficiency &efficiencyOf(const std::string &kind) const;
    bool operator==(const Device &) const;
};

inline constexpr const char *kDeviceFormatId = "roofline-studio/nnmeter-device";
inline constexpr int kDeviceFormatVersion = 1;

enum class Source : std::uint8_t { Learned, Analytical };

struct KernelPrediction
{
    double ms = 0;
    double analyticalMs = 0;
    Source source = Source::Analytical;
    bool computeBound = true; // analytical: which roof limits it
    bool operator==(const KernelPrediction &) const = default;
};

struct Prediction
{
    Detection detection;
    std::vector<KernelPrediction> kernels;
    double kernelSumMs = 0;   // Σ kernels (the nn-Meter prediction)
    double operatorSumMs = 0; // Σ operators run alone (analytical)
    double flopsMs = 0;       // FLOPs-proportional
    double flops = 0;
    int learnedKernels = 0;
    bool operator==(const Prediction &) const = default;
};

KernelPrediction predictKernel(const network::Network &net, const Kernel &kernel, const Device &device);
// Analytical latency of a kernel from its FLOPs and bytes alone.
double analyticalMs(const Device &device, const std::string &kind, double flops, double bytes, bool *computeBound = nullptr);
Prediction predictNetwork(const network::Network &net, const Device &device);
// As predictNetwork, with detection under other rules (the view's rule toggles).
Prediction predictNetwork(const network::Network &net, const Device &device, const FusionRules &rules);

} // namespace roofline::nnmeter
