// Issue 14: every file roofline-cli writes, onto a full disk. The child runs
// with a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: writes beyond it fail
// with "File too large", as a full disk fails with "No space left on device"),
// for any user. Each write must leave the previous file exactly as it was,
// leave no temporary file, exit 1 and name the path and the reason. The same
// writes into a read-only folder (the child runs as nobody when we are root,
// tests/readonlyfolder.h) fail the same way with "Permission denied".
// The kernel lab's output folder too (kernelLabKeepsThePreviousFiles).
#include "readonlyfolder.h"

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

Run cliOnFullDisk(const QStringList &args, bool readOnly)
{
    QProcess p;
    if (readOnly) {
        p.setChildProcessModifier(&ReadOnlyFolder::dropRootInChild);
    } else {
        p.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_IGN); // kept across exec
            rlimit limit{kFullDiskBytes, kFullDiskBytes};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
    }
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
        QTest::addColumn<bool>("readOnly");
        const QString trace = source("examples/verrocchio/vector-add-2cores.json");
        const QString machine = source("examples/verrocchio/ascend310.json");
        for (bool readOnly : {false, true}) {
            const QString where = readOnly ? QStringLiteral(", read-only folder") : QStringLiteral(", full disk");
            QTest::newRow(qPrintable(QStringLiteral("simulate --chrome-trace") + where))
                << QStringLiteral("trace.json") << QStringList{"simulate", trace, machine, "--chrome-trace", "OUT"}
                << readOnly;
            QTest::newRow(qPrintable(QStringLiteral("simulate --chrome-trace .gz") + where))
                << QStringLiteral("trace.json.gz") << QStringList{"simulate", trace, machine, "--chrome-trace", "OUT"}
                << readOnly;
            QTest::newRow(qPrintable(QStringLiteral("simulate --events-out") + where))
                << QStringLiteral("events.csv")
                << QStringList{"simulate", trace, machine, "--events", "csv", "--events-out", "OUT"} << readOnly;
            QTest::newRow(qPrintable(QStringLiteral("network --save-network") + where))
                << QStringLiteral("net.json")
                << QStringList{"network", source("examples/amaix/resnet50.json"), "--save-network", "OUT"} << readOnly;
            QTest::newRow(qPrintable(QStringLiteral("brouwer-fit --out") + where))
                << QStringLiteral("device.json")
                << QStringList{"brouwer-fit",
                               source("tests/data/edgecaffe/measured/SoS-linear-1.csv"),
                               "--networks",
                               "Salient Object Subitizing=" + source("examples/brouwer/networks/SoS.prototxt"),
                               "--model",
                               "fe",
                               "--out",
                               "OUT"}
                << readOnly;
        }
    }
    void writesKeepThePreviousFile()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, args);
        QFETCH(bool, readOnly);
        if (readOnly && !ReadOnlyFolder::childCanRun(ROOFLINE_CLI))
            QSKIP("nobody cannot reach the program here (the tree is under a folder only root may enter)");
        QTemporaryDir dir;
        const QString out = dir.filePath(name);
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous file");
        }
        args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), out);
        const auto readable = QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                              | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther;
        if (readOnly) // r-x for everyone: the child (nobody, when we are root) may read but not write here
            QVERIFY(QFile::setPermissions(dir.path(), readable));
        const Run r = cliOnFullDisk(args, readOnly);
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(out + QStringLiteral(": cannot write the file: ")
                              + (readOnly ? QStringLiteral("Permission denied") : QStringLiteral("File too large"))),
                 qPrintable(err));
        QCOMPARE(readAll(out), QByteArray("the previous file"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name});
    }
    // roofline-cli kernel-lab --out DIR writes its files through
    // writeFileAtomically (core/nnmeter/lab/lab.cpp, writeLabFiles). Its
    // shortest run: --device with one network measures that network only
    // (no calibration, fusion test or sampling; --quick: a few repetitions,
    // under a second) and writes DIR/onednn_cpu/{kernels,measured,
    // measurements}.csv. DIR holds a previous run's files; every one of them
    // must be left as it was, with no temporary file beside it.
    void kernelLabKeepsThePreviousFiles_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("full disk") << false;
        QTest::newRow("read-only folder") << true;
    }
    void kernelLabKeepsThePreviousFiles()
    {
        QFETCH(bool, readOnly);
        if (readOnly && !ReadOnlyFolder::childCanRun(ROOFLINE_CLI))
            QSKIP("nobody cannot reach the program here (the tree is under a folder only root may enter)");
        QTemporaryDir dir;
        const QString inner = dir.filePath(QStringLiteral("onednn_cpu"));
        QVERIFY(QDir().mkpath(inner));
        const QStringList previous{"onednn_cpu.device.json", "onednn_cpu.rules.json", "onednn_cpu/kernels.csv",
                                   "onednn_cpu/measured.csv", "onednn_cpu/measurements.csv"};
        for (const QString &name : previous) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous " + name.toUtf8());
        }
        const auto readable = QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                              | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther;
        if (readOnly) // both folders r-x for everyone (the child is nobody when we are root)
            QVERIFY(QFile::setPermissions(dir.path(), readable) && QFile::setPermissions(inner, readable));
        const Run r = cliOnFullDisk({"kernel-lab", "--out", dir.path(), "--device",
                                     source("examples/nnmeter/onednn_cpu.device.json"), "--networks",
                                     source("examples/amaix/lenet.json"), "--quick"},
                                    readOnly);
        const auto writable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
        QFile::setPermissions(inner, writable);
        QFile::setPermissions(dir.path(), writable);
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        // It measured (the progress on stderr), then the first file it writes is named, with the reason.
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(QStringLiteral("lenet.json: measured ")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("error: ") + inner + QStringLiteral("/kernels.csv: cannot write the file: ")
                              + (readOnly ? QStringLiteral("Permission denied") : QStringLiteral("File too large"))),
                 qPrintable(err));
        for (const QString &name : previous)
            QCOMPARE(readAll(dir.filePath(name)), "the previous " + name.toUtf8());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name),
                 (QStringList{"onednn_cpu.device.json", "onednn_cpu.rules.json"}));
        QCOMPARE(QDir(inner).entryList(QDir::Files | QDir::Hidden, QDir::Name),
                 (QStringList{"kernels.csv", "measured.csv", "measurements.csv"}));
    }
};

QTEST_GUILESS_MAIN(TestCliFullDisk)
#include "tst_cli_fulldisk.moc"
