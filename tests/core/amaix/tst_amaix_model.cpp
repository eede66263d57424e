// The AMAIX model against the paper (seed 000, sections 3.3-3.6) and models.md 2.1-2.6.
#include "amaix/baseline.h"
#include "amaix/model.h"
#include "amaixtestutils.h"
#include "testutils.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>

using namespace roofline::amaix;

Q_DECLARE_METATYPE(roofline::amaix::Shape)

namespace {

const Stage &stage(const Network &net, const Result &r, const std::string &name)
{
    for (const Stage &s : r.stages) {
        if (stageName(net, s) == name)
            return s;
    }
    qFatal("no stage %s", name.c_str());
}

struct Fixture
{
    Network lenet = amaixtest::network("lenet.json");
    Network alexnet = amaixtest::network("alexnet.json");
    Accelerator nvFull = amaixtest::accelerator("nv_full.json");
    Accelerator generic = amaixtest::accelerator("generic_dla.json");
};

const Fixture &fixture()
{
    static const Fixture f;
    return f;
}

} // namespace

class TestAmaixModel : public QObject
{
    Q_OBJECT
private slots:
    // Section 2 / models.md 2.1: the general model counts one byte per element and one op per MAC.
    void generalModelLenetConv1()
    {
        const Fixture &f = fixture();
        const Result r = evaluate(f.lenet, f.generic);
        QVERIFY2(r.ok(), r.error.c_str());
        const Stage &conv = stage(f.lenet, r, "conv1");
        QCOMPARE(conv.in, (Shape{1, 28, 28}));
        QCOMPARE(conv.out, (Shape{20, 24, 24}));
        QCOMPARE(conv.kw * conv.kh * conv.kc * conv.kn, std::int64_t(500));
        QCOMPARE(conv.ops, 288000.0);
        QCOMPARE(conv.dIfmap, 784.0);
        QCOMPARE(conv.dWeight, 500.0);
        QCOMPARE(conv.dOfmap, 0.0); // written by the pipelined bias stage
        QCOMPARE(conv.scaleOps(), 1.0);
        QCOMPARE(conv.scaleIfmap(), 1.0);
        QCOMPARE(conv.scaleWeight(), 1.0);
        const Stage &bias = stage(f.lenet, r, "conv1.bias");
        QCOMPARE(bias.dIfmap, 0.0);
        QCOMPARE(bias.dWeight, 20.0);
        QCOMPARE(bias.dOfmap, 11520.0);
        QCOMPARE(bias.ops, 11520.0);
        // pool: one op per output element times the window
        QCOMPARE(stage(f.lenet, r, "pool1").ops, 20.0 * 12 * 12 * 4);
    }

    // Section 3.3: each NVDLA scaling factor on a layer where it matters.
    void nvdlaScaling_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<double>("expected");

        auto row = [](const char *name, const char *net, const char *st, const char *q, double v) {
            QTest::newRow(name) << QString::fromUtf8(net) << QString::fromUtf8(st) << QString::fromUtf8(q) << v;
        };
        row("3.3 scale_ops: conv3, no fragmentation", "alexnet", "conv3", "scale_ops", 1.0);
        row("3.3 scale_ops: conv1, spatial fragmentation (i_c=3 of T_c=64)", "alexnet", "conv1[2/5]", "scale_ops",
            1.0 * 6 * 1024 / (3 * 96));
        row("3.3 scale_ops: LeNet conv2, temporal fragmentation (k_n=50 of T_k=16)", "lenet", "conv2", "scale_ops",
            4.096);
        row("3.3 scale_ops: grouped conv2 run dense (x2 MACs, i_c=96)", "alexnet", "conv2", "n_ops",
            128.0 * 256 * 27 * 27 * 25);
        row("3.3 scale_weight: conv1 padded to cbuf_width", "alexnet", "conv1[1/5]", "d_weight", 545.0 * 128);
        row("3.3 scale_weight: conv2 dense weights", "alexnet", "conv2", "d_weight", 2.0 * 307200 * 2);
        row("3.3 scale_ifmap: LeNet conv1 padded to 16 channels, even rows", "lenet", "conv1", "d_ifmap",
            28.0 * 28 * 32);
        row("3.3 scale_ifmap: conv1 tile, odd rows add d_darkBW", "alexnet", "conv1[2/5]", "d_ifmap",
            58.0 * (227 * 32 + 32));
        row("3.3 scale_ofmap: conv = 0 (pipelined)", "alexnet", "conv3", "d_ofmap", 0);
        row("3.3 bias scale_ifmap = 0", "alexnet", "conv3.bias", "d_ifmap", 0);
        row("3.3 bias n_ops: ceil(w h pad(c)/16) 16", "lenet", "conv1.bias", "n_ops", 24.0 * 24 * 32);
        row("3.3 bias d_weight: fc8, ceil(k_n b / atom_AXI) atom_AXI", "alexnet", "fc8.bias", "d_weight", 2048);
        row("3.3 bias d_ofmap: fc8 compact mode, odd atom count", "alexnet", "fc8.bias", "d_ofmap", 2016 + 32);
        row("3.3 bias d_ofmap: fc6 compact mode, even atom count", "alexnet", "relu6", "d_ofmap", 8192);
        row("3.3 bias d_ofmap: LeNet conv2 row-wise, even rows", "lenet", "conv2.bias", "d_ofmap", 64.0 * 128);
        row("models.md 2.2: LRN on CDP, padded data with d_darkBW", "alexnet", "norm1", "d_total",
            2.0 * (192.0 * 55 * 55 + 55 * 192));
    }
    void nvdlaScaling()
    {
        QFETCH(QString, net);
        QFETCH(QString, stage);
        QFETCH(QString, quantity);
        QFETCH(double, expected);
        const Fixture &f = fixture();
        const Network &network = net == QLatin1String("lenet") ? f.lenet : f.alexnet;
        const Result r = evaluate(network, f.nvFull);
        QVERIFY2(r.ok(), r.error.c_str());
        const Stage &s = ::stage(network, r, stage.toStdString());
        const double actual = quantity == QLatin1String("scale_ops") ? s.scaleOps()
            : quantity == QLatin1String("n_ops")                     ? s.ops
            : quantity == QLatin1String("d_weight")                  ? s.dWeight
            : quantity == QLatin1String("d_ifmap")                   ? s.dIfmap
            : quantity == QLatin1String("d_ofmap")                   ? s.dOfmap
                                                                     : s.dTotal();
        ROOFLINE_COMPARE_REL(actual, expected, 1e-12);
    }

    // Section 3.4: the first mode whose data fits the CBUF, in the compiler's order.
    void modes_data()
    {
        QTest::addColumn<Shape>("in");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("kc");
        QTest::addColumn<int>("kn");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("tileRows");
        QTest::addColumn<int>("tileOutputRows");

        QTest::newRow("LeNet conv1: mode 1") << Shape{1, 28, 28} << 5 << 1 << 20 << 1 << 1 << 0 << 0;
        QTest::newRow("AlexNet conv2 (dense): mode 2") << Shape{96, 27, 27} << 5 << 96 << 256 << 1 << 2 << 0 << 0;
        QTest::newRow("sec3.5 AlexNet fc6: mode 3") << Shape{256, 6, 6} << 6 << 256 << 4096 << 1 << 3 << 0 << 0;
        QTest::newRow("fig6 AlexNet conv1: mode 4, 58 rows") << Shape{3, 227, 227} << 11 << 3 << 96 << 4 << 4 << 58 << 12;
        QTest::newRow("large ifmap, large weights: mode 5") << Shape{64, 512, 512} << 3 << 64 << 1024 << 1 << 5 << 7 << 5;
        QTest::newRow("large ifmap, fc6-like weights: mode 6") << Shape{256, 100, 50} << 6 << 256 << 4096 << 1 << 6 << 8 << 3;
        QTest::newRow("kernel taller than a tile: no mode") << Shape{256, 100, 50} << 11 << 256 << 4096 << 1 << 0 << 0 << 0;
    }
    void modes()
    {
        QFETCH(Shape, in);
        QFETCH(int, kernel);
        QFETCH(int, kc);
        QFETCH(int, kn);
        QFETCH(int, stride);
        QFETCH(int, mode);
        QFETCH(int, tileRows);
        QFETCH(int, tileOutputRows);
        const nvdla::ModeChoice c
            = nvdla::chooseMode(in, kernel, kernel, kc, kn, stride, 2, 16, fixture().nvFull.nvdla);
        QCOMPARE(int(c.mode), mode);
        QCOMPARE(c.tileRows, std::int64_t(tileRows));
        QCOMPARE(c.tileOutputRows, std::int64_t(tileOutputRows));
    }

    void entriesPerRow()
    {
        const NvdlaParams &p = fixture().nvFull.nvdla;
        QCOMPARE(nvdla::entriesPerRow({3, 227, 227}, 2, p), std::int64_t(57));  // 1 atom: ceil(227/4)
        QCOMPARE(nvdla::entriesPerRow({96, 27, 27}, 2, p), std::int64_t(27 + 14)); // 6 atoms: 4 + 2
        QCOMPARE(nvdla::entriesPerRow({40, 9, 9}, 2, p), std::int64_t(9));        // 3 atoms count as a whole row
    }

    // Fig. 6: AlexNet conv1 on nv_full in fp16 runs as five tiles of 58, 58, 58, 58 and 35 input rows.
    void fig6ConvTiles()
    {
        const Fixture &f = fixture();
        const Result r = evaluate(f.alexnet, f.nvFull);
        QVERIFY2(r.ok(), r.error.c_str());
        std::vector<std::int64_t> inRows, outRows;
        std::vector<double> weights;
        for (const Stage &s : r.stages) {
            if (s.layer == f.alexnet.indexOf("conv1") && !s.biasOfLayer) {
                QCOMPARE(s.mode, ConvMode::TiledFull);
                QCOMPARE(s.tileCount, 5);
                inRows.push_back(s.in.h);
                outRows.push_back(s.out.h);
                weights.push_back(s.dWeight);
            }
        }
        QCOMPARE(inRows, (std::vector<std::int64_t>{58, 58, 58, 58, 35}));
        QCOMPARE(outRows, (std::vector<std::int64_t>{12, 12, 12, 12, 7}));
        // Mode 4 keeps the full weights in the CBUF: fetched with the first tile only.
        QCOMPARE(weights, (std::vector<double>{69760, 0, 0, 0, 0}));
        // Section 3.5: 888 ops/B for conv1 (the tiles without weights, pipe intensity).
        const Pipe &tile2 = r.pipes[std::size_t(stage(f.alexnet, r, "conv1[2/5]").pipe)];
        ROOFLINE_COMPARE_REL(r.pipeIntensity(tile2), 888.3, 1e-3);
    }

    // Section 3.6: fc6 takes 1180.2 us with fetch and compute in parallel. The
    // sequential figure of the seed (1769.8 us) is not what t_mem + t_compute
    // gives; the formula's value is pinned (docs/models/amaix.md).
    void sec36Fc6()
    {
        const Fixture &f = fixture();
        const Result plain = evaluate(f.alexnet, f.nvFull);
        const Stage &fc6 = stage(f.alexnet, plain, "fc6");
        QCOMPARE(fc6.mode, ConvMode::FullOneGroup);
        QCOMPARE(fc6.dWeight, 75497472.0);
        QCOMPARE(fc6.dIfmap, 18432.0);
        QCOMPARE(fc6.ops, 37748736.0);
        const Pipe &pipe = plain.pipes[std::size_t(fc6.pipe)];
        QCOMPARE(pipe.stageCount, 3); // fc6, fc6.bias, relu6
        QCOMPARE(pipe.bytes, 75532288.0);
        QCOMPARE(pipe.bound, Bound::Memory);
        QCOMPARE(stageName(f.alexnet, plain.stages[std::size_t(pipe.dominant)]), std::string("fc6"));
        ROOFLINE_COMPARE_REL(pipe.timeNs, 1180192.0, 1e-12);
        ROOFLINE_COMPARE_REL(pipe.timeNs / 1e3, 1180.2, 1e-4); // the seed's figure

        Options refine;
        refine.refine = true;
        const Result refined = evaluate(f.alexnet, f.nvFull, refine);
        const Pipe &seq = refined.pipes[std::size_t(stage(f.alexnet, refined, "fc6").pipe)];
        QVERIFY(seq.sequential);
        ROOFLINE_COMPARE_REL(seq.warmupNs, (294912.0 + 18432.0) / 64, 1e-12); // kernel group + ifmap
        ROOFLINE_COMPARE_REL(seq.timeNs, 1180192.0 + 36864.0, 1e-12);        // t_mem + t_compute
    }

    void refineWarmup()
    {
        const Fixture &f = fixture();
        Options refine;
        refine.refine = true;
        const Result r = evaluate(f.lenet, f.nvFull, refine);
        const Stage &conv2 = stage(f.lenet, r, "conv2");
        const Pipe &pipe = r.pipes[std::size_t(conv2.pipe)];
        QVERIFY(!pipe.sequential);
        // d_kgroup = ceil(2·16·5·5·20/64)·64 = 16000 > d_ifmap = 12·12·64 = 9216 (20 channels pad to 32)
        ROOFLINE_COMPARE_REL(pipe.warmupNs, (16000.0 + 9216.0) / 64, 1e-12);
        ROOFLINE_COMPARE_REL(pipe.timeNs, pipe.warmupNs + std::max(pipe.computeNs, pipe.memoryNs), 1e-12);
        QVERIFY(r.totalNs > evaluate(f.lenet, f.nvFull).totalNs);
    }

    // Section 2.3: a pipe takes its slowest stage against the pipe's total traffic.
    void pipelines()
    {
        const Fixture &f = fixture();
        const Result r = evaluate(f.lenet, f.nvFull);
        QCOMPARE(r.pipes.size(), std::size_t(7)); // conv1+b, pool1, conv2+b, pool2, ip1+b+relu1, ip2+b, prob
        const Pipe &ip1 = r.pipes[4];
        QCOMPARE(ip1.stageCount, 3);
        QCOMPARE(stageName(f.lenet, r.stages[std::size_t(ip1.dominant)]), std::string("ip1"));
        double bytes = 0;
        for (int k = 0; k < ip1.stageCount; ++k)
            bytes += r.stages[std::size_t(ip1.firstStage + k)].dTotal();
        QCOMPARE(ip1.bytes, bytes);
        ROOFLINE_COMPARE_REL(ip1.timeNs, bytes / 64, 1e-12);
        QVERIFY(r.pipes.back().onHost); // softmax on the host
        QCOMPARE(r.pipes.back().timeNs, 0.0);
        QCOMPARE(r.layerNs[std::size_t(f.lenet.indexOf("relu1"))], 0.0); // the pipe's time goes to its head
        ROOFLINE_COMPARE_REL(r.layerNs[std::size_t(f.lenet.indexOf("ip1"))], ip1.timeNs, 1e-15);
    }

    void producerWithTwoConsumersEndsThePipe()
    {
        const char *text = R"({"format": "roofline-studio/amaix-network", "version": 1, "name": "fork",
          "inputs": [{"name": "x", "shape": [64, 8, 8]}],
          "layers": [
            {"name": "a", "type": "convolution", "out_channels": 64, "kernel": 1, "bias": false},
            {"name": "a_bn", "type": "batch_norm"},
            {"name": "r", "type": "activation", "function": "relu", "input": "a_bn"},
            {"name": "s", "type": "eltwise_add", "inputs": ["a_bn", "r"]}]})";
        auto loaded = parseNetwork(text, "fork.json");
        QVERIFY2(loaded.network, loaded.diagnostics.toString().c_str());
        const Result r = evaluate(*loaded.network, fixture().nvFull);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.pipes.size(), std::size_t(3)); // a+a_bn | r | s (a_bn feeds two layers: written out)
        QCOMPARE(r.pipes[0].stageCount, 2);
        QVERIFY(r.stages[1].dOfmap > 0);
        QCOMPARE(r.stages[2].dIfmap, r.stages[1].dOfmap);
    }

    // Section 3.5 totals: regression values of this implementation next to the seed's figures.
    void totals_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<bool>("refine");
        QTest::addColumn<double>("expectedNs"); // this implementation (paste-ready)
        QTest::addColumn<double>("paperNs");
        QTest::addColumn<double>("paperTolerance");
        QTest::newRow("tab1 LeNet (paper 53.9 us)") << QStringLiteral("lenet") << false << 49780.0 << 53900.0 << 0.1;
        QTest::newRow("tab2 AlexNet (paper 5.416 ms)") << QStringLiteral("alexnet") << false << 5320862.0 << 5416000.0
                                                        << 0.05;
        QTest::newRow("sec3.6 AlexNet refined (paper 98% of 6.124 ms)")
            << QStringLiteral("alexnet") << true << 5405438.4375 << 6124000.0 * 0.98 << 0.15;
    }
    void totals()
    {
        QFETCH(QString, net);
        QFETCH(bool, refine);
        QFETCH(double, expectedNs);
        QFETCH(double, paperNs);
        QFETCH(double, paperTolerance);
        const Fixture &f = fixture();
        Options o;
        o.refine = refine;
        const Result r = evaluate(net == QLatin1String("lenet") ? f.lenet : f.alexnet, f.nvFull, o);
        QVERIFY2(r.ok(), r.error.c_str());
        ROOFLINE_COMPARE_REL(r.totalNs, expectedNs, 1e-6);
        ROOFLINE_COMPARE_REL(r.totalNs, paperNs, paperTolerance);
        ROOFLINE_COMPARE_REL(r.fps, 1e9 / r.totalNs, 1e-12);
        double units = 0;
        for (double t : r.unitNs)
            units += t;
        ROOFLINE_COMPARE_REL(units, r.totalNs, 1e-12);
    }

    // models.md 2.6: the performance sheet, one hand-computed row and the total.
    void baseline()
    {
        const Fixture &f = fixture();
        const BaselineResult b = evaluateBaseline(f.alexnet, f.nvFull);
        QVERIFY2(b.ok, b.error.c_str());
        QCOMPARE(b.rows.size(), std::size_t(8)); // 5 conv + 3 fc
        const BaselineRow &conv1 = b.rows[0];
        QVERIFY(conv1.pooledOutput); // norm1 fused, pool1 fused
        ROOFLINE_COMPARE_REL(conv1.inKB, 48.0 * 57 * 57 * 2 / 1024, 1e-12);
        ROOFLINE_COMPARE_REL(conv1.outKB, 27.0 * 27 * 96 * 2 / 1024, 1e-12);
        ROOFLINE_COMPARE_REL(conv1.weightKB, 48.0 * 3 * 3 * 96 * 2 / 1024, 1e-12);
        QCOMPARE(conv1.dramCycles, 8161.0);
        ROOFLINE_COMPARE_REL(conv1.macCycles, 48.0 * 55 * 55 * 96 * 121 / 16 / 1024, 1e-12);
        // conv3 is 3x3: Winograd weights x16/9, MAC cycles / 2.25
        ROOFLINE_COMPARE_REL(b.rows[2].weightKB, 256.0 * 9 * 384 * 2 / 1024 * 16 / 9, 1e-12);
        ROOFLINE_COMPARE_REL(b.totalNs, 2257470.0, 1e-5);
        ROOFLINE_COMPARE_REL(b.totalNs, 2.3e6, 0.05); // seed 000 section 3.5: 2.3 ms
        BaselineOptions noWinograd;
        noWinograd.winograd = false;
        QVERIFY(evaluateBaseline(f.alexnet, f.nvFull, noWinograd).totalNs > b.totalNs);
    }

    void comparison()
    {
        const Fixture &f = fixture();
        const Result r = evaluate(f.alexnet, f.nvFull);
        const BaselineResult b = evaluateBaseline(f.alexnet, f.nvFull);
        auto m = parseMeasuredCsv("layer,time_us\n# comment\nfc6,1700\nconv1, 2000\ntotal,6124\n", "m.csv");
        QVERIFY2(m.times, m.diagnostics.toString().c_str());
        roofline::Diagnostics d;
        const Comparison c = compare(f.alexnet, r, b, *m.times, d);
        QVERIFY(!d.hasErrors());
        QCOMPARE(c.rows.size(), std::size_t(2));
        QCOMPARE(c.rows[0].layer, std::string("fc6"));
        ROOFLINE_COMPARE_REL(c.rows[0].amaixError(), (1180192.0 - 1.7e6) / 1.7e6, 1e-12);
        QCOMPARE(c.total.measuredNs, 6124000.0);
        ROOFLINE_COMPARE_REL(c.total.amaixNs, r.totalNs, 1e-15);
        auto bad = parseMeasuredCsv("layer,time_us\nfc9,1\n", "m.csv");
        QVERIFY(bad.times);
        compare(f.alexnet, r, b, *bad.times, d);
        QCOMPARE(d.errors().size(), std::size_t(1));
        QCOMPARE(d.errors()[0].pointer, std::string("line 2"));
    }

    void failuresComeBackAsValues()
    {
        const Fixture &f = fixture();
        Options o;
        o.dataType = "fp64";
        Result r = evaluate(f.alexnet, f.nvFull, o);
        QCOMPARE(r.status, Status::Invalid);
        QVERIFY(r.error.find("fp64") != std::string::npos);
        Accelerator small = f.nvFull;
        small.nvdla.cbufBytes = 16 * 128 * 4; // 4 entries per bank
        r = evaluate(f.alexnet, small);
        QCOMPARE(r.status, Status::Infeasible);
        QVERIFY2(r.error.find("conv1") != std::string::npos, r.error.c_str());
        Accelerator unmapped = f.nvFull;
        unmapped.mapping[std::size_t(LayerType::Lrn)] = Mapping{};
        r = evaluate(f.alexnet, unmapped);
        QCOMPARE(r.status, Status::Invalid);
        QVERIFY2(r.error.find("norm1") != std::string::npos, r.error.c_str());
    }

    // docs/views/amaix.md: AlexNet is written for fp16, nv_small offers only
    // int8. The studio evaluates with the accelerator's default then; an
    // explicit choice and a type the accelerator offers stay as they are.
    void networkDataTypeFallsBackToTheAcceleratorsDefault()
    {
        const Network alexnet = amaixtest::network("alexnet.json");
        const Accelerator nvSmall = amaixtest::accelerator("nv_small.json");
        const Accelerator nvFull = amaixtest::accelerator("nv_full.json");
        QCOMPARE(alexnet.dataType, std::string("fp16"));
        QVERIFY(!nvSmall.dataType("fp16"));

        bool fellBack = false;
        Options o = withOfferedDataType(alexnet, nvSmall, Options{}, &fellBack);
        QVERIFY(fellBack);
        QCOMPARE(o.dataType, std::string("int8"));
        const Result r = evaluate(alexnet, nvSmall, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.dataType, std::string("int8"));
        QCOMPARE(r.bytesPerElement, 1);
        // The same as choosing int8 by hand.
        Options int8;
        int8.dataType = "int8";
        QCOMPARE(r.totalNs, evaluate(alexnet, nvSmall, int8).totalNs);
        // Without the fallback evaluate() still names the missing type (roofline-cli's behaviour).
        QCOMPARE(evaluate(alexnet, nvSmall).status, Status::Invalid);

        o = withOfferedDataType(alexnet, nvFull, Options{}, &fellBack);
        QVERIFY(!fellBack);
        QVERIFY(o.dataType.empty());
        Options fp16;
        fp16.dataType = "fp16"; // an explicit choice is not replaced
        o = withOfferedDataType(alexnet, nvSmall, fp16, &fellBack);
        QVERIFY(!fellBack);
        QCOMPARE(o.dataType, std::string("fp16"));
        QCOMPARE(evaluate(alexnet, nvSmall, o).status, Status::Invalid);
    }

    void everyNetworkRunsOnEveryAccelerator_data()
    {
        QTest::addColumn<QString>("net");
        QTest::addColumn<QString>("acc");
        for (const char *n : {"lenet", "alexnet", "vgg16", "resnet18", "resnet50", "mobilenetv2", "bert_base_layer"})
            for (const char *a : {"nv_full", "nv_large", "nv_small", "generic_dla"})
                QTest::newRow((std::string(n) + " on " + a).c_str()) << QString::fromUtf8(n) << QString::fromUtf8(a);
    }
    void everyNetworkRunsOnEveryAccelerator()
    {
        QFETCH(QString, net);
        QFETCH(QString, acc);
        const Network n = amaixtest::network(net.toStdString() + ".json");
        const Accelerator a = amaixtest::accelerator(acc.toStdString() + ".json");
        Options o;
        o.dataType = a.defaultDataType; // the int8-only configurations
        // VGG-16's fc6 needs 784 KiB for one kernel group of 16 (32 for int8): no
        // mode of the compiler fits it into the CBUF (docs/models/amaix.md).
        const bool infeasible = net == QLatin1String("vgg16") && a.scaling == ScalingModel::Nvdla;
        for (bool refine : {false, true}) {
            o.refine = refine;
            const Result r = evaluate(n, a, o);
            if (infeasible) {
                QCOMPARE(r.status, Status::Infeasible);
                QVERIFY2(r.error.find("\"fc6\"") != std::string::npos, r.error.c_str());
                continue;
            }
            QVERIFY2(r.ok(), r.error.c_str());
            QVERIFY(r.totalNs > 0 && std::isfinite(r.totalNs));
            for (const Stage &s : r.stages)
                QVERIFY2(s.ops >= 0 && s.dTotal() >= 0 && std::isfinite(s.computeNs), stageName(n, s).c_str());
        }
    }

    // A slider move re-evaluates ResNet-50 with tiling: must take well under a frame.
    void evaluationIsFast()
    {
        const Network n = amaixtest::network("resnet50.json");
        const Accelerator &a = fixture().nvFull;
        Result r;
        evaluate(n, a, {}, r);
        QVERIFY2(r.ok(), r.error.c_str());
        QElapsedTimer timer;
        timer.start();
        constexpr int kRuns = 200;
        for (int i = 0; i < kRuns; ++i)
            evaluate(n, a, {}, r);
        const double usPerRun = double(timer.nsecsElapsed()) / 1e3 / kRuns;
        qInfo("ResNet-50 on nv_full: %.1f us per evaluation (%zu stages)", usPerRun, r.stages.size());
        QVERIFY(usPerRun < 5000);
    }
};

QTEST_GUILESS_MAIN(TestAmaixModel)
#include "tst_amaix_model.moc"
