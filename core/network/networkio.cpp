// Network files ("roofline-studio/amaix-network"): layers, shapes and their checks,
// and the writer every imported network goes through.
#include "io.h"
#include "common/atomicfile.h"

#include "../common/jsondocument.h"
#include "../common/jsonreader.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace roofline::network {

using nlohmann::json;

namespace {

using Limits = NetworkLimits;
const Range kDimension = Range::closed(1, Limits::maxDimension);
const Range kKernel = Range::closed(1, Limits::maxKernel);
const Range kPad = Range::closed(0, Limits::maxKernel);
const Range kAxis = Range::closed(0, 2);
const Range kCount = Range::closed(0, Limits::maxCount);

// A pair written as one number (both) or [h, w].
std::optional<std::pair<int, int>> readPair(JsonObjectReader &r, const std::string &key, const Range &range,
                                            bool required, Diagnostics &diagnostics)
{
    const json *value = r.member(key, required);
    if (!value)
        return std::nullopt;
    const std::string where = r.pointerTo(key);
    auto one = [&](const json &v, const std::string &p) -> std::optional<int> {
        if (!v.is_number()) {
            diagnostics.error(p, "expected a number, got " + jsonTypeName(v));
            return std::nullopt;
        }
        const double d = v.get<double>();
        if (!range.contains(d) || !isWholeNumber(d)) {
            diagnostics.error(p, "must be a whole number " + range.describe() + ", got " + formatNumber(d));
            return std::nullopt;
        }
        return int(d);
    };
    if (value->is_array()) {
        if (value->size() != 2) {
            diagnostics.error(where, "expected one number or [height, width], got an array of "
                                         + std::to_string(value->size()));
            return std::nullopt;
        }
        auto h = one((*value)[0], where + "/0");
        auto w = one((*value)[1], where + "/1");
        if (!h || !w)
            return std::nullopt;
        return std::make_pair(*h, *w);
    }
    auto v = one(*value, where);
    if (!v)
        return std::nullopt;
    return std::make_pair(*v, *v);
}

std::optional<Shape> readShape(const json &value, const std::string &where, Diagnostics &diagnostics)
{
    if (!value.is_array() || (value.size() != 1 && value.size() != 3 && value.size() != 4)) {
        diagnostics.error(where, "expected a shape [C, H, W], [C] or [N, C, H, W], got " + jsonTypeName(value)
                                     + (value.is_array() ? " of " + std::to_string(value.size()) : std::string()));
        return std::nullopt;
    }
    std::int64_t dims[4] = {1, 1, 1, 1};
    const std::size_t first = value.size() == 4 ? 0 : 1; // dims[0] is the batch
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json &d = value[i];
        const std::string p = where + "/" + std::to_string(i);
        if (!d.is_number() || !kDimension.contains(d.get<double>()) || !isWholeNumber(d.get<double>())) {
            diagnostics.error(p, "must be a whole number " + kDimension.describe());
            return std::nullopt;
        }
        dims[first + i] = std::int64_t(d.get<double>());
    }
    return Shape{dims[1], dims[2], dims[3], dims[0]};
}

// A tensor's dimensions as a file states them: whole numbers >= 0 (0 is a valid ONNX size).
std::vector<std::int64_t> readDims(const json &value, const std::string &where, Diagnostics &diagnostics)
{
    std::vector<std::int64_t> dims;
    if (!value.is_array() || value.size() > 16) {
        diagnostics.error(where, "expected an array of at most 16 dimensions, got " + jsonTypeName(value));
        return dims;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json &d = value[i];
        if (!d.is_number() || !Range::closed(0, Limits::maxDimension).contains(d.get<double>())
            || !isWholeNumber(d.get<double>())) {
            diagnostics.error(where + "/" + std::to_string(i),
                              "must be a whole number " + Range::closed(0, Limits::maxDimension).describe());
            return {};
        }
        dims.push_back(std::int64_t(d.get<double>()));
    }
    return dims;
}

void checkName(const std::string &name, const std::string &where, Diagnostics &diagnostics)
{
    if (name.empty())
        diagnostics.error(where, "must not be empty");
    else if (name.size() > 128)
        diagnostics.error(where, "must be at most 128 characters");
}


// `names`: every input and layer read so far by name, to its producer index
// (layers from 0, inputs -1, -2, ...): a scan of the layers for every named
// input made a 10^5-layer network (as we save it) load in quadratic time.
void readLayer(const json &value, std::size_t index, Network &net, std::map<std::string, int> &names,
               Diagnostics &diags)
{
    const std::string where = "/layers/" + std::to_string(index);
    JsonObjectReader r(value, where, diags);
    if (!r.isObject())
        return;
    Layer layer;
    layer.name = r.string("name").value_or("");
    bool named = false;
    if (r.has("name") && value["name"].is_string()) {
        checkName(layer.name, where + "/name", diags);
        if (names.count(layer.name))
            diags.error(where + "/name", "duplicate name \"" + layer.name + "\"");
        else
            named = true;
    }
    const std::optional<std::string> typeName = r.string("type");
    const std::optional<LayerType> type = typeName ? layerTypeFromName(*typeName) : std::nullopt;
    if (typeName && !type) {
        std::string known;
        for (int t = 0; t < kLayerTypeCount; ++t)
            known += std::string(t ? ", " : "") + layerTypeName(LayerType(t));
        diags.error(where + "/type", "unknown layer type \"" + *typeName + "\" (known: " + known + ")");
    }
    layer.type = type.value_or(LayerType::Activation);

    // Producers by name; by default the previous layer (or the only input).
    auto resolve = [&](const json &v, const std::string &p) {
        if (!v.is_string()) {
            diags.error(p, "expected a layer or input name, got " + jsonTypeName(v));
            return;
        }
        const std::string name = v.get<std::string>();
        if (const auto found = names.find(name); found != names.end()) {
            layer.inputs.push_back(found->second);
            return;
        }
        diags.error(p, "no earlier layer or network input named \"" + name + "\"");
    };
    if (r.has("input") && r.has("inputs"))
        diags.error(where + "/inputs", "give either \"input\" or \"inputs\", not both");
    if (const json *in = r.member("input", false)) {
        resolve(*in, where + "/input");
    } else if (const json *ins = r.member("inputs", false)) {
        if (!ins->is_array() || ins->empty())
            diags.error(where + "/inputs", "expected a non-empty array of names, got " + jsonTypeName(*ins));
        else
            for (std::size_t i = 0; i < ins->size(); ++i)
                resolve((*ins)[i], where + "/inputs/" + std::to_string(i));
    } else if (!net.layers.empty()) {
        layer.inputs.push_back(int(net.layers.size()) - 1);
    } else if (net.inputs.size() == 1) {
        layer.inputs.push_back(-1);
    } else {
        diags.error(where + "/input", "the first layer must name its input when the network has several");
    }

    if (const json *output = r.member("output", false))
        layer.statedOutput = readShape(*output, where + "/output", diags);

    // Where an imported layer came from (all optional).
    if (auto op = r.optionalString("op"))
        layer.op = *op;
    if (const json *attributes = r.member("attributes", false)) {
        if (!attributes->is_object()) {
            diags.error(where + "/attributes", "expected an object of texts, got " + jsonTypeName(*attributes));
        } else {
            for (auto it = attributes->begin(); it != attributes->end(); ++it) {
                if (!it->is_string())
                    diags.error(where + "/attributes/" + it.key(), "expected a text, got " + jsonTypeName(*it));
                else
                    layer.attributes[it.key()] = it->get<std::string>();
            }
        }
    }
    if (const json *dims = r.member("dims", false)) {
        layer.dims = readDims(*dims, where + "/dims", diags);
        if (layer.dims.empty() && dims->is_array() && dims->empty())
            diags.error(where + "/dims", "must not be empty (a scalar is [1])");
    }
    if (const json *counts = r.member("counts", false)) {
        JsonObjectReader c(*counts, where + "/counts", diags);
        if (c.isObject()) {
            LayerCounts stated;
            stated.weights = c.integer("weights", kCount).value_or(0);
            stated.biases = c.integer("biases", kCount).value_or(0);
            stated.macs = c.integer("macs", kCount).value_or(0);
            c.finish();
            layer.counts = stated;
        }
    }

    switch (layer.type) {
    case LayerType::Convolution:
    case LayerType::Deconvolution:
    case LayerType::FullyConnected:
        layer.outChannels = r.integer("out_channels", kDimension).value_or(1);
        layer.hasBias = r.optionalBool("bias").value_or(true);
        if (layer.type == LayerType::FullyConnected)
            break;
        if (auto d = readPair(r, "dilation", kKernel, false, diags))
            std::tie(layer.dilationH, layer.dilationW) = *d;
        if (auto k = readPair(r, "kernel", kKernel, true, diags))
            std::tie(layer.kernelH, layer.kernelW) = *k;
        if (auto s = readPair(r, "stride", kKernel, false, diags))
            std::tie(layer.strideH, layer.strideW) = *s;
        if (auto p = readPair(r, "pad", kPad, false, diags))
            std::tie(layer.padH, layer.padW) = *p;
        layer.groups = int(r.optionalInteger("groups", kDimension).value_or(1));
        break;
    case LayerType::Pooling: {
        if (auto mode = r.string("mode")) {
            if (*mode == "max")
                layer.poolMode = PoolMode::Max;
            else if (*mode == "average")
                layer.poolMode = PoolMode::Average;
            else
                diags.error(where + "/mode", "expected \"max\" or \"average\", got \"" + *mode + "\"");
        }
        layer.globalPool = r.optionalBool("global").value_or(false);
        if (layer.globalPool)
            break;
        if (auto k = readPair(r, "kernel", kKernel, true, diags))
            std::tie(layer.kernelH, layer.kernelW) = *k;
        if (auto s = readPair(r, "stride", kKernel, false, diags))
            std::tie(layer.strideH, layer.strideW) = *s;
        if (auto p = readPair(r, "pad", kPad, false, diags))
            std::tie(layer.padH, layer.padW) = *p;
        if (auto rounding = r.optionalString("rounding")) {
            if (*rounding == "ceil")
                layer.rounding = Rounding::Ceil;
            else if (*rounding != "floor")
                diags.error(where + "/rounding", "expected \"floor\" or \"ceil\", got \"" + *rounding + "\"");
        }
        break;
    }
    case LayerType::Lrn:
        layer.lrnSize = int(r.optionalInteger("size", kKernel).value_or(5));
        break;
    case LayerType::Activation:
        if (auto f = r.string("function")) {
            layer.function = *f;
            checkName(*f, where + "/function", diags);
        }
        break;
    case LayerType::Reduce:
        if (auto f = r.optionalString("function")) {
            layer.function = *f;
            checkName(*f, where + "/function", diags);
        } else {
            layer.function = "mean";
        }
        break;
    case LayerType::Concat:
        layer.axis = int(r.optionalInteger("axis", kAxis).value_or(0));
        break;
    case LayerType::MatMul:
        layer.heads = int(r.optionalInteger("heads", kDimension).value_or(1));
        layer.transposeB = r.optionalBool("transpose_b").value_or(false);
        break;
    default:
        break;
    }
    r.finish();
    net.layers.push_back(std::move(layer));
    if (named)
        names.emplace(net.layers.back().name, int(net.layers.size()) - 1);
}

} // namespace

NetworkLoad parseNetwork(const std::string &text, const std::string &fileLabel)
{
    NetworkLoad out;
    Diagnostics &diags = out.diagnostics;
    JsonModelFile file(text, fileLabel, kNetworkFormatId, kNetworkFormatVersion, diags);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Network net;
    net.name = top.string("name").value_or("");
    net.description = top.optionalString("description").value_or("");
    net.source = top.optionalString("source").value_or("");
    net.dataType = top.optionalString("data_type").value_or("");
    std::map<std::string, int> names; // inputs and layers by name (readLayer)
    if (const json *inputs = top.member("inputs", true)) {
        if (!inputs->is_array() || inputs->empty()) {
            diags.error("/inputs", "expected a non-empty array of inputs, got " + jsonTypeName(*inputs));
        } else {
            for (std::size_t i = 0; i < inputs->size(); ++i) {
                const std::string where = "/inputs/" + std::to_string(i);
                JsonObjectReader r((*inputs)[i], where, diags);
                NetworkInput input;
                input.name = r.string("name").value_or("");
                if (r.has("name") && (*inputs)[i]["name"].is_string()) {
                    checkName(input.name, where + "/name", diags);
                    if (!names.emplace(input.name, -int(i) - 1).second)
                        diags.error(where + "/name", "duplicate name \"" + input.name + "\"");
                }
                if (const json *shape = r.member("shape", true)) {
                    if (auto s = readShape(*shape, where + "/shape", diags))
                        input.shape = *s;
                }
                if (const json *dims = r.member("dims", false))
                    input.dims = readDims(*dims, where + "/dims", diags);
                r.finish();
                net.inputs.push_back(std::move(input));
            }
        }
    }
    if (const json *layers = top.member("layers", true)) {
        if (!layers->is_array() || layers->empty()) {
            diags.error("/layers", "expected a non-empty array of layers, got " + jsonTypeName(*layers));
        } else if (layers->size() > Limits::maxLayers) {
            diags.error("/layers", "at most " + std::to_string(Limits::maxLayers) + " layers are supported");
        } else {
            for (std::size_t i = 0; i < layers->size(); ++i)
                readLayer((*layers)[i], i, net, names, diags);
        }
    }
    top.finish();
    if (diags.hasErrors())
        return out;
    if (inferShapes(net, diags))
        out.network = std::move(net);
    return out;
}

NetworkLoad loadNetworkFile(const std::string &path)
{
    NetworkLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseNetwork(text, path);
}

} // namespace roofline::network

namespace roofline::network {

namespace {

json pairJson(int h, int w)
{
    return h == w ? json(h) : json::array({h, w});
}

json shapeJson(const Shape &s)
{
    return s.n != 1 ? json::array({s.n, s.c, s.h, s.w}) : json::array({s.c, s.h, s.w});
}

std::string producerName(const Network &net, int producer)
{
    return producer >= 0 ? net.layers[std::size_t(producer)].name : net.inputs[std::size_t(-producer - 1)].name;
}

json layerJson(const Network &net, const Layer &l)
{
    json j = json::object();
    j["name"] = l.name;
    j["type"] = layerTypeName(l.type);
    if (l.inputs.size() == 1) {
        j["input"] = producerName(net, l.inputs[0]);
    } else {
        json names = json::array();
        for (int p : l.inputs)
            names.push_back(producerName(net, p));
        j["inputs"] = std::move(names);
    }
    switch (l.type) {
    case LayerType::Convolution:
    case LayerType::Deconvolution:
        j["out_channels"] = l.outChannels;
        j["kernel"] = pairJson(l.kernelH, l.kernelW);
        if (l.strideH != 1 || l.strideW != 1)
            j["stride"] = pairJson(l.strideH, l.strideW);
        if (l.padH != 0 || l.padW != 0)
            j["pad"] = pairJson(l.padH, l.padW);
        if (l.dilationH != 1 || l.dilationW != 1)
            j["dilation"] = pairJson(l.dilationH, l.dilationW);
        if (l.groups != 1)
            j["groups"] = l.groups;
        if (!l.hasBias)
            j["bias"] = false;
        break;
    case LayerType::FullyConnected:
        j["out_channels"] = l.outChannels;
        if (!l.hasBias)
            j["bias"] = false;
        break;
    case LayerType::Pooling:
        j["mode"] = l.poolMode == PoolMode::Max ? "max" : "average";
        if (l.globalPool) {
            j["global"] = true;
            break;
        }
        j["kernel"] = pairJson(l.kernelH, l.kernelW);
        if (l.strideH != 1 || l.strideW != 1)
            j["stride"] = pairJson(l.strideH, l.strideW);
        if (l.padH != 0 || l.padW != 0)
            j["pad"] = pairJson(l.padH, l.padW);
        if (l.rounding == Rounding::Ceil)
            j["rounding"] = "ceil";
        break;
    case LayerType::Lrn:
        if (l.lrnSize != 5)
            j["size"] = l.lrnSize;
        break;
    case LayerType::Activation:
    case LayerType::Reduce:
        j["function"] = l.function;
        break;
    case LayerType::MatMul:
        if (l.heads != 1)
            j["heads"] = l.heads;
        if (l.transposeB)
            j["transpose_b"] = true;
        break;
    case LayerType::Concat:
        if (l.axis != 0)
            j["axis"] = l.axis;
        break;
    default:
        break;
    }
    if (l.statedOutput)
        j["output"] = shapeJson(*l.statedOutput);
    if (!l.op.empty())
        j["op"] = l.op;
    if (!l.attributes.empty())
        j["attributes"] = l.attributes;
    if (!l.dims.empty())
        j["dims"] = l.dims;
    if (l.counts)
        j["counts"] = {{"weights", l.counts->weights}, {"biases", l.counts->biases}, {"macs", l.counts->macs}};
    return j;
}

} // namespace

json toJson(const Network &net)
{
    json j = json::object();
    j["format"] = kNetworkFormatId;
    j["version"] = kNetworkFormatVersion;
    j["name"] = net.name;
    if (!net.description.empty())
        j["description"] = net.description;
    if (!net.source.empty())
        j["source"] = net.source;
    if (!net.dataType.empty())
        j["data_type"] = net.dataType;
    json inputs = json::array();
    for (const NetworkInput &in : net.inputs) {
        json i = {{"name", in.name}, {"shape", shapeJson(in.shape)}};
        if (!in.dims.empty())
            i["dims"] = in.dims;
        inputs.push_back(std::move(i));
    }
    j["inputs"] = std::move(inputs);
    json layers = json::array();
    for (const Layer &l : net.layers)
        layers.push_back(layerJson(net, l));
    j["layers"] = std::move(layers);
    return j;
}

std::string serialize(const Network &network)
{
    // One layer per line keeps large imported networks readable and diffable.
    const json j = toJson(network);
    std::string out = "{\n";
    bool firstKey = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        out += firstKey ? "  " : ",\n  ";
        firstKey = false;
        out += json(it.key()).dump(-1, ' ', false, json::error_handler_t::replace) + ": ";
        if (it.key() == "layers" || it.key() == "inputs") {
            out += "[\n";
            for (std::size_t i = 0; i < it->size(); ++i)
                out += "    " + (*it)[i].dump(-1, ' ', false, json::error_handler_t::replace) + (i + 1 < it->size() ? ",\n" : "\n");
            out += "  ]";
        } else {
            out += it->dump(-1, ' ', false, json::error_handler_t::replace);
        }
    }
    out += "\n}\n";
    return out;
}

bool saveNetworkFile(const Network &network, const std::string &path, Diagnostics &diagnostics)
{
    diagnostics.setFile(path);
    const std::string text = serialize(network);
    AtomicFile file(path); // write, sync, rename: the old file survives any failure
    if (!file.write(text) || !file.commit()) {
        diagnostics.error("", file.reason());
        return false;
    }
    return true;
}

} // namespace roofline::network
