// AMAIX network files ("roofline-studio/amaix-network"): layers, shapes and their checks.
#include "io.h"

#include "../common/jsondocument.h"
#include "jsonfields.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace roofline::amaix {

using nlohmann::json;

namespace {

const Range kDimension = Range::closed(1, Limits::maxDimension);
const Range kKernel = Range::closed(1, Limits::maxKernel);
const Range kPad = Range::closed(0, Limits::maxKernel);

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
        if (!range.contains(d) || !isInteger(d)) {
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
    if (!value.is_array() || (value.size() != 1 && value.size() != 3)) {
        diagnostics.error(where, "expected a shape [C, H, W] or [C], got " + jsonTypeName(value));
        return std::nullopt;
    }
    std::int64_t dims[3] = {1, 1, 1};
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json &d = value[i];
        const std::string p = where + "/" + std::to_string(i);
        if (!d.is_number() || !kDimension.contains(d.get<double>()) || !isInteger(d.get<double>())) {
            diagnostics.error(p, "must be a whole number " + kDimension.describe());
            return std::nullopt;
        }
        dims[i] = std::int64_t(d.get<double>());
    }
    return Shape{dims[0], dims[1], dims[2]};
}

void checkName(const std::string &name, const std::string &where, Diagnostics &diagnostics)
{
    if (name.empty())
        diagnostics.error(where, "must not be empty");
    else if (name.size() > 128)
        diagnostics.error(where, "must be at most 128 characters");
}


void readLayer(const json &value, std::size_t index, Network &net, std::set<std::string> &names, Diagnostics &diags)
{
    const std::string where = "/layers/" + std::to_string(index);
    JsonObjectReader r(value, where, diags);
    if (!r.isObject())
        return;
    Layer layer;
    layer.name = r.string("name").value_or("");
    if (r.has("name") && value["name"].is_string()) {
        checkName(layer.name, where + "/name", diags);
        if (!names.insert(layer.name).second)
            diags.error(where + "/name", "duplicate name \"" + layer.name + "\"");
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
        const int l = net.indexOf(name);
        if (l >= 0) {
            layer.inputs.push_back(l);
            return;
        }
        for (std::size_t i = 0; i < net.inputs.size(); ++i) {
            if (net.inputs[i].name == name) {
                layer.inputs.push_back(-int(i) - 1);
                return;
            }
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

    switch (layer.type) {
    case LayerType::Convolution:
    case LayerType::FullyConnected:
        layer.outChannels = readInt(r, "out_channels", kDimension, true, diags).value_or(1);
        layer.hasBias = r.optionalBool("bias").value_or(true);
        if (layer.type == LayerType::FullyConnected)
            break;
        if (auto k = readPair(r, "kernel", kKernel, true, diags))
            std::tie(layer.kernelH, layer.kernelW) = *k;
        if (auto s = readPair(r, "stride", kKernel, false, diags))
            std::tie(layer.strideH, layer.strideW) = *s;
        if (auto p = readPair(r, "pad", kPad, false, diags))
            std::tie(layer.padH, layer.padW) = *p;
        layer.groups = int(readInt(r, "groups", kDimension, false, diags).value_or(1));
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
        layer.lrnSize = int(readInt(r, "size", kKernel, false, diags).value_or(5));
        break;
    case LayerType::Activation:
        if (auto f = r.string("function")) {
            layer.function = *f;
            checkName(*f, where + "/function", diags);
        }
        break;
    case LayerType::MatMul:
        layer.heads = int(readInt(r, "heads", kDimension, false, diags).value_or(1));
        layer.transposeB = r.optionalBool("transpose_b").value_or(false);
        break;
    default:
        break;
    }
    r.finish();
    net.layers.push_back(std::move(layer));
}

} // namespace

NetworkLoad parseNetwork(const std::string &text, const std::string &fileLabel)
{
    NetworkLoad out;
    Diagnostics &diags = out.diagnostics;
    JsonModelFile file(text, fileLabel, kNetworkFormatId, kFormatVersion, diags);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Network net;
    net.name = top.string("name").value_or("");
    net.description = top.optionalString("description").value_or("");
    net.source = top.optionalString("source").value_or("");
    net.dataType = top.optionalString("data_type").value_or("");
    std::set<std::string> names;
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
                    if (!names.insert(input.name).second)
                        diags.error(where + "/name", "duplicate name \"" + input.name + "\"");
                }
                if (const json *shape = r.member("shape", true)) {
                    if (auto s = readShape(*shape, where + "/shape", diags))
                        input.shape = *s;
                }
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

} // namespace roofline::amaix
