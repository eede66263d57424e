// The kernel lab (issue 12): timing statistics, the fusion test of seed 004
// eq. 1 on synthetic times, the lab's small networks and their features, the
// oneDNN runner on tiny kernels (a few ms in all), XGBoost's random forest on
// synthetic data and its dump evaluating equal to XGBoost's own prediction,
// adaptive resampling, and a whole quick lab run written to files that load.
// Nothing here is timed: measured values are only checked to exist.
#include "network/import.h"
#include "nnmeter/io.h"
#include "nnmeter/lab/lab.h"
#include "nnmeter/lab/sampling.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

using namespace roofline;
using namespace roofline::nnmeter;
using namespace roofline::nnmeter::lab;
using network::Network;
using network::Shape;

namespace {

FusionRules convChainRules()
{
    FusionRules r;
    r.backend = "test";
    r.pairs["conv_bn"].fuses = true;
    r.pairs["bn_relu"].fuses = true;
    r.pairs["dwconv_bn"].fuses = true;
    return r;
}

TimingStats at(double ms)
{
    TimingStats s;
    s.medianMs = ms;
    s.repetitions = 1;
    return s;
}

} // namespace

class TestNnmeterLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { setThreads(1); }

    void statistics()
    {
        const TimingStats s = summarize({3, 1, 100, 2, 4});
        QCOMPARE(s.medianMs, 3.0);
        QCOMPARE(s.iqrMs, 2.0);  // 4 - 2 (quartiles by linear interpolation)
        QCOMPARE(s.madMs, 1.0);  // |x - 3| = 0 1 1 2 97
        QCOMPARE(s.minMs, 1.0);
        QCOMPARE(s.repetitions, 5);
        QCOMPARE(quantile({1, 2}, 0.5), 1.5);
        QCOMPARE(summarize({}).medianMs, 0.0);
    }

    void fusionTest_data()
    {
        QTest::addColumn<double>("t1");
        QTest::addColumn<double>("t2");
        QTest::addColumn<double>("t12");
        QTest::addColumn<bool>("fuses");
        // Seed 7.1: conv 0.404 ms and conv-bn 0.404 ms on the GPU: bn costs nothing once fused.
        QTest::newRow("seed 7.1: conv-bn, bn free when fused") << 0.404 << 0.10 << 0.404 << true;
        QTest::newRow("run one after the other") << 0.404 << 0.10 << 0.504 << false;
        QTest::newRow("saves exactly alpha*min: not more") << 1.0 << 0.2 << 1.1 << false;
        QTest::newRow("saves just over alpha*min") << 1.0 << 0.2 << 1.0999 << true;
        QTest::newRow("cheap first operator") << 0.05 << 1.0 << 1.02 << true;
        QTest::newRow("fused but slower") << 0.3 << 0.3 << 0.7 << false;
    }
    void fusionTest()
    {
        QFETCH(double, t1);
        QFETCH(double, t2);
        QFETCH(double, t12);
        QFETCH(bool, fuses);
        QCOMPARE(fusesByTest(t1, t2, t12), fuses);
        QCOMPARE(fusesByTest(t1, t2, t12, 0.5), fuses);
    }

    void twoPrimitivesNeverFuse()
    {
        // T2 tiny beside T1: the noise of T1 alone satisfies eq. 1, but the pair ran as two primitives.
        PairTiming p{"fc", "relu", at(0.0350), at(0.0002), at(0.0347), 2, false, false, {}};
        decide(p);
        QVERIFY(!p.fuses);
        QVERIFY(p.noiseOnly);
        p.primitives = 1;
        decide(p);
        QVERIFY(p.fuses);
        QVERIFY(!p.noiseOnly);
    }

    // The test over several shapes: each decided alone, the rule by strict majority.
    void fusionTestOverShapes()
    {
        auto shape = [](double t1, double t2, double t12, int primitives) {
            return ShapeTest{Shape{8, 4, 4, 1}, at(t1), at(t2), at(t12), primitives, false, false};
        };
        PairTiming p;
        p.first = "conv";
        p.second = "add";
        p.shapes = {shape(0.05, 0.004, 0.0502, 1),  // saves 0.0038 > 0.002: fuses
                    shape(0.05, 0.004, 0.0535, 1),  // saves 0.0005: separate
                    shape(0.10, 0.008, 0.1005, 1)}; // fuses
        decideOverShapes(p);
        QVERIFY(p.shapes[0].fuses && !p.shapes[1].fuses && p.shapes[2].fuses);
        QCOMPARE(p.shapesFused(), 2);
        QVERIFY(p.fuses); // 2 of 3
        QCOMPARE(p.t12.medianMs, 0.0502); // the first shape's times
        p.shapes[2] = shape(0.10, 0.008, 0.107, 1);
        decideOverShapes(p);
        QVERIFY(!p.fuses); // 1 of 3
        p.shapes.pop_back();
        p.shapes[1] = shape(0.05, 0.004, 0.0502, 2); // eq. 1 holds, two primitives: noise
        decideOverShapes(p);
        QVERIFY(!p.fuses); // 1 of 2: a tie does not fuse
        QVERIFY(!p.noiseOnly); // only one of two held eq. 1 by noise
        // Settled: once the tested shapes decide the majority, the rest cannot change it.
        QVERIFY(!majoritySettled(0, 0, 3));
        QVERIFY(!majoritySettled(1, 1, 3));
        QVERIFY(!majoritySettled(1, 2, 3));
        QVERIFY(majoritySettled(2, 2, 3));
        QVERIFY(majoritySettled(0, 2, 3));
        QVERIFY(majoritySettled(1, 3, 3));
        QVERIFY(!majoritySettled(1, 2, 4));
        QVERIFY(majoritySettled(0, 2, 4)); // 2 separate of 4: at best a tie, which does not fuse
        // The rule file keeps how many shapes were tested and fused, and reads them back.
        p.shapes = {shape(0.05, 0.004, 0.0502, 1), shape(0.05, 0.004, 0.0535, 1), shape(0.10, 0.008, 0.1005, 1)};
        const FusionRules r = rulesFromPairs({p}, "onednn-cpu", "test", "synthetic");
        QVERIFY(r.fuses("conv", "add"));
        QCOMPARE(r.pairs.at("conv_add").shapesTested, 3);
        QCOMPARE(r.pairs.at("conv_add").shapesFused, 2);
        QCOMPARE(r.pairs.at("conv_add").t12Ms, 0.0502);
        const RulesLoad back = parseRules(serializeRules(r), "lab.rules.json");
        QVERIFY2(back.rules, back.diagnostics.toString().c_str());
        QVERIFY(*back.rules == r);
        const RulesLoad bad = parseRules(
            R"({"format": "roofline-studio/nnmeter-rules", "version": 1, "backend": "x", "fusions": {"BF_conv_add":
                {"fuses": true, "t1_ms": 1, "t2_ms": 1, "t12_ms": 1, "shapes_tested": 2, "shapes_fused": 3}}})",
            "bad.rules.json");
        QVERIFY(!bad.rules);
        QVERIFY2(bad.diagnostics.toString().find("/fusions/BF_conv_add/shapes_fused") != std::string::npos,
                 bad.diagnostics.toString().c_str());
    }

    void rulesFileFromPairs()
    {
        std::vector<PairTiming> pairs = {{"conv", "relu", at(0.412), at(0.061), at(0.415), 1, false, false, {}},
                                         {"conv", "add", at(0.412), at(0.080), at(0.490), 1, false, false, {}},
                                         {"relu", "conv", at(0.061), at(0.412), at(0.470), 2, false, false, {}}};
        const FusionRules r = rulesFromPairs(pairs, "onednn-cpu", "test", "synthetic");
        QCOMPARE(r.backend, std::string("onednn-cpu"));
        QVERIFY(r.fuses("conv", "relu"));
        QVERIFY(!r.fuses("conv", "add"));
        QVERIFY(!r.fuses("relu", "conv"));
        QVERIFY(!r.multiOutbound);
        QVERIFY(r.multiInbound);
        QVERIFY(r.unit("se"));
        QVERIFY(r.pairs.at("conv_relu").measured);
        QCOMPARE(r.pairs.at("conv_relu").t12Ms, 0.415);
        // What the lab writes, the core reads back unchanged.
        const RulesLoad back = parseRules(serializeRules(r), "lab.rules.json");
        QVERIFY2(back.rules, back.diagnostics.toString().c_str());
        QVERIFY(*back.rules == r);
    }

    void pairNetworks()
    {
        const Network n = pairNetwork("conv", "add", Shape{8, 6, 6, 1});
        QCOMPARE(n.layers.size(), std::size_t(2));
        QCOMPARE(n.inputs.size(), std::size_t(2)); // add's other operand is a second input
        QCOMPARE(n.layers[1].output, (Shape{8, 6, 6, 1}));
        const Network f = pairNetwork("fc", "relu", Shape{4, 3, 3, 1});
        QCOMPARE(f.layers[0].output, (Shape{4, 1, 1, 1}));
        FusionRules r;
        r.pairs["conv_add"].fuses = true;
        const Detection d = detectKernels(n, r);
        QCOMPARE(d.kernels.size(), std::size_t(1));
        QCOMPARE(d.kernels[0].type, std::string("conv-add"));
        for (const std::string &op : pairOperators())
            QCOMPARE(operatorNetwork(op, Shape{4, 5, 5, 1}).layers.size(), std::size_t(1));
        // swish is a pair operator: one x·sigmoid(x) layer, typed as the swish unit is, that a
        // convolution takes as a oneDNN post-op when BF_conv_swish holds.
        QCOMPARE(pairOperators().size(), std::size_t(15));
        const Network cs = pairNetwork("conv", "swish", Shape{8, 6, 6, 1});
        QCOMPARE(operatorType(cs, 1), std::string("swish"));
        FusionRules sw;
        sw.pairs["conv_swish"].fuses = true;
        const Detection ds = detectKernels(cs, sw);
        QCOMPARE(ds.kernels.size(), std::size_t(1));
        QCOMPARE(ds.kernels[0].type, std::string("conv-swish"));
        std::string error;
        auto runner = NetworkRunner::create(cs, ds, error);
        QVERIFY2(runner, error.c_str());
        QCOMPARE(runner->plan(0).primitives, 1);
        QCOMPARE(runner->plan(0).postOps, 1);
    }

    void configNetworksAndFeatures_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("hw");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("cout");
        QTest::addColumn<int>("ks");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("cin2");
        QTest::addColumn<QString>("type");
        QTest::newRow("conv-bn-relu 56x56 64->128 3x3/2") << "conv" << 56 << 64 << 128 << 3 << 2 << 0 << "conv-bn-relu";
        QTest::newRow("dwconv-bn-relu 28x28 96 5x5/1") << "dwconv" << 28 << 96 << 96 << 5 << 1 << 0 << "dwconv-bn-relu";
        QTest::newRow("fc 1280->1000") << "fc" << 1 << 1280 << 1000 << 1 << 1 << 0 << "fc";
        QTest::newRow("maxpool 112x112 64 3x3/2") << "maxpool" << 112 << 64 << 64 << 3 << 2 << 0 << "maxpool";
        QTest::newRow("avgpool 14x14 256 2x2/2") << "avgpool" << 14 << 256 << 256 << 2 << 2 << 0 << "avgpool";
        QTest::newRow("add 28x28 128") << "add" << 28 << 128 << 128 << 1 << 1 << 128 << "add";
        QTest::newRow("concat 14x14 64+32") << "concat" << 14 << 64 << 96 << 1 << 1 << 32 << "concat";
    }
    void configNetworksAndFeatures()
    {
        QFETCH(QString, kind);
        QFETCH(int, hw);
        QFETCH(int, cin);
        QFETCH(int, cout);
        QFETCH(int, ks);
        QFETCH(int, stride);
        QFETCH(int, cin2);
        QFETCH(QString, type);
        const KernelConfig c{kind.toStdString(), hw, cin, cout, ks, stride, cin2};
        const Network net = configNetwork(c);
        const Detection d = detectKernels(net, convChainRules());
        QCOMPARE(d.kernels.size(), std::size_t(1));
        const Kernel &k = d.kernels[0];
        QCOMPARE(QString::fromStdString(k.type), type);
        QCOMPARE(QString::fromStdString(k.kind), kind);
        // The lab reads back the configuration it built: features and samples agree.
        const auto back = configOfKernel(net, k);
        QVERIFY(back);
        QCOMPARE(back->hw, c.hw);
        QCOMPARE(back->cin, c.cin);
        if (kind == "conv" || kind == "fc" || kind == "dwconv") {
            QCOMPARE(back->cout, c.cout);
        }
        if (kind != "fc" && kind != "add" && kind != "concat") {
            QCOMPARE(back->ks, c.ks);
            QCOMPARE(back->stride, c.stride);
        }
        QCOMPARE(back->cin2, c.cin2);
        const std::vector<double> x = featureVector(net, k);
        QCOMPARE(x.size(), featureNames(k.kind).size());
        if (kind == "conv") {
            // HW CIN COUT KS S FLOPS PARAMS: 2·28²·128·64·9 MACs of the conv + 2 per bn element + relu.
            const double convFlops = 2.0 * 28 * 28 * 128 * 64 * 9, out = 28.0 * 28 * 128;
            QCOMPARE(x[0], 56.0);
            QCOMPARE(x[2], 128.0);
            QCOMPARE(x[5], (convFlops + 2 * out + out) / 1e6);
            QCOMPARE(configFlops(c), convFlops + 3 * out);
        }
    }

    // The fusion units are sampled too (their kernels otherwise fall back to a roofline
    // with a guessed efficiency): each configuration is one kernel of its unit, read back
    // as the same configuration, and runs with nothing skipped.
    void unitConfigurations_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("primitives");
        QTest::newRow("se") << "se" << 6 << 4;                         // gap, conv-relu, conv-hsigmoid, mul
        QTest::newRow("swish") << "swish" << 2 << 1;                   // sigmoid with the mul as a binary post-op
        QTest::newRow("channelshuffle") << "channelshuffle" << 3 << 1; // the transpose; the reshapes are views
        QTest::newRow("split") << "split" << 1 << 1;                   // a copy of half the channels
    }
    void unitConfigurations()
    {
        QFETCH(QString, kind);
        QFETCH(int, layers);
        QFETCH(int, primitives);
        QVERIFY(isSampleKind(kind.toStdString()));
        FusionRules rules = convChainRules();
        for (const std::string &unit : unitNames())
            rules.units[unit] = true;
        rules.pairs["conv_relu"].fuses = true;
        rules.pairs["conv_hsigmoid"].fuses = true;
        const KernelConfig c{kind.toStdString(), 14, 96, 0, 1, 1, 0};
        const Network net = configNetwork(c);
        QCOMPARE(int(net.layers.size()), layers);
        const Detection d = detectKernels(net, rules);
        QCOMPARE(d.kernels.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(d.kernels[0].kind), kind);
        const auto back = configOfKernel(net, d.kernels[0]);
        QVERIFY(back);
        QCOMPARE(back->hw, 14);
        QCOMPARE(back->cin, 96);
        QCOMPARE(featureVector(net, d.kernels[0]).size(), featureNames(kind.toStdString()).size());
        std::string error;
        auto runner = NetworkRunner::create(net, d, error);
        QVERIFY2(runner, error.c_str());
        QVERIFY(runner->skipped().empty());
        QCOMPARE(runner->plan(0).primitives, primitives);
        runner->runAll();
        if (kind == "swish") { // one swish eltwise: x · sigmoid(x)
            const std::vector<float> x = runner->values(-1), y = runner->values(1);
            for (std::size_t i = 0; i < x.size(); ++i)
                QVERIFY(std::abs(y[i] - x[i] / (1 + std::exp(-double(x[i])))) < 1e-5);
            // After a convolution it fuses as a post-op when the rules fuse the pair.
            Network fused = chainNetwork({"conv"}, Shape{16, 6, 6, 1});
            network::Layer sig;
            sig.name = "sigmoid";
            sig.type = network::LayerType::Activation;
            sig.function = "sigmoid";
            sig.inputs = {0};
            fused.layers.push_back(sig);
            network::Layer mul;
            mul.name = "mul";
            mul.type = network::LayerType::EltwiseMul;
            mul.inputs = {0, 1};
            fused.layers.push_back(mul);
            Diagnostics diag;
            QVERIFY2(network::inferShapes(fused, diag), diag.toString().c_str());
            rules.pairs["conv_swish"].fuses = true;
            const Detection fd = detectKernels(fused, rules);
            QCOMPARE(fd.kernels.size(), std::size_t(1));
            QCOMPARE(fd.kernels[0].type, std::string("conv-swish"));
            auto fr = NetworkRunner::create(fused, fd, error);
            QVERIFY2(fr, error.c_str());
            QCOMPARE(fr->plan(0).primitives, 1);
            QCOMPARE(fr->plan(0).postOps, 1);
            fr->runAll(); // (the convolution's own output is never written: the post-op writes the multiply's)
        }
    }

    void runnerFusesAConvChainIntoOnePrimitive()
    {
        const Network net = configNetwork({"conv", 8, 8, 8, 3, 1, 0});
        const Detection d = detectKernels(net, convChainRules());
        std::string error;
        auto runner = NetworkRunner::create(net, d, error);
        QVERIFY2(runner, error.c_str());
        QCOMPARE(runner->kernelCount(), std::size_t(1));
        QCOMPARE(runner->plan(0).primitives, 1); // bn folded, relu an eltwise post-op
        QCOMPARE(runner->plan(0).postOps, 2);
        QVERIFY(runner->skipped().empty());
        const TimingStats t = runner->timeKernel(0, RunOptions{1, 3, 0.0, 1});
        QCOMPARE(t.repetitions, 3);
        QVERIFY(t.medianMs > 0);
        QVERIFY(t.iqrMs >= 0);
    }

    void runnerRunsUnfusedChainsAsSeveralPrimitives()
    {
        // Under no rules every operator is a kernel of its own.
        const Network net = configNetwork({"conv", 6, 4, 4, 3, 1, 0});
        const Detection d = detectKernels(net, FusionRules{});
        QCOMPARE(d.kernels.size(), std::size_t(3));
        std::string error;
        auto runner = NetworkRunner::create(net, d, error);
        QVERIFY2(runner, error.c_str());
        for (std::size_t k = 0; k < 3; ++k)
            QCOMPARE(runner->plan(k).primitives, 1);
        runner->runAll();
        // A pair the rules fuse but oneDNN cannot (pooling then a convolution): one kernel, two primitives.
        const Network pc = pairNetwork("maxpool", "conv", Shape{4, 6, 6, 1});
        FusionRules r;
        r.pairs["maxpool_conv"].fuses = true;
        const Detection dp = detectKernels(pc, r);
        QCOMPARE(dp.kernels.size(), std::size_t(1));
        auto pr = NetworkRunner::create(pc, dp, error);
        QVERIFY(pr);
        QCOMPARE(pr->plan(0).primitives, 2);
        QCOMPARE(pr->plan(0).postOps, 0);
    }

    void runnerRunsEveryPairOperator()
    {
        for (const std::string &op : pairOperators()) {
            const Network net = operatorNetwork(op, Shape{4, 5, 5, 1});
            std::string error;
            auto runner = NetworkRunner::create(net, detectKernels(net, FusionRules{}), error);
            QVERIFY2(runner, (op + ": " + error).c_str());
            QVERIFY2(runner->plan(0).primitives == 1, op.c_str());
            runner->runAll();
        }
    }

    void runnerSkipsWhatOneDnnCannotRun()
    {
        Network net;
        net.inputs.push_back({"a", Shape{4, 1, 3, 1}});
        network::Layer m;
        m.name = "custom";
        m.type = network::LayerType::Other;
        m.op = "MyCustomOp";
        m.inputs = {-1};
        m.statedOutput = Shape{4, 1, 3, 1};
        net.layers.push_back(m);
        network::Layer r;
        r.name = "relu";
        r.type = network::LayerType::Activation;
        r.inputs = {0};
        net.layers.push_back(r);
        Diagnostics diag;
        QVERIFY2(network::inferShapes(net, diag), diag.toString().c_str());
        std::string error;
        auto runner = NetworkRunner::create(net, detectKernels(net, FusionRules{}), error);
        QVERIFY(runner);
        QCOMPARE(runner->skipped(), std::vector<int>{0});
        runner->runAll(); // the relu still runs
    }

    // Attention's two products (network.h's matmul: `heads` products side by side
    // in C) run as one oneDNN matmul each, reading their operands in place: the
    // values equal the definition, Q·Kᵀ per head, then P·V with transpose_b.
    void runnerComputesMatmulAsDefined()
    {
        const int heads = 2, tokens = 6, hidden = 8, dh = hidden / heads; // 6 positions as 2x3
        Network net;
        net.inputs.push_back({"q", Shape{hidden, 2, 3, 1}});
        net.inputs.push_back({"k", Shape{hidden, 2, 3, 1}});
        net.inputs.push_back({"v", Shape{hidden, 2, 3, 1}});
        network::Layer scores;
        scores.name = "scores";
        scores.type = network::LayerType::MatMul;
        scores.inputs = {-1, -2};
        scores.heads = heads;
        net.layers.push_back(scores);
        network::Layer context;
        context.name = "context";
        context.type = network::LayerType::MatMul;
        context.inputs = {0, -3};
        context.heads = heads;
        context.transposeB = true;
        net.layers.push_back(context);
        network::Layer norm;
        norm.name = "norm";
        norm.type = network::LayerType::LayerNorm;
        norm.inputs = {1};
        net.layers.push_back(norm);
        Diagnostics diag;
        QVERIFY2(network::inferShapes(net, diag), diag.toString().c_str());
        QCOMPARE(net.layers[0].output.c, std::int64_t(heads * tokens));
        QCOMPARE(net.layers[1].output.c, std::int64_t(hidden));
        std::string error;
        auto runner = NetworkRunner::create(net, detectKernels(net, FusionRules{}), error);
        QVERIFY2(runner, error.c_str());
        QVERIFY(runner->skipped().empty());
        QCOMPARE(runner->plan(0).primitives, 1);
        runner->runAll();
        const std::vector<float> q = runner->values(-1), k = runner->values(-2), v = runner->values(-3);
        const std::vector<float> sc = runner->values(0), ctx = runner->values(1), ln = runner->values(2);
        QCOMPARE(sc.size(), std::size_t(tokens * heads * tokens));
        // NHWC, batch 1: element (position p, channel c) at p·C + c.
        for (int h = 0; h < heads; ++h)
            for (int p = 0; p < tokens; ++p)
                for (int j = 0; j < tokens; ++j) {
                    double want = 0;
                    for (int i = 0; i < dh; ++i)
                        want += double(q[std::size_t(p * hidden + h * dh + i)]) * k[std::size_t(j * hidden + h * dh + i)];
                    QVERIFY(std::abs(sc[std::size_t(p * heads * tokens + h * tokens + j)] - want) < 1e-5);
                }
        for (int h = 0; h < heads; ++h)
            for (int p = 0; p < tokens; ++p)
                for (int j = 0; j < dh; ++j) {
                    double want = 0;
                    for (int t = 0; t < tokens; ++t)
                        want += double(sc[std::size_t(p * heads * tokens + h * tokens + t)]) * v[std::size_t(t * hidden + h * dh + j)];
                    QVERIFY(std::abs(ctx[std::size_t(p * hidden + h * dh + j)] - want) < 1e-5);
                }
        QCOMPARE(ln.size(), ctx.size()); // normalized per position over its channels: runs and stays finite
        for (float x : ln)
            QVERIFY(std::isfinite(x));
    }

    // An imported matmul (ONNX [B, M, K] x [B, K, N], as ViT's attention) runs as the batched
    // product of its file's sizes: for 3-D operands our N, W, C hold them in ONNX's own order.
    void runnerComputesImportedMatmul()
    {
        const int b = 2, m = 6, k = 8, n = 5;
        Network net;
        net.inputs.push_back({"a", Shape{k, 1, m, b}});
        net.inputs.push_back({"b", Shape{n, 1, k, b}});
        network::Layer mm;
        mm.name = "MatMul_1";
        mm.type = network::LayerType::MatMul;
        mm.op = "MatMul";
        mm.inputs = {-1, -2};
        mm.heads = b;
        mm.dims = {b, m, n};
        mm.counts = network::LayerCounts{};
        mm.counts->macs = std::int64_t(b) * m * k * n;
        mm.statedOutput = Shape{n, 1, m, b};
        net.layers.push_back(mm);
        Diagnostics diag;
        QVERIFY2(network::inferShapes(net, diag), diag.toString().c_str());
        std::string error;
        auto runner = NetworkRunner::create(net, detectKernels(net, FusionRules{}), error);
        QVERIFY2(runner, error.c_str());
        QVERIFY(runner->skipped().empty());
        runner->runAll();
        const std::vector<float> x = runner->values(-1), y = runner->values(-2), z = runner->values(0);
        for (int bi = 0; bi < b; ++bi)
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    double want = 0;
                    for (int t = 0; t < k; ++t)
                        want += double(x[std::size_t((bi * m + i) * k + t)]) * y[std::size_t((bi * k + t) * n + j)];
                    QVERIFY(std::abs(z[std::size_t((bi * m + i) * n + j)] - want) < 1e-5);
                }
    }

    // The transformer kinds the networks run but the lab did not sample until 2026-11-27
    // (BERT's and ViT's attention products and GELU; their kernels fell back to a guessed
    // efficiency, 5x and 7x off): each configuration is one kernel of its kind with the
    // FLOPs of its formula, reads back as itself, runs through oneDNN, and BERT's own
    // kernels give the configurations the prior samples around.
    void transformerConfigurations()
    {
        FusionRules rules = convChainRules();
        // Q·Kᵀ on 16x16 positions, 12 heads of 64: scores 12·256 per position.
        const KernelConfig scores = matmulConfig(16, 12, 64, false);
        QCOMPARE(scores.cin, 768);
        QCOMPARE(scores.cout, 12 * 256);
        // P·V: the scores in, the values' 12·64 channels out.
        const KernelConfig context = matmulConfig(16, 12, 64, true);
        QCOMPARE(context.cin, 12 * 256);
        QCOMPARE(context.cout, 768);
        for (const KernelConfig &c : {scores, context}) {
            QCOMPARE(matmulHeadDim(c), 64);
            const Network net = configNetwork(c);
            QCOMPARE(net.layers.size(), std::size_t(1));
            QCOMPARE(net.layers[0].output.c, std::int64_t(c.cout));
            const Detection d = detectKernels(net, rules);
            QCOMPARE(d.kernels.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(d.kernels[0].kind), QStringLiteral("matmul"));
            QVERIFY(configOfKernel(net, d.kernels[0]) == c);
            // 2 FLOPs per multiply-accumulate: heads x 256 queries x 256 keys x 64.
            QCOMPARE(configFlops(c), 2.0 * 12 * 256 * 256 * 64);
        }
        // GELU on a 14x14 grid of 3072 channels.
        const KernelConfig gelu{"act", 14, 3072, 0, 1, 1, 0};
        const Network geluNet = configNetwork(gelu);
        const Detection gd = detectKernels(geluNet, rules);
        QCOMPARE(gd.kernels.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(gd.kernels[0].kind), QStringLiteral("act"));
        const auto geluBack = configOfKernel(geluNet, gd.kernels[0]);
        QVERIFY(geluBack);
        QCOMPARE(geluBack->hw, 14);
        QCOMPARE(geluBack->cin, 3072);

        // BERT's 128 tokens are a 16x8 grid: its kernels are sampled on the nearest square (11x11).
        std::ifstream in(ROOFLINE_EXAMPLES_DIR "/amaix/bert_base_layer.json");
        std::stringstream text;
        text << in.rdbuf();
        const network::NetworkLoad bert = network::parseNetwork(text.str(), "bert_base_layer.json");
        QVERIFY2(bert.network, bert.diagnostics.toString().c_str());
        const Prior prior = priorFromNetworks({&*bert.network}, rules);
        QCOMPARE(prior.fromNetworks.at("matmul").size(), std::size_t(2));
        QVERIFY(prior.fromNetworks.at("matmul")[0] == matmulConfig(11, 12, 64, false));
        QVERIFY(prior.fromNetworks.at("matmul")[1] == matmulConfig(11, 12, 64, true));
        QCOMPARE(prior.fromNetworks.at("act").size(), std::size_t(1));
        QCOMPARE(prior.fromNetworks.at("act")[0].hw, 11);
        QCOMPARE(prior.fromNetworks.at("act")[0].cin, 3072);

        // Drawn and resampled configurations stay attention products (heads divide the channels).
        std::mt19937 rng(7);
        const SamplingLimits limits{4e9, false};
        for (int i = 0; i < 50; ++i) {
            const KernelConfig c = drawConfig("matmul", prior, rng, limits);
            QCOMPARE(c.kind, std::string("matmul"));
            QVERIFY(c.heads >= 1);
            QCOMPARE(c.cin % c.heads, 0);
            QCOMPARE(c.cout % c.heads, 0);
            QVERIFY(configFlops(c) <= limits.maxFlops);
            for (const KernelConfig &r : resampleAround(c, 2, rng, limits)) {
                QCOMPARE(r.heads, c.heads);
                QCOMPARE(r.hw, c.hw);
                QCOMPARE(r.transposeB, c.transposeB);
            }
        }

        // Both run through oneDNN with nothing skipped.
        for (const KernelConfig &c : {matmulConfig(4, 2, 8, false), matmulConfig(4, 2, 8, true), KernelConfig{"act", 4, 16}}) {
            const Network net = configNetwork(c);
            const Detection d = detectKernels(net, rules);
            std::string error;
            auto runner = NetworkRunner::create(net, d, error);
            QVERIFY2(runner, error.c_str());
            QVERIFY(runner->skipped().empty());
            runner->runAll();
        }
    }

    // A transformer layer (examples/amaix/bert_base_layer.json: matmuls, softmax,
    // layer norms, gelu) runs end to end with nothing skipped.
    void transformerRunsEndToEnd()
    {
        std::ifstream in(ROOFLINE_EXAMPLES_DIR "/amaix/bert_base_layer.json");
        std::stringstream text;
        text << in.rdbuf();
        network::NetworkLoad loaded = network::parseNetwork(text.str(), "bert_base_layer.json");
        QVERIFY2(loaded.network, loaded.diagnostics.toString().c_str());
        const Network &net = *loaded.network;
        const Detection detection = detectKernels(net, convChainRules());
        std::string error;
        auto runner = NetworkRunner::create(net, detection, error);
        QVERIFY2(runner, error.c_str());
        std::string skipped;
        for (int layer : runner->skipped())
            skipped += net.layers[std::size_t(layer)].name + " ";
        QVERIFY2(skipped.empty(), skipped.c_str());
        RunOptions o;
        o.warmup = 0;
        o.repetitions = 1;
        const NetworkRunner::SequenceTiming t = runner->timeSequence(o);
        QCOMPARE(t.kernels.size(), detection.kernels.size());
        QVERIFY(t.kernelSumMs > 0);
        for (float x : runner->values(int(net.layers.size()) - 1))
            QVERIFY(std::isfinite(x));
    }

    void forestFitsSyntheticData()
    {
        // y = 0.01·x0·x1 ms (a product: nonlinear in each feature), plus a step in x2,
        // on a grid the samples cover (a forest interpolates, it does not extrapolate).
        std::mt19937 rng(3);
        std::uniform_int_distribution<int> grid(1, 8);
        std::uniform_real_distribution<double> u(1, 20);
        std::vector<std::vector<double>> x;
        std::vector<double> y;
        for (int i = 0; i < 300; ++i) {
            const double a = grid(rng), b = grid(rng), c = u(rng);
            x.push_back({a, b, c});
            y.push_back(0.01 * a * b * (c > 10 ? 2.0 : 1.0));
        }
        const TrainResult r = trainForest("add", {"HW", "CIN1", "CIN2"}, x, y, TrainOptions{}, x);
        QVERIFY2(r.forest, r.error.c_str());
        QCOMPARE(int(r.forest->trees.size()), TrainOptions{}.trees);
        QCOMPARE(r.forest->samples, 300);
        std::vector<double> pred;
        for (const auto &row : x)
            pred.push_back(r.forest->predictMs(row).value_or(0));
        const Accuracy a = accuracy(pred, y);
        QVERIFY2(a.within10 > 0.9, QByteArray::number(a.within10));
        QVERIFY2(a.rmsePercent < 15, QByteArray::number(a.rmsePercent));
    }

    void dumpedForestEvaluatesAsXgboost()
    {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> u(0, 1);
        std::vector<std::vector<double>> x, probe;
        std::vector<double> y;
        for (int i = 0; i < 200; ++i) {
            std::vector<double> row;
            for (int f = 0; f < 7; ++f)
                row.push_back(double(float(std::round(u(rng) * 1000) / 8))); // exact in float, as XGBoost reads it
            y.push_back(0.05 + row[0] * row[1] / 1e4 + (row[3] > 60 ? 0.3 : 0));
            x.push_back(row);
        }
        for (int i = 0; i < 50; ++i) {
            std::vector<double> row;
            for (int f = 0; f < 7; ++f)
                row.push_back(double(float(std::round(u(rng) * 1000) / 8)));
            probe.push_back(row);
        }
        probe.push_back(x[0]);
        TrainOptions o;
        o.trees = 12;
        o.maxDepth = 6;
        const TrainResult r = trainForest("conv", featureNames("conv"), x, y, o, probe);
        QVERIFY2(r.forest, r.error.c_str());
        QCOMPARE(r.xgboostLogMs.size(), probe.size());
        for (std::size_t i = 0; i < probe.size(); ++i) {
            const double ours = std::log(*r.forest->predictMs(probe[i]));
            QVERIFY2(std::abs(ours - r.xgboostLogMs[i]) < 1e-5,
                     (std::to_string(ours) + " vs XGBoost " + std::to_string(r.xgboostLogMs[i])).c_str());
        }
        // Written and read back as a forest file, it predicts the same.
        const ForestLoad back = parseForest(serializeForest(*r.forest), "conv.forest.json");
        QVERIFY2(back.forest, back.diagnostics.toString().c_str());
        for (const auto &row : probe)
            QCOMPARE(*back.forest->predictMs(row), *r.forest->predictMs(row));
        // Children follow their parents (the file's rule) after renumbering.
        for (const ForestTree &t : r.forest->trees)
            for (std::size_t n = 0; n < t.left.size(); ++n)
                if (t.left[n] >= 0)
                    QVERIFY(t.left[n] > int(n) && t.right[n] > int(n));
    }

    void trainingRefusesBadInput()
    {
        QVERIFY(!trainForest("fc", featureNames("fc"), {}, {}, TrainOptions{}).forest);
        QVERIFY(!trainForest("fc", featureNames("fc"), {{1, 2, 3, 4}}, {-1}, TrainOptions{}).forest);
        const TrainResult wrongWidth = trainForest("fc", featureNames("fc"), {{1, 2}}, {1}, TrainOptions{});
        QVERIFY(!wrongWidth.forest);
        QVERIFY(!wrongWidth.error.empty());
        std::string error;
        QVERIFY(!forestFromXgboostJson("{\"learner\": 3}", error));
        QVERIFY(!error.empty());
    }

    void accuracyMetric()
    {
        const Accuracy a = accuracy({1.05, 2.5, 0.9, 1.0}, {1.0, 2.0, 1.0, 1.0});
        QCOMPARE(a.count, 4);
        QCOMPARE(a.within10, 0.75); // 5 %, 25 %, 10 %, 0 %
        QVERIFY(std::abs(a.rmsePercent - 100 * std::sqrt((0.0025 + 0.0625 + 0.01) / 4)) < 1e-9);
    }

    void resamplingAroundASample()
    {
        std::mt19937 rng(5);
        const KernelConfig base{"conv", 28, 100, 200, 3, 2, 0};
        const auto around = resampleAround(base, 50, rng, SamplingLimits{});
        QCOMPARE(around.size(), std::size_t(50));
        for (const KernelConfig &c : around) {
            QCOMPARE(c.hw, 28);
            QCOMPARE(c.ks, 3);
            QCOMPARE(c.stride, 2);
            QVERIFY(c.cin >= 40 && c.cin <= 120);  // [0.4·C, 1.2·C]
            QVERIFY(c.cout >= 80 && c.cout <= 240);
        }
        const auto dw = resampleAround(KernelConfig{"dwconv", 14, 64, 64, 5, 1, 0}, 10, rng, SamplingLimits{});
        for (const KernelConfig &c : dw)
            QCOMPARE(c.cout, c.cin);
    }

    void drawingRespectsTheLimits()
    {
        std::mt19937 a(9), b(9), q9(9);
        const Prior none;
        for (const std::string &kind : sampleKinds()) {
            const KernelConfig c = drawConfig(kind, none, a, SamplingLimits{});
            QCOMPARE(c, drawConfig(kind, none, b, SamplingLimits{})); // seeded: reproducible
            QVERIFY(configFlops(c) <= 4e9);
            const KernelConfig q = drawConfig(kind, none, q9, SamplingLimits{1e7, true});
            QVERIFY2(q.hw <= 8 && q.cin <= 64, kind.c_str());
        }
    }

    void priorFromANetwork()
    {
        const Network net = configNetwork({"dwconv", 14, 32, 32, 3, 1, 0});
        const Prior p = priorFromNetworks({&net}, convChainRules());
        QCOMPARE(p.fromNetworks.at("dwconv").size(), std::size_t(1));
        QCOMPARE(p.fromNetworks.at("dwconv")[0], (KernelConfig{"dwconv", 14, 32, 32, 3, 1, 0}));
    }

    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("seconds");
        QTest::newRow("90") << "90" << 90.0;
        QTest::newRow("90s") << "90s" << 90.0;
        QTest::newRow("10m") << "10m" << 600.0;
        QTest::newRow("1.5m") << "1.5m" << 90.0;
        QTest::newRow("1h") << "1h" << 3600.0;
        QTest::newRow("empty") << "" << -1.0;
        QTest::newRow("zero") << "0s" << -1.0;
        QTest::newRow("negative") << "-5m" << -1.0;
        QTest::newRow("unit only") << "m" << -1.0;
        QTest::newRow("words") << "ten minutes" << -1.0;
        QTest::newRow("nan") << "nan" << -1.0;
    }
    void durations()
    {
        QFETCH(QString, text);
        QFETCH(double, seconds);
        const auto d = parseDuration(text.toStdString());
        if (seconds < 0)
            QVERIFY(!d);
        else
            QCOMPARE(d.value_or(-1), seconds);
    }

    void quickLabRunWritesFilesThatLoad()
    {
        LabOptions o;
        o.quick = true;
        o.budgetSeconds = 5;
        o.kinds = {"conv", "add"};
        o.machine = "test machine";
        o.date = "2026-11-25";
        o.networks.push_back({"tiny", configNetwork({"conv", 8, 4, 8, 3, 1, 0})});
        int reports = 0;
        LabControl control;
        control.progress = [&](const LabProgress &p) {
            ++reports;
            QVERIFY(p.fraction >= 0 && p.fraction <= 1);
        };
        const LabResult r = runKernelLab(o, control);
        QVERIFY(!r.cancelled);
        QVERIFY(reports > 16);
        QCOMPARE(r.pairs.size(), std::size_t(16)); // conv, relu, add, maxpool: every ordered pair
        QVERIFY(r.rules.pairs.at("conv_relu").measured);
        // Every pair on 2 or 3 of the 3 shapes (the third only when the first two disagree),
        // the rule the majority of them.
        const std::vector<Shape> shapes = pairTestShapes(true);
        QCOMPARE(shapes.size(), std::size_t(3));
        for (const PairTiming &p : r.pairs) {
            const std::string name = p.first + "_" + p.second;
            QVERIFY2(p.shapes.size() == 2 || p.shapes.size() == 3, name.c_str());
            QVERIFY2((p.shapes.size() == 3) == (p.shapes[0].fuses != p.shapes[1].fuses), name.c_str());
            for (std::size_t i = 0; i < p.shapes.size(); ++i)
                QVERIFY(p.shapes[i].input == shapes[i]);
            QCOMPARE(p.fuses, 2 * p.shapesFused() > int(p.shapes.size()));
            QCOMPARE(r.rules.pairs.at(name).fuses, p.fuses);
            QCOMPARE(r.rules.pairs.at(name).shapesTested, int(p.shapes.size()));
            QCOMPARE(r.rules.pairs.at(name).shapesFused, p.shapesFused());
        }
        QVERIFY(r.device.peakGflops > 0 && r.device.bandwidthGBps > 0);
        QVERIFY(r.predictors.count("conv") && r.predictors.count("add"));
        QCOMPARE(r.networks.size(), std::size_t(1));
        QVERIFY(r.networks[0].measuredMs > 0);
        QVERIFY(r.networks[0].whole.medianMs > 0);
        QVERIFY(r.networks[0].predictedMs > 0);
        const auto files = labFiles(r);
        QCOMPARE(files.size(), std::size_t(7)); // rules, device, two forests, measurements, measured, kernels
        QVERIFY(files.count("onednn_cpu/conv.forest.json"));
        QVERIFY(files.at("onednn_cpu/measurements.csv").rfind("stage,name,kind,type,set,", 0) == 0);
        // measured.csv is the view's measured-latency format: the network's row as the lab measured it.
        const MeasuredLoad measured = parseMeasuredLatencies(files.at("onednn_cpu/measured.csv"), "measured.csv");
        QVERIFY2(measured.rows, measured.diagnostics.toString().c_str());
        QCOMPARE(measured.rows->size(), std::size_t(1));
        const MeasuredLatency &row = measured.rows->front();
        QCOMPARE(row.network, std::string("tiny"));
        QCOMPARE(row.measuredMs, r.networks[0].measuredMs);
        QCOMPARE(row.device, r.device.name);
        QCOMPARE(row.repetitions, r.networks[0].whole.repetitions);
        QCOMPARE(row.noisePercent, 100 * r.networks[0].whole.iqrMs / r.networks[0].whole.medianMs);
        // kernels.csv: every kernel of the network as timed in the sequence; they sum to measured_ms
        // and their predictions to predicted_ms.
        const KernelLatencyLoad kernels = parseKernelLatencies(files.at("onednn_cpu/kernels.csv"), "kernels.csv");
        QVERIFY2(kernels.rows, kernels.diagnostics.toString().c_str());
        const Detection detected = detectKernels(o.networks[0].network, r.rules);
        QCOMPARE(kernels.rows->size(), detected.kernels.size());
        double measuredSum = 0, predictedSum = 0;
        for (std::size_t k = 0; k < kernels.rows->size(); ++k) {
            const KernelLatency &x = (*kernels.rows)[k];
            QCOMPARE(x.network, std::string("tiny"));
            QCOMPARE(x.kernel, int(k));
            QCOMPARE(x.type, detected.kernels[k].type);
            QCOMPARE(x.firstLayer, o.networks[0].network.layers[std::size_t(detected.kernels[k].layers.front())].name);
            QCOMPARE(x.operators, int(detected.kernels[k].layers.size()));
            QCOMPARE(x.repetitions, r.networks[0].whole.repetitions);
            QVERIFY(x.primitives >= 1 && x.measuredMs > 0 && x.predictedMs > 0);
            measuredSum += x.measuredMs;
            predictedSum += x.predictedMs;
        }
        QVERIFY(std::abs(measuredSum / r.networks[0].measuredMs - 1) < 1e-9);
        QVERIFY(std::abs(predictedSum / r.networks[0].predictedMs - 1) < 1e-9);

        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/lab";
        QCOMPARE(writeLabFiles(r, out), std::string());
        const DeviceLoad dev = loadDeviceFile(out + "/onednn_cpu.device.json");
        QVERIFY2(dev.device, dev.diagnostics.toString().c_str());
        QCOMPARE(dev.device->predictors.size(), std::size_t(2));
        QVERIFY(dev.device->rules == r.rules);
        const Prediction p = predictNetwork(o.networks[0].network, *dev.device);
        QCOMPARE(p.learnedKernels, 1);
        QCOMPARE(p.kernelSumMs, r.networks[0].predictedMs);
    }

    // The files the lab wrote on this machine (examples/nnmeter/onednn_cpu*): they load, the
    // rules hold what oneDNN does on any x86 CPU, and the device predicts each network the lab
    // ran exactly as the lab recorded it (golden: the predicted_ms of measurements.csv, and of
    // each kernel in kernels.csv).
    void shippedLabFiles()
    {
        const DeviceLoad dev = loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu.device.json");
        QVERIFY2(dev.device, dev.diagnostics.toString().c_str());
        const FusionRules &rules = dev.device->rules;
        QCOMPARE(rules.backend, std::string("onednn-cpu"));
        // 15 operators, every ordered pair measured (the quiet run of 2026-11-27 07:23).
        QCOMPARE(rules.pairs.size(), std::size_t(225));
        QVERIFY(rules.pairs.count("conv_swish"));
        QVERIFY(rules.fuses("conv", "bn"));             // folded: the same primitive as the conv alone
        QVERIFY(rules.fuses("bn", "relu"));             // so conv-bn-relu is one kernel
        QVERIFY(rules.fuses("conv", "relu6"));          // an eltwise post-op
        QVERIFY(!rules.fuses("conv", "relu"));          // eq. 1 at this machine's resolution (docs/models/nnmeter.md)
        QVERIFY(!rules.fuses("conv", "conv"));          // two primitives
        QVERIFY(!rules.fuses("concat", "relu"));        // concat takes no post-ops
        // Forests kept where they beat the calibrated roofline on held-out samples (fc's did not).
        QVERIFY(dev.device->predictors.count("conv") && dev.device->predictors.count("dwconv"));
        QVERIFY(dev.device->predictors.count("matmul"));
        QVERIFY(!dev.device->predictors.count("fc"));
        std::ifstream csv(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu/measurements.csv");
        QVERIFY(csv.good());
        std::string line;
        int networks = 0;
        std::size_t predictedColumn = 0; // by the header: columns were added (heads, transpose_b)
        while (std::getline(csv, line)) {
            std::vector<std::string> f;
            std::stringstream ss(line);
            for (std::string x; std::getline(ss, x, ',');)
                f.push_back(x);
            if (line.rfind("stage,", 0) == 0)
                predictedColumn = std::size_t(std::find(f.begin(), f.end(), "predicted_ms") - f.begin());
            if (line.rfind("network,", 0) != 0)
                continue;
            QVERIFY(predictedColumn > 0 && f.size() > predictedColumn);
            const std::string name = f[1];
            const double predicted = std::stod(f[predictedColumn]);
            std::string path = std::string(ROOFLINE_EXAMPLES_DIR) + "/amaix/" + name;
            if (!std::ifstream(path).good())
                path = std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/onnx/" + name;
            const network::NetworkLoad net = network::loadAnyNetworkFile(path);
            QVERIFY2(net.network, (name + ": " + net.diagnostics.toString()).c_str());
            const Prediction p = predictNetwork(*net.network, *dev.device);
            // The CSV keeps 4 significant digits: within half a unit of the 4th.
            QVERIFY2(std::abs(p.kernelSumMs / predicted - 1) < 5.1e-4,
                     (name + ": " + std::to_string(p.kernelSumMs) + " ms, the lab recorded " + f[predictedColumn]).c_str());
            ++networks;
        }
        QVERIFY(networks >= 6);

        // kernels.csv: every kernel of every network in measured.csv, under the shipped rules; the
        // kernels sum to the network's measured latency and their predictions are the device's now.
        std::ifstream kin(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu/kernels.csv");
        std::ifstream min(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu/measured.csv");
        const std::string ktext{std::istreambuf_iterator<char>(kin), {}}, mtext{std::istreambuf_iterator<char>(min), {}};
        const KernelLatencyLoad kernels = parseKernelLatencies(ktext, "kernels.csv");
        QVERIFY2(kernels.rows, kernels.diagnostics.toString().c_str());
        const MeasuredLoad measured = parseMeasuredLatencies(mtext, "measured.csv");
        QVERIFY2(measured.rows, measured.diagnostics.toString().c_str());
        QCOMPARE(measured.rows->size(), std::size_t(networks));
        for (const MeasuredLatency &m : *measured.rows) {
            std::string path = std::string(ROOFLINE_EXAMPLES_DIR) + "/amaix/" + m.network;
            if (!std::ifstream(path).good())
                path = std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/onnx/" + m.network;
            const network::NetworkLoad net = network::loadAnyNetworkFile(path);
            QVERIFY2(net.network, m.network.c_str());
            const Prediction p = predictNetwork(*net.network, *dev.device);
            double sum = 0;
            std::size_t count = 0;
            for (const KernelLatency &k : *kernels.rows) {
                if (k.network != m.network)
                    continue;
                QVERIFY2(std::size_t(k.kernel) < p.detection.kernels.size(), m.network.c_str());
                const Kernel &detected = p.detection.kernels[std::size_t(k.kernel)];
                QCOMPARE(k.type, detected.type);
                QCOMPARE(k.firstLayer, net.network->layers[std::size_t(detected.layers.front())].name);
                QVERIFY2(std::abs(k.predictedMs - p.kernels[std::size_t(k.kernel)].ms) <= 1e-9 * std::max(1.0, k.predictedMs),
                         (m.network + " kernel " + std::to_string(k.kernel)).c_str());
                sum += k.measuredMs;
                ++count;
            }
            QCOMPARE(count, p.detection.kernels.size());
            QVERIFY2(std::abs(sum / m.measuredMs - 1) < 1e-9, m.network.c_str());
        }
    }

    // Two networks of the same file name stay two rows the measured-CSV reader accepts.
    void measuredCsvNamesEachNetworkOnce()
    {
        LabResult r;
        r.device.name = "This machine: test, 1 thread";
        for (double ms : {2.0, 3.0}) {
            NetworkResult n;
            n.name = "resnet50.json";
            n.measuredMs = ms;
            n.whole.medianMs = ms * 1.1;
            n.whole.iqrMs = 0.1;
            n.whole.repetitions = 15;
            r.networks.push_back(n);
        }
        NetworkResult none; // not measured (cancelled inside it): no row
        none.name = "lenet.json";
        r.networks.push_back(none);
        const MeasuredLoad m = parseMeasuredLatencies(measuredCsv(r), "measured.csv");
        QVERIFY2(m.rows, m.diagnostics.toString().c_str());
        QCOMPARE(m.rows->size(), std::size_t(2));
        QCOMPARE((*m.rows)[0].network, std::string("resnet50.json"));
        QCOMPARE((*m.rows)[1].network, std::string("resnet50.json (2)"));
        QCOMPARE((*m.rows)[1].measuredMs, 3.0);
        QCOMPARE((*m.rows)[1].device, r.device.name);
        QVERIFY(labFiles(r).count("onednn_cpu/measured.csv"));
        QVERIFY(!labFiles(LabResult{}).count("onednn_cpu/measured.csv"));
    }

    // Given a device, the lab measures the networks only: no calibration, pairs or samples;
    // the device's rules detect the kernels, and only measured.csv and kernels.csv are written.
    void networksOnlyWithAGivenDevice()
    {
        Device d;
        d.name = "given device";
        d.peakGflops = 50;
        d.bandwidthGBps = 20;
        d.rules = convChainRules();
        d.rules.pairs["conv_bn"].fuses = false; // differs from the lab's own: the kernels must follow it
        LabOptions o;
        o.quick = true;
        o.budgetSeconds = 60;
        o.device = d;
        o.networks.push_back({"tiny", configNetwork({"conv", 8, 4, 8, 3, 1, 0})});
        const LabResult r = runKernelLab(o);
        QVERIFY(r.networksOnly);
        QVERIFY(r.pairs.empty());
        QVERIFY(r.samples.empty());
        QVERIFY(r.predictors.empty());
        QCOMPARE(r.device.name, d.name);
        QCOMPARE(r.networks.size(), std::size_t(1));
        const NetworkResult &n = r.networks[0];
        QCOMPARE(n.kernelTimings.size(), std::size_t(2)); // conv | bn-relu under the given rules
        QCOMPARE(n.kernelTimings[0].type, std::string("conv"));
        QCOMPARE(n.kernelTimings[1].type, std::string("bn-relu"));
        QCOMPARE(n.predictedMs, predictNetwork(o.networks[0].network, d).kernelSumMs);
        const auto files = labFiles(r);
        QCOMPARE(files.size(), std::size_t(3));
        QVERIFY(files.count("onednn_cpu/measured.csv") && files.count("onednn_cpu/kernels.csv"));
        QVERIFY(files.at("onednn_cpu/measurements.csv").find("\nnetwork,tiny,") != std::string::npos);
        QVERIFY(files.at("onednn_cpu/measurements.csv").find("\npair,") == std::string::npos);
        QTemporaryDir dir;
        QCOMPARE(writeLabFiles(r, dir.path().toStdString()), std::string());
        QVERIFY(!std::ifstream(dir.path().toStdString() + "/onednn_cpu.device.json").good());
        QVERIFY(std::ifstream(dir.path().toStdString() + "/onednn_cpu/kernels.csv").good());
    }

    // Interleaved timing: every run timed the same number of times, each sample one run
    // after the others' (the order is what the fusion test relies on).
    void interleavedTiming()
    {
        std::vector<int> order;
        RunOptions o;
        o.warmup = 2;
        o.repetitions = 4;
        o.minSampleMs = 0;
        o.maxInner = 1;
        const std::vector<TimingStats> t = timeInterleaved({[&] { order.push_back(0); }, [&] { order.push_back(1); }}, o);
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[0].repetitions, 4);
        QCOMPARE(t[1].repetitions, 4);
        // Warm-up (2) and the calibrating run of each, then per repetition: untimed, timed.
        const std::vector<int> expected{0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
        QCOMPARE(order, expected);
        std::atomic<bool> cancel{true};
        const std::vector<TimingStats> cut = timeInterleaved({[] {}, [] {}}, o, &cancel);
        QCOMPARE(cut.size(), std::size_t(2));
        QCOMPARE(cut[0].repetitions, 1); // the calibrating run only
    }

    void cancelledBeforeItStarts()
    {
        LabOptions o;
        o.quick = true;
        o.budgetSeconds = 60;
        std::atomic<bool> cancel{true};
        LabControl control;
        control.cancel = &cancel;
        const LabResult r = runKernelLab(o, control);
        QVERIFY(r.cancelled);
        QVERIFY(r.pairs.empty());
        QVERIFY(r.predictors.empty());
    }
};

QTEST_GUILESS_MAIN(TestNnmeterLab)
#include "tst_nnmeter_lab.moc"
