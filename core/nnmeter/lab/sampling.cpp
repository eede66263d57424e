#include "sampling.h"

#include <algorithm>
#include <cmath>

namespace roofline::nnmeter::lab {

namespace {

int clampChannels(double c, bool quick)
{
    const int v = int(std::lround(c));
    return std::clamp(v, 1, quick ? 16 : 1 << 17);
}

int logUniform(std::mt19937 &rng, double lo, double hi)
{
    std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
    return int(std::lround(std::exp(u(rng))));
}

template <typename T>
T pick(std::mt19937 &rng, const std::vector<T> &values, const std::vector<double> &weights)
{
    std::discrete_distribution<std::size_t> d(weights.begin(), weights.end());
    return values[d(rng)];
}

// A built-in prior: ImageNet CNN stages (input size and channel range), our reading.
KernelConfig builtin(const std::string &kind, std::mt19937 &rng, bool quick)
{
    struct Stage
    {
        int hw;
        double cmin, cmax;
    };
    static const std::vector<Stage> stages = {{112, 16, 96}, {56, 24, 256}, {28, 32, 512}, {14, 64, 1024}, {7, 128, 2048}};
    static const std::vector<Stage> tiny = {{8, 4, 16}, {4, 4, 16}};
    const std::vector<Stage> &table = quick ? tiny : stages;
    if (kind == "matmul") {
        // Attention (our reading of transformer shapes): 49-400 tokens (7x7 to 20x20), 1-16 heads of
        // 16-128 channels; Q·Kᵀ and P·V alike.
        const int hw = quick ? pick<int>(rng, {2, 4}, {0.5, 0.5}) : pick<int>(rng, {7, 8, 11, 14, 16, 20}, {1, 1, 2, 2, 1, 1});
        const int heads = quick ? pick<int>(rng, {1, 2}, {0.5, 0.5}) : pick<int>(rng, {1, 2, 4, 8, 12, 16}, {1, 1, 2, 2, 3, 1});
        const int d = quick ? pick<int>(rng, {4, 8}, {0.5, 0.5}) : logUniform(rng, 16, 128);
        return matmulConfig(hw, heads, d, std::uniform_int_distribution<int>(0, 1)(rng) == 1);
    }
    const Stage s = table[std::uniform_int_distribution<std::size_t>(0, table.size() - 1)(rng)];
    KernelConfig c;
    c.kind = kind;
    c.hw = s.hw;
    c.cin = logUniform(rng, s.cmin, s.cmax);
    if (kind == "conv") {
        c.ks = pick<int>(rng, {1, 3, 5, 7}, {0.45, 0.45, 0.05, 0.05});
        c.stride = pick<int>(rng, {1, 2}, {0.85, 0.15});
        c.cout = clampChannels(c.cin * std::exp(std::uniform_real_distribution<double>(std::log(0.5), std::log(4.0))(rng)), quick);
    } else if (kind == "dwconv") {
        c.ks = pick<int>(rng, {3, 5, 7}, {0.7, 0.25, 0.05});
        c.stride = pick<int>(rng, {1, 2}, {0.75, 0.25});
        c.cout = c.cin;
    } else if (kind == "fc") {
        c.hw = 1;
        c.cin = quick ? logUniform(rng, 8, 64) : logUniform(rng, 64, 25088);
        c.cout = quick ? logUniform(rng, 4, 32) : logUniform(rng, 10, 4096);
    } else if (kind == "maxpool" || kind == "avgpool") {
        c.ks = pick<int>(rng, {2, 3}, {0.5, 0.5});
        c.stride = 2;
    } else if (kind == "concat") {
        c.cin2 = logUniform(rng, quick ? 4 : s.cmin, quick ? 16 : s.cmax);
    } else if (kind == "add") {
        c.cin2 = c.cin;
    } else if (kind == "act" && !quick && std::uniform_int_distribution<int>(0, 1)(rng) == 1) {
        // GELU is a transformer's activation: half its samples on token grids (7x7 to 20x20) of
        // 256-4096 channels, the MLP's widths.
        c.hw = pick<int>(rng, {7, 11, 14, 16, 20}, {1, 2, 2, 1, 1});
        c.cin = logUniform(rng, 256, 4096);
    }
    return c;
}

// Side of the square with the positions of an H×W input (rounded): how a sample
// stands for a kernel on a non-square input of a kind whose cost follows its
// element count.
int squareSide(const network::Shape &s)
{
    return int(std::max<long>(1, std::lround(std::sqrt(double(s.h) * double(s.w)))));
}

} // namespace

std::optional<KernelConfig> configOfKernel(const network::Network &net, const Kernel &k)
{
    if (!isSampleKind(k.kind) || !k.writesOutput || k.inputs.empty())
        return std::nullopt;
    KernelConfig c;
    c.kind = k.kind;
    c.hw = int(std::max<std::int64_t>(k.hw, 1));
    c.cin = int(std::max<std::int64_t>(k.cin, 1));
    c.cout = int(std::max<std::int64_t>(k.cout, 1));
    c.ks = std::max(k.kernelSize, 1);
    c.stride = std::max(k.stride, 1);
    if (k.kind == "fc") {
        c.cin = int(net.inputShape(k.inputs.front()).perItem());
        c.hw = 1;
    } else if (k.kind == "concat" || k.kind == "add") {
        if (k.inputs.size() != 2)
            return std::nullopt; // the lab samples two-input concats and adds
        c.cin2 = int(net.inputShape(k.inputs[1]).c);
        if (k.kind == "add" && c.cin2 != c.cin)
            return std::nullopt;
    } else if (k.kind == "matmul") {
        // One attention product as the network writes it (an imported matmul keeps its file's
        // dims, which have no heads: not a configuration of ours).
        if (k.layers.size() != 1 || k.inputs.size() != 2)
            return std::nullopt;
        const network::Layer &l = net.layers[std::size_t(k.layers.front())];
        if (l.type != network::LayerType::MatMul || l.imported() || l.heads < 1)
            return std::nullopt;
        const network::Shape a = net.inputShape(k.inputs[0]), b = net.inputShape(k.inputs[1]);
        const int d = int((l.transposeB ? b.c : a.c) / l.heads);
        return matmulConfig(squareSide(a), l.heads, d, l.transposeB);
    } else if (k.kind == "conv" && net.inputShape(k.inputs.front()).h != net.inputShape(k.inputs.front()).w) {
        return std::nullopt; // nn-Meter's features assume square inputs
    }
    const network::Shape in = net.inputShape(k.inputs.front());
    if (in.h != in.w && k.kind != "fc" && k.kind != "dwconv" && k.kind != "maxpool" && k.kind != "avgpool")
        c.hw = squareSide(in); // element-wise kinds on a token grid (16x8) or a sequence (1x197)
    return c;
}

Prior priorFromNetworks(const std::vector<const network::Network *> &networks, const FusionRules &rules)
{
    Prior p;
    for (const network::Network *net : networks) {
        const Detection d = detectKernels(*net, rules);
        for (const Kernel &k : d.kernels)
            if (auto c = configOfKernel(*net, k))
                p.fromNetworks[c->kind].push_back(*c);
    }
    return p;
}

KernelConfig drawConfig(const std::string &kind, const Prior &prior, std::mt19937 &rng, const SamplingLimits &limits)
{
    const auto it = prior.fromNetworks.find(kind);
    const bool havePrior = it != prior.fromNetworks.end() && !it->second.empty() && !limits.quick;
    KernelConfig c;
    for (int attempt = 0; attempt < 64; ++attempt) {
        if (havePrior && std::uniform_real_distribution<double>(0, 1)(rng) < 0.75) {
            // A network's kernel with its channels rescaled as the seed's data set does ([0.2, 1.8] × C).
            c = it->second[std::uniform_int_distribution<std::size_t>(0, it->second.size() - 1)(rng)];
            std::uniform_real_distribution<double> scale(0.2, 1.8);
            if (c.kind == "matmul") { // the channels per head rescaled; heads and tokens kept
                c = matmulConfig(c.hw, c.heads, std::clamp(int(std::lround(matmulHeadDim(c) * scale(rng))), 1, 1024), c.transposeB);
                if (configFlops(c) <= limits.maxFlops)
                    return c;
                continue;
            }
            if (c.kind != "fc" || c.cin > 0)
                c.cin = clampChannels(c.cin * scale(rng), false);
            c.cout = c.kind == "dwconv" ? c.cin : clampChannels(c.cout * scale(rng), false);
            if (c.kind == "add")
                c.cin2 = c.cin;
            else if (c.kind == "concat")
                c.cin2 = clampChannels(c.cin2 * scale(rng), false);
            if (c.kind == "fc")
                c.cin = std::clamp(c.cin, 1, 1 << 17);
        } else {
            c = builtin(kind, rng, limits.quick);
        }
        if (c.kind == "dwconv") // one channel would be a plain convolution
            c.cin = c.cout = std::max(c.cin, 2);
        if (configFlops(c) <= limits.maxFlops)
            return c;
    }
    return builtin(kind, rng, true); // a tiny one rather than none
}

std::vector<KernelConfig> resampleAround(const KernelConfig &base, int count, std::mt19937 &rng,
                                         const SamplingLimits &limits)
{
    std::vector<KernelConfig> out;
    std::uniform_real_distribution<double> factor(0.4, 1.2); // seed: CIN, COUT in [0.4·C, 1.2·C]
    for (int i = 0, attempts = 0; int(out.size()) < count && attempts < 8 * count; ++attempts, ++i) {
        KernelConfig c = base;
        if (c.kind == "matmul") { // the seed's channel range applied to the channels per head
            c = matmulConfig(base.hw, base.heads, clampChannels(matmulHeadDim(base) * factor(rng), limits.quick), base.transposeB);
            if (configFlops(c) <= limits.maxFlops)
                out.push_back(c);
            continue;
        }
        c.cin = clampChannels(base.cin * factor(rng), limits.quick);
        if (c.kind == "dwconv")
            c.cin = c.cout = std::max(c.cin, 2);
        else if (c.kind == "conv" || c.kind == "fc")
            c.cout = clampChannels(base.cout * factor(rng), limits.quick);
        if (c.kind == "add")
            c.cin2 = c.cin;
        else if (c.kind == "concat")
            c.cin2 = clampChannels(base.cin2 * factor(rng), limits.quick);
        if (configFlops(c) <= limits.maxFlops)
            out.push_back(c);
    }
    return out;
}

} // namespace roofline::nnmeter::lab
