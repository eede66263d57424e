// Brouwer's memory-constrained inference model (seed 002, §3.1–3.3).
#include "model.h"

#include <algorithm>
#include <cmath>

namespace roofline::brouwer {

using network::Layer;
using network::LayerType;
using network::Network;

namespace {

constexpr std::array<const char *, kCategoryCount> kNames = {"load", "load_p0", "fc",   "conv", "act",
                                                             "pool", "drop",    "norm", "other"};
constexpr std::array<const char *, kCategoryCount> kLabels = {"LOAD", "LOAD P0", "FC",   "CONV", "ACT",
                                                              "POOL", "DROP",    "NORM", "OTHER"};
constexpr std::array<const char *, kBasicCount> kBasicNames = {"I", "P", "O", "F", "G", "S", "Pad", "swap"};

double logIn(double base, double x) { return std::log(x) / std::log(base); }

} // namespace

const char *categoryName(Category c) { return kNames[std::size_t(c)]; }
const char *categoryLabel(Category c) { return kLabels[std::size_t(c)]; }
std::optional<Category> categoryFromName(const std::string &name)
{
    for (int i = 0; i < kCategoryCount; ++i)
        if (name == kNames[std::size_t(i)])
            return Category(i);
    return std::nullopt;
}

Category executionCategory(const Layer &layer)
{
    switch (layer.type) {
    case LayerType::Convolution:
    case LayerType::Deconvolution: return Category::Conv;
    case LayerType::FullyConnected: return Category::Fc;
    case LayerType::Activation: return layer.function == "dropout" ? Category::Drop : Category::Act;
    case LayerType::Pooling: return Category::Pool;
    case LayerType::Lrn:
    case LayerType::BatchNorm:
    case LayerType::LayerNorm: return Category::Norm;
    default: return Category::Other;
    }
}

double convMultiplications(const Network &net, std::size_t index)
{
    const Layer &l = net.layers[index];
    const network::Shape &out = l.output;
    const network::Shape in = net.inputShape(l.inputs.at(0));
    const double groups = std::max(1, l.groups);
    // Deconvolution: a filter spans the output channels of a group.
    const double depth = (l.type == LayerType::Deconvolution ? double(out.c) : double(in.c)) / groups;
    const double filter = depth * l.kernelH * l.kernelW;
    const double outputVolume = double(out.c) * double(out.h) * double(out.w) * double(out.n);
    return outputVolume * filter * filter / groups + (l.hasBias ? double(out.c) : 0.0); // eq. 1
}

std::vector<LayerFeatures> layerFeatures(const Network &net)
{
    std::vector<LayerFeatures> out;
    out.reserve(net.layers.size());
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const Layer &l = net.layers[i];
        LayerFeatures f;
        f.name = l.name;
        f.category = executionCategory(l);
        for (int p : l.inputs)
            f.inputs += double(net.inputShape(p).elements());
        f.parameters = double(network::countLayer(net, i).parameters());
        f.outputs = double(l.output.elements());
        if (f.category == Category::Conv) {
            f.multiplications = convMultiplications(net, i);
            f.groups = std::max(1, l.groups);
            f.stride = std::max(l.strideH, l.strideW);
            f.padding = std::max(l.padH, l.padW);
        }
        out.push_back(std::move(f));
    }
    return out;
}

double overflowElements(const LayerFeatures &layer, double availableBytes, double bytesPerElement)
{
    const double available = std::floor(std::max(0.0, availableBytes) / bytesPerElement);
    return std::max(0.0, layer.requiredElements() - available);
}

const char *predictorName(Predictor p)
{
    switch (p) {
    case Predictor::None: return "";
    case Predictor::I: return "I";
    case Predictor::P: return "P";
    case Predictor::O: return "O";
    case Predictor::M: return "M";
    }
    return "";
}

std::optional<Predictor> predictorFromName(const std::string &name)
{
    for (Predictor p : {Predictor::None, Predictor::I, Predictor::P, Predictor::O, Predictor::M})
        if (name == predictorName(p))
            return p;
    return std::nullopt;
}

double predictorValue(const LayerFeatures &layer, Predictor p)
{
    switch (p) {
    case Predictor::None: return 1;
    case Predictor::I: return layer.inputs;
    case Predictor::P: return layer.parameters;
    case Predictor::O: return layer.outputs;
    case Predictor::M: return layer.multiplications;
    }
    return 1;
}

const char *basicName(int b) { return kBasicNames[std::size_t(b)]; }

std::array<double, kBasicCount> basicFeatures(const LayerFeatures &layer, double overflow, double logBase)
{
    auto z = [&](double x) { return logIn(logBase, 1 + std::max(0.0, x)); };
    return {z(layer.inputs), z(layer.parameters), z(layer.outputs), z(overflow), z(layer.groups),
            z(layer.stride), z(layer.padding),    overflow > 0 ? 1.0 : 0.0};
}

int Term::degree() const
{
    int d = 0;
    for (int p : powers)
        d += p;
    return d;
}

std::string Term::toString() const
{
    std::string s;
    for (int b = 0; b < kBasicCount; ++b) {
        if (powers[std::size_t(b)] == 0)
            continue;
        if (!s.empty())
            s += "·";
        s += basicName(b);
        if (powers[std::size_t(b)] > 1)
            s += "^" + std::to_string(powers[std::size_t(b)]);
    }
    return s.empty() ? "1" : s;
}

PartPrediction predictPart(const Device &device, Category submodel, const LayerFeatures &layer, double overflow)
{
    PartPrediction out;
    out.submodel = submodel;
    out.swapping = overflow > 0;
    double smearing = 1;
    if (device.kind == ModelKind::FeatureEngineering) {
        const FeSubmodel &m = device.fe[std::size_t(submodel)];
        const FeRegime *regime = out.swapping ? &m.swapping : &m.standard;
        bool useOverflow = out.swapping;
        if (!regime->calibrated) {
            out.calibrated = false;
            regime = out.swapping ? &m.standard : &m.swapping;
            useOverflow = false;
        }
        if (!regime->calibrated)
            return out; // neither regime: 0 ms, uncalibrated
        // Predictors below 1 (a layer without inputs) are read as 1: log 1 = 0.
        double y = regime->intercept;
        if (m.predictor != Predictor::None)
            y += regime->slope * logIn(device.logBase, std::max(1.0, predictorValue(layer, m.predictor)));
        if (useOverflow)
            y += regime->overflow * logIn(device.logBase, std::max(1.0, overflow));
        out.logTime = y;
        smearing = regime->smearing;
    } else {
        const FsSubmodel &m = device.fs[std::size_t(submodel)];
        if (!m.calibrated) {
            out.calibrated = false;
            return out;
        }
        if (out.swapping && !m.swappingCalibrated)
            out.calibrated = false; // predicted all the same: no swapping data behind it
        const auto z = basicFeatures(layer, overflow, device.logBase);
        double y = m.intercept;
        for (const Term &t : m.terms) {
            double v = t.coefficient;
            for (int b = 0; b < kBasicCount; ++b)
                for (int k = 0; k < t.powers[std::size_t(b)]; ++k)
                    v *= z[std::size_t(b)];
            y += v;
        }
        out.logTime = y;
        smearing = m.smearing;
    }
    // Times beyond 10^300 units are clamped so a wild calibration cannot make infinities.
    const double ns = std::pow(device.logBase, std::min(out.logTime, 300.0 / std::log10(device.logBase)))
        * device.timeUnitNs;
    out.ms = std::min(ns * 1e-6, 1e300);
    out.smearedMs = std::min(out.ms * smearing, 1e300);
    return out;
}

LayerPrediction predictLayer(const Device &device, const LayerFeatures &layer, const Params &params)
{
    LayerPrediction p;
    p.name = layer.name;
    p.category = layer.category;
    p.requiredBytes = layer.requiredElements() * params.bytesPerElement;
    p.overflow = overflowElements(layer, params.availableBytes, params.bytesPerElement);
    p.load = predictPart(device, layer.parameters > 0 ? Category::Load : Category::LoadP0, layer, p.overflow);
    p.exec = predictPart(device, layer.category, layer, p.overflow);
    return p;
}

Result evaluate(const Device &device, const std::vector<LayerFeatures> &layers, const Params &params)
{
    Result r;
    r.layers.reserve(layers.size());
    for (const LayerFeatures &l : layers) {
        LayerPrediction p = predictLayer(device, l, params);
        r.loadMs += p.load.ms;
        r.execMs += p.exec.ms;
        r.smearedLoadMs += p.load.smearedMs;
        r.smearedExecMs += p.exec.smearedMs;
        r.swappingLayers += p.swapping() ? 1 : 0;
        r.uncalibratedParts += (p.load.calibrated ? 0 : 1) + (p.exec.calibrated ? 0 : 1);
        r.layers.push_back(std::move(p));
    }
    return r;
}

Curve memoryCurve(const Device &device, const std::vector<LayerFeatures> &layers, double bytesPerElement,
                  double minBytes, double maxBytes, int samples)
{
    Curve c;
    std::vector<double> at;
    samples = std::max(2, samples);
    const double l0 = std::log(minBytes), l1 = std::log(maxBytes);
    for (int i = 0; i < samples; ++i)
        at.push_back(std::exp(l0 + (l1 - l0) * i / (samples - 1)));
    for (const LayerFeatures &l : layers) {
        // A layer swaps when floor(M / b) < required elements, i.e. below required·b bytes.
        const double knee = l.requiredElements() * bytesPerElement;
        if (knee > minBytes && knee <= maxBytes) {
            c.knees.push_back({knee, l.name});
            at.push_back(knee);
            at.push_back(knee - 1.0); // one byte less: the layer swaps
        }
    }
    std::sort(c.knees.begin(), c.knees.end(), [](const Knee &a, const Knee &b) { return a.bytes < b.bytes; });
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    c.points.reserve(at.size());
    Params p;
    p.bytesPerElement = bytesPerElement;
    for (double bytes : at) {
        p.availableBytes = bytes;
        double total = 0, smeared = 0;
        for (const LayerFeatures &l : layers) {
            const double f = overflowElements(l, bytes, bytesPerElement);
            const PartPrediction load =
                predictPart(device, l.parameters > 0 ? Category::Load : Category::LoadP0, l, f);
            const PartPrediction exec = predictPart(device, l.category, l, f);
            total += load.ms + exec.ms;
            smeared += load.smearedMs + exec.smearedMs;
        }
        c.points.push_back({bytes, total, smeared});
    }
    return c;
}

} // namespace roofline::brouwer
