// The kernel lab (issue 12): measures this machine's CPU with oneDNN and
// produces what nn-Meter needs to predict on it —
//   1. fusion rules: every ordered pair of pairOperators() timed alone and as
//      a pair, decided by seed eq. 1 (fusiontest.h);
//   2. learned predictors: per kernel kind, adaptive sampling of kernel
//      configurations (sampling.h) and an XGBoost random forest on them
//      (train.h), with held-out accuracy;
//   3. end-to-end: each given network run kernel by kernel with oneDNN,
//      measured beside its prediction on the lab's own device;
// all within a time budget, with progress and cancel for a worker thread.
//
// runKernelLab() is plain C++ and blocking; call it from a worker thread and
// pass a LabControl: `progress` is called from that thread, `cancel` is
// polled between measurements (a cancelled run returns what it has, marked).
#pragma once

#include "fusiontest.h"
#include "kernelnets.h"
#include "runner.h"
#include "train.h"

#include "../measured.h"
#include "../predict.h"

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace roofline::nnmeter::lab {

struct LabNetwork
{
    std::string name; // shown in reports (the file name)
    network::Network network;
};

struct LabOptions
{
    double budgetSeconds = 600;
    std::vector<std::string> kinds = sampleKinds(); // kernel kinds to train
    bool quick = false;     // tiny shapes, few repetitions, small forests: for tests and smoke runs
    bool detectRules = true;
    bool trainPredictors = true;
    int threads = 1;        // oneDNN (OpenMP) threads
    double alpha = kSeedAlpha;
    unsigned seed = 1;
    std::vector<LabNetwork> networks; // sampling prior and end-to-end measurement
    std::string machine;  // "AMD EPYC, 2 cores" for the files' source fields
    std::string date;     // "2026-11-25"
};

struct LabProgress
{
    std::string stage;   // "rules", "sampling", "networks", "done"
    double fraction = 0; // of the whole run, 0..1 (by budget)
    std::string message; // one line: what was just measured
};

struct LabControl
{
    std::function<void(const LabProgress &)> progress;
    const std::atomic<bool> *cancel = nullptr;
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

struct Sample
{
    KernelConfig config;
    std::string kernelType;       // e.g. "conv-bn-relu"
    std::vector<double> features; // featureVector() of the kernel
    double flops = 0, bytes = 0;
    TimingStats timing;
    std::string set;              // "train", "test" (guides sampling), "holdout" (reported accuracy)
    double predictedMs = 0;       // by the final forest (0: none)
    int primitives = 0;           // oneDNN primitives the kernel ran as
};

struct KindResult
{
    std::string kind;
    Forest forest;
    int rounds = 0;            // adaptive sampling rounds
    Accuracy test, holdout;    // final forest on the guiding test set and on the held-out set
    Accuracy analyticalHoldout; // the calibrated roofline (device efficiency of the kind) on the held-out set
    bool kept = false;          // the forest beats the roofline on the held-out set: the device uses it
};

struct NetworkResult
{
    std::string name;
    double measuredMs = 0;     // Σ per-kernel medians, each kernel timed in the sequence (runner.h)
    TimingStats whole;         // whole runs end to end (includes waits for a shared CPU)
    double predictedMs = 0;    // nn-Meter kernel sum on the lab's device
    double analyticalMs = 0;   // the same with the analytical predictor only
    int kernels = 0, learnedKernels = 0;
    std::vector<std::string> skipped; // operators without a oneDNN primitive (not measured)
    double errorPercent() const { return measuredMs > 0 ? 100 * (predictedMs - measuredMs) / measuredMs : 0; }
};

struct LabResult
{
    FusionRules rules;
    std::vector<PairTiming> pairs;
    std::vector<Sample> samples;
    std::map<std::string, KindResult> predictors;
    Device device;                 // rules, measured peak and bandwidth, efficiencies, forests
    std::vector<NetworkResult> networks;
    double medianRelativeIqr = 0;  // the noise seen: median over every timing of IQR / median
    double maxRelativeIqr = 0;
    double seconds = 0;            // wall time of the run
    bool cancelled = false;
    std::vector<std::string> warnings;
};

LabResult runKernelLab(const LabOptions &options, const LabControl &control = {});

// The input shapes (C x H x W, batch 1) every operator pair is tested on, in
// order: the rule is the majority of them (fusiontest.h, decideOverShapes),
// and the test stops once the shapes tested settle it.
std::vector<network::Shape> pairTestShapes(bool quick);

// The files of a lab run, by path relative to the output folder:
// "<prefix>.rules.json", "<prefix>.device.json" and, in a folder of their own,
// "<prefix>/<kind>.forest.json", "<prefix>/measurements.csv" (everything the lab
// timed) and, when networks were run end to end, "<prefix>/measured.csv" (the
// view's measured-latency format, measuredCsv()) (contents, not written).
std::map<std::string, std::string> labFiles(const LabResult &result, const std::string &prefix = "onednn_cpu");
std::string measurementsCsv(const LabResult &result);
// The networks the lab ran end to end as measured latencies (core/nnmeter/measured.h):
// measured_ms is the sum of the per-kernel medians (NetworkResult::measuredMs),
// repetitions the whole runs, noise_percent their IQR as a share of their median,
// device the lab device's name. Empty rows when no network was run.
std::vector<MeasuredLatency> measuredLatencies(const LabResult &result);
std::string measuredCsv(const LabResult &result);
// Writes labFiles() into `directory` (created if missing), each through
// AtomicFile; "" or the first error ("PATH: why").
std::string writeLabFiles(const LabResult &result, const std::string &directory, const std::string &prefix = "onednn_cpu");

// The CPU's model name from /proc/cpuinfo ("AMD EPYC 7B13"), or "CPU".
std::string cpuModelName();

// Seconds from "90", "90s", "10m", "1h", "1.5m"; nullopt when not a positive duration.
std::optional<double> parseDuration(const std::string &text);

} // namespace roofline::nnmeter::lab
