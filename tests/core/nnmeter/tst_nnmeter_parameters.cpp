// What the studio and --set change on an nn-Meter device (core/nnmeter/parameters.h):
// overrides of numbers, pair rules, connection rules and units; the
// sensitivity tornado of the kernel sum; goal seek on the kernel sum.
#include "network/io.h"
#include "nnmeter/io.h"
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
        QTest::newRow("negative peak") << "/peak_gflops=-1" << "/peak_gflops: must be above 0";
        QTest::newRow("efficiency above 1") << "/efficiency/default/memory=1.5" << "must be above 0 to 1";
        QTest::newRow("not a number") << "/bandwidth_gbps=fast" << "expected a number";
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
};

QTEST_MAIN(TestNnmeterParameters)
#include "tst_nnmeter_parameters.moc"
