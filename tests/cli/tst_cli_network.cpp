// roofline-cli network, and imported networks wherever the CLI takes a network
// file (amaix): the ONNX and Caffe fixtures of tests/data with their pinned
// totals, the JSON round trip through --save-network, and bad input.
#include "clitesting.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString data(const QString &name)
{
    return QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/") + name;
}

} // namespace

class TestCliNetwork : public QObject
{
    Q_OBJECT
private slots:
    void totals_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qlonglong>("parameters");
        QTest::addColumn<qlonglong>("macs");
        QTest::newRow("ONNX ResNet-50 (torchvision: 25,557,032; 4.09 GMACs)")
            << "onnx/resnet50.onnx" << 25557032LL << 4089184256LL;
        QTest::newRow("ONNX MobileNetV3-Small") << "onnx/mobilenet_v3_small.onnx" << 2542856LL << 56510400LL;
        QTest::newRow("ONNX ViT-B/16") << "onnx/vit_b_16.onnx" << 86567656LL << 17563828224LL;
        QTest::newRow("Caffe AgeNet (old syntax)") << "edgecaffe/AgeNet.prototxt" << 11415048LL << 709253120LL;
        QTest::newRow("Caffe SoS_GoogleNet (new syntax)") << "edgecaffe/SoS_GoogleNet.prototxt" << 5978677LL
                                                          << 15816529920LL;
    }
    void totals()
    {
        QFETCH(QString, file);
        QFETCH(qlonglong, parameters);
        QFETCH(qlonglong, macs);
        const Run r = cli({"network", data(file), "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["totals"]["parameters"].toVariant().toLongLong(), parameters);
        QCOMPARE(o["totals"]["macs"].toVariant().toLongLong(), macs);
        QCOMPARE(o["network"]["format"].toString(), QStringLiteral("roofline-studio/amaix-network"));
        const Run text = cli({"network", data(file)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("parameters: "));
        QVERIFY(text.out.contains("unmodelled: none"));
    }

    void unmodelledOperatorsAreListed()
    {
        const Run r = cli({"network", data("onnx/operator_zoo.onnx")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("other *"));
        QVERIFY(r.out.contains("unmodelled: 1 operator not modelled: TopK"));
        QVERIFY(r.err.contains("warning: "));
        const Run j = cli({"network", data("onnx/operator_zoo.onnx"), "--format", "json"});
        const QJsonObject o = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(o["unmodelled"].toArray().at(0)["operator"].toString(), QStringLiteral("TopK"));
        bool marked = false;
        for (const QJsonValue &l : o["layers"].toArray())
            marked = marked || (l["operator"].toString() == "TopK" && !l["modelled"].toBool());
        QVERIFY(marked);
    }

    void saveNetworkRoundTrip()
    {
        QTemporaryDir dir;
        const QString out = dir.path() + "/resnet50.json";
        const Run a = cli({"network", data("onnx/resnet50.onnx"), "--save-network", out, "--format", "json"});
        QCOMPARE(a.exitCode, 0);
        const Run b = cli({"network", out, "--format", "json"});
        QCOMPARE(b.exitCode, 0);
        // Everything but the name of the file read is the same.
        QCOMPARE(QJsonDocument::fromJson(b.out).object()["layers"], QJsonDocument::fromJson(a.out).object()["layers"]);
        QCOMPARE(QJsonDocument::fromJson(b.out).object()["network"], QJsonDocument::fromJson(a.out).object()["network"]);
    }

    void symbolicInputShape()
    {
        const Run missing = cli({"network", data("onnx/resnet18_dynamic.onnx")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("symbolic input dimensions: \"input\" [batchx3xheightxwidth]"));
        const Run given = cli({"network", data("onnx/resnet18_dynamic.onnx"), "--input-shape", "input=1x3x224x224",
                               "--format", "json"});
        QCOMPARE(given.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(given.out).object()["totals"].toObject()["macs"].toVariant().toLongLong(),
                 1814073344LL);
        QCOMPARE(cli({"network", data("onnx/resnet18_dynamic.onnx"), "--input-shape", "input=1xax3"}).exitCode, 2);
    }

    void amaixTakesImportedNetworks()
    {
        // ResNet-50 v1.5 from ONNX on the generic DLA: every type it uses is mapped there.
        const Run r = cli({"amaix", data("onnx/resnet50.onnx"), QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/generic_dla.json"),
                           "--format", "text"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Run c = cli({"amaix", data("edgecaffe/AgeNet.prototxt"),
                           QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/generic_dla.json"), "--format", "json"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        QVERIFY(c.out.contains("total"));
    }

    // Import warnings on stderr start with "warning: " as errors start with "error: ".
    void amaixPrintsImportWarningsWithPrefix()
    {
        const QString zoo = data("onnx/operator_zoo.onnx");
        const Run r = cli({"amaix", zoo, QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/generic_dla.json")});
        const QString expected = QStringLiteral("warning: ") + zoo
            + QStringLiteral(": 1 operator not modelled: TopK (imported as \"other\" layers)\n");
        QVERIFY2(QString::fromUtf8(r.err).startsWith(expected), r.err.constData());
        QVERIFY(!r.err.contains(": warning: "));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("not ONNX") << QStringList{"network", data("edgecaffe/LICENSE") + ".onnx"} << 1
                                  << "cannot open the file";
        QTest::newRow("JSON named .onnx") << QStringList{"network", data("edgecaffe/README.md")} << 1 << "line 1";
        QTest::newRow("no file") << QStringList{"network"} << 2 << "needs a FILE";
        QTest::newRow("bad format") << QStringList{"network", data("onnx/alexnet.onnx"), "--format", "xml"} << 2
                                    << "--format must be text or json";
        QTest::newRow("unknown option") << QStringList{"network", data("onnx/alexnet.onnx"), "--bogus"} << 2
                                        << "unknown option";
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

    void corruptOnnxFile()
    {
        QTemporaryDir dir;
        QFile in(data("onnx/resnet18.onnx"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        QFile out(dir.path() + "/cut.onnx");
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes.left(bytes.size() / 3));
        out.close();
        const Run r = cli({"network", out.fileName()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cut.onnx: not an ONNX model"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliNetwork)
#include "tst_cli_network.moc"
