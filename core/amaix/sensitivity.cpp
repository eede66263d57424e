#include "sensitivity.h"

#include "../common/jsonreader.h"
#include "../common/shares.h"

#include <algorithm>
#include <cmath>

namespace roofline::amaix {

std::string activeDataType(const Network &network, const Accelerator &accelerator, const Options &options)
{
    if (!options.dataType.empty())
        return options.dataType;
    if (!network.dataType.empty() && accelerator.dataType(network.dataType))
        return network.dataType;
    return accelerator.defaultDataType;
}

std::vector<SettableParameter> settableParameters(const Accelerator &acc, const std::string &dataType)
{
    const bool nvdla = acc.scaling == ScalingModel::Nvdla;
    std::vector<SettableParameter> out;
    const std::string type = jsonPointerToken(dataType);
    auto add = [&](std::string pointer, std::string label, std::string unit, std::string description, bool integer) {
        Diagnostics ignored;
        if (resolveParameter(acc, pointer, ignored)) // exactly what --set accepts
            out.push_back({ std::move(pointer), std::move(label), std::move(unit), std::move(description), integer });
    };
    add("/clock_ghz", "Clock", "GHz", "Clock frequency of every unit", false);
    if (nvdla) {
        add("/data_types/" + type + "/t_k", "MAC T_k", "kernels",
            "MAC atomic-K: kernels the MAC array computes per cycle for " + dataType, true);
        add("/scaling/t_c", "MAC T_c", "channels", "MAC atomic-C: input channels per cycle; the MAC array is T_k x T_c",
            true);
    }
    for (const Unit &u : acc.units) {
        if (nvdla && u.macArray)
            continue;
        add("/units/" + jsonPointerToken(u.name) + "/ops_per_cycle", u.name, "ops/cycle",
            "Peak of unit " + u.name + " in operations per cycle (x clock = Gops/s)", false);
    }
    for (const Memory &m : acc.memories)
        add("/memories/" + jsonPointerToken(m.name) + "/bandwidth_gbps", m.name + " bandwidth", "GB/s",
            "Bandwidth of memory " + m.name, false);
    add("/data_types/" + type + "/bytes", "Elem. width", "B", "Bytes per element of " + dataType, true);
    if (nvdla) {
        add("/scaling/cbuf_bytes", "CBUF", "B", "Convolution buffer size", true);
        add("/scaling/cbuf_banks", "CBUF banks", "banks", "Banks of the convolution buffer", true);
        add("/scaling/cbuf_entry_bytes", "CBUF entry", "B", "Bytes per convolution-buffer entry", true);
        add("/scaling/atom_axi_bytes", "Bus width", "B",
            "Bytes per bus transfer (the AXI width); dark bandwidth when larger than the atom", true);
        add("/scaling/atom_nvdla_bytes", "Atom", "B", "NVDLA memory atom", true);
    }
    return out;
}

namespace {

// The smallest and largest value each kind of parameter may take (io.cpp's ranges).
std::pair<double, double> validRange(Parameter::Kind kind)
{
    using K = Parameter::Kind;
    switch (kind) {
    case K::Clock:
    case K::UnitOps:
    case K::MemoryBandwidth:
        return { 0, Limits::maxRate }; // > 0: never reached for a step < 1
    case K::DataTypeBytes:
        return { 1, 16 };
    case K::CbufBytes:
        return { 1, Limits::maxBytes };
    default:
        return { 1, 1e6 };
    }
}

} // namespace

std::vector<Sensitivity> sensitivity(const Network &network, const Accelerator &accelerator, const Options &options,
                                     double relativeStep, unsigned threads)
{
    std::vector<Sensitivity> rows;
    if (!std::isfinite(relativeStep) || relativeStep <= 0)
        return rows;
    relativeStep = std::min(relativeStep, 0.95);
    Result base;
    evaluate(network, accelerator, options, base);
    if (!base.ok())
        return rows;
    const double baseNs = base.totalNs;
    const std::string type = activeDataType(network, accelerator, options);
    std::vector<SettableParameter> infos;
    std::vector<Parameter> parameters;
    for (SettableParameter &info : settableParameters(accelerator, type)) {
        Diagnostics ignored;
        if (std::optional<Parameter> parameter = resolveParameter(accelerator, info.pointer, ignored)) {
            infos.push_back(std::move(info));
            parameters.push_back(*parameter);
        }
    }
    rows.resize(infos.size());
    // Rows [begin, end), each evaluated with the parameter moved down and up
    // on a private copy of the accelerator (evaluate() shares nothing).
    auto fill = [&](std::size_t begin, std::size_t end) {
        Accelerator moved = accelerator;
        Result result;
        for (std::size_t k = begin; k < end; ++k) {
            const SettableParameter &info = infos[k];
            const Parameter &parameter = parameters[k];
            Sensitivity &row = rows[k];
            row.pointer = info.pointer;
            row.label = info.label;
            row.value = parameter.get(accelerator);
            // Plain variables, not a structured binding: clang 14 (the fuzz preset)
            // cannot capture bindings in a lambda.
            const auto range = validRange(parameter.kind);
            const double lo = range.first, hi = range.second;
            auto at = [&](double factor, double &value, double &ns, bool &feasible) {
                value = std::clamp(row.value * factor, lo, hi);
                if (info.integer)
                    value = std::clamp(std::round(value), std::max(lo, 1.0), hi);
                ns = baseNs;
                if (value == row.value)
                    return;
                parameter.set(moved, value);
                Diagnostics check;
                validate(moved, check);
                feasible = !check.hasErrors();
                if (feasible) {
                    evaluate(network, moved, options, result);
                    feasible = result.ok();
                    if (feasible)
                        ns = result.totalNs;
                }
                parameter.set(moved, row.value);
            };
            at(1 - relativeStep, row.lowValue, row.lowNs, row.lowFeasible);
            at(1 + relativeStep, row.highValue, row.highNs, row.highFeasible);
        }
    };
    fillInShares(rows.size(), threads, fill);
    std::stable_sort(
        rows.begin(), rows.end(), [](const Sensitivity &a, const Sensitivity &b) { return a.swing() > b.swing(); });
    return rows;
}

} // namespace roofline::amaix
