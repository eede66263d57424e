// roofline-cli kernel-lab: measure this machine's CPU with oneDNN and write
// its nn-Meter files (fusion rules, device with learned predictors, the
// measurements) — issue 12; docs/models/nnmeter.md#the-kernel-lab.
//
//   roofline-cli kernel-lab --out DIR [--budget 10m] [--kernels conv,dwconv,...] [--quick]
//                [--networks FILE[,FILE...]]... [--threads N] [--seed N]
//
// Exit status: 0 success, 1 invalid input or a file that cannot be written,
// 2 wrong usage, 130 interrupted (Ctrl-C: nothing is written).
#include "commands.h"
#include "network/import.h"
#include "nnmeter/lab/lab.h"

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cli {

namespace {

using namespace roofline;
using namespace roofline::nnmeter;

const char *kUsage = R"(Usage: roofline-cli kernel-lab --out DIR [OPTIONS]
  Measure this machine's CPU with oneDNN (nn-Meter's kernel lab, seed 004):
  detect its fusion rules (every operator pair alone and fused, seed eq. 1),
  sample kernel configurations adaptively and train one XGBoost random forest
  per kernel kind, and run whole networks to compare prediction and measurement.
  Writes into DIR: onednn_cpu.rules.json, onednn_cpu.device.json and, in
  DIR/onednn_cpu/, <kind>.forest.json, measurements.csv (every timing) and
  measured.csv (the networks run end to end, in the format the studio's
  nn-Meter view compares with) (each atomically).
  --out DIR                folder for the files (created if missing)
  --budget DURATION        time for the whole run: 90s, 10m, 1h (default 10m)
  --kernels LIST           kernel kinds to train, comma-separated (default all:
                           conv,dwconv,fc,maxpool,avgpool,add,concat,relu,bn,hswish,gap,
                           se,swish,channelshuffle,split)
  --networks FILE[,FILE]   networks (JSON, ONNX, Caffe) for the sampling prior and
                           the end-to-end measurement (repeatable)
  --quick                  tiny shapes, few repetitions, small forests (tests, smoke runs)
  --threads N              oneDNN threads (default 1)
  --seed N                 random seed of the sampling and the forests (default 1)
Progress goes to stderr, a summary to stdout. Ctrl-C stops the run and writes nothing.
)";

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}

std::vector<std::string> splitList(const std::string &s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

std::string today()
{
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

std::string fileName(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

int runKernelLab(const std::vector<std::string> &args)
{
    lab::LabOptions opt;
    std::string out;
    std::vector<std::string> networkFiles;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto value = [&](std::string &v) {
            if (i + 1 >= args.size()) {
                std::cerr << "error: " << a << " needs a value\n" << kUsage;
                return false;
            }
            v = args[++i];
            return true;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return 0;
        } else if (a == "--out") {
            if (!value(out))
                return 2;
        } else if (a == "--budget") {
            if (!value(v))
                return 2;
            const auto s = lab::parseDuration(v);
            if (!s) {
                std::cerr << "error: --budget: \"" << v << "\" is not a duration (90s, 10m, 1h)\n";
                return 2;
            }
            opt.budgetSeconds = *s;
        } else if (a == "--kernels") {
            if (!value(v))
                return 2;
            opt.kinds = splitList(v);
            for (const std::string &k : opt.kinds)
                if (!lab::isSampleKind(k)) {
                    std::cerr << "error: --kernels: unknown kernel kind \"" << k
                              << "\" (known: conv, dwconv, fc, maxpool, avgpool, add, concat, relu, bn, hswish, gap, se, swish, channelshuffle, split)\n";
                    return 2;
                }
        } else if (a == "--networks") {
            if (!value(v))
                return 2;
            for (const std::string &f : splitList(v))
                networkFiles.push_back(f);
        } else if (a == "--quick") {
            opt.quick = true;
        } else if (a == "--threads" || a == "--seed") {
            if (!value(v))
                return 2;
            char *end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || n < (a == "--seed" ? 0 : 1) || n > (a == "--seed" ? 1L << 30 : 256)) {
                std::cerr << "error: " << a << ": \"" << v << "\" is not a valid number\n";
                return 2;
            }
            if (a == "--seed")
                opt.seed = unsigned(n);
            else
                opt.threads = int(n);
        } else {
            std::cerr << "error: unknown argument \"" << a << "\"\n" << kUsage;
            return 2;
        }
    }
    if (out.empty()) {
        std::cerr << "error: --out DIR is required\n" << kUsage;
        return 2;
    }
    for (const std::string &f : networkFiles) {
        network::NetworkLoad load = network::loadAnyNetworkFile(f);
        if (!load.network) {
            printDiagnostics(load.diagnostics);
            return 1;
        }
        opt.networks.push_back({fileName(f), std::move(*load.network)});
    }
    opt.machine = lab::cpuModelName();
    opt.date = today();

    g_interrupted.store(false);
    struct sigaction sa{};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    struct sigaction previous{};
    sigaction(SIGINT, &sa, &previous);
    lab::LabControl control;
    control.cancel = &g_interrupted;
    control.progress = [](const lab::LabProgress &p) {
        std::fprintf(stderr, "[%3d%%] %-11s %s\n", int(100 * p.fraction), p.stage.c_str(), p.message.c_str());
    };
    std::cerr << "kernel lab: " << opt.machine << ", budget " << formatNumber(opt.budgetSeconds, 4) << " s"
              << (opt.quick ? " (quick)" : "") << ", " << lab::onednnVersion() << "\n";
    const lab::LabResult r = lab::runKernelLab(opt, control);
    sigaction(SIGINT, &previous, nullptr);
    if (r.cancelled) {
        std::cerr << "interrupted: nothing written (the files in " << out << " are as they were)\n";
        return 130;
    }
    for (const std::string &w : r.warnings)
        std::cerr << "warning: " << w << "\n";
    if (const std::string e = lab::writeLabFiles(r, out); !e.empty()) {
        std::cerr << "error: " << e << "\n";
        return 1;
    }

    int fused = 0;
    for (const auto &p : r.pairs)
        fused += p.fuses;
    std::cout << "machine:      " << opt.machine << " (" << lab::onednnVersion() << ", " << opt.threads
              << (opt.threads == 1 ? " thread)\n" : " threads)\n")
              << "peak:         " << formatNumber(r.device.peakGflops, 4) << " GFLOP/s (3x3 convolution)\n"
              << "bandwidth:    " << formatNumber(r.device.bandwidthGBps, 4) << " GB/s (element-wise add)\n"
              << "overhead:     " << formatNumber(r.device.kernelOverheadUs, 3) << " us per primitive\n"
              << "fusion rules: " << fused << " of " << r.pairs.size() << " operator pairs fuse (seed eq. 1, alpha "
              << formatNumber(opt.alpha, 3) << ")\n"
              << "noise:        IQR/median " << formatNumber(100 * r.medianRelativeIqr, 3) << " % (median), "
              << formatNumber(100 * r.maxRelativeIqr, 3) << " % (worst) over every timing\n";
    for (const auto &[kind, k] : r.predictors)
        std::printf("predictor %-8s %4d samples, %3d rounds; held-out (%d): forest %5.1f %% within ±10 %%, RMSE %5.1f %%;"
                    " roofline %5.1f %%, RMSE %5.1f %%%s\n",
                    kind.c_str(), k.forest.samples, k.rounds, k.holdout.count, 100 * k.holdout.within10,
                    k.holdout.rmsePercent, 100 * k.analyticalHoldout.within10, k.analyticalHoldout.rmsePercent,
                    k.kept ? "" : "  (forest not kept)");
    int within = 0;
    for (const auto &n : r.networks) {
        within += std::abs(n.errorPercent()) <= 10;
        std::printf("network %-26s measured %9.3f ms  predicted %9.3f ms (%+6.1f %%)  analytical %9.3f ms  "
                    "whole runs %9.3f ms (IQR %.3f)%s\n",
                    n.name.c_str(), n.measuredMs, n.predictedMs, n.errorPercent(), n.analyticalMs, n.whole.medianMs,
                    n.whole.iqrMs, n.skipped.empty() ? "" : "  (some operators not run)");
    }
    if (!r.networks.empty())
        std::cout << "networks within ±10 %: " << within << " of " << r.networks.size() << "\n";
    std::cout << "written:      " << out << " (" << formatNumber(r.seconds, 4) << " s)\n";
    return 0;
}

} // namespace cli
