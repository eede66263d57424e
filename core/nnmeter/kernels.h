// nn-Meter (seed 004; shared/reference/models.md section 5): a network runs
// kernel by kernel, where a kernel is whatever the backend fuses, so latency
// is predicted per kernel and summed ("模型延迟 = Σ 内核延迟", kernels run one
// at a time on edge devices, seed section 2.2).
//
// This file holds the first half of the model, everything that does not need
// a device: the nn-Meter operator type of each layer of a network, the fusion
// rules of a backend (BF_<op1>_<op2>, the multi-outbound and multi-inbound
// connection rules of seed Fig. 4, the fusion units), kernel detection on the
// DAG, and each kernel's features and costs.
//
// The seed's text is a partial translation: section 4.2 (fused operator types)
// and 5.x (features, sampling prior) are missing, so the operator vocabulary,
// the fusion units and the feature lists below are our reading of the seed,
// the nn-Meter paper's published tables and the issue (docs/models/nnmeter.md).
#pragma once

#include "network/network.h"

#include <map>
#include <string>
#include <vector>

namespace roofline::nnmeter {

// ---------------------------------------------------------------- operators

// nn-Meter operator type of a layer, the names used in BF_<a>_<b> rules:
// conv, dwconv (groups = input channels > 1), deconv, fc, matmul, bias, bn, ln,
// relu, relu6, hswish, hsigmoid, sigmoid, act (other activations), maxpool,
// avgpool, gap (global average pooling: a global pooling layer or a mean over
// H and W; "avgpool"/"reduce" when the global_pool unit is off), add, mul,
// eltwise (sub, div), concat, view (flatten, reshape: no data moves),
// transpose, split (slice), softmax, pad, resize, reduce, lrn, other.
std::string operatorType(const network::Network &net, std::size_t layer, bool globalPoolUnit = true);
// Every name operatorType() or a fusion unit can give, for validating rule files.
const std::vector<std::string> &operatorVocabulary();
bool isOperatorName(const std::string &name);

// What one layer costs when it runs alone, fp32 unless bytesPerElement says otherwise.
// FLOPs: 2 per multiply-accumulate (conv, deconv, fc, matmul), 2 per element for
// bn, k_h·k_w per output element for pooling, one per input element for a mean,
// one per output element for other element-wise work, 0 for views and concat.
struct OperatorCost
{
    double flops = 0;
    double params = 0;      // weights + biases (network::countLayer)
    double inputBytes = 0;  // every tensor it reads (activations)
    double outputBytes = 0; // the tensor it writes
    double weightBytes = 0; // params · bytes per element
    bool operator==(const OperatorCost &) const = default;
};
OperatorCost operatorCost(const network::Network &net, std::size_t layer, int bytesPerElement = 4);

// ------------------------------------------------------------ fusion rules

// The fusion rules of one backend ("roofline-studio/nnmeter-rules" files,
// docs/file-formats-nnmeter.md).
struct FusionRule
{
    bool fuses = false;
    // When the kernel lab measured it (seed eq. 1): times in ms, alone and fused.
    double t1Ms = 0, t2Ms = 0, t12Ms = 0;
    bool measured = false;
    // Tested on several input shapes: how many, and how many of them fused
    // (the rule is the strict majority; 0 and 0 when tested on one shape).
    int shapesTested = 0, shapesFused = 0;
    bool operator==(const FusionRule &) const = default;
};

struct FusionRules
{
    std::string backend;     // "tflite-cpu", "onednn-cpu", ...
    std::string description; // what it is and whose reading it is
    std::string source;
    // Seed Fig. 4(b): a node with several consumers is not fused by default
    // (it would be computed twice, or keep two tensors alive, or make a cycle).
    // When true, it fuses with its first consumer.
    bool multiOutbound = false;
    // Seed Fig. 4(c): a node with several producers may fuse with the first
    // inbound that reaches it.
    bool multiInbound = true;
    // Fusion units (seed section 4; issue 12): patterns collapsed into one
    // operator before the pairwise rules: se (squeeze-and-excitation),
    // hswish (x·relu6(x+3)/6 written out), swish (x·sigmoid(x), ours),
    // channel_shuffle (reshape-transpose-reshape), global_pool (gap).
    std::map<std::string, bool> units;
    // "conv_bn" -> rule (the file writes "BF_conv_bn"); pairs not listed do not fuse.
    std::map<std::string, FusionRule> pairs;

    bool fuses(const std::string &first, const std::string &second) const;
    bool unit(const std::string &name) const; // false when not listed
    bool operator==(const FusionRules &) const = default;
};

inline constexpr const char *kRulesFormatId = "roofline-studio/nnmeter-rules";
inline constexpr int kRulesFormatVersion = 1;
const std::vector<std::string> &unitNames(); // se, hswish, swish, channel_shuffle, global_pool

// ---------------------------------------------------------------- kernels

struct Kernel
{
    std::string type;          // member operator types joined by '-': "conv-bn-relu", "add-relu", "se"
    std::string kind;          // the first member's type ("conv", "dwconv", "se"...): predictor family
    std::vector<int> layers;   // member layer indices, in network order
    std::vector<int> inputs;   // tensors read from outside: layer index, or < 0 for a network input
    bool writesOutput = true;  // false when every member is a view
    network::Shape inputShape; // first external input
    network::Shape outputShape;
    // Features (seed section 5, our reading): HW = input height, CIN, COUT,
    // kernel size and stride of the first windowed member, FLOPs and parameters.
    std::int64_t hw = 0, cin = 0, cout = 0;
    int kernelSize = 0, stride = 0;
    double flops = 0, params = 0;
    double bytes = 0; // external inputs + outputs leaving the kernel + weights
    bool operator==(const Kernel &) const = default;
};

struct Detection
{
    std::vector<Kernel> kernels;     // in execution (topological) order
    std::vector<int> kernelOfLayer;  // layer index -> kernel index
    int operators = 0;               // layers that do work (not views)
    bool operator==(const Detection &) const = default;
};

// Seed section 4: collapse the fusion units, then walk the DAG in topological
// order and grow each kernel while the tail's BF rule with its consumer holds
// and the connection rules allow it. `bytesPerElement` sizes Kernel::bytes.
Detection detectKernels(const network::Network &net, const FusionRules &rules, int bytesPerElement = 4);

// The feature vector a learned predictor of this kernel kind reads, and its
// column names (seed section 5.1, our reading of nn-Meter's predictors):
//   conv, deconv:   HW CIN COUT KS S FLOPS PARAMS
//   dwconv:         HW CIN KS S FLOPS PARAMS
//   fc, matmul:     CIN COUT FLOPS PARAMS
//   maxpool, avgpool: HW CIN KS S
//   add, mul, concat, eltwise: HW CIN1 CIN2 (CIN2 = 0 with one input)
//   everything else: HW CIN
// FLOPS in MFLOPs and PARAMS in millions, as nn-Meter scales them. HW is the
// input's side: H for conv, deconv, dwconv and pooling (read on square inputs),
// √(H·W) for the rest (a 16×8 token grid reads as 11.3, a 1×197 sequence as 14).
std::vector<double> featureVector(const network::Network &net, const Kernel &kernel);
std::vector<std::string> featureNames(const std::string &kind);

} // namespace roofline::nnmeter
