// roofline-core-bench: throughput of the modelling core without Qt — the
// Verrocchio event simulation (instructions/s and resident memory), the
// sweeps of Gables and AMAIX (points/s by grid size), and a
// digest of its results that must not change when the simulator is made
// faster (bit-identical timings).
//
//   roofline-core-bench [--quick] [--only simulate|digest|timeline|sweep|export|import|nnmeter|lab] [--document]
//                       [--instructions N] [--cores C]
//
// A program, not a test: ctest runs it once with --quick so that it cannot rot.
// Under `valgrind --tool=callgrind` use one size, e.g. `--only simulate
// --instructions 100000 --iterations 3`: instruction counts do not depend on
// the machine's load, wall-clock times do.
#include "common/allocator.h"
#include "amaix/io.h"
#include "amaix/sweep.h"
#include "gables/io.h"
#include "network/import.h"
#include "onnxfill.h"
#include "residentmemory.h"
#include "gables/sweep.h"
#include "network/import.h"
#include "nnmeter/io.h"
#include "nnmeter/lab/lab.h"
#include "nnmeter/lab/sampling.h"
#include "verrocchio/io.h"
#include "verrocchio/layout.h"

#include <nlohmann/json.hpp>
#include "verrocchio/simulation.h"
#include "verrocchio/synthetic.h"
#include "../core/verrocchio/resultdigest.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#include <condition_variable>
#include <mutex>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <tuple>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using namespace roofline::verrocchio;

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Resident memory of this process in MB (10⁶ bytes; 0 where unknown).
double residentMB()
{
    const std::int64_t bytes = testutils::residentBytes();
    return bytes < 0 ? 0 : double(bytes) / 1e6;
}

// Heap bytes a trace and a result hold (capacities, not sizes).
double megabytes(const Trace &trace)
{
    std::size_t bytes = sizeof(Trace);
    for (const CoreProgram &c : trace.cores)
        bytes += c.instructions.capacity() * sizeof(Instruction) + c.name.capacity();
    for (const std::string &s : trace.names)
        bytes += sizeof(s) + s.capacity();
    bytes += trace.origins.heapBytes();
    return double(bytes) / 1e6;
}

double megabytes(const Result &r)
{
    std::size_t bytes = sizeof(Result);
    for (const CoreResult &c : r.cores)
        bytes += sizeof(CoreResult) + c.instructions.capacity() * sizeof(Timing);
    bytes += r.stalls.capacity() * sizeof(Stall) + r.contention.capacity() * sizeof(ContentionInterval)
        + r.shares.capacity() * sizeof(Share) + r.criticalPath.capacity() * sizeof(PathStep);
    return double(bytes) / 1e6;
}

struct Stats
{
    double median = 0, p90 = 0, min = 0;
    double p99 = 0;
};

Stats summarize(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 9 / 10)], v.front(),
            v[std::min(v.size() - 1, v.size() * 99 / 100)]};
}

void benchSimulate(std::size_t n, int cores, int iterations)
{
    const double before = residentMB();
    const Trace trace = syntheticVectorAdd(n, cores);
    const double withTrace = residentMB();
    const Machine machine = ascend310();
    std::vector<double> t;
    double withResult = 0, resultMB = 0;
    for (int i = 0; i < iterations; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const Result r = simulate(trace, machine);
        t.push_back(seconds(start));
        if (i == 0) {
            withResult = residentMB();
            resultMB = megabytes(r);
        }
        if (!r.ok())
            std::fprintf(stderr, "simulation failed: %s\n", r.error->message.c_str());
    }
    const Stats s = summarize(t);
    const double count = double(trace.instructionCount());
    std::printf("simulate %8.0f instructions, %d cores: median %8.3f ms  p90 %8.3f ms  min %8.3f ms  "
                "%6.1f M instructions/s (median)\n"
                "         held: trace %.1f MB, result %.1f MB; resident after the first run: +%.0f MB trace, +%.0f MB "
                "simulation (its peak, kept for the next run)\n",
                count, cores, s.median * 1e3, s.p90 * 1e3, s.min * 1e3, count / s.median / 1e6, megabytes(trace),
                resultMB, withTrace - before, withResult - withTrace);
    // The same with the trace's plan built once (what the timeline view, the
    // sensitivity and the goal seek do), and what building the plan costs.
    std::vector<double> planned, planning;
    for (int i = 0; i < iterations; ++i) {
        auto start = std::chrono::steady_clock::now();
        const SimulationPlan plan(trace);
        planning.push_back(seconds(start));
        start = std::chrono::steady_clock::now();
        const Result r = simulate(trace, plan, machine);
        planned.push_back(seconds(start));
    }
    const Stats p = summarize(planned), b = summarize(planning);
    std::printf("         with its plan built once: median %8.3f ms  p90 %8.3f ms  min %8.3f ms  %6.1f M instructions/s; "
                "the plan: median %7.3f ms\n",
                p.median * 1e3, p.p90 * 1e3, p.min * 1e3, count / p.median / 1e6, b.median * 1e3);
}

// Many machines × traces: half duplex and separate buses, with and without
// Init, skewed cores, a slow bus (contention everywhere), one to four cores.
void printDigests(bool quick)
{
    std::vector<std::pair<std::string, Machine>> machines = digestMachines();
    std::uint64_t all = 1469598103934665603ull;
    for (std::size_t n : {std::size_t(100), std::size_t(12345), quick ? std::size_t(20000) : std::size_t(300000)}) {
        for (int cores : {1, 2, 4}) {
            Trace trace = syntheticVectorAdd(n, cores);
            const SimulationPlan plan(trace);
            for (auto &[name, machine] : machines) {
                machine.coreCount = std::max(machine.coreCount, cores);
                const std::uint64_t h = digest(simulate(trace, machine));
                std::printf("digest %7zu instructions %d cores %-10s %016llx%s\n", n, cores, name.c_str(),
                            static_cast<unsigned long long>(h),
                            digest(simulate(trace, plan, machine)) == h ? "" : "  DIFFERS WITH A PLAN");
                all = (all ^ h) * 1099511628211ull;
            }
        }
    }
    // Random traces: many end in a deadlock or a flag error, which must stay as they were.
    const RandomTraceDigest random = digestRandomTraces(quick ? 50 : 2000);
    std::printf("digest random traces (%zu of them stopped on an error) %016llx\n", random.errors,
                static_cast<unsigned long long>(random.digest));
    std::printf("digest random traces simulated with a plan: %zu differ; with a recycled result too: %zu differ\n",
        random.planDiffers, random.recycledDiffers);
    // The shipped examples.
    for (const char *dir : {"/examples/verrocchio", "/tests/core/verrocchio/data"}) {
        std::vector<std::filesystem::path> files;
        for (const auto &f : std::filesystem::directory_iterator(std::string(ROOFLINE_SOURCE_DIR) + dir))
            files.push_back(f.path());
        std::sort(files.begin(), files.end());
        for (const auto &f : files) {
            if (f.extension() != ".txt" && (f.extension() != ".json" || f.filename() == "ascend310.json"))
                continue;
            const TraceLoadResult loaded = loadTraceFile(f.string());
            if (!loaded.trace)
                continue;
            for (auto &[name, machine] : machines) {
                Machine m = machine;
                m.coreCount = std::max<int>(m.coreCount, int(loaded.trace->cores.size()));
                std::printf("digest %-40s %-10s %016llx\n", f.filename().c_str(), name.c_str(),
                            static_cast<unsigned long long>(digest(simulate(*loaded.trace, m))));
            }
        }
    }
    std::printf("digest all %016llx\n", static_cast<unsigned long long>(all));
}

// The timeline view's worker per slider step, without Qt: simulate, the
// bars of the result (with and without the trace's BarsPlan) and its contention spans (alone, and at once on two
// threads as the view runs them), and the level-of-detail groups of the whole trace at
// 1200 px (what the first full picture draws).
void benchTimelineCore(std::size_t n, int iterations)
{
    const Trace trace = syntheticVectorAdd(n, 2);
    const SimulationPlan plan(trace); // the view builds it once per trace
    const BarsPlan barsPlan(trace);   // so too
    Machine machine = ascend310();
    std::vector<double> sim, bars, barsPlanned, spans, spansPlanned, bars2, groups;
    std::size_t drawn = 0;
    // The view's second thread: a worker kept waiting, as its QThreadPool keeps one.
    std::mutex mutex;
    std::condition_variable wake;
    std::function<void()> task;
    bool done = false, quit = false;
    std::thread helper([&] {
        std::unique_lock lock(mutex);
        for (;;) {
            wake.wait(lock, [&] { return quit || task; });
            if (quit)
                return;
            const std::function<void()> t = std::move(task);
            task = nullptr;
            lock.unlock();
            t();
            lock.lock();
            done = true;
            wake.notify_all();
        }
    });
    const auto runBoth = [&](const std::function<void()> &a, const std::function<void()> &b) {
        {
            std::lock_guard lock(mutex);
            task = b;
            done = false;
        }
        wake.notify_all();
        a();
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return done; });
    };
    for (int i = 0; i < iterations; ++i) {
        machine.busGBps = 30 + i % 20;
        auto start = std::chrono::steady_clock::now();
        const Result r = simulate(trace, plan, machine);
        sim.push_back(seconds(start));
        start = std::chrono::steady_clock::now();
        const TimelineBars b = timelineBars(trace, r);
        bars.push_back(seconds(start));
        start = std::chrono::steady_clock::now();
        const TimelineBars bp = timelineBars(trace, r, barsPlan);
        barsPlanned.push_back(seconds(start));
        if (!(bp == b))
            std::fprintf(stderr, "timelineBars with and without the trace's BarsPlan differ\n");
        start = std::chrono::steady_clock::now();
        const LaneContention c = laneContention(trace, r);
        spans.push_back(seconds(start));
        start = std::chrono::steady_clock::now();
        const LaneContention cp = laneContention(trace, r, &barsPlan);
        spansPlanned.push_back(seconds(start));
        if (!(cp == c))
            std::fprintf(stderr, "laneContention with and without the trace's BarsPlan differ\n");
        start = std::chrono::steady_clock::now();
        TimelineBars b2;
        LaneContention c2;
        runBoth([&] { b2 = timelineBars(trace, r); }, [&] { c2 = laneContention(trace, r); });
        bars2.push_back(seconds(start));
        if (!(b2 == b) || !(c2 == c))
            std::fprintf(stderr, "timelineBars and laneContention on two threads differ\n");
        start = std::chrono::steady_clock::now();
        drawn = mergeBars(b, 0, r.totalNs, r.totalNs / 1200).size();
        groups.push_back(seconds(start));
    }
    {
        std::lock_guard lock(mutex);
        quit = true;
    }
    wake.notify_all();
    helper.join();
    std::printf("timeline core %8zu instructions: simulate %7.2f ms, bars %7.2f ms (with the trace's BarsPlan %7.2f), "
                "contention spans %7.2f ms (with the BarsPlan %7.2f; bars and spans at once on two threads %7.2f ms), groups of the whole view %7.2f ms "
                "(%zu rectangles) — medians\n",
                trace.instructionCount(), summarize(sim).median * 1e3, summarize(bars).median * 1e3,
                summarize(barsPlanned).median * 1e3, summarize(spans).median * 1e3, summarize(spansPlanned).median * 1e3, summarize(bars2).median * 1e3, summarize(groups).median * 1e3, drawn);
}

// Peak resident memory since the last reset, in MB (Linux: VmHWM; writing
// 5 to clear_refs resets it).
double peakMB()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1e3;
    }
    return 0;
}

void resetPeak()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

// The exports of a 10⁶-instruction result: time, peak memory and size,
// streamed (plain and gzip) and, with --document, as the nlohmann document
// the Chrome Trace used to be built as.
void benchExports(std::size_t n, bool document)
{
    const Trace trace = syntheticVectorAdd(n, 2);
    const Machine machine = ascend310();
    const Result result = simulate(trace, machine);
    // Files of this run only: another bench (or ctest's other smoke test) may run at the same time.
    const std::string dir = std::filesystem::temp_directory_path().string() + "/roofline-core-bench-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const auto run = [&](const char *what, auto &&work, const std::string &path) {
        resetPeak();
        const double before = peakMB();
        const auto start = std::chrono::steady_clock::now();
        work();
        const double s = seconds(start);
        const double size = path.empty() ? 0 : double(std::filesystem::file_size(path)) / 1e6;
        std::printf("export %8zu instructions  %-34s %7.2f s  peak memory +%6.0f MB  file %7.1f MB\n",
                    trace.instructionCount(), what, s, peakMB() - before, size);
        if (!path.empty())
            std::filesystem::remove(path);
    };
    for (const auto &[what, kind, suffix] :
         {std::tuple{"Chrome Trace, streamed", ExportKind::ChromeTrace, ".json"},
          std::tuple{"Chrome Trace, streamed, gzip", ExportKind::ChromeTrace, ".json.gz"},
          std::tuple{"events CSV, streamed", ExportKind::EventsCsv, ".csv"},
          std::tuple{"events CSV, streamed, gzip", ExportKind::EventsCsv, ".csv.gz"},
          std::tuple{"events JSON, streamed", ExportKind::EventsJson, ".events.json"}}) {
        const std::string path = dir + "/roofline-core-bench-export" + suffix;
        run(what, [&, kind = kind] {
            const std::string error = exportToFile(path, kind, trace, machine, result);
            if (!error.empty())
                std::fprintf(stderr, "%s\n", error.c_str());
        }, path);
    }
    if (document) {
        const std::string path = dir + "/roofline-core-bench-export-document.json";
        run("Chrome Trace as one JSON document", [&] {
            std::ofstream(path) << chromeTrace(trace, machine, result).dump() << "\n";
        }, path);
        const std::string eventsPath = dir + "/roofline-core-bench-export-events-document.json";
        run("events JSON as one JSON document", [&] {
            std::ofstream(eventsPath) << eventsToJson(trace, machine, result).dump(1) << "\n";
        }, eventsPath);
    }
    std::filesystem::remove_all(dir);
}

// Sweep throughput on every hardware thread, per model and grid size: the
// points/s a `roofline-cli *-sweep` run or one shard of a cluster job gets.
void benchSweeps(bool quick)
{
    const std::string examples = std::string(ROOFLINE_SOURCE_DIR) + "/examples";
    const std::vector<std::size_t> sizes = quick ? std::vector<std::size_t>{100}
                                                 : std::vector<std::size_t>{100, 1000, 10000, 100000};
    const auto timed = [](auto &&run) {
        const auto start = std::chrono::steady_clock::now();
        const std::size_t points = run();
        return double(points) / seconds(start);
    };
    // Gables: the Fig. 6 SoC (2 IPs) and a 64-IP SoC, a 2-D grid of a fraction and Bpeak.
    roofline::gables::Soc big;
    big.ppeakGops = 50;
    big.bpeakGBps = 60;
    for (int i = 0; i < 64; ++i)
        big.ips.push_back(roofline::gables::Ip::make("IP" + std::to_string(i), 1 + (i % 7) * 3.5, 5 + (i % 5) * 4,
                                                     1.0 / 64, 0.25 * (1 + i % 9)));
    const auto fig6 = roofline::gables::loadSocFile(examples + "/gables/gables-fig6b.json");
    for (const auto &[name, soc] : {std::pair<const char *, roofline::gables::Soc>{"Fig. 6b, 2 IPs", *fig6.soc},
                                    std::pair<const char *, roofline::gables::Soc>{"64 IPs", big}}) {
        for (std::size_t n : sizes) {
            const std::size_t nx = std::max<std::size_t>(1, std::size_t(std::sqrt(double(n))));
            roofline::gables::SweepSpec spec;
            const std::string ip = soc.ips.size() > 2 ? "IP1" : "GPU";
            spec.axes.push_back({"/use_case/work/" + ip + "/fraction", {}});
            spec.axes.push_back({"/soc/bpeak_gbps", {}});
            for (std::size_t i = 0; i < nx; ++i)
                spec.axes[0].values.push_back(0.9 * double(i) / double(nx));
            for (std::size_t i = 0; i < n / nx; ++i)
                spec.axes[1].values.push_back(5 + double(i));
            roofline::Diagnostics diagnostics;
            const roofline::gables::Soc &s = soc; // clang 14 cannot capture a structured binding
            const double rate = timed([&] { return roofline::gables::runSweep(s, spec, diagnostics).points.size(); });
            std::printf("sweep gables %-16s %7zu points: %9.0f points/s (all hardware threads)\n", name, nx * (n / nx),
                        rate);
        }
    }
    // AMAIX: ResNet-50 on nv_full, DRAM bandwidth × clock, with and without divide and conquer.
    const auto net = roofline::amaix::loadNetworkFile(examples + "/amaix/resnet50.json");
    const auto acc = roofline::amaix::loadAcceleratorFile(examples + "/amaix/nv_full.json");
    for (bool refine : {false, true}) {
        for (std::size_t n : sizes) {
            if (n > 10000 && quick)
                continue;
            const std::size_t nx = std::max<std::size_t>(1, std::size_t(std::sqrt(double(n))));
            roofline::amaix::SweepSpec spec;
            spec.options.refine = refine;
            spec.axes.push_back({roofline::amaix::SweepAxis::Kind::Parameter, "/memories/DRAM/bandwidth_gbps", 0,
                                 roofline::amaix::logValues(4, 512, nx)});
            spec.axes.push_back({roofline::amaix::SweepAxis::Kind::Parameter, "/clock_ghz", 0,
                                 roofline::amaix::linearValues(0.5, 2, n / nx)});
            roofline::Diagnostics diagnostics;
            const double rate = timed([&] {
                return roofline::amaix::runSweep(*net.network, *acc.accelerator, spec, diagnostics).points.size();
            });
            std::printf("sweep amaix  ResNet-50%-7s %7zu points: %9.0f points/s (all hardware threads)\n",
                        refine ? ", refine" : "", nx * (n / nx), rate);
        }
    }
}

} // namespace

// nn-Meter kernel detection (issue 12): ResNet-50 (torchvision fixture, 175
// layers) under the mobile-CPU rules, and the whole prediction (detection and
// the analytical roofline of every kernel and operator), as a rule toggle redoes it.
void benchNnmeter(bool quick)
{
    using namespace roofline::nnmeter;
    const auto net = roofline::network::loadAnyNetworkFile(ROOFLINE_SOURCE_DIR "/tests/data/onnx/resnet50.onnx", {});
    const DeviceLoad dev = loadDeviceFile(ROOFLINE_SOURCE_DIR "/examples/nnmeter/cortexa76_tflite_cpu.device.json");
    if (!net.network || !dev.device) {
        std::fprintf(stderr, "nnmeter: cannot load the ResNet-50 fixture or the device\n");
        std::exit(1);
    }
    const int runs = quick ? 20 : 2000;
    std::vector<double> detect, predict;
    std::size_t kernels = 0;
    FusionRules rules = dev.device->rules;
    for (int i = 0; i < runs; ++i) {
        rules.pairs["bn_relu"].fuses = i % 2 == 0; // a rule toggle, as the view does
        auto start = std::chrono::steady_clock::now();
        kernels = detectKernels(*net.network, rules).kernels.size();
        detect.push_back(seconds(start));
        start = std::chrono::steady_clock::now();
        const Prediction p = predictNetwork(*net.network, *dev.device, rules);
        predict.push_back(seconds(start));
        if (!(p.kernelSumMs > 0))
            std::exit(1);
    }
    const Stats d = summarize(detect), p = summarize(predict);
    std::printf("nnmeter ResNet-50 (%zu layers, %zu kernels, %zu with BF_bn_relu off): detection median %.3f ms, p90 %.3f ms, p99 %.3f ms, "
                "min %.3f ms; detection + prediction median %.3f ms, p90 %.3f ms, p99 %.3f ms (%d runs)\n",
                net.network->layers.size(), std::size_t(72), kernels, d.median * 1e3, d.p90 * 1e3, d.p99 * 1e3,
                d.min * 1e3, p.median * 1e3, p.p90 * 1e3, p.p99 * 1e3, runs);
}

// The kernel lab's own costs (issue 12), on tiny kernels (HW <= 8, C <= 16,
// the lab's --quick shapes), so the figures are the lab's overheads rather than
// the kernels' arithmetic: per sampled kernel configuration the stages the lab
// runs for each measurement — build the configuration's network and detect its
// kernel, build its oneDNN primitives (JIT), time it as the lab does (warm-up,
// 11 samples of >= 0.3 ms, hot), then predict it with a forest of its kind —
// and one operator pair's fusion test on the three shapes (T1, T2, T12 each
// built and timed); then whole --quick lab runs end to end.
void benchLab(bool quick)
{
    using namespace roofline::nnmeter;
    using namespace roofline::nnmeter::lab;
    using roofline::network::Network;
    using roofline::network::Shape;
    setThreads(1);
    const int perKind = quick ? 2 : 30;
    std::mt19937 rng(7);
    const SamplingLimits limits{1e7, true};
    const Prior prior;
    RunOptions timing;
    timing.warmup = 3;
    timing.repetitions = 11;
    timing.minSampleMs = 0.3;
    std::vector<double> detect, build, measure, predict, total;
    FusionRules rules; // the units on and conv-bn-relu fused, as the lab's own rules have them
    for (const std::string &unit : unitNames())
        rules.units[unit] = true;
    for (const char *pair : {"conv_bn", "bn_relu", "dwconv_bn", "conv_relu", "conv_hsigmoid"})
        rules.pairs[pair].fuses = true;
    for (const std::string &kind : sampleKinds()) {
        std::vector<std::vector<double>> x;
        std::vector<double> y;
        std::vector<Network> nets;
        for (int i = 0; i < perKind; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const Network net = configNetwork(drawConfig(kind, prior, rng, limits));
            const Detection d = detectKernels(net, rules);
            detect.push_back(seconds(t0));
            const auto t1 = std::chrono::steady_clock::now();
            std::string error;
            auto runner = NetworkRunner::create(net, d, error);
            if (!runner) {
                std::fprintf(stderr, "lab: %s: %s\n", kind.c_str(), error.c_str());
                std::exit(1);
            }
            build.push_back(seconds(t1));
            const auto t2 = std::chrono::steady_clock::now();
            const TimingStats t = timeRepeated([&] { runner->runAll(); }, timing);
            measure.push_back(seconds(t2));
            total.push_back(seconds(t0));
            x.push_back(featureVector(net, d.kernels.front()));
            y.push_back(std::max(t.medianMs, 1e-6));
            nets.push_back(net);
        }
        // A forest of the kind on these samples, then the prediction of each (what the view does per kernel).
        const TrainResult fit = trainForest(kind, featureNames(kind), x, y, TrainOptions{20, 6, 0.8, 0.8, 1, 1e-3, 1, 1});
        if (!fit.forest) {
            std::fprintf(stderr, "lab: %s: %s\n", kind.c_str(), fit.error.c_str());
            std::exit(1);
        }
        Device device;
        device.peakGflops = 100;
        device.bandwidthGBps = 50;
        device.rules = rules;
        device.predictors[kind] = std::make_shared<const Forest>(*fit.forest);
        for (const Network &net : nets) {
            const auto t0 = std::chrono::steady_clock::now();
            const Prediction p = predictNetwork(net, device);
            predict.push_back(seconds(t0));
            if (p.learnedKernels != 1)
                std::exit(1);
        }
    }
    auto line = [](const char *what, const std::vector<double> &v, double scale, const char *unit) {
        const Stats st = ::summarize(v);
        std::printf("lab %-46s median %8.3f  p90 %8.3f  p99 %8.3f  min %8.3f %s (n=%zu)\n", what, st.median * scale,
                    st.p90 * scale, st.p99 * scale, st.min * scale, unit, v.size());
    };
    std::printf("lab: %d tiny configurations of each of %zu kinds, %s, 1 thread\n", perKind, sampleKinds().size(),
                onednnVersion().c_str());
    line("sample: network + kernel detection", detect, 1e6, "us");
    line("sample: oneDNN primitives built (JIT)", build, 1e3, "ms");
    line("sample: timed (3 warm-up, 11 x >= 0.3 ms)", measure, 1e3, "ms");
    line("sample: whole measurement", total, 1e3, "ms");
    line("predict: detection + forest (one kernel)", predict, 1e6, "us");
    std::printf("lab samples per second (whole measurement, median): %.0f\n", 1 / ::summarize(total).median);

    // One pair's fusion test on the lab's --quick shapes, as runKernelLab times it.
    std::vector<double> pairs;
    const std::vector<std::string> ops{"conv", "relu", "add", "maxpool"};
    for (const std::string &a : ops)
        for (const std::string &b : ops)
            for (const Shape &shape : pairTestShapes(true)) {
                const auto t0 = std::chrono::steady_clock::now();
                for (const Network &net : {operatorNetwork(a, shape), pairNetwork(a, b, shape)}) {
                    FusionRules r;
                    r.pairs[a + "_" + b].fuses = true;
                    std::string error;
                    auto runner = NetworkRunner::create(net, detectKernels(net, r), error);
                    if (!runner)
                        std::exit(1);
                    timeRepeated([&] { runner->runAll(); }, timing);
                }
                const Network second = operatorNetwork(b, pairNetwork(a, b, shape).layers[0].output);
                std::string error;
                auto runner = NetworkRunner::create(second, detectKernels(second, FusionRules{}), error);
                if (!runner)
                    std::exit(1);
                timeRepeated([&] { runner->runAll(); }, timing);
                pairs.push_back(seconds(t0));
            }
    line("fusion test: one pair on one shape (T1, T2, T12)", pairs, 1e3, "ms");

    // Whole --quick lab runs: calibration, 16 pairs on up to 3 shapes, two kinds, one network.
    std::vector<double> runs;
    std::size_t shapeTests = 0;
    for (int i = 0; i < (quick ? 1 : 5); ++i) {
        LabOptions o;
        o.quick = true;
        o.budgetSeconds = 30;
        o.kinds = {"conv", "add"};
        o.networks.push_back({"tiny", configNetwork({"conv", 8, 4, 8, 3, 1, 0})});
        const auto t0 = std::chrono::steady_clock::now();
        const LabResult r = runKernelLab(o);
        runs.push_back(seconds(t0));
        shapeTests = 0;
        for (const PairTiming &p : r.pairs)
            shapeTests += p.shapes.size();
        if (r.networks.size() != 1 || !(r.networks[0].measuredMs > 0))
            std::exit(1);
    }
    line("whole --quick run (16 pairs, conv + add, 1 net)", runs, 1, "s");
    std::printf("lab --quick fusion test: %zu shape tests for 16 pairs (at most 48; a pair stops once 2 shapes agree)\n", shapeTests);
}

// The network importers (issue 10): wall time of importOnnxFile /
// importCaffeFile (read, parse, check, fold, shape inference, map) for the
// fixtures, and for a large generated model: the ResNet-50 fixture with every
// stripped initializer filled with float32 zeros (25.6 M weights, ≈ 102 MB),
// written to a temporary file, as a user's exported model would be.
void benchImport(bool quick, int iterations)
{
    using namespace roofline::network;
    struct Case
    {
        std::string label;
        std::string path;
    };
    const std::string data = std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/";
    std::vector<Case> cases{{"ResNet-50 ONNX fixture (weights stripped)", data + "onnx/resnet50.onnx"},
                            {"ViT-B/16 ONNX fixture (weights stripped)", data + "onnx/vit_b_16.onnx"},
                            {"EdgeCaffe SoS prototxt", data + "edgecaffe/SoS.prototxt"}};
    const std::filesystem::path large
        = std::filesystem::temp_directory_path() / ("roofline-core-bench-" + std::to_string(getpid()) + "-resnet50-filled.onnx");
    {
        const auto t0 = std::chrono::steady_clock::now();
        const std::string bytes = filledOnnx(data + "onnx/resnet50.onnx");
        std::ofstream(large, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
        std::printf("import: generated %s, %.1f MB, in %.2f s\n", large.c_str(), double(bytes.size()) / 1e6, seconds(t0));
        cases.push_back({"ResNet-50 ONNX with weights inline (generated)", large.string()});
    }
    std::printf("%-50s %6s %10s %10s %10s %10s %8s\n", "import", "runs", "median ms", "p90 ms", "p99 ms", "min ms", "layers");
    for (const Case &c : cases) {
        const bool big = c.path == large.string();
        const int runs = iterations ? iterations : quick ? (big ? 1 : 3) : (big ? 15 : 60);
        std::vector<double> ms;
        std::size_t layers = 0;
        for (int i = 0; i < runs; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const NetworkLoad load = loadAnyNetworkFile(c.path);
            ms.push_back(seconds(t0) * 1e3);
            if (!load.network) {
                std::fprintf(stderr, "import: %s failed: %s\n", c.path.c_str(), load.diagnostics.toString().c_str());
                std::exit(1);
            }
            layers = load.network->layers.size();
        }
        std::sort(ms.begin(), ms.end());
        const auto at = [&](double q) { return ms[std::min(ms.size() - 1, std::size_t(q * double(ms.size())))]; };
        std::printf("%-50s %6d %10.2f %10.2f %10.2f %10.2f %8zu\n", c.label.c_str(), runs, ms[ms.size() / 2], at(0.9),
                    at(0.99), ms.front(), layers);
    }
    std::filesystem::remove(large);
}

int main(int argc, char **argv)
{
    roofline::keepFreedMemory();
    int iterations = 0; // 0: by size
    bool quick = false;
    int cores = 2;
    std::string only;
    bool document = false;
    std::vector<std::size_t> sizes{1000, 10000, 100000, 1000000};
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
            sizes = {1000, 10000};
        } else if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--instructions") == 0 && i + 1 < argc) {
            sizes = {std::size_t(std::clamp(std::atoll(argv[++i]), 1LL, 20'000'000LL))};
        } else if (std::strcmp(argv[i], "--cores") == 0 && i + 1 < argc) {
            cores = std::clamp(std::atoi(argv[++i]), 1, 64);
        } else if (std::strcmp(argv[i], "--document") == 0) {
            document = true;
        } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            std::fprintf(stderr, "usage: roofline-core-bench [--quick] [--only simulate|digest|timeline|sweep|export|import|nnmeter|lab] [--document] [--iterations N] "
                                 "[--instructions N] [--cores C]\n");
            return 2;
        }
    }
    const auto wanted = [&](const char *part) { return only.empty() || only == part; };
    if (wanted("simulate")) {
        for (std::size_t n : sizes) {
            const int runs = iterations ? iterations : int(std::clamp<std::size_t>(20'000'000 / n, 5, 400));
            benchSimulate(n, cores, quick ? std::min(runs, 5) : runs);
        }
    }
    if (wanted("digest"))
        printDigests(quick);
    if (wanted("timeline")) {
        for (std::size_t n : sizes)
            benchTimelineCore(n, iterations ? iterations : int(std::clamp<std::size_t>(10'000'000 / n, 5, 200)));
    }
    if (wanted("sweep"))
        benchSweeps(quick);
    if (wanted("export"))
        benchExports(quick ? 10000 : sizes.back(), document);
    if (wanted("import"))
        benchImport(quick, iterations);
    if (wanted("nnmeter"))
        benchNnmeter(quick);
    if (wanted("lab"))
        benchLab(quick);
    return 0;
}
