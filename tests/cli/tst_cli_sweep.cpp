// roofline-cli gables-sweep and amaix-sweep: the paper's Fig. 6 points from a
// Gables sweep, --shard slices that concatenate to the unsharded output byte
// for byte (CSV and JSON lines, one and two axes, more shards than points),
// and the exit status and message of every kind of bad input.
#include "clitesting.h"
#include "testutils.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {

QString example(const char *model, const char *name)
{
    return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/") + QLatin1String(model) + QLatin1Char('/') + QLatin1String(name)
        + QStringLiteral(".json");
}

QList<QJsonObject> jsonLines(const QByteArray &text)
{
    QList<QJsonObject> rows;
    for (const QByteArray &line : text.split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return {};
        rows.append(doc.object());
    }
    return rows;
}

} // namespace

class TestCliSweep : public QObject
{
    Q_OBJECT
private slots:
    // Gables, seed 003 section III.C, Fig. 6: the teaching example's steps as
    // points of one sweep (the same figures tst_cli pins for single files).
    void gablesFig6_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("axis");
        QTest::addColumn<QList<double>>("gops");
        QTest::addColumn<QStringList>("bounds");
        QTest::newRow("Fig. 6a -> 6b: f = 0, 0.75") << example("gables", "gables-fig6a")
                                                    << QStringLiteral("/use_case/work/GPU/fraction=0,0.75")
                                                    << QList<double>{40, 1 / 0.753125}
                                                    << QStringList{QStringLiteral("ip_compute"), QStringLiteral("memory")};
        QTest::newRow("Fig. 6b -> 6c: Bpeak = 10, 30") << example("gables", "gables-fig6b")
                                                       << QStringLiteral("/soc/bpeak_gbps=10:30:2")
                                                       << QList<double>{1 / 0.753125, 2}
                                                       << QStringList{QStringLiteral("memory"), QStringLiteral("ip_link")};
    }
    void gablesFig6()
    {
        QFETCH(QString, file);
        QFETCH(QString, axis);
        QFETCH(QList<double>, gops);
        QFETCH(QStringList, bounds);
        const Run run = cli({QStringLiteral("gables-sweep"), file, QStringLiteral("--x"), axis, QStringLiteral("--format"),
                             QStringLiteral("jsonl")});
        QCOMPARE(run.exitCode, 0);
        const QList<QJsonObject> rows = jsonLines(run.out);
        QCOMPARE(rows.size(), gops.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i][QStringLiteral("status")].toString(), QStringLiteral("ok"));
            QVERIFY2(qAbs(rows[i][QStringLiteral("attainable_gops")].toDouble() - gops[i]) < 1e-9 * gops[i],
                     qPrintable(QString::number(rows[i][QStringLiteral("attainable_gops")].toDouble())));
            QCOMPARE(rows[i][QStringLiteral("bound_kind")].toString(), bounds[i]);
        }
    }

    void gablesCsv()
    {
        // Fig. 6d's bound names three terms: the field is quoted.
        const Run run = cli({QStringLiteral("gables-sweep"), example("gables", "gables-fig6d"), QStringLiteral("--x"),
                             QStringLiteral("/soc/bpeak_gbps=20")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("x,y,status,attainable_gops,time_ns,average_intensity,bound_kind,bound\n"
                                     "20,0,ok,160,0.00625,8,balanced,\"balanced (IP[0] CPU compute, IP[1] GPU link, "
                                     "memory)\"\n"));
        QVERIFY(run.err.contains("1 points in"));
    }

    // A value the model does not accept makes its point invalid, not the sweep.
    void gablesInvalidPoints()
    {
        const Run run = cli({QStringLiteral("gables-sweep"), example("gables", "gables-fig6b"), QStringLiteral("--x"),
                             QStringLiteral("/soc/bpeak_gbps=-5,10"), QStringLiteral("--format"), QStringLiteral("jsonl")});
        QCOMPARE(run.exitCode, 0);
        const QList<QJsonObject> rows = jsonLines(run.out);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0][QStringLiteral("status")].toString(), QStringLiteral("invalid"));
        QVERIFY2(rows[0][QStringLiteral("error")].toString().contains(QStringLiteral("/soc/bpeak_gbps")),
                 qPrintable(rows[0][QStringLiteral("error")].toString()));
        QCOMPARE(rows[1][QStringLiteral("status")].toString(), QStringLiteral("ok"));
    }

    // Shards 1..N concatenated in order are the unsharded output, byte for byte.
    void shardsConcatenate_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("shards");
        const QString fig6b = example("gables", "gables-fig6b");
        const QStringList gables2d{QStringLiteral("gables-sweep"), fig6b, QStringLiteral("--x"),
                                   QStringLiteral("/use_case/work/GPU/fraction=0:1:7"), QStringLiteral("--y"),
                                   QStringLiteral("/soc/bpeak_gbps=5:80:5:log")};
        QTest::newRow("gables 7x5, csv, 3 shards") << gables2d << 3;
        QTest::newRow("gables 7x5, jsonl, 4 shards") << (gables2d + QStringList{QStringLiteral("--format"), QStringLiteral("jsonl")}) << 4;
        QTest::newRow("gables 3 points, csv, 5 shards (some empty)")
            << QStringList{QStringLiteral("gables-sweep"), fig6b, QStringLiteral("--x"), QStringLiteral("/soc/bpeak_gbps=10,20,30")} << 5;
        const QStringList amaix{QStringLiteral("amaix-sweep"), example("amaix", "lenet"), example("amaix", "nv_full"),
                                QStringLiteral("--x"), QStringLiteral("/memories/DRAM/bandwidth_gbps=4:64:10:log")};
        QTest::newRow("amaix 10 points, csv, 3 shards") << amaix << 3;
        QTest::newRow("amaix 10x3, jsonl, 4 shards")
            << (amaix + QStringList{QStringLiteral("--y"), QStringLiteral("/clock_ghz=0.5,1,1.5"), QStringLiteral("--format"),
                                    QStringLiteral("jsonl"), QStringLiteral("--refine")})
            << 4;
    }
    void shardsConcatenate()
    {
        QFETCH(QStringList, args);
        QFETCH(int, shards);
        const Run whole = cli(args);
        QCOMPARE(whole.exitCode, 0);
        QVERIFY(!whole.out.isEmpty());
        QByteArray joined;
        for (int i = 1; i <= shards; ++i) {
            const Run part = cli(args + QStringList{QStringLiteral("--shard"), QStringLiteral("%1/%2").arg(i).arg(shards),
                                                    QStringLiteral("--threads"), QString::number(1 + i % 2)});
            QCOMPARE(part.exitCode, 0);
            QVERIFY2(part.err.contains(QStringLiteral("(shard %1/%2: points ").arg(i).arg(shards).toUtf8()),
                     part.err.constData());
            joined += part.out;
        }
        QCOMPARE(joined, whole.out);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString fig6b = example("gables", "gables-fig6b");
        const QString x = QStringLiteral("--x");
        const QString bpeak = QStringLiteral("/soc/bpeak_gbps=10,20");
        const QString sweep = QStringLiteral("gables-sweep");
        auto row = [](const char *name, QStringList args, int code, const char *message) {
            QTest::newRow(name) << args << code << QString::fromUtf8(message);
        };
        row("shard 0/3", {sweep, fig6b, x, bpeak, QStringLiteral("--shard"), QStringLiteral("0/3")}, 2,
            "--shard needs I/N with 1 <= I <= N <= 1000000, got \"0/3\"");
        row("shard 4/3", {sweep, fig6b, x, bpeak, QStringLiteral("--shard"), QStringLiteral("4/3")}, 2, "got \"4/3\"");
        row("shard without N", {sweep, fig6b, x, bpeak, QStringLiteral("--shard"), QStringLiteral("2")}, 2, "got \"2\"");
        row("shard of text", {sweep, fig6b, x, bpeak, QStringLiteral("--shard"), QStringLiteral("a/b")}, 2, "got \"a/b\"");
        row("shard with json", {sweep, fig6b, x, bpeak, QStringLiteral("--shard"), QStringLiteral("1/2"),
                                QStringLiteral("--format"), QStringLiteral("json")}, 2,
            "--shard needs --format csv or jsonl");
        row("amaix shard with json",
            {QStringLiteral("amaix-sweep"), example("amaix", "lenet"), example("amaix", "nv_full"), x,
             QStringLiteral("/clock_ghz=1,2"), QStringLiteral("--shard"), QStringLiteral("1/2"), QStringLiteral("--format"),
             QStringLiteral("json")}, 2, "--shard needs --format csv or jsonl");
        row("amaix bad shard",
            {QStringLiteral("amaix-sweep"), example("amaix", "lenet"), example("amaix", "nv_full"), x,
             QStringLiteral("/clock_ghz=1,2"), QStringLiteral("--shard"), QStringLiteral("3/2")}, 2, "got \"3/2\"");
        row("no axis", {sweep, fig6b}, 2, "needs SOC.json and --x");
        row("y before x", {sweep, fig6b, QStringLiteral("--y"), bpeak}, 2, "give one --x, then at most one --y");
        row("bad axis", {sweep, fig6b, x, QStringLiteral("/soc/bpeak_gbps=1:2")}, 2, "cannot read the axis");
        row("bad format", {sweep, fig6b, x, bpeak, QStringLiteral("--format"), QStringLiteral("xml")}, 2,
            "--format must be csv, jsonl or json");
        row("unknown parameter", {sweep, fig6b, x, QStringLiteral("/soc/speed=1,2")}, 1, "/soc/speed: unknown parameter");
        row("unknown IP", {sweep, fig6b, x, QStringLiteral("/soc/ips/NPU/acceleration=1,2")}, 1,
            "no IP named or numbered \"NPU\"");
        row("missing file", {sweep, QStringLiteral("/nonexistent.json"), x, bpeak}, 1, "/nonexistent.json");
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run run = cli(args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
