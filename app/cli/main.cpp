// roofline-cli: the modelling core on the command line (no Qt).
//
//   roofline-cli evaluate soc.json [--set /soc/bpeak_gbps=30]... [--format json|text]
//   roofline-cli validate soc.json
//
// Exit status: 0 success, 1 invalid input (the message names file, field and
// reason), 2 wrong usage.
#include "common/allocator.h"
#include "common/jsonreader.h"
#include "commands.h"
#include "gables/io.h"
#include "gables/model.h"
#include "roofline_version.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace roofline;
using cli::kExitInvalidInput;
using cli::kExitUsage;
using cli::printDiagnostics;


const char *kUsage = R"USAGE(Usage: roofline-cli COMMAND [OPTIONS] FILE

Commands:
  evaluate FILE.json   Evaluate a Gables SoC file and print the result
  validate FILE.json   Check a file (and any --set); print its warnings and errors,
                       or "FILE: valid (N IPs)"
  FILE may be - to read standard input.

Options:
  --set POINTER=VALUE  Override one parameter before evaluating; may repeat
                       (also written --set=POINTER=VALUE).
                       POINTER is the field's JSON pointer, IPs by name or index:
                         /soc/ppeak_gops=40  /soc/bpeak_gbps=30
                         /soc/ips/GPU/acceleration=5  /soc/ips/1/bandwidth_gbps=15
                         /use_case/work/GPU/fraction=0.75 (the other IPs rebalance)
                         /use_case/work/GPU/intensity_ops_per_byte=8
  --format json|text   Output format of evaluate (default: json; also --format=text)
  -h, --help           Show this help
  --version            Show the version

Exit status: 0 success, 1 invalid input, 2 wrong usage.
)USAGE";


void printText(const gables::Soc &soc, const gables::Result &r)
{
    std::printf("%s\n", soc.name.empty() ? "(unnamed SoC)" : soc.name.c_str());
    std::printf("P_attainable  %s Gops/s\n", formatNumber(r.attainableGops).c_str());
    std::printf("bound         %s\n", gables::describe(r.bound, soc).c_str());
    std::printf("I_avg         %s ops/byte\n", formatNumber(r.averageIntensity).c_str());
    std::printf("T_mem         %s ns/op  (%s bytes/op at %s GB/s)\n", formatNumber(r.memoryNs).c_str(),
                formatNumber(r.memoryDataBytes).c_str(), formatNumber(soc.bpeakGBps).c_str());
    std::printf("%-16s %8s %10s %12s %12s %12s\n", "IP", "f", "I (ops/B)", "C (ns/op)", "D/B (ns/op)",
                "T (ns/op)");
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const auto &ip = soc.ips[i];
        const auto &t = r.ips[i];
        std::printf("%-16s %8s %10s %12s %12s %12s\n", ip.name.c_str(), formatNumber(ip.fraction, 4).c_str(),
                    formatNumber(ip.intensity, 6).c_str(), formatNumber(t.computeNs, 5).c_str(),
                    formatNumber(t.linkNs, 5).c_str(), t.active ? formatNumber(t.timeNs, 5).c_str() : "idle");
    }
}

int run(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kUsage;
        return kExitUsage;
    }
    if (args[0] == "-h" || args[0] == "--help") {
        std::cout << kUsage;
        for (const cli::Command &c : cli::extraCommands())
            std::cout << "\n" << c.usage;
        return 0;
    }
    if (args[0] == "--version") {
        std::cout << "roofline-cli " << ROOFLINE_VERSION << '\n';
        return 0;
    }
    const std::string command = args[0];
    for (const cli::Command &c : cli::extraCommands()) {
        if (command == c.name)
            return c.run(std::vector<std::string>(args.begin() + 1, args.end()));
    }
    if (command != "evaluate" && command != "validate") {
        std::cerr << "roofline-cli: unknown command \"" << command << "\"\n\n" << kUsage;
        return kExitUsage;
    }

    std::string file;
    std::string format = "json";
    std::vector<std::string> overrides;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto needValue = [&](const char *option) -> const std::string * {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli: " << option << " needs a value\n";
                return nullptr;
            }
            return &args[++i];
        };
        if (a == "--set" || a.rfind("--set=", 0) == 0) {
            const std::string *v = a == "--set" ? needValue("--set") : nullptr;
            if (a == "--set" && !v)
                return kExitUsage;
            const std::string assignment = v ? *v : a.substr(6);
            if (assignment.find('=') == std::string::npos) {
                std::cerr << "roofline-cli: --set needs POINTER=VALUE, e.g. /soc/bpeak_gbps=30, got \"" << assignment
                          << "\"\n";
                return kExitUsage;
            }
            overrides.push_back(assignment);
        } else if (a == "--format") {
            const std::string *v = needValue("--format");
            if (!v)
                return kExitUsage;
            format = *v;
        } else if (a.rfind("--format=", 0) == 0) {
            format = a.substr(9);
        } else if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            for (const cli::Command &c : cli::extraCommands())
                std::cout << "\n" << c.usage;
            return 0;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            std::cerr << "roofline-cli: unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else if (file.empty()) {
            file = a;
        } else {
            std::cerr << "roofline-cli: only one file may be given, got \"" << file << "\" and \"" << a << "\"\n";
            return kExitUsage;
        }
    }
    if (file.empty()) {
        std::cerr << "roofline-cli: " << command << " needs a FILE\n";
        return kExitUsage;
    }
    if (format != "json" && format != "text") {
        std::cerr << "roofline-cli: --format must be json or text, got \"" << format << "\"\n";
        return kExitUsage;
    }

    gables::LoadResult loaded = file == "-" ? gables::parseSoc(std::string(std::istreambuf_iterator<char>(std::cin), {}),
                                                               "<stdin>")
                                            : gables::loadSocFile(file);
    printDiagnostics(loaded.diagnostics);
    if (!loaded.soc)
        return kExitInvalidInput;
    gables::Soc soc = *loaded.soc;

    Diagnostics overrideDiagnostics;
    overrideDiagnostics.setFile(file == "-" ? "<stdin>" : file);
    for (const std::string &o : overrides) {
        if (!gables::applyOverride(soc, o, overrideDiagnostics)) {
            printDiagnostics(overrideDiagnostics);
            return kExitInvalidInput;
        }
    }
    if (command == "validate") {
        std::cout << file << ": valid (" << soc.ips.size() << " IPs)\n";
        return 0;
    }

    const gables::Result result = gables::evaluate(soc);
    if (const auto bad = nonFinitePointer(gables::resultToJson(soc, result))) {
        std::cerr << "error: " << (file == "-" ? "<stdin>" : file) << ": the result " << *bad
                  << " is not a finite number: an input is too large or too small for the model to compute with\n";
        return kExitInvalidInput;
    }
    if (format == "text") {
        printText(soc, result);
    } else {
        nlohmann::json out = gables::resultToJson(soc, result);
        out["file"] = file;
        nlohmann::json warnings = nlohmann::json::array();
        for (const Diagnostic &d : loaded.diagnostics.warnings())
            warnings.push_back(d.toString());
        out["warnings"] = std::move(warnings);
        std::cout << out.dump(2) << '\n';
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    roofline::keepFreedMemory();
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::cerr << "roofline-cli: internal error: " << e.what() << '\n';
        return 3;
    }
}
