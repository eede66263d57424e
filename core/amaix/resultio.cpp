// AMAIX results as JSON and CSV.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

namespace roofline::amaix {

using nlohmann::json;

// --- Results ------------------------------------------------------------------------

namespace {

json shapeJson(const Shape &s)
{
    return json::array({s.c, s.h, s.w});
}

std::string unitName(const Accelerator &acc, int unit)
{
    return unit >= 0 ? acc.units[std::size_t(unit)].name : "host";
}

} // namespace

json resultToJson(const Network &network, const Accelerator &accelerator, const Result &result)
{
    json root = json::object();
    root["network"] = network.name;
    root["accelerator"] = accelerator.name;
    root["status"] = statusName(result.status);
    if (!result.ok()) {
        root["error"] = result.error;
        return root;
    }
    root["data_type"] = result.dataType;
    root["total_ns"] = result.totalNs;
    root["fps"] = result.fps;
    json units = json::array();
    for (std::size_t u = 0; u < accelerator.units.size(); ++u) {
        units.push_back({{"name", accelerator.units[u].name},
                         {"time_ns", result.unitNs[u]},
                         {"share", result.totalNs > 0 ? result.unitNs[u] / result.totalNs : 0.0}});
    }
    root["units"] = std::move(units);
    json layers = json::array();
    for (std::size_t l = 0; l < network.layers.size(); ++l)
        layers.push_back({{"name", network.layers[l].name}, {"time_ns", result.layerNs[l]}});
    root["layers"] = std::move(layers);
    json pipes = json::array();
    for (const Pipe &pipe : result.pipes) {
        json names = json::array();
        for (int k = 0; k < pipe.stageCount; ++k)
            names.push_back(stageName(network, result.stages[std::size_t(pipe.firstStage + k)]));
        json j = {{"stages", std::move(names)},
                  {"dominant", stageName(network, result.stages[std::size_t(pipe.dominant)])},
                  {"on_host", pipe.onHost},
                  {"time_ns", pipe.timeNs},
                  {"compute_ns", pipe.computeNs},
                  {"memory_ns", pipe.memoryNs},
                  {"bytes", pipe.bytes},
                  {"bound", pipe.onHost ? "host" : boundName(pipe.bound)},
                  {"intensity_ops_per_byte", result.pipeIntensity(pipe)},
                  {"performance_gops", result.pipePerformance(pipe)}};
        if (pipe.warmupNs > 0 || pipe.sequential) {
            j["warmup_ns"] = pipe.warmupNs;
            j["sequential"] = pipe.sequential;
        }
        pipes.push_back(std::move(j));
    }
    root["pipes"] = std::move(pipes);
    json stages = json::array();
    for (const Stage &s : result.stages) {
        json j = {{"name", stageName(network, s)},
                  {"layer", network.layers[std::size_t(s.layer)].name},
                  {"type", layerTypeName(s.type)},
                  {"unit", unitName(accelerator, s.unit)},
                  {"memory", s.memory >= 0 ? accelerator.memories[std::size_t(s.memory)].name : "host"},
                  {"pipe", s.pipe},
                  {"i", shapeJson(s.in)},
                  {"o", shapeJson(s.out)},
                  {"k", json::array({s.kw, s.kh, s.kc, s.kn})},
                  {"n_ops", s.ops},
                  {"d_ifmap", s.dIfmap},
                  {"d_weight", s.dWeight},
                  {"d_ofmap", s.dOfmap},
                  {"d_total", s.dTotal()},
                  {"scale_ops", s.scaleOps()},
                  {"scale_ifmap", s.scaleIfmap()},
                  {"scale_weight", s.scaleWeight()},
                  {"scale_ofmap", s.scaleOfmap()},
                  {"intensity_ops_per_byte", s.intensity()},
                  {"compute_ns", s.computeNs},
                  {"memory_ns", s.memoryNs}};
        if (s.mode != ConvMode::None)
            j["mode"] = int(s.mode);
        if (s.tileCount > 1) {
            j["tile"] = s.tile;
            j["tiles"] = s.tileCount;
        }
        stages.push_back(std::move(j));
    }
    root["stages"] = std::move(stages);
    return root;
}

std::string resultToCsv(const Network &network, const Accelerator &accelerator, const Result &result)
{
    std::ostringstream out;
    out << "stage,layer,type,unit,mode,tile,tiles,pipe,dominant,i_c,i_h,i_w,o_c,o_h,o_w,k_w,k_h,k_c,k_n,n_ops,"
           "d_ifmap,d_weight,d_ofmap,d_total,intensity,compute_ns,memory_ns,pipe_time_ns,bound\n";
    out.precision(12);
    for (std::size_t i = 0; i < result.stages.size(); ++i) {
        const Stage &s = result.stages[i];
        const Pipe &pipe = result.pipes[std::size_t(s.pipe)];
        const bool dominant = pipe.dominant == int(i);
        out << stageName(network, s) << ',' << network.layers[std::size_t(s.layer)].name << ','
            << layerTypeName(s.type) << ',' << unitName(accelerator, s.unit) << ',' << int(s.mode) << ','
            << s.tile + 1 << ',' << s.tileCount << ',' << s.pipe << ',' << (dominant ? 1 : 0) << ',' << s.in.c << ','
            << s.in.h << ',' << s.in.w << ',' << s.out.c << ',' << s.out.h << ',' << s.out.w << ',' << s.kw << ','
            << s.kh << ',' << s.kc << ',' << s.kn << ',' << s.ops << ',' << s.dIfmap << ',' << s.dWeight << ','
            << s.dOfmap << ',' << s.dTotal() << ',' << s.intensity() << ',' << s.computeNs << ',' << s.memoryNs
            << ',';
        if (dominant)
            out << pipe.timeNs << ',' << boundName(pipe.bound);
        else
            out << ',';
        out << '\n';
    }
    return out.str();
}

} // namespace roofline::amaix
