// ONNX import through the ONNX library (docs/file-formats-network.md#onnx):
// parse the ModelProto, check it, run ONNX shape inference (with data
// propagation, so Shape/Gather/Concat chains that compute a Reshape's target
// resolve), then map each node to a layer. Weights are never read: an
// initializer's dims give its parameter count, so a model whose weights live
// in external data files opens without those files.
#include "import.h"
#include "onnxfold.h"

#include "common/childprocess.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>


#include <algorithm>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace roofline::network {

namespace {

using Dims = std::vector<std::int64_t>;

constexpr int kMaxNodes = 200000;
constexpr std::size_t kMaxNameLength = 120;

bool isFloatType(int t)
{
    return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::FLOAT16 || t == onnx::TensorProto::DOUBLE
        || t == onnx::TensorProto::BFLOAT16;
}

// How long the shape-inference child may go without sending a byte. Inference
// of ResNet-50 takes milliseconds; a child this quiet is stuck, most likely on
// a lock another thread of this process held at the fork (an allocator's: seen
// under AddressSanitizer, whose allocator lock is not released in the child).
// It is killed and the inference forked once more; a second silence is
// reported as an error, never waited out.
constexpr int kInferenceSilenceMs = 20000;

// ONNX shape inference (with data propagation) on `model`, in a child process
// (common/childprocess.h): libonnx 1.12's InferShapes dereferences null on
// some models that pass check_model (found by fuzzing, issue 14), and a crash
// there must not take the studio and the user's work with it. The child sends
// back the inferred model or the library's error; any other end of the child
// is reported as a model the library cannot handle. Without fork() it runs in
// this process.
bool inferShapesIsolated(onnx::ModelProto &model, std::string &why)
{
    const onnx::ShapeInferenceOptions options(true, 1, true);
    auto &registry = *onnx::OpSchemaRegistry::Instance(); // initialised here, not in the child
    const ChildOutcome child = runInChild(
        [&]() -> std::string {
            try {
                onnx::shape_inference::InferShapes(model, &registry, options);
                return "M" + model.SerializeAsString();
            } catch (const std::exception &e) {
                return std::string("E") + e.what();
            }
        },
        kInferenceSilenceMs);
    const std::string &reply = child.reply;
    switch (child.end) {
    case ChildOutcome::End::NoFork:
        try {
            onnx::shape_inference::InferShapes(model, &registry, options);
        } catch (const std::exception &e) {
            why = std::string("ONNX shape inference failed: ") + e.what();
            return false;
        }
        return true;
    case ChildOutcome::End::Silent:
        why = "ONNX shape inference did not finish: twice it went " + std::to_string(kInferenceSilenceMs / 1000)
            + " s without a result and was stopped (a heavily loaded machine? try opening the file again)";
        return false;
    case ChildOutcome::End::Replied:
        if (!reply.empty() && reply[0] == 'E') {
            why = "ONNX shape inference failed: " + reply.substr(1);
            return false;
        }
        if (!reply.empty() && reply[0] == 'M' && model.ParseFromArray(reply.data() + 1, int(reply.size() - 1)))
            return true;
        break;
    case ChildOutcome::End::Failed:
        break;
    }
    why = std::string("ONNX shape inference crashed on this model")
        + (child.signal ? " (signal " + std::to_string(child.signal) + ")" : std::string())
        + "; the model is malformed in a way the ONNX library does not check (re-export it, or run onnx.checker "
          "with full_check=True)";
    return false;
}

// Saturating: a hostile model's dimensions (2^61 x 64) must not overflow
// (undefined behaviour); a saturated count is refused later by the network's
// limits (NetworkLimits::maxCount).
std::int64_t mulSat(std::int64_t a, std::int64_t b)
{
    std::int64_t p = 0;
    if (__builtin_mul_overflow(a, b, &p))
        return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    return p;
}

// The same for sums (a layer's weights over many initializers of saturated size).
std::int64_t addSat(std::int64_t a, std::int64_t b)
{
    std::int64_t s = 0;
    if (__builtin_add_overflow(a, b, &s))
        return b < 0 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    return s;
}

std::int64_t product(const Dims &d)
{
    std::int64_t p = 1;
    for (std::int64_t v : d)
        p = mulSat(p, v);
    return p;
}

std::string dimsText(const Dims &d)
{
    std::string s;
    for (std::size_t i = 0; i < d.size(); ++i)
        s += (i ? "x" : "") + std::to_string(d[i]);
    return s.empty() ? "scalar" : s;
}

// A tensor the graph knows: the output of a layer, a network input, or a
// constant (initializer, Constant node, or a value computed from constants
// and shapes only). Constants carry the initializers they derive from, so
// the layer that finally reads them is charged with their parameters.
struct Value
{
    int producer = 0;      // layer index or -(input+1); valid when !constant
    bool constant = false;
    Dims dims;
    std::vector<std::string> initializers; // float initializers behind a constant
};

struct Importer
{
    const std::string &file;
    const ImportOptions &options;
    NetworkLoad out;
    onnx::ModelProto model;
    std::unordered_map<std::string, Dims> shapes;          // every tensor whose shape inference knows
    struct Initializer
    {
        Dims dims;
        int type = 0;
    };
    std::unordered_map<std::string, Initializer> initializers;
    std::unordered_map<std::string, Value> values;
    std::set<std::string> charged; // initializers already counted in some layer
    std::set<std::string> names;   // layer and input names in use
    Network net;

    Importer(const std::string &f, const ImportOptions &o) : file(f), options(o) { out.diagnostics.setFile(f); }

    void error(const std::string &where, const std::string &message) { out.diagnostics.error(where, message); }

    static std::string nodeLabel(const onnx::NodeProto &node, int index)
    {
        return "node " + std::to_string(index) + " \"" + node.name() + "\" (" + node.op_type() + ")";
    }

    static bool knownDims(const onnx::TypeProto &type, Dims &dims)
    {
        if (!type.has_tensor_type() || !type.tensor_type().has_shape())
            return false;
        dims.clear();
        for (const auto &d : type.tensor_type().shape().dim()) {
            if (!d.has_dim_value() || d.dim_value() < 0)
                return false;
            dims.push_back(d.dim_value());
        }
        return true;
    }

    std::string uniqueName(std::string name)
    {
        if (name.size() > kMaxNameLength)
            name = "…" + name.substr(name.size() - (kMaxNameLength - 8));
        if (name.empty())
            name = "layer";
        std::string candidate = name;
        for (int k = 2; names.count(candidate); ++k)
            candidate = name + "_" + std::to_string(k);
        names.insert(candidate);
        return candidate;
    }

    bool parse(const std::string &bytes)
    {
        if (bytes.size() > std::size_t(2000) * 1000 * 1000) {
            error("", "files above 2 GB are not supported by protobuf; keep the weights in external data");
            return false;
        }
        if (!model.ParseFromString(bytes)) {
            error("", "not an ONNX model: the file is not a valid ModelProto (protobuf parse failed; truncated or "
                      "another format?)");
            return false;
        }
        if (!model.has_graph() || model.graph().node_size() == 0) {
            error("", "not an ONNX model: it has no graph nodes");
            return false;
        }
        if (model.ir_version() <= 0 || model.opset_import_size() == 0) {
            error("", "not an ONNX model: ir_version and opset_import are missing");
            return false;
        }
        if (model.graph().node_size() > kMaxNodes) {
            error("", "at most " + std::to_string(kMaxNodes) + " nodes are supported");
            return false;
        }
        return true;
    }

    // Takes the weights out of the graph before checking it: the checker would
    // look for external data files (which need not exist) and copying large
    // tensors costs time. Each becomes a graph input of its type and shape, so
    // the checker and shape inference still see it; small initializers (the
    // shapes a Reshape reads, scalars) stay, so shape inference can use their values.
    void moveWeights()
    {
        onnx::GraphProto &g = *model.mutable_graph();
        google::protobuf::RepeatedPtrField<onnx::TensorProto> all;
        all.Swap(g.mutable_initializer());
        std::set<std::string> inputNames;
        for (const auto &input : g.input())
            inputNames.insert(input.name());
        for (auto &t : all) {
            Initializer info;
            info.dims.assign(t.dims().begin(), t.dims().end());
            info.type = t.data_type();
            initializers[t.name()] = info;
            const bool external = t.data_location() == onnx::TensorProto::EXTERNAL;
            if (!external && product(info.dims) <= 64) {
                g.add_initializer()->Swap(&t);
                continue;
            }
            if (inputNames.count(t.name()))
                continue; // an IR < 4 model lists initializers as inputs too
            onnx::ValueInfoProto *vi = g.add_input();
            vi->set_name(t.name());
            onnx::TypeProto_Tensor *tt = vi->mutable_type()->mutable_tensor_type();
            tt->set_elem_type(t.data_type());
            for (std::int64_t d : info.dims)
                tt->mutable_shape()->add_dim()->set_dim_value(d);
        }
    }

    // Replaces symbolic input dimensions with the sizes the user gave; lists the ones missing.
    bool applyInputShapes()
    {
        onnx::GraphProto &g = *model.mutable_graph();
        std::set<std::string> inits;
        for (const auto &[name, info] : initializers)
            inits.insert(name);
        std::set<std::string> used;
        std::vector<std::string> missing;
        for (auto &input : *g.mutable_input()) {
            if (inits.count(input.name()))
                continue;
            auto given = options.inputShapes.find(input.name());
            onnx::TypeProto_Tensor *tensor = input.mutable_type()->mutable_tensor_type();
            if (given != options.inputShapes.end()) {
                used.insert(input.name());
                const int rank = tensor->has_shape() ? tensor->shape().dim_size() : -1;
                if (rank >= 0 && rank != int(given->second.size())) {
                    error("input \"" + input.name() + "\"", "--input-shape gives " + std::to_string(given->second.size())
                                                                + " dimensions, the input has " + std::to_string(rank));
                    continue;
                }
                for (std::size_t i = 0; i < given->second.size(); ++i) {
                    const auto &dim = rank >= 0 ? tensor->shape().dim(int(i)) : onnx::TensorShapeProto_Dimension();
                    if (dim.has_dim_value() && dim.dim_value() != given->second[i]) {
                        error("input \"" + input.name() + "\"",
                              "--input-shape gives " + std::to_string(given->second[i]) + " for dimension "
                                  + std::to_string(i) + ", the model fixes it at " + std::to_string(dim.dim_value()));
                    }
                }
                tensor->mutable_shape()->clear_dim();
                for (std::int64_t v : given->second)
                    tensor->mutable_shape()->add_dim()->set_dim_value(v);
                continue;
            }
            std::string text;
            bool symbolic = !tensor->has_shape();
            SymbolicInput open{input.name(), {}, {}};
            if (tensor->has_shape()) {
                for (const auto &d : tensor->shape().dim()) {
                    symbolic = symbolic || !d.has_dim_value();
                    const std::string dimName = d.has_dim_value() ? std::string()
                                                : d.dim_param().empty() ? std::string("?")
                                                                        : d.dim_param();
                    text += (text.empty() ? "" : "x") + (d.has_dim_value() ? std::to_string(d.dim_value()) : dimName);
                    open.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
                    open.dimNames.push_back(dimName);
                }
            }
            if (symbolic) {
                missing.push_back("\"" + input.name() + "\" [" + (tensor->has_shape() ? text : "no shape") + "]");
                out.symbolicInputs.push_back(std::move(open));
            }
        }
        for (const auto &[name, dims] : options.inputShapes) {
            if (!used.count(name)) {
                std::string known;
                for (const auto &input : g.input())
                    if (!inits.count(input.name()))
                        known += (known.empty() ? "" : ", ") + input.name();
                error("", "--input-shape names \"" + name + "\", which is not an input of the model (inputs: " + known
                              + ")");
            }
        }
        if (!missing.empty()) {
            std::string list;
            for (const auto &m : missing)
                list += (list.empty() ? "" : ", ") + m;
            error("", "the model has symbolic input dimensions: " + list
                          + "; give every size, e.g. --input-shape NAME=1x3x224x224");
        }
        return !out.diagnostics.hasErrors();
    }

    bool check()
    {
        onnxfold::fold(*model.mutable_graph(), shapes);
        try {
            onnx::checker::check_model(model);
        } catch (const std::exception &e) {
            error("", std::string("invalid ONNX model: ") + e.what());
            return false;
        }
        if (!inferShapes())
            return false;
        // Shapes computed from other shapes (Shape -> Gather -> Concat -> Reshape): fold, infer again.
        bool hasShapeNodes = false;
        for (const auto &n : model.graph().node())
            hasShapeNodes = hasShapeNodes || n.op_type() == "Shape";
        if (hasShapeNodes && onnxfold::fold(*model.mutable_graph(), shapes) > 0)
            return inferShapes();
        return true;
    }

    bool inferShapes()
    {
        std::string why;
        if (!inferShapesIsolated(model, why)) {
            error("", why);
            return false;
        }
        const onnx::GraphProto &g = model.graph();
        Dims d;
        for (const auto &vi : g.value_info())
            if (knownDims(vi.type(), d))
                shapes[vi.name()] = d;
        for (const auto &vi : g.output())
            if (knownDims(vi.type(), d))
                shapes[vi.name()] = d;
        for (const auto &vi : g.input())
            if (knownDims(vi.type(), d))
                shapes[vi.name()] = d;
        return true;
    }

    std::string attributeText(const onnx::AttributeProto &a)
    {
        std::ostringstream s;
        auto list = [&](const auto &items) {
            s << '[';
            for (int i = 0; i < items.size(); ++i)
                s << (i ? ", " : "") << items.Get(i);
            s << ']';
        };
        switch (a.type()) {
        case onnx::AttributeProto::INT: s << a.i(); break;
        case onnx::AttributeProto::FLOAT: s << a.f(); break;
        case onnx::AttributeProto::STRING: s << a.s(); break;
        case onnx::AttributeProto::INTS: list(a.ints()); break;
        case onnx::AttributeProto::FLOATS: list(a.floats()); break;
        case onnx::AttributeProto::TENSOR: s << "tensor " << dimsText(Dims(a.t().dims().begin(), a.t().dims().end())); break;
        default: s << "(" << onnx::AttributeProto::AttributeType_Name(a.type()) << ")"; break;
        }
        std::string text = s.str();
        if (text.size() > 200)
            text = text.substr(0, 197) + "...";
        return text;
    }

    static const onnx::AttributeProto *attribute(const onnx::NodeProto &node, const std::string &name)
    {
        for (const auto &a : node.attribute())
            if (a.name() == name)
                return &a;
        return nullptr;
    }
    static std::int64_t intAttr(const onnx::NodeProto &node, const std::string &name, std::int64_t fallback)
    {
        const auto *a = attribute(node, name);
        return a && a->type() == onnx::AttributeProto::INT ? a->i() : fallback;
    }
    static std::vector<std::int64_t> intsAttr(const onnx::NodeProto &node, const std::string &name)
    {
        const auto *a = attribute(node, name);
        if (!a || a->type() != onnx::AttributeProto::INTS)
            return {};
        return {a->ints().begin(), a->ints().end()};
    }
    static float floatAttr(const onnx::NodeProto &node, const std::string &name, float fallback)
    {
        const auto *a = attribute(node, name);
        return a && a->type() == onnx::AttributeProto::FLOAT ? a->f() : fallback;
    }

    bool run()
    {
        const onnx::GraphProto &g = model.graph();
        for (const auto &t : g.initializer()) // constants folded from shape computations
            if (!initializers.count(t.name()))
                initializers[t.name()] = Initializer{Dims(t.dims().begin(), t.dims().end()), t.data_type()};
        for (const auto &[name, info] : initializers) {
            Value v;
            v.constant = true;
            v.dims = info.dims;
            if (isFloatType(info.type))
                v.initializers.push_back(name);
            values[name] = v;
        }
        for (const auto &input : g.input()) {
            if (initializers.count(input.name()))
                continue;
            auto s = shapes.find(input.name());
            if (s == shapes.end()) {
                error("input \"" + input.name() + "\"", "its shape is not known");
                return false;
            }
            NetworkInput in;
            in.name = uniqueName(input.name());
            in.dims = s->second.empty() ? Dims{1} : s->second;
            in.shape = toShape(in.dims);
            net.inputs.push_back(in);
            Value v;
            v.producer = -int(net.inputs.size());
            v.dims = s->second;
            values[input.name()] = v;
        }
        if (net.inputs.empty()) {
            error("", "the graph has no inputs besides its initializers");
            return false;
        }
        for (int i = 0; i < g.node_size(); ++i) {
            if (!node(g.node(i), i))
                return false;
        }
        if (net.layers.empty()) {
            error("", "no node of the graph computes on its inputs");
            return false;
        }
        return true;
    }

    // The charge for constants a layer reads: float initializers not counted before.
    std::int64_t chargeWeights(const std::vector<std::string> &inits, std::int64_t &biases, bool lastIsBias)
    {
        std::int64_t weights = 0;
        for (const std::string &name : inits) {
            if (!charged.insert(name).second)
                continue;
            const Initializer &t = initializers.at(name);
            const std::int64_t n = product(t.dims);
            if (lastIsBias && t.dims.size() == 1 && &name == &inits.back())
                biases = addSat(biases, n);
            else
                weights = addSat(weights, n);
        }
        return weights;
    }

    bool node(const onnx::NodeProto &node, int index)
    {
        const std::string &op = node.op_type();
        const std::string label = nodeLabel(node, index);
        std::vector<const Value *> ins;
        std::vector<int> dataInputs; // positions of non-constant inputs
        for (int k = 0; k < node.input_size(); ++k) {
            const std::string &name = node.input(k);
            if (name.empty()) {
                ins.push_back(nullptr); // an omitted optional input
                continue;
            }
            auto it = values.find(name);
            if (it == values.end()) {
                error(label, "input \"" + name + "\" is not produced by an earlier node, an initializer or a graph "
                                 "input (the graph is not in topological order or is inconsistent)");
                return false;
            }
            ins.push_back(&it->second);
            if (!it->second.constant)
                dataInputs.push_back(k);
        }
        auto outputDims = [&](int k, Dims &dims) -> bool {
            if (k >= node.output_size())
                return false;
            auto s = shapes.find(node.output(k));
            if (s == shapes.end()) {
                error(label, "shape inference could not determine the shape of output \"" + node.output(k) + "\"");
                return false;
            }
            dims = s->second;
            return true;
        };
        // Only constants (or no inputs): the outputs are constants, not layers.
        if (dataInputs.empty() || op == "Shape" || op == "Size") {
            std::vector<std::string> inits;
            if (op != "Shape" && op != "Size")
                for (const Value *v : ins)
                    if (v)
                        inits.insert(inits.end(), v->initializers.begin(), v->initializers.end());
            for (int k = 0; k < node.output_size(); ++k) {
                Value v;
                v.constant = true;
                auto s = shapes.find(node.output(k));
                if (s != shapes.end())
                    v.dims = s->second;
                v.initializers = inits;
                values[node.output(k)] = v;
            }
            return true;
        }
        // Views that change nothing at all: the output is the input.
        if (op == "Identity" || op == "Dropout" || op == "Cast") {
            if (node.output_size() > 0)
                values[node.output(0)] = *ins[std::size_t(dataInputs[0])];
            return true;
        }

        Layer layer;
        layer.op = op;
        for (const auto &a : node.attribute())
            layer.attributes[a.name()] = attributeText(a);
        for (int k : dataInputs)
            layer.inputs.push_back(ins[std::size_t(k)]->producer);
        const Value &x = *ins[std::size_t(dataInputs[0])];
        Dims outDims;
        if (!outputDims(0, outDims))
            return false;
        LayerCounts counts;
        std::vector<std::string> constInits; // float initializers read by this node
        for (const Value *v : ins)
            if (v && v->constant)
                constInits.insert(constInits.end(), v->initializers.begin(), v->initializers.end());
        auto constDims = [&](int k) -> Dims {
            return k < int(ins.size()) && ins[std::size_t(k)] ? ins[std::size_t(k)]->dims : Dims{};
        };
        auto hasInput = [&](int k) { return k < int(ins.size()) && ins[std::size_t(k)]; };
        bool lastIsBias = false;
        auto windowAttributes = [&](std::size_t spatial) {
            const Dims k = intsAttr(node, "kernel_shape");
            const Dims s = intsAttr(node, "strides");
            const Dims p = intsAttr(node, "pads");
            const Dims d = intsAttr(node, "dilations");
            auto at = [](const Dims &v, std::size_t i, std::int64_t fallback) {
                return i < v.size() ? int(std::clamp<std::int64_t>(v[i], 0, 10000)) : int(fallback);
            };
            const bool two = spatial >= 2;
            layer.kernelH = two ? at(k, 0, 1) : 1;
            layer.kernelW = at(k, two ? 1 : 0, 1);
            layer.strideH = two ? at(s, 0, 1) : 1;
            layer.strideW = at(s, two ? 1 : 0, 1);
            layer.padH = two ? at(p, 0, 0) : 0;
            layer.padW = at(p, two ? 1 : 0, 0);
            layer.dilationH = two ? at(d, 0, 1) : 1;
            layer.dilationW = at(d, two ? 1 : 0, 1);
            layer.kernelH = std::max(layer.kernelH, 1);
            layer.kernelW = std::max(layer.kernelW, 1);
            layer.strideH = std::max(layer.strideH, 1);
            layer.strideW = std::max(layer.strideW, 1);
            layer.dilationH = std::max(layer.dilationH, 1);
            layer.dilationW = std::max(layer.dilationW, 1);
        };

        if (op == "Conv" || op == "ConvTranspose") {
            const Dims w = constDims(1); // a constant, or a graph input of known shape
            if (w.size() < 3 || w[1] < 1 || w[0] < 1) {
                error(label, "the weights must be a tensor of rank >= 3 with known sizes (got " + dimsText(w) + ")");
                return false;
            }
            const std::size_t spatial = w.size() - 2;
            const Dims kernel(w.begin() + 2, w.end());
            const std::int64_t group = std::max<std::int64_t>(1, intAttr(node, "group", 1));
            layer.type = op == "Conv" ? LayerType::Convolution : LayerType::Deconvolution;
            if (intsAttr(node, "kernel_shape").empty()) {
                layer.attributes["kernel_shape"] = dimsText(kernel);
            }
            windowAttributes(spatial);
            if (intsAttr(node, "kernel_shape").empty()) {
                layer.kernelW = int(std::clamp<std::int64_t>(kernel.back(), 1, 10000));
                layer.kernelH = spatial >= 2 ? int(std::clamp<std::int64_t>(kernel[kernel.size() - 2], 1, 10000)) : 1;
            }
            layer.groups = int(std::clamp<std::int64_t>(group, 1, 10000000));
            layer.outChannels = op == "Conv" ? w[0] : mulSat(w[1], group);
            layer.hasBias = hasInput(2);
            const std::int64_t taps = product(kernel);
            if (op == "Conv")
                counts.macs = mulSat(mulSat(product(outDims), w[1]), taps); // C_in/groups · k_h · k_w per output
            else
                counts.macs = mulSat(mulSat(product(x.dims), w[1]), taps);  // C_out/groups · k_h · k_w per input
            lastIsBias = true;
        } else if (op == "Gemm" || op == "MatMul") {
            const Dims &a = x.dims;
            const bool bConstant = ins.size() > 1 && ins[1] && ins[1]->constant;
            const Dims b = ins.size() > 1 && ins[1] ? ins[1]->dims : Dims{};
            if (op == "Gemm") {
                if (a.size() != 2 || b.size() != 2) {
                    error(label, "Gemm takes matrices, got " + dimsText(a) + " and " + dimsText(b));
                    return false;
                }
                const bool ta = intAttr(node, "transA", 0) != 0, tb = intAttr(node, "transB", 0) != 0;
                const std::int64_t m = ta ? a[1] : a[0], k = ta ? a[0] : a[1], n = tb ? b[0] : b[1];
                counts.macs = mulSat(mulSat(m, k), n);
                layer.type = bConstant ? LayerType::FullyConnected : LayerType::MatMul;
                layer.outChannels = bConstant ? n : 0;
                if (bConstant) // a bias belongs to the dense layer; a product of two inputs has none to state
                    layer.hasBias = hasInput(2);
                layer.transposeB = !bConstant && tb;
                lastIsBias = true;
            } else {
                // numpy matmul: [..., M, K] x [..., K, N]; a vector gains and loses a unit dimension.
                Dims aa = a, bb = b;
                if (aa.size() == 1)
                    aa.insert(aa.begin(), 1);
                if (bb.size() == 1)
                    bb.push_back(1);
                if (aa.size() < 2 || bb.size() < 2) {
                    error(label, "MatMul inputs must have a rank, got " + dimsText(a) + " and " + dimsText(b));
                    return false;
                }
                const std::int64_t m = aa[aa.size() - 2], k = aa.back(), n = bb.back();
                const std::int64_t mn = std::max<std::int64_t>(1, mulSat(m, n));
                counts.macs = mulSat(mulSat(mulSat(product(outDims) / mn, m), k), n);
                if (product(outDims) == 0)
                    counts.macs = 0;
                if (bConstant) {
                    // A constant right operand is a dense layer: per token (1x1 convolution) on a
                    // sequence, fully connected on a vector.
                    layer.type = a.size() >= 3 ? LayerType::Convolution : LayerType::FullyConnected;
                    layer.outChannels = n;
                    layer.hasBias = false;
                } else {
                    layer.type = LayerType::MatMul;
                    layer.heads = int(std::clamp<std::int64_t>(
                        std::max<std::int64_t>(1, product(outDims) / mn), 1, 10000000));
                }
            }
        } else if (op == "BatchNormalization" || op == "InstanceNormalization") {
            layer.type = LayerType::BatchNorm;
            // scale and B are parameters; the running mean and variance are buffers, not parameters.
            std::vector<std::string> kept;
            for (int k = 1; k <= 2 && k < int(ins.size()); ++k)
                if (ins[std::size_t(k)])
                    kept.insert(kept.end(), ins[std::size_t(k)]->initializers.begin(),
                                ins[std::size_t(k)]->initializers.end());
            for (int k = 3; k < int(ins.size()); ++k)
                if (ins[std::size_t(k)])
                    for (const auto &name : ins[std::size_t(k)]->initializers)
                        charged.insert(name);
            constInits = kept;
            lastIsBias = true;
        } else if (op == "LayerNormalization") {
            layer.type = LayerType::LayerNorm;
            lastIsBias = true;
        } else if (op == "Relu" || op == "Clip" || op == "Sigmoid" || op == "HardSigmoid" || op == "HardSwish"
                   || op == "LeakyRelu" || op == "PRelu" || op == "Tanh" || op == "Elu" || op == "Selu"
                   || op == "Softplus" || op == "Gelu" || op == "Erf" || op == "Mish" || op == "Softsign"
                   || op == "Sqrt" || op == "Pow" || op == "Exp" || op == "Log" || op == "Neg" || op == "Abs"
                   || op == "Reciprocal" || op == "ThresholdedRelu" || op == "Celu") {
            layer.type = LayerType::Activation;
            std::string f = op;
            std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            if (op == "Clip") {
                // Relu6 is Clip(0, 6) (bounds as attributes before opset 11, constant inputs since).
                const float lo = floatAttr(node, "min", 0), hi = floatAttr(node, "max", 6);
                f = lo == 0 && hi == 6 ? "clip (relu6 when 0..6)" : "clip";
            }
            layer.function = f;
        } else if (op == "Add" || op == "Sum" || op == "Mul" || op == "Sub" || op == "Div") {
            layer.type = op == "Add" || op == "Sum" ? LayerType::EltwiseAdd
                : op == "Mul"                       ? LayerType::EltwiseMul
                : op == "Sub"                       ? LayerType::EltwiseSub
                                                    : LayerType::EltwiseDiv;
            lastIsBias = op == "Add";
        } else if (op == "Concat") {
            layer.type = LayerType::Concat;
            std::int64_t axis = intAttr(node, "axis", 1);
            const std::int64_t rank = std::int64_t(outDims.size());
            if (axis < 0)
                axis += rank;
            // Onto N×C×H×W (toShape): rank 4 NCHW; rank 3 [N, T, D] is D×1×T; rank 2 [N, F] is F.
            layer.axis = rank >= 4 ? int(std::clamp<std::int64_t>(axis - (rank - 3), 0, 2))
                : rank == 3        ? (axis == 2 ? 0 : axis == 1 ? 2 : 0)
                                   : 0;
        } else if (op == "Split") {
            // One slice layer per part.
            const std::string base = node.name().empty() ? "Split_" + std::to_string(index) : node.name();
            for (int k = 0; k < node.output_size(); ++k) {
                Dims d;
                if (!outputDims(k, d))
                    return false;
                Layer part = layer;
                part.type = LayerType::Slice;
                part.name = uniqueName(base + (node.output_size() > 1 ? ":" + std::to_string(k) : ""));
                part.dims = d.empty() ? Dims{1} : d;
                part.statedOutput = toShape(d);
                part.counts = LayerCounts{};
                net.layers.push_back(part);
                Value v;
                v.producer = int(net.layers.size()) - 1;
                v.dims = d;
                values[node.output(k)] = v;
            }
            return true;
        } else if (op == "Slice" || op == "Gather") {
            layer.type = LayerType::Slice;
        } else if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
            layer.type = LayerType::Pooling;
            layer.poolMode = op == "MaxPool" ? PoolMode::Max : PoolMode::Average;
            windowAttributes(x.dims.size() >= 2 ? x.dims.size() - 2 : 1);
            layer.dilationH = layer.dilationW = 1; // pooling has no dilation in our model
            layer.rounding = intAttr(node, "ceil_mode", 0) ? Rounding::Ceil : Rounding::Floor;
        } else if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
            layer.type = LayerType::Pooling;
            layer.globalPool = true;
            layer.poolMode = op == "GlobalMaxPool" ? PoolMode::Max : PoolMode::Average;
        } else if (op.rfind("Reduce", 0) == 0) {
            layer.type = LayerType::Reduce;
            std::string f = op.substr(6);
            std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            layer.function = f.empty() ? "mean" : f;
        } else if (op == "Flatten") {
            layer.type = LayerType::Flatten;
        } else if (op == "Reshape" || op == "Squeeze" || op == "Unsqueeze") {
            layer.type = LayerType::Reshape;
        } else if (op == "Transpose") {
            layer.type = LayerType::Transpose;
        } else if (op == "Pad") {
            layer.type = LayerType::Pad;
        } else if (op == "Resize" || op == "Upsample") {
            layer.type = LayerType::Resize;
        } else if (op == "Softmax" || op == "LogSoftmax") {
            layer.type = LayerType::Softmax;
        } else if (op == "LRN") {
            layer.type = LayerType::Lrn;
            layer.lrnSize = int(std::clamp<std::int64_t>(intAttr(node, "size", 5), 1, 10000));
        } else {
            layer.type = LayerType::Other;
        }

        std::int64_t biases = 0;
        counts.weights = chargeWeights(constInits, biases, lastIsBias);
        counts.biases = biases;
        layer.counts = counts;
        layer.name = uniqueName(node.name().empty() ? op + "_" + std::to_string(index) : node.name());
        layer.dims = outDims.empty() ? Dims{1} : outDims;
        layer.statedOutput = toShape(outDims);
        if (product(outDims) <= 0) {
            error(label, "output \"" + node.output(0) + "\" is empty (" + dimsText(outDims) + ")");
            return false;
        }
        net.layers.push_back(std::move(layer));
        Value v;
        v.producer = int(net.layers.size()) - 1;
        v.dims = outDims;
        values[node.output(0)] = v;
        // Further outputs (MaxPool indices, TopK indices, ...) are read as the node's layer.
        for (int k = 1; k < node.output_size(); ++k) {
            if (node.output(k).empty())
                continue;
            Value ev = v;
            auto s = shapes.find(node.output(k));
            if (s != shapes.end())
                ev.dims = s->second;
            values[node.output(k)] = ev;
        }
        return true;
    }
};

} // namespace

NetworkLoad importOnnx(const std::string &bytes, const std::string &fileLabel, const ImportOptions &options)
{
    Importer im(fileLabel, options);
    if (!im.parse(bytes))
        return std::move(im.out);
    im.moveWeights();
    if (!im.applyInputShapes() || !im.check() || !im.run())
        return std::move(im.out);
    const onnx::GraphProto &g = im.model.graph();
    // The graph's name, unless it is an exporter's default (PyTorch: "torch_jit", "main_graph";
    // older: "torch-jit-export"; tf2onnx: "tf2onnx"), which says nothing: then the file's name.
    const std::string fileName = fileLabel.substr(fileLabel.find_last_of('/') + 1);
    const bool generic = g.name().empty() || g.name() == "torch_jit" || g.name() == "main_graph"
        || g.name() == "torch-jit-export" || g.name() == "tf2onnx";
    im.net.name = generic ? fileName.substr(0, fileName.size() > 5 && fileName.ends_with(".onnx") ? fileName.size() - 5
                                                                                                  : fileName.size())
                          : g.name();
    im.net.source = "ONNX " + fileLabel.substr(fileLabel.find_last_of('/') + 1) + " (producer: "
        + (im.model.producer_name().empty() ? "unknown" : im.model.producer_name())
        + (im.model.producer_version().empty() ? "" : " " + im.model.producer_version()) + ", opset "
        + std::to_string(im.model.opset_import(0).version()) + ")";
    if (!g.doc_string().empty())
        im.net.description = g.doc_string().substr(0, 1000);
    makeTextValidUtf8(im.net);
    if (!inferShapes(im.net, im.out.diagnostics) || !checkNetworkLimits(im.net, im.out.diagnostics))
        return std::move(im.out);
    const std::string summary = unmodelledSummary(im.net);
    if (!summary.empty())
        im.out.diagnostics.warning("", summary + " (imported as \"other\" layers)");
    im.out.network = std::move(im.net);
    return std::move(im.out);
}

NetworkLoad importOnnxFile(const std::string &path, const ImportOptions &options)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) { // an ifstream opens a folder (and ONNX read its "size": bad_alloc)
        NetworkLoad out;
        out.diagnostics.setFile(path);
        out.diagnostics.error("", "is a folder, not a file");
        return out;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        NetworkLoad out;
        out.diagnostics.setFile(path);
        out.diagnostics.error("", "cannot open the file for reading");
        return out;
    }
    // One read of the whole file (a 100 MB model: milliseconds, not a character at a time).
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    std::string bytes(size > 0 ? std::size_t(size) : 0, '\0');
    if (size > 0 && !in.read(bytes.data(), size)) {
        NetworkLoad out;
        out.diagnostics.setFile(path);
        out.diagnostics.error("", "cannot read the file");
        return out;
    }
    return importOnnx(bytes, path, options);
}

} // namespace roofline::network
