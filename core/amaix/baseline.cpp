#include "baseline.h"

#include <cmath>

namespace roofline::amaix {

namespace {

double ceil16(double x)
{
    return 16 * std::ceil(x / 16);
}

bool fusedIntoConvolution(LayerType t)
{
    return t == LayerType::Bias || t == LayerType::BatchNorm || t == LayerType::Activation || t == LayerType::Lrn;
}

} // namespace

BaselineResult evaluateBaseline(const Network &network, const Accelerator &accelerator, const BaselineOptions &options)
{
    BaselineResult r;
    r.layerNs.assign(network.layers.size(), 0.0);
    auto fail = [&](std::string message) {
        r.ok = false;
        r.error = std::move(message);
        return r;
    };
    const std::string &typeName = !options.dataType.empty() ? options.dataType
        : !network.dataType.empty()                          ? network.dataType
                                                             : accelerator.defaultDataType;
    const DataType *dataType = accelerator.dataType(typeName);
    if (!dataType)
        return fail("the accelerator has no data type \"" + typeName + "\"");
    const Mapping &conv = accelerator.mapping[std::size_t(LayerType::Convolution)];
    if (conv.unit < 0 || conv.memory < 0)
        return fail("the accelerator maps convolutions to no unit");
    const Unit &unit = accelerator.units[std::size_t(conv.unit)];
    const double macs = accelerator.scaling == ScalingModel::Nvdla && unit.macArray
        ? double(dataType->tK) * accelerator.nvdla.tC
        : unit.opsPerCycle;
    const double fMHz = accelerator.clockGHz * 1000;
    const double bandwidth = accelerator.memories[std::size_t(conv.memory)].bandwidthGBps;
    const double bytes = dataType->bytes;
    if (macs <= 0 || fMHz <= 0 || bandwidth <= 0)
        return fail("MACs per cycle, clock and bandwidth must be > 0");

    // The single consumer of each layer, or -1, to find fused pooling.
    std::vector<int> consumer(network.layers.size(), -1);
    std::vector<int> consumers(network.layers.size(), 0);
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        for (int producer : network.layers[i].inputs) {
            if (producer >= 0) {
                ++consumers[std::size_t(producer)];
                consumer[std::size_t(producer)] = int(i);
            }
        }
    }

    double totalCycles = 0;
    double macCycles = 0;
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        const Layer &layer = network.layers[i];
        const bool fc = layer.type == LayerType::FullyConnected;
        if (layer.type != LayerType::Convolution && !fc)
            continue;
        const Shape in = network.inputShape(layer.inputs[0]);
        const double c = double(in.c);
        const double cw = fc ? c : c / layer.groups;
        const double h = double(in.h), w = double(in.w);
        const double k = double(layer.outChannels);
        const double rk = fc ? h : layer.kernelH, sk = fc ? w : layer.kernelW;
        const double sv = fc ? 1 : layer.strideH, sh = fc ? 1 : layer.strideW;
        const bool padded = !fc && (layer.padH > 0 || layer.padW > 0);
        const bool winograd = options.winograd && !fc && rk == 3 && sk == 3 && sv == 1 && sh == 1;
        const double batch = fc ? options.fcBatch : 1;

        BaselineRow row;
        row.layer = int(i);
        Shape out = layer.output;
        for (int j = int(i); consumers[std::size_t(j)] == 1;) {
            const Layer &next = network.layers[std::size_t(consumer[std::size_t(j)])];
            if (next.type == LayerType::Pooling) {
                out = next.output;
                row.pooledOutput = true;
                break;
            }
            if (!fusedIntoConvolution(next.type))
                break;
            j = consumer[std::size_t(j)];
        }
        row.inKB = ceil16(c * sv * sh) * std::ceil(h / sv) * std::ceil(w / sh) * bytes / 1024;
        row.outKB = double(out.h * out.w) * ceil16(k) * bytes / 1024;
        row.weightKB = ceil16(cw * sv * sh) * std::ceil(rk / sv) * std::ceil(sk / sh) * k * bytes
            * (1 - options.weightCompression) / 1024 * (winograd ? 16.0 / 9.0 : 1.0);
        row.dramCycles = std::ceil((row.weightKB / batch + row.inKB + row.outKB) / bandwidth * fMHz);
        const double p = padded ? h : h - rk + 1;
        const double q = padded ? w : w - sk + 1;
        row.macCycles = ceil16(cw * sv * sh) * std::ceil(p / sv) * std::ceil(q / sh) * ceil16(k * batch) * rk * sk
            / (sv * sh) / macs / (winograd ? 2.25 : 1.0) / batch;
        row.cycles = std::max(row.dramCycles, row.macCycles);
        row.timeNs = row.cycles / accelerator.clockGHz;
        r.layerNs[i] = row.timeNs;
        totalCycles += row.cycles;
        macCycles += row.macCycles;
        r.rows.push_back(row);
    }
    r.totalNs = totalCycles / accelerator.clockGHz;
    r.fps = r.totalNs > 0 ? 1e9 / r.totalNs : 0;
    r.macUtilization = totalCycles > 0 ? macCycles / totalCycles : 0;
    return r;
}

Comparison compare(const Network &network, const Result &amaix, const BaselineResult &baseline,
                   const std::vector<MeasuredTime> &measured, Diagnostics &diagnostics)
{
    Comparison out;
    bool haveTotal = false;
    for (const MeasuredTime &m : measured) {
        if (m.layer == "total") {
            out.total.measuredNs = m.timeNs;
            haveTotal = true;
            continue;
        }
        const int index = network.indexOf(m.layer);
        if (index < 0) {
            diagnostics.error("line " + std::to_string(m.line), "no layer named \"" + m.layer + "\" in the network");
            continue;
        }
        ComparisonRow row;
        row.layer = m.layer;
        row.measuredNs = m.timeNs;
        row.amaixNs = std::size_t(index) < amaix.layerNs.size() ? amaix.layerNs[std::size_t(index)] : 0;
        row.baselineNs = std::size_t(index) < baseline.layerNs.size() ? baseline.layerNs[std::size_t(index)] : 0;
        if (!haveTotal)
            out.total.measuredNs += m.timeNs;
        out.rows.push_back(row);
    }
    out.total.layer = "total";
    out.total.amaixNs = amaix.totalNs;
    out.total.baselineNs = baseline.totalNs;
    return out;
}

} // namespace roofline::amaix
