#include "kernelnets.h"

#include "../kernels.h"

#include <algorithm>
#include <stdexcept>

namespace roofline::nnmeter::lab {

using network::Layer;
using network::LayerType;
using network::Network;
using network::Shape;

namespace {

Layer makeLayer(const std::string &op, int input, const Shape &in, int extraInput)
{
    Layer l;
    l.name = op;
    l.inputs = {input};
    l.hasBias = false;
    if (op == "conv" || op == "dwconv") {
        l.type = LayerType::Convolution;
        l.outChannels = in.c;
        l.kernelH = l.kernelW = 3;
        l.padH = l.padW = 1;
        l.groups = op == "dwconv" ? int(in.c) : 1;
    } else if (op == "fc") {
        l.type = LayerType::FullyConnected;
        l.outChannels = in.c;
    } else if (op == "bn") {
        l.type = LayerType::BatchNorm;
    } else if (op == "relu" || op == "relu6" || op == "hswish" || op == "sigmoid" || op == "swish") {
        l.type = LayerType::Activation;
        l.function = op == "hswish" ? "hardswish" : op; // swish: one x·sigmoid(x) layer (oneDNN's swish)
    } else if (op == "maxpool" || op == "avgpool") {
        l.type = LayerType::Pooling;
        l.poolMode = op == "maxpool" ? network::PoolMode::Max : network::PoolMode::Average;
        l.kernelH = l.kernelW = 3;
        l.padH = l.padW = 1;
    } else if (op == "gap") {
        l.type = LayerType::Pooling;
        l.poolMode = network::PoolMode::Average;
        l.globalPool = true;
    } else if (op == "add" || op == "mul" || op == "concat") {
        l.type = op == "add" ? LayerType::EltwiseAdd : op == "mul" ? LayerType::EltwiseMul : LayerType::Concat;
        l.inputs = {input, extraInput};
    } else {
        throw std::invalid_argument("the kernel lab has no test network for operator \"" + op + "\"");
    }
    return l;
}

// An activation layer named `name` applying `function` to the output of `input`.
Layer activation(const std::string &name, const std::string &function, int input)
{
    Layer l;
    l.name = name;
    l.type = LayerType::Activation;
    l.function = function;
    l.inputs = {input};
    return l;
}

bool needsSecondInput(const std::string &op)
{
    return op == "add" || op == "mul" || op == "concat";
}

Network finish(Network net)
{
    Diagnostics d;
    if (!network::inferShapes(net, d))
        throw std::invalid_argument("kernel lab network \"" + net.name + "\": " + d.toString());
    return net;
}

} // namespace

const std::vector<std::string> &pairOperators()
{
    static const std::vector<std::string> ops = {"conv",    "dwconv",  "fc",      "bn",  "relu", "relu6", "hswish", "swish",
                                                 "sigmoid", "maxpool", "avgpool", "gap", "add",  "mul",   "concat"};
    return ops;
}

Network operatorNetwork(const std::string &op, const Shape &input)
{
    Network net;
    net.name = op;
    net.inputs.push_back({"x", input});
    if (needsSecondInput(op))
        net.inputs.push_back({"y", input});
    net.layers.push_back(makeLayer(op, -1, input, -2));
    return finish(std::move(net));
}

Network chainNetwork(const std::vector<std::string> &ops, const Shape &input)
{
    Network net;
    for (const std::string &op : ops)
        net.name += (net.name.empty() ? "" : "-") + op;
    net.inputs.push_back({"x", input});
    Shape in = input;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        int extra = 0;
        if (needsSecondInput(ops[i])) {
            net.inputs.push_back({"y" + std::to_string(i), in});
            extra = -int(net.inputs.size());
        }
        Layer l = makeLayer(ops[i], i == 0 ? -1 : int(i) - 1, in, extra);
        l.name = ops[i] + std::to_string(i + 1);
        net.layers.push_back(l);
        net = finish(std::move(net));
        in = net.layers.back().output;
    }
    return net;
}

Network pairNetwork(const std::string &first, const std::string &second, const Shape &input)
{
    return chainNetwork({first, second}, input);
}

const std::vector<std::string> &sampleKinds()
{
    static const std::vector<std::string> kinds = {"conv",   "dwconv", "fc",    "maxpool", "avgpool",        "add",
                                                   "concat", "relu",   "bn",    "hswish",  "gap",            "se",
                                                   "swish",  "channelshuffle", "split", "act", "matmul"};
    return kinds;
}

bool isSampleKind(const std::string &kind)
{
    const auto &k = sampleKinds();
    return std::find(k.begin(), k.end(), kind) != k.end();
}

Network configNetwork(const KernelConfig &c)
{
    Network net;
    net.name = c.kind;
    const Shape in{std::max(c.cin, 1), std::max(c.hw, 1), std::max(c.hw, 1), 1};
    net.inputs.push_back({"x", c.kind == "fc" ? Shape{std::max(c.cin, 1), 1, 1, 1} : in});
    auto push = [&](Layer l) { net.layers.push_back(std::move(l)); };
    if (c.kind == "conv" || c.kind == "dwconv") {
        Layer conv;
        conv.name = c.kind;
        conv.type = LayerType::Convolution;
        conv.inputs = {-1};
        conv.outChannels = c.kind == "dwconv" ? c.cin : std::max(c.cout, 1);
        conv.groups = c.kind == "dwconv" ? std::max(c.cin, 1) : 1;
        conv.kernelH = conv.kernelW = std::max(c.ks, 1);
        conv.strideH = conv.strideW = std::max(c.stride, 1);
        conv.padH = conv.padW = std::max(c.ks, 1) / 2;
        conv.hasBias = false;
        push(conv);
        Layer bn;
        bn.name = "bn";
        bn.type = LayerType::BatchNorm;
        bn.inputs = {0};
        push(bn);
        push(activation("relu", "relu", 1));
    } else if (c.kind == "fc") {
        Layer fc;
        fc.name = "fc";
        fc.type = LayerType::FullyConnected;
        fc.inputs = {-1};
        fc.outChannels = std::max(c.cout, 1);
        push(fc);
    } else if (c.kind == "maxpool" || c.kind == "avgpool") {
        Layer p;
        p.name = c.kind;
        p.type = LayerType::Pooling;
        p.inputs = {-1};
        p.poolMode = c.kind == "maxpool" ? network::PoolMode::Max : network::PoolMode::Average;
        p.kernelH = p.kernelW = std::max(c.ks, 1);
        p.strideH = p.strideW = std::max(c.stride, 1);
        p.padH = p.padW = c.ks == c.stride ? 0 : std::max(c.ks, 1) / 2;
        push(p);
    } else if (c.kind == "add" || c.kind == "concat") {
        net.inputs.push_back({"y", Shape{c.kind == "add" ? in.c : std::max(c.cin2, 1), in.h, in.w, 1}});
        Layer l;
        l.name = c.kind;
        l.type = c.kind == "add" ? LayerType::EltwiseAdd : LayerType::Concat;
        l.inputs = {-1, -2};
        push(l);
    } else if (c.kind == "se") {
        // MobileNetV3's squeeze-and-excitation: global mean, 1x1 conv to C/4 (at least 8),
        // relu, 1x1 conv back to C, hard sigmoid, X times the scale (the se unit collapses it).
        Layer gap = makeLayer("gap", -1, in, 0);
        gap.name = "squeeze";
        push(gap);
        auto conv1x1 = [](const std::string &name, int input, int channels) {
            Layer l;
            l.name = name;
            l.type = LayerType::Convolution;
            l.inputs = {input};
            l.outChannels = channels;
            l.hasBias = true;
            return l;
        };
        push(conv1x1("reduce", 0, std::max(8, (std::max(c.cin, 1) / 4 + 7) / 8 * 8)));
        push(activation("relu", "relu", 1));
        push(conv1x1("expand", 2, std::max(c.cin, 1)));
        push(activation("gate", "hardsigmoid", 3));
        Layer scale;
        scale.name = "scale";
        scale.type = LayerType::EltwiseMul;
        scale.inputs = {-1, 4};
        push(scale);
    } else if (c.kind == "swish") {
        // x · sigmoid(x) (SiLU, EfficientNet; the swish unit).
        push(activation("sigmoid", "sigmoid", -1));
        Layer mul;
        mul.name = "mul";
        mul.type = LayerType::EltwiseMul;
        mul.inputs = {-1, 0};
        push(mul);
    } else if (c.kind == "channelshuffle") {
        // ShuffleNet's shuffle of 2 groups: reshape, transpose, reshape (the channel_shuffle
        // unit); the reshapes are views, the transpose moves every element.
        for (const auto &[name, type] : {std::pair{"split_groups", LayerType::Reshape}, std::pair{"swap", LayerType::Transpose},
                                         std::pair{"merge_groups", LayerType::Reshape}}) {
            Layer l;
            l.name = name;
            l.type = type;
            l.inputs = {int(net.layers.size()) - 1};
            l.statedOutput = in;
            push(l);
        }
    } else if (c.kind == "split") {
        // ShuffleNetV2's channel split: one half of the channels (a slice that copies them).
        Layer l;
        l.name = "split";
        l.type = LayerType::Slice;
        l.inputs = {-1};
        l.statedOutput = Shape{std::max(c.cin / 2, 1), in.h, in.w, 1};
        push(l);
    } else if (c.kind == "act") {
        // GELU in its erf form (BERT; ViT's written-out erf runs as the same kind of pass).
        push(activation("gelu", "gelu", -1));
    } else if (c.kind == "matmul") {
        // Q·Kᵀ: queries and keys of CIN channels; P·V: scores (CIN) and values (COUT channels).
        net.inputs.push_back({"y", Shape{c.transposeB ? std::max(c.cout, 1) : in.c, in.h, in.w, 1}});
        Layer l;
        l.name = c.transposeB ? "context" : "scores";
        l.type = LayerType::MatMul;
        l.inputs = {-1, -2};
        l.heads = std::max(c.heads, 1);
        l.transposeB = c.transposeB;
        l.hasBias = false;
        push(l);
    } else {
        push(makeLayer(c.kind, -1, in, 0));
    }
    return finish(std::move(net));
}

KernelConfig matmulConfig(int hw, int heads, int headDim, bool transposeB)
{
    KernelConfig c;
    c.kind = "matmul";
    c.hw = std::max(hw, 1);
    c.heads = std::max(heads, 1);
    c.transposeB = transposeB;
    const int d = std::max(headDim, 1);
    const int scores = c.heads * c.hw * c.hw; // one per (head, key position)
    c.cin = transposeB ? scores : c.heads * d;
    c.cout = transposeB ? c.heads * d : scores;
    return c;
}

int matmulHeadDim(const KernelConfig &c)
{
    return std::max((c.transposeB ? c.cout : c.cin) / std::max(c.heads, 1), 1);
}

double configFlops(const KernelConfig &c)
{
    const Network net = configNetwork(c);
    double flops = 0;
    for (std::size_t i = 0; i < net.layers.size(); ++i)
        flops += operatorCost(net, i).flops;
    return flops;
}

} // namespace roofline::nnmeter::lab
