// roofline-cli nnmeter: nn-Meter kernel detection and kernel-level latency of
// a network on a device (seed 004; docs/models/nnmeter.md).
//
//   roofline-cli nnmeter NETWORK DEVICE [--format text|json] [--rule BF_A_B=on|off]...
//                [--unit NAME=on|off]... [--input-shape NAME=DIMS]...
//
// Exit status: 0 success, 1 invalid input, 2 wrong usage.
#include "commands.h"
#include "network/import.h"
#include "nnmeter/io.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace cli {

namespace {

using namespace roofline;
using namespace roofline::nnmeter;

const char *kUsage = R"(Usage: roofline-cli nnmeter NETWORK DEVICE [OPTIONS]
  Split a network into the kernels a backend runs (fusion rules, seed 004) and
  predict its latency kernel by kernel on a device; beside it, the sum over
  operators run one by one and a FLOPs-proportional estimate. NETWORK is our
  JSON network, an ONNX model or a Caffe prototxt; DEVICE a device file
  (examples/nnmeter/*.device.json) that names its fusion rules.
  --format text|json       text (default): a kernel table and totals; json: the same, complete
  --rule BF_A_B=on|off     turn one fusion rule on or off, e.g. BF_conv_bn=off (repeatable)
  --unit NAME=on|off       turn a fusion unit on or off: se, hswish, swish,
                           channel_shuffle, global_pool (repeatable)
  --input-shape NAME=DIMS  sizes of a symbolic input, e.g. input=1x3x224x224 (repeatable)
)";

std::string names(const network::Network &net, const Kernel &k)
{
    std::string out;
    for (int m : k.layers)
        out += (out.empty() ? "" : ",") + net.layers[std::size_t(m)].name;
    return out.size() > 40 ? out.substr(0, 37) + "..." : out;
}

bool onOff(const std::string &v, bool &out)
{
    if (v == "on" || v == "true" || v == "1")
        return out = true, true;
    if (v == "off" || v == "false" || v == "0")
        return out = false, true;
    return false;
}

const char *sourceName(Source s)
{
    return s == Source::Learned ? "learned" : "analytical";
}

void printText(const network::Network &net, const Device &dev, const FusionRules &rules, const Prediction &p)
{
    std::cout << "network: " << net.name << "\ndevice:  " << dev.name << " (rules: " << rules.backend << ")\n\n";
    std::printf("%4s  %-22s %-40s %-14s %-14s %10s %10s %10s %-10s\n", "#", "kernel", "layers", "input", "output",
                "MFLOPs", "KB moved", "ms", "predictor");
    for (std::size_t i = 0; i < p.detection.kernels.size(); ++i) {
        const Kernel &k = p.detection.kernels[i];
        const KernelPrediction &kp = p.kernels[i];
        std::printf("%4zu  %-22s %-40s %-14s %-14s %10s %10s %10s %-10s\n", i, k.type.substr(0, 22).c_str(),
                    names(net, k).c_str(), k.inputShape.toString().c_str(), k.outputShape.toString().c_str(),
                    formatNumber(k.flops / 1e6, 5).c_str(), formatNumber(k.bytes / 1024, 5).c_str(),
                    formatNumber(kp.ms, 4).c_str(), k.writesOutput ? sourceName(kp.source) : "-");
    }
    std::cout << '\n'
              << "operators:         " << p.detection.operators << " in " << p.detection.kernels.size() << " kernels\n"
              << "kernel sum:        " << formatNumber(p.kernelSumMs, 5) << " ms (nn-Meter; " << p.learnedKernels
              << " kernels from learned predictors)\n"
              << "operator sum:      " << formatNumber(p.operatorSumMs, 5) << " ms (every operator alone)\n"
              << "FLOPs estimate:    " << formatNumber(p.flopsMs, 5) << " ms (" << formatNumber(p.flops / 1e9, 5)
              << " GFLOPs at the conv efficiency)\n";
}

void printJson(const network::Network &net, const Device &dev, const FusionRules &rules, const Prediction &p)
{
    nlohmann::json kernels = nlohmann::json::array();
    for (std::size_t i = 0; i < p.detection.kernels.size(); ++i) {
        const Kernel &k = p.detection.kernels[i];
        const KernelPrediction &kp = p.kernels[i];
        nlohmann::json layers = nlohmann::json::array();
        for (int m : k.layers)
            layers.push_back(net.layers[std::size_t(m)].name);
        const auto names = featureNames(k.kind);
        const auto values = featureVector(net, k);
        nlohmann::json features = nlohmann::json::object();
        for (std::size_t f = 0; f < names.size() && f < values.size(); ++f)
            features[names[f]] = values[f];
        kernels.push_back({{"type", k.type},
                           {"kind", k.kind},
                           {"layers", layers},
                           {"input", {k.inputShape.n, k.inputShape.c, k.inputShape.h, k.inputShape.w}},
                           {"output", {k.outputShape.n, k.outputShape.c, k.outputShape.h, k.outputShape.w}},
                           {"flops", k.flops},
                           {"params", k.params},
                           {"bytes", k.bytes},
                           {"features", features},
                           {"ms", kp.ms},
                           {"analytical_ms", kp.analyticalMs},
                           {"predictor", k.writesOutput ? sourceName(kp.source) : "none"},
                           {"bound", kp.computeBound ? "compute" : "memory"}});
    }
    const nlohmann::json out = {{"network", net.name},
                                {"device", dev.name},
                                {"backend", rules.backend},
                                {"operators", p.detection.operators},
                                {"kernels", kernels},
                                {"totals",
                                 {{"kernel_sum_ms", p.kernelSumMs},
                                  {"operator_sum_ms", p.operatorSumMs},
                                  {"flops_estimate_ms", p.flopsMs},
                                  {"flops", p.flops},
                                  {"learned_kernels", p.learnedKernels}}}};
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace

int runNnmeter(const std::vector<std::string> &args)
{
    std::vector<std::string> files;
    std::string format = "text";
    std::vector<std::pair<std::string, bool>> ruleSets, unitSets;
    network::ImportOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return 0;
        }
        if (a == "--format" || a == "--rule" || a == "--unit" || a == "--input-shape") {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli nnmeter: " << a << " needs a value\n";
                return kExitUsage;
            }
            const std::string &v = args[++i];
            if (a == "--format") {
                if (v != "text" && v != "json") {
                    std::cerr << "roofline-cli nnmeter: --format must be text or json, got \"" << v << "\"\n";
                    return kExitUsage;
                }
                format = v;
            } else if (a == "--input-shape") {
                std::string error;
                if (!network::parseInputShapeOption(v, options, error)) {
                    std::cerr << "roofline-cli nnmeter: --input-shape: " << error << '\n';
                    return kExitUsage;
                }
            } else {
                const auto eq = v.find('=');
                bool on = false;
                if (eq == std::string::npos || !onOff(v.substr(eq + 1), on)) {
                    std::cerr << "roofline-cli nnmeter: " << a << " needs NAME=on|off, got \"" << v << "\"\n";
                    return kExitUsage;
                }
                (a == "--rule" ? ruleSets : unitSets).emplace_back(v.substr(0, eq), on);
            }
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "roofline-cli nnmeter: unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else {
            files.push_back(a);
        }
    }
    if (files.size() != 2) {
        std::cerr << "roofline-cli nnmeter: needs a NETWORK and a DEVICE file\n\n" << kUsage;
        return kExitUsage;
    }
    network::NetworkLoad loaded = network::loadAnyNetworkFile(files[0], options);
    if (!loaded.network) {
        printDiagnostics(loaded.diagnostics);
        return kExitInvalidInput;
    }
    for (const Diagnostic &d : loaded.diagnostics.warnings())
        std::cerr << "warning: " << d.toString() << '\n';
    DeviceLoad device = loadDeviceFile(files[1]);
    if (!device.device) {
        printDiagnostics(device.diagnostics);
        return kExitInvalidInput;
    }
    FusionRules rules = device.device->rules;
    for (const auto &[name, on] : ruleSets) {
        const auto sep = name.find('_', 3);
        const std::string a = sep == std::string::npos ? "" : name.substr(3, sep - 3);
        const std::string b = sep == std::string::npos ? "" : name.substr(sep + 1);
        if (name.rfind("BF_", 0) != 0 || !isOperatorName(a) || !isOperatorName(b)) {
            std::cerr << "roofline-cli nnmeter: --rule: \"" << name
                      << "\" is not BF_<op1>_<op2> with known operators (e.g. BF_conv_bn)\n";
            return kExitUsage;
        }
        rules.pairs[a + "_" + b].fuses = on;
    }
    for (const auto &[name, on] : unitSets) {
        const auto &u = unitNames();
        if (std::find(u.begin(), u.end(), name) == u.end()) {
            std::cerr << "roofline-cli nnmeter: --unit: unknown unit \"" << name
                      << "\" (se, hswish, swish, channel_shuffle, global_pool)\n";
            return kExitUsage;
        }
        rules.units[name] = on;
    }
    const Prediction p = predictNetwork(*loaded.network, *device.device, rules);
    if (format == "json")
        printJson(*loaded.network, *device.device, rules, p);
    else
        printText(*loaded.network, *device.device, rules, p);
    return 0;
}

} // namespace cli
