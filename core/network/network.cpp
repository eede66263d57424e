#include "network.h"
#include "io.h"

#include <algorithm>
#include <limits>

namespace roofline::network {

namespace {

constexpr std::array<const char *, kLayerTypeCount> kTypeNames = {
    "convolution", "fully_connected", "bias",   "batch_norm", "activation", "pooling", "lrn",
    "eltwise_add", "concat",          "softmax", "flatten",   "matmul",     "layer_norm",
    "deconvolution", "eltwise_mul",   "eltwise_sub", "eltwise_div", "reshape", "transpose", "slice",
    "pad",         "resize",          "reduce",  "other",
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

bool isElementwise(LayerType type)
{
    return type == LayerType::EltwiseAdd || type == LayerType::EltwiseMul || type == LayerType::EltwiseSub
        || type == LayerType::EltwiseDiv;
}

bool needsStatedOutput(LayerType type)
{
    switch (type) {
    case LayerType::Reshape:
    case LayerType::Transpose:
    case LayerType::Slice:
    case LayerType::Pad:
    case LayerType::Resize:
    case LayerType::Reduce:
    case LayerType::Other:
        return true;
    default:
        return false;
    }
}

std::string Shape::toString() const
{
    return (n != 1 ? std::to_string(n) + "x" : std::string()) + std::to_string(c) + "x" + std::to_string(h) + "x"
        + std::to_string(w);
}

Shape toShape(const std::vector<std::int64_t> &dims)
{
    Shape s{1, 1, 1, 1};
    switch (dims.size()) {
    case 0:
        break;
    case 1:
        s.c = dims[0];
        break;
    case 2:
        s = {dims[1], 1, 1, dims[0]};
        break;
    case 3:
        s = {dims[2], 1, dims[1], dims[0]};
        break;
    default: {
        const std::size_t r = dims.size();
        s = {dims[r - 3], dims[r - 2], dims[r - 1], 1};
        for (std::size_t i = 0; i + 3 < r; ++i)
            s.n *= dims[i];
        break;
    }
    }
    return s;
}

std::vector<std::vector<int>> consumers(const Network &network)
{
    std::vector<std::vector<int>> out(network.layers.size());
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        for (int producer : network.layers[i].inputs) {
            if (producer >= 0 && std::size_t(producer) < out.size())
                out[std::size_t(producer)].push_back(int(i));
        }
    }
    return out;
}

bool isTopologicallyOrdered(const Network &network)
{
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        for (int producer : network.layers[i].inputs) {
            if (producer >= int(i) || (producer < 0 && -producer - 1 >= int(network.inputs.size())))
                return false;
        }
    }
    return true;
}

std::vector<std::pair<std::string, int>> unmodelledOperators(const Network &network)
{
    std::vector<std::pair<std::string, int>> out;
    for (const Layer &layer : network.layers) {
        if (layer.type != LayerType::Other)
            continue;
        const std::string op = layer.op.empty() ? layer.name : layer.op;
        auto it = std::find_if(out.begin(), out.end(), [&](const auto &e) { return e.first == op; });
        if (it == out.end())
            out.emplace_back(op, 1);
        else
            ++it->second;
    }
    return out;
}

std::string unmodelledSummary(const Network &network)
{
    const auto ops = unmodelledOperators(network);
    if (ops.empty())
        return {};
    int total = 0;
    std::string list;
    for (const auto &[op, count] : ops) {
        total += count;
        list += (list.empty() ? "" : ", ") + op + (count > 1 ? " \u00d7" + std::to_string(count) : std::string());
    }
    return std::to_string(total) + (total == 1 ? " operator" : " operators") + " not modelled: " + list;
}

int Network::indexOf(std::string_view layerName) const
{
    for (std::size_t i = 0; i < layers.size(); ++i) {
        if (layers[i].name == layerName)
            return int(i);
    }
    return -1;
}

namespace {

// Products of sizes saturate instead of overflowing: a count that large is
// refused by inferShapes (NetworkLimits::maxCount) before anything uses it.
std::int64_t satMul(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::int64_t>::max() : r;
}
std::int64_t satAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<std::int64_t>::max() : r;
}
// All elements of a shape, saturated (Shape::elements() may overflow for absurd shapes).
std::int64_t satElements(const Shape &s)
{
    return satMul(satMul(satMul(s.n, s.c), s.h), s.w);
}

} // namespace

bool inferShapes(Network &network, Diagnostics &diagnostics, std::size_t first)
{
    bool ok = true;
    for (std::size_t index = first; index < network.layers.size(); ++index) {
        Layer &layer = network.layers[index];
        const std::string where = "/layers/" + std::to_string(index);
        auto fail = [&](const std::string &message) {
            diagnostics.error(where, "layer \"" + layer.name + "\": " + message);
            ok = false;
        };
        const std::size_t arity = layer.inputs.size();
        const bool elementwise = isElementwise(layer.type);
        const bool multi = elementwise || layer.type == LayerType::Concat || layer.type == LayerType::MatMul;
        // Imported layers may read more tensors (or an element-wise constant), never none.
        const bool arityOk = layer.imported()
            ? arity >= 1
            : arity != 0 && (multi || arity == 1) && (layer.type != LayerType::MatMul || arity == 2)
                && (!elementwise || arity >= 2);
        if (!arityOk) {
            fail(std::string(layerTypeName(layer.type)) + " takes "
                 + (layer.type == LayerType::MatMul ? "exactly 2 inputs"
                        : elementwise                ? "at least 2 inputs"
                        : layer.type == LayerType::Concat ? "at least 1 input"
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
        // [1e7, 1e7, 1e7] is within each dimension's range but not a tensor anyone
        // can hold: its element count overflows 64-bit integers (issue 14).
        const auto maxCount = std::int64_t(NetworkLimits::maxCount);
        if (satElements(in) > maxCount) {
            fail("its input " + in.toString() + " has more than " + formatNumber(NetworkLimits::maxCount)
                 + " elements; that is beyond what the model can count");
            continue;
        }
        Shape out = in;
        if (layer.imported() || needsStatedOutput(layer.type)) {
            // The file's own shape inference (ONNX) or layer semantics we do not
            // model (reshape, slice, ...) give the output; it must be stated.
            if (!layer.statedOutput) {
                diagnostics.error(where + "/output", "layer \"" + layer.name + "\": a " + layerTypeName(layer.type)
                                                         + " layer must state its output shape");
                ok = false;
                continue;
            }
            out = *layer.statedOutput;
        } else {
            switch (layer.type) {
            case LayerType::Convolution:
            case LayerType::Deconvolution: {
                if (layer.outChannels <= 0 || layer.groups <= 0 || in.c % layer.groups != 0
                    || layer.outChannels % layer.groups != 0) {
                    fail("groups (" + std::to_string(layer.groups) + ") must divide the input channels ("
                         + std::to_string(in.c) + ") and out_channels (" + std::to_string(layer.outChannels) + ")");
                    continue;
                }
                const int kh = layer.dilationH * (layer.kernelH - 1) + 1;
                const int kw = layer.dilationW * (layer.kernelW - 1) + 1;
                if (layer.type == LayerType::Convolution)
                    out = {layer.outChannels, windowOutput(in.h, kh, layer.strideH, layer.padH, Rounding::Floor),
                           windowOutput(in.w, kw, layer.strideW, layer.padW, Rounding::Floor), in.n};
                else
                    out = {layer.outChannels, (in.h - 1) * layer.strideH - 2 * layer.padH + kh,
                           (in.w - 1) * layer.strideW - 2 * layer.padW + kw, in.n};
                break;
            }
            case LayerType::FullyConnected:
                out = {layer.outChannels, 1, 1, in.n};
                break;
            case LayerType::Pooling:
                if (layer.globalPool) {
                    out = {in.c, 1, 1, in.n};
                } else {
                    out = {in.c, windowOutput(in.h, layer.kernelH, layer.strideH, layer.padH, layer.rounding),
                           windowOutput(in.w, layer.kernelW, layer.strideW, layer.padW, layer.rounding), in.n};
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
            case LayerType::EltwiseMul:
            case LayerType::EltwiseSub:
            case LayerType::EltwiseDiv:
                // Broadcasting: each dimension equal, or 1 on one side (x·s with s of C×1×1).
                for (std::size_t k = 1; k < arity; ++k) {
                    const Shape other = network.inputShape(layer.inputs[k]);
                    auto merge = [](std::int64_t a, std::int64_t b) -> std::int64_t {
                        return a == b ? a : a == 1 ? b : b == 1 ? a : -1;
                    };
                    const Shape merged{merge(out.c, other.c), merge(out.h, other.h), merge(out.w, other.w),
                                       merge(out.n, other.n)};
                    if (merged.c < 0 || merged.h < 0 || merged.w < 0 || merged.n < 0) {
                        fail("input " + std::to_string(k) + " is " + other.toString() + ", input 0 is " + in.toString()
                             + "; each dimension must be equal or 1 on one side");
                        break;
                    }
                    out = merged;
                }
                break;
            case LayerType::Concat: {
                if (layer.axis < 0 || layer.axis > 2) {
                    fail("axis must be 0 (channels), 1 (height) or 2 (width), got " + std::to_string(layer.axis));
                    continue;
                }
                auto along = [&](Shape &s) -> std::int64_t & { return layer.axis == 0 ? s.c : layer.axis == 1 ? s.h : s.w; };
                along(out) = 0;
                for (std::size_t k = 0; k < arity; ++k) {
                    Shape other = network.inputShape(layer.inputs[k]);
                    const std::int64_t size = along(other);
                    Shape a = other, b = in;
                    along(a) = along(b) = 0;
                    if (!(a == b)) {
                        fail("input " + std::to_string(k) + " is " + other.toString() + ", input 0 is " + in.toString()
                             + (layer.axis == 0 ? "; concatenated inputs must have the same height and width"
                                                : "; concatenated inputs must agree in every other dimension"));
                        break;
                    }
                    along(out) += size;
                }
                break;
            }
            case LayerType::Flatten:
                out = {in.perItem(), 1, 1, in.n};
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
                out = {layer.heads * n, in.h, in.w, in.n};
                break;
            }
            default: // bias, batch_norm, activation, lrn, softmax, layer_norm
                break;
            }
        }
        if (out.c <= 0 || out.h <= 0 || out.w <= 0 || out.n <= 0) {
            fail("the window does not fit the input " + in.toString() + " (output would be " + out.toString() + ")");
            continue;
        }
        if (satElements(out) > maxCount) {
            fail("its output " + out.toString() + " has more than " + formatNumber(NetworkLimits::maxCount)
                 + " elements; that is beyond what the model can count");
            continue;
        }
        if (layer.statedOutput && !(*layer.statedOutput == out)) {
            diagnostics.error(where + "/output", "layer \"" + layer.name + "\": stated output "
                                                     + layer.statedOutput->toString()
                                                     + " does not match the inferred " + out.toString());
            ok = false;
        }
        layer.output = out;
        if (!layer.counts) {
            const LayerCounts c = countLayer(network, index);
            if (c.weights > maxCount || c.biases > maxCount || c.macs > maxCount) {
                fail("its parameter or MAC count is above " + formatNumber(NetworkLimits::maxCount));
                layer.output = Shape{};
                continue;
            }
        }
    }
    return ok;
}

LayerCounts countLayer(const Network &network, std::size_t index)
{
    const Layer &layer = network.layers[index];
    if (layer.counts)
        return *layer.counts;
    const Shape in = network.inputShape(layer.inputs.at(0));
    const Shape &out = layer.output;
    LayerCounts counts;
    switch (layer.type) {
    case LayerType::Convolution: {
        const std::int64_t perOutput = std::int64_t(layer.kernelH) * layer.kernelW * (in.c / layer.groups);
        counts.weights = satMul(perOutput, out.c);
        counts.biases = layer.hasBias ? out.c : 0;
        counts.macs = satMul(perOutput, satElements(out));
        break;
    }
    case LayerType::Deconvolution: {
        // Every input element is scattered through k_h·k_w·C_o/groups weights.
        const std::int64_t perInput = std::int64_t(layer.kernelH) * layer.kernelW * (out.c / layer.groups);
        counts.weights = satMul(perInput, in.c);
        counts.biases = layer.hasBias ? out.c : 0;
        counts.macs = satMul(perInput, satElements(in));
        break;
    }
    case LayerType::FullyConnected:
        counts.weights = satMul(satMul(satMul(in.c, in.h), in.w), out.c);
        counts.biases = layer.hasBias ? out.c : 0;
        counts.macs = satMul(counts.weights, in.n);
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
        counts.macs = satMul(satElements(out), in.c / layer.heads);
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
        total.weights = satAdd(total.weights, c.weights);
        total.biases = satAdd(total.biases, c.biases);
        total.macs = satAdd(total.macs, c.macs);
    }
    return total;
}

} // namespace roofline::network
