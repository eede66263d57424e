// roofline-cli end to end, run as a separate process: the golden result of
// every shipped example, overrides, and the exit status and message of every
// kind of bad input and wrong usage (exit 0 ok, 1 invalid input, 2 usage).
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalidInput = 1;
constexpr int kExitUsage = 2;

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliRun runCli(const QStringList &args, const QByteArray &input = {})
{
    QProcess process;
    process.start(QString::fromUtf8(ROOFLINE_CLI), args);
    CliRun run;
    if (!process.waitForStarted(10000)) {
        run.err = "could not start " ROOFLINE_CLI;
        return run;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        run.err = "roofline-cli did not finish within 30 s";
        return run;
    }
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return run;
}

QString examplesDir() { return QString::fromUtf8(ROOFLINE_EXAMPLES_DIR "/gables"); }
QString examplePath(const QString &name) { return examplesDir() + QLatin1Char('/') + name; }
QString dataPath(const QString &name) { return QString::fromUtf8(ROOFLINE_SOURCE_DIR "/tests/cli/data/") + name; }

QString describeRun(const CliRun &run)
{
    return QStringLiteral("exit %1\n--- stdout:\n%2--- stderr:\n%3")
        .arg(run.exitCode)
        .arg(QString::fromUtf8(run.out.left(2000)), QString::fromUtf8(run.err));
}

// Golden result of each file in examples/gables. A new example needs a row
// here: everyExampleHasAGoldenRow() fails otherwise. Values are written as the
// model's arithmetic so that a reader can check them by hand.
struct Golden
{
    const char *file;
    double attainableGops;
    const char *boundKind;
    const char *boundDescription;
};

const std::vector<Golden> &goldens()
{
    static const std::vector<Golden> rows = {
        // Seed 003, section III.C, Fig. 6: the paper's teaching sequence (models.md 1.3).
        {"gables-fig6a.json", 40, "ip_compute", "IP[0] CPU compute"},
        {"gables-fig6b.json", 1 / 0.753125, "memory", "memory"},
        {"gables-fig6c.json", 2, "ip_link", "IP[1] GPU link"},
        {"gables-fig6d.json", 160, "balanced", "balanced (IP[0] CPU compute, IP[1] GPU link, memory)"},
        // Snapdragon 835 rooflines of seed 003, section IV: the 10% on the 7.5 GFLOP/s CPU caps the SoC.
        {"snapdragon835.json", 7.5 / 0.1, "ip_compute", "IP[0] CPU compute"},
        // Seed 003, Fig. 8: I0 = I1 = 1024, f = 7/8; the 1/8 on the CPU caps the SoC.
        {"snapdragon835-cpu-gpu-i1024.json", 7.5 / 0.125, "ip_compute", "IP[0] CPU compute"},
        // Illustrative: the ISP's streaming traffic fills DRAM; Bpeak / Σ f_i/I_i.
        {"three-ip-camera.json", 25 / (0.1 / 5 + 0.3 / 10 + 0.6 / 2), "memory", "memory"},
        // Datasheet rooflines, illustrative use case: DRAM bound.
        {"jetson-agx-orin-64gb.json", 204.8 / (0.05 / 2 + 0.45 / 50 + 0.5 / 100), "memory", "memory"},
        // The NPU behind a PCIe Gen 3 x1 link: B_NPU * I_NPU / f_NPU.
        {"raspberry-pi5-ai-kit.json", (8.0 * 128 / 130 / 8) * 1000 / 0.9, "ip_link", "IP[1] NPU link"},
    };
    return rows;
}

// Every number in an example must say where it came from (style guide, practice 7):
// collects the JSON pointers of numbers that are not {"value": x, "source": "..."}.
void collectUnsourced(const QJsonValue &value, const QString &pointer, QStringList &unsourced)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (object.contains(QLatin1String("value")) && object.value(QLatin1String("value")).isDouble()) {
            if (object.value(QLatin1String("source")).toString().trimmed().isEmpty())
                unsourced << pointer;
            return;
        }
        for (auto it = object.begin(); it != object.end(); ++it)
            collectUnsourced(it.value(), pointer + QLatin1Char('/') + it.key(), unsourced);
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            collectUnsourced(array.at(i), pointer + QLatin1Char('/') + QString::number(i), unsourced);
    } else if (value.isDouble() && pointer != QLatin1String("/version")) {
        unsourced << pointer;
    }
}

QJsonObject parseObject(const QByteArray &text, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        *error = parseError.errorString();
    else if (!document.isObject())
        *error = QStringLiteral("not a JSON object");
    return document.object();
}

// A valid SoC with `count` identical IPs sharing the work equally.
QByteArray socWithIps(int count)
{
    QJsonArray ips;
    QJsonObject work;
    for (int i = 0; i < count; ++i) {
        const QString name = QStringLiteral("IP %1").arg(i);
        ips.append(QJsonObject{{QStringLiteral("name"), name},
                               {QStringLiteral("acceleration"), 1},
                               {QStringLiteral("bandwidth_gbps"), 10}});
        work.insert(name, QJsonObject{{QStringLiteral("fraction"), 1.0 / count},
                                      {QStringLiteral("intensity_ops_per_byte"), 1}});
    }
    const QJsonObject root{
        {QStringLiteral("format"), QStringLiteral("roofline-studio/gables")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("soc"),
         QJsonObject{{QStringLiteral("ppeak_gops"), 10}, {QStringLiteral("bpeak_gbps"), 10}, {QStringLiteral("ips"), ips}}},
        {QStringLiteral("use_case"), QJsonObject{{QStringLiteral("work"), work}}},
    };
    return QJsonDocument(root).toJson();
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(QString::fromUtf8(ROOFLINE_CLI)).isExecutable(), ROOFLINE_CLI " is not built");
    }

    // --- shipped examples ---------------------------------------------------

    void everyExampleHasAGoldenRow()
    {
        const QStringList files = QDir(examplesDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(QStringLiteral("no examples found in ") + examplesDir()));
        QStringList rows;
        for (const Golden &g : goldens())
            rows << QString::fromUtf8(g.file);
        QStringList withoutRow;
        for (const QString &f : files) {
            if (!rows.contains(f))
                withoutRow << f;
        }
        QStringList withoutFile;
        for (const QString &r : rows) {
            if (!files.contains(r))
                withoutFile << r;
        }
        QVERIFY2(withoutRow.isEmpty(),
                 qPrintable(QStringLiteral("examples/gables files without a golden row in tst_cli.cpp goldens(): ")
                            + withoutRow.join(QStringLiteral(", "))));
        QVERIFY2(withoutFile.isEmpty(),
                 qPrintable(QStringLiteral("golden rows for files that do not exist: ") + withoutFile.join(QStringLiteral(", "))));
    }

    void examples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("attainable");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("description");
        for (const Golden &g : goldens()) {
            QTest::newRow(g.file) << QString::fromUtf8(g.file) << g.attainableGops << QString::fromUtf8(g.boundKind)
                                  << QString::fromUtf8(g.boundDescription);
        }
    }
    void examples()
    {
        QFETCH(QString, file);
        QFETCH(double, attainable);
        QFETCH(QString, kind);
        QFETCH(QString, description);

        const QString path = examplePath(file);
        const CliRun run = runCli({QStringLiteral("evaluate"), path});
        QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
        QVERIFY2(run.err.isEmpty(), qPrintable(QStringLiteral("a shipped example must load without warnings:\n")
                                               + QString::fromUtf8(run.err)));
        QString error;
        const QJsonObject result = parseObject(run.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        ROOFLINE_COMPARE_REL(result.value(QLatin1String("attainable_gops")).toDouble(), attainable, 1e-9);
        const QJsonObject bound = result.value(QLatin1String("bound")).toObject();
        QCOMPARE(bound.value(QLatin1String("kind")).toString(), kind);
        QCOMPARE(bound.value(QLatin1String("description")).toString(), description);
        QCOMPARE(result.value(QLatin1String("file")).toString(), path);
        QCOMPARE(result.value(QLatin1String("warnings")).toArray().size(), 0);
        // P_att = 1 / T: the two outputs must agree.
        ROOFLINE_COMPARE_REL(result.value(QLatin1String("time_ns_per_op")).toDouble() * attainable, 1.0, 1e-9);

        const CliRun validate = runCli({QStringLiteral("validate"), path});
        QVERIFY2(validate.exitCode == kExitOk, qPrintable(describeRun(validate)));
        QVERIFY(validate.out.contains(": valid ("));
    }

    void examplesCarryTheirSources_data()
    {
        QTest::addColumn<QString>("file");
        for (const Golden &g : goldens())
            QTest::newRow(g.file) << QString::fromUtf8(g.file);
    }
    void examplesCarryTheirSources()
    {
        QFETCH(QString, file);
        QFile in(examplePath(file));
        QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(in.errorString()));
        QString error;
        const QJsonObject root = parseObject(in.readAll(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        QVERIFY2(!root.value(QLatin1String("name")).toString().isEmpty(), "an example needs a name");
        QVERIFY2(!root.value(QLatin1String("description")).toString().isEmpty(),
                 "an example needs a description that says what to look at");
        const QJsonArray ips = root.value(QLatin1String("soc")).toObject().value(QLatin1String("ips")).toArray();
        for (const QJsonValue &ip : ips) {
            QVERIFY2(ip.toObject().value(QLatin1String("color")).toString().startsWith(QLatin1Char('#')),
                     qPrintable(QStringLiteral("IP %1 has no colour").arg(ip.toObject().value(QLatin1String("name")).toString())));
        }
        QStringList unsourced;
        collectUnsourced(root, QString(), unsourced);
        QVERIFY2(unsourced.isEmpty(),
                 qPrintable(QStringLiteral("numbers without a source: ") + unsourced.join(QStringLiteral(", "))));
    }

    // --- overrides -----------------------------------------------------------

    void overrides_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<double>("attainable");
        QTest::addColumn<QString>("kind");

        auto row = [](const char *name, const char *file, const QStringList &args, double attainable, const char *kind) {
            QTest::newRow(name) << QString::fromUtf8(file) << args << attainable << QString::fromUtf8(kind);
        };
        const QString set = QStringLiteral("--set");
        row("fig6b + Bpeak=30 is fig6c", "gables-fig6b.json", {set, QStringLiteral("/soc/bpeak_gbps=30")}, 2, "ip_link");
        row("fig6b + f=0 is fig6a", "gables-fig6b.json", {set, QStringLiteral("/use_case/work/GPU/fraction=0")}, 40,
            "ip_compute");
        row("fig6a + f=0.75 is fig6b", "gables-fig6a.json", {set, QStringLiteral("/use_case/work/GPU/fraction=0.75")},
            1 / 0.753125, "memory");
        row("fig6c + I1=8, Bpeak=20 is fig6d", "gables-fig6c.json",
            {set, QStringLiteral("/use_case/work/GPU/intensity_ops_per_byte=8"), set, QStringLiteral("/soc/bpeak_gbps=20")},
            160, "balanced");
        row("--set=POINTER=VALUE form", "gables-fig6b.json", {QStringLiteral("--set=/soc/bpeak_gbps=30")}, 2, "ip_link");
        row("pointer without leading slash", "gables-fig6b.json", {set, QStringLiteral("soc/bpeak_gbps=30")}, 2, "ip_link");
        row("IP by index", "gables-fig6c.json", {set, QStringLiteral("/soc/ips/1/bandwidth_gbps=45")}, 30 / 7.53125,
            "memory");
        row("the last override wins", "gables-fig6b.json",
            {set, QStringLiteral("/soc/bpeak_gbps=20"), set, QStringLiteral("/soc/bpeak_gbps=30")}, 2, "ip_link");
        row("Ppeak scales IP[0] and every A_i", "gables-fig6a.json", {set, QStringLiteral("/soc/ppeak_gops=20")}, 20,
            "ip_compute");
        row("fig8: all work on the GPU", "snapdragon835-cpu-gpu-i1024.json",
            {set, QStringLiteral("/use_case/work/GPU/fraction=1")}, 349.6, "ip_compute");
        row("835: f_GPU=0.97 moves the bound to the GPU link", "snapdragon835.json",
            {set, QStringLiteral("/use_case/work/GPU/fraction=0.97")}, 24 * 8 / 0.97, "ip_link");
        row("camera: a faster GPU changes nothing", "three-ip-camera.json",
            {set, QStringLiteral("/soc/ips/GPU/acceleration=40")}, 25 / 0.35, "memory");
        row("camera: ISP reuse helps", "three-ip-camera.json",
            {set, QStringLiteral("/use_case/work/ISP/intensity_ops_per_byte=8")}, 25 / (0.02 + 0.03 + 0.6 / 8), "memory");
        row("orin: CPU intensity 16", "jetson-agx-orin-64gb.json",
            {set, QStringLiteral("/use_case/work/CPU/intensity_ops_per_byte=16")}, 204.8 / (0.05 / 16 + 0.009 + 0.005),
            "memory");
        row("rpi5: PCIe Gen 2", "raspberry-pi5-ai-kit.json", {set, QStringLiteral("/soc/ips/NPU/bandwidth_gbps=0.5")},
            0.5 * 1000 / 0.9, "ip_link");
    }
    void overrides()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, args);
        QFETCH(double, attainable);
        QFETCH(QString, kind);

        const CliRun run = runCli(QStringList{QStringLiteral("evaluate"), examplePath(file)} + args);
        QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
        QString error;
        const QJsonObject result = parseObject(run.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        ROOFLINE_COMPARE_REL(result.value(QLatin1String("attainable_gops")).toDouble(), attainable, 1e-9);
        QCOMPARE(result.value(QLatin1String("bound")).toObject().value(QLatin1String("kind")).toString(), kind);
    }

    // --- other outputs ---------------------------------------------------------

    void textFormat_data()
    {
        QTest::addColumn<QStringList>("formatArgs");
        QTest::newRow("--format text") << QStringList{QStringLiteral("--format"), QStringLiteral("text")};
        QTest::newRow("--format=text") << QStringList{QStringLiteral("--format=text")};
    }
    void textFormat()
    {
        QFETCH(QStringList, formatArgs);
        const CliRun run = runCli(QStringList{QStringLiteral("evaluate"), examplePath(QStringLiteral("gables-fig6b.json"))}
                                  + formatArgs);
        QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.startsWith(QLatin1String("Gables Fig. 6b")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("P_attainable  1.3278 Gops/s")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("bound         memory")), qPrintable(out));
        QVERIFY2(out.contains(QRegularExpression(QStringLiteral("^GPU +0\\.75 +0\\.1 "), QRegularExpression::MultilineOption)),
                 qPrintable(out));
    }

    void readsStandardInput()
    {
        QFile in(examplePath(QStringLiteral("gables-fig6b.json")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const CliRun run = runCli({QStringLiteral("evaluate"), QStringLiteral("-")}, in.readAll());
        QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
        QString error;
        const QJsonObject result = parseObject(run.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        ROOFLINE_COMPARE_REL(result.value(QLatin1String("attainable_gops")).toDouble(), 1 / 0.753125, 1e-9);
    }

    // Σ f_i ≠ 1 is not an error: the shares are normalised and a warning says so.
    void normalisesFractionsWithWarning()
    {
        const QString path = dataPath(QStringLiteral("weights-not-fractions.json"));
        const CliRun run = runCli({QStringLiteral("evaluate"), path});
        QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
        const QString expected = QStringLiteral("warning: ") + path
            + QStringLiteral(": /use_case/work: work fractions sum to 0.4; normalised so that they sum to 1");
        QVERIFY2(QString::fromUtf8(run.err).contains(expected), qPrintable(describeRun(run)));
        QString error;
        const QJsonObject result = parseObject(run.out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(result.value(QLatin1String("warnings")).toArray().size(), 1);
        // 0.1 : 0.3 is fig6b's 0.25 : 0.75.
        ROOFLINE_COMPARE_REL(result.value(QLatin1String("attainable_gops")).toDouble(), 1 / 0.753125, 1e-9);
    }

    // --- invalid input: exit 1, and the message names file, pointer and reason ---

    void invalidInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");    // as it must appear in the message
        QTest::addColumn<QString>("pointer"); // empty when the error has no position
        QTest::addColumn<QString>("reason");

        auto fileRow = [](const char *name, const char *dataFile, const char *pointer, const char *reason) {
            const QString path = dataPath(QString::fromUtf8(dataFile));
            QTest::newRow(name) << QStringList{QStringLiteral("evaluate"), path} << path << QString::fromUtf8(pointer)
                                << QString::fromUtf8(reason);
        };
        fileRow("malformed JSON", "malformed.json", "line 4, column 28",
                "invalid JSON: syntax error while parsing object key");
        fileRow("unknown key (typo)", "unknown-key.json", "/soc/ips/1/bandwith_gbps", "unknown key \"bandwith_gbps\"");
        fileRow("zero Ppeak", "zero-ppeak.json", "/soc/ppeak_gops", "must be > 0 and <= 1e+09, got 0");
        fileRow("negative bandwidth", "negative-bandwidth.json", "/soc/ips/1/bandwidth_gbps",
                "must be > 0 and <= 1e+09, got -3");
        fileRow("huge intensity", "huge-intensity.json", "/use_case/work/GPU/intensity_ops_per_byte",
                "must be > 0 and <= 1e+09, got 1e+300");
        fileRow("number overflows to infinity", "overflow.json", "/soc/ips/1/bandwidth_gbps",
                "invalid JSON: number overflow parsing '1e999'");
        fileRow("missing field", "missing-bpeak.json", "/soc/bpeak_gbps", "required field is missing");
        fileRow("wrong format id", "wrong-format.json", "/format",
                "expected \"roofline-studio/gables\", got \"roofline-studio/amaix\"");
        fileRow("fraction above 1", "fraction-above-one.json", "/use_case/work/GPU/fraction",
                "must be >= 0 and <= 1, got 1.5");
        fileRow("string for a number", "string-for-number.json", "/soc/bpeak_gbps/value", "expected a number, got a string");
        {
            const QString path = dataPath(QStringLiteral("unknown-key.json"));
            QTest::newRow("validate reports the same") << QStringList{QStringLiteral("validate"), path} << path
                                                       << QStringLiteral("/soc/ips/1/bandwith_gbps")
                                                       << QStringLiteral("unknown key \"bandwith_gbps\"");
        }
        const QString missing = QStringLiteral("/nonexistent/soc.json");
        QTest::newRow("nonexistent file") << QStringList{QStringLiteral("evaluate"), missing} << missing << QString()
                                          << QStringLiteral("cannot open the file for reading");

        auto overrideRow = [](const char *name, const char *assignment, const char *pointer, const char *reason) {
            const QString path = examplePath(QStringLiteral("gables-fig6b.json"));
            QTest::newRow(name) << QStringList{QStringLiteral("evaluate"), path, QStringLiteral("--set"),
                                               QString::fromUtf8(assignment)}
                                << path << QString::fromUtf8(pointer) << QString::fromUtf8(reason);
        };
        overrideRow("override: nan", "/soc/bpeak_gbps=nan", "/soc/bpeak_gbps", "expected a finite number, got \"nan\"");
        overrideRow("override: not a number", "/soc/bpeak_gbps=fast", "/soc/bpeak_gbps",
                    "expected a finite number, got \"fast\"");
        overrideRow("override: zero", "/soc/bpeak_gbps=0", "/soc/bpeak_gbps",
                    "must be > 0 and <= 1e+09, got 0 (after --set /soc/bpeak_gbps=0)");
        overrideRow("override: negative, IP by name", "/soc/ips/GPU/bandwidth_gbps=-1", "/soc/ips/1/bandwidth_gbps",
                    "must be > 0 and <= 1e+09, got -1 (after --set /soc/ips/GPU/bandwidth_gbps=-1)");
        overrideRow("override: huge", "/soc/ips/GPU/acceleration=1e7", "/soc/ips/1/acceleration",
                    "must be > 0 and <= 1e+06, got 1e+07");
        overrideRow("override: fraction above 1", "/use_case/work/GPU/fraction=1.5", "/use_case/work/GPU/fraction",
                    "must be >= 0 and <= 1, got 1.5");
        overrideRow("override: unknown IP", "/use_case/work/NPU/fraction=0.5", "/use_case/work/NPU/fraction",
                    "no IP named or numbered \"NPU\"");
        overrideRow("override: unknown parameter", "/soc/foo=1", "/soc/foo", "unknown parameter; use /soc/ppeak_gops");
    }
    void invalidInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        QFETCH(QString, pointer);
        QFETCH(QString, reason);

        const CliRun run = runCli(args);
        QVERIFY2(run.exitCode == kExitInvalidInput, qPrintable(describeRun(run)));
        QVERIFY2(run.out.isEmpty(), qPrintable(QStringLiteral("no result may be printed for invalid input\n") + describeRun(run)));
        // "error: FILE: POINTER: REASON", one diagnostic per line.
        const QString prefix = QStringLiteral("error: ") + file + QStringLiteral(": ")
            + (pointer.isEmpty() ? QString() : pointer + QStringLiteral(": "));
        bool found = false;
        for (const QString &line : QString::fromUtf8(run.err).split(QLatin1Char('\n'))) {
            if (line.startsWith(prefix) && line.mid(prefix.size()).startsWith(reason))
                found = true;
        }
        QVERIFY2(found, qPrintable(QStringLiteral("expected a line \"%1%2...\"\n").arg(prefix, reason) + describeRun(run)));
    }

    // kMaxIps = 256: 256 IPs load, 257 are rejected with a message.
    void ipCountLimit()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int count : {256, 257}) {
            const QString path = dir.filePath(QStringLiteral("ips-%1.json").arg(count));
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(socWithIps(count));
            out.close();
            const CliRun run = runCli({QStringLiteral("validate"), path});
            if (count == 256) {
                QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
                QVERIFY(run.out.contains("valid (256 IPs)"));
            } else {
                QVERIFY2(run.exitCode == kExitInvalidInput, qPrintable(describeRun(run)));
                const QString expected = QStringLiteral("error: ") + path
                    + QStringLiteral(": /soc/ips: at most 256 IPs are supported, got 257");
                QVERIFY2(QString::fromUtf8(run.err).contains(expected), qPrintable(describeRun(run)));
            }
        }
    }

    // --- wrong usage: exit 2 -------------------------------------------------------

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");

        const QString fig6b = examplePath(QStringLiteral("gables-fig6b.json"));
        const QString fig6a = examplePath(QStringLiteral("gables-fig6a.json"));
        auto row = [](const char *name, const QStringList &args, const char *message) {
            QTest::newRow(name) << args << QString::fromUtf8(message);
        };
        row("no arguments", {}, "Usage: roofline-cli COMMAND");
        row("unknown command", {QStringLiteral("evalute"), fig6b}, "roofline-cli: unknown command \"evalute\"");
        row("unknown option", {QStringLiteral("evaluate"), QStringLiteral("--frmat"), QStringLiteral("text"), fig6b},
            "roofline-cli: unknown option \"--frmat\"");
        row("evaluate without file", {QStringLiteral("evaluate")}, "roofline-cli: evaluate needs a FILE");
        row("validate without file", {QStringLiteral("validate")}, "roofline-cli: validate needs a FILE");
        row("--set without value", {QStringLiteral("evaluate"), fig6b, QStringLiteral("--set")},
            "roofline-cli: --set needs a value");
        row("--set without equals sign", {QStringLiteral("evaluate"), fig6b, QStringLiteral("--set"), QStringLiteral("/soc/bpeak_gbps")},
            "roofline-cli: --set needs POINTER=VALUE, e.g. /soc/bpeak_gbps=30, got \"/soc/bpeak_gbps\"");
        row("--format without value", {QStringLiteral("evaluate"), fig6b, QStringLiteral("--format")},
            "roofline-cli: --format needs a value");
        row("unknown format", {QStringLiteral("evaluate"), fig6b, QStringLiteral("--format"), QStringLiteral("xml")},
            "roofline-cli: --format must be json or text, got \"xml\"");
        row("two files", {QStringLiteral("evaluate"), fig6b, fig6a}, "roofline-cli: only one file may be given");
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliRun run = runCli(args);
        QVERIFY2(run.exitCode == kExitUsage, qPrintable(describeRun(run)));
        QVERIFY2(run.out.isEmpty(), qPrintable(describeRun(run)));
        QVERIFY2(QString::fromUtf8(run.err).contains(message), qPrintable(describeRun(run)));
    }

    void information_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("pattern");
        const QString usage = QStringLiteral("^Usage: roofline-cli COMMAND \\[OPTIONS\\] FILE\n");
        QTest::newRow("--version") << QStringList{QStringLiteral("--version")}
                                   << QStringLiteral("^roofline-cli \\d+\\.\\d+\\.\\d+\\S*\n$");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << usage;
        QTest::newRow("-h") << QStringList{QStringLiteral("-h")} << usage;
        QTest::newRow("evaluate --help") << QStringList{QStringLiteral("evaluate"), QStringLiteral("--help")} << usage;
    }
    void information()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, pattern);
        const CliRun run = runCli(args);
        QVERIFY2(run.exitCode == kExitOk, qPrintable(describeRun(run)));
        QVERIFY2(run.err.isEmpty(), qPrintable(describeRun(run)));
        QVERIFY2(QString::fromUtf8(run.out).contains(QRegularExpression(pattern)), qPrintable(describeRun(run)));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
