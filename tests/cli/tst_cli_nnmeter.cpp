// roofline-cli nnmeter: kernels and kernel-level latency of the shipped and
// fixture networks on the shipped devices (seed 004), rule and unit toggles,
// and the exit status and message of bad input.
#include "clitesting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString example(const QString &name)
{
    return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/") + name;
}
QString onnx(const QString &name)
{
    return QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/onnx/") + name + QStringLiteral(".onnx");
}
const QString kCpu = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/cortexa76_tflite_cpu.device.json");

int countType(const QJsonObject &o, const QString &type)
{
    int n = 0;
    for (const QJsonValue &k : o[QStringLiteral("kernels")].toArray())
        n += k.toObject()[QStringLiteral("type")].toString() == type;
    return n;
}

} // namespace

class TestCliNnmeter : public QObject
{
    Q_OBJECT
private slots:
    void resnet50OnTheMobileCpu()
    {
        const Run r = cli({"nnmeter", onnx("resnet50"), kCpu, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["operators"].toInt(), 174);
        QCOMPARE(o["kernels"].toArray().size(), 72);
        QCOMPARE(countType(o, "conv-bn-relu"), 33);
        QCOMPARE(countType(o, "add-relu"), 16);
        const QJsonObject t = o["totals"].toObject();
        // 2 FLOPs per MAC of torchvision's 4,089,184,256 MACs, plus 39,262,720 of bn, relu, add and pooling,
        // at 38.72 GFLOP/s for the FLOPs estimate.
        QCOMPARE(qRound64(t["flops"].toDouble()), 2 * 4089184256LL + 39262720LL);
        QVERIFY(qAbs(t["flops_estimate_ms"].toDouble() - 8217631232.0 / 38.72e6) < 1e-9);
        // The kernel sum is the roofline of every kernel: above the FLOPs bound, below the operator sum
        // (the operators alone write and read back every bn and relu tensor).
        QVERIFY(t["kernel_sum_ms"].toDouble() > t["flops_estimate_ms"].toDouble());
        QVERIFY(t["operator_sum_ms"].toDouble() > t["kernel_sum_ms"].toDouble());
        QVERIFY2(qAbs(t["kernel_sum_ms"].toDouble() / 214.10 - 1) < 1e-3, r.out.constData());
    }

    void ruleToggleRedetects()
    {
        // Without BF_bn_relu each conv-bn-relu splits into conv-bn and relu: 33 more kernels.
        const Run r = cli({"nnmeter", onnx("resnet50"), kCpu, "--format", "json", "--rule", "BF_bn_relu=off"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["kernels"].toArray().size(), 72 + 33);
        QCOMPARE(countType(o, "conv-bn-relu"), 0);
        // The SE unit off: MobileNetV3-Small's 9 SE blocks become their operators.
        const Run se = cli({"nnmeter", onnx("mobilenet_v3_small"), kCpu, "--format", "json", "--unit", "se=off"});
        QCOMPARE(se.exitCode, 0);
        QCOMPARE(countType(QJsonDocument::fromJson(se.out).object(), "se"), 0);
        const Run on = cli({"nnmeter", onnx("mobilenet_v3_small"), kCpu, "--format", "json"});
        QCOMPARE(countType(QJsonDocument::fromJson(on.out).object(), "se"), 9);
    }

    void shippedExamplesOnEveryDevice_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("device");
        for (const char *net : {"amaix/mobilenetv2.json", "amaix/resnet18.json", "amaix/alexnet.json"})
            for (const char *dev : {"cortexa76_tflite_cpu", "adreno640_tflite_gpu", "myriadx_openvino_vpu"})
                QTest::newRow(qPrintable(QStringLiteral("%1 on %2").arg(QString::fromLatin1(net), QString::fromLatin1(dev))))
                    << QString::fromLatin1(net) << QStringLiteral("nnmeter/%1.device.json").arg(QString::fromLatin1(dev));
    }
    void shippedExamplesOnEveryDevice()
    {
        QFETCH(QString, network);
        QFETCH(QString, device);
        const Run r = cli({"nnmeter", example(network), example(device)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("kernel sum:"));
        QVERIFY(r.out.contains("operator sum:"));
        QVERIFY(r.out.contains("FLOPs estimate:"));
        QVERIFY(!r.out.contains("nan") && !r.out.contains("inf"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no device") << QStringList{"nnmeter", onnx("resnet18")} << 2 << "needs a NETWORK and a DEVICE file";
        QTest::newRow("bad rule name") << QStringList{"nnmeter", onnx("resnet18"), kCpu, "--rule", "conv_bn=on"} << 2
                                       << "is not BF_<op1>_<op2> with known operators";
        QTest::newRow("bad unit") << QStringList{"nnmeter", onnx("resnet18"), kCpu, "--unit", "squeeze=on"} << 2
                                  << "unknown unit \"squeeze\"";
        QTest::newRow("bad on/off") << QStringList{"nnmeter", onnx("resnet18"), kCpu, "--unit", "se=maybe"} << 2
                                    << "needs NAME=on|off";
        QTest::newRow("missing device file") << QStringList{"nnmeter", onnx("resnet18"), "/nonexistent/d.json"} << 1
                                             << "/nonexistent/d.json: cannot open the file for reading";
        QTest::newRow("network as device") << QStringList{"nnmeter", onnx("resnet18"), example("amaix/lenet.json")} << 1
                                           << "/format: expected \"roofline-studio/nnmeter-device\"";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void brokenRulesFileNamesIt()
    {
        QTemporaryDir dir;
        QFile dev(dir.filePath("d.json"));
        QVERIFY(dev.open(QIODevice::WriteOnly));
        dev.write(R"({"format": "roofline-studio/nnmeter-device", "version": 1, "name": "d",
                     "fusion_rules": "r.json", "peak_gflops": 10, "bandwidth_gbps": 5})");
        dev.close();
        QFile rules(dir.filePath("r.json"));
        QVERIFY(rules.open(QIODevice::WriteOnly));
        rules.write(R"({"format": "roofline-studio/nnmeter-rules", "version": 1, "backend": "x",
                       "fusions": {"BF_conv_bogus": true}})");
        rules.close();
        const Run r = cli({"nnmeter", onnx("resnet18"), dir.filePath("d.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("d.json: /fusion_rules: ") && r.err.contains("r.json: /fusions/BF_conv_bogus: unknown operator \"bogus\""),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliNnmeter)
#include "tst_cli_nnmeter.moc"
