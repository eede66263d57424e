// Adaptive sampling of kernel configurations (seed 004 section 5.2, our
// reading: the translation lacks 5.x): configurations are drawn from a prior
// of what CNN designs use — the kernels of the networks given to the lab, their
// channel counts rescaled by a factor in [0.2, 1.8] as the seed's data set
// rescales output channels, mixed with a built-in table of ImageNet-CNN stages —
// and, around every sample a trained predictor misses by more than 10 %, new
// configurations keep every other dimension and draw CIN and COUT from
// [0.4·C, 1.2·C] (the seed's fine-grained channel sampling).
#pragma once

#include "kernelnets.h"

#include "../kernels.h"

#include <map>
#include <optional>
#include <random>
#include <vector>

namespace roofline::nnmeter::lab {

struct Prior
{
    std::map<std::string, std::vector<KernelConfig>> fromNetworks; // by kind
};

// The configuration a detected kernel corresponds to, when its kind is one
// the lab samples.
std::optional<KernelConfig> configOfKernel(const network::Network &net, const Kernel &kernel);
Prior priorFromNetworks(const std::vector<const network::Network *> &networks, const FusionRules &rules);

struct SamplingLimits
{
    double maxFlops = 4e9; // a sample above is drawn again (the lab's time is bounded)
    bool quick = false;    // tiny shapes (HW <= 8, C <= 16) for tests
};

KernelConfig drawConfig(const std::string &kind, const Prior &prior, std::mt19937 &rng, const SamplingLimits &limits);
std::vector<KernelConfig> resampleAround(const KernelConfig &config, int count, std::mt19937 &rng,
                                         const SamplingLimits &limits);

} // namespace roofline::nnmeter::lab
