// roofline-cli brouwer and brouwer-fit on the shipped examples (examples/brouwer):
// AgeNet under the seed's Table 2, the regime switch under a memory limit, the
// formats, a fit on EdgeCaffe's measurements reproducing the shipped device, and
// the exit status and message of bad input.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run cli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(ROOFLINE_CLI), args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString example(const QString &name) { return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/brouwer/") + name; }

QStringList measuredFiles()
{
    const QDir dir(QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/measured"));
    QStringList files;
    for (const QString &f : dir.entryList({"*linear-*.csv"}, QDir::Files, QDir::Name))
        files << dir.filePath(f);
    return files;
}

QString networksOption()
{
    return example("networks/AgeNet.prototxt") + "," + example("networks/GenderNet.prototxt") + ","
        + example("networks/FaceNet.prototxt") + ",Salient Object Subitizing=" + example("networks/SoS.prototxt");
}

} // namespace

class TestCliBrouwer : public QObject
{
    Q_OBJECT
private slots:
    void ageNetTable2()
    {
        const Run r = cli({"brouwer", example("networks/AgeNet.prototxt"), example("seed-table2-fe.json"), "--memory",
                           "16GB", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["swapping_layers"].toInt(), 0);
        QCOMPARE(o["available_bytes"].toDouble(), 17179869184.0);
        const QJsonArray layers = o["layers"].toArray();
        QCOMPARE(layers.size(), 19);
        // conv2: Table 2 CONV standard, log10 t[ns] = 0.288 + 0.603 log10 M, M of eq. 1.
        const QJsonObject conv2 = layers[4].toObject();
        QCOMPARE(conv2["name"].toString(), QString("conv2"));
        const double m = 256.0 * 28 * 28 * (96.0 * 25) * (96.0 * 25) + 256;
        QVERIFY(std::abs(conv2["exec_ms"].toDouble() / (std::pow(10.0, 0.288 + 0.603 * std::log10(m)) * 1e-6) - 1)
                < 1e-12);
        QCOMPARE(conv2["required_bytes"].toDouble(), 890624.0 * 4);
        double total = 0;
        for (const auto &l : layers)
            total += l.toObject()["load_ms"].toDouble() + l.toObject()["exec_ms"].toDouble();
        QVERIFY(std::abs(o["total_ms"].toDouble() / total - 1) < 1e-12);
    }

    // 8 MiB: only fc6 (36.8 MiB in fp32) swaps; in fp16 with 16 MiB, still fc6 only.
    void memoryLimit_data()
    {
        QTest::addColumn<QString>("memory");
        QTest::addColumn<QString>("bytes");
        QTest::addColumn<int>("swapping");
        QTest::newRow("16 GiB fp32") << "16G" << "4" << 0;
        QTest::newRow("8 MiB fp32") << "8MB" << "4" << 1;
        QTest::newRow("36.8 MiB fp32, one byte less than fc6") << "38614527" << "4" << 1;
        QTest::newRow("36.8 MiB fp32, fc6 exactly") << "38614528" << "4" << 0;
        QTest::newRow("16 MiB fp16") << "16MB" << "2" << 1;
        QTest::newRow("1 MiB fp32: conv1-3, relu1-2, pool1, fc6, fc7") << "1MB" << "4" << 8;
    }
    void memoryLimit()
    {
        QFETCH(QString, memory);
        QFETCH(QString, bytes);
        QFETCH(int, swapping);
        const Run r = cli({"brouwer", example("networks/AgeNet.prototxt"), example("seed-table2-fe.json"), "--memory",
                           memory, "--bytes-per-element", bytes, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["swapping_layers"].toInt(), swapping);
    }

    void formats()
    {
        const QStringList base = {"brouwer", example("networks/AgeNet.prototxt"), example("edgecaffe-fe.json"),
                                  "--memory", "8MB"};
        const Run csv = cli(base + QStringList{"--format", "csv"});
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 20);
        QVERIFY(lines[0].startsWith("layer,category,required_bytes,overflow_elements,regime,load_ms,exec_ms"));
        QVERIFY(lines[12].startsWith("fc6,fc,38614528,"));
        QVERIFY(lines[12].contains(",swapping,"));
        QVERIFY(lines[12].endsWith(",0")); // our EdgeCaffe fit has no swapping regime
        const Run text = cli(base);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("swapping:   1 of 19 layers"));
        QVERIFY(text.out.contains("2 parts use a fallback regime"));
    }

    // Fitting EdgeCaffe's measurements reproduces the shipped device.
    void fitReproducesShippedDevice()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("fe.json");
        const Run r = cli(QStringList{"brouwer-fit"} + measuredFiles()
                          + QStringList{"--networks", networksOption(), "--model", "fe", "--out", out, "--cv"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("fitted fe on 164 observations (4 networks)"));
        QVERIFY(r.out.contains("MAPE 5.279 % (log space)"));
        QVERIFY(r.out.contains("leave-one-network-out"));
        QVERIFY(r.err.contains("4 measured layers are not in their network")); // the input rows
        QFile f(out), shipped(example("edgecaffe-fe.json"));
        QVERIFY(f.open(QIODevice::ReadOnly) && shipped.open(QIODevice::ReadOnly));
        const QJsonObject a = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonObject b = QJsonDocument::fromJson(shipped.readAll()).object();
        QCOMPARE(a["submodels"], b["submodels"]);
        QCOMPARE(a["fit"].toObject()["rows"].toInt(), 164);

        const QString ls = dir.filePath("lasso.json");
        const Run l = cli(QStringList{"brouwer-fit"} + measuredFiles()
                          + QStringList{"--networks", networksOption(), "--model", "lasso", "--order", "3", "--pca",
                                        "--out", ls});
        QCOMPARE(l.exitCode, 0);
        QFile lf(ls), lshipped(example("edgecaffe-lasso.json"));
        QVERIFY(lf.open(QIODevice::ReadOnly) && lshipped.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(lf.readAll()).object()["submodels"],
                 QJsonDocument::fromJson(lshipped.readAll()).object()["submodels"]);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString net = example("networks/AgeNet.prototxt");
        const QString dev = example("seed-table2-fe.json");
        QTest::newRow("no memory") << QStringList{"brouwer", net, dev} << 2 << "needs NETWORK, DEVICE.json and --memory";
        QTest::newRow("bad memory") << QStringList{"brouwer", net, dev, "--memory", "lots"} << 2
                                    << "--memory must be a size";
        QTest::newRow("bad format") << QStringList{"brouwer", net, dev, "--memory", "1G", "--format", "xml"} << 2
                                    << "--format must be text, json or csv";
        QTest::newRow("bytes per element 0")
            << QStringList{"brouwer", net, dev, "--memory", "1G", "--bytes-per-element", "0"} << 2
            << "--bytes-per-element must be a number";
        QTest::newRow("device is a network") << QStringList{"brouwer", net, net, "--memory", "1G"} << 1
                                             << "AgeNet.prototxt: line 1";
        QTest::newRow("missing network") << QStringList{"brouwer", "/nonexistent.prototxt", dev, "--memory", "1G"}
                                         << 1 << "/nonexistent.prototxt";
        QTest::newRow("unknown option") << QStringList{"brouwer", net, dev, "--memory", "1G", "--fast"} << 2
                                        << "unknown option";
        QTest::newRow("fit without --out") << QStringList{"brouwer-fit", "x.csv", "--networks", net, "--model", "fe"}
                                           << 2 << "needs MEASURED.csv, --networks, --model and --out";
        QTest::newRow("fit order 7") << QStringList{"brouwer-fit", "x.csv", "--order", "7"} << 2
                                     << "--order must be a number from 1 to 6";
        QTest::newRow("fit bad model") << QStringList{"brouwer-fit", "x.csv", "--model", "tree"} << 2
                                       << "--model must be fe or lasso";
        QTest::newRow("fit memory.csv")
            << QStringList{"brouwer-fit", QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/measured/memory.csv"),
                           "--networks", net, "--model", "fe", "--out", "/tmp/never.json"}
            << 1 << "memory.csv: line 1: unknown header";
        QTest::newRow("fit nothing matches")
            << QStringList{"brouwer-fit",
                           QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/measured/SoS-linear-1.csv"),
                           "--networks", net, "--model", "fe", "--out", "/tmp/never.json"}
            << 1 << "no observations to fit";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliBrouwer)
#include "tst_cli_brouwer.moc"
