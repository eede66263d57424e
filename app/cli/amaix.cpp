// roofline-cli amaix and amaix-sweep: the AMAIX model on the command line.
//
//   roofline-cli amaix NETWORK.json ACCEL.json [--format json|csv|text] [--refine]
//                [--data-type T] [--set POINTER=VALUE]... [--measured FILE.csv]
//   roofline-cli amaix-sweep NETWORK.json ACCEL.json --x AXIS [--y AXIS] [--refine]
//                [--data-type T] [--set POINTER=VALUE]... [--threads N] [--format csv|jsonl|json]
//                [--shard I/N]
//
// Exit status: 0 success, 1 invalid input, 2 wrong usage.
#include "commands.h"
#include "sweepargs.h"
#include "amaix/baseline.h"
#include "amaix/io.h"
#include "amaix/model.h"
#include "amaix/sweep.h"
#include "common/jsonreader.h"
#include "network/import.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace cli {

namespace {

using namespace roofline;



struct CommonArgs
{
    std::vector<std::string> files;
    std::string format;
    bool refine = false;
    std::string dataType;
    std::vector<std::string> overrides;
    std::string measured;
    std::vector<std::string> axes; // --x, --y
    unsigned threads = 0;
    Shard shard;
    bool sharded = false;
    network::ImportOptions import; // --input-shape
};

// Parses the options both commands share; returns an exit status or -1 to go on.
int parseArgs(const std::vector<std::string> &args, bool sweep, CommonArgs &out, const char *usage)
{
    const char *command = sweep ? "amaix-sweep" : "amaix";
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto value = [&](const std::string &option) -> const std::string * {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli " << command << ": " << option << " needs a value\n";
                return nullptr;
            }
            return &args[++i];
        };
        const std::string *v = nullptr;
        if (a == "-h" || a == "--help") {
            std::cout << usage;
            return 0;
        } else if (a == "--refine") {
            out.refine = true;
        } else if (a == "--input-shape") {
            if (!(v = value(a)))
                return kExitUsage;
            std::string error;
            if (!network::parseInputShapeOption(*v, out.import, error)) {
                std::cerr << "roofline-cli " << command << ": --input-shape: " << error << "\n";
                return kExitUsage;
            }
        } else if (a == "--format" || a == "--data-type" || a == "--set" || (!sweep && a == "--measured")
                   || (sweep && (a == "--x" || a == "--y" || a == "--threads" || a == "--shard"))) {
            if (!(v = value(a)))
                return kExitUsage;
            if (a == "--format")
                out.format = *v;
            else if (a == "--data-type")
                out.dataType = *v;
            else if (a == "--set")
                out.overrides.push_back(*v);
            else if (a == "--measured")
                out.measured = *v;
            else if (a == "--shard") {
                const auto s = parseShard(*v);
                if (!s) {
                    std::cerr << "roofline-cli " << command << ": --shard needs I/N with 1 <= I <= N <= 1000000, got \""
                              << *v << "\"\n";
                    return kExitUsage;
                }
                out.shard = *s;
                out.sharded = true;
            }
            else if (a == "--threads") {
                char *end = nullptr;
                const long n = std::strtol(v->c_str(), &end, 10);
                if (*end != '\0' || n < 1 || n > 1024) {
                    std::cerr << "roofline-cli " << command << ": --threads must be 1..1024, got \"" << *v << "\"\n";
                    return kExitUsage;
                }
                out.threads = unsigned(n);
            } else {
                if (a == "--y" && out.axes.empty()) {
                    std::cerr << "roofline-cli " << command << ": give --x before --y\n";
                    return kExitUsage;
                }
                out.axes.push_back(*v);
            }
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "roofline-cli " << command << ": unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else {
            out.files.push_back(a);
        }
    }
    if (out.files.size() != 2) {
        std::cerr << "roofline-cli " << command << ": needs NETWORK.json and ACCEL.json\n\n" << usage;
        return kExitUsage;
    }
    return -1;
}

struct Loaded
{
    amaix::Network network;
    amaix::Accelerator accelerator;
};

// Loads both files and applies overrides; prints messages; false on invalid input.
bool load(const CommonArgs &args, Loaded &out)
{
    amaix::NetworkLoad net = network::loadAnyNetworkFile(args.files[0], args.import);
    amaix::AcceleratorLoad acc = amaix::loadAcceleratorFile(args.files[1]);
    printDiagnostics(net.diagnostics);
    printDiagnostics(acc.diagnostics);
    if (!net.network || !acc.accelerator)
        return false;
    out.network = std::move(*net.network);
    out.accelerator = std::move(*acc.accelerator);
    Diagnostics overrides;
    overrides.setFile(args.files[1]);
    for (const std::string &o : args.overrides) {
        if (!amaix::applyOverride(out.accelerator, o, overrides)) {
            printDiagnostics(overrides);
            return false;
        }
    }
    return true;
}

const char *kAmaixUsage = R"(Usage: roofline-cli amaix NETWORK.json ACCEL.json [OPTIONS]
  Evaluate a network on an accelerator with the AMAIX model (per-layer roofline)
  and the NVDLA performance-sheet baseline.
  --format json|csv|text   json (default): totals, pipes and stages; csv: one row per stage
  --refine                 divide and conquer: warm-up phase, sequential one-group modes
  --data-type T            e.g. fp16, int8 (default: the network's, else the accelerator's)
  --set POINTER=VALUE      override an accelerator number, e.g. /memories/DRAM/bandwidth_gbps=32
  --measured FILE.csv      measured per-layer times (layer,time_us); adds per-layer errors
  --input-shape NAME=DIMS  sizes of an imported model's input, e.g. input=1x3x640x640
  NETWORK may be our JSON, an ONNX model (.onnx) or a Caffe prototxt (.prototxt); imported
  layers of type "other" are evaluated like any type the accelerator maps (or map them to "host").
)";

const char *kSweepUsage = R"(Usage: roofline-cli amaix-sweep NETWORK.json ACCEL.json --x AXIS [--y AXIS] [OPTIONS]
  Evaluate the network over a grid of accelerator parameters.
  AXIS is POINTER=FROM:TO:COUNT[:log] or POINTER=V1,V2,..., e.g.
    --x /memories/DRAM/bandwidth_gbps=8:128:16:log   --y /scaling/cbuf_bytes=131072,262144,524288
  or the constant-area MAC family T_k x T_c = PRODUCT over the listed T_k:
    --x t_k*t_c=1024:4,8,16,32,64,128
  --refine, --data-type T, --set POINTER=VALUE, --input-shape NAME=DIMS   as for amaix
  --threads N              worker threads (default: one per hardware thread)
  --format csv|jsonl|json  csv (default): x,y,status,total_ns,fps; jsonl: one JSON
                           object per point and line; json: one document
  --shard I/N              compute only the I-th of N contiguous slices of the grid
                           (csv or jsonl; shard 1 alone writes the CSV header, so
                           shards 1..N concatenated in order are the whole sweep)
)";

std::optional<amaix::SweepAxis> parseAxis(const std::string &text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        return std::nullopt;
    amaix::SweepAxis axis;
    std::string lhs = text.substr(0, eq);
    std::string rhs = text.substr(eq + 1);
    auto number = [](const std::string &s, double &v) {
        char *end = nullptr;
        v = std::strtod(s.c_str(), &end);
        return !s.empty() && *end == '\0' && std::isfinite(v);
    };
    if (lhs == "t_k*t_c") {
        const auto colon = rhs.find(':');
        if (colon == std::string::npos || !number(rhs.substr(0, colon), axis.macProduct))
            return std::nullopt;
        axis.kind = amaix::SweepAxis::Kind::ConstantArea;
        axis.parameter = lhs;
        rhs = rhs.substr(colon + 1);
    } else {
        axis.parameter = lhs[0] == '/' ? lhs : "/" + lhs;
    }
    std::vector<std::string> parts;
    const char separator = rhs.find(',') != std::string::npos || axis.kind == amaix::SweepAxis::Kind::ConstantArea ? ',' : ':';
    std::stringstream ss(rhs);
    for (std::string part; std::getline(ss, part, separator);)
        parts.push_back(part);
    if (separator == ':') {
        double from = 0, to = 0, count = 0;
        const bool log = parts.size() == 4 && parts[3] == "log";
        if ((parts.size() != 3 && !log) || !number(parts[0], from) || !number(parts[1], to) || !number(parts[2], count)
            || count < 1 || count > 1e7 || std::floor(count) != count || (log && (from <= 0 || to <= 0)))
            return std::nullopt;
        axis.values = log ? amaix::logValues(from, to, std::size_t(count)) : amaix::linearValues(from, to, std::size_t(count));
    } else {
        for (const std::string &p : parts) {
            double v = 0;
            if (!number(p, v))
                return std::nullopt;
            axis.values.push_back(v);
        }
    }
    if (axis.values.empty())
        return std::nullopt;
    return axis;
}

void printText(const amaix::Network &net, const amaix::Accelerator &acc, const amaix::Result &r,
               const amaix::BaselineResult &baseline)
{
    std::printf("%s on %s (%s)\n", net.name.c_str(), acc.name.c_str(), r.dataType.c_str());
    std::printf("%-24s %-10s %4s %12s %12s %12s %10s %10s %12s %s\n", "stage", "unit", "mode", "n_ops", "d_total",
                "d_weight", "ops/B", "roof_ns", "pipe_ns", "bound");
    for (std::size_t i = 0; i < r.stages.size(); ++i) {
        const amaix::Stage &s = r.stages[i];
        const amaix::Pipe &p = r.pipes[std::size_t(s.pipe)];
        const bool dominant = p.dominant == int(i);
        std::string name = amaix::stageName(net, s);
        if (!dominant)
            name = "(" + name + ")";
        std::printf("%-24s %-10s %4d %12.0f %12.0f %12.0f %10.2f %10.1f %12s %s\n", name.c_str(),
                    s.unit >= 0 ? acc.units[std::size_t(s.unit)].name.c_str() : "host", int(s.mode), s.ops,
                    s.dTotal(), s.dWeight, s.intensity(), s.rooflineNs(),
                    dominant ? formatNumber(p.timeNs).c_str() : "",
                    !dominant ? "" : p.onHost ? "host" : amaix::boundName(p.bound));
    }
    std::printf("total        %s us  (%s FPS)\n", formatNumber(r.totalNs / 1e3).c_str(), formatNumber(r.fps).c_str());
    for (std::size_t u = 0; u < acc.units.size(); ++u)
        std::printf("  %-10s %s us (%s%%)\n", acc.units[u].name.c_str(), formatNumber(r.unitNs[u] / 1e3).c_str(),
                    formatNumber(r.totalNs > 0 ? 100 * r.unitNs[u] / r.totalNs : 0, 3).c_str());
    if (baseline.ok)
        std::printf("performance sheet  %s us  (MAC utilisation %s%%)\n", formatNumber(baseline.totalNs / 1e3).c_str(),
                    formatNumber(100 * baseline.macUtilization, 3).c_str());
}

} // namespace

int runAmaix(const std::vector<std::string> &argv)
{
    CommonArgs args;
    args.format = "json";
    if (int status = parseArgs(argv, false, args, kAmaixUsage); status >= 0)
        return status;
    if (args.format != "json" && args.format != "csv" && args.format != "text") {
        std::cerr << "roofline-cli amaix: --format must be json, csv or text, got \"" << args.format << "\"\n";
        return kExitUsage;
    }
    Loaded in;
    if (!load(args, in))
        return kExitInvalidInput;
    std::optional<std::vector<amaix::MeasuredTime>> measured;
    if (!args.measured.empty()) {
        amaix::MeasuredLoad m = amaix::loadMeasuredFile(args.measured);
        printDiagnostics(m.diagnostics);
        if (!m.times)
            return kExitInvalidInput;
        measured = std::move(m.times);
    }
    amaix::Options options;
    options.dataType = args.dataType;
    options.refine = args.refine;
    const amaix::Result result = amaix::evaluate(in.network, in.accelerator, options);
    if (!result.ok()) {
        std::cerr << "error: " << args.files[0] << " on " << args.files[1] << ": " << result.error << '\n';
        return kExitInvalidInput;
    }
    if (const auto bad = nonFinitePointer(amaix::resultToJson(in.network, in.accelerator, result))) {
        std::cerr << "error: " << args.files[0] << " on " << args.files[1] << ": the result " << *bad
                  << " is not a finite number: an input is too large or too small for the model to compute with\n";
        return kExitInvalidInput;
    }
    amaix::BaselineOptions baselineOptions;
    baselineOptions.dataType = args.dataType;
    const amaix::BaselineResult baseline = amaix::evaluateBaseline(in.network, in.accelerator, baselineOptions);
    std::optional<amaix::Comparison> comparison;
    if (measured) {
        Diagnostics diags;
        diags.setFile(args.measured);
        comparison = amaix::compare(in.network, result, baseline, *measured, diags);
        printDiagnostics(diags);
        if (diags.hasErrors())
            return kExitInvalidInput;
    }

    if (args.format == "csv") {
        std::cout << amaix::resultToCsv(in.network, in.accelerator, result);
        return 0;
    }
    if (args.format == "text") {
        printText(in.network, in.accelerator, result, baseline);
        if (comparison) {
            std::printf("%-20s %12s %12s %8s %12s %8s\n", "layer", "measured_us", "amaix_us", "error", "sheet_us",
                        "error");
            auto row = [](const amaix::ComparisonRow &c) {
                std::printf("%-20s %12.3f %12.3f %7.1f%% %12.3f %7.1f%%\n", c.layer.c_str(), c.measuredNs / 1e3,
                            c.amaixNs / 1e3, 100 * c.amaixError(), c.baselineNs / 1e3, 100 * c.baselineError());
            };
            for (const auto &c : comparison->rows)
                row(c);
            row(comparison->total);
        }
        return 0;
    }
    nlohmann::json out = amaix::resultToJson(in.network, in.accelerator, result);
    out["refine"] = args.refine;
    nlohmann::json sheet = {{"total_ns", baseline.totalNs}, {"fps", baseline.fps},
                            {"mac_utilization", baseline.macUtilization}};
    if (!baseline.ok)
        sheet = {{"error", baseline.error}};
    out["performance_sheet"] = std::move(sheet);
    if (comparison) {
        nlohmann::json rows = nlohmann::json::array();
        auto row = [](const amaix::ComparisonRow &c) {
            return nlohmann::json{{"layer", c.layer},         {"measured_ns", c.measuredNs},
                                  {"amaix_ns", c.amaixNs},     {"amaix_error", c.amaixError()},
                                  {"sheet_ns", c.baselineNs}, {"sheet_error", c.baselineError()}};
        };
        for (const auto &c : comparison->rows)
            rows.push_back(row(c));
        out["comparison"] = {{"layers", std::move(rows)}, {"total", row(comparison->total)}};
    }
    std::cout << out.dump(2) << '\n';
    return 0;
}

int runAmaixSweep(const std::vector<std::string> &argv)
{
    CommonArgs args;
    args.format = "csv";
    if (int status = parseArgs(argv, true, args, kSweepUsage); status >= 0)
        return status;
    if (args.format != "json" && args.format != "csv" && args.format != "jsonl") {
        std::cerr << "roofline-cli amaix-sweep: --format must be csv, jsonl or json, got \"" << args.format << "\"\n";
        return kExitUsage;
    }
    if (args.sharded && args.format == "json") {
        std::cerr << "roofline-cli amaix-sweep: --shard needs --format csv or jsonl (their shards concatenate)\n";
        return kExitUsage;
    }
    if (args.axes.empty()) {
        std::cerr << "roofline-cli amaix-sweep: needs --x\n\n" << kSweepUsage;
        return kExitUsage;
    }
    amaix::SweepSpec spec;
    for (const std::string &a : args.axes) {
        auto axis = parseAxis(a);
        if (!axis) {
            std::cerr << "roofline-cli amaix-sweep: cannot read the axis \"" << a
                      << "\"; expected POINTER=FROM:TO:COUNT[:log], POINTER=V1,V2,... or t_k*t_c=PRODUCT:V1,V2,...\n";
            return kExitUsage;
        }
        spec.axes.push_back(std::move(*axis));
    }
    Loaded in;
    if (!load(args, in))
        return kExitInvalidInput;
    spec.options.dataType = args.dataType;
    spec.options.refine = args.refine;
    Diagnostics diags;
    diags.setFile(args.files[1]);
    const std::size_t grid = spec.axes[0].values.size() * (spec.axes.size() > 1 ? spec.axes[1].values.size() : 1);
    spec.begin = args.shard.begin(grid);
    spec.end = args.shard.end(grid);
    amaix::SweepControl control;
    control.threads = args.threads;
    const auto start = std::chrono::steady_clock::now();
    const amaix::SweepResult sweep = amaix::runSweep(in.network, in.accelerator, spec, diags, control);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printDiagnostics(diags);
    if (!sweep.ok)
        return kExitInvalidInput;
    std::cerr << sweep.points.size() << " points";
    if (args.sharded)
        std::cerr << " (shard " << args.shard.index << "/" << args.shard.count << ": points " << sweep.begin << ".."
                  << sweep.begin + sweep.points.size() << " of " << sweep.gridSize << ")";
    std::cerr << " in " << formatNumber(seconds, 3) << " s\n";
    if (args.format == "jsonl") {
        std::string out;
        for (const auto &p : sweep.points)
            out += nlohmann::json{{"x", p.x}, {"y", p.y}, {"status", amaix::statusName(p.status)},
                                  {"total_ns", p.totalNs}, {"fps", p.fps}}.dump() + "\n";
        std::cout << out;
        return 0;
    }
    if (args.format == "json") {
        nlohmann::json points = nlohmann::json::array();
        for (const auto &p : sweep.points)
            points.push_back({{"x", p.x}, {"y", p.y}, {"status", amaix::statusName(p.status)}, {"total_ns", p.totalNs},
                              {"fps", p.fps}});
        nlohmann::json axes = nlohmann::json::array();
        for (const auto &a : spec.axes)
            axes.push_back(a.parameter);
        std::cout << nlohmann::json{{"axes", axes}, {"points", points}}.dump(2) << '\n';
        return 0;
    }
    if (args.shard.first())
        std::cout << "x,y,status,total_ns,fps\n";
    for (const auto &p : sweep.points)
        std::cout << formatNumber(p.x, 12) << ',' << formatNumber(p.y, 12) << ',' << amaix::statusName(p.status) << ','
                  << formatNumber(p.totalNs, 12) << ',' << formatNumber(p.fps, 12) << '\n';
    return 0;
}

} // namespace cli
