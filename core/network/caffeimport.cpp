// Caffe prototxt import (docs/file-formats-network.md#caffe): protobuf's
// TextFormat parser against our own caffe.proto subset (both syntaxes), then
// each layer mapped to ours. Shapes are inferred by our own rules (Caffe's:
// convolutions round down, pooling rounds up), so parameter counts and MACs
// come from the shapes as for a hand-written network.
#include "import.h"

#include "common/jsondocument.h"

#include "caffe.pb.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace roofline::network {

namespace {

namespace pb = google::protobuf;

class Collector : public pb::io::ErrorCollector
{
public:
    explicit Collector(Diagnostics &d) : m_d(d) {}
    void AddError(int line, pb::io::ColumnNumber column, const std::string &message) override
    {
        // protobuf says "Expected integer, got: nan": quote the file's own token,
        // so it reads as what the file holds, not as a value we computed.
        std::string text = message;
        if (const auto got = text.find(", got: "); got != std::string::npos)
            text = text.substr(0, got) + ", got \"" + text.substr(got + 7) + "\"";
        m_d.error("line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1), text);
    }
    void AddWarning(int, pb::io::ColumnNumber, const std::string &) override {}

private:
    Diagnostics &m_d;
};

// One layer of either syntax, as the fields we read.
struct CaffeLayer
{
    std::string name;
    std::string type; // V2 spelling ("Convolution"); V1 enum names are translated
    std::string op;   // as written ("CONVOLUTION" or "Convolution")
    std::vector<std::string> bottom, top;
    const roofline::caffe::ConvolutionParameter *conv = nullptr;
    const roofline::caffe::PoolingParameter *pool = nullptr;
    const roofline::caffe::InnerProductParameter *ip = nullptr;
    const roofline::caffe::LRNParameter *lrn = nullptr;
    const roofline::caffe::ConcatParameter *concat = nullptr;
    const roofline::caffe::EltwiseParameter *eltwise = nullptr;
    const roofline::caffe::InputParameter *input = nullptr;
    const roofline::caffe::ScaleParameter *scale = nullptr;
};

std::string v1TypeName(roofline::caffe::V1LayerParameter::LayerType t)
{
    using V1 = roofline::caffe::V1LayerParameter;
    switch (t) {
    case V1::CONVOLUTION: return "Convolution";
    case V1::DECONVOLUTION: return "Deconvolution";
    case V1::POOLING: return "Pooling";
    case V1::INNER_PRODUCT: return "InnerProduct";
    case V1::RELU: return "ReLU";
    case V1::SIGMOID: return "Sigmoid";
    case V1::TANH: return "TanH";
    case V1::LRN: return "LRN";
    case V1::DROPOUT: return "Dropout";
    case V1::CONCAT: return "Concat";
    case V1::SOFTMAX: return "Softmax";
    case V1::ELTWISE: return "Eltwise";
    case V1::FLATTEN: return "Flatten";
    case V1::SPLIT: return "Split";
    case V1::ABSVAL: return "AbsVal";
    case V1::BNLL: return "BNLL";
    case V1::POWER: return "Power";
    case V1::EXP: return "Exp";
    default: return V1::LayerType_Name(t);
    }
}

int pick(const pb::RepeatedField<pb::uint32> &list, bool hasSpecific, pb::uint32 specific, int fallback, int index)
{
    if (hasSpecific)
        return int(specific);
    if (list.empty())
        return fallback;
    return int(list.size() > index ? list.Get(index) : list.Get(0));
}

} // namespace

NetworkLoad importCaffe(const std::string &text, const std::string &fileLabel, const ImportOptions &options)
{
    NetworkLoad out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(fileLabel);
    roofline::caffe::NetParameter param;
    pb::TextFormat::Parser parser;
    Collector collector(diags);
    parser.RecordErrorsTo(&collector);
    parser.AllowUnknownField(true);
    if (!parser.ParseFromString(text, &param) || diags.hasErrors()) {
        if (!diags.hasErrors())
            diags.error("", "not a Caffe prototxt (protobuf text format)");
        return out;
    }
    if (param.layer_size() > 0 && param.layers_size() > 0) {
        diags.error("", "the file mixes the old (layers) and the new (layer) syntax");
        return out;
    }
    if (param.layer_size() + param.layers_size() > int(NetworkLimits::maxLayers)) {
        diags.error("", "at most " + std::to_string(NetworkLimits::maxLayers) + " layers are supported");
        return out;
    }

    Network net;
    net.name = param.name().empty() ? fileLabel.substr(fileLabel.find_last_of('/') + 1) : param.name();
    net.source = "Caffe prototxt " + fileLabel.substr(fileLabel.find_last_of('/') + 1);
    std::map<std::string, int> blobs; // blob name -> producer
    std::set<std::string> names;
    auto addInput = [&](const std::string &name, std::vector<std::int64_t> dims, const std::string &where) {
        auto given = options.inputShapes.find(name);
        if (given != options.inputShapes.end())
            dims = given->second;
        for (std::int64_t d : dims) {
            if (d < 1 || d > std::int64_t(NetworkLimits::maxDimension)) {
                diags.error(where, "input \"" + name + "\": dimension " + std::to_string(d) + " must be from 1 to "
                                       + formatNumber(NetworkLimits::maxDimension));
                return;
            }
        }
        if (dims.empty() || dims.size() > 4) {
            diags.error(where, "input \"" + name + "\": expected 1 to 4 dimensions, got " + std::to_string(dims.size()));
            return;
        }
        if (name.empty() || name.size() > 120) {
            diags.error(where, "an input name must have 1 to 120 characters");
            return;
        }
        if (!names.insert(name).second) {
            diags.error(where, "duplicate input \"" + name + "\"");
            return;
        }
        NetworkInput in;
        in.name = name;
        in.shape = toShape(dims);
        net.inputs.push_back(in);
        blobs[name] = -int(net.inputs.size());
    };
    // Old-style inputs: input + input_dim (four per input) or input_shape.
    for (int i = 0; i < param.input_size(); ++i) {
        std::vector<std::int64_t> dims;
        if (i < param.input_shape_size()) {
            dims.assign(param.input_shape(i).dim().begin(), param.input_shape(i).dim().end());
        } else if (param.input_dim_size() >= 4 * (i + 1)) {
            for (int k = 0; k < 4; ++k)
                dims.push_back(param.input_dim(4 * i + k));
        } else {
            diags.error("input \"" + param.input(i) + "\"", "has no shape: give four input_dim or an input_shape");
            continue;
        }
        addInput(param.input(i), dims, "input \"" + param.input(i) + "\"");
    }

    std::vector<CaffeLayer> layers;
    for (const auto &l : param.layer()) {
        CaffeLayer c;
        c.name = l.name();
        c.type = c.op = l.type();
        c.bottom.assign(l.bottom().begin(), l.bottom().end());
        c.top.assign(l.top().begin(), l.top().end());
        c.conv = l.has_convolution_param() ? &l.convolution_param() : nullptr;
        c.pool = l.has_pooling_param() ? &l.pooling_param() : nullptr;
        c.ip = l.has_inner_product_param() ? &l.inner_product_param() : nullptr;
        c.lrn = l.has_lrn_param() ? &l.lrn_param() : nullptr;
        c.concat = l.has_concat_param() ? &l.concat_param() : nullptr;
        c.eltwise = l.has_eltwise_param() ? &l.eltwise_param() : nullptr;
        c.input = l.has_input_param() ? &l.input_param() : nullptr;
        c.scale = l.has_scale_param() ? &l.scale_param() : nullptr;
        layers.push_back(c);
    }
    for (const auto &l : param.layers()) {
        CaffeLayer c;
        c.name = l.name();
        c.op = roofline::caffe::V1LayerParameter::LayerType_Name(l.type());
        c.type = v1TypeName(l.type());
        c.bottom.assign(l.bottom().begin(), l.bottom().end());
        c.top.assign(l.top().begin(), l.top().end());
        c.conv = l.has_convolution_param() ? &l.convolution_param() : nullptr;
        c.pool = l.has_pooling_param() ? &l.pooling_param() : nullptr;
        c.ip = l.has_inner_product_param() ? &l.inner_product_param() : nullptr;
        c.lrn = l.has_lrn_param() ? &l.lrn_param() : nullptr;
        c.concat = l.has_concat_param() ? &l.concat_param() : nullptr;
        c.eltwise = l.has_eltwise_param() ? &l.eltwise_param() : nullptr;
        layers.push_back(c);
    }

    std::map<std::string, int> skippedTypes;
    std::map<std::string, int> nextSuffix; // a repeated layer name -> the next "_k" to try
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const CaffeLayer &c = layers[i];
        const std::string where = "layer " + std::to_string(i) + " \"" + c.name + "\" (" + c.op + ")";
        if (c.type == "Input") {
            if (!c.input || c.input->shape_size() == 0) {
                diags.error(where, "an Input layer needs input_param { shape { dim: ... } }");
                continue;
            }
            for (int t = 0; t < int(c.top.size()); ++t) {
                const auto &s = c.input->shape(std::min(t, c.input->shape_size() - 1));
                addInput(c.top[std::size_t(t)], {s.dim().begin(), s.dim().end()}, where);
            }
            continue;
        }
        if (c.type == "Data" || c.type == "ImageData" || c.type == "MemoryData" || c.type == "HDF5Data"
            || c.type == "Accuracy" || c.type.find("Loss") != std::string::npos) {
            ++skippedTypes[c.type]; // training plumbing, not part of inference
            continue;
        }
        if (c.bottom.empty()) {
            diags.error(where, "has no bottom (input blob)");
            continue;
        }
        std::vector<int> producers;
        bool ok = true;
        for (const std::string &b : c.bottom) {
            auto it = blobs.find(b);
            if (it == blobs.end()) {
                diags.error(where, "bottom \"" + b + "\" is not the top of an earlier layer or a network input");
                ok = false;
                break;
            }
            producers.push_back(it->second);
        }
        if (!ok)
            continue;
        if (c.type == "Split" || c.type == "Silence") {
            for (const std::string &t : c.top)
                blobs[t] = producers[0];
            continue;
        }
        Layer layer;
        layer.op = c.op;
        layer.inputs = producers;
        std::string name = c.name.empty() ? c.op + "_" + std::to_string(i) : c.name.substr(0, 120);
        if (names.count(name)) {
            // The next suffix per name is remembered: 10^5 layers named alike took quadratic time.
            const std::string base = c.name.substr(0, 110);
            int &k = nextSuffix.try_emplace(base, 2).first->second;
            do
                name = base + "_" + std::to_string(k++);
            while (names.count(name));
        }
        names.insert(name);
        layer.name = name;
        const std::string &t = c.type;
        if (t == "Convolution" || t == "Deconvolution") {
            if (!c.conv || !c.conv->has_num_output()) {
                diags.error(where, "convolution_param { num_output } is required");
                continue;
            }
            const auto &p = *c.conv;
            layer.type = t == "Convolution" ? LayerType::Convolution : LayerType::Deconvolution;
            layer.outChannels = p.num_output();
            layer.kernelH = pick(p.kernel_size(), p.has_kernel_h(), p.kernel_h(), 0, 0);
            layer.kernelW = pick(p.kernel_size(), p.has_kernel_w(), p.kernel_w(), 0, 1);
            layer.strideH = pick(p.stride(), p.has_stride_h(), p.stride_h(), 1, 0);
            layer.strideW = pick(p.stride(), p.has_stride_w(), p.stride_w(), 1, 1);
            layer.padH = pick(p.pad(), p.has_pad_h(), p.pad_h(), 0, 0);
            layer.padW = pick(p.pad(), p.has_pad_w(), p.pad_w(), 0, 1);
            layer.dilationH = pick(p.dilation(), false, 0, 1, 0);
            layer.dilationW = pick(p.dilation(), false, 0, 1, 1);
            layer.groups = int(p.group());
            layer.hasBias = p.bias_term();
            if (layer.kernelH < 1 || layer.kernelW < 1 || layer.strideH < 1 || layer.strideW < 1
                || layer.dilationH < 1 || layer.dilationW < 1 || layer.kernelH > 10000 || layer.kernelW > 10000
                || layer.strideH > 10000 || layer.strideW > 10000 || layer.dilationH > 10000 || layer.dilationW > 10000
                || layer.padH < 0 || layer.padW < 0 // a pad above 2^31 read as int
                || layer.padH > 10000 || layer.padW > 10000 || layer.groups < 1 || layer.outChannels < 1
                || layer.outChannels > std::int64_t(NetworkLimits::maxDimension)) {
                diags.error(where, "kernel_size, stride, dilation, group and num_output must be >= 1 (kernel and pad "
                                   "at most 10000)");
                continue;
            }
        } else if (t == "InnerProduct") {
            if (!c.ip || !c.ip->has_num_output() || c.ip->num_output() < 1) {
                diags.error(where, "inner_product_param { num_output } (>= 1) is required");
                continue;
            }
            layer.type = LayerType::FullyConnected;
            layer.outChannels = c.ip->num_output();
            layer.hasBias = c.ip->bias_term();
        } else if (t == "Pooling") {
            layer.type = LayerType::Pooling;
            const roofline::caffe::PoolingParameter defaults;
            const auto &p = c.pool ? *c.pool : defaults;
            if (p.pool() == roofline::caffe::PoolingParameter::STOCHASTIC) {
                diags.error(where, "stochastic pooling is not supported");
                continue;
            }
            layer.poolMode = p.pool() == roofline::caffe::PoolingParameter::MAX ? PoolMode::Max : PoolMode::Average;
            layer.globalPool = p.global_pooling();
            if (!layer.globalPool) {
                // Caffe rounds pooling output sizes up (a global pool has no rounding: our JSON
                // writes none for it, so setting it here made the saved network read back different).
                layer.rounding = Rounding::Ceil;
                layer.kernelH = int(p.has_kernel_h() ? p.kernel_h() : p.kernel_size());
                layer.kernelW = int(p.has_kernel_w() ? p.kernel_w() : p.kernel_size());
                layer.strideH = int(p.has_stride_h() ? p.stride_h() : p.stride());
                layer.strideW = int(p.has_stride_w() ? p.stride_w() : p.stride());
                layer.padH = int(p.has_pad_h() ? p.pad_h() : p.pad());
                layer.padW = int(p.has_pad_w() ? p.pad_w() : p.pad());
                if (layer.kernelH < 1 || layer.kernelW < 1 || layer.strideH < 1 || layer.strideW < 1
                    || layer.padH < 0 || layer.padW < 0 // a pad above 2^31 read as int
                    || layer.kernelH > 10000 || layer.kernelW > 10000 || layer.padH > 10000 || layer.padW > 10000
                    || layer.strideH > 10000 || layer.strideW > 10000) {
                    diags.error(where, "pooling_param needs kernel_size >= 1 (or global_pooling) and stride >= 1");
                    continue;
                }
            }
        } else if (t == "ReLU" || t == "Sigmoid" || t == "TanH" || t == "PReLU" || t == "ELU" || t == "AbsVal"
                   || t == "BNLL" || t == "Power" || t == "Exp" || t == "Log" || t == "Swish" || t == "ReLU6") {
            layer.type = LayerType::Activation;
            layer.function = t == "ReLU" ? "relu" : t == "TanH" ? "tanh" : t == "Sigmoid" ? "sigmoid" : t;
        } else if (t == "Dropout") {
            // Caffe runs it at inference (as a copy), so it stays a layer: the identity.
            layer.type = LayerType::Activation;
            layer.function = "dropout";
        } else if (t == "LRN") {
            layer.type = LayerType::Lrn;
            layer.lrnSize = c.lrn ? int(std::min<pb::uint32>(c.lrn->local_size(), 100000)) : 5;
        } else if (t == "Concat") {
            layer.type = LayerType::Concat;
            const int axis = c.concat ? (c.concat->has_axis() ? c.concat->axis() : int(c.concat->concat_dim())) : 1;
            if (axis < 1 || axis > 3) {
                diags.error(where, "concatenation along axis " + std::to_string(axis) + " is not supported (1, 2 or 3)");
                continue;
            }
            layer.axis = axis - 1;
        } else if (t == "Softmax") {
            layer.type = LayerType::Softmax;
        } else if (t == "Eltwise") {
            const auto op = c.eltwise ? c.eltwise->operation() : roofline::caffe::EltwiseParameter::SUM;
            layer.type = op == roofline::caffe::EltwiseParameter::SUM    ? LayerType::EltwiseAdd
                : op == roofline::caffe::EltwiseParameter::PROD           ? LayerType::EltwiseMul
                                                                          : LayerType::Other;
        } else if (t == "Flatten") {
            layer.type = LayerType::Flatten;
        } else if (t == "BatchNorm") {
            // Caffe's BatchNorm holds only the running statistics (buffers); Scale holds γ and β.
            layer.type = LayerType::BatchNorm;
            layer.counts = LayerCounts{};
        } else {
            layer.type = LayerType::Other;
        }
        if (layer.type == LayerType::Other || needsStatedOutput(layer.type)) {
            // We cannot infer its output: take the input's shape, and say so.
            layer.statedOutput = net.inputShape(producers[0]).c > 0 ? net.inputShape(producers[0]) : Shape{1, 1, 1};
            if (t != "Eltwise")
                diags.warning(where, "not modelled; imported as \"other\" with its input's shape");
        }
        net.layers.push_back(std::move(layer));
        // A layer writing its input in place (top == bottom) replaces that blob.
        if (c.top.empty())
            diags.error(where, "has no top (output blob)");
        for (const std::string &top : c.top)
            blobs[top] = int(net.layers.size()) - 1;
        // Shapes as we go, so an unmodelled layer takes its real input shape.
        Diagnostics inferDiags;
        if (!inferShapes(net, inferDiags, net.layers.size() - 1)) {
            for (const Diagnostic &d : inferDiags.errors())
                diags.error(where, d.message);
            return out;
        }
    }
    if (diags.hasErrors())
        return out;
    if (net.inputs.empty()) {
        diags.error("", "the network has no input (input + input_dim, input_shape or an Input layer)");
        return out;
    }
    if (net.layers.empty()) {
        diags.error("", "the network has no layers");
        return out;
    }
    makeTextValidUtf8(net);
    if (!checkNetworkLimits(net, diags))
        return out;
    if (!skippedTypes.empty()) {
        std::string list;
        for (const auto &[type, count] : skippedTypes)
            list += (list.empty() ? "" : ", ") + type + (count > 1 ? " \u00d7" + std::to_string(count) : "");
        diags.warning("", "training layers skipped: " + list);
    }
    const std::string summary = unmodelledSummary(net);
    if (!summary.empty())
        diags.warning("", summary + " (imported as \"other\" layers)");
    out.network = std::move(net);
    return out;
}

NetworkLoad importCaffeFile(const std::string &path, const ImportOptions &options)
{
    // The one text reader (common/jsondocument.h): a folder, a missing file, the
    // size limit (an ifstream read /dev/zero until memory ran out) and a UTF-8
    // byte-order mark (protobuf's text parser refused it: "non ascii codepoint 239").
    NetworkLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return importCaffe(text, path, options);
}

} // namespace roofline::network
