// AMAIX accelerator files ("roofline-studio/amaix-accelerator"): reading,
// checking, writing, and the parameters a --set override or a sweep can name.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace roofline::amaix {

using nlohmann::json;

namespace {

const Range kRate = Range::positive(Limits::maxRate);

} // namespace

// --- Accelerators ---------------------------------------------------------------

const DataType *Accelerator::dataType(const std::string &typeName) const
{
    for (const DataType &t : dataTypes) {
        if (t.name == typeName)
            return &t;
    }
    return nullptr;
}

int Accelerator::unitIndex(const std::string &unitName) const
{
    for (std::size_t i = 0; i < units.size(); ++i) {
        if (units[i].name == unitName)
            return int(i);
    }
    return -1;
}

int Accelerator::memoryIndex(const std::string &memoryName) const
{
    for (std::size_t i = 0; i < memories.size(); ++i) {
        if (memories[i].name == memoryName)
            return int(i);
    }
    return -1;
}

namespace {

struct NvdlaField
{
    const char *key;
    double NvdlaParams::*member;
    Range range;
    Parameter::Kind kind;
};

const NvdlaField kNvdlaFields[] = {
    {"t_c", &NvdlaParams::tC, Range::closed(1, 1e6), Parameter::Kind::TC},
    {"atom_nvdla_bytes", &NvdlaParams::atomNvdla, Range::closed(1, 1e6), Parameter::Kind::AtomNvdla},
    {"atom_axi_bytes", &NvdlaParams::atomAxi, Range::closed(1, 1e6), Parameter::Kind::AtomAxi},
    {"cbuf_entry_bytes", &NvdlaParams::cbufEntryBytes, Range::closed(1, 1e6), Parameter::Kind::CbufEntry},
    {"cbuf_banks", &NvdlaParams::cbufBanks, Range::closed(1, 1e6), Parameter::Kind::CbufBanks},
    {"cbuf_bytes", &NvdlaParams::cbufBytes, Range::closed(1, Limits::maxBytes), Parameter::Kind::CbufBytes},
};

void checkRange(double value, const Range &range, const std::string &where, Diagnostics &diagnostics,
                bool integer = false)
{
    if (!range.contains(value))
        diagnostics.error(where, "must be " + range.describe() + ", got " + formatNumber(value));
    else if (integer && !isWholeNumber(value))
        diagnostics.error(where, "must be a whole number, got " + formatNumber(value));
}

std::string unitPointer(const std::string &name) { return "/units/" + jsonPointerToken(name); }
std::string memoryPointer(const std::string &name) { return "/memories/" + jsonPointerToken(name); }
std::string dataTypePointer(const std::string &name) { return "/data_types/" + jsonPointerToken(name); }

} // namespace

void validate(const Accelerator &acc, Diagnostics &diags)
{
    const bool nvdla = acc.scaling == ScalingModel::Nvdla;
    checkRange(acc.clockGHz, kRate, "/clock_ghz", diags);
    if (acc.units.empty())
        diags.error("/units", "must list at least one unit");
    if (acc.memories.empty())
        diags.error("/memories", "must list at least one memory");
    for (const Unit &u : acc.units) {
        const std::string p = unitPointer(u.name);
        if (nvdla && u.macArray)
            continue; // T_k·T_c
        checkRange(u.opsPerCycle, kRate, p + "/ops_per_cycle", diags);
    }
    for (const Memory &m : acc.memories)
        checkRange(m.bandwidthGBps, kRate, memoryPointer(m.name) + "/bandwidth_gbps", diags);
    if (acc.dataTypes.empty())
        diags.error("/data_types", "must list at least one data type");
    for (const DataType &t : acc.dataTypes) {
        checkRange(t.bytes, Range::closed(1, 16), dataTypePointer(t.name) + "/bytes", diags, true);
        if (nvdla)
            checkRange(t.tK, Range::closed(1, 1e6), dataTypePointer(t.name) + "/t_k", diags, true);
    }
    if (!acc.dataType(acc.defaultDataType))
        diags.error("/default_data_type", "no data type named \"" + acc.defaultDataType + "\" in /data_types");
    if (nvdla) {
        for (const NvdlaField &f : kNvdlaFields)
            checkRange(acc.nvdla.*f.member, f.range, std::string("/scaling/") + f.key, diags, true);
        if (acc.nvdla.cbufEntryBytes < acc.nvdla.atomNvdla)
            diags.error("/scaling/cbuf_entry_bytes", "must be at least atom_nvdla_bytes");
        if (acc.nvdla.entriesPerBank() < 1)
            diags.error("/scaling/cbuf_bytes", "must hold at least one entry per bank");
    }
}

namespace {

void readAcceleratorBody(JsonObjectReader &top, Accelerator &acc, Diagnostics &diags)
{
    auto sourced = [&](const std::string &pointer, const std::string &source) {
        if (!source.empty())
            acc.sources[pointer] = source;
    };
    std::string source;
    if (auto v = top.number("clock_ghz", kRate, &source))
        acc.clockGHz = *v;
    sourced("/clock_ghz", source);

    // scaling first: which unit fields are required depends on it.
    if (const json *scaling = top.member("scaling", true)) {
        JsonObjectReader s(*scaling, "/scaling", diags);
        if (auto model = s.string("model")) {
            if (*model == "nvdla")
                acc.scaling = ScalingModel::Nvdla;
            else if (*model != "general")
                diags.error("/scaling/model", "expected \"general\" or \"nvdla\", got \"" + *model + "\"");
        }
        if (acc.scaling == ScalingModel::Nvdla) {
            for (const NvdlaField &f : kNvdlaFields) {
                source.clear();
                if (auto v = s.number(f.key, f.range, &source))
                    acc.nvdla.*f.member = *v;
                sourced(std::string("/scaling/") + f.key, source);
            }
            acc.nvdla.tiling = s.optionalBool("tiling").value_or(true);
            acc.nvdla.groupedAsDense = s.optionalBool("grouped_as_dense").value_or(true);
        }
        s.finish();
    }
    const bool nvdla = acc.scaling == ScalingModel::Nvdla;

    auto objectOf = [&](const char *key) -> const json * {
        const json *v = top.member(key, true);
        if (v && !v->is_object()) {
            diags.error(std::string("/") + key, "expected an object keyed by name, got " + jsonTypeName(*v));
            return nullptr;
        }
        return v;
    };
    if (const json *types = objectOf("data_types")) {
        for (const auto &item : types->items()) {
            const std::string p = dataTypePointer(item.key());
            JsonObjectReader r(item.value(), p, diags);
            DataType t;
            t.name = item.key();
            source.clear();
            t.bytes = int(r.integer("bytes", Range::closed(1, 16), &source).value_or(1));
            sourced(p + "/bytes", source);
            source.clear();
            t.tK = int((nvdla ? r.integer("t_k", Range::closed(1, 1e6), &source) : r.optionalInteger("t_k", Range::closed(1, 1e6), &source)).value_or(0));
            sourced(p + "/t_k", source);
            r.finish();
            acc.dataTypes.push_back(std::move(t));
        }
    }
    acc.defaultDataType = top.string("default_data_type").value_or("");
    if (const json *units = objectOf("units")) {
        for (const auto &item : units->items()) {
            const std::string p = unitPointer(item.key());
            JsonObjectReader r(item.value(), p, diags);
            Unit u;
            u.name = item.key();
            u.macArray = r.optionalBool("mac_array").value_or(false);
            source.clear();
            if (nvdla && u.macArray) {
                if (r.has("ops_per_cycle")) {
                    r.member("ops_per_cycle", false);
                    diags.error(p + "/ops_per_cycle",
                                "the MAC array's peak is t_k x t_c under the nvdla model; remove this field");
                }
            } else if (auto v = r.number("ops_per_cycle", kRate, &source)) {
                u.opsPerCycle = *v;
            }
            sourced(p + "/ops_per_cycle", source);
            r.finish();
            acc.units.push_back(std::move(u));
        }
    }
    if (const json *memories = objectOf("memories")) {
        for (const auto &item : memories->items()) {
            const std::string p = memoryPointer(item.key());
            JsonObjectReader r(item.value(), p, diags);
            Memory m;
            m.name = item.key();
            source.clear();
            if (auto v = r.number("bandwidth_gbps", kRate, &source))
                m.bandwidthGBps = *v;
            sourced(p + "/bandwidth_gbps", source);
            r.finish();
            acc.memories.push_back(std::move(m));
        }
    }
    if (const json *mapping = objectOf("mapping")) {
        for (const auto &item : mapping->items()) {
            const std::string p = "/mapping/" + jsonPointerToken(item.key());
            const std::optional<LayerType> type = layerTypeFromName(item.key());
            if (!type) {
                diags.error(p, "unknown layer type \"" + item.key() + "\"");
                continue;
            }
            if (isFree(*type)) {
                diags.error(p, std::string(layerTypeName(*type)) + " layers are never executed; remove this entry");
                continue;
            }
            Mapping &m = acc.mapping[std::size_t(*type)];
            m.mapped = true;
            if (item.value().is_string() && item.value().get<std::string>() == "host")
                continue;
            JsonObjectReader r(item.value(), p, diags);
            if (auto unit = r.string("unit")) {
                m.unit = acc.unitIndex(*unit);
                if (m.unit < 0)
                    diags.error(p + "/unit", "no unit named \"" + *unit + "\" in /units");
            }
            if (auto memory = r.string("memory")) {
                m.memory = acc.memoryIndex(*memory);
                if (m.memory < 0)
                    diags.error(p + "/memory", "no memory named \"" + *memory + "\" in /memories");
            }
            r.finish();
        }
    }
    if (const json *pipelines = top.member("pipelines", false)) {
        if (!pipelines->is_array()) {
            diags.error("/pipelines", "expected an array of layer-type sequences, got " + jsonTypeName(*pipelines));
        } else {
            for (std::size_t i = 0; i < pipelines->size(); ++i) {
                const json &seq = (*pipelines)[i];
                const std::string p = "/pipelines/" + std::to_string(i);
                if (!seq.is_array() || seq.size() < 2) {
                    diags.error(p, "expected an array of at least two steps");
                    continue;
                }
                PipelinePattern pattern;
                for (std::size_t k = 0; k < seq.size(); ++k) {
                    const std::string sp = p + "/" + std::to_string(k);
                    if (!seq[k].is_string()) {
                        diags.error(sp, "expected layer types separated by '|', got " + jsonTypeName(seq[k]));
                        continue;
                    }
                    TypeSet set = 0;
                    std::stringstream parts(seq[k].get<std::string>());
                    for (std::string part; std::getline(parts, part, '|');) {
                        if (auto t = layerTypeFromName(part))
                            set |= typeBit(*t);
                        else
                            diags.error(sp, "unknown layer type \"" + part + "\"");
                    }
                    pattern.steps.push_back(set);
                }
                acc.pipelines.push_back(std::move(pattern));
            }
        }
    }
}

} // namespace

AcceleratorLoad parseAccelerator(const std::string &text, const std::string &fileLabel)
{
    AcceleratorLoad out;
    Diagnostics &diags = out.diagnostics;
    JsonModelFile file(text, fileLabel, kAcceleratorFormatId, kFormatVersion, diags);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Accelerator acc;
    acc.name = top.string("name").value_or("");
    acc.description = top.optionalString("description").value_or("");
    readAcceleratorBody(top, acc, diags);
    top.finish();
    if (diags.hasErrors())
        return out;
    validate(acc, diags);
    if (!diags.hasErrors())
        out.accelerator = std::move(acc);
    return out;
}

AcceleratorLoad loadAcceleratorFile(const std::string &path)
{
    AcceleratorLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseAccelerator(text, path);
}

// --- Writing accelerators ------------------------------------------------------

namespace {

// A number as the reader takes it: plain, or {"value", "source"} when its pointer has a source.
json sourcedNumber(double value, const Accelerator &acc, const std::string &pointer)
{
    const auto it = acc.sources.find(pointer);
    if (it == acc.sources.end())
        return value;
    return json{{"value", value}, {"source", it->second}};
}

std::string typeSetName(TypeSet set)
{
    std::string out;
    for (int t = 0; t < kLayerTypeCount; ++t) {
        if (set & typeBit(LayerType(t)))
            out += (out.empty() ? "" : "|") + std::string(layerTypeName(LayerType(t)));
    }
    return out;
}

} // namespace

json toJson(const Accelerator &acc)
{
    const bool nvdla = acc.scaling == ScalingModel::Nvdla;
    json root = json::object();
    root["format"] = kAcceleratorFormatId;
    root["version"] = kFormatVersion;
    root["name"] = acc.name;
    if (!acc.description.empty())
        root["description"] = acc.description;
    root["clock_ghz"] = sourcedNumber(acc.clockGHz, acc, "/clock_ghz");
    root["default_data_type"] = acc.defaultDataType;
    json types = json::object();
    for (const DataType &t : acc.dataTypes) {
        const std::string p = dataTypePointer(t.name);
        json j = {{"bytes", sourcedNumber(t.bytes, acc, p + "/bytes")}};
        if (nvdla || t.tK > 0)
            j["t_k"] = sourcedNumber(t.tK, acc, p + "/t_k");
        types[t.name] = std::move(j);
    }
    root["data_types"] = std::move(types);
    json units = json::object();
    for (const Unit &u : acc.units) {
        json j = json::object();
        if (u.macArray)
            j["mac_array"] = true;
        if (!(nvdla && u.macArray)) // under nvdla the MAC array's peak is T_k·T_c
            j["ops_per_cycle"] = sourcedNumber(u.opsPerCycle, acc, unitPointer(u.name) + "/ops_per_cycle");
        units[u.name] = std::move(j);
    }
    root["units"] = std::move(units);
    json memories = json::object();
    for (const Memory &m : acc.memories)
        memories[m.name] = {{"bandwidth_gbps", sourcedNumber(m.bandwidthGBps, acc, memoryPointer(m.name) + "/bandwidth_gbps")}};
    root["memories"] = std::move(memories);
    json mapping = json::object();
    for (int t = 0; t < kLayerTypeCount; ++t) {
        const Mapping &m = acc.mapping[std::size_t(t)];
        if (!m.mapped)
            continue;
        const char *type = layerTypeName(LayerType(t));
        if (m.onHost()) {
            mapping[type] = "host";
            continue;
        }
        json j = json::object();
        if (m.unit >= 0 && std::size_t(m.unit) < acc.units.size())
            j["unit"] = acc.units[std::size_t(m.unit)].name;
        if (m.memory >= 0 && std::size_t(m.memory) < acc.memories.size())
            j["memory"] = acc.memories[std::size_t(m.memory)].name;
        mapping[type] = std::move(j);
    }
    root["mapping"] = std::move(mapping);
    if (!acc.pipelines.empty()) {
        json pipelines = json::array();
        for (const PipelinePattern &pattern : acc.pipelines) {
            json steps = json::array();
            for (TypeSet step : pattern.steps)
                steps.push_back(typeSetName(step));
            pipelines.push_back(std::move(steps));
        }
        root["pipelines"] = std::move(pipelines);
    }
    json scaling = {{"model", nvdla ? "nvdla" : "general"}};
    if (nvdla) {
        for (const NvdlaField &f : kNvdlaFields)
            scaling[f.key] = sourcedNumber(acc.nvdla.*f.member, acc, std::string("/scaling/") + f.key);
        scaling["tiling"] = acc.nvdla.tiling;
        scaling["grouped_as_dense"] = acc.nvdla.groupedAsDense;
    }
    root["scaling"] = std::move(scaling);
    return root;
}

std::string serialize(const Accelerator &accelerator)
{
    return toJson(accelerator).dump(2) + "\n";
}

// --- Parameters -----------------------------------------------------------------

double Parameter::get(const Accelerator &a) const
{
    switch (kind) {
    case Kind::Clock: return a.clockGHz;
    case Kind::UnitOps: return a.units[std::size_t(index)].opsPerCycle;
    case Kind::MemoryBandwidth: return a.memories[std::size_t(index)].bandwidthGBps;
    case Kind::DataTypeBytes: return a.dataTypes[std::size_t(index)].bytes;
    case Kind::DataTypeTk: return a.dataTypes[std::size_t(index)].tK;
    default:
        for (const NvdlaField &f : kNvdlaFields) {
            if (f.kind == kind)
                return a.nvdla.*f.member;
        }
    }
    return 0;
}

void Parameter::set(Accelerator &a, double value) const
{
    switch (kind) {
    case Kind::Clock: a.clockGHz = value; return;
    case Kind::UnitOps: a.units[std::size_t(index)].opsPerCycle = value; return;
    case Kind::MemoryBandwidth: a.memories[std::size_t(index)].bandwidthGBps = value; return;
    case Kind::DataTypeBytes: a.dataTypes[std::size_t(index)].bytes = int(std::lround(value)); return;
    case Kind::DataTypeTk: a.dataTypes[std::size_t(index)].tK = int(std::lround(value)); return;
    default:
        for (const NvdlaField &f : kNvdlaFields) {
            if (f.kind == kind)
                a.nvdla.*f.member = value;
        }
    }
}

std::optional<Parameter> resolveParameter(const Accelerator &acc, const std::string &pointer, Diagnostics &diags)
{
    std::vector<std::string> tokens;
    {
        std::string token;
        bool started = false;
        for (std::size_t i = 0; i < pointer.size(); ++i) {
            const char c = pointer[i];
            if (c == '/') {
                if (started)
                    tokens.push_back(token);
                token.clear();
                started = true;
            } else if (c == '~' && i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
                token += pointer[++i] == '0' ? '~' : '/';
            } else {
                token += c;
            }
        }
        if (started)
            tokens.push_back(token);
    }
    Parameter p;
    p.pointer = pointer;
    auto named = [&](const std::string &collection, int index, const std::string &name) {
        if (index < 0)
            diags.error(pointer, "no entry named \"" + name + "\" in /" + collection);
        return index >= 0;
    };
    if (tokens.size() == 1 && tokens[0] == "clock_ghz") {
        p.kind = Parameter::Kind::Clock;
        return p;
    }
    if (tokens.size() == 3 && tokens[0] == "units" && tokens[2] == "ops_per_cycle") {
        p.kind = Parameter::Kind::UnitOps;
        p.index = acc.unitIndex(tokens[1]);
        if (!named("units", p.index, tokens[1]))
            return std::nullopt;
        if (acc.scaling == ScalingModel::Nvdla && acc.units[std::size_t(p.index)].macArray) {
            diags.error(pointer, "the MAC array's peak is t_k x t_c under the nvdla model; set those instead");
            return std::nullopt;
        }
        return p;
    }
    if (tokens.size() == 3 && tokens[0] == "memories" && tokens[2] == "bandwidth_gbps") {
        p.kind = Parameter::Kind::MemoryBandwidth;
        p.index = acc.memoryIndex(tokens[1]);
        return named("memories", p.index, tokens[1]) ? std::optional(p) : std::nullopt;
    }
    if (tokens.size() == 3 && tokens[0] == "data_types" && (tokens[2] == "bytes" || tokens[2] == "t_k")) {
        p.kind = tokens[2] == "bytes" ? Parameter::Kind::DataTypeBytes : Parameter::Kind::DataTypeTk;
        p.index = -1;
        for (std::size_t i = 0; i < acc.dataTypes.size(); ++i) {
            if (acc.dataTypes[i].name == tokens[1])
                p.index = int(i);
        }
        return named("data_types", p.index, tokens[1]) ? std::optional(p) : std::nullopt;
    }
    if (tokens.size() == 2 && tokens[0] == "scaling" && acc.scaling == ScalingModel::Nvdla) {
        for (const NvdlaField &f : kNvdlaFields) {
            if (tokens[1] == f.key) {
                p.kind = f.kind;
                return p;
            }
        }
    }
    diags.error(pointer, "not a settable number; use /clock_ghz, /units/NAME/ops_per_cycle, "
                         "/memories/NAME/bandwidth_gbps, /data_types/NAME/bytes|t_k or (nvdla) /scaling/t_c, "
                         "atom_nvdla_bytes, atom_axi_bytes, cbuf_entry_bytes, cbuf_banks, cbuf_bytes");
    return std::nullopt;
}

bool applyOverride(Accelerator &accelerator, const std::string &assignment, Diagnostics &diagnostics)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos) {
        diagnostics.error(assignment, "expected POINTER=VALUE");
        return false;
    }
    std::string pointer = assignment.substr(0, eq);
    if (pointer.empty() || pointer[0] != '/')
        pointer.insert(pointer.begin(), '/');
    const std::string text = assignment.substr(eq + 1);
    const auto parsed = parseFiniteNumber(text);
    if (!parsed) {
        diagnostics.error(pointer, "expected a finite number, got \"" + text + "\"");
        return false;
    }
    const double value = *parsed;
    const std::optional<Parameter> parameter = resolveParameter(accelerator, pointer, diagnostics);
    if (!parameter)
        return false;
    Accelerator changed = accelerator;
    parameter->set(changed, value);
    Diagnostics check;
    validate(changed, check);
    if (check.hasErrors()) {
        for (const Diagnostic &d : check.errors())
            diagnostics.error(d.pointer, d.message);
        return false;
    }
    accelerator = std::move(changed);
    return true;
}

} // namespace roofline::amaix
