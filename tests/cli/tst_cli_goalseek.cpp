// roofline-cli goal-seek on the shipped examples of every model: the value
// found (exit 0), an unreachable target with the bound named (exit 4), and
// bad input (exit 1) and wrong usage (exit 2).
#include "clitesting.h"
#include "testutils.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {

Run goalSeek(const QStringList &args)
{
    return cli(QStringList{QStringLiteral("goal-seek")} + args);
}

QString example(const char *model, const char *name)
{
    return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/") + QLatin1String(model) + QLatin1Char('/') + QLatin1String(name);
}

QJsonObject json(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

} // namespace

class TestCliGoalSeek : public QObject
{
    Q_OBJECT
private slots:
    // Fig. 6b: P_att 2 Gops/s needs Bpeak ≥ 15.0625 GB/s (T_mem = 7.53125/Bpeak = 0.5 ns/op).
    void gablesFound()
    {
        for (const char *method : {"closed", "bracketed"}) {
            const Run r = goalSeek({example("gables", "gables-fig6b.json"), "--target", "patt=2Gops/s", "--vary",
                               "/soc/bpeak_gbps", "--method", method});
            QCOMPARE(r.exitCode, 0);
            const QJsonObject o = json(r.out);
            QCOMPARE(o["status"].toString(), QString("found"));
            QCOMPARE(o["method"].toString(), QString(method));
            QVERIFY(qAbs(o["value"].toDouble() - 15.0625) < 1e-6);
            QVERIFY(qAbs(o["achieved"].toDouble() - 2) < 2e-6);
            QCOMPARE(o["relation"].toString(), QString("≥"));
        }
    }
    void gablesUnreachable()
    {
        const Run r = goalSeek({example("gables", "snapdragon835.json"), "--target", "patt=0.2Tops/s", "--vary",
                           "/soc/bpeak_gbps", "--format", "text"});
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.out, QByteArray("no Bpeak reaches P_att 200 Gops/s: IP[0] CPU compute caps it at 75 Gops/s\n"));
        const Run j = goalSeek({example("gables", "snapdragon835.json"), "--target", "patt=200", "--vary", "/soc/bpeak_gbps"});
        QCOMPARE(j.exitCode, 4);
        QCOMPARE(json(j.out)["limited_by"].toString(), QString("IP[0] CPU compute"));
        QCOMPARE(json(j.out)["cap"].toDouble(), 75.0);
    }
    void amaixFpsAndTime()
    {
        Run r = goalSeek({example("amaix", "alexnet.json"), example("amaix", "nv_full.json"), "--target", "fps=250",
                     "--vary", "/memories/DRAM/bandwidth_gbps"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = json(r.out);
        QVERIFY(qAbs(o["achieved"].toDouble() - 250) < 250e-6);
        QVERIFY(o["message"].toString().startsWith("250 FPS needs DRAM bandwidth ≥ "));
        r = goalSeek({example("amaix", "alexnet.json"), example("amaix", "nv_full.json"), "--target", "time=5ms", "--vary",
                 "/clock_ghz"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(qAbs(json(r.out)["achieved"].toDouble() - 5e6) < 5);
        r = goalSeek({example("amaix", "alexnet.json"), example("amaix", "nv_full.json"), "--target", "fps=100000",
                 "--vary", "/memories/DRAM/bandwidth_gbps", "--format", "text"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.out.contains("compute"), r.out.constData());
    }
    void timelineTotal()
    {
        const QString trace = example("verrocchio", "vector-add-2cores.json");
        const QString machine = example("verrocchio", "ascend310.json");
        Run r = goalSeek({trace, machine, "--target", "total=9us", "--vary", "/bus/bandwidth_gbps"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(qAbs(json(r.out)["achieved"].toDouble() - 9000) < 9000e-6);
        r = goalSeek({trace, machine, "--target", "total=1ns", "--vary", "/bus/bandwidth_gbps", "--format", "text"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.out.startsWith("no B_bus reaches total 1 ns: the "), r.out.constData());
    }
    void badInputAndUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString soc = example("gables", "gables-fig6b.json");
        QTest::newRow("no target") << QStringList{soc, "--vary", "/soc/bpeak_gbps"} << 2 << "needs --target";
        QTest::newRow("unknown kind") << QStringList{soc, "--target", "speed=2", "--vary", "/soc/bpeak_gbps"} << 2
                                      << "--target must be";
        QTest::newRow("two files for patt") << QStringList{soc, soc, "--target", "patt=2", "--vary", "/soc/bpeak_gbps"}
                                            << 2 << "needs one SoC file";
        QTest::newRow("bad number") << QStringList{soc, "--target", "patt=fast", "--vary", "/soc/bpeak_gbps"} << 1
                                    << "expected a positive number";
        QTest::newRow("bad unit") << QStringList{soc, "--target", "patt=2GB/s", "--vary", "/soc/bpeak_gbps"} << 1
                                  << "expected a positive number";
        QTest::newRow("fraction") << QStringList{soc, "--target", "patt=2", "--vary", "/use_case/work/GPU/fraction"}
                                  << 1 << "not monotone";
        QTest::newRow("unknown pointer") << QStringList{soc, "--target", "patt=2", "--vary", "/soc/nope"} << 1
                                         << "unknown parameter";
        QTest::newRow("missing file") << QStringList{"/nonexistent.json", "--target", "patt=2", "--vary",
                                                     "/soc/bpeak_gbps"}
                                      << 1 << "nonexistent.json";
        QTest::newRow("integer amaix parameter")
            << QStringList{example("amaix", "alexnet.json"), example("amaix", "nv_full.json"), "--target", "fps=60",
                           "--vary", "/scaling/cbuf_bytes"}
            << 1 << "whole number";
    }
    void badInputAndUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = goalSeek(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliGoalSeek)
#include "tst_cli_goalseek.moc"
