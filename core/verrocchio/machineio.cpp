// Verrocchio machine files ("roofline-studio/verrocchio-machine"): reading,
// checking, writing and --set overrides.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>

namespace roofline::verrocchio {

using nlohmann::json;

// --- Machines -------------------------------------------------------------------

namespace {

const Range kRate = Range::positive(Limits::maxRate);
const Range kInit = Range::nonNegative(Limits::maxInitNs);
const Range kSkew = Range::nonNegative(Limits::maxSkewNs);
const Range kCores = Range::closed(1, Limits::maxCores);

const char *throughputKey(Pipe p)
{
    return movesBytes(p) ? "bandwidth_gbps" : "throughput_gops";
}

const char *modeName(BusMode mode)
{
    return mode == BusMode::HalfDuplex ? "half_duplex" : "separate";
}

void checkRange(double value, const Range &range, const std::string &pointer, Diagnostics &diagnostics)
{
    if (!range.contains(value))
        diagnostics.error(pointer, "must be " + range.describe() + ", got " + formatNumber(value));
}

// Reads a number and keeps its source in machine.sources under its pointer.
void sourcedNumber(JsonObjectReader &r, const std::string &key, const Range &range, double &target,
                   std::map<std::string, std::string> &sources, bool required = true)
{
    std::string source;
    auto v = required ? r.number(key, range, &source) : r.optionalNumber(key, range, &source);
    if (v)
        target = *v;
    if (!source.empty())
        sources[r.pointerTo(key)] = source;
}

} // namespace

void validate(const Machine &m, Diagnostics &diagnostics)
{
    for (Pipe p : kAllPipes) {
        const std::string base = std::string("/pipes/") + pipeName(p) + "/";
        checkRange(m.pipe(p).throughput, kRate, base + throughputKey(p), diagnostics);
        checkRange(m.pipe(p).initNs, kInit, base + "init_ns", diagnostics);
    }
    checkRange(m.busGBps, kRate, "/bus/bandwidth_gbps", diagnostics);
    checkRange(m.readGBps, kRate, "/bus/read_gbps", diagnostics);
    checkRange(m.writeGBps, kRate, "/bus/write_gbps", diagnostics);
    checkRange(m.coreCount, kCores, "/cores/count", diagnostics);
    checkRange(m.skewNs, kSkew, "/cores/skew_ns", diagnostics);
}

MachineLoadResult parseMachine(const std::string &text, const std::string &fileLabel)
{
    MachineLoadResult out;
    Diagnostics &diags = out.diagnostics;
    JsonModelFile file(text, fileLabel, kMachineFormatId, kFormatVersion, diags);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Machine m;
    m.name = top.optionalString("name").value_or("");
    m.description = top.optionalString("description").value_or("");
    if (const json *pipes = top.member("pipes", true)) {
        JsonObjectReader pr(*pipes, "/pipes", diags);
        for (Pipe p : kAllPipes) {
            if (const json *pipe = pr.member(pipeName(p), true)) {
                JsonObjectReader r(*pipe, pr.pointerTo(pipeName(p)), diags);
                sourcedNumber(r, throughputKey(p), kRate, m.pipe(p).throughput, m.sources);
                sourcedNumber(r, "init_ns", kInit, m.pipe(p).initNs, m.sources);
                r.finish();
            }
        }
        pr.finish();
    }
    if (const json *bus = top.member("bus", true)) {
        JsonObjectReader r(*bus, "/bus", diags);
        const std::string mode = r.optionalString("mode").value_or("half_duplex");
        if (mode == "separate")
            m.busMode = BusMode::Separate;
        else if (mode != "half_duplex")
            diags.error("/bus/mode", "expected \"half_duplex\" or \"separate\", got \"" + mode + "\"");
        const bool half = m.busMode == BusMode::HalfDuplex;
        sourcedNumber(r, "bandwidth_gbps", kRate, m.busGBps, m.sources, half);
        sourcedNumber(r, "read_gbps", kRate, m.readGBps, m.sources, !half);
        sourcedNumber(r, "write_gbps", kRate, m.writeGBps, m.sources, !half);
        // One mode's numbers default to the other's, so switching modes with --set works.
        if (half && !r.has("read_gbps"))
            m.readGBps = m.busGBps;
        if (half && !r.has("write_gbps"))
            m.writeGBps = m.busGBps;
        if (!half && !r.has("bandwidth_gbps"))
            m.busGBps = std::max(m.readGBps, m.writeGBps);
        r.finish();
    }
    if (const json *cores = top.member("cores", true)) {
        JsonObjectReader r(*cores, "/cores", diags);
        double count = 1;
        sourcedNumber(r, "count", kCores, count, m.sources);
        if (count != std::floor(count))
            diags.error("/cores/count", "must be a whole number, got " + formatNumber(count));
        m.coreCount = static_cast<int>(count);
        sourcedNumber(r, "skew_ns", kSkew, m.skewNs, m.sources, false);
        r.finish();
    }
    top.optionalString("comment");
    top.finish();
    if (!diags.hasErrors())
        out.machine = std::move(m);
    return out;
}

MachineLoadResult loadMachineFile(const std::string &path)
{
    MachineLoadResult out;
    std::string text;
    return readTextFile(path, text, out.diagnostics) ? parseMachine(text, path) : out;
}

json toJson(const Machine &m)
{
    auto sourced = [&](double value, const std::string &pointer) {
        auto it = m.sources.find(pointer);
        if (it == m.sources.end() || it->second.empty())
            return json(value);
        return json{{"value", value}, {"source", it->second}};
    };
    json root = json::object();
    root["format"] = kMachineFormatId;
    root["version"] = kFormatVersion;
    if (!m.name.empty())
        root["name"] = m.name;
    if (!m.description.empty())
        root["description"] = m.description;
    json pipes = json::object();
    for (Pipe p : kAllPipes) {
        const std::string base = std::string("/pipes/") + pipeName(p) + "/";
        pipes[pipeName(p)] = json{{throughputKey(p), sourced(m.pipe(p).throughput, base + throughputKey(p))},
                                  {"init_ns", sourced(m.pipe(p).initNs, base + "init_ns")}};
    }
    root["pipes"] = std::move(pipes);
    root["bus"] = json{{"mode", modeName(m.busMode)},
                       {"bandwidth_gbps", sourced(m.busGBps, "/bus/bandwidth_gbps")},
                       {"read_gbps", sourced(m.readGBps, "/bus/read_gbps")},
                       {"write_gbps", sourced(m.writeGBps, "/bus/write_gbps")}};
    root["cores"] = json{{"count", sourced(m.coreCount, "/cores/count")},
                         {"skew_ns", sourced(m.skewNs, "/cores/skew_ns")}};
    return root;
}

std::string serialize(const Machine &machine)
{
    return toJson(machine).dump(2) + "\n";
}

bool applyOverride(Machine &machine, const std::string &assignment, Diagnostics &diagnostics)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        diagnostics.error("--set " + assignment, "expected POINTER=VALUE, e.g. /bus/bandwidth_gbps=30");
        return false;
    }
    std::string path = assignment.substr(0, eq);
    const std::string valueText = assignment.substr(eq + 1);
    if (path.front() != '/')
        path.insert(path.begin(), '/');
    Machine changed = machine;
    if (path == "/bus/mode") {
        if (valueText == "half_duplex")
            changed.busMode = BusMode::HalfDuplex;
        else if (valueText == "separate")
            changed.busMode = BusMode::Separate;
        else {
            diagnostics.error(path, "expected half_duplex or separate, got \"" + valueText + "\"");
            return false;
        }
        machine = std::move(changed);
        return true;
    }
    const auto parsed = parseFiniteNumber(valueText);
    if (!parsed) {
        diagnostics.error(path, "expected a finite number, got \"" + valueText + "\"");
        return false;
    }
    const double value = *parsed;
    double *target = nullptr;
    if (path == "/bus/bandwidth_gbps")
        target = &changed.busGBps;
    else if (path == "/bus/read_gbps")
        target = &changed.readGBps;
    else if (path == "/bus/write_gbps")
        target = &changed.writeGBps;
    else if (path == "/cores/skew_ns")
        target = &changed.skewNs;
    else if (path == "/cores/count") {
        if (value != std::floor(value) || !kCores.contains(value)) {
            diagnostics.error(path, "must be a whole number " + kCores.describe() + ", got " + valueText);
            return false;
        }
        changed.coreCount = static_cast<int>(value);
    } else if (path.rfind("/pipes/", 0) == 0) {
        const auto slash = path.find('/', 7);
        const std::string field = slash == std::string::npos ? "" : path.substr(slash + 1);
        for (Pipe p : kAllPipes) {
            if (slash == std::string::npos || path.compare(7, slash - 7, pipeName(p)) != 0)
                continue;
            if (field == "init_ns")
                target = &changed.pipe(p).initNs;
            else if (field == throughputKey(p))
                target = &changed.pipe(p).throughput;
        }
    }
    if (!target && path != "/cores/count") {
        diagnostics.error(path, "unknown parameter; use /pipes/<PIPE>/bandwidth_gbps (MTE1, MTE2, MTE3), "
                                "/pipes/<PIPE>/throughput_gops (S, M, V), /pipes/<PIPE>/init_ns, "
                                "/bus/mode, /bus/bandwidth_gbps, /bus/read_gbps, /bus/write_gbps, "
                                "/cores/count or /cores/skew_ns");
        return false;
    }
    if (target)
        *target = value;
    Diagnostics check;
    validate(changed, check);
    if (check.hasErrors()) {
        for (const Diagnostic &d : check.errors())
            diagnostics.error(d.pointer, d.message + " (after --set " + assignment + ")");
        return false;
    }
    // An override replaces the file's number, so its source no longer applies.
    changed.sources.erase(path);
    machine = std::move(changed);
    return true;
}

} // namespace roofline::verrocchio
