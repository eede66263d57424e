#include "network.h"

#include <algorithm>

namespace roofline::amaix {

namespace {

constexpr std::array<const char *, kLayerTypeCount> kTypeNames = {
    "convolution", "fully_connected", "bias",   "batch_norm", "activation", "pooling", "lrn",
    "eltwise_add", "concat",          "softmax", "flatten",   "matmul",     "layer_norm",
};

// Output size of a sliding window; Caffe's ceil mode drops a last window that
// would start in the padding only.
std::int64_t windowOutput(std::int64_t in, int kernel, int stride, int pad, Rounding rounding)
{
    const std::int64_t span = in + 2 * std::int64_t(pad) - kernel;
    if (span < 0)
        return 0;
    std::int64_t out = (rounding == Rounding::Ceil ? (span + stride - 1) / stride : span / stride) + 1;
    if (rounding == Rounding::Ceil && pad > 0 && (out - 1) * stride >= in + pad)
        --out;
    return out;
}

} // namespace

const char *layerTypeName(LayerType type)
{
    return kTypeNames[std::size_t(type)];
}

std::optional<LayerType> layerTypeFromName(std::string_view name)
{
    for (std::size_t i = 0; i < kTypeNames.size(); ++i) {
        if (name == kTypeNames[i])
            return LayerType(i);
    }
    return std::nullopt;
}

std::string Shape::toString() const
{
    return std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w);
}

int Network::indexOf(std::string_view layerName) const
{
    for (std::size_t i = 0; i < layers.size(); ++i) {
        if (layers[i].name == layerName)
            return int(i);
    }
    return -1;
}

bool inferShapes(Network &network, Diagnostics &diagnostics)
{
    bool ok = true;
    for (std::size_t index = 0; index < network.layers.size(); ++index) {
        Layer &layer = network.layers[index];
        const std::string where = "/layers/" + std::to_string(index);
        auto fail = [&](const std::string &message) {
            diagnostics.error(where, "layer \"" + layer.name + "\": " + message);
            ok = false;
        };
        const std::size_t arity = layer.inputs.size();
        const bool multi = layer.type == LayerType::EltwiseAdd || layer.type == LayerType::Concat
            || layer.type == LayerType::MatMul;
        if (arity == 0 || (!multi && arity != 1) || (layer.type == LayerType::MatMul && arity != 2)
            || (layer.type == LayerType::EltwiseAdd && arity < 2)) {
            fail(std::string(layerTypeName(layer.type)) + " takes "
                 + (layer.type == LayerType::MatMul ? "exactly 2 inputs"
                        : layer.type == LayerType::EltwiseAdd ? "at least 2 inputs"
                        : layer.type == LayerType::Concat    ? "at least 1 input"
                                                             : "exactly 1 input")
                 + ", got " + std::to_string(arity));
            continue;
        }
        bool inputsOk = true;
        for (int producer : layer.inputs) {
            const bool valid = producer >= 0 ? producer < int(index) && network.layers[std::size_t(producer)].output.c > 0
                                             : -producer - 1 < int(network.inputs.size());
            inputsOk = inputsOk && valid;
        }
        if (!inputsOk) {
            fail("an input has no valid shape (an earlier error)");
            continue;
        }
        const Shape in = network.inputShape(layer.inputs[0]);
        Shape out = in;
        switch (layer.type) {
        case LayerType::Convolution: {
            if (layer.outChannels <= 0 || layer.groups <= 0 || in.c % layer.groups != 0
                || layer.outChannels % layer.groups != 0) {
                fail("groups (" + std::to_string(layer.groups) + ") must divide the input channels ("
                     + std::to_string(in.c) + ") and out_channels (" + std::to_string(layer.outChannels) + ")");
                continue;
            }
            out = {layer.outChannels, windowOutput(in.h, layer.kernelH, layer.strideH, layer.padH, Rounding::Floor),
                   windowOutput(in.w, layer.kernelW, layer.strideW, layer.padW, Rounding::Floor)};
            break;
        }
        case LayerType::FullyConnected:
            out = {layer.outChannels, 1, 1};
            break;
        case LayerType::Pooling:
            if (layer.globalPool) {
                out = {in.c, 1, 1};
            } else {
                out = {in.c, windowOutput(in.h, layer.kernelH, layer.strideH, layer.padH, layer.rounding),
                       windowOutput(in.w, layer.kernelW, layer.strideW, layer.padW, layer.rounding)};
            }
            break;
        case LayerType::EltwiseAdd:
            for (std::size_t k = 1; k < arity; ++k) {
                const Shape other = network.inputShape(layer.inputs[k]);
                if (!(other == in)) {
                    fail("input " + std::to_string(k) + " is " + other.toString() + ", input 0 is " + in.toString()
                         + "; element-wise inputs must have the same shape");
                    break;
                }
            }
            break;
        case LayerType::Concat:
            out.c = 0;
            for (std::size_t k = 0; k < arity; ++k) {
                const Shape other = network.inputShape(layer.inputs[k]);
                if (other.h != in.h || other.w != in.w) {
                    fail("input " + std::to_string(k) + " is " + other.toString() + ", input 0 is " + in.toString()
                         + "; concatenated inputs must have the same height and width");
                    break;
                }
                out.c += other.c;
            }
            break;
        case LayerType::Flatten:
            out = {in.elements(), 1, 1};
            break;
        case LayerType::MatMul: {
            const Shape b = network.inputShape(layer.inputs[1]);
            if (layer.heads <= 0 || in.c % layer.heads != 0 || b.c % layer.heads != 0) {
                fail("heads (" + std::to_string(layer.heads) + ") must divide the channels of both inputs ("
                     + std::to_string(in.c) + ", " + std::to_string(b.c) + ")");
                continue;
            }
            const std::int64_t k = in.c / layer.heads;
            const std::int64_t kb = layer.transposeB ? b.h * b.w : b.c / layer.heads;
            if (k != kb) {
                fail("inner dimensions differ: " + std::to_string(k) + " (input 0 channels per head) vs "
                     + std::to_string(kb) + (layer.transposeB ? " (input 1 positions)" : " (input 1 channels per head)"));
                continue;
            }
            const std::int64_t n = layer.transposeB ? b.c / layer.heads : b.h * b.w;
            out = {layer.heads * n, in.h, in.w};
            break;
        }
        case LayerType::Bias:
        case LayerType::BatchNorm:
        case LayerType::Activation:
        case LayerType::Lrn:
        case LayerType::Softmax:
        case LayerType::LayerNorm:
            break;
        }
        if (out.c <= 0 || out.h <= 0 || out.w <= 0) {
            fail("the window does not fit the input " + in.toString() + " (output would be " + out.toString() + ")");
            continue;
        }
        if (layer.statedOutput && !(*layer.statedOutput == out)) {
            diagnostics.error(where + "/output", "layer \"" + layer.name + "\": stated output "
                                                     + layer.statedOutput->toString()
                                                     + " does not match the inferred " + out.toString());
            ok = false;
        }
        layer.output = out;
    }
    return ok;
}

LayerCounts countLayer(const Network &network, std::size_t index)
{
    const Layer &layer = network.layers[index];
    const Shape in = network.inputShape(layer.inputs.at(0));
    const Shape &out = layer.output;
    LayerCounts counts;
    switch (layer.type) {
    case LayerType::Convolution: {
        const std::int64_t perOutput = std::int64_t(layer.kernelH) * layer.kernelW * (in.c / layer.groups);
        counts.weights = perOutput * out.c;
        counts.biases = layer.hasBias ? out.c : 0;
        counts.macs = perOutput * out.elements();
        break;
    }
    case LayerType::FullyConnected:
        counts.weights = in.elements() * out.c;
        counts.biases = layer.hasBias ? out.c : 0;
        counts.macs = counts.weights;
        break;
    case LayerType::Bias:
        counts.biases = in.c;
        break;
    case LayerType::BatchNorm:
    case LayerType::LayerNorm:
        counts.weights = in.c;
        counts.biases = in.c;
        break;
    case LayerType::MatMul:
        counts.macs = out.elements() * (in.c / layer.heads);
        break;
    default:
        break;
    }
    return counts;
}

LayerCounts countNetwork(const Network &network)
{
    LayerCounts total;
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        const LayerCounts c = countLayer(network, i);
        total.weights += c.weights;
        total.biases += c.biases;
        total.macs += c.macs;
    }
    return total;
}

} // namespace roofline::amaix
