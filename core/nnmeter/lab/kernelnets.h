// The small networks the kernel lab times: one operator alone, two operators
// in a row (the fusion test of seed 004 section 4, eq. 1), and one kernel
// configuration of a kernel kind (the samples of the learned predictors,
// seed section 5). Each is a network::Network, so the lab runs it through the
// same kernel detection and oneDNN runner as a whole network, and the
// features of a sample are exactly those featureVector() gives at prediction.
#pragma once

#include "network/network.h"

#include <string>
#include <vector>

namespace roofline::nnmeter::lab {

// The operators the fusion test pairs (nn-Meter operator names, kernels.h):
// conv, dwconv, fc, bn, relu, relu6, hswish, swish, sigmoid, maxpool, avgpool,
// gap, add, mul, concat (swish since 2026-11-26: one x·sigmoid(x) layer, the
// operator the swish unit of EfficientNet's written-out SiLU becomes).
const std::vector<std::string> &pairOperators();

// `op` alone on an input of `input` (add, mul and concat get a second input
// of the same shape). conv and dwconv are 3x3, stride 1, padding 1, C -> C;
// fc gives C outputs; pooling is 3x3, stride 1, padding 1; gap a global average.
network::Network operatorNetwork(const std::string &op, const network::Shape &input);
// `first` then `second` reading its output (the second operand of add, mul and
// concat is a second network input). `second` alone runs on first's output
// shape: operatorNetwork(second, result.layers[0].output).
network::Network pairNetwork(const std::string &first, const std::string &second, const network::Shape &input);
// Operators in a row, each reading the one before (add, mul and concat read an
// extra network input besides): pairNetwork() is chainNetwork({first, second}).
network::Network chainNetwork(const std::vector<std::string> &ops, const network::Shape &input);

// A kernel configuration of one kind (the features a predictor reads, before
// FLOPs and parameters, which follow from them).
struct KernelConfig
{
    std::string kind; // conv, dwconv, fc, maxpool, avgpool, add, concat, relu, bn, hswish, gap, se, swish, channelshuffle,
                      // split, act (GELU), matmul
    int hw = 1;       // input height = width
    int cin = 1;
    int cout = 1;     // conv, fc
    int ks = 1;       // conv, dwconv, pooling
    int stride = 1;
    int cin2 = 0;     // concat: the second input's channels (add: = cin)
    // matmul: attention's products, `heads` side by side (network.h's matmul). Q·Kᵀ
    // (transposeB false) reads two inputs of CIN = heads·d channels and gives COUT =
    // heads·HW² (one score per pair of positions); P·V (transposeB true) reads the scores
    // (CIN = heads·HW²) and values of COUT = heads·d channels.
    int heads = 0;
    bool transposeB = false;
    bool operator==(const KernelConfig &) const = default;
};

// Kernel kinds the lab can sample and train.
const std::vector<std::string> &sampleKinds();
bool isSampleKind(const std::string &kind);

// The network of one configuration, as the seed's predictors see it: conv and
// dwconv as conv-bn-relu and dwconv-bn-relu (seed 7.1: the fused variants
// differ by < 0.3 %), fc alone, pooling with padding ks/2 unless ks = stride,
// add and concat on two inputs, the element-wise kinds alone, and the fusion
// units as the networks write them: se as MobileNetV3's (global mean, 1x1 conv
// to C/4, relu, 1x1 conv, hard sigmoid, multiply), swish as x · sigmoid(x),
// channelshuffle as reshape, transpose, reshape, split as a slice of half the
// channels (ShuffleNetV2), act as GELU (erf form: BERT's and ViT's activation),
// matmul as one attention product on HW×HW positions.
network::Network configNetwork(const KernelConfig &config);

// A matmul configuration of attention: `positions` = HW² tokens, `heads` heads of
// `headDim` channels, Q·Kᵀ or (transposeB) P·V.
KernelConfig matmulConfig(int hw, int heads, int headDim, bool transposeB);
// The channels per head (d) of a matmul configuration.
int matmulHeadDim(const KernelConfig &config);

// FLOPs of the configuration's kernel (for budgeting), by the core's counts.
double configFlops(const KernelConfig &config);

} // namespace roofline::nnmeter::lab
