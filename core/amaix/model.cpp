#include "model.h"

#include <algorithm>
#include <cmath>

namespace roofline::amaix {

namespace {

// A network layer as the accelerator runs it: the layer itself, or the bias
// stage a convolution or fully connected layer with "bias": true adds.
struct Op
{
    int layer = -1;
    LayerType type = LayerType::Convolution;
    bool bias = false;
    int fusedInput = -1; // index into the layer's inputs taken from the previous op of its pipe
};

double ceilDiv(double a, double b)
{
    return std::ceil(a / b);
}

double roundUp(double a, double multiple)
{
    return std::ceil(a / multiple) * multiple;
}

// Per-thread working storage, so that repeated evaluations do not allocate.
struct Scratch
{
    std::vector<int> consumers;
    std::vector<Op> ops;
    std::vector<double> memoryBytes;
};

struct Context
{
    Context(const Network &n, const Accelerator &a, const Options &o, Result &r, Scratch &scratch)
        : net(n)
        , acc(a)
        , options(o)
        , out(r)
        , consumers(scratch.consumers)
        , ops(scratch.ops)
        , memoryBytes(scratch.memoryBytes)
    {
        ops.clear();
    }

    const Network &net;
    const Accelerator &acc;
    const Options &options;
    Result &out;
    bool nvdla = false;
    int bytes = 1;
    int tK = 0;
    std::vector<int> &consumers;
    std::vector<Op> &ops;
    std::vector<double> &memoryBytes;

    bool onMacArray(const Op &op) const
    {
        const Mapping &m = acc.mapping[std::size_t(op.type)];
        return nvdla && m.unit >= 0 && acc.units[std::size_t(m.unit)].macArray
            && (op.type == LayerType::Convolution || op.type == LayerType::FullyConnected
                || op.type == LayerType::MatMul);
    }

    double unitPeak(int unit) const
    {
        const Unit &u = acc.units[std::size_t(unit)];
        const double perCycle = nvdla && u.macArray ? double(tK) * acc.nvdla.tC : u.opsPerCycle;
        return perCycle * acc.clockGHz;
    }

    void fail(Status status, std::string message)
    {
        out.status = status;
        out.error = std::move(message);
    }

    // Index of the input of ops[b] that ops[a] produces when the two can run
    // as one pipeline (the producer feeds nothing else), or -1.
    int chained(std::size_t a, std::size_t b) const
    {
        const Op &prev = ops[a];
        const Op &next = ops[b];
        if (acc.mapping[std::size_t(prev.type)].onHost() || acc.mapping[std::size_t(next.type)].onHost())
            return -1;
        if (next.bias)
            return 0;
        const Layer &layer = net.layers[std::size_t(next.layer)];
        if (consumers[std::size_t(prev.layer)] != 1)
            return -1;
        for (std::size_t k = 0; k < layer.inputs.size(); ++k) {
            if (layer.inputs[k] == prev.layer)
                return int(k);
        }
        return -1;
    }

    std::size_t matchLength(std::size_t p)
    {
        std::size_t best = 1;
        if (acc.mapping[std::size_t(ops[p].type)].onHost())
            return best;
        for (const PipelinePattern &pattern : acc.pipelines) {
            if (pattern.steps.empty() || !(pattern.steps[0] & typeBit(ops[p].type)))
                continue;
            std::size_t step = 0;
            std::size_t q = p + 1;
            for (; q < ops.size(); ++q) {
                if (chained(q - 1, q) < 0)
                    break;
                std::size_t s = step + 1;
                while (s < pattern.steps.size() && !(pattern.steps[s] & typeBit(ops[q].type)))
                    ++s;
                if (s == pattern.steps.size())
                    break;
                step = s;
            }
            best = std::max(best, q - p);
        }
        for (std::size_t q = p + 1; q < p + best; ++q)
            ops[q].fusedInput = chained(q - 1, q);
        return best;
    }

    double featureBytes(const Shape &s) const
    {
        return nvdla ? nvdla::featureBytes(s, bytes, acc.nvdla.atomNvdla, acc.nvdla.atomAxi) : double(s.elements());
    }

    // Per-channel parameters (bias, scale and shift) fetched as a linear stream.
    double parameterBytes(double count) const
    {
        if (count <= 0)
            return 0;
        return nvdla ? roundUp(count * bytes, acc.nvdla.atomAxi) : count;
    }

    struct Tile
    {
        int index = 0;
        int count = 1;
        std::int64_t inRows = 0;  // rows of the head's input in this tile
        std::int64_t outRows = 0; // rows of the head's output in this tile
        std::int64_t headOutH = 0;
        bool weightsResident = false; // mode 4 after the first tile: weights stay in the CBUF
    };

    void fillStage(Stage &st, const Op &op, bool first, bool last, const Tile &tile, ConvMode mode)
    {
        const Layer &layer = net.layers[std::size_t(op.layer)];
        const Mapping &map = acc.mapping[std::size_t(op.type)];
        st.layer = op.layer;
        st.type = op.type;
        st.biasOfLayer = op.bias;
        st.tile = tile.index;
        st.tileCount = tile.count;
        st.unit = map.unit;
        st.memory = map.memory;
        st.mode = mode;
        st.in = op.bias ? layer.output : net.inputShape(layer.inputs[0]);
        st.out = layer.output;
        if (tile.count > 1) {
            if (first) {
                st.in.h = tile.inRows;
                st.out.h = tile.outRows;
            } else {
                auto scale = [&](std::int64_t h) {
                    return h == tile.headOutH ? tile.outRows
                                              : std::max<std::int64_t>(1, (h * tile.outRows + tile.headOutH - 1)
                                                                              / tile.headOutH);
                };
                st.in.h = scale(st.in.h);
                st.out.h = scale(st.out.h);
            }
        }

        // k = (k_w, k_h, k_c, k_n) as in the layer description; groups and heads are folded in below.
        std::int64_t groups = 1;
        switch (op.type) {
        case LayerType::Convolution:
            st.kw = layer.kernelW;
            st.kh = layer.kernelH;
            st.kc = st.in.c / layer.groups;
            st.kn = layer.outChannels;
            groups = layer.groups;
            break;
        case LayerType::FullyConnected:
            st.kw = st.in.w;
            st.kh = st.in.h;
            st.kc = st.in.c;
            st.kn = layer.outChannels;
            break;
        case LayerType::MatMul:
            st.kw = st.kh = 1;
            st.kc = st.in.c / layer.heads;
            st.kn = st.out.c;
            groups = layer.heads;
            break;
        case LayerType::Pooling:
            st.kw = layer.globalPool ? st.in.w : layer.kernelW;
            st.kh = layer.globalPool ? st.in.h : layer.kernelH;
            st.kc = 1;
            st.kn = 0;
            break;
        case LayerType::Bias:
            st.kw = st.kh = st.kc = 1;
            st.kn = st.out.c;
            break;
        case LayerType::BatchNorm:
        case LayerType::LayerNorm:
            st.kw = st.kh = st.kc = 1;
            st.kn = 2 * st.out.c;
            break;
        default:
            st.kw = st.kh = st.kc = 1;
            st.kn = 0;
            break;
        }
        const double generalOps = double(st.out.elements()) * double(st.kw * st.kh * st.kc);
        const double generalWeights = double(st.kw * st.kh * st.kc) * double(st.kn);

        // Inputs read from memory: all but the one fused from the previous stage;
        // matmul's second operand is fetched as its weights.
        st.dIfmap = 0;
        const std::size_t dataInputs = op.bias ? 1 : (op.type == LayerType::MatMul ? 1 : layer.inputs.size());
        for (std::size_t k = 0; k < dataInputs; ++k) {
            if (!first && int(k) == op.fusedInput)
                continue;
            const Shape s = (k == 0) ? st.in : net.inputShape(layer.inputs[k]);
            st.dIfmap += featureBytes(s);
        }
        st.dOfmap = last ? featureBytes(st.out) : 0;

        if (onMacArray(op)) {
            // seed 000, section 3.3: dark operations from mapping fragmentation,
            // weights padded to whole CBUF entries.
            const NvdlaParams &p = acc.nvdla;
            const bool dense = op.type == LayerType::Convolution && p.groupedAsDense;
            const std::int64_t g = dense ? 1 : groups;
            const std::int64_t depth = dense ? st.in.c : st.kc;
            st.kc = depth;
            st.ops = double(g) * ceilDiv(double(depth), p.tC) * ceilDiv(double(st.kn / g), double(tK)) * double(tK)
                * p.tC * double(st.out.w * st.out.h * st.kw * st.kh);
            const double weightBytes = double(bytes) * double(st.kw * st.kh * depth) * double(st.kn);
            st.dWeight = tile.weightsResident ? 0 : roundUp(weightBytes, p.cbufEntryBytes);
            if (op.type == LayerType::MatMul)
                st.dWeight = roundUp(double(bytes) * double(net.inputShape(layer.inputs[1]).elements()),
                                     p.cbufEntryBytes);
        } else if (nvdla && map.unit >= 0 && (op.type == LayerType::Bias || op.type == LayerType::BatchNorm
                             || op.type == LayerType::Activation || op.type == LayerType::EltwiseAdd)) {
            // SDP: a fixed number of (channel-padded) elements per cycle.
            const double throughput = acc.units[std::size_t(map.unit)].opsPerCycle;
            const double padded = nvdla::paddedPixelBytes(st.out.c, bytes, acc.nvdla.atomNvdla) / bytes;
            st.ops = ceilDiv(double(st.out.w * st.out.h) * padded, throughput) * throughput;
            st.dWeight = parameterBytes(generalWeights);
        } else {
            st.ops = generalOps;
            st.dWeight = op.type == LayerType::MatMul ? featureBytes(net.inputShape(layer.inputs[1]))
                                                      : parameterBytes(generalWeights);
        }
        if (map.unit < 0) {
            st.peak = 0;
            st.computeNs = st.memoryNs = 0;
            return;
        }
        st.peak = unitPeak(map.unit);
        st.computeNs = st.peak > 0 ? st.ops / st.peak : 0;
        st.memoryNs = st.dTotal() / acc.memories[std::size_t(map.memory)].bandwidthGBps;
    }

    bool emitPipe(std::size_t p, std::size_t len)
    {
        const Op &head = ops[p];
        const Layer &headLayer = net.layers[std::size_t(head.layer)];
        ConvMode mode = ConvMode::None;
        nvdla::ModeChoice choice;
        Tile tile;
        const bool convHead = onMacArray(head) && head.type != LayerType::MatMul;
        if (convHead) {
            const Shape in = net.inputShape(headLayer.inputs[0]);
            const bool fc = head.type == LayerType::FullyConnected;
            const bool dense = !fc && acc.nvdla.groupedAsDense;
            const std::int64_t kh = fc ? in.h : headLayer.kernelH;
            const std::int64_t kw = fc ? in.w : headLayer.kernelW;
            const std::int64_t kc = fc || dense ? in.c : in.c / headLayer.groups;
            choice = nvdla::chooseMode(in, kh, kw, kc, headLayer.outChannels, fc ? 1 : headLayer.strideH, bytes, tK,
                                       acc.nvdla);
            mode = choice.mode;
            if (mode == ConvMode::None && acc.nvdla.tiling) {
                fail(Status::Infeasible, "layer \"" + headLayer.name + "\" does not fit the convolution buffer in any mode ("
                         + std::to_string(choice.dataBanks) + " banks of input per tile row set, "
                         + std::to_string(choice.weightBanksMin) + " banks for one kernel group, "
                         + formatNumber(acc.nvdla.cbufBanks) + " banks)");
                return false;
            }
            if (acc.nvdla.tiling && mode >= ConvMode::TiledFull) {
                const std::int64_t outH = headLayer.output.h;
                tile.count = int((outH + choice.tileOutputRows - 1) / choice.tileOutputRows);
                tile.headOutH = outH;
            }
        }
        const int stride = convHead && head.type == LayerType::Convolution ? headLayer.strideH : 1;
        const int pad = convHead && head.type == LayerType::Convolution ? headLayer.padH : 0;
        const std::int64_t inH = net.inputShape(headLayer.inputs[0]).h;
        for (int t = 0; t < tile.count; ++t) {
            tile.index = t;
            if (tile.count > 1) {
                const std::int64_t o0 = std::int64_t(t) * choice.tileOutputRows;
                const std::int64_t o1 = std::min(o0 + choice.tileOutputRows, tile.headOutH);
                const std::int64_t start = o0 * stride - pad;
                tile.outRows = o1 - o0;
                tile.inRows = std::min(start + choice.tileRows, inH) - std::max<std::int64_t>(start, 0);
                tile.weightsResident = mode == ConvMode::TiledFull && t > 0;
            }
            const int pipeIndex = int(out.pipes.size());
            Pipe pipe;
            pipe.firstStage = int(out.stages.size());
            pipe.stageCount = int(len);
            for (std::size_t k = 0; k < len; ++k) {
                out.stages.emplace_back();
                Stage &st = out.stages.back();
                fillStage(st, ops[p + k], k == 0, k + 1 == len, tile, k == 0 ? mode : ConvMode::None);
                st.pipe = pipeIndex;
            }
            timePipe(pipe, convHead);
            out.pipes.push_back(pipe);
            out.layerNs[std::size_t(head.layer)] += pipe.timeNs;
            if (!pipe.onHost)
                out.unitNs[std::size_t(out.stages[std::size_t(pipe.dominant)].unit)] += pipe.timeNs;
            out.totalNs += pipe.timeNs;
        }
        return true;
    }

    void timePipe(Pipe &pipe, bool convHead)
    {
        const Stage *stages = out.stages.data() + pipe.firstStage;
        const Stage &head = stages[0];
        if (head.unit < 0) {
            pipe.onHost = true;
            pipe.dominant = pipe.firstStage;
            pipe.bytes = head.dTotal();
            return;
        }
        std::fill(memoryBytes.begin(), memoryBytes.end(), 0.0);
        pipe.dominant = pipe.firstStage;
        for (int k = 0; k < pipe.stageCount; ++k) {
            const Stage &st = stages[k];
            if (st.computeNs > pipe.computeNs) {
                pipe.computeNs = st.computeNs;
                pipe.dominant = pipe.firstStage + k;
            }
            pipe.bytes += st.dTotal();
            memoryBytes[std::size_t(st.memory)] += st.dTotal();
        }
        // Every stage of a pipe sees the pipe's total traffic (op_intensity(l_dom)
        // divides by Σ d_total): stages share the bus.
        auto memoryTime = [&]() {
            double t = 0;
            for (std::size_t m = 0; m < memoryBytes.size(); ++m)
                t = std::max(t, memoryBytes[m] / acc.memories[m].bandwidthGBps);
            return t;
        };
        if (options.refine && convHead) {
            // seed 000, section 3.6: warm-up phase (whole ifmap and one kernel group) then the roofline.
            const double group = std::min<double>(double(tK), double(head.kn));
            double kgroup = roundUp(double(bytes) * group * double(head.kh * head.kw * head.kc), acc.nvdla.atomAxi);
            kgroup = std::min(kgroup, head.dWeight);
            double p1 = kgroup > head.dIfmap ? kgroup + head.dIfmap : head.dIfmap + std::min(head.dIfmap, head.dWeight);
            const std::size_t m = std::size_t(head.memory);
            p1 = std::min(p1, memoryBytes[m]);
            const double bandwidth = acc.memories[m].bandwidthGBps;
            pipe.warmupNs = p1 / bandwidth;
            memoryBytes[m] -= p1;
            pipe.memoryNs = memoryTime();
            pipe.sequential = isSequential(head.mode);
            const double rest = pipe.sequential ? pipe.memoryNs + pipe.computeNs
                                                : std::max(pipe.computeNs, pipe.memoryNs);
            pipe.timeNs = pipe.warmupNs + rest;
            pipe.bound = pipe.computeNs >= pipe.warmupNs + pipe.memoryNs ? Bound::Compute : Bound::Memory;
            return;
        }
        pipe.memoryNs = memoryTime();
        pipe.timeNs = std::max(pipe.computeNs, pipe.memoryNs);
        pipe.bound = pipe.computeNs >= pipe.memoryNs ? Bound::Compute : Bound::Memory;
    }
};

} // namespace

double Stage::scaleOps() const
{
    const double general = double(out.elements()) * double(kw * kh * kc);
    return general > 0 ? ops / general : 0;
}

double Stage::scaleIfmap() const
{
    return in.elements() > 0 ? dIfmap / double(in.elements()) : 0;
}

double Stage::scaleWeight() const
{
    const double general = double(kw * kh * kc) * double(kn);
    return general > 0 ? dWeight / general : 0;
}

double Stage::scaleOfmap() const
{
    return out.elements() > 0 ? dOfmap / double(out.elements()) : 0;
}

double Result::pipeIntensity(const Pipe &pipe) const
{
    return pipe.bytes > 0 ? stages[std::size_t(pipe.dominant)].ops / pipe.bytes : 0;
}

double Result::pipePerformance(const Pipe &pipe) const
{
    return pipe.timeNs > 0 ? stages[std::size_t(pipe.dominant)].ops / pipe.timeNs : 0;
}

Options withOfferedDataType(const Network &network, const Accelerator &accelerator, Options options, bool *fellBack)
{
    const bool replace = options.dataType.empty() && !network.dataType.empty()
        && !accelerator.dataType(network.dataType) && accelerator.dataType(accelerator.defaultDataType);
    if (replace)
        options.dataType = accelerator.defaultDataType;
    if (fellBack)
        *fellBack = replace;
    return options;
}

void evaluate(const Network &network, const Accelerator &accelerator, const Options &options, Result &out)
{
    out.status = Status::Ok;
    out.error.clear();
    out.stages.clear();
    out.pipes.clear();
    out.layerNs.assign(network.layers.size(), 0.0);
    out.unitNs.assign(accelerator.units.size(), 0.0);
    out.totalNs = 0;
    out.fps = 0;

    thread_local Scratch scratch;
    Context ctx(network, accelerator, options, out, scratch);
    const std::string &typeName = !options.dataType.empty() ? options.dataType
        : !network.dataType.empty()                          ? network.dataType
                                                             : accelerator.defaultDataType;
    out.dataType = typeName;
    const DataType *dataType = accelerator.dataType(typeName);
    if (!dataType) {
        ctx.fail(Status::Invalid, "the accelerator has no data type \"" + typeName + "\"");
        return;
    }
    ctx.nvdla = accelerator.scaling == ScalingModel::Nvdla;
    ctx.bytes = ctx.nvdla ? dataType->bytes : 1;
    ctx.tK = dataType->tK;
    out.bytesPerElement = ctx.bytes;
    if (ctx.nvdla && ctx.tK <= 0) {
        ctx.fail(Status::Invalid, "data type \"" + typeName + "\" has no t_k for the nvdla model");
        return;
    }
    ctx.memoryBytes.assign(accelerator.memories.size(), 0.0);
    ctx.consumers.assign(network.layers.size(), 0);
    for (const Layer &layer : network.layers) {
        for (int producer : layer.inputs) {
            if (producer >= 0)
                ++ctx.consumers[std::size_t(producer)];
        }
    }
    ctx.ops.reserve(network.layers.size() * 2);
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        const Layer &layer = network.layers[i];
        if (isFree(layer.type))
            continue;
        if (!accelerator.mapping[std::size_t(layer.type)].mapped) {
            ctx.fail(Status::Invalid, "layer \"" + layer.name + "\": the accelerator does not map "
                                          + layerTypeName(layer.type) + " layers");
            return;
        }
        ctx.ops.push_back({int(i), layer.type, false, -1});
        const bool hasBiasStage = (layer.type == LayerType::Convolution || layer.type == LayerType::FullyConnected)
            && layer.hasBias;
        if (hasBiasStage) {
            if (!accelerator.mapping[std::size_t(LayerType::Bias)].mapped) {
                ctx.fail(Status::Invalid, "layer \"" + layer.name + "\" has a bias; the accelerator does not map bias layers");
                return;
            }
            ctx.ops.push_back({int(i), LayerType::Bias, true, -1});
        }
    }
    for (std::size_t p = 0; p < ctx.ops.size();) {
        const std::size_t len = ctx.matchLength(p);
        if (!ctx.emitPipe(p, len))
            return;
        p += len;
    }
    out.fps = out.totalNs > 0 ? 1e9 / out.totalNs : 0;
}

Result evaluate(const Network &network, const Accelerator &accelerator, const Options &options)
{
    Result r;
    evaluate(network, accelerator, options, r);
    return r;
}

std::string stageName(const Network &network, const Stage &stage)
{
    std::string name = network.layers[std::size_t(stage.layer)].name;
    if (stage.biasOfLayer)
        name += ".bias";
    if (stage.tileCount > 1)
        name += "[" + std::to_string(stage.tile + 1) + "/" + std::to_string(stage.tileCount) + "]";
    return name;
}

const char *boundName(Bound bound)
{
    return bound == Bound::Compute ? "compute" : "memory";
}

const char *statusName(Status status)
{
    switch (status) {
    case Status::Ok: return "ok";
    case Status::Infeasible: return "infeasible";
    case Status::Invalid: return "invalid";
    }
    return "invalid";
}

namespace nvdla {

double paddedPixelBytes(std::int64_t c, int bytes, double atom)
{
    return std::ceil(double(c) * bytes / atom) * atom;
}

double featureBytes(const Shape &shape, int bytes, double atom, double atomAxi)
{
    const double pixel = paddedPixelBytes(shape.c, bytes, atom);
    // Dark bandwidth needs a bus beat wider than an atom (the seed's formulas
    // are written for atom_AXI = 2 atom_NVDLA).
    const bool dark = atomAxi > atom;
    if (shape.w == 1 && shape.h == 1) {
        // Compact mode: read channel-wise; only an odd number of atoms wastes one.
        const auto atoms = std::int64_t(std::ceil(double(shape.c) * bytes / atom));
        return pixel + (dark ? atom * double(atoms % 2) : 0.0);
    }
    // Row-wise reads: an odd row wastes half a bus beat (d_darkBW).
    return pixel * double(shape.w * shape.h) + (dark ? double(shape.w % 2) * double(shape.h) * pixel : 0.0);
}

std::int64_t entriesPerRow(const Shape &in, int bytes, const NvdlaParams &p)
{
    const auto atoms = std::int64_t(std::ceil(double(in.c) * bytes / p.atomNvdla));
    const auto perEntry = std::max<std::int64_t>(1, std::int64_t(p.cbufEntryBytes / p.atomNvdla));
    const std::int64_t full = atoms / perEntry;
    const std::int64_t rest = atoms % perEntry;
    std::int64_t entries = full * in.w;
    if (rest == 3)
        entries += in.w;
    else if (rest > 0)
        entries += (rest * in.w + perEntry - 1) / perEntry;
    return entries;
}

ModeChoice chooseMode(const Shape &in, std::int64_t kh, std::int64_t kw, std::int64_t kc, std::int64_t kn,
                      std::int64_t strideH, int bytes, int kernelGroup, const NvdlaParams &p)
{
    ModeChoice c;
    const double perBank = p.entriesPerBank();
    const auto banks = std::int64_t(p.cbufBanks);
    const std::int64_t eps = entriesPerRow(in, bytes, p);
    auto weightBanks = [&](std::int64_t kernels) {
        const double entries = std::ceil(double(kernels) * double(kc * kw * kh) * bytes / p.cbufEntryBytes);
        return std::int64_t(std::ceil(entries / perBank));
    };
    c.dataBanks = std::int64_t(std::ceil(double(eps) * double(in.h) / perBank));
    c.weightBanksTotal = weightBanks(kn);
    c.weightBanksMin = weightBanks(std::min<std::int64_t>(kn, kernelGroup));
    if (c.weightBanksTotal + c.dataBanks <= banks)
        c.mode = ConvMode::FullFull;
    else if (2 * c.weightBanksMin + c.dataBanks <= banks)
        c.mode = ConvMode::FullPingPong;
    else if (c.weightBanksMin + c.dataBanks <= banks)
        c.mode = ConvMode::FullOneGroup;
    if (c.mode != ConvMode::None)
        return c;
    const std::pair<ConvMode, std::int64_t> tiled[] = {{ConvMode::TiledFull, c.weightBanksTotal},
                                                       {ConvMode::TiledPingPong, 2 * c.weightBanksMin},
                                                       {ConvMode::TiledOneGroup, c.weightBanksMin}};
    for (const auto &[mode, weight] : tiled) {
        const std::int64_t spare = banks - weight;
        if (spare <= 0 || eps <= 0)
            continue;
        const auto rows = std::int64_t(std::floor(double(spare) * perBank / double(eps)));
        if (rows >= kh) {
            c.mode = mode;
            c.tileRows = rows;
            c.tileOutputRows = (rows - kh) / strideH + 1;
            return c;
        }
    }
    return c;
}

} // namespace nvdla

} // namespace roofline::amaix
