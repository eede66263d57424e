#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace roofline::gables {

using nlohmann::json;

namespace {

const Range kRate = Range::positive(Limits::maxRate);
const Range kAcceleration = Range::positive(Limits::maxAcceleration);
const Range kIntensity = Range::positive(Limits::maxIntensity);
const Range kFraction = Range::closed(0, 1);

bool isColor(const std::string &s)
{
    if (s.size() != 7 || s[0] != '#')
        return false;
    for (std::size_t i = 1; i < s.size(); ++i) {
        if (!std::isxdigit(static_cast<unsigned char>(s[i])))
            return false;
    }
    return true;
}

std::string ipPointer(std::size_t index) { return "/soc/ips/" + std::to_string(index); }
std::string workPointer(const std::string &name) { return "/use_case/work/" + jsonPointerToken(name); }

void checkName(const std::string &name, const std::string &pointer, Diagnostics &diagnostics)
{
    if (name.empty())
        diagnostics.error(pointer, "must not be empty");
    else if (name.size() > Limits::maxNameLength)
        diagnostics.error(pointer, "must be at most " + std::to_string(Limits::maxNameLength) + " bytes long (UTF-8)");
}

void checkRange(double value, const Range &range, const std::string &pointer, Diagnostics &diagnostics)
{
    if (!range.contains(value))
        diagnostics.error(pointer, "must be " + range.describe() + ", got " + formatNumber(value));
}

} // namespace

void validate(const Soc &soc, Diagnostics &diagnostics)
{
    checkRange(soc.ppeakGops, kRate, "/soc/ppeak_gops", diagnostics);
    checkRange(soc.bpeakGBps, kRate, "/soc/bpeak_gbps", diagnostics);
    if (soc.ips.empty())
        diagnostics.error("/soc/ips", "must list at least one IP");
    if (soc.ips.size() > kMaxIps)
        diagnostics.error("/soc/ips", "at most " + std::to_string(kMaxIps) + " IPs are supported, got "
                                          + std::to_string(soc.ips.size()));
    std::set<std::string> names;
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        const std::string p = ipPointer(i);
        checkName(ip.name, p + "/name", diagnostics);
        if (!names.insert(ip.name).second)
            diagnostics.error(p + "/name", "duplicate IP name \"" + ip.name + "\"");
        if (!ip.color.empty() && !isColor(ip.color))
            diagnostics.error(p + "/color", "must be a colour written #rrggbb, got \"" + ip.color + "\"");
        checkRange(ip.acceleration, kAcceleration, p + "/acceleration", diagnostics);
        checkRange(ip.bandwidthGBps, kRate, p + "/bandwidth_gbps", diagnostics);
        checkRange(ip.fraction, kFraction, workPointer(ip.name) + "/fraction", diagnostics);
        checkRange(ip.intensity, kIntensity, workPointer(ip.name) + "/intensity_ops_per_byte", diagnostics);
    }
    std::set<std::string> busNames;
    for (std::size_t j = 0; j < soc.buses.size(); ++j) {
        const std::string p = "/soc/buses/" + std::to_string(j);
        checkName(soc.buses[j].name, p + "/name", diagnostics);
        if (!busNames.insert(soc.buses[j].name).second)
            diagnostics.error(p + "/name", "duplicate bus name \"" + soc.buses[j].name + "\"");
        checkRange(soc.buses[j].bandwidthGBps, kRate, p + "/bandwidth_gbps", diagnostics);
    }
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        checkRange(ip.missRatio, kFraction, workPointer(ip.name) + "/miss_ratio", diagnostics);
        for (std::size_t k = 0; k < ip.buses.size(); ++k) {
            if (!busNames.count(ip.buses[k]))
                diagnostics.error(ipPointer(i) + "/buses/" + std::to_string(k),
                                  "no bus named \"" + ip.buses[k] + "\" in /soc/buses");
        }
    }
    if (soc.msmBandwidthGBps != 0)
        checkRange(soc.msmBandwidthGBps, kRate, "/soc/memory_side_memory/bandwidth_gbps", diagnostics);

    const double sum = fractionSum(soc.ips);
    if (!soc.ips.empty() && std::isfinite(sum) && std::abs(sum - 1) > 1e-6)
        diagnostics.error("/use_case/work", "work fractions must sum to 1, they sum to " + formatNumber(sum, 9));
}

LoadResult parseSoc(const std::string &text, const std::string &fileLabel)
{
    LoadResult out;
    Diagnostics &diags = out.diagnostics;
    JsonModelFile file(text, fileLabel, kFormatId, kFormatVersion, diags);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();

    Soc soc;
    soc.name = top.optionalString("name").value_or("");
    soc.description = top.optionalString("description").value_or("");

    // --- hardware ---
    bool ipsRead = false; // /soc/ips was a list the loader could read
    if (const json *socJson = top.member("soc", true)) {
        JsonObjectReader hw(*socJson, "/soc", diags);
        std::string source;
        if (auto v = hw.number("ppeak_gops", kRate, &source))
            soc.ppeakGops = *v;
        if (!source.empty())
            soc.sources["ppeak_gops"] = source;
        source.clear();
        if (auto v = hw.number("bpeak_gbps", kRate, &source))
            soc.bpeakGBps = *v;
        if (!source.empty())
            soc.sources["bpeak_gbps"] = source;
        if (const json *msm = hw.member("memory_side_memory", false)) {
            soc.memorySideMemory = true;
            JsonObjectReader m(*msm, "/soc/memory_side_memory", diags);
            if (auto v = m.optionalNumber("bandwidth_gbps", kRate))
                soc.msmBandwidthGBps = *v;
            m.finish();
        }
        if (const json *buses = hw.member("buses", false)) {
            if (!buses->is_array()) {
                diags.error("/soc/buses", "expected an array of buses, got " + jsonTypeName(*buses));
            } else {
                for (std::size_t j = 0; j < buses->size(); ++j) {
                    const std::string p = "/soc/buses/" + std::to_string(j);
                    JsonObjectReader b((*buses)[j], p, diags);
                    Bus bus;
                    bus.name = b.string("name").value_or("");
                    if (auto v = b.number("bandwidth_gbps", kRate, &bus.source))
                        bus.bandwidthGBps = *v;
                    b.finish();
                    soc.buses.push_back(std::move(bus));
                }
            }
        }
        if (const json *ips = hw.member("ips", true)) {
            if (!ips->is_array()) {
                diags.error("/soc/ips", "expected an array of IPs, got " + jsonTypeName(*ips));
            } else if (ips->empty()) {
                diags.error("/soc/ips", "must list at least one IP");
            } else if (ips->size() > kMaxIps) {
                diags.error("/soc/ips", "at most " + std::to_string(kMaxIps) + " IPs are supported, got "
                                            + std::to_string(ips->size()));
            } else {
                ipsRead = true;
                for (std::size_t i = 0; i < ips->size(); ++i) {
                    JsonObjectReader r((*ips)[i], ipPointer(i), diags);
                    Ip ip;
                    ip.name = r.string("name").value_or("");
                    if (r.has("name") && (*ips)[i]["name"].is_string()) {
                        checkName(ip.name, ipPointer(i) + "/name", diags);
                        if (std::any_of(soc.ips.begin(), soc.ips.end(), [&](const Ip &o) { return o.name == ip.name; }))
                            diags.error(ipPointer(i) + "/name", "duplicate IP name \"" + ip.name + "\"");
                    }
                    ip.color = r.optionalString("color").value_or("");
                    if (!ip.color.empty() && !isColor(ip.color))
                        diags.error(ipPointer(i) + "/color", "must be a colour written #rrggbb, got \"" + ip.color + "\"");
                    std::string src;
                    if (auto v = r.number("acceleration", kAcceleration, &src))
                        ip.acceleration = *v;
                    if (!src.empty())
                        ip.sources["acceleration"] = src;
                    src.clear();
                    if (auto v = r.number("bandwidth_gbps", kRate, &src))
                        ip.bandwidthGBps = *v;
                    if (!src.empty())
                        ip.sources["bandwidth_gbps"] = src;
                    if (const json *onBuses = r.member("buses", false)) {
                        if (!onBuses->is_array()) {
                            diags.error(ipPointer(i) + "/buses", "expected an array of bus names, got "
                                                                     + jsonTypeName(*onBuses));
                        } else {
                            for (std::size_t k = 0; k < onBuses->size(); ++k) {
                                if ((*onBuses)[k].is_string())
                                    ip.buses.push_back((*onBuses)[k].get<std::string>());
                                else
                                    diags.error(ipPointer(i) + "/buses/" + std::to_string(k),
                                                "expected a bus name, got " + jsonTypeName((*onBuses)[k]));
                            }
                        }
                    }
                    r.finish();
                    soc.ips.push_back(std::move(ip));
                }
            }
        }
        hw.finish();
    }

    // --- use case: f_i and I_i per IP, keyed by IP name ---
    if (const json *useCase = top.member("use_case", true)) {
        JsonObjectReader uc(*useCase, "/use_case", diags);
        soc.useCaseName = uc.optionalString("name").value_or("");
        if (auto schedule = uc.optionalString("schedule")) {
            if (*schedule == "serialized")
                soc.serialized = true;
            else if (*schedule != "concurrent")
                diags.error("/use_case/schedule", "expected \"concurrent\" or \"serialized\", got \"" + *schedule + "\"");
        }
        if (const json *work = uc.member("work", true)) {
            if (!work->is_object()) {
                diags.error("/use_case/work", "expected an object keyed by IP name, got " + jsonTypeName(*work));
            } else {
                std::set<std::string> seen;
                for (const auto &item : work->items()) {
                    const std::string p = workPointer(item.key());
                    auto it = std::find_if(soc.ips.begin(), soc.ips.end(),
                                           [&](const Ip &ip) { return ip.name == item.key(); });
                    if (it == soc.ips.end()) {
                        // When /soc/ips itself was refused (already said), no name can match.
                        if (ipsRead)
                            diags.error(p, "no IP named \"" + item.key() + "\" in /soc/ips");
                        continue;
                    }
                    seen.insert(item.key());
                    JsonObjectReader w(item.value(), p, diags);
                    std::string src;
                    if (auto v = w.number("fraction", kFraction, &src))
                        it->fraction = *v;
                    if (!src.empty())
                        it->sources["fraction"] = src;
                    src.clear();
                    if (auto v = w.number("intensity_ops_per_byte", kIntensity, &src))
                        it->intensity = *v;
                    if (!src.empty())
                        it->sources["intensity_ops_per_byte"] = src;
                    src.clear();
                    if (w.has("miss_ratio") && !soc.memorySideMemory)
                        diags.error(p + "/miss_ratio", "a miss ratio needs a memory-side memory: add "
                                                       "\"memory_side_memory\": {} to /soc");
                    if (auto v = w.optionalNumber("miss_ratio", kFraction, &src))
                        it->missRatio = *v;
                    if (!src.empty())
                        it->sources["miss_ratio"] = src;
                    w.finish();
                }
                for (const Ip &ip : soc.ips) {
                    if (!ip.name.empty() && !seen.count(ip.name))
                        diags.error(workPointer(ip.name), "IP \"" + ip.name + "\" has no work entry");
                }
            }
        }
        uc.finish();
    }
    top.finish();
    if (diags.hasErrors())
        return out;

    // Σ f_i = 1 is the model's assumption; a file that misses it is normalised
    // with a warning rather than rejected, so shares can be written as weights.
    const double sum = fractionSum(soc.ips);
    if (sum <= 0) {
        diags.error("/use_case/work", "at least one IP needs a fraction > 0");
        return out;
    }
    if (std::abs(sum - 1) > 1e-6) {
        normalizeFractions(soc.ips);
        diags.warning("/use_case/work", "work fractions sum to " + formatNumber(sum, 9)
                                             + "; normalised so that they sum to 1");
    }
    validate(soc, diags);
    if (!diags.hasErrors())
        out.soc = std::move(soc);
    return out;
}

LoadResult loadSocFile(const std::string &path)
{
    LoadResult out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseSoc(text, path);
}

namespace {
json sourced(double value, const std::map<std::string, std::string> &sources, const std::string &key)
{
    auto it = sources.find(key);
    if (it == sources.end() || it->second.empty())
        return value;
    return json{{"value", value}, {"source", it->second}};
}
} // namespace

json toJson(const Soc &soc)
{
    json root = json::object();
    root["format"] = kFormatId;
    root["version"] = kFormatVersion;
    if (!soc.name.empty())
        root["name"] = soc.name;
    if (!soc.description.empty())
        root["description"] = soc.description;
    json ips = json::array();
    json work = json::object();
    for (const Ip &ip : soc.ips) {
        json j = json::object();
        j["name"] = ip.name;
        if (!ip.color.empty())
            j["color"] = ip.color;
        j["acceleration"] = sourced(ip.acceleration, ip.sources, "acceleration");
        j["bandwidth_gbps"] = sourced(ip.bandwidthGBps, ip.sources, "bandwidth_gbps");
        if (!ip.buses.empty())
            j["buses"] = ip.buses;
        ips.push_back(std::move(j));
        json w = json{{"fraction", sourced(ip.fraction, ip.sources, "fraction")},
                      {"intensity_ops_per_byte", sourced(ip.intensity, ip.sources, "intensity_ops_per_byte")}};
        if (soc.memorySideMemory && (ip.missRatio != 1 || ip.sources.count("miss_ratio")))
            w["miss_ratio"] = sourced(ip.missRatio, ip.sources, "miss_ratio");
        work[ip.name] = std::move(w);
    }
    json hw = json{{"ppeak_gops", sourced(soc.ppeakGops, soc.sources, "ppeak_gops")},
                   {"bpeak_gbps", sourced(soc.bpeakGBps, soc.sources, "bpeak_gbps")}};
    if (soc.memorySideMemory) {
        hw["memory_side_memory"] = json::object();
        if (soc.msmBandwidthGBps > 0)
            hw["memory_side_memory"]["bandwidth_gbps"] = soc.msmBandwidthGBps;
    }
    if (!soc.buses.empty()) {
        json buses = json::array();
        for (const Bus &bus : soc.buses) {
            json b = {{"name", bus.name}};
            b["bandwidth_gbps"] = bus.source.empty() ? json(bus.bandwidthGBps)
                                                     : json{{"value", bus.bandwidthGBps}, {"source", bus.source}};
            buses.push_back(std::move(b));
        }
        hw["buses"] = std::move(buses);
    }
    hw["ips"] = std::move(ips);
    root["soc"] = std::move(hw);
    json useCase = json::object();
    if (!soc.useCaseName.empty())
        useCase["name"] = soc.useCaseName;
    if (soc.serialized)
        useCase["schedule"] = "serialized";
    useCase["work"] = std::move(work);
    root["use_case"] = std::move(useCase);
    return root;
}

std::string serialize(const Soc &soc)
{
    return toJson(soc).dump(2) + "\n";
}

json resultToJson(const Soc &soc, const Result &result)
{
    json out = json::object();
    out["name"] = soc.name;
    out["attainable_gops"] = result.attainableGops;
    out["time_ns_per_op"] = result.timeNs;
    json bound = json::object();
    bound["kind"] = kindName(result.bound.kind);
    bound["ip"] = result.bound.ip >= 0 ? json(soc.ips[result.bound.ip].name) : json(nullptr);
    bound["description"] = describe(result.bound, soc);
    json limiting = json::array();
    for (const Term &t : result.bound.limiting) {
        json term = {{"term", kindName(t.kind)},
                     {"ip", t.ip >= 0 ? json(soc.ips[t.ip].name) : json(nullptr)},
                     {"time_ns_per_op", t.timeNs}};
        if (t.bus >= 0)
            term["bus"] = soc.buses[t.bus].name;
        limiting.push_back(std::move(term));
    }
    bound["limiting_terms"] = std::move(limiting);
    out["bound"] = std::move(bound);
    out["average_intensity_ops_per_byte"] = result.averageIntensity;
    out["schedule"] = soc.serialized ? "serialized" : "concurrent";
    if (soc.memorySideMemory)
        out["memory_side_memory"] = {{"bandwidth_gbps", soc.msmBandwidthGBps > 0 ? json(soc.msmBandwidthGBps) : json(nullptr)},
                                     {"time_ns_per_op", result.msmNs}};
    if (!soc.buses.empty()) {
        json buses = json::array();
        for (std::size_t j = 0; j < soc.buses.size(); ++j)
            buses.push_back({{"name", soc.buses[j].name},
                             {"bandwidth_gbps", soc.buses[j].bandwidthGBps},
                             {"data_bytes_per_op", result.busDataBytes[j]},
                             {"time_ns_per_op", result.busNs[j]}});
        out["buses"] = std::move(buses);
    }
    out["memory"] = {{"data_bytes_per_op", result.memoryDataBytes},
                     {"intensity_ops_per_byte", result.memoryIntensity},
                     {"bandwidth_gbps", soc.bpeakGBps},
                     {"time_ns_per_op", result.memoryNs}};
    json ips = json::array();
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        const IpTerms &t = result.ips[i];
        json j = {{"name", ip.name},
                  {"fraction", ip.fraction},
                  {"miss_ratio", ip.missRatio},
                  {"intensity_ops_per_byte", ip.intensity},
                  {"peak_gops", ip.peakGops(soc.ppeakGops)},
                  {"bandwidth_gbps", ip.bandwidthGBps},
                  {"active", t.active},
                  {"compute_time_ns_per_op", t.computeNs},
                  {"data_bytes_per_op", t.dataBytes},
                  {"link_time_ns_per_op", t.linkNs},
                  {"time_ns_per_op", t.timeNs}};
        j["scaled_roof_gops"] = t.active ? json(t.scaledRoofGops) : json(nullptr);
        j["limited_by"] = !t.active ? "idle" : (t.linkNs > t.computeNs ? "link" : "compute");
        ips.push_back(std::move(j));
    }
    out["ips"] = std::move(ips);
    return out;
}

namespace {

std::vector<std::string> splitPointer(std::string path)
{
    std::vector<std::string> tokens;
    if (!path.empty() && path.front() == '/')
        path.erase(0, 1);
    std::string token;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            tokens.push_back(token);
            token.clear();
        } else if (path[i] == '~' && i + 1 < path.size() && (path[i + 1] == '0' || path[i + 1] == '1')) {
            token += path[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            token += path[i];
        }
    }
    return tokens;
}

// An IP by exact name or by index.
std::optional<std::size_t> findIp(const Soc &soc, const std::string &token)
{
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        if (soc.ips[i].name == token)
            return i;
    }
    if (!token.empty() && token.find_first_not_of("0123456789") == std::string::npos && token.size() < 6) {
        const std::size_t index = std::stoul(token);
        if (index < soc.ips.size())
            return index;
    }
    return std::nullopt;
}

} // namespace

bool applyOverride(Soc &soc, const std::string &assignment, Diagnostics &diagnostics)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        diagnostics.error("--set " + assignment, "expected POINTER=VALUE, e.g. /soc/bpeak_gbps=30");
        return false;
    }
    const std::string path = assignment.substr(0, eq);
    const std::string valueText = assignment.substr(eq + 1);
    const auto parsed = parseFiniteNumber(valueText);
    if (!parsed) {
        diagnostics.error(path, "expected a finite number, got \"" + valueText + "\"");
        return false;
    }
    const double value = *parsed;

    Soc changed = soc;
    const auto t = splitPointer(path);
    const std::string where = "/" + path.substr(path.front() == '/' ? 1 : 0);
    auto unknownPath = [&] {
        diagnostics.error(where, "unknown parameter; use /soc/ppeak_gops, /soc/bpeak_gbps, "
                                 "/soc/ips/<IP>/acceleration, /soc/ips/<IP>/bandwidth_gbps, "
                                 "/soc/memory_side_memory/bandwidth_gbps, /soc/buses/<bus>/bandwidth_gbps, "
                                 "/use_case/work/<IP>/fraction, /use_case/work/<IP>/intensity_ops_per_byte "
                                 "or /use_case/work/<IP>/miss_ratio");
        return false;
    };
    if (t.size() == 3 && t[0] == "soc" && t[1] == "memory_side_memory" && t[2] == "bandwidth_gbps") {
        if (!kRate.contains(value)) { // as in a file: 0 is no bandwidth, not "unlimited"
            diagnostics.error(where, "must be " + kRate.describe() + ", got " + formatNumber(value));
            return false;
        }
        changed.memorySideMemory = true;
        changed.msmBandwidthGBps = value;
    } else if (t.size() == 4 && t[0] == "soc" && t[1] == "buses" && t[3] == "bandwidth_gbps") {
        std::optional<std::size_t> bus;
        for (std::size_t j = 0; j < changed.buses.size(); ++j) {
            if (changed.buses[j].name == t[2] || std::to_string(j) == t[2])
                bus = j;
        }
        if (!bus) {
            diagnostics.error(where, "no bus named or numbered \"" + t[2] + "\"");
            return false;
        }
        changed.buses[*bus].bandwidthGBps = value;
    } else if (t.size() == 2 && t[0] == "soc" && t[1] == "ppeak_gops") {
        changed.ppeakGops = value;
    } else if (t.size() == 2 && t[0] == "soc" && t[1] == "bpeak_gbps") {
        changed.bpeakGBps = value;
    } else if (t.size() == 4 && ((t[0] == "soc" && t[1] == "ips") || (t[0] == "use_case" && t[1] == "work"))) {
        auto index = findIp(changed, t[2]);
        if (!index) {
            diagnostics.error(where, "no IP named or numbered \"" + t[2] + "\"");
            return false;
        }
        Ip &ip = changed.ips[*index];
        if (t[0] == "soc" && t[3] == "acceleration") {
            ip.acceleration = value;
        } else if (t[0] == "soc" && t[3] == "bandwidth_gbps") {
            ip.bandwidthGBps = value;
        } else if (t[0] == "use_case" && t[3] == "intensity_ops_per_byte") {
            ip.intensity = value;
        } else if (t[0] == "use_case" && t[3] == "miss_ratio") {
            changed.memorySideMemory = true;
            ip.missRatio = value;
        } else if (t[0] == "use_case" && t[3] == "fraction") {
            if (!kFraction.contains(value)) {
                diagnostics.error(where, "must be " + kFraction.describe() + ", got " + formatNumber(value));
                return false;
            }
            const double set = setFraction(changed.ips, *index, value);
            if (std::abs(set - value) > 1e-12) {
                diagnostics.error(where, "cannot set the fraction to " + formatNumber(value)
                                             + ": no other IP can take the rest of the work (it stays "
                                             + formatNumber(set) + ")");
                return false;
            }
        } else {
            return unknownPath();
        }
    } else {
        return unknownPath();
    }

    Diagnostics check;
    validate(changed, check);
    if (check.hasErrors()) {
        for (const Diagnostic &d : check.errors())
            diagnostics.error(d.pointer, d.message + " (after --set " + assignment + ")");
        return false;
    }
    soc = std::move(changed);
    return true;
}

} // namespace roofline::gables
