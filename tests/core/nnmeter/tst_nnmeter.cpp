// nn-Meter (seed 004): kernel detection on hand-built graphs, the connection
// rules of seed Fig. 4, the fusion units, features against their formulas,
// the analytical predictor, the files, and the shipped rule sets on the
// torchvision fixtures.
#include "network/import.h"
#include "network/io.h"
#include "nnmeter/io.h"

#include <nlohmann/json.hpp>

#include <QTest>

namespace QTest {
template <>
char *toString(const std::vector<std::string> &v)
{
    std::string s;
    for (const std::string &x : v)
        s += (s.empty() ? "" : " ") + x;
    return qstrdup(s.c_str());
}
} // namespace QTest

using namespace roofline;
using namespace roofline::nnmeter;
using network::Network;
using nlohmann::json;

namespace {

Network build(json layers, json shape = json::array({8, 32, 32}))
{
    const json j = {{"format", network::kNetworkFormatId}, {"version", 1}, {"name", "t"},
                    {"inputs", json::array({{{"name", "data"}, {"shape", shape}}})}, {"layers", layers}};
    network::NetworkLoad r = network::parseNetwork(j.dump(), "t.json");
    if (!r.network)
        qFatal("%s", r.diagnostics.toString().c_str());
    return *r.network;
}

json conv(const char *name, int out, int k = 3, int stride = 1, const char *input = nullptr, int groups = 1)
{
    json l = {{"name", name}, {"type", "convolution"}, {"out_channels", out}, {"kernel", k}, {"stride", stride},
              {"pad", k / 2}, {"bias", false}, {"groups", groups}};
    if (input)
        l["input"] = input;
    return l;
}
json bn(const char *name, const char *input = nullptr)
{
    json l = {{"name", name}, {"type", "batch_norm"}};
    if (input)
        l["input"] = input;
    return l;
}
json act(const char *name, const char *f = "relu", const char *input = nullptr)
{
    json l = {{"name", name}, {"type", "activation"}, {"function", f}};
    if (input)
        l["input"] = input;
    return l;
}

FusionRules cpuRules()
{
    FusionRules r;
    r.backend = "test";
    for (const char *p : {"conv_bn", "conv_relu", "bn_relu", "dwconv_bn", "bn_relu6", "add_relu"})
        r.pairs[p].fuses = true;
    for (const std::string &u : unitNames())
        r.units[u] = true;
    return r;
}

std::vector<std::string> types(const Detection &d)
{
    std::vector<std::string> out;
    for (const Kernel &k : d.kernels)
        out.push_back(k.type);
    return out;
}

Device roofDevice()
{
    Device d;
    d.name = "test";
    d.peakGflops = 100;   // 1e8 FLOP per ms
    d.bandwidthGBps = 10; // 1e7 B per ms
    d.kernelOverheadUs = 5;
    d.rules = cpuRules();
    return d;
}

std::string firstError(const Diagnostics &d)
{
    return d.errors().empty() ? std::string() : d.errors().front().toString();
}

} // namespace

class TestNnmeter : public QObject
{
    Q_OBJECT
private slots:
    void convBnReluIsOneKernel()
    {
        const Network n = build({conv("c", 16), bn("b"), act("r")});
        const Detection d = detectKernels(n, cpuRules());
        QCOMPARE(types(d), std::vector<std::string>{"conv-bn-relu"});
        QCOMPARE(d.kernels[0].layers, (std::vector<int>{0, 1, 2}));
        QCOMPARE(d.operators, 3);
        // Without BF_bn_relu the chain stops after bn.
        FusionRules r = cpuRules();
        r.pairs["bn_relu"].fuses = false;
        QCOMPARE(types(detectKernels(n, r)), (std::vector<std::string>{"conv-bn", "relu"}));
        // No rules at all: one kernel per operator.
        QCOMPARE(types(detectKernels(n, FusionRules{})), (std::vector<std::string>{"conv", "bn", "relu"}));
    }

    void multiOutboundStaysSeparate()
    {
        // Seed Fig. 4(b): bn feeds two consumers, so by default it fuses with neither.
        const Network n = build({conv("c", 16), bn("b"), act("r1", "relu", "b"), act("r2", "relu", "b"),
                                 {{"name", "sum"}, {"type", "eltwise_add"}, {"inputs", {"r1", "r2"}}}});
        const Detection d = detectKernels(n, cpuRules());
        QCOMPARE(types(d), (std::vector<std::string>{"conv-bn", "relu", "relu", "add"}));
        // When the backend fuses across multiple outbounds, bn fuses with its first consumer.
        FusionRules r = cpuRules();
        r.multiOutbound = true;
        QCOMPARE(types(detectKernels(n, r)), (std::vector<std::string>{"conv-bn-relu", "relu", "add"}));
    }

    void multiInboundFusesWithTheFirstThatReachesIt()
    {
        // A residual: x -> conv -> bn -> add(bn, x) -> relu; x is the network input.
        const Network n = build({conv("c", 8), bn("b"), {{"name", "sum"}, {"type", "eltwise_add"}, {"inputs", {"b", "data"}}},
                                 act("r")});
        FusionRules r = cpuRules();
        QCOMPARE(types(detectKernels(n, r)), (std::vector<std::string>{"conv-bn", "add-relu"}));
        r.pairs["bn_add"].fuses = true; // a GPU-like backend (seed: conv-add fuses on the mobile GPU)
        QCOMPARE(types(detectKernels(n, r)), (std::vector<std::string>{"conv-bn-add-relu"}));
        r.multiInbound = false;
        QCOMPARE(types(detectKernels(n, r)), (std::vector<std::string>{"conv-bn", "add-relu"}));
    }

    void seBlockIsOneKernel()
    {
        const Network n = build({conv("c", 16), {{"name", "gap"}, {"type", "pooling"}, {"mode", "average"}, {"global", true}},
                                 conv("fc1", 4, 1), act("r"), conv("fc2", 16, 1), act("hs", "hardsigmoid"),
                                 {{"name", "scale"}, {"type", "eltwise_mul"}, {"inputs", {"c", "hs"}}}, act("out")});
        const Detection d = detectKernels(n, cpuRules());
        QCOMPARE(types(d), (std::vector<std::string>{"conv", "se", "relu"}));
        QCOMPARE(d.kernels[1].layers, (std::vector<int>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(d.kernels[1].inputs, (std::vector<int>{0}));
        // The unit turned off: the parts are operators again.
        FusionRules r = cpuRules();
        r.units["se"] = false;
        QCOMPARE(types(detectKernels(n, r)),
                 (std::vector<std::string>{"conv", "gap", "conv-relu", "conv", "hsigmoid", "mul", "relu"}));
    }

    void unitsHswishSwishShuffleGap()
    {
        const Network n = build({
            // Imported element-wise layers may take a constant of the file as their other operand.
            {{"name", "plus3"}, {"type", "eltwise_add"}, {"inputs", {"data"}}, {"op", "Add"}, {"dims", {1, 8, 32, 32}}, {"output", {8, 32, 32}}},
            act("clip", "relu6"),
            {{"name", "times"}, {"type", "eltwise_mul"}, {"inputs", {"data", "clip"}}},
            {{"name", "div6"}, {"type", "eltwise_div"}, {"inputs", {"times"}}, {"op", "Div"}, {"dims", {1, 8, 32, 32}}, {"output", {8, 32, 32}}},
            act("sig", "sigmoid"),
            {{"name", "silu"}, {"type", "eltwise_mul"}, {"inputs", {"div6", "sig"}}},
            {{"name", "r1"}, {"type", "reshape"}, {"output", {8, 1, 1024}}},
            {{"name", "t"}, {"type", "transpose"}, {"output", {8, 1, 1024}}},
            {{"name", "r2"}, {"type", "reshape"}, {"output", {8, 32, 32}}},
            {{"name", "gap"}, {"type", "reduce"}, {"function", "mean"}, {"output", {8, 1, 1}}},
            {{"name", "flat"}, {"type", "flatten"}},
            {{"name", "fc"}, {"type", "fully_connected"}, {"out_channels", 10}},
        });
        const Detection d = detectKernels(n, cpuRules());
        QCOMPARE(types(d), (std::vector<std::string>{"hswish", "swish", "channelshuffle", "gap", "fc"}));
        QCOMPARE(d.kernels[3].layers, (std::vector<int>{9, 10})); // the flatten view joins its producer
        QCOMPARE(d.operators, 9); // r1, r2 and flat are views
        FusionRules r = cpuRules();
        r.units["global_pool"] = false;
        r.units["hswish"] = false;
        QCOMPARE(types(detectKernels(n, r)),
                 (std::vector<std::string>{"add", "relu6", "mul", "eltwise", "swish", "channelshuffle", "reduce", "fc"}));
    }

    void featuresFollowTheFormulas()
    {
        // conv 3x3 stride 2, 8 -> 16 channels on 32x32, then bn and relu.
        const Network n = build({conv("c", 16, 3, 2), bn("b"), act("r")});
        const Detection d = detectKernels(n, cpuRules());
        const Kernel &k = d.kernels.at(0);
        const double out = 16.0 * 16 * 16;
        const double macs = out * 3 * 3 * 8;
        QCOMPARE(k.flops, 2 * macs + 2 * out + out); // conv 2/MAC, bn 2/element, relu 1/element
        QCOMPARE(k.params, 3.0 * 3 * 8 * 16 + 2 * 16);
        QCOMPARE(k.bytes, 4.0 * (8 * 32 * 32 + out + k.params)); // input, output, weights: no intermediates
        QCOMPARE(featureNames("conv"), (std::vector<std::string>{"HW", "CIN", "COUT", "KS", "S", "FLOPS", "PARAMS"}));
        QCOMPARE(featureVector(n, k), (std::vector<double>{32, 8, 16, 3, 2, k.flops / 1e6, k.params / 1e6}));
        // depthwise
        const Network dw = build({conv("dw", 8, 5, 1, nullptr, 8), bn("b")});
        const Detection dd = detectKernels(dw, cpuRules());
        const Kernel &kd = dd.kernels.at(0);
        QCOMPARE(QString::fromStdString(kd.type), QString("dwconv-bn"));
        QCOMPARE(featureVector(dw, kd), (std::vector<double>{32, 8, 5, 1, kd.flops / 1e6, kd.params / 1e6}));
        QCOMPARE(kd.flops, 2.0 * 8 * 32 * 32 * 25 + 2.0 * 8 * 32 * 32);
        // fc flattens: CIN is C·H·W
        const Network fc = build({{{"name", "fc"}, {"type", "fully_connected"}, {"out_channels", 10}}});
        const Detection df = detectKernels(fc, cpuRules());
        const Kernel &kf = df.kernels.at(0);
        QCOMPARE(featureVector(fc, kf), (std::vector<double>{8192, 10, 2 * 8192 * 10 / 1e6, (8192 * 10 + 10) / 1e6}));
        // Element-wise kinds read HW as the side of a square of as many positions, √(H·W): a 64×16
        // input is 32, not its H of 64 (BERT's token grids and ViT's sequences are not square).
        const Network flat = build({{{"name", "r"}, {"type", "reshape"}, {"output", {8, 64, 16}}}, act("relu")});
        const Detection dr = detectKernels(flat, cpuRules());
        const Kernel &kr = dr.kernels.back();
        QCOMPARE(QString::fromStdString(kr.kind), QString("relu"));
        QCOMPARE(featureVector(flat, kr), (std::vector<double>{32, 8}));
    }

    void analyticalRoofline()
    {
        const Network n = build({conv("c", 16, 3, 2), bn("b"), act("r")});
        const Device dev = roofDevice();
        const Prediction p = predictNetwork(n, dev);
        QCOMPARE(p.kernels.size(), std::size_t(1));
        const Kernel &k = p.detection.kernels[0];
        const double computeMs = k.flops / 1e8, memoryMs = k.bytes / 1e7;
        QCOMPARE(p.kernels[0].ms, 0.005 + std::max(computeMs, memoryMs));
        QCOMPARE(p.kernelSumMs, p.kernels[0].ms);
        // Operators alone: three launches and the intermediate tensors written and read back.
        double ops = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            const OperatorCost c = operatorCost(n, i);
            ops += 0.005 + std::max(c.flops / 1e8, (c.inputBytes + c.outputBytes + c.weightBytes) / 1e7);
        }
        QCOMPARE(p.operatorSumMs, ops);
        QVERIFY(p.operatorSumMs > p.kernelSumMs);
        QCOMPARE(p.flopsMs, k.flops / 1e8);
        // A per-kind efficiency halves the compute roof.
        Device slow = dev;
        slow.efficiency["conv"] = Efficiency{0.5, 1};
        QCOMPARE(predictNetwork(n, slow).kernels[0].ms, 0.005 + std::max(2 * computeMs, memoryMs));
    }

    void forestEvaluates()
    {
        Forest f;
        f.kind = "conv";
        f.features = featureNames("conv");
        f.logTarget = false;
        f.base = 0.5;
        ForestTree t; // x[1] < 10 ? 1 : 2
        t.feature = {1, 0, 0};
        t.threshold = {10, 0, 0};
        t.left = {1, -1, -1};
        t.right = {2, -1, -1};
        t.missingLeft = {1, 0, 0};
        t.value = {0, 1, 2};
        f.trees = {t, t};
        QCOMPARE(f.predictMs({0, 5, 0, 0, 0, 0, 0}), std::optional<double>(2.5));
        QCOMPARE(f.predictMs({0, 10, 0, 0, 0, 0, 0}), std::optional<double>(4.5));
        QCOMPARE(f.predictMs({0, 5}), std::optional<double>());
        const ForestLoad back = parseForest(serializeForest(f), "f.json");
        QVERIFY2(back.forest, back.diagnostics.toString().c_str());
        QCOMPARE(*back.forest, f);
        // A child pointing backwards would loop: refused.
        json j = json::parse(serializeForest(f));
        j["trees"][0]["left"][0] = 0;
        QCOMPARE(firstError(parseForest(j.dump(), "f.json").diagnostics),
                 std::string("f.json: /trees/0/left/0: children must be later nodes of the same tree"));
    }

    void rulesFileErrors_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("error");
        QTest::newRow("bad name") << R"({"fusions": {"conv_bn": true}})"
                                  << "r.json: /fusions/conv_bn: a rule is named BF_<op1>_<op2>, e.g. BF_conv_bn";
        QTest::newRow("unknown operator") << R"({"fusions": {"BF_conv_bogus": true}})"
                                          << "r.json: /fusions/BF_conv_bogus: unknown operator \"bogus\" (known: conv, "
                                             "dwconv, fc, bn, relu, relu6, add, ...; see docs/file-formats-nnmeter.md)";
        QTest::newRow("not a bool") << R"({"fusions": {"BF_conv_bn": {"fuses": 1}}})"
                                    << "r.json: /fusions/BF_conv_bn/fuses: expected true or false, got a number";
        QTest::newRow("unknown unit") << R"({"units": {"squeeze": true}})" << "r.json: /units/squeeze: unknown key \"squeeze\"";
        QTest::newRow("fusions not an object") << R"({"fusions": [1]})" << "r.json: /fusions: expected an object of "
                                                                     "\"BF_<op1>_<op2>\": true|false, got an array";
    }
    void rulesFileErrors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, error);
        json j = {{"format", kRulesFormatId}, {"version", 1}, {"backend", "b"}, {"fusions", {{"BF_conv_bn", true}}}};
        j.merge_patch(json::parse(patch.toStdString()));
        QCOMPARE(QString::fromStdString(firstError(parseRules(j.dump(), "r.json").diagnostics)), error);
    }

    void rulesRoundTrip()
    {
        FusionRules r = cpuRules();
        r.pairs["conv_add"] = FusionRule{true, 1.5, 0.5, 1.2, true};
        const RulesLoad back = parseRules(serializeRules(r), "r.json");
        QVERIFY2(back.rules, back.diagnostics.toString().c_str());
        QCOMPARE(*back.rules, r);
    }

    void deviceFileErrors()
    {
        const json base = {{"format", kDeviceFormatId}, {"version", 1}, {"name", "d"}, {"fusion_rules", "x.json"},
                           {"peak_gflops", 10}, {"bandwidth_gbps", 5}};
        json j = base;
        j["peak_gflops"] = -1;
        QCOMPARE(firstError(parseDevice(j.dump(), "d.json", "/nonexistent").diagnostics),
                 std::string("d.json: /peak_gflops: must be > 0 and <= 1e+09, got -1"));
        j = base;
        j["efficiency"] = {{"conv", {{"compute", 1.5}, {"memory", 1}}}};
        QCOMPARE(firstError(parseDevice(j.dump(), "d.json", "/nonexistent").diagnostics),
                 std::string("d.json: /efficiency/conv/compute: must be > 0 and <= 1, got 1.5"));
        QCOMPARE(firstError(parseDevice(base.dump(), "d.json", "/nonexistent").diagnostics),
                 std::string("d.json: /fusion_rules: /nonexistent/x.json: cannot open the file for reading: no such file"));
    }

    void shippedDevicesLoad_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("backend");
        QTest::newRow("mobile CPU") << "cortexa76_tflite_cpu.device.json" << "tflite-cpu";
        QTest::newRow("mobile GPU") << "adreno640_tflite_gpu.device.json" << "tflite-gpu";
        QTest::newRow("VPU") << "myriadx_openvino_vpu.device.json" << "openvino-vpu";
    }
    void shippedDevicesLoad()
    {
        QFETCH(QString, file);
        QFETCH(QString, backend);
        const DeviceLoad d = loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/" + file.toStdString());
        QVERIFY2(d.device, d.diagnostics.toString().c_str());
        QCOMPARE(QString::fromStdString(d.device->rules.backend), backend);
        QVERIFY(!d.device->rules.pairs.empty());
        const DeviceLoad again = parseDevice(serializeDevice(*d.device), "again.json", ROOFLINE_EXAMPLES_DIR "/nnmeter");
        QVERIFY2(again.device, again.diagnostics.toString().c_str());
        QCOMPARE(*again.device, *d.device);
    }

    // The torchvision fixtures under the mobile-CPU rules (tflite_cpu.rules.json).
    void torchvisionKernels_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("operators");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<QString>("counted");
        QTest::addColumn<int>("count");
        // ResNet-50: 53 conv, 53 bn, 49 relu, 16 add, maxpool, gap, fc = 174 operators (flatten is a view);
        // kernels: stem conv-bn-relu, maxpool, 16 x (2 conv-bn-relu + conv-bn + add-relu), 4 downsample conv-bn, gap, fc.
        QTest::newRow("resnet50 add-relu") << "resnet50" << 174 << 72 << "add-relu" << 16;
        QTest::newRow("resnet50 conv-bn") << "resnet50" << 174 << 72 << "conv-bn" << 20;
        // MobileNetV3-Small has a squeeze-and-excitation block in 9 of its 11 bottlenecks.
        QTest::newRow("mobilenet_v3_small se") << "mobilenet_v3_small" << 155 << 71 << "se" << 9;
        // ShuffleNetV2 x1.0: a channel shuffle after each of its 16 units.
        QTest::newRow("shufflenet_v2 shuffle") << "shufflenet_v2_x1_0" << 210 << 117 << "channelshuffle" << 16;
        // EfficientNet-B0: 16 MBConv blocks, each with an SE block.
        QTest::newRow("efficientnet_b0 se") << "efficientnet_b0" << 287 << 109 << "se" << 16;
    }
    void torchvisionKernels()
    {
        QFETCH(QString, file);
        QFETCH(int, operators);
        QFETCH(int, kernels);
        QFETCH(QString, counted);
        QFETCH(int, count);
        network::NetworkLoad net = network::loadAnyNetworkFile(ROOFLINE_SOURCE_DIR "/tests/data/onnx/" + file.toStdString() + ".onnx",
                                                               {});
        QVERIFY2(net.network, net.diagnostics.toString().c_str());
        const RulesLoad rules = loadRulesFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/tflite_cpu.rules.json");
        QVERIFY2(rules.rules, rules.diagnostics.toString().c_str());
        const Detection d = detectKernels(*net.network, *rules.rules);
        QCOMPARE(d.operators, operators);
        QCOMPARE(int(d.kernels.size()), kernels);
        const auto t = types(d);
        QCOMPARE(int(std::count(t.begin(), t.end(), counted.toStdString())), count);
        // Every layer is in exactly one kernel.
        std::vector<int> seen(net.network->layers.size(), 0);
        for (const Kernel &k : d.kernels)
            for (int m : k.layers)
                ++seen[std::size_t(m)];
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
    }
};

QTEST_GUILESS_MAIN(TestNnmeter)
#include "tst_nnmeter.moc"
