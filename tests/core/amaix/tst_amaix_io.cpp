// AMAIX files: the shipped examples, shape inference, strict loading with
// precise errors, measured-time CSV, overrides and result export.
#include "amaix/io.h"
#include "amaixtestutils.h"
#include "testutils.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace roofline;
using namespace roofline::amaix;
using nlohmann::json;

namespace {

json smallNetwork()
{
    return json::parse(R"({
      "format": "roofline-studio/amaix-network", "version": 1, "name": "small",
      "inputs": [{"name": "data", "shape": [1, 28, 28]}],
      "layers": [
        {"name": "conv1", "type": "convolution", "out_channels": 20, "kernel": 5, "output": [20, 24, 24]},
        {"name": "pool1", "type": "pooling", "mode": "max", "kernel": 2, "stride": 2},
        {"name": "ip1", "type": "fully_connected", "out_channels": 10},
        {"name": "add", "type": "eltwise_add", "inputs": ["ip1", "ip1"]}]})");
}

json smallAccelerator()
{
    return json::parse(R"({
      "format": "roofline-studio/amaix-accelerator", "version": 1, "name": "acc",
      "clock_ghz": {"value": 1, "source": "test"},
      "default_data_type": "fp16",
      "data_types": {"fp16": {"bytes": 2, "t_k": 16}},
      "units": {"CONV_CORE": {"mac_array": true}, "SDP": {"ops_per_cycle": 16}},
      "memories": {"DRAM": {"bandwidth_gbps": 64}},
      "mapping": {"convolution": {"unit": "CONV_CORE", "memory": "DRAM"}, "softmax": "host"},
      "pipelines": [["convolution", "bias"]],
      "scaling": {"model": "nvdla", "t_c": 64, "atom_nvdla_bytes": 32, "atom_axi_bytes": 64,
                  "cbuf_entry_bytes": 128, "cbuf_banks": 16, "cbuf_bytes": 524288}})");
}

// Applies a JSON Patch, or returns raw text for rows starting with "RAW:".
std::string patched(const json &doc, const QString &patch)
{
    if (patch.startsWith(QLatin1String("RAW:")))
        return patch.mid(4).toStdString();
    return doc.patch(json::parse(patch.toStdString())).dump();
}

void errorRows()
{
    QTest::addColumn<QString>("patch");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");
}

void row(const char *name, const char *patch, const char *pointer, const char *message)
{
    QTest::newRow(name) << QString::fromUtf8(patch) << QString::fromUtf8(pointer) << QString::fromUtf8(message);
}

template<typename Load>
void checkError(const Load &loaded, bool loadedValue, const QString &pointer, const QString &message)
{
    QVERIFY2(!loadedValue, "expected the document to be rejected");
    bool found = false;
    for (const Diagnostic &d : loaded.diagnostics.errors()) {
        if (d.pointer == pointer.toStdString() && d.message.find(message.toStdString()) != std::string::npos)
            found = true;
    }
    QVERIFY2(found, loaded.diagnostics.toString().c_str());
    QVERIFY(loaded.diagnostics.errors()[0].file == std::string("t.json"));
}

} // namespace

class TestAmaixIo : public QObject
{
    Q_OBJECT
private slots:
    // Every shipped network against the totals its source publishes.
    void shippedNetworks_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("parameters");
        QTest::addColumn<qint64>("macs");
        QTest::addColumn<double>("publishedMacs");
        QTest::addColumn<double>("tolerance");
        // networks.md: LeNet 430,500 weights + 580 biases, 2,293,000 MACs
        QTest::newRow("LeNet (networks.md)") << QStringLiteral("lenet.json") << qint64(431080) << qint64(2293000)
                                             << 2293000.0 << 0.0;
        // networks.md: AlexNet 60,954,656 weights + 10,568 biases, 724,406,816 MACs
        QTest::newRow("AlexNet (networks.md)") << QStringLiteral("alexnet.json") << qint64(60965224)
                                               << qint64(724406816) << 724406816.0 << 0.0;
        // VGG paper Table 2: 138 M parameters; torchvision vgg16: 138,357,544 and 15.47 GMACs
        QTest::newRow("VGG-16 (138,357,544; 15.47 GMACs)") << QStringLiteral("vgg16.json") << qint64(138357544)
                                                           << qint64(15470264320) << 15.47e9 << 0.001;
        // ResNet paper Table 1: 1.8e9 FLOPs (multiply-adds); torchvision resnet18: 11,689,512
        QTest::newRow("ResNet-18 (11,689,512; 1.8 GMACs)") << QStringLiteral("resnet18.json") << qint64(11689512)
                                                           << qint64(1814073344) << 1.8e9 << 0.01;
        // ResNet paper Table 1: 3.8e9 FLOPs (multiply-adds) for the original, stride on the 1x1;
        // 25,557,032 parameters (torchvision, same count). torchvision's v1.5 (stride on the 3x3) is 4.09 G.
        QTest::newRow("ResNet-50 (25,557,032; 3.8 GMACs)") << QStringLiteral("resnet50.json") << qint64(25557032)
                                                           << qint64(3857973248) << 3.8e9 << 0.02;
        // MobileNetV2 paper Table 4: 3.4 M parameters, 300 M multiply-adds; torchvision: 3,504,872
        QTest::newRow("MobileNetV2 (3,504,872; 300 MMACs)") << QStringLiteral("mobilenetv2.json") << qint64(3504872)
                                                            << qint64(300774272) << 300e6 << 0.005;
        // BERT-base: 4 H^2 + 2 H 4H weights (+ biases, 2 layer norms) per layer; MACs at 128 tokens
        QTest::newRow("BERT-base layer (7,087,872; 931 MMACs)") << QStringLiteral("bert_base_layer.json")
                                                                << qint64(7087872) << qint64(931135488)
                                                                << 931135488.0 << 0.0;
    }
    void shippedNetworks()
    {
        QFETCH(QString, file);
        QFETCH(qint64, parameters);
        QFETCH(qint64, macs);
        QFETCH(double, publishedMacs);
        QFETCH(double, tolerance);
        const Network n = amaixtest::network(file.toStdString());
        const LayerCounts c = countNetwork(n);
        QCOMPARE(qint64(c.parameters()), parameters);
        QCOMPARE(qint64(c.macs), macs);
        ROOFLINE_COMPARE_REL(double(c.macs), publishedMacs, tolerance);
        QVERIFY(!n.source.empty());
    }

    void shippedAccelerators_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("sources");
        QTest::newRow("nv_full") << QStringLiteral("nv_full.json") << 18;
        QTest::newRow("nv_large") << QStringLiteral("nv_large.json") << 14;
        QTest::newRow("nv_small") << QStringLiteral("nv_small.json") << 13;
        QTest::newRow("generic DLA") << QStringLiteral("generic_dla.json") << 7;
    }
    void shippedAccelerators()
    {
        QFETCH(QString, file);
        QFETCH(int, sources);
        const Accelerator a = amaixtest::accelerator(file.toStdString());
        // Every number in the file carries its source.
        QCOMPARE(int(a.sources.size()), sources);
        for (const auto &[pointer, source] : a.sources)
            QVERIFY2(!source.empty(), pointer.c_str());
    }

    void shapeInference()
    {
        const NetworkLoad r = parseNetwork(smallNetwork().dump(), "t.json");
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        const Network &n = *r.network;
        QCOMPARE(n.layers[1].output, (Shape{20, 12, 12}));
        QCOMPARE(n.layers[2].output, (Shape{10, 1, 1}));
        QCOMPARE(n.layers[2].inputs, std::vector<int>{1}); // the previous layer by default
        // Caffe's ceil rounding vs floor
        Network net = n;
        net.layers[1].kernelH = net.layers[1].kernelW = 3;
        Diagnostics d;
        QVERIFY(inferShapes(net, d));
        QCOMPARE(net.layers[1].output, (Shape{20, 11, 11}));
        net.layers[1].rounding = Rounding::Ceil;
        QVERIFY(inferShapes(net, d));
        QCOMPARE(net.layers[1].output, (Shape{20, 12, 12}));
    }

    void networkErrors_data()
    {
        errorRows();
        row("malformed JSON", "RAW:{\"format\": \n  oops}", "line 2, column 3", "invalid JSON");
        row("wrong format id", R"([{"op":"replace","path":"/format","value":"roofline-studio/gables"}])", "/format",
            "expected \"roofline-studio/amaix-network\"");
        row("future version", R"([{"op":"replace","path":"/version","value":2}])", "/version", "reads version 1, got 2");
        row("unknown top-level key", R"([{"op":"add","path":"/layer","value":[]}])", "/layer", "unknown key \"layer\"");
        row("unknown layer key (typo)", R"([{"op":"add","path":"/layers/0/kernal","value":3}])", "/layers/0/kernal",
            "unknown key \"kernal\"");
        row("key of another layer type", R"([{"op":"add","path":"/layers/1/groups","value":2}])", "/layers/1/groups",
            "unknown key \"groups\"");
        row("unknown layer type", R"([{"op":"replace","path":"/layers/1/type","value":"pool"}])", "/layers/1/type",
            "unknown layer type \"pool\"");
        row("missing out_channels", R"([{"op":"remove","path":"/layers/0/out_channels"}])", "/layers/0/out_channels",
            "required field is missing");
        row("fractional kernel", R"([{"op":"replace","path":"/layers/0/kernel","value":2.5}])", "/layers/0/kernel",
            "whole number");
        row("kernel pair of three", R"([{"op":"replace","path":"/layers/0/kernel","value":[1,2,3]}])",
            "/layers/0/kernel", "[height, width]");
        row("stated output differs", R"([{"op":"replace","path":"/layers/0/output","value":[20,24,25]}])",
            "/layers/0/output", "layer \"conv1\": stated output 20x24x25 does not match the inferred 20x24x24");
        row("unknown input", R"([{"op":"add","path":"/layers/1/input","value":"conv9"}])", "/layers/1/input",
            "no earlier layer or network input named \"conv9\"");
        row("input defined later", R"([{"op":"add","path":"/layers/1/input","value":"ip1"}])", "/layers/1/input",
            "no earlier layer");
        row("groups do not divide", R"([{"op":"add","path":"/layers/0/groups","value":3}])", "/layers/0",
            "layer \"conv1\": groups (3) must divide the input channels (1)");
        row("window larger than the input", R"([{"op":"replace","path":"/layers/0/kernel","value":29}])", "/layers/0",
            "layer \"conv1\": the window does not fit the input 1x28x28");
        row("element-wise shapes differ", R"([{"op":"replace","path":"/layers/3/inputs","value":["ip1","pool1"]}])",
            "/layers/3", "layer \"add\": input 1 is 20x12x12, input 0 is 10x1x1");
        row("one input for element-wise", R"([{"op":"replace","path":"/layers/3/inputs","value":["ip1"]}])",
            "/layers/3", "takes at least 2 inputs, got 1");
        row("duplicate layer name", R"([{"op":"replace","path":"/layers/1/name","value":"conv1"}])",
            "/layers/1/name", "duplicate name \"conv1\"");
        row("zero dimension", R"([{"op":"replace","path":"/inputs/0/shape","value":[1,0,28]}])",
            "/inputs/0/shape/1", "must be a whole number");
        row("bad pooling mode", R"([{"op":"replace","path":"/layers/1/mode","value":"min"}])", "/layers/1/mode",
            "expected \"max\" or \"average\"");
    }
    void networkErrors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        const NetworkLoad r = parseNetwork(patched(smallNetwork(), patch), "t.json");
        checkError(r, r.network.has_value(), pointer, message);
    }

    void acceleratorLoads()
    {
        const AcceleratorLoad r = parseAccelerator(smallAccelerator().dump(), "t.json");
        QVERIFY2(r.accelerator, r.diagnostics.toString().c_str());
        const Accelerator &a = *r.accelerator;
        QCOMPARE(a.sources.at("/clock_ghz"), std::string("test"));
        QVERIFY(a.mapping[std::size_t(LayerType::Softmax)].onHost());
        QVERIFY(!a.mapping[std::size_t(LayerType::Pooling)].mapped);
        QCOMPARE(a.pipelines.size(), std::size_t(1));
        QCOMPARE(a.pipelines[0].steps[1], typeBit(LayerType::Bias));
        QCOMPARE(a.nvdla.entriesPerBank(), 256.0);
    }

    void acceleratorErrors_data()
    {
        errorRows();
        row("wrong format id", R"([{"op":"replace","path":"/format","value":"x"}])", "/format",
            "expected \"roofline-studio/amaix-accelerator\"");
        row("unknown scaling key (typo)", R"([{"op":"add","path":"/scaling/t_cc","value":64}])", "/scaling/t_cc",
            "unknown key \"t_cc\"");
        row("unknown scaling model", R"([{"op":"replace","path":"/scaling/model","value":"eyeriss"}])",
            "/scaling/model", "expected \"general\" or \"nvdla\"");
        row("missing nvdla parameter", R"([{"op":"remove","path":"/scaling/cbuf_banks"}])", "/scaling/cbuf_banks",
            "required field is missing");
        row("mapping to an unknown unit", R"([{"op":"replace","path":"/mapping/convolution/unit","value":"CMAC"}])",
            "/mapping/convolution/unit", "no unit named \"CMAC\"");
        row("mapping to an unknown memory",
            R"([{"op":"replace","path":"/mapping/convolution/memory","value":"SRAM"}])", "/mapping/convolution/memory",
            "no memory named \"SRAM\"");
        row("mapping an unknown layer type", R"([{"op":"add","path":"/mapping/conv","value":"host"}])",
            "/mapping/conv", "unknown layer type \"conv\"");
        row("mapping a free layer type", R"([{"op":"add","path":"/mapping/flatten","value":"host"}])",
            "/mapping/flatten", "never executed");
        row("MAC array with its own peak under nvdla",
            R"([{"op":"add","path":"/units/CONV_CORE/ops_per_cycle","value":1024}])", "/units/CONV_CORE/ops_per_cycle",
            "t_k x t_c");
        row("unit without a peak", R"([{"op":"remove","path":"/units/SDP/ops_per_cycle"}])",
            "/units/SDP/ops_per_cycle", "required field is missing");
        row("negative bandwidth", R"([{"op":"replace","path":"/memories/DRAM/bandwidth_gbps","value":-3}])",
            "/memories/DRAM/bandwidth_gbps", "must be > 0 and <= 1e+09, got -3");
        row("nvdla data type without t_k", R"([{"op":"remove","path":"/data_types/fp16/t_k"}])",
            "/data_types/fp16/t_k", "required field is missing");
        row("unknown default data type", R"([{"op":"replace","path":"/default_data_type","value":"int8"}])",
            "/default_data_type", "no data type named \"int8\"");
        row("unknown pipeline step", R"([{"op":"replace","path":"/pipelines/0/1","value":"bias|relu"}])",
            "/pipelines/0/1", "unknown layer type \"relu\"");
        row("CBUF smaller than one entry per bank", R"([{"op":"replace","path":"/scaling/cbuf_bytes","value":1024}])",
            "/scaling/cbuf_bytes", "at least one entry per bank");
    }
    void acceleratorErrors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        const AcceleratorLoad r = parseAccelerator(patched(smallAccelerator(), patch), "t.json");
        checkError(r, r.accelerator.has_value(), pointer, message);
    }

    void measuredCsv_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing header") << QStringLiteral("conv1,3\n") << QStringLiteral("line 1")
                                        << QStringLiteral("expected the header");
        QTest::newRow("empty file") << QString() << QStringLiteral("line 1") << QStringLiteral("empty");
        QTest::newRow("not a number") << QStringLiteral("layer,time_us\nconv1,fast\n") << QStringLiteral("line 2")
                                      << QStringLiteral("time: expected a number, got \"fast\"");
        QTest::newRow("three fields") << QStringLiteral("layer,time_us\nconv1,1,2\n") << QStringLiteral("line 2")
                                      << QStringLiteral("two fields");
        QTest::newRow("negative time") << QStringLiteral("layer,time_ms\n\nconv1,-1\n") << QStringLiteral("line 3")
                                       << QStringLiteral(">= 0");
        // Issue 14: a denormal was refused with a wrong reason, 1e308 ms overflowed to inf and printed -nan%.
        QTest::newRow("denormal time") << QStringLiteral("layer,time_us\nconv1,1e-320\n") << QStringLiteral("line 2")
                                       << QStringLiteral("too small to compute with");
        QTest::newRow("huge time") << QStringLiteral("layer,time_ms\nconv1,1e308\n") << QStringLiteral("line 2")
                                   << QStringLiteral("<= 1e+09");
    }
    void measuredCsv()
    {
        QFETCH(QString, text);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        const MeasuredLoad r = parseMeasuredCsv(text.toStdString(), "t.json");
        checkError(r, r.times.has_value(), pointer, message);
    }

    // Issue 14 (a 100 MB line of letters opened in the studio): a first line
    // with no comma was "expected two fields" and then "the file is empty".
    void measuredFirstLineNotAHeader()
    {
        for (const std::string text : {"aaaa", "aaaa\n", "a,b,c\nconv1,3\n"}) {
            const MeasuredLoad r = parseMeasuredCsv(text, "m.csv");
            QVERIFY(!r.times);
            QCOMPARE(r.diagnostics.errors().size(), std::size_t(1));
            const std::string all = r.diagnostics.toString();
            QVERIFY2(all.find("m.csv: line 1: expected the header \"layer,time_us\" (or time_ns, time_ms), got \"")
                         != std::string::npos, all.c_str());
            QVERIFY2(all.find("empty") == std::string::npos, all.c_str());
        }
    }

    void measuredUnits()
    {
        const MeasuredLoad r = parseMeasuredCsv("layer,time_ms\r\nconv1, 1.5\r\n", "m.csv");
        QVERIFY2(r.times, r.diagnostics.toString().c_str());
        QCOMPARE(r.times->size(), std::size_t(1));
        QCOMPARE(r.times->at(0).timeNs, 1.5e6);
        QCOMPARE(r.times->at(0).line, 2);
    }

    void overrides()
    {
        Accelerator a = amaixtest::accelerator("nv_full.json");
        Diagnostics d;
        QVERIFY(applyOverride(a, "/memories/DRAM/bandwidth_gbps=32", d));
        QCOMPARE(a.memories[0].bandwidthGBps, 32.0);
        QVERIFY(applyOverride(a, "data_types/fp16/t_k=32", d));
        QCOMPARE(a.dataType("fp16")->tK, 32);
        QVERIFY(applyOverride(a, "/scaling/cbuf_bytes=1048576", d));
        QCOMPARE(a.nvdla.entriesPerBank(), 512.0);
        QVERIFY(d.all().empty());
        const Accelerator before = a;
        QVERIFY(!applyOverride(a, "/scaling/t_c=0", d));
        QCOMPARE(d.errors().back().pointer, std::string("/scaling/t_c"));
        QVERIFY(!applyOverride(a, "/units/CONV_CORE/ops_per_cycle=4", d));
        QVERIFY(!applyOverride(a, "/memories/SRAM/bandwidth_gbps=4", d));
        QVERIFY(!applyOverride(a, "/clock_ghz=fast", d));
        QVERIFY(!applyOverride(a, "/name=3", d));
        QVERIFY(a == before);
    }

    void resultExport()
    {
        const Network n = amaixtest::network("alexnet.json");
        const Accelerator a = amaixtest::accelerator("nv_full.json");
        const Result r = evaluate(n, a);
        const json j = resultToJson(n, a, r);
        QCOMPARE(j["status"].get<std::string>(), std::string("ok"));
        QCOMPARE(j["stages"].size(), r.stages.size());
        QCOMPARE(j["pipes"].size(), r.pipes.size());
        QCOMPARE(j["stages"][0]["name"].get<std::string>(), std::string("conv1[1/5]"));
        QCOMPARE(j["stages"][0]["mode"].get<int>(), 4);
        ROOFLINE_COMPARE_REL(j["total_ns"].get<double>(), r.totalNs, 1e-15);
        const std::string csv = resultToCsv(n, a, r);
        QCOMPARE(std::size_t(std::count(csv.begin(), csv.end(), '\n')), r.stages.size() + 1);
        QVERIFY(csv.rfind("stage,layer,type,unit,mode", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TestAmaixIo)
#include "tst_amaix_io.moc"
