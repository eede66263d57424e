#include "lab.h"

#include "sampling.h"

#include "../io.h"
#include "common/atomicfile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace roofline::nnmeter::lab {

using network::Network;
using network::Shape;

namespace {

using Clock = std::chrono::steady_clock;

class Budget
{
public:
    explicit Budget(double seconds) : m_seconds(seconds), m_start(Clock::now()) {}
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }
    double total() const { return m_seconds; }
    double remaining() const { return m_seconds - elapsed(); }
    double fraction() const { return std::clamp(elapsed() / std::max(m_seconds, 1e-9), 0.0, 1.0); }

private:
    double m_seconds;
    Clock::time_point m_start;
};

RunOptions runOptions(bool quick, double onceMs = 0)
{
    RunOptions o;
    if (quick) {
        o.warmup = 1;
        o.repetitions = 3;
        o.minSampleMs = 0.02;
        o.maxInner = 20;
    } else if (onceMs > 20) {
        o.warmup = 1;
        o.repetitions = 5;
        o.minSampleMs = 0;
    } else {
        o.warmup = 3;
        o.repetitions = 11;
        o.minSampleMs = 0.3;
    }
    return o;
}

std::string fmt(double v, int digits = 3)
{
    return formatNumber(v, digits);
}

// Times the kernel of `kind` (or, with an empty kind, every kernel in turn) of a
// small network under `rules`.
struct Timed
{
    TimingStats stats;
    int kernel = -1;
    int primitives = 0;
    Detection detection;
    bool ok = false;
    std::string error;
};

// Samples of the learned predictors are timed cold: each run starts after 16 MB
// were written elsewhere (L2 is 1 MB per core here, L3 32 MB), about the state
// a kernel finds in the middle of a network; pair tests and calibration hot.
constexpr std::size_t kColdFlushBytes = 16u << 20;

// The primitives of a small network, built and ready to run (the kernel of
// `kind`, or with an empty kind every kernel in turn).
struct Prepared
{
    Detection detection;
    std::unique_ptr<NetworkRunner> runner;
    std::function<void()> run;
    int kernel = -1;
    int primitives = 0;
    std::string error; // empty when it runs
};

Prepared prepareNetwork(const Network &net, const FusionRules &rules, const std::string &kind,
                        const std::atomic<bool> *cancel)
{
    Prepared p;
    p.detection = detectKernels(net, rules);
    for (std::size_t k = 0; k < p.detection.kernels.size() && p.kernel < 0; ++k)
        if (kind.empty() || p.detection.kernels[k].kind == kind)
            p.kernel = int(k);
    if (p.kernel < 0) {
        p.error = "no \"" + kind + "\" kernel";
        return p;
    }
    p.runner = NetworkRunner::create(net, p.detection, p.error, cancel);
    if (!p.runner) {
        if (p.error.empty())
            p.error = "cancelled";
        return p;
    }
    NetworkRunner *runner = p.runner.get();
    if (kind.empty()) {
        p.run = [runner] { runner->runAll(); };
        for (std::size_t k = 0; k < runner->kernelCount(); ++k)
            p.primitives += runner->plan(k).primitives;
    } else {
        p.run = [runner, k = std::size_t(p.kernel)] { runner->runKernel(k); };
        p.primitives = runner->plan(std::size_t(p.kernel)).primitives;
    }
    if (p.primitives == 0)
        p.error = "oneDNN runs none of its operators";
    return p;
}

Timed timeNetwork(const Network &net, const FusionRules &rules, const std::string &kind, bool quick,
                  const std::atomic<bool> *cancel, bool cold = false)
{
    Timed t;
    Prepared p = prepareNetwork(net, rules, kind, cancel);
    t.detection = std::move(p.detection);
    t.kernel = p.kernel;
    t.primitives = p.primitives;
    t.error = p.error;
    if (!t.error.empty())
        return t;
    const std::function<void()> &run = p.run;
    const auto start = Clock::now();
    run();
    const double once = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    RunOptions o = runOptions(quick, once);
    if (cold && !quick) {
        // Cold runs vary more than hot ones (other processes' memory traffic): more of them.
        o.flushBytes = kColdFlushBytes;
        o.warmup = 1;
        o.repetitions = once > 20 ? 7 : 31;
    }
    t.stats = timeRepeated(run, o, cancel);
    t.ok = true;
    return t;
}

} // namespace

std::vector<Shape> pairTestShapes(bool quick)
{
    // C x H x W of the same conv cost (3x3, C -> C: 14.5 MFLOPs each), 2:1:4 in elements.
    if (quick)
        return {Shape{8, 8, 8, 1}, Shape{16, 4, 4, 1}, Shape{4, 12, 12, 1}};
    return {Shape{32, 28, 28, 1}, Shape{64, 14, 14, 1}, Shape{16, 56, 56, 1}};
}

namespace {

void addNoise(std::vector<double> &noise, const TimingStats &s)
{
    if (s.medianMs > 0)
        noise.push_back(s.relativeIqr());
}

double kindWeight(const std::string &kind)
{
    if (kind == "conv")
        return 3;
    if (kind == "dwconv")
        return 2;
    if (kind == "fc" || kind == "add" || kind == "concat" || kind == "matmul")
        return 1;
    return 0.5;
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string cpuModelName()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string m = line.substr(colon + 1);
                m.erase(0, m.find_first_not_of(' '));
                if (!m.empty())
                    return m;
            }
        }
    return "CPU";
}

std::optional<double> parseDuration(const std::string &text)
{
    if (text.empty())
        return std::nullopt;
    double scale = 1;
    std::string number = text;
    switch (text.back()) {
    case 's': number.pop_back(); break;
    case 'm': scale = 60, number.pop_back(); break;
    case 'h': scale = 3600, number.pop_back(); break;
    default: break;
    }
    try {
        std::size_t used = 0;
        const double v = std::stod(number, &used);
        if (used != number.size() || !(v > 0) || !std::isfinite(v) || v * scale > 7 * 24 * 3600.0)
            return std::nullopt;
        return v * scale;
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

LabResult runKernelLab(const LabOptions &opt, const LabControl &control)
{
    LabResult out;
    Budget budget(opt.budgetSeconds);
    setThreads(opt.threads);
    std::vector<double> noise;
    const std::string source = "kernel lab (roofline-cli kernel-lab), " + (opt.machine.empty() ? std::string("this machine") : opt.machine)
        + ", " + onednnVersion() + ", " + std::to_string(opt.threads) + (opt.threads == 1 ? " thread" : " threads")
        + (opt.date.empty() ? "" : ", " + opt.date);
    auto report = [&](const std::string &stage, const std::string &message) {
        if (control.progress)
            control.progress(LabProgress{stage, budget.fraction(), message});
    };
    const std::atomic<bool> *cancel = control.cancel;

    Device &dev = out.device;
    // Calibration, fusion rules and learned predictors: the device the networks are predicted on.
    auto buildDevice = [&] {
        // ---- calibration: peak compute, bandwidth, per-primitive overhead
        dev.name = "This machine: " + (opt.machine.empty() ? std::string("CPU") : opt.machine) + " (" + onednnVersion()
            + ", fp32, " + std::to_string(opt.threads) + (opt.threads == 1 ? " thread)" : " threads)");
        dev.description = "Measured by the kernel lab: fusion rules by seed eq. 1, peak, bandwidth and per-kind efficiency "
                          "from timed oneDNN primitives, random-forest predictors per kernel kind (docs/models/nnmeter.md).";
        dev.source = source;
        dev.bytesPerElement = 4;
        {
            const KernelConfig bigConv{"conv", opt.quick ? 8 : 28, opt.quick ? 16 : 256, opt.quick ? 16 : 256, 3, 1, 0};
            const KernelConfig bigAdd{"add", opt.quick ? 8 : 56, opt.quick ? 16 : 256, 0, 1, 1, opt.quick ? 16 : 256};
            const KernelConfig tiny{"relu", 1, 1, 0, 1, 1, 0};
            FusionRules convRules;
            convRules.pairs["conv_bn"].fuses = true;
            convRules.pairs["bn_relu"].fuses = true;
            const Network cn = configNetwork(bigConv), an = configNetwork(bigAdd), tn = configNetwork(tiny);
            const Timed c = timeNetwork(cn, convRules, "conv", opt.quick, cancel);
            const Timed a = timeNetwork(an, convRules, "add", opt.quick, cancel);
            const Timed t = timeNetwork(tn, convRules, "relu", opt.quick, cancel);
            dev.peakGflops = c.ok && c.stats.medianMs > 0 ? c.detection.kernels[std::size_t(c.kernel)].flops / c.stats.medianMs / 1e6 : 1;
            dev.bandwidthGBps = a.ok && a.stats.medianMs > 0 ? a.detection.kernels[std::size_t(a.kernel)].bytes / a.stats.medianMs / 1e6 : 1;
            dev.kernelOverheadUs = t.ok ? t.stats.medianMs * 1e3 : 0;
            for (const Timed *x : {&c, &a, &t})
                addNoise(noise, x->stats);
            report("calibration", "peak " + fmt(dev.peakGflops) + " GFLOP/s (3x3 conv), bandwidth " + fmt(dev.bandwidthGBps)
                                      + " GB/s (add), overhead " + fmt(dev.kernelOverheadUs) + " us per primitive");
        }

        // ---- 1. fusion rules (seed section 4, eq. 1), each pair on several shapes
        const std::vector<Shape> pairShapes = pairTestShapes(opt.quick);
        const std::vector<std::string> ops = opt.quick ? std::vector<std::string>{"conv", "relu", "add", "maxpool"}
                                                       : pairOperators();
        // T1, T2 and T12 of one pair on one input shape, timed interleaved (timeInterleaved: drift
    // of the machine's speed moves all three alike); nullopt and `error` when a part failed.
    auto testShape = [&](const std::string &first, const std::string &second, const Shape &shape,
                         std::string &error) -> std::optional<ShapeTest> {
        // A batch norm is tested where CNNs have it, after a convolution it is folded into
        // (a backend-independent rewrite, seed section 2): T1 is conv-bn, T12 conv-bn-op2.
        const bool bnFirst = first == "bn";
        const Network net = bnFirst ? chainNetwork({"conv", "bn", second}, shape) : pairNetwork(first, second, shape);
        FusionRules pairRules;
        pairRules.pairs[first + "_" + second].fuses = true;
        FusionRules convBn;
        if (bnFirst) {
            convBn.pairs["conv_bn"].fuses = true;
            pairRules.pairs["conv_bn"].fuses = true;
        }
        const Prepared p1 = bnFirst ? prepareNetwork(chainNetwork({"conv", "bn"}, shape), convBn, "", cancel)
                                    : prepareNetwork(operatorNetwork(first, shape), FusionRules{}, "", cancel);
        const Prepared p2 = prepareNetwork(operatorNetwork(second, net.layers[bnFirst ? 1 : 0].output), FusionRules{}, "", cancel);
        const Prepared p12 = prepareNetwork(net, pairRules, "", cancel);
        for (const Prepared *x : {&p12, &p1, &p2})
            if (!x->error.empty()) {
                error = x == &p12 ? x->error : "an operator alone failed: " + x->error;
                return std::nullopt;
            }
        const std::vector<TimingStats> times = timeInterleaved({p1.run, p2.run, p12.run}, runOptions(opt.quick), cancel);
        ShapeTest t;
        t.input = shape;
        t.t1 = times[0];
        t.t2 = times[1];
        t.t12 = times[2];
        t.primitives = p12.primitives;
        for (const TimingStats &x : times)
            addNoise(noise, x);
        decide(t, opt.alpha);
        return t;
    };
    const double rulesShare = opt.quick ? 0.5 : 0.25;
        int skippedPairs = 0, shapeTests = 0;
        for (std::size_t i = 0; i < ops.size() && !control.cancelled(); ++i) {
            for (std::size_t j = 0; j < ops.size() && !control.cancelled(); ++j) {
                if (budget.elapsed() > rulesShare * budget.total()) {
                    ++skippedPairs;
                    continue;
                }
                PairTiming p;
                p.first = ops[i];
                p.second = ops[j];
                std::string error;
                const int planned = int(pairShapes.size());
                for (const Shape &shape : pairShapes) {
                    // Once the shapes tested settle the majority, the rest cannot change it.
                    if (majoritySettled(p.shapesFused(), int(p.shapes.size()), planned) || control.cancelled()
                        || (!p.shapes.empty() && budget.elapsed() > rulesShare * budget.total()))
                        break;
                    if (auto t = testShape(p.first, p.second, shape, error))
                        p.shapes.push_back(std::move(*t));
                    else
                        break;
                }
                if (p.shapes.empty() || !error.empty()) {
                    if (!control.cancelled())
                        out.warnings.push_back("pair " + p.first + "-" + p.second + " not measured: " + error);
                    continue;
                }
                shapeTests += int(p.shapes.size());
                decideOverShapes(p, opt.alpha);
                std::string perShape;
                for (const ShapeTest &t : p.shapes)
                    perShape += (perShape.empty() ? "" : "; ") + t.input.toString() + " T1 " + fmt(t.t1.medianMs) + ", T2 "
                        + fmt(t.t2.medianMs) + ", T12 " + fmt(t.t12.medianMs) + " ms, " + std::to_string(t.primitives)
                        + " primitive" + (t.primitives == 1 ? "" : "s") + (t.fuses ? ": fuses" : t.noiseOnly ? ": eq. 1 by noise" : "");
                report("rules", "BF_" + p.first + "_" + p.second + ": " + (p.fuses ? "fuses" : "separate") + " ("
                                    + std::to_string(p.shapesFused()) + " of " + std::to_string(p.shapes.size())
                                    + " shapes fuse: " + perShape + ")");
                out.pairs.push_back(std::move(p));
            }
        }
        if (skippedPairs > 0)
            out.warnings.push_back(std::to_string(skippedPairs) + " operator pairs not measured (time budget): they do not fuse in the rule file");
        std::string shapeList;
        for (const Shape &shape : pairShapes)
            shapeList += (shapeList.empty() ? "" : ", ") + shape.toString();
        out.rules = rulesFromPairs(out.pairs, "onednn-cpu",
                                   "This machine's CPU as oneDNN runs it (fp32, NHWC, post-op fusion), measured by the "
                                   "kernel lab with seed eq. 1 (alpha " + fmt(opt.alpha) + ") on up to "
                                       + std::to_string(pairShapes.size()) + " input shapes per pair (" + shapeList
                                       + "), T1, T2 and T12 timed interleaved, the rule by majority of the shapes (" + std::to_string(shapeTests)
                                       + " shape tests)",
                                   source, opt.alpha);
        dev.rules = out.rules;

        // ---- 2. learned predictors (seed section 5): adaptive sampling per kind
        std::vector<const Network *> priorNets;
        for (const LabNetwork &n : opt.networks)
            priorNets.push_back(&n.network);
        const Prior prior = priorFromNetworks(priorNets, out.rules);
        const SamplingLimits limits{opt.quick ? 1e7 : 4e9, opt.quick};
        std::vector<std::string> kinds;
        for (const std::string &k : opt.kinds)
            if (isSampleKind(k) && std::find(kinds.begin(), kinds.end(), k) == kinds.end())
                kinds.push_back(k);
        // The end-to-end stage keeps ~15 % of the budget when there are networks.
        const double networkReserve = opt.networks.empty() ? 0.0 : (opt.quick ? 0.2 : 0.15) * budget.total();
        double weightLeft = 0;
        for (const std::string &k : kinds)
            weightLeft += kindWeight(k);
        const TrainOptions trainOptions = opt.quick ? TrainOptions{8, 4, 0.8, 0.8, 1, 1e-3, opt.seed, 1}
                                                    : TrainOptions{20, 6, 0.8, 0.8, 1, 1e-3, opt.seed, 1};
        for (const std::string &kind : opt.trainPredictors ? kinds : std::vector<std::string>{}) {
            if (control.cancelled())
                break;
            const double share = (budget.remaining() - networkReserve) * kindWeight(kind) / std::max(weightLeft, 1e-9);
            weightLeft -= kindWeight(kind);
            const double deadline = budget.elapsed() + std::max(share, 0.0);
            std::mt19937 rng(opt.seed * 7919u + unsigned(std::hash<std::string>{}(kind) & 0xffff));
            std::vector<Sample> samples;
            auto measure = [&](const KernelConfig &c, const std::string &set) -> bool {
                const Network net = configNetwork(c);
                const Timed t = timeNetwork(net, out.rules, kind, opt.quick, cancel, true);
                if (!t.ok) {
                    out.warnings.push_back(kind + " sample not measured: " + t.error);
                    return false;
                }
                const Kernel &k = t.detection.kernels[std::size_t(t.kernel)];
                Sample s{c, k.type, featureVector(net, k), k.flops, k.bytes, t.stats, set, 0, t.primitives};
                addNoise(noise, s.timing);
                samples.push_back(std::move(s));
                return true;
            };
            // Training samples are capped so the files stay small (and the time goes to repetitions).
            const int cap = opt.quick ? 1000 : kind == "conv" ? 1200 : kind == "dwconv" ? 800 : kind == "fc" ? 300 : 200;
            auto trainSamples = [&] {
                return int(std::count_if(samples.begin(), samples.end(), [](const Sample &x) { return x.set == "train"; }));
            };
            auto timeLeft = [&] { return budget.elapsed() < deadline && !control.cancelled() && trainSamples() < cap; };
            const int nHoldout = opt.quick ? 4 : 16, nTest = opt.quick ? 4 : 16, nInit = opt.quick ? 8 : 32;
            for (int i = 0; i < nHoldout && timeLeft(); ++i)
                measure(drawConfig(kind, prior, rng, limits), "holdout");
            for (int i = 0; i < nTest && timeLeft(); ++i)
                measure(drawConfig(kind, prior, rng, limits), "test");
            for (int i = 0; i < nInit && timeLeft(); ++i)
                measure(drawConfig(kind, prior, rng, limits), "train");
            KindResult kr;
            kr.kind = kind;
            auto rowsOf = [&](const std::string &set, std::vector<std::vector<double>> &x, std::vector<double> &y,
                              std::vector<std::size_t> *index = nullptr) {
                x.clear();
                y.clear();
                for (std::size_t i = 0; i < samples.size(); ++i)
                    if (set.empty() || samples[i].set == set) {
                        x.push_back(samples[i].features);
                        y.push_back(samples[i].timing.medianMs);
                        if (index)
                            index->push_back(i);
                    }
            };
            std::optional<Forest> forest;
            std::string trainError;
            auto fit = [&] {
                std::vector<std::vector<double>> x;
                std::vector<double> y;
                rowsOf("train", x, y);
                if (x.size() < 4) {
                    trainError = "only " + std::to_string(x.size()) + " training samples in its share of the budget";
                    forest.reset();
                    return;
                }
                TrainResult r = trainForest(kind, featureNames(kind), x, y, trainOptions);
                forest = std::move(r.forest);
                trainError = r.error;
            };
            fit();
            const int maxRounds = opt.quick ? 1 : 1000;
            while (forest && timeLeft() && kr.rounds < maxRounds) {
                // Test samples the forest misses by more than 10 % (seed 5.2: the predictor is
                // evaluated on the test set and sampled around its large errors).
                std::vector<const Sample *> bad;
                for (const Sample &s : samples) {
                    if (s.set != "test")
                        continue;
                    const auto p = forest->predictMs(s.features);
                    if (!p || std::abs(*p - s.timing.medianMs) > 0.10 * s.timing.medianMs)
                        bad.push_back(&s);
                }
                std::vector<KernelConfig> next;
                std::shuffle(bad.begin(), bad.end(), rng);
                const std::size_t around = opt.quick ? 2 : 6;
                for (std::size_t b = 0; b < bad.size() && b < around; ++b)
                    for (const KernelConfig &c : resampleAround(bad[b]->config, opt.quick ? 1 : 2, rng, limits))
                        next.push_back(c);
                for (int i = 0; i < (opt.quick ? 1 : 4); ++i) // and fresh draws from the prior, so coverage grows
                    next.push_back(drawConfig(kind, prior, rng, limits));
                ++kr.rounds;
                int measured = 0;
                for (const KernelConfig &c : next) {
                    if (!timeLeft())
                        break;
                    measured += measure(c, "train");
                }
                report("sampling", kind + ": round " + std::to_string(kr.rounds) + ", " + std::to_string(bad.size())
                                       + " samples off by > 10 %, " + std::to_string(measured) + " new, "
                                       + std::to_string(samples.size()) + " in all");
                fit();
            }
            if (!forest) {
                out.warnings.push_back(kind + ": no predictor (" + trainError + ")");
                out.samples.insert(out.samples.end(), samples.begin(), samples.end());
                continue;
            }
            // Efficiency of the kind on this machine: median of roofline time / measured time over
            // the training samples; the calibrated roofline is the baseline a forest must beat.
            std::vector<double> ratios;
            for (const Sample &s : samples) {
                const double roof = std::max(s.flops / (dev.peakGflops * 1e6), s.bytes / (dev.bandwidthGBps * 1e6));
                if (s.set == "train" && s.timing.medianMs > 0 && roof > 0)
                    ratios.push_back(roof / s.timing.medianMs);
            }
            if (!ratios.empty()) {
                const double e = std::clamp(quantile(ratios, 0.5), 1e-3, 1.0);
                dev.efficiency[kind] = Efficiency{e, e};
            }
            std::vector<double> tp, tm, hp, hm, ha;
            int trainCount = 0;
            for (Sample &s : samples) {
                s.predictedMs = forest->predictMs(s.features).value_or(0);
                trainCount += s.set == "train";
                if (s.set == "test")
                    tp.push_back(s.predictedMs), tm.push_back(s.timing.medianMs);
                else if (s.set == "holdout") {
                    hp.push_back(s.predictedMs), hm.push_back(s.timing.medianMs);
                    ha.push_back(analyticalMs(dev, kind, s.flops, s.bytes));
                }
            }
            kr.test = accuracy(tp, tm);
            kr.holdout = accuracy(hp, hm);
            kr.analyticalHoldout = accuracy(ha, hm);
            forest->samples = trainCount;
            forest->rmsePercent = kr.holdout.rmsePercent;
            forest->within10Percent = kr.holdout.within10;
            forest->source = source + "; " + std::to_string(kr.rounds) + " sampling rounds; accuracy on "
                + std::to_string(kr.holdout.count) + " held-out samples";
            kr.forest = *forest;
            // A forest is kept only where it predicts the held-out samples better than the
            // calibrated roofline; tiny kernels (µs) are mostly noise, and a forest of noise is worse.
            // (--quick keeps every forest: its few tiny samples judge nothing.)
            kr.kept = opt.quick || kr.holdout.rmsePercent < kr.analyticalHoldout.rmsePercent;
            if (kr.kept) {
                dev.predictors[kind] = std::make_shared<const Forest>(*forest);
                dev.predictorFiles[kind] = std::string("onednn_cpu/") + kind + ".forest.json";
            } else {
                out.warnings.push_back(kind + ": forest not kept, held-out RMSE " + fmt(kr.holdout.rmsePercent)
                                       + " % is not below the calibrated roofline's " + fmt(kr.analyticalHoldout.rmsePercent) + " %");
            }
            report("sampling", kind + ": " + std::to_string(trainCount) + " training samples, held-out within ±10 %: "
                                   + fmt(100 * kr.holdout.within10) + " % of " + std::to_string(kr.holdout.count)
                                   + ", RMSE " + fmt(kr.holdout.rmsePercent) + " % (roofline: "
                                   + fmt(100 * kr.analyticalHoldout.within10) + " %, RMSE "
                                   + fmt(kr.analyticalHoldout.rmsePercent) + " %)" + (kr.kept ? "" : ", forest not kept"));
            out.predictors[kind] = kr;
            out.samples.insert(out.samples.end(), samples.begin(), samples.end());
        }
        dev.rulesFile = "onednn_cpu.rules.json";
        // Kinds without samples (se, softmax, ...) take the median efficiency of the sampled ones
        // rather than 1, which would make their roofline a bound, not an estimate.
        if (!dev.efficiency.empty()) {
            std::vector<double> e;
            for (const auto &[kind, eff] : dev.efficiency)
                e.push_back(eff.compute);
            const double m = quantile(e, 0.5);
            dev.defaultEfficiency = Efficiency{m, m};
        }
    };
    if (opt.device) {
        // Networks only, against a device a full run wrote (its rules, peak and predictors).
        out.networksOnly = true;
        dev = *opt.device;
        out.rules = dev.rules;
    } else {
        buildDevice();
    }

    // ---- 3. end-to-end: each network's kernels in sequence
    Device analytical = dev;
    analytical.predictors.clear();
    analytical.predictorFiles.clear();
    for (const LabNetwork &n : opt.networks) {
        if (control.cancelled())
            break;
        NetworkResult r;
        r.name = n.name;
        const Detection detection = detectKernels(n.network, out.rules);
        std::string error;
        auto runner = NetworkRunner::create(n.network, detection, error, cancel);
        if (control.cancelled())
            break;
        if (!runner) {
            out.warnings.push_back(n.name + ": not measured: " + error);
            continue;
        }
        for (int layer : runner->skipped())
            r.skipped.push_back(n.network.layers[std::size_t(layer)].name);
        RunOptions o = runOptions(opt.quick);
        o.warmup = opt.quick ? 1 : 2;
        o.repetitions = opt.quick ? 3 : 15;
        const NetworkRunner::SequenceTiming t = runner->timeSequence(o, cancel);
        if (control.cancelled())
            break;
        r.measuredMs = t.kernelSumMs;
        r.whole = t.whole;
        for (const TimingStats &k : t.kernels)
            addNoise(noise, k);
        const Prediction p = predictNetwork(n.network, dev, out.rules);
        for (std::size_t k = 0; k < t.kernels.size() && k < detection.kernels.size(); ++k) {
            const Kernel &kernel = detection.kernels[k];
            KernelResult kr;
            kr.kernel = int(k);
            kr.type = kernel.type;
            kr.firstLayer = kernel.layers.empty() ? std::string() : n.network.layers[std::size_t(kernel.layers.front())].name;
            kr.operators = int(kernel.layers.size());
            kr.primitives = runner->plan(k).primitives;
            kr.measured = t.kernels[k];
            kr.predictedMs = k < p.kernels.size() ? p.kernels[k].ms : 0;
            r.kernelTimings.push_back(std::move(kr));
        }
        r.predictedMs = p.kernelSumMs;
        r.kernels = int(p.detection.kernels.size());
        r.learnedKernels = p.learnedKernels;
        r.analyticalMs = predictNetwork(n.network, analytical, out.rules).kernelSumMs;
        report("networks", n.name + ": measured " + fmt(r.measuredMs, 4) + " ms (whole runs: median "
                               + fmt(r.whole.medianMs, 4) + ", IQR " + fmt(r.whole.iqrMs, 2) + "), predicted "
                               + fmt(r.predictedMs, 4) + " ms (" + fmt(r.errorPercent(), 3) + " %)");
        out.networks.push_back(std::move(r));
    }

    out.cancelled = control.cancelled();
    out.medianRelativeIqr = quantile(noise, 0.5);
    out.maxRelativeIqr = noise.empty() ? 0 : *std::max_element(noise.begin(), noise.end());
    out.seconds = budget.elapsed();
    report("done", out.cancelled ? "cancelled" : "finished in " + fmt(out.seconds) + " s");
    return out;
}

std::string measurementsCsv(const LabResult &r)
{
    std::ostringstream s;
    s.precision(4);
    s << "stage,name,kind,type,set,hw,cin,cout,ks,stride,cin2,heads,transpose_b,mflops,kbytes,median_ms,iqr_ms,mad_ms,min_ms,reps,"
         "predicted_ms,primitives,note\n";
    auto timing = [&](const TimingStats &t) {
        s << t.medianMs << ',' << t.iqrMs << ',' << t.madMs << ',' << t.minMs << ',' << t.repetitions;
    };
    for (const PairTiming &p : r.pairs) {
        const std::string name = "BF_" + p.first + "_" + p.second;
        const std::string rule = p.fuses ? "fuses" : p.noiseOnly ? "separate (eq. 1 by noise, two primitives)" : "separate";
        // One row per timing and shape; a run without shapes (older) has the pair's own.
        std::vector<ShapeTest> tests = p.shapes;
        if (tests.empty())
            tests.push_back(ShapeTest{Shape{}, p.t1, p.t2, p.t12, p.primitives, p.fuses, p.noiseOnly});
        for (const ShapeTest &t : tests) {
            const std::string note = tests.size() == 1 && p.shapes.empty()
                ? rule
                : std::string(t.fuses ? "fuses" : t.noiseOnly ? "eq. 1 by noise" : "separate") + " on this shape; rule "
                    + rule + " (" + std::to_string(p.shapesFused()) + " of " + std::to_string(p.shapes.size()) + " shapes)";
            const std::pair<const char *, const TimingStats *> rows[] = {{"t1", &t.t1}, {"t2", &t.t2}, {"t12", &t.t12}};
            for (const auto &[what, x] : rows) {
                s << "pair," << name << ",," << what << ",,";
                if (t.input.c > 0)
                    s << t.input.h << ',' << t.input.c;
                else
                    s << ',';
                s << ",,,,,,,,,";
                timing(*x);
                s << ",," << (std::string(what) == "t12" ? std::to_string(t.primitives) : "") << ',' << csvField(note) << '\n';
            }
        }
    }
    for (const Sample &x : r.samples) {
        const KernelConfig &c = x.config;
        s << "sample,," << c.kind << ',' << x.kernelType << ',' << x.set << ',' << c.hw << ',' << c.cin << ','
          << c.cout << ',' << c.ks << ',' << c.stride << ',' << c.cin2 << ','
          << (c.kind == "matmul" ? std::to_string(c.heads) + (c.transposeB ? ",1" : ",0") : std::string(",")) << ','
          << x.flops / 1e6 << ',' << x.bytes / 1e3
          << ',';
        timing(x.timing);
        s << ',' << x.predictedMs << ',' << x.primitives << ",\n";
    }
    for (const NetworkResult &n : r.networks) {
        std::string note;
        for (const std::string &k : n.skipped)
            note += (note.empty() ? "not run: " : " ") + k;
        // median_ms: Σ per-kernel medians in the sequence; iqr, mad, min: of whole runs (see note)
        s << "network," << csvField(n.name) << ",,,,,,,,,,,,,," << n.measuredMs << ',' << n.whole.iqrMs << ','
          << n.whole.madMs << ',' << n.whole.minMs << ',' << n.whole.repetitions << ',' << n.predictedMs << ",,"
          << csvField("whole runs median " + formatNumber(n.whole.medianMs, 5) + " ms" + (note.empty() ? "" : "; " + note))
          << '\n';
    }
    return s.str();
}

namespace {

// The networks measured end to end, each with the name the measured files give it:
// a name once per device (the format's rule), a second network of the same file name numbered.
std::vector<std::pair<const NetworkResult *, std::string>> measuredNetworks(const LabResult &r)
{
    std::vector<std::pair<const NetworkResult *, std::string>> out;
    std::set<std::string> used;
    for (const NetworkResult &n : r.networks) {
        if (!(n.measuredMs > 0))
            continue;
        std::string name = n.name;
        for (int i = 2; used.count(name) > 0; ++i)
            name = n.name + " (" + std::to_string(i) + ")";
        used.insert(name);
        out.emplace_back(&n, name);
    }
    return out;
}

} // namespace

std::vector<MeasuredLatency> measuredLatencies(const LabResult &r)
{
    std::vector<MeasuredLatency> rows;
    for (const auto &[np, name] : measuredNetworks(r)) {
        const NetworkResult &n = *np;
        MeasuredLatency m;
        m.network = name;
        m.measuredMs = n.measuredMs;
        m.device = r.device.name;
        m.repetitions = n.whole.repetitions;
        m.noisePercent = n.whole.medianMs > 0 ? 100 * n.whole.relativeIqr() : -1;
        m.source = r.device.source + "; sum of per-kernel medians in the sequence, whole runs median "
            + formatNumber(n.whole.medianMs, 5) + " ms" + (n.skipped.empty() ? "" : "; " + std::to_string(n.skipped.size()) + " operator(s) not run");
        rows.push_back(std::move(m));
    }
    return rows;
}

std::string measuredCsv(const LabResult &r)
{
    return "# Measured by the kernel lab: each network's kernels run in sequence with oneDNN (docs/file-formats-nnmeter.md)\n"
        + serializeMeasuredLatencies(measuredLatencies(r));
}

std::vector<KernelLatency> kernelLatencies(const LabResult &r)
{
    std::vector<KernelLatency> rows;
    for (const auto &[n, name] : measuredNetworks(r))
        for (const KernelResult &k : n->kernelTimings) {
            KernelLatency row;
            row.network = name;
            row.kernel = k.kernel;
            row.type = k.type;
            // A layer without a name (never after import) is named by its kernel, so the row reads back.
            row.firstLayer = k.firstLayer.empty() ? "#" + std::to_string(k.kernel) : k.firstLayer;
            row.operators = std::max(k.operators, 1);
            row.primitives = k.primitives;
            row.measuredMs = k.measured.medianMs;
            row.iqrMs = k.measured.iqrMs;
            row.repetitions = k.measured.repetitions;
            row.predictedMs = k.predictedMs;
            rows.push_back(std::move(row));
        }
    return rows;
}

std::string kernelsCsv(const LabResult &r)
{
    return "# Measured by the kernel lab: each kernel timed where it runs in its network's sequence, median over the "
           "whole runs (docs/file-formats-nnmeter.md)\n"
        + serializeKernelLatencies(kernelLatencies(r));
}

std::map<std::string, std::string> labFiles(const LabResult &r, const std::string &prefix)
{
    std::map<std::string, std::string> files;
    if (r.networksOnly) {
        if (!measuredLatencies(r).empty()) {
            files[prefix + "/measured.csv"] = measuredCsv(r);
            files[prefix + "/kernels.csv"] = kernelsCsv(r);
            files[prefix + "/measurements.csv"] = measurementsCsv(r); // its network rows only
        }
        return files;
    }
    Device dev = r.device;
    dev.rulesFile = prefix + ".rules.json";
    for (auto &[kind, file] : dev.predictorFiles)
        file = prefix + "/" + kind + ".forest.json";
    files[dev.rulesFile] = serializeRules(r.rules);
    for (const auto &[kind, f] : dev.predictors)
        files[dev.predictorFiles[kind]] = serializeForest(*f);
    files[prefix + ".device.json"] = serializeDevice(dev);
    files[prefix + "/measurements.csv"] = measurementsCsv(r);
    if (!measuredLatencies(r).empty()) {
        files[prefix + "/measured.csv"] = measuredCsv(r);
        files[prefix + "/kernels.csv"] = kernelsCsv(r);
    }
    return files;
}

std::string writeLabFiles(const LabResult &r, const std::string &directory, const std::string &prefix)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(fs::path(directory) / prefix, ec);
    if (ec)
        return directory + ": cannot create the folder: " + ec.message();
    const auto files = labFiles(r, prefix);
    // One set: all written and synced before any replaces its predecessor, so
    // a full disk or a read-only folder leaves the previous run's files as a
    // whole. The device file names the others: it is renamed last.
    const std::string deviceName = prefix + ".device.json";
    std::vector<std::pair<std::string, std::string>> set;
    for (const auto &[name, text] : files)
        if (name != deviceName)
            set.emplace_back((fs::path(directory) / name).string(), text);
    if (const auto device = files.find(deviceName); device != files.end())
        set.emplace_back((fs::path(directory) / deviceName).string(), device->second);
    return roofline::writeFilesAtomically(set);
}

} // namespace roofline::nnmeter::lab
