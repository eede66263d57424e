// What the studio and --set change on an nn-Meter device (core/nnmeter/parameters.h):
// overrides of numbers, pair rules, connection rules and units; the
// sensitivity tornado of the kernel sum; goal seek on the kernel sum.
#include "network/io.h"
#include "nnmeter/io.h"
#include "nnmeter/measured.h"
#include "nnmeter/parameters.h"

#include <QTest>

#include <cmath>
#include <cstdio>

using namespace roofline;
using namespace roofline::nnmeter;

namespace {

Device cpu()
{
    return *loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/cortexa76_tflite_cpu.device.json").device;
}

network::Network resnet18()
{
    return *network::loadNetworkFile(ROOFLINE_EXAMPLES_DIR "/amaix/resnet18.json").network;
}

std::string firstError(const Diagnostics &d)
{
    return d.errors().empty() ? std::string() : d.errors().front().toString();
}

std::string exact(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

} // namespace

class TestNnmeterParameters : public QObject
{
    Q_OBJECT
private slots:
    void overridesNumbersAndRules()
    {
        Device d = cpu();
        Diagnostics diag;
        QVERIFY(applyOverride(d, "/peak_gflops=50", diag));
        QCOMPARE(d.peakGflops, 50.0);
        QVERIFY(applyOverride(d, "/efficiency/dwconv/compute=0.25", diag));
        QCOMPARE(d.efficiencyOf("dwconv").compute, 0.25);
        QCOMPARE(d.efficiencyOf("dwconv").memory, 1.0); // from the default
        QVERIFY(applyOverride(d, "/fusions/BF_bn_relu=false", diag));
        QVERIFY(!d.rules.fuses("bn", "relu"));
        QVERIFY(applyOverride(d, "/fusions/BF_conv_add=on", diag));
        QVERIFY(d.rules.fuses("conv", "add"));
        QVERIFY(applyOverride(d, "/multi_outbound=1", diag));
        QVERIFY(d.rules.multiOutbound);
        QVERIFY(applyOverride(d, "/units/se=off", diag));
        QVERIFY(!d.rules.unit("se"));
        QVERIFY(!diag.hasErrors());
        QCOMPARE(*numberValue(d, "/peak_gflops"), 50.0);
    }

    void refusedOverridesChangeNothing_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative peak") << "/peak_gflops=-1" << "/peak_gflops: must be > 0 and <= 1e+09, got -1";
        QTest::newRow("efficiency above 1") << "/efficiency/default/memory=1.5" << "must be > 0 and <= 1, got 1.5";
        QTest::newRow("not a number") << "/bandwidth_gbps=fast" << "expected a number";
        // Issue 14: the ranges of the device file, with its parser (a denormal made every time infinite).
        QTest::newRow("denormal peak") << "/peak_gflops=1e-320" << "/peak_gflops: must be 0 or at least 1e-30 in size";
        QTest::newRow("denormal efficiency") << "/efficiency/default/compute=4.9e-324" << "too small to compute with";
        QTest::newRow("denormal overhead") << "/kernel_overhead_us=1e-320" << "/kernel_overhead_us: must be 0 or at least";
        QTest::newRow("overflowing peak") << "/peak_gflops=1e999" << "expected a number, got \"1e999\"";
        QTest::newRow("huge peak") << "/peak_gflops=1e308" << "must be > 0 and <= 1e+09";
        QTest::newRow("nan peak") << "/peak_gflops=nan" << "expected a number, got \"nan\"";
        QTest::newRow("spaced peak") << "/peak_gflops= 5" << "expected a number";
        QTest::newRow("unknown pointer") << "/clock_ghz=3" << "not a setting of an nn-Meter device";
        QTest::newRow("unknown operator") << "/fusions/BF_conv_blah=true" << "two operator names";
        QTest::newRow("rule not a switch") << "/fusions/BF_conv_bn=maybe" << "expected true or false";
        QTest::newRow("unknown unit") << "/units/attention=on" << "unknown fusion unit";
        QTest::newRow("no value") << "/peak_gflops" << "expected POINTER=VALUE";
    }
    void refusedOverridesChangeNothing()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, expected);
        Device d = cpu();
        const Device before = d;
        Diagnostics diag;
        QVERIFY(!applyOverride(d, assignment.toStdString(), diag));
        QVERIFY2(firstError(diag).find(expected.toStdString()) != std::string::npos, firstError(diag).c_str());
        QVERIFY(d == before);
    }

    void sensitivityOfTheKernelSum()
    {
        const network::Network net = resnet18();
        const Device d = cpu();
        const std::vector<Sensitivity> rows = sensitivity(net, d, 0.1);
        QVERIFY(!rows.empty());
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(std::abs(rows[i - 1].highMs - rows[i - 1].lowMs) >= std::abs(rows[i].highMs - rows[i].lowMs));
        // Each row is the kernel sum with that number alone moved.
        for (const Sensitivity &s : rows) {
            Device low = d, high = d;
            Diagnostics diag;
            QVERIFY(applyOverride(low, s.pointer + "=" + exact(s.lowValue), diag));
            QVERIFY(applyOverride(high, s.pointer + "=" + exact(s.highValue), diag));
            QVERIFY(std::abs(predictNetwork(net, low).kernelSumMs / s.lowMs - 1) < 1e-6);
            QVERIFY(std::abs(predictNetwork(net, high).kernelSumMs / s.highMs - 1) < 1e-6);
            QVERIFY(s.highValue <= 1 || s.pointer.rfind("/efficiency/", 0) != 0); // efficiencies stay ≤ 1
        }
        // The overhead is 0 on the shipped CPU: no row (±10 % of nothing).
        for (const Sensitivity &s : rows)
            QVERIFY(s.pointer != "/kernel_overhead_us");
    }

    void goalSeekOnTheKernelSum()
    {
        const network::Network net = resnet18();
        const Device d = cpu();
        const double now = predictNetwork(net, d).kernelSumMs;
        // 20 % faster needs more peak compute; the value found reaches it.
        GoalSeek g = seekLatency(net, d, "/peak_gflops", 0.8 * now);
        QVERIFY2(g.found(), g.message.c_str());
        QVERIFY(g.value > d.peakGflops);
        Device at = d;
        at.peakGflops = g.value;
        QVERIFY(std::abs(predictNetwork(net, at).kernelSumMs / (0.8 * now) - 1) < 1e-5);
        // Bandwidth alone cannot beat the compute roof.
        g = seekLatency(net, d, "/bandwidth_gbps", 0.5 * predictNetwork(net, d).flopsMs);
        QCOMPARE(g.status, GoalSeek::Status::Unreachable);
        QCOMPARE(g.limitedBy, std::string("compute-bound kernels"));
        // The overhead that makes each kernel 10 µs slower.
        const std::size_t kernels = predictNetwork(net, d).detection.kernels.size();
        g = seekLatency(net, d, "/kernel_overhead_us", now + double(kernels) * 0.01);
        QVERIFY2(g.found(), g.message.c_str());
        QVERIFY(std::abs(g.value - 10) < 1e-3);
        // Not a number goal seek varies.
        g = seekLatency(net, d, "/fusions/BF_conv_bn", now);
        QCOMPARE(g.status, GoalSeek::Status::Invalid);
    }

    void measuredLatencies()
    {
        const MeasuredLoad ours = parseMeasuredLatencies("# end to end\nnetwork,measured_ms,repetitions,source\n"
                                                         "ResNet-50,41.5,20,\"lab, run 2\"\nresnet18.onnx,9.25,,\n",
                                                         "m.csv");
        QVERIFY2(ours.rows, ours.diagnostics.toString().c_str());
        QCOMPARE(ours.rows->size(), std::size_t(2));
        QCOMPARE((*ours.rows)[0].network, std::string("ResNet-50"));
        QCOMPARE((*ours.rows)[0].measuredMs, 41.5);
        QCOMPARE((*ours.rows)[0].repetitions, 20);
        QCOMPARE((*ours.rows)[0].source, std::string("lab, run 2"));
        QCOMPARE((*ours.rows)[1].repetitions, 0);
        const MeasuredLoad back = parseMeasuredLatencies(serializeMeasuredLatencies(*ours.rows), "b.csv");
        QVERIFY(back.rows && *back.rows == *ours.rows);

        // The kernel lab's measurements.csv: only its end-to-end rows, the IQR as a share of the median.
        const MeasuredLoad lab = parseMeasuredLatencies(
            "stage,name,kind,type,set,hw,cin,cout,ks,stride,cin2,mflops,kbytes,median_ms,iqr_ms,mad_ms,min_ms,reps,"
            "predicted_ms,primitives,note\n"
            "pair,BF_conv_relu,,t1,,,,,,,,,,0.41,0.01,0.005,0.4,21,,,fuses\n"
            "sample,,conv,conv-bn-relu,train,56,64,64,3,1,0,231.2,803,1.2,0.02,0.01,1.1,21,1.25,1,\n"
            "network,resnet18.onnx,,,,,,,,,,,,20,0.5,0.2,19.5,5,19.1,,\"whole runs median 21 ms, not run: view\"\n",
            "measurements.csv");
        QVERIFY2(lab.rows, lab.diagnostics.toString().c_str());
        QCOMPARE(lab.rows->size(), std::size_t(1));
        QCOMPARE((*lab.rows)[0].network, std::string("resnet18.onnx"));
        QCOMPARE((*lab.rows)[0].measuredMs, 20.0);
        QCOMPARE((*lab.rows)[0].repetitions, 5);
        QCOMPARE((*lab.rows)[0].noisePercent, 2.5);

        // The seed's metric.
        QVERIFY(withinTenPercent(11, 10));
        QVERIFY(withinTenPercent(9, 10));
        QVERIFY(!withinTenPercent(11.01, 10));
    }

    void measuredLatencyErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no header") << "ResNet-50,4\n" << "line 1: expected the header";
        QTest::newRow("unknown column") << "network,measured_ms,gpu\nx,1,2\n" << "column 3: unknown column \"gpu\"";
        QTest::newRow("negative") << "network,measured_ms\nx,-1\n" << "line 2: measured_ms: expected a latency in ms above 0";
        QTest::newRow("field count") << "network,measured_ms\nx,1,2\n" << "line 2: expected 2 fields";
        QTest::newRow("twice") << "network,measured_ms\nx,1\nx,2\n" << "line 3: network: \"x\" is measured twice";
        QTest::newRow("empty") << "network,measured_ms\n" << "no measured network";
        QTest::newRow("lab without networks") << "stage,name,median_ms\npair,BF_a_b,1\n" << "no network measured end to end";
        QTest::newRow("quote") << "network,measured_ms\n\"x,1\n" << "line 2: a quoted field does not end";
    }
    void measuredLatencyErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const MeasuredLoad m = parseMeasuredLatencies(text.toStdString(), "m.csv");
        QVERIFY(!m.rows);
        QVERIFY2(firstError(m.diagnostics).find(expected.toStdString()) != std::string::npos, firstError(m.diagnostics).c_str());
        QVERIFY2(firstError(m.diagnostics).find("m.csv") != std::string::npos, firstError(m.diagnostics).c_str());
    }
};

QTEST_MAIN(TestNnmeterParameters)
#include "tst_nnmeter_parameters.moc"
