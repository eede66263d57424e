// roofline-cli goal-seek: the value of one parameter at which a model reaches
// a target, or why none does.
//
//   roofline-cli goal-seek SOC.json --target patt=200Gops/s --vary /soc/bpeak_gbps
//   roofline-cli goal-seek NETWORK.json ACCEL.json --target fps=60 --vary /memories/DRAM/bandwidth_gbps
//   roofline-cli goal-seek NETWORK.json ACCEL.json --target time=5ms --vary /clock_ghz
//   roofline-cli goal-seek TRACE.json MACHINE.json --target total=10us --vary /pipes/MTE2/bandwidth_gbps
//
// Exit status: 0 found, 1 invalid input (or a parameter goal seek cannot
// vary), 2 wrong usage, 4 the target is unreachable (3 is an internal error).
#include "commands.h"
#include "amaix/goalseek.h"
#include "amaix/io.h"
#include "gables/goalseek.h"
#include "gables/io.h"
#include "verrocchio/goalseek.h"
#include "verrocchio/io.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace cli {

namespace {

using namespace roofline;

constexpr int kExitUnreachable = 4; // 3 is an internal error (main.cpp)

const char *kUsage = R"(Usage: roofline-cli goal-seek FILE... --target KIND=VALUE --vary POINTER [OPTIONS]
  Find the value of one parameter at which the model reaches a target, or say
  which bound stops it.
    SOC.json                 --target patt=VALUE[Mops/s|Gops/s|Tops/s|Pops/s]  (Gables P_att; default Gops/s)
    NETWORK.json ACCEL.json  --target fps=VALUE   or  --target time=VALUE[ns|us|µs|ms|s]   (AMAIX)
    TRACE MACHINE.json       --target total=VALUE[ns|us|µs|ms|s]               (Verrocchio total time)
  --vary POINTER           the parameter, as --set names it, e.g. /soc/bpeak_gbps,
                           /memories/DRAM/bandwidth_gbps, /pipes/MTE2/bandwidth_gbps
  --set POINTER=VALUE      override a parameter first; may repeat
  --data-type T, --refine  AMAIX options, as for roofline-cli amaix
  --method closed|bracketed  Gables: the exact closed form (default) or the bracketed search
  --format json|text       json (default) or one sentence with the numbers
Exit status: 0 found, 1 invalid input, 2 wrong usage, 4 unreachable.
)";

// "200", "200Gops/s", "1.2 Tops/s", "5ms", "10 µs": the number and its scale to the base unit.
std::optional<double> parseQuantity(const std::string &text, const std::vector<std::pair<std::string, double>> &units)
{
    const char *begin = text.c_str();
    char *end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(value))
        return std::nullopt;
    std::string unit(end);
    while (!unit.empty() && unit.front() == ' ')
        unit.erase(unit.begin());
    for (const auto &[name, scale] : units) {
        if (unit == name)
            return value * scale;
    }
    return std::nullopt;
}

const std::vector<std::pair<std::string, double>> kRateUnits = {
    {"", 1}, {"Gops/s", 1}, {"Mops/s", 1e-3}, {"Tops/s", 1e3}, {"Pops/s", 1e6}};
const std::vector<std::pair<std::string, double>> kTimeUnits = {
    {"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}};
const std::vector<std::pair<std::string, double>> kFpsUnits = {{"", 1}, {"FPS", 1}, {"fps", 1}};

const char *statusName(GoalSeek::Status s)
{
    switch (s) {
    case GoalSeek::Status::Found: return "found";
    case GoalSeek::Status::Unreachable: return "unreachable";
    case GoalSeek::Status::Invalid: return "invalid";
    }
    return "invalid";
}

nlohmann::json toJson(const GoalSeek &g, const std::string &kind, const std::string &targetUnit,
                      const std::string &method)
{
    nlohmann::json j = {{"status", statusName(g.status)},
                        {"parameter", g.pointer},
                        {"label", g.label},
                        {"unit", g.unit},
                        {"target", {{"kind", kind}, {"value", g.targetValue}, {"unit", targetUnit}}},
                        {"method", method},
                        {"from", g.from},
                        {"message", g.message},
                        {"evaluations", g.evaluations}};
    if (g.status == GoalSeek::Status::Found) {
        j["value"] = g.value;
        j["relation"] = g.relation;
        j["achieved"] = g.achieved;
    } else if (g.status == GoalSeek::Status::Unreachable) {
        j["value"] = g.value; // the end of the range that comes nearest
        j["cap"] = g.cap;
        j["limited_by"] = g.limitedBy;
    }
    return j;
}

} // namespace

int runGoalSeek(const std::vector<std::string> &args)
{
    std::vector<std::string> files, overrides;
    std::string target, vary, format = "json", method = "closed", dataType;
    bool refine = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return 0;
        }
        if (a == "--refine") {
            refine = true;
            continue;
        }
        if (a == "--target" || a == "--vary" || a == "--set" || a == "--format" || a == "--method"
            || a == "--data-type") {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli goal-seek: " << a << " needs a value\n";
                return kExitUsage;
            }
            const std::string &v = args[++i];
            if (a == "--target")
                target = v;
            else if (a == "--vary")
                vary = v;
            else if (a == "--set")
                overrides.push_back(v);
            else if (a == "--format")
                format = v;
            else if (a == "--method")
                method = v;
            else
                dataType = v;
            continue;
        }
        if (!a.empty() && a[0] == '-') {
            std::cerr << "roofline-cli goal-seek: unknown option \"" << a << "\"\n";
            return kExitUsage;
        }
        files.push_back(a);
    }
    if (target.empty() || vary.empty()) {
        std::cerr << "roofline-cli goal-seek: needs --target KIND=VALUE and --vary POINTER\n\n" << kUsage;
        return kExitUsage;
    }
    if (format != "json" && format != "text") {
        std::cerr << "roofline-cli goal-seek: --format must be json or text, got \"" << format << "\"\n";
        return kExitUsage;
    }
    if (method != "closed" && method != "bracketed") {
        std::cerr << "roofline-cli goal-seek: --method must be closed or bracketed, got \"" << method << "\"\n";
        return kExitUsage;
    }
    const auto eq = target.find('=');
    const std::string kind = eq == std::string::npos ? "" : target.substr(0, eq);
    const std::string valueText = eq == std::string::npos ? "" : target.substr(eq + 1);
    const bool gablesTarget = kind == "patt";
    const bool amaixTarget = kind == "fps" || kind == "time";
    const bool timelineTarget = kind == "total";
    if (!gablesTarget && !amaixTarget && !timelineTarget) {
        std::cerr << "roofline-cli goal-seek: --target must be patt=VALUE, fps=VALUE, time=VALUE or total=VALUE, got \""
                  << target << "\"\n";
        return kExitUsage;
    }
    const std::size_t wantFiles = gablesTarget ? 1 : 2;
    if (files.size() != wantFiles) {
        std::cerr << "roofline-cli goal-seek: --target " << kind << " needs "
                  << (gablesTarget ? "one SoC file" : amaixTarget ? "NETWORK.json and ACCEL.json" : "TRACE and MACHINE.json")
                  << ", got " << files.size() << " file(s)\n";
        return kExitUsage;
    }
    const std::optional<double> value = parseQuantity(valueText, gablesTarget ? kRateUnits
                                                                 : kind == "fps" ? kFpsUnits
                                                                                 : kTimeUnits);
    if (!value || !(*value > 0)) {
        std::cerr << "error: --target " << target << ": expected a positive number"
                  << (gablesTarget ? " of Gops/s (or Mops/s, Tops/s, Pops/s)"
                      : kind == "fps" ? " of frames per second"
                                      : " with a time unit (ns, us, µs, ms, s)")
                  << "\n";
        return kExitInvalidInput;
    }

    GoalSeek result;
    std::string targetUnit;
    std::string usedMethod = "bracketed";
    if (gablesTarget) {
        gables::LoadResult load = gables::loadSocFile(files[0]);
        printDiagnostics(load.diagnostics);
        if (!load.soc)
            return kExitInvalidInput;
        Diagnostics d;
        d.setFile(files[0]);
        for (const std::string &o : overrides) {
            if (!gables::applyOverride(*load.soc, o, d)) {
                printDiagnostics(d);
                return kExitInvalidInput;
            }
        }
        usedMethod = method == "closed" && !load.soc->serialized ? "closed" : "bracketed";
        result = gables::seekAttainable(*load.soc, vary, *value,
                                        method == "closed" ? gables::SeekMethod::ClosedForm
                                                           : gables::SeekMethod::Bracketed);
        targetUnit = "Gops/s";
    } else if (amaixTarget) {
        amaix::NetworkLoad net = amaix::loadNetworkFile(files[0]);
        amaix::AcceleratorLoad acc = amaix::loadAcceleratorFile(files[1]);
        printDiagnostics(net.diagnostics);
        printDiagnostics(acc.diagnostics);
        if (!net.network || !acc.accelerator)
            return kExitInvalidInput;
        Diagnostics d;
        d.setFile(files[1]);
        for (const std::string &o : overrides) {
            if (!amaix::applyOverride(*acc.accelerator, o, d)) {
                printDiagnostics(d);
                return kExitInvalidInput;
            }
        }
        amaix::Options options;
        options.dataType = dataType;
        options.refine = refine;
        result = amaix::seekInference(*net.network, *acc.accelerator, options, vary, *value,
                                      kind == "fps" ? amaix::InferenceTarget::Fps : amaix::InferenceTarget::TimeNs);
        targetUnit = kind == "fps" ? "FPS" : "ns";
    } else {
        verrocchio::TraceLoadResult trace = verrocchio::loadTraceFile(files[0]);
        verrocchio::MachineLoadResult machine = verrocchio::loadMachineFile(files[1]);
        printDiagnostics(trace.diagnostics);
        printDiagnostics(machine.diagnostics);
        if (!trace.trace || !machine.machine)
            return kExitInvalidInput;
        Diagnostics d;
        d.setFile(files[1]);
        for (const std::string &o : overrides) {
            if (!verrocchio::applyOverride(*machine.machine, o, d)) {
                printDiagnostics(d);
                return kExitInvalidInput;
            }
        }
        result = verrocchio::seekTotalTime(*trace.trace, *machine.machine, vary, *value);
        targetUnit = "ns";
    }

    if (result.status == GoalSeek::Status::Invalid) {
        std::cerr << "error: " << result.message << "\n";
        return kExitInvalidInput;
    }
    if (format == "json")
        std::cout << toJson(result, kind, targetUnit, usedMethod).dump(2) << "\n";
    else
        std::cout << result.message << "\n";
    return result.found() ? 0 : kExitUnreachable;
}

} // namespace cli
