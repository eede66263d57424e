#include "predict.h"

#include <algorithm>
#include <cmath>

namespace roofline::nnmeter {

std::optional<double> Forest::predictMs(const std::vector<double> &x) const
{
    if (x.size() != features.size())
        return std::nullopt;
    double sum = base;
    for (const ForestTree &t : trees) {
        std::size_t i = 0;
        // Children point forward (checked on load), so this walk ends.
        while (i < t.left.size() && t.left[i] >= 0) {
            const double v = x[std::size_t(t.feature[i])];
            const bool goLeft = std::isnan(v) ? t.missingLeft[i] != 0 : v < t.threshold[i];
            i = std::size_t(goLeft ? t.left[i] : t.right[i]);
        }
        if (i < t.value.size())
            sum += t.value[i];
    }
    const double ms = logTarget ? std::exp(sum) : sum;
    if (!std::isfinite(ms))
        return std::nullopt;
    return std::max(ms, 0.0);
}

const Efficiency &Device::efficiencyOf(const std::string &kind) const
{
    const auto it = efficiency.find(kind);
    return it != efficiency.end() ? it->second : defaultEfficiency;
}

bool Device::operator==(const Device &o) const
{
    if (predictors.size() != o.predictors.size())
        return false;
    for (const auto &[kind, f] : predictors) {
        const auto it = o.predictors.find(kind);
        if (it == o.predictors.end() || !(*f == *it->second))
            return false;
    }
    return name == o.name && description == o.description && source == o.source && rulesFile == o.rulesFile
        && rules == o.rules && peakGflops == o.peakGflops && bandwidthGBps == o.bandwidthGBps
        && bytesPerElement == o.bytesPerElement && kernelOverheadUs == o.kernelOverheadUs
        && defaultEfficiency == o.defaultEfficiency && efficiency == o.efficiency && predictorFiles == o.predictorFiles;
}

double analyticalMs(const Device &device, const std::string &kind, double flops, double bytes, bool *computeBound)
{
    const Efficiency &e = device.efficiencyOf(kind);
    // GFLOP/s and GB/s: 1e9 per s = 1e6 per ms.
    const double computeMs = flops / (device.peakGflops * e.compute * 1e6);
    const double memoryMs = bytes / (device.bandwidthGBps * e.memory * 1e6);
    if (computeBound)
        *computeBound = computeMs >= memoryMs;
    return device.kernelOverheadUs / 1e3 + std::max(computeMs, memoryMs);
}

KernelPrediction predictKernel(const network::Network &net, const Kernel &kernel, const Device &device)
{
    KernelPrediction p;
    if (!kernel.writesOutput)
        return p; // views only: nothing runs
    p.analyticalMs = analyticalMs(device, kernel.kind, kernel.flops, kernel.bytes, &p.computeBound);
    p.ms = p.analyticalMs;
    const auto it = device.predictors.find(kernel.kind);
    if (it != device.predictors.end()) {
        if (const auto ms = it->second->predictMs(featureVector(net, kernel))) {
            p.ms = *ms;
            p.source = Source::Learned;
        }
    }
    return p;
}

Prediction predictNetwork(const network::Network &net, const Device &device, const FusionRules &rules)
{
    Prediction out;
    out.detection = detectKernels(net, rules, device.bytesPerElement);
    out.kernels.reserve(out.detection.kernels.size());
    for (const Kernel &k : out.detection.kernels) {
        out.kernels.push_back(predictKernel(net, k, device));
        out.kernelSumMs += out.kernels.back().ms;
        out.learnedKernels += out.kernels.back().source == Source::Learned;
        out.flops += k.flops;
    }
    // Operator-level baseline: every layer is its own kernel (no units, no fusion).
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const std::string type = operatorType(net, i, false);
        if (type == "view")
            continue;
        const OperatorCost c = operatorCost(net, i, device.bytesPerElement);
        out.operatorSumMs += analyticalMs(device, type, c.flops, c.inputBytes + c.outputBytes + c.weightBytes);
    }
    out.flopsMs = out.flops / (device.peakGflops * device.efficiencyOf("conv").compute * 1e6);
    return out;
}

Prediction predictNetwork(const network::Network &net, const Device &device)
{
    return predictNetwork(net, device, device.rules);
}

} // namespace roofline::nnmeter
