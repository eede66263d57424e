// Issue 14: every file roofline-cli writes, onto a full disk. The child runs
// with a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: writes beyond it fail
// with "File too large", as a full disk fails with "No space left on device"),
// for any user. Each write must leave the previous file exactly as it was,
// leave no temporary file, exit 1 and name the path and the reason.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <csignal>

namespace {

constexpr rlim_t kFullDiskBytes = 256;

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run cliOnFullDisk(const QStringList &args)
{
    QProcess p;
    p.setChildProcessModifier([] {
        std::signal(SIGXFSZ, SIG_IGN); // kept across exec
        rlimit limit{kFullDiskBytes, kFullDiskBytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    p.start(QStringLiteral(ROOFLINE_CLI), args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString source(const char *relative)
{
    return QStringLiteral(ROOFLINE_SOURCE_DIR "/") + QLatin1String(relative);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliFullDisk : public QObject
{
    Q_OBJECT
private slots:
    void writesKeepThePreviousFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("args"); // "OUT" stands for the file written
        const QString trace = source("examples/verrocchio/vector-add-2cores.json");
        const QString machine = source("examples/verrocchio/ascend310.json");
        QTest::newRow("simulate --chrome-trace") << QStringLiteral("trace.json")
                                                 << QStringList{"simulate", trace, machine, "--chrome-trace", "OUT"};
        QTest::newRow("simulate --chrome-trace .gz")
            << QStringLiteral("trace.json.gz") << QStringList{"simulate", trace, machine, "--chrome-trace", "OUT"};
        QTest::newRow("simulate --events-out") << QStringLiteral("events.csv")
                                               << QStringList{"simulate", trace, machine, "--events", "csv",
                                                              "--events-out", "OUT"};
        QTest::newRow("network --save-network")
            << QStringLiteral("net.json")
            << QStringList{"network", source("examples/amaix/resnet50.json"), "--save-network", "OUT"};
        QTest::newRow("brouwer-fit --out")
            << QStringLiteral("device.json")
            << QStringList{"brouwer-fit",
                           source("tests/data/edgecaffe/measured/SoS-linear-1.csv"),
                           "--networks",
                           "Salient Object Subitizing=" + source("examples/brouwer/networks/SoS.prototxt"),
                           "--model",
                           "fe",
                           "--out",
                           "OUT"};
    }
    void writesKeepThePreviousFile()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString out = dir.filePath(name);
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous file");
        }
        args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), out);
        const Run r = cliOnFullDisk(args);
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(out + QStringLiteral(": cannot write the file: File too large")), qPrintable(err));
        QCOMPARE(readAll(out), QByteArray("the previous file"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name});
    }
};

QTEST_GUILESS_MAIN(TestCliFullDisk)
#include "tst_cli_fulldisk.moc"
