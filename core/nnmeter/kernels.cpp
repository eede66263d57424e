#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace roofline::nnmeter {

using network::Layer;
using network::LayerType;
using network::Network;
using network::Shape;

namespace {

const Shape &producerShape(const Network &net, const Layer &layer, std::size_t k = 0)
{
    return net.inputShape(layer.inputs.at(k));
}

// A mean over the whole of H and W that keeps the channels: what the
// global_pool unit names "gap" (ONNX GlobalAveragePool, ReduceMean over H, W).
bool isGlobalMean(const Network &net, std::size_t i)
{
    const Layer &l = net.layers[i];
    if (l.inputs.empty())
        return false;
    if (l.type == LayerType::Pooling)
        return l.poolMode == network::PoolMode::Average
            && (l.globalPool || (l.output.h == 1 && l.output.w == 1 && producerShape(net, l).h * producerShape(net, l).w > 1));
    if (l.type == LayerType::Reduce) {
        const Shape &in = producerShape(net, l);
        return l.function == "mean" && l.output.c == in.c && l.output.h == 1 && l.output.w == 1 && in.h * in.w > 1;
    }
    return false;
}

std::string activationType(const std::string &f)
{
    if (f == "relu")
        return "relu";
    if (f == "relu6" || f.rfind("clip (relu6", 0) == 0)
        return "relu6";
    if (f == "hardswish" || f == "hswish")
        return "hswish";
    if (f == "hardsigmoid" || f == "hsigmoid")
        return "hsigmoid";
    if (f == "sigmoid")
        return "sigmoid";
    if (f == "swish" || f == "silu")
        return "swish"; // one layer of x·sigmoid(x): the operator the swish unit collapses its written-out form into
    return "act";
}

} // namespace

const std::vector<std::string> &operatorVocabulary()
{
    static const std::vector<std::string> names = {
        "conv",    "dwconv", "deconv",    "fc",      "matmul", "bias",  "bn",     "ln",   "relu",
        "relu6",   "hswish", "hsigmoid",  "sigmoid", "act",    "maxpool", "avgpool", "gap", "add",
        "mul",     "eltwise", "concat",   "view",    "transpose", "split", "softmax", "pad", "resize",
        "reduce",  "lrn",    "other",
        // fusion units (hswish above doubles as the unit of its written-out form)
        "se",      "swish",  "channelshuffle",
    };
    return names;
}

bool isOperatorName(const std::string &name)
{
    const auto &v = operatorVocabulary();
    return std::find(v.begin(), v.end(), name) != v.end();
}

const std::vector<std::string> &unitNames()
{
    static const std::vector<std::string> names = {"se", "hswish", "swish", "channel_shuffle", "global_pool"};
    return names;
}

std::string operatorType(const Network &net, std::size_t i, bool globalPoolUnit)
{
    const Layer &l = net.layers[i];
    switch (l.type) {
    case LayerType::Convolution: {
        const std::int64_t cin = l.inputs.empty() ? 0 : producerShape(net, l).c;
        return l.groups > 1 && l.groups == cin ? "dwconv" : "conv";
    }
    case LayerType::Deconvolution: return "deconv";
    case LayerType::FullyConnected: return "fc";
    case LayerType::MatMul: return "matmul";
    case LayerType::Bias: return "bias";
    case LayerType::BatchNorm: return "bn";
    case LayerType::LayerNorm: return "ln";
    case LayerType::Lrn: return "lrn";
    case LayerType::Activation: return activationType(l.function);
    case LayerType::Pooling:
        if (globalPoolUnit && isGlobalMean(net, i))
            return "gap";
        return l.poolMode == network::PoolMode::Max ? "maxpool" : "avgpool";
    case LayerType::EltwiseAdd: return "add";
    case LayerType::EltwiseMul: return "mul";
    case LayerType::EltwiseSub:
    case LayerType::EltwiseDiv: return "eltwise";
    case LayerType::Concat: return "concat";
    case LayerType::Flatten:
    case LayerType::Reshape: return "view";
    case LayerType::Transpose: return "transpose";
    case LayerType::Slice: return "split";
    case LayerType::Softmax: return "softmax";
    case LayerType::Pad: return "pad";
    case LayerType::Resize: return "resize";
    case LayerType::Reduce: return globalPoolUnit && isGlobalMean(net, i) ? "gap" : "reduce";
    case LayerType::Other: return "other";
    }
    return "other";
}

OperatorCost operatorCost(const Network &net, std::size_t i, int bytesPerElement)
{
    const Layer &l = net.layers[i];
    OperatorCost c;
    const network::LayerCounts counts = network::countLayer(net, i);
    c.params = double(counts.parameters());
    c.weightBytes = c.params * bytesPerElement;
    if (l.type == LayerType::Flatten || l.type == LayerType::Reshape)
        return c; // a view: no data moves
    for (int p : l.inputs)
        c.inputBytes += double(net.inputShape(p).elements()) * bytesPerElement;
    const double out = double(l.output.elements());
    c.outputBytes = out * bytesPerElement;
    switch (l.type) {
    case LayerType::Convolution:
    case LayerType::Deconvolution:
    case LayerType::FullyConnected:
    case LayerType::MatMul: c.flops = 2.0 * double(counts.macs); break;
    case LayerType::BatchNorm:
    case LayerType::LayerNorm: c.flops = 2.0 * out; break;
    case LayerType::Pooling:
        c.flops = isGlobalMean(net, i) || l.globalPool ? double(producerShape(net, l).elements())
                                                       : double(l.kernelH) * l.kernelW * out;
        break;
    case LayerType::Reduce: c.flops = double(producerShape(net, l).elements()); break;
    case LayerType::Concat: c.flops = 0; break; // a copy
    default: c.flops = out; break;
    }
    return c;
}

bool FusionRules::fuses(const std::string &first, const std::string &second) const
{
    const auto it = pairs.find(first + "_" + second);
    return it != pairs.end() && it->second.fuses;
}

bool FusionRules::unit(const std::string &name) const
{
    const auto it = units.find(name);
    return it != units.end() && it->second;
}

namespace {

// The fusion units found in the network (seed section 4; our reading).
struct Unit
{
    std::string type;
    std::vector<int> layers; // sorted
};

bool allInputsIn(const Layer &l, const std::set<int> &set)
{
    return std::all_of(l.inputs.begin(), l.inputs.end(), [&](int p) { return set.count(p) > 0; });
}

std::vector<Unit> findUnits(const Network &net, const FusionRules &rules, const std::vector<std::string> &type,
                            const std::vector<std::vector<int>> &cons)
{
    const int n = int(net.layers.size());
    std::vector<char> taken(static_cast<std::size_t>(n), 0);
    std::vector<Unit> units;
    auto take = [&](Unit u) {
        std::sort(u.layers.begin(), u.layers.end());
        for (int m : u.layers)
            taken[std::size_t(m)] = 1;
        units.push_back(std::move(u));
    };
    auto single = [&](int i) { return cons[std::size_t(i)].size() == 1 ? cons[std::size_t(i)][0] : -1; };
    auto isMulOf = [&](int m, int a, int b) {
        const Layer &l = net.layers[std::size_t(m)];
        return l.type == LayerType::EltwiseMul && l.inputs.size() == 2
            && ((l.inputs[0] == a && l.inputs[1] == b) || (l.inputs[0] == b && l.inputs[1] == a));
    };

    // SE block: a global mean of X, then a closed region of 1x1 convolutions
    // or FCs and activations (at least two linear layers), ending in X · scale.
    if (rules.unit("se")) {
        static const std::set<std::string> inner = {"conv", "fc", "view", "relu", "relu6", "hswish", "hsigmoid",
                                                    "sigmoid", "act", "bias", "bn", "add", "mul", "eltwise"};
        for (int g = 0; g < n; ++g) {
            if (taken[std::size_t(g)] || !isGlobalMean(net, std::size_t(g)))
                continue;
            const int x = net.layers[std::size_t(g)].inputs[0];
            std::set<int> region = {g};
            int linear = 0, end = -1;
            for (int j = g + 1; j < n && j <= g + 24 && end < 0; ++j) {
                const Layer &l = net.layers[std::size_t(j)];
                if (taken[std::size_t(j)] || l.inputs.empty())
                    continue;
                if (l.inputs.size() == 2 && linear >= 2
                    && ((l.inputs[0] == x && region.count(l.inputs[1])) || (l.inputs[1] == x && region.count(l.inputs[0])))
                    && l.type == LayerType::EltwiseMul) {
                    end = j;
                } else if (allInputsIn(l, region) && inner.count(type[std::size_t(j)])) {
                    region.insert(j);
                    linear += type[std::size_t(j)] == "conv" || type[std::size_t(j)] == "fc";
                }
            }
            if (end < 0)
                continue;
            // Closed: nothing outside reads the region except the final multiply.
            bool closed = true;
            for (int m : region)
                for (int c : cons[std::size_t(m)])
                    closed = closed && (region.count(c) || c == end);
            if (!closed)
                continue;
            Unit u{"se", std::vector<int>(region.begin(), region.end())};
            u.layers.push_back(end);
            take(std::move(u));
        }
    }
    for (int j = 0; j < n; ++j) {
        if (taken[std::size_t(j)])
            continue;
        const Layer &l = net.layers[std::size_t(j)];
        // hswish written out: add(P, 3) -> relu6 -> mul(P, .) [-> div by 6]
        if (rules.unit("hswish") && l.type == LayerType::EltwiseAdd && l.inputs.size() == 1) {
            const int r = single(j);
            const int m = r >= 0 && type[std::size_t(r)] == "relu6" ? single(r) : -1;
            if (m >= 0 && isMulOf(m, l.inputs[0], r) && !taken[std::size_t(r)] && !taken[std::size_t(m)]) {
                Unit u{"hswish", {j, r, m}};
                const int d = single(m);
                if (d >= 0 && net.layers[std::size_t(d)].type == LayerType::EltwiseDiv
                    && net.layers[std::size_t(d)].inputs.size() == 1)
                    u.layers.push_back(d);
                take(std::move(u));
                continue;
            }
        }
        // swish (SiLU): sigmoid(P) -> mul(P, .)
        if (rules.unit("swish") && type[std::size_t(j)] == "sigmoid") {
            const int m = single(j);
            if (m >= 0 && !taken[std::size_t(m)] && isMulOf(m, l.inputs[0], j)) {
                take(Unit{"swish", {j, m}});
                continue;
            }
        }
        // channel shuffle: reshape -> transpose -> reshape
        if (rules.unit("channel_shuffle") && type[std::size_t(j)] == "view") {
            const int t = single(j);
            const int r = t >= 0 && type[std::size_t(t)] == "transpose" ? single(t) : -1;
            if (r >= 0 && type[std::size_t(r)] == "view" && !taken[std::size_t(t)] && !taken[std::size_t(r)]
                && net.layers[std::size_t(t)].inputs.size() == 1 && net.layers[std::size_t(r)].inputs.size() == 1) {
                take(Unit{"channelshuffle", {j, t, r}});
                continue;
            }
        }
    }
    return units;
}

} // namespace

Detection detectKernels(const Network &net, const FusionRules &rules, int bytesPerElement)
{
    const int n = int(net.layers.size());
    Detection d;
    d.kernelOfLayer.assign(std::size_t(n), -1);
    if (n == 0)
        return d;
    const bool gapUnit = rules.unit("global_pool");
    std::vector<std::string> type(static_cast<std::size_t>(n));
    std::vector<OperatorCost> cost(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        type[std::size_t(i)] = operatorType(net, std::size_t(i), gapUnit);
        cost[std::size_t(i)] = operatorCost(net, std::size_t(i), bytesPerElement);
        d.operators += type[std::size_t(i)] != "view";
    }
    const std::vector<std::vector<int>> cons = network::consumers(net);

    // The quotient graph: one node per unit, one per remaining layer, ordered
    // by the layer that writes its output (the network's order is topological).
    std::vector<int> nodeOfLayer(static_cast<std::size_t>(n), -1);
    struct Node
    {
        std::string type;
        std::vector<int> layers;
        int last = 0;
        std::vector<int> producers; // nodes
        int inbound = 0;            // distinct tensors read from outside (network inputs too)
        std::vector<int> consumers; // nodes, in order
    };
    std::vector<Node> nodes;
    {
        std::vector<Unit> units = findUnits(net, rules, type, cons);
        std::vector<int> unitOf(static_cast<std::size_t>(n), -1);
        for (std::size_t u = 0; u < units.size(); ++u)
            for (int m : units[u].layers)
                unitOf[std::size_t(m)] = int(u);
        for (int i = 0; i < n; ++i) {
            const int u = unitOf[std::size_t(i)];
            if (u < 0) {
                nodeOfLayer[std::size_t(i)] = int(nodes.size());
                nodes.push_back(Node{type[std::size_t(i)], {i}, i, {}, 0, {}});
            } else if (units[std::size_t(u)].layers.back() == i) {
                for (int m : units[std::size_t(u)].layers)
                    nodeOfLayer[std::size_t(m)] = int(nodes.size());
                nodes.push_back(Node{units[std::size_t(u)].type, units[std::size_t(u)].layers, i, {}, 0, {}});
            }
        }
        for (int v = 0; v < int(nodes.size()); ++v) {
            std::vector<int> seen;
            for (int m : nodes[std::size_t(v)].layers) {
                for (int p : net.layers[std::size_t(m)].inputs) {
                    const bool outside = p < 0 || nodeOfLayer[std::size_t(p)] != v;
                    if (outside && std::find(seen.begin(), seen.end(), p) == seen.end()) {
                        seen.push_back(p);
                        ++nodes[std::size_t(v)].inbound;
                    }
                    if (p < 0)
                        continue;
                    const int pv = nodeOfLayer[std::size_t(p)];
                    auto &prods = nodes[std::size_t(v)].producers;
                    if (pv != v && std::find(prods.begin(), prods.end(), pv) == prods.end()) {
                        prods.push_back(pv);
                        nodes[std::size_t(pv)].consumers.push_back(v);
                    }
                }
            }
        }
        for (Node &node : nodes)
            std::sort(node.consumers.begin(), node.consumers.end());
    }

    // Seed section 4: grow each kernel from its first node while the rules hold.
    std::vector<int> kernelOfNode(nodes.size(), -1);
    std::vector<std::vector<int>> kernelNodes;
    for (int v = 0; v < int(nodes.size()); ++v) {
        if (kernelOfNode[std::size_t(v)] >= 0)
            continue;
        const int k = int(kernelNodes.size());
        kernelNodes.push_back({v});
        kernelOfNode[std::size_t(v)] = k;
        int tail = v;
        std::string tailType = nodes[std::size_t(v)].type; // the last member that is not a view
        for (;;) {
            const std::vector<int> &cs = nodes[std::size_t(tail)].consumers;
            if (cs.empty() || (cs.size() > 1 && !rules.multiOutbound))
                break;
            const int next = cs[0];
            if (kernelOfNode[std::size_t(next)] >= 0)
                break;
            const Node &nx = nodes[std::size_t(next)];
            const bool view = nx.type == "view";
            if (!view && !(tailType != "view" && rules.fuses(tailType, nx.type)))
                break;
            if (nx.inbound > 1) {
                if (!rules.multiInbound && !view)
                    break;
                // Every other producer must be finished already, so the kernel cannot wait on itself.
                const bool ready = std::all_of(nx.producers.begin(), nx.producers.end(),
                                               [&](int p) { return p == tail || kernelOfNode[std::size_t(p)] >= 0; });
                if (!ready)
                    break;
            }
            kernelNodes[std::size_t(k)].push_back(next);
            kernelOfNode[std::size_t(next)] = k;
            tail = next;
            if (!view || tailType == "view")
                tailType = nx.type;
        }
    }

    // Kernels: members, external tensors, features.
    d.kernels.reserve(kernelNodes.size());
    for (std::size_t k = 0; k < kernelNodes.size(); ++k) {
        Kernel kernel;
        std::string joined;
        for (int v : kernelNodes[k]) {
            const Node &node = nodes[std::size_t(v)];
            kernel.layers.insert(kernel.layers.end(), node.layers.begin(), node.layers.end());
            if (node.type == "view")
                continue;
            joined += (joined.empty() ? "" : "-") + node.type;
            if (kernel.kind.empty())
                kernel.kind = node.type;
        }
        std::sort(kernel.layers.begin(), kernel.layers.end());
        kernel.type = joined.empty() ? "view" : joined;
        if (kernel.kind.empty())
            kernel.kind = "view";
        kernel.writesOutput = kernel.type != "view";
        for (int m : kernel.layers)
            d.kernelOfLayer[std::size_t(m)] = int(k);
        d.kernels.push_back(std::move(kernel));
    }
    for (Kernel &kernel : d.kernels) {
        const int self = d.kernelOfLayer[std::size_t(kernel.layers.front())];
        double weightBytes = 0;
        for (int m : kernel.layers) {
            const Layer &l = net.layers[std::size_t(m)];
            for (int p : l.inputs) {
                const bool outside = p < 0 || d.kernelOfLayer[std::size_t(p)] != self;
                if (outside && std::find(kernel.inputs.begin(), kernel.inputs.end(), p) == kernel.inputs.end())
                    kernel.inputs.push_back(p);
            }
            kernel.flops += cost[std::size_t(m)].flops;
            kernel.params += cost[std::size_t(m)].params;
            weightBytes += cost[std::size_t(m)].weightBytes;
            const auto &cs = cons[std::size_t(m)];
            const bool leaves = cs.empty() || std::any_of(cs.begin(), cs.end(), [&](int c) {
                                    return d.kernelOfLayer[std::size_t(c)] != self;
                                });
            if (leaves && kernel.writesOutput)
                kernel.bytes += double(l.output.elements()) * bytesPerElement;
            if (kernel.kernelSize == 0
                && (l.type == LayerType::Convolution || l.type == LayerType::Deconvolution
                    || (l.type == LayerType::Pooling && !l.globalPool))) {
                kernel.kernelSize = l.kernelH;
                kernel.stride = l.strideH;
            }
        }
        if (kernel.writesOutput) {
            for (int p : kernel.inputs)
                kernel.bytes += double(net.inputShape(p).elements()) * bytesPerElement;
            kernel.bytes += weightBytes;
        }
        kernel.inputShape = kernel.inputs.empty() ? Shape{} : net.inputShape(kernel.inputs.front());
        kernel.outputShape = net.layers[std::size_t(kernel.layers.back())].output;
        kernel.hw = kernel.inputShape.h;
        kernel.cin = kernel.inputShape.c;
        kernel.cout = kernel.outputShape.c;
    }
    return d;
}

std::vector<std::string> featureNames(const std::string &kind)
{
    if (kind == "conv" || kind == "deconv")
        return {"HW", "CIN", "COUT", "KS", "S", "FLOPS", "PARAMS"};
    if (kind == "dwconv")
        return {"HW", "CIN", "KS", "S", "FLOPS", "PARAMS"};
    if (kind == "fc" || kind == "matmul")
        return {"CIN", "COUT", "FLOPS", "PARAMS"};
    if (kind == "maxpool" || kind == "avgpool")
        return {"HW", "CIN", "KS", "S"};
    if (kind == "add" || kind == "mul" || kind == "concat" || kind == "eltwise")
        return {"HW", "CIN1", "CIN2"};
    return {"HW", "CIN"};
}

std::vector<double> featureVector(const Network &net, const Kernel &k)
{
    const double mflops = k.flops / 1e6, mparams = k.params / 1e6;
    const std::string &kind = k.kind;
    // HW is the input's side. Convolutions and pooling are read on square inputs (their H);
    // the element-wise kinds, whose cost follows the element count, on the side of a square
    // of as many positions: BERT's 16x8 token grid reads as 11.3, a 1x197 sequence as 14.0
    // (with H alone they read as 16 and 1, and a forest trained on squares missed them).
    const bool spatial = kind == "conv" || kind == "deconv" || kind == "dwconv" || kind == "maxpool" || kind == "avgpool";
    const double hw = spatial ? double(k.hw) : std::sqrt(double(k.inputShape.h) * double(k.inputShape.w));
    const double cin = double(k.cin), cout = double(k.cout);
    if (kind == "conv" || kind == "deconv")
        return {hw, cin, cout, double(k.kernelSize), double(k.stride), mflops, mparams};
    if (kind == "dwconv")
        return {hw, cin, double(k.kernelSize), double(k.stride), mflops, mparams};
    if (kind == "fc" || kind == "matmul") {
        // fc flattens its input: CIN is every element of a sample
        const double flat = k.inputs.empty() ? cin : double(net.inputShape(k.inputs.front()).perItem());
        return {kind == "fc" ? flat : cin, cout, mflops, mparams};
    }
    if (kind == "maxpool" || kind == "avgpool")
        return {hw, cin, double(k.kernelSize), double(k.stride)};
    if (kind == "add" || kind == "mul" || kind == "concat" || kind == "eltwise")
        return {hw, cin, k.inputs.size() > 1 ? double(net.inputShape(k.inputs[1]).c) : 0.0};
    return {hw, cin};
}

} // namespace roofline::nnmeter
