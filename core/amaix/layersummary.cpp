#include "layersummary.h"

#include <algorithm>

namespace roofline::amaix {

void summarizeLayers(const Network &network, const Result &result, std::vector<LayerSummary> &out)
{
    out.clear();
    if (!result.ok())
        return;
    std::vector<int> rowOf(network.layers.size(), -1);
    std::vector<double> longestPipe(network.layers.size(), -1);
    for (std::size_t s = 0; s < result.stages.size(); ++s) {
        const Stage &st = result.stages[s];
        if (st.layer < 0 || std::size_t(st.layer) >= network.layers.size())
            continue;
        int &row = rowOf[std::size_t(st.layer)];
        if (row < 0) {
            row = int(out.size());
            LayerSummary fresh;
            fresh.layer = st.layer;
            fresh.unit = st.unit;
            fresh.memory = st.memory;
            fresh.onHost = st.unit < 0;
            out.push_back(fresh);
        }
        LayerSummary &l = out[std::size_t(row)];
        ++l.stageCount;
        if (!st.biasOfLayer) {
            l.tiles = std::max(l.tiles, st.tileCount);
            if (st.mode != ConvMode::None)
                l.mode = st.mode;
        }
        l.ops += st.ops;
        l.dIfmap += st.dIfmap;
        l.dWeight += st.dWeight;
        l.dOfmap += st.dOfmap;
        l.standaloneNs += st.rooflineNs();
        if (st.pipe >= 0 && std::size_t(st.pipe) < result.pipes.size()) {
            const Pipe &pipe = result.pipes[std::size_t(st.pipe)];
            if (pipe.firstStage == int(s) && pipe.timeNs > longestPipe[std::size_t(st.layer)]) {
                longestPipe[std::size_t(st.layer)] = pipe.timeNs;
                l.bound = pipe.bound;
            }
        }
    }
    for (LayerSummary &l : out) {
        l.timeNs = std::size_t(l.layer) < result.layerNs.size() ? result.layerNs[std::size_t(l.layer)] : 0;
        const bool headsPipe = longestPipe[std::size_t(l.layer)] >= 0;
        l.pipelined = !l.onHost && !headsPipe;
        if (!headsPipe) {
            // Alone on its roofline: which of its terms is the larger.
            double compute = 0, memory = 0;
            for (const Stage &st : result.stages) {
                if (st.layer == l.layer) {
                    compute += st.computeNs;
                    memory += st.memoryNs;
                }
            }
            l.bound = compute >= memory ? Bound::Compute : Bound::Memory;
        }
    }
}

std::vector<LayerSummary> summarizeLayers(const Network &network, const Result &result)
{
    std::vector<LayerSummary> out;
    summarizeLayers(network, result, out);
    return out;
}

SummaryTotals summarizeTotals(const std::vector<LayerSummary> &layers, const Result &result)
{
    SummaryTotals t;
    for (const LayerSummary &l : layers) {
        t.ops += l.ops;
        t.dIfmap += l.dIfmap;
        t.dWeight += l.dWeight;
        t.dOfmap += l.dOfmap;
        if (l.timeNs > 0) {
            ++t.timedLayers;
            if (l.bound == Bound::Compute) {
                ++t.computeBoundLayers;
                t.computeBoundNs += l.timeNs;
            }
        }
    }
    t.timeNs = result.totalNs;
    t.fps = result.fps;
    return t;
}

std::vector<double> unitPeaks(const Accelerator &accelerator, const Options &options, const Result &result)
{
    std::vector<double> peaks(accelerator.units.size(), 0);
    for (std::size_t u = 0; u < accelerator.units.size(); ++u) {
        const Unit &unit = accelerator.units[u];
        double perCycle = unit.opsPerCycle;
        if (accelerator.scaling == ScalingModel::Nvdla && unit.macArray) {
            std::string type = result.dataType.empty() ? options.dataType : result.dataType;
            if (type.empty())
                type = accelerator.defaultDataType;
            const DataType *dt = accelerator.dataType(type);
            perCycle = dt ? dt->tK * accelerator.nvdla.tC : 0;
        }
        peaks[u] = perCycle * accelerator.clockGHz;
    }
    for (const Stage &st : result.stages) {
        if (st.unit >= 0 && std::size_t(st.unit) < peaks.size() && st.peak > 0)
            peaks[std::size_t(st.unit)] = st.peak;
    }
    return peaks;
}

} // namespace roofline::amaix
