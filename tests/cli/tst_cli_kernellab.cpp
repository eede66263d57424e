// roofline-cli kernel-lab (issue 12): a quick run on a tiny budget writes the
// rule file, the device with its forests and the measurements, and the device
// it wrote predicts a shipped network through roofline-cli nnmeter; usage
// errors exit 2, a bad network file 1, and a failed run leaves no files.
// Not timed: the run's figures are only checked to exist.
#include "clitesting.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class TestCliKernelLab : public QObject
{
    Q_OBJECT
private slots:
    void quickRunWritesTheMachinesFiles()
    {
        QTemporaryDir tmp;
        const QString out = tmp.path() + QStringLiteral("/lab");
        const Run r = cli({"kernel-lab", "--out", out, "--quick", "--budget", "5s", "--kernels", "conv,add",
                           "--networks", QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/lenet.json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("BF_conv_relu"));          // progress on stderr
        QVERIFY(r.out.contains("fusion rules: "));
        QVERIFY(r.out.contains("predictor conv"));
        QVERIFY(r.out.contains("network lenet.json"));
        QCOMPARE(QDir(out).entryList(QDir::Files, QDir::Name),
                 (QStringList{"onednn_cpu.device.json", "onednn_cpu.rules.json"}));
        QCOMPARE(QDir(out + QStringLiteral("/onednn_cpu")).entryList(QDir::Files, QDir::Name),
                 (QStringList{"add.forest.json", "conv.forest.json", "kernels.csv", "measured.csv", "measurements.csv"}));
        // measured.csv in the view's format: the network's row, read as the view reads it.
        QFile measured(out + QStringLiteral("/onednn_cpu/measured.csv"));
        QVERIFY(measured.open(QIODevice::ReadOnly));
        const QByteArray csv = measured.readAll();
        QVERIFY2(csv.contains("\nnetwork,measured_ms,device,repetitions,noise_percent,source\nlenet.json,"), csv.constData());
        QFile rules(out + QStringLiteral("/onednn_cpu.rules.json"));
        QVERIFY(rules.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(rules.readAll()).object();
        QCOMPARE(o["backend"].toString(), QStringLiteral("onednn-cpu"));
        QVERIFY(o["fusions"].toObject()["BF_conv_relu"].toObject().contains("t12_ms"));

        // The device the lab wrote is a device like any other.
        const Run p = cli({"nnmeter", QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/lenet.json"),
                           out + QStringLiteral("/onednn_cpu.device.json"), "--format", "json"});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        const QJsonObject pj = QJsonDocument::fromJson(p.out).object();
        QVERIFY(pj["totals"].toObject()["kernel_sum_ms"].toDouble() > 0);
        QVERIFY(p.out.contains("\"learned\""));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no --out") << QStringList{"kernel-lab", "--quick"} << 2 << "--out DIR is required";
        QTest::newRow("bad budget") << QStringList{"kernel-lab", "--out", "x", "--budget", "soon"} << 2
                                    << "is not a duration";
        QTest::newRow("unknown kernel") << QStringList{"kernel-lab", "--out", "x", "--kernels", "conv,lstm"} << 2
                                        << "unknown kernel kind \"lstm\"";
        QTest::newRow("bad threads") << QStringList{"kernel-lab", "--out", "x", "--threads", "0"} << 2
                                     << "is not a valid number";
        QTest::newRow("unknown option") << QStringList{"kernel-lab", "--out", "x", "--fast"} << 2
                                        << "unknown argument";
        QTest::newRow("missing network") << QStringList{"kernel-lab", "--out", "x", "--networks", "/nonexistent/net.json"}
                                         << 1 << "/nonexistent/net.json";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        for (QString &a : args)
            if (a == QStringLiteral("x"))
                a = tmp.path() + QStringLiteral("/x");
        const Run r = cli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QDir(tmp.path() + QStringLiteral("/x")).exists()); // nothing written
    }

    void ctrlCWritesNothing()
    {
        QTemporaryDir tmp;
        const QString out = tmp.path() + QStringLiteral("/lab");
        QProcess p;
        p.setReadChannel(QProcess::StandardError);
        p.start(QStringLiteral(ROOFLINE_CLI), {"kernel-lab", "--out", out, "--budget", "10m", "--kernels", "add"});
        QByteArray err;
        // The handler is in place once the first line is out.
        while (!err.contains("kernel lab:") && p.waitForReadyRead(20000))
            err += p.readAllStandardError();
        QVERIFY2(err.contains("kernel lab:"), err.constData());
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains("interrupted: nothing written"), err.constData());
        QVERIFY(!QDir(out).exists());
    }

    void unwritableFolderIsAnError()
    {
        QTemporaryDir tmp;
        QFile blocker(tmp.path() + QStringLiteral("/file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const Run r = cli({"kernel-lab", "--out", tmp.path() + QStringLiteral("/file/lab"), "--quick", "--budget", "2s",
                           "--kernels", "add"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot create the folder"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliKernelLab)
#include "tst_cli_kernellab.moc"
