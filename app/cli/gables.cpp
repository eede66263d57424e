// roofline-cli gables-sweep: the Gables model over a grid of one or two
// parameters.
//
//   roofline-cli gables-sweep SOC.json --x AXIS [--y AXIS] [--set POINTER=VALUE]...
//                [--threads N] [--format csv|jsonl|json] [--shard I/N]
//
// Exit status: 0 success, 1 invalid input, 2 wrong usage.
#include "commands.h"
#include "sweepargs.h"
#include "gables/io.h"
#include "gables/sweep.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace cli {

namespace {

using namespace roofline;

const char *kGablesSweepUsage = R"(Usage: roofline-cli gables-sweep SOC.json --x AXIS [--y AXIS] [OPTIONS]
  Evaluate a Gables SoC over a grid of one or two parameters.
  AXIS is POINTER=FROM:TO:COUNT[:log] or POINTER=V1,V2,..., POINTER as for
  evaluate --set (a fraction rebalances the other IPs), e.g.
    --x /use_case/work/GPU/fraction=0:1:11  --y /soc/bpeak_gbps=5:80:16:log
  --set POINTER=VALUE  override a parameter first; may repeat
  --threads N          worker threads (default: one per hardware thread)
  --format csv|jsonl|json
                       csv (default): x,y,status,attainable_gops,time_ns,
                       average_intensity,bound_kind,bound; jsonl: one JSON
                       object per point and line; json: one document
  --shard I/N          compute only the I-th of N contiguous slices of the grid
                       (csv or jsonl; shard 1 alone writes the CSV header, so
                       shards 1..N concatenated in order are the whole sweep)
  Points whose values the model does not accept (e.g. a fraction no other IP
  can balance) have status "invalid" and, in JSON, an "error".
)";

nlohmann::json pointJson(const gables::SweepPoint &p)
{
    nlohmann::json j = {{"x", p.x}, {"y", p.y}, {"status", p.ok ? "ok" : "invalid"}};
    if (p.ok) {
        j["attainable_gops"] = p.attainableGops;
        j["time_ns"] = p.timeNs;
        j["average_intensity"] = p.averageIntensity;
        j["bound_kind"] = p.boundKind;
        j["bound"] = p.bound;
    } else {
        j["error"] = p.error;
    }
    return j;
}

} // namespace

int runGablesSweep(const std::vector<std::string> &args)
{
    std::string file, format = "csv";
    std::vector<std::string> axes, overrides;
    unsigned threads = 0;
    Shard shard;
    bool sharded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto value = [&]() -> const std::string * {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli gables-sweep: " << a << " needs a value\n";
                return nullptr;
            }
            return &args[++i];
        };
        if (a == "-h" || a == "--help") {
            std::cout << kGablesSweepUsage;
            return 0;
        }
        if (a == "--x" || a == "--y" || a == "--set" || a == "--threads" || a == "--format" || a == "--shard") {
            const std::string *v = value();
            if (!v)
                return kExitUsage;
            if (a == "--x" || a == "--y") {
                if ((a == "--x") != axes.empty()) {
                    std::cerr << "roofline-cli gables-sweep: give one --x, then at most one --y\n";
                    return kExitUsage;
                }
                axes.push_back(*v);
            } else if (a == "--set") {
                overrides.push_back(*v);
            } else if (a == "--format") {
                format = *v;
            } else if (a == "--shard") {
                const auto s = parseShard(*v);
                if (!s) {
                    std::cerr << "roofline-cli gables-sweep: --shard needs I/N with 1 <= I <= N <= 1000000, got \"" << *v
                              << "\"\n";
                    return kExitUsage;
                }
                shard = *s;
                sharded = true;
            } else {
                char *end = nullptr;
                const long n = std::strtol(v->c_str(), &end, 10);
                if (*end != '\0' || n < 1 || n > 1024) {
                    std::cerr << "roofline-cli gables-sweep: --threads must be 1..1024, got \"" << *v << "\"\n";
                    return kExitUsage;
                }
                threads = unsigned(n);
            }
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            std::cerr << "roofline-cli gables-sweep: unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else if (file.empty()) {
            file = a;
        } else {
            std::cerr << "roofline-cli gables-sweep: only one SOC.json may be given, got \"" << file << "\" and \"" << a
                      << "\"\n";
            return kExitUsage;
        }
    }
    if (file.empty() || axes.empty()) {
        std::cerr << "roofline-cli gables-sweep: needs SOC.json and --x\n\n" << kGablesSweepUsage;
        return kExitUsage;
    }
    if (format != "csv" && format != "jsonl" && format != "json") {
        std::cerr << "roofline-cli gables-sweep: --format must be csv, jsonl or json, got \"" << format << "\"\n";
        return kExitUsage;
    }
    if (sharded && format == "json") {
        std::cerr << "roofline-cli gables-sweep: --shard needs --format csv or jsonl (their shards concatenate)\n";
        return kExitUsage;
    }
    gables::SweepSpec spec;
    spec.threads = threads;
    for (const std::string &a : axes) {
        const auto eq = a.find('=');
        const auto values = eq == std::string::npos || eq == 0 ? std::nullopt : parseAxisValues(a.substr(eq + 1));
        if (!values) {
            std::cerr << "roofline-cli gables-sweep: cannot read the axis \"" << a
                      << "\"; expected POINTER=FROM:TO:COUNT[:log] or POINTER=V1,V2,...\n";
            return kExitUsage;
        }
        spec.axes.push_back({a[0] == '/' ? a.substr(0, eq) : "/" + a.substr(0, eq), *values});
    }

    gables::LoadResult loaded = file == "-" ? gables::parseSoc(std::string(std::istreambuf_iterator<char>(std::cin), {}),
                                                               "<stdin>")
                                            : gables::loadSocFile(file);
    printDiagnostics(loaded.diagnostics);
    if (!loaded.soc)
        return kExitInvalidInput;
    Diagnostics diags;
    diags.setFile(file == "-" ? "<stdin>" : file);
    for (const std::string &o : overrides) {
        if (!gables::applyOverride(*loaded.soc, o, diags)) {
            printDiagnostics(diags);
            return kExitInvalidInput;
        }
    }
    const std::size_t grid = spec.axes[0].values.size() * (spec.axes.size() > 1 ? spec.axes[1].values.size() : 1);
    spec.begin = shard.begin(grid);
    spec.end = shard.end(grid);
    const auto start = std::chrono::steady_clock::now();
    const gables::SweepResult sweep = gables::runSweep(*loaded.soc, spec, diags);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    printDiagnostics(diags);
    if (!sweep.ok)
        return kExitInvalidInput;
    std::cerr << sweep.points.size() << " points";
    if (sharded)
        std::cerr << " (shard " << shard.index << "/" << shard.count << ": points " << sweep.begin << ".."
                  << sweep.begin + sweep.points.size() << " of " << sweep.gridSize << ")";
    std::cerr << " in " << formatNumber(seconds, 3) << " s\n";

    std::string out;
    if (format == "json") {
        nlohmann::json points = nlohmann::json::array();
        for (const auto &p : sweep.points)
            points.push_back(pointJson(p));
        nlohmann::json axesJson = nlohmann::json::array();
        for (const auto &a : spec.axes)
            axesJson.push_back(a.parameter);
        out = nlohmann::json{{"axes", axesJson}, {"points", points}}.dump(2) + "\n";
    } else if (format == "jsonl") {
        for (const auto &p : sweep.points)
            out += pointJson(p).dump() + "\n";
    } else {
        if (shard.first())
            out = "x,y,status,attainable_gops,time_ns,average_intensity,bound_kind,bound\n";
        for (const auto &p : sweep.points) {
            out += sweepNumber(p.x) + ',' + sweepNumber(p.y) + ',' + (p.ok ? "ok" : "invalid") + ',';
            if (p.ok)
                out += sweepNumber(p.attainableGops) + ',' + sweepNumber(p.timeNs) + ','
                    + sweepNumber(p.averageIntensity) + ',' + p.boundKind + ',' + csvField(p.bound);
            else
                out += ",,,,";
            out += '\n';
        }
    }
    std::cout << out;
    std::cout.flush();
    return std::cout ? 0 : kExitInvalidInput;
}

} // namespace cli
