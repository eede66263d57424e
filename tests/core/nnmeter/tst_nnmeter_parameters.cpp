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
        // An unterminated quote in the header is one error, not also "no header".
        QTest::newRow("quote in header") << "\"network,measured_ms\nx,1\n" << "line 1: a quoted field does not end";
        // NUL bytes (a binary file, or UTF-16 text) are named, not counted as one field.
        QTest::newRow("NUL bytes") << "network,measured_ms\nx,1\n" + QString(1000, QChar(0)) << "line 3: a NUL byte at column 1";
        QTest::newRow("UTF-16 header") << QString::fromLatin1(QByteArray("n\0e\0t\0", 6)) << "line 1: a NUL byte at column 2";
        QTest::newRow("fraction of a run") << "network,measured_ms,repetitions\nx,1,2.5\n"
                                           << "line 2: repetitions: expected a whole number of runs from 1, got \"2.5\"";
        // Comments, blank lines and CRLF line ends still count as lines.
        QTest::newRow("line numbers") << "# ours\r\nnetwork,measured_ms\r\n\r\nx,-1\r\n" << "line 4: measured_ms: expected";
    }
    void measuredLatencyErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const MeasuredLoad m = parseMeasuredLatencies(text.toStdString(), "m.csv");
        QVERIFY(!m.rows);
        QVERIFY2(firstError(m.diagnostics).find(expected.toStdString()) != std::string::npos, firstError(m.diagnostics).c_str());
        QVERIFY2(firstError(m.diagnostics).find("m.csv") != std::string::npos, firstError(m.diagnostics).c_str());
        QCOMPARE(m.diagnostics.errorCount(), std::size_t(1));
    }

    // Per-kernel latencies from whole-network runs (the kernel lab's kernels.csv).
    void kernelLatencies()
    {
        const std::string text = std::string("# per kernel\n") + kKernelLatencyHeader
            + "\nresnet50.json,0,conv-bn-relu,conv1,3,1,0.91,0.02,15,0.88\n"
              "resnet50.json,1,maxpool,\"pool, 1\",1,1,0.05,,,\n"
              "\"#odd\",0,relu,r,1,0,0,0,1,0\n";
        QVERIFY(looksLikeKernelLatencies(text));
        QVERIFY(!looksLikeKernelLatencies("network,measured_ms\nx,1\n"));
        const KernelLatencyLoad k = parseKernelLatencies(text, "k.csv");
        QVERIFY2(k.rows, k.diagnostics.toString().c_str());
        QCOMPARE(k.rows->size(), std::size_t(3));
        const KernelLatency &a = (*k.rows)[0];
        QCOMPARE(a.network, std::string("resnet50.json"));
        QCOMPARE(a.kernel, 0);
        QCOMPARE(a.type, std::string("conv-bn-relu"));
        QCOMPARE(a.firstLayer, std::string("conv1"));
        QCOMPARE(a.operators, 3);
        QCOMPARE(a.primitives, 1);
        QCOMPARE(a.measuredMs, 0.91);
        QCOMPARE(a.iqrMs, 0.02);
        QCOMPARE(a.repetitions, 15);
        QCOMPARE(a.predictedMs, 0.88);
        const KernelLatency &b = (*k.rows)[1];
        QCOMPARE(b.firstLayer, std::string("pool, 1"));
        QCOMPARE(b.iqrMs, -1.0);
        QCOMPARE(b.repetitions, 0);
        QCOMPARE(b.predictedMs, -1.0);
        QCOMPARE((*k.rows)[2].network, std::string("#odd"));
        QCOMPARE((*k.rows)[2].measuredMs, 0.0); // a kernel oneDNN did not run: 0 ms, 0 primitives
        const KernelLatencyLoad back = parseKernelLatencies(serializeKernelLatencies(*k.rows), "b.csv");
        QVERIFY2(back.rows, back.diagnostics.toString().c_str());
        QVERIFY(*back.rows == *k.rows);
    }

    void kernelLatencyErrors_data()
    {
        const QString h = QString::fromLatin1(kKernelLatencyHeader) + QStringLiteral("\n");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no header") << "x,0,conv,c,1,1,1,,,\n" << "line 1: expected the header";
        QTest::newRow("other header") << "network,kernel,type\n" << "line 1: expected the header";
        QTest::newRow("negative") << h + "x,0,conv,c,1,1,-1,,,\n" << "line 2: measured_ms: expected a latency in ms from 0";
        QTest::newRow("denormal") << h + "x,0,conv,c,1,1,1e-320,,,\n" << "line 2: measured_ms:";
        QTest::newRow("fraction") << h + "x,0.5,conv,c,1,1,1,,,\n" << "line 2: kernel: expected the kernel's index";
        QTest::newRow("no operators") << h + "x,0,conv,c,0,1,1,,,\n" << "line 2: operators: expected its member layers";
        QTest::newRow("no layer") << h + "x,0,conv,,1,1,1,,,\n" << "line 2: first_layer: expected a layer name";
        QTest::newRow("field count") << h + "x,0,conv,c,1,1,1\n" << "line 2: expected 10 fields";
        QTest::newRow("kernel twice") << h + "x,0,conv,c,1,1,1,,,\nx,0,relu,d,1,1,1,,,\n" << "line 3: kernel: network \"x\" has kernel 0 twice";
        QTest::newRow("layer twice") << h + "x,0,conv,c,1,1,1,,,\nx,1,relu,c,1,1,1,,,\n" << "line 3: first_layer: network \"x\" has two kernels starting at \"c\"";
        QTest::newRow("empty") << h << "no kernel after the header";
        QTest::newRow("inf") << h + "x,0,conv,c,1,1,inf,,,\n" << "line 2: measured_ms";
        QTest::newRow("quote") << h + "\"x,0,conv,c,1,1,1,,,\n" << "line 2: a quoted field does not end";
        QTest::newRow("quote in header") << "\"" + h << "line 1: a quoted field does not end";
        QTest::newRow("NUL bytes") << h + "x,0,conv,c,1," + QString(3, QChar(0)) + ",1,,,\n" << "line 2: a NUL byte at column 14";
        QTest::newRow("line numbers") << "# lab\r\n\r\n" + h + "x,0,conv,c,1,1,1,,2.5,\n"
                                      << "line 4: repetitions: expected a whole number of runs from 1, got \"2.5\"";
    }
    void kernelLatencyErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const KernelLatencyLoad k = parseKernelLatencies(text.toStdString(), "k.csv");
        QVERIFY(!k.rows);
        QVERIFY2(firstError(k.diagnostics).find(expected.toStdString()) != std::string::npos, firstError(k.diagnostics).c_str());
        QVERIFY2(firstError(k.diagnostics).find("k.csv") != std::string::npos, firstError(k.diagnostics).c_str());
        QCOMPARE(k.diagnostics.errorCount(), std::size_t(1));
    }
};

QTEST_MAIN(TestNnmeterParameters)
#include "tst_nnmeter_parameters.moc"
