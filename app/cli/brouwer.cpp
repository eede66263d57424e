// roofline-cli brouwer / brouwer-fit: memory-constrained inference time (seed 002;
// docs/models/brouwer.md).
//
//   roofline-cli brouwer NETWORK DEVICE.json --memory 256MB [--bytes-per-element 4]
//                [--format json|csv|text]
//   roofline-cli brouwer-fit MEASURED.csv... --networks [NAME=]FILE[,...] --model fe|lasso
//                [--order K] [--pca] [--bootstrap B] [--lambda L] [--folds K] [--cv] --out DEVICE.json
//
// Exit status: 0 success, 1 invalid input, 2 wrong usage.
#include "brouwer/fit.h"
#include "brouwer/io.h"
#include "commands.h"
#include "common/jsonreader.h"
#include "network/import.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace cli {

namespace {

using namespace roofline;
using namespace roofline::brouwer;

const char *kUsage = R"(Usage: roofline-cli brouwer NETWORK DEVICE.json --memory SIZE [OPTIONS]
  Per-layer loading and execution time of a network under a memory limit
  (Brouwer, seed 002): required memory, overflow F, regime, times, totals.
  NETWORK is our JSON network, an ONNX model or a Caffe prototxt; DEVICE.json a
  brouwer device file (examples/brouwer/).
  --memory SIZE              available memory: 256MB, 1.5GiB, 4G, 268435456 (units of 1024)
  --bytes-per-element N      bytes of one element (default 4, fp32)
  --format text|json|csv     text (default): a table; json: layers and totals; csv: one row per layer
)";

const char *kFitUsage = R"(Usage: roofline-cli brouwer-fit MEASURED.csv... --networks LIST --model fe|lasso --out DEVICE.json
  Fit a brouwer device on measured per-layer times (EdgeCaffe's CSV or ours, see
  docs/file-formats-brouwer.md), in log space as seed 002 does.
  --networks [NAME=]FILE,...  the measured networks; a row's network name matches NAME,
                              the file's stem or the name inside it (repeatable)
  --model fe|lasso            feature engineering (OLS per category and regime) or
                              feature selection (LASSO over a polynomial expansion)
  --order K                   lasso: polynomial order 1..6 (default 3)
  --pca                       lasso: on the principal components (> 1 % of the variance)
  --lambda L                  lasso: fixed lambda (default: chosen by k-fold cross-validation)
  --folds K                   lasso: folds of the cross-validation (default 5)
  --bootstrap B               fe: bootstrap aggregating over B resamples (default 0: plain OLS)
  --log-base B                base of the logarithms (default 10); times are in ns
  --bytes-per-element N       bytes of one element (default 4)
  --name TEXT                 the device's name
  --cv                        also print leave-one-network-out cross-validation
  --out DEVICE.json           where to write the device (atomically)
)";

bool parseNumberOption(const std::string &option, const std::string &value, double min, double max, double &out)
{
    const auto v = parseFiniteNumber(value);
    if (!v || *v < min || *v > max) {
        std::cerr << "roofline-cli: " << option << " must be a number from " << formatNumber(min) << " to "
                  << formatNumber(max) << ", got \"" << value << "\"\n";
        return false;
    }
    out = *v;
    return true;
}

void printText(const std::string &networkName, const Device &device, const Params &params, const Result &r)
{
    std::printf("network: %s\ndevice:  %s (%s)\nmemory:  %s available, %s bytes per element\n\n",
                networkName.c_str(), device.name.c_str(),
                device.kind == ModelKind::FeatureEngineering ? "feature engineering" : "feature selection",
                formatBytes(params.availableBytes).c_str(), formatNumber(params.bytesPerElement).c_str());
    std::printf("%-24s %-6s %12s %14s %-9s %12s %12s\n", "layer", "cat", "required", "overflow F", "regime",
                "load (ms)", "exec (ms)");
    for (const LayerPrediction &l : r.layers) {
        const std::string name = l.name.size() > 24 ? l.name.substr(0, 21) + "..." : l.name;
        std::printf("%-24s %-6s %12s %14s %-9s %12s %12s%s\n", name.c_str(), categoryLabel(l.category),
                    formatBytes(l.requiredBytes).c_str(), formatNumber(l.overflow, 6).c_str(),
                    l.swapping() ? "swapping" : "standard", formatNumber(l.load.ms, 4).c_str(),
                    formatNumber(l.exec.ms, 4).c_str(), l.load.calibrated && l.exec.calibrated ? "" : "  *");
    }
    std::printf("\ntotal:      %s ms (load %s ms, exec %s ms)\n", formatNumber(r.totalMs(false), 5).c_str(),
                formatNumber(r.loadMs, 5).c_str(), formatNumber(r.execMs, 5).c_str());
    std::printf("smeared:    %s ms (with the fit's smearing correction)\n", formatNumber(r.totalMs(true), 5).c_str());
    std::printf("swapping:   %d of %zu layers\n", r.swappingLayers, r.layers.size());
    if (r.uncalibratedParts)
        std::printf("* %d parts use a fallback regime: the device has no calibration for them\n",
                    r.uncalibratedParts);
}

} // namespace

int runBrouwer(const std::vector<std::string> &args)
{
    std::vector<std::string> files;
    std::string format = "text";
    Params params;
    bool memoryGiven = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return 0;
        }
        if (a == "--memory" || a == "--format" || a == "--bytes-per-element") {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli brouwer: " << a << " needs a value\n";
                return kExitUsage;
            }
            const std::string &v = args[++i];
            if (a == "--format") {
                if (v != "text" && v != "json" && v != "csv") {
                    std::cerr << "roofline-cli brouwer: --format must be text, json or csv, got \"" << v << "\"\n";
                    return kExitUsage;
                }
                format = v;
            } else if (a == "--memory") {
                const auto bytes = parseMemorySize(v);
                if (!bytes) {
                    std::cerr << "roofline-cli brouwer: --memory must be a size such as 256MB, 1.5GiB or 4G, got \""
                              << v << "\"\n";
                    return kExitUsage;
                }
                params.availableBytes = *bytes;
                memoryGiven = true;
            } else if (!parseNumberOption("--bytes-per-element", v, 0.125, 64, params.bytesPerElement)) {
                return kExitUsage;
            }
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            std::cerr << "roofline-cli brouwer: unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else {
            files.push_back(a);
        }
    }
    if (files.size() != 2 || !memoryGiven) {
        std::cerr << "roofline-cli brouwer: needs NETWORK, DEVICE.json and --memory\n\n" << kUsage;
        return kExitUsage;
    }
    network::NetworkLoad net = network::loadAnyNetworkFile(files[0]);
    DeviceLoad dev = loadDeviceFile(files[1]);
    if (!net.network || !dev.device) {
        printDiagnostics(net.diagnostics);
        printDiagnostics(dev.diagnostics);
        return kExitInvalidInput;
    }
    for (const Diagnostic &d : net.diagnostics.warnings())
        std::cerr << d.toString() << '\n';
    const std::vector<LayerFeatures> layers = layerFeatures(*net.network);
    const Result r = evaluate(*dev.device, layers, params);
    if (format == "json")
        std::cout << resultToJson(net.network->name, *dev.device, params, r).dump(2) << '\n';
    else if (format == "csv")
        std::cout << resultToCsv(r);
    else
        printText(net.network->name, *dev.device, params, r);
    return 0;
}

int runBrouwerFit(const std::vector<std::string> &args)
{
    std::vector<std::string> measured, networkSpecs;
    std::string out, model, name;
    FitOptions options;
    double bytesPerElement = 4;
    bool crossValidate = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "-h" || a == "--help") {
            std::cout << kFitUsage;
            return 0;
        }
        if (a == "--pca") {
            options.pca = true;
            continue;
        }
        if (a == "--cv") {
            crossValidate = true;
            continue;
        }
        if (a == "--networks" || a == "--model" || a == "--order" || a == "--lambda" || a == "--folds"
            || a == "--bootstrap" || a == "--out" || a == "--name" || a == "--bytes-per-element"
            || a == "--log-base") {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli brouwer-fit: " << a << " needs a value\n";
                return kExitUsage;
            }
            const std::string &v = args[++i];
            double x = 0;
            if (a == "--networks") {
                std::size_t start = 0;
                while (start <= v.size()) {
                    const std::size_t comma = v.find(',', start);
                    const std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                    if (!item.empty())
                        networkSpecs.push_back(item);
                    if (comma == std::string::npos)
                        break;
                    start = comma + 1;
                }
            } else if (a == "--model") {
                if (v != "fe" && v != "lasso") {
                    std::cerr << "roofline-cli brouwer-fit: --model must be fe or lasso, got \"" << v << "\"\n";
                    return kExitUsage;
                }
                model = v;
            } else if (a == "--out") {
                out = v;
            } else if (a == "--name") {
                name = v;
            } else if (a == "--order") {
                if (!parseNumberOption(a, v, 1, 6, x) || x != double(int(x)))
                    return kExitUsage;
                options.order = int(x);
            } else if (a == "--folds") {
                if (!parseNumberOption(a, v, 2, 100, x))
                    return kExitUsage;
                options.folds = int(x);
            } else if (a == "--bootstrap") {
                if (!parseNumberOption(a, v, 0, 10000, x))
                    return kExitUsage;
                options.bootstrap = int(x);
            } else if (a == "--lambda") {
                if (!parseNumberOption(a, v, 0, 1e6, x))
                    return kExitUsage;
                options.lambda = x;
            } else if (a == "--log-base") {
                if (!parseNumberOption(a, v, 1.0001, 1e6, options.logBase))
                    return kExitUsage;
            } else if (!parseNumberOption(a, v, 0.125, 64, bytesPerElement)) {
                return kExitUsage;
            }
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "roofline-cli brouwer-fit: unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else {
            measured.push_back(a);
        }
    }
    if (measured.empty() || networkSpecs.empty() || model.empty() || out.empty()) {
        std::cerr << "roofline-cli brouwer-fit: needs MEASURED.csv, --networks, --model and --out\n\n" << kFitUsage;
        return kExitUsage;
    }
    options.kind = model == "fe" ? ModelKind::FeatureEngineering : ModelKind::FeatureSelection;

    bool failed = false;
    std::vector<MeasuredRow> rows;
    std::vector<std::string> measuredNames;
    for (const std::string &f : measured) {
        MeasuredLoad m = loadMeasuredFile(f);
        if (m.diagnostics.hasErrors()) {
            printDiagnostics(m.diagnostics);
            failed = true;
            continue;
        }
        rows.insert(rows.end(), m.rows.begin(), m.rows.end());
        measuredNames.push_back(f.substr(f.find_last_of('/') + 1));
    }
    std::vector<NamedNetwork> networks;
    for (const std::string &spec : networkSpecs) {
        const std::size_t eq = spec.find('=');
        const std::string file = eq == std::string::npos ? spec : spec.substr(eq + 1);
        network::NetworkLoad n = network::loadAnyNetworkFile(file);
        if (!n.network) {
            printDiagnostics(n.diagnostics);
            failed = true;
            continue;
        }
        NamedNetwork named;
        if (eq != std::string::npos)
            named.names.push_back(spec.substr(0, eq));
        std::string stem = file.substr(file.find_last_of('/') + 1);
        stem = stem.substr(0, stem.find('.'));
        named.names.push_back(stem);
        named.names.push_back(n.network->name);
        named.layers = layerFeatures(*n.network);
        networks.push_back(std::move(named));
    }
    if (failed)
        return kExitInvalidInput;
    Observations obs = buildObservations(rows, networks, bytesPerElement);
    for (const Diagnostic &d : obs.diagnostics.warnings())
        std::cerr << d.toString() << '\n';
    const auto start = std::chrono::steady_clock::now();
    FitOutcome fit = fitDevice(obs.items, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const Diagnostic &d : fit.diagnostics.warnings())
        std::cerr << d.toString() << '\n';
    if (!fit.device) {
        printDiagnostics(fit.diagnostics);
        return kExitInvalidInput;
    }
    Device &d = *fit.device;
    d.name = name.empty() ? "Fit on " + std::to_string(measured.size()) + " measurement files" : name;
    d.description = std::string(model == "fe" ? "Feature-engineering" : "Feature-selection")
        + " model fitted by roofline-cli brouwer-fit on " + std::to_string(obs.items.size()) + " observations.";
    d.source = "roofline-cli brouwer-fit";
    d.fit->measurements = measuredNames;
    Diagnostics saveDiags;
    if (!saveDeviceFile(d, out, saveDiags)) {
        printDiagnostics(saveDiags);
        return kExitInvalidInput;
    }
    std::printf("fitted %s on %d observations (%zu networks) in %s s\n", model.c_str(), d.fit->rows,
                networks.size(), formatNumber(seconds, 3).c_str());
    std::printf("training: MAPE %s %% (log space), %s %% (linear), R2 %s (log space)\n",
                formatNumber(d.fit->mapeLog, 4).c_str(), formatNumber(d.fit->mapeLinear, 4).c_str(),
                formatNumber(d.fit->r2Log, 4).c_str());
    if (crossValidate) {
        const CvReport cv = leaveOneNetworkOut(obs.items, options);
        std::printf("\nleave-one-network-out cross-validation:\n%-28s %6s %11s %11s %11s %8s %12s %12s %12s\n",
                    "held out", "rows", "MAPE log %", "MAPE lin %", "MAPE smr %", "R2 log", "measured ms",
                    "predicted ms", "smeared ms");
        for (const CvFold &f : cv.folds)
            std::printf("%-28s %6d %11s %11s %11s %8s %12s %12s %12s\n", f.heldOut.substr(0, 28).c_str(),
                        f.metrics.rows, formatNumber(f.metrics.mapeLog, 4).c_str(),
                        formatNumber(f.metrics.mapeLinear, 4).c_str(), formatNumber(f.metrics.mapeSmeared, 4).c_str(),
                        formatNumber(f.metrics.r2Log, 3).c_str(), formatNumber(f.measuredMs, 5).c_str(),
                        formatNumber(f.predictedMs, 5).c_str(), formatNumber(f.smearedMs, 5).c_str());
        std::printf("%-28s %6d %11s %11s %11s %8s\n", "pooled", cv.pooled.rows,
                    formatNumber(cv.pooled.mapeLog, 4).c_str(), formatNumber(cv.pooled.mapeLinear, 4).c_str(),
                    formatNumber(cv.pooled.mapeSmeared, 4).c_str(), formatNumber(cv.pooled.r2Log, 3).c_str());
    }
    std::printf("wrote %s\n", out.c_str());
    return 0;
}

} // namespace cli
