// Issue 14: the studio's own files on a full disk. Sessions, the autosave and
// review bundles are written through one atomic path (QSaveFile: written,
// flushed, synced, renamed); a write that fails leaves the previous file as it
// was, leaves no scratch file, and tells the user the path and the reason.
// The "full disk" is a file size limit (tests/filesizelimit.h): writes beyond
// it fail with "File too large" for any user, the way ENOSPC does on a full disk.
#include "filesizelimit.h"
#include "mainwindow.h"

#include <sys/resource.h>

#include <csignal>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Everything in a folder, hidden files included: no scratch file may survive.
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

constexpr rlim_t kFullDiskBytes = 200; // smaller than any session, plot or index

} // namespace

class TestFullDisk : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the autosave goes to a test location
    }

    void sessionSaveKeepsThePreviousSession()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.session.json"));
        studio::MainWindow window;
        QString error;
        QVERIFY2(window.saveSession(path, &error), qPrintable(error));
        const QByteArray previous = readAll(path);
        QVERIFY(previous.size() > qint64(kFullDiskBytes));
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/snapdragon835.json"), &error), qPrintable(error));
        bool saved = true;
        {
            FileSizeLimit limit(kFullDiskBytes);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            saved = window.saveSession(path, &error);
        }
        QVERIFY(!saved);
        QVERIFY2(error.startsWith(path + QStringLiteral(": cannot write the file: File too large")), qPrintable(error));
        QCOMPARE(readAll(path), previous);
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("review.session.json")});
    }

    void failingAutosaveIsToldAndKeepsTheLastGoodOne()
    {
        studio::MainWindow window;
        QVERIFY(window.writeAutosave());
        const QString path = studio::MainWindow::autosavePath();
        const QByteArray previous = readAll(path);
        QVERIFY(!previous.isEmpty());
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/snapdragon835.json"), &error), qPrintable(error));
        bool saved = true;
        {
            FileSizeLimit limit(kFullDiskBytes);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            saved = window.writeAutosave();
        }
        QVERIFY(!saved);
        const QString why = window.autosaveError();
        QVERIFY2(why.startsWith(path + QStringLiteral(": cannot write the file: File too large")), qPrintable(why));
        const QString shown = window.statusBar()->currentMessage();
        QVERIFY2(shown.contains(QStringLiteral("Autosave failed")) && shown.contains(path), qPrintable(shown));
        QCOMPARE(readAll(path), previous);
        QCOMPARE(entries(QFileInfo(path).absolutePath()).filter(QStringLiteral("autosave")),
                 QStringList{QStringLiteral("autosave.session.json")});
        // Room again: the next autosave succeeds and the message is cleared.
        QVERIFY(window.writeAutosave());
        QVERIFY(window.autosaveError().isEmpty());
        QVERIFY(readAll(path) != previous);
        QFile::remove(path);
    }

    // A bundle exported again onto a full disk: the previous bundle stays whole
    // (it is written into a scratch folder and moved in only when complete).
    void reviewBundleOnFullDiskKeepsThePreviousBundle()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("review"));
        studio::MainWindow window;
        window.resize(1000, 700);
        QString error;
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QStringList before = entries(folder);
        QVERIFY2(before.contains(QStringLiteral("index.html")) && before.size() > 4, qPrintable(before.join(' ')));
        QMap<QString, QByteArray> previous;
        for (const QString &name : before)
            previous[name] = readAll(QDir(folder).filePath(name));

        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/snapdragon835.json"), &error), qPrintable(error));
        bool exported = true;
        {
            FileSizeLimit limit(kFullDiskBytes);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            exported = window.exportReviewBundle(folder, &error);
        }
        QVERIFY(!exported);
        // The message names a file of the bundle as the user named it, and the reason.
        QVERIFY2(error.startsWith(folder + QLatin1Char('/')) && error.contains(QStringLiteral("File too large"))
                     && !error.contains(QStringLiteral(".bundle-part")),
                 qPrintable(error));
        QCOMPARE(entries(folder), before);
        for (const QString &name : before)
            QVERIFY2(readAll(QDir(folder).filePath(name)) == previous[name], qPrintable(name));

        // With room, the same folder takes the new bundle and nothing is left over.
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QString model = QDir(folder).filePath(QStringLiteral("gables-model.json"));
        QVERIFY(readAll(model) != previous[QStringLiteral("gables-model.json")]);
        QVERIFY2(readAll(model).contains("Snapdragon 835"), readAll(model).left(300).constData());
        for (const QString &name : entries(folder))
            QVERIFY2(!name.startsWith(QLatin1Char('.')), qPrintable(name));
    }

    // The headless studio's files (screenshot, plot export, bundle) with the
    // same limit in a child process: exit 1, path and reason, old file kept.
    void headlessStudioOnFullDisk_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("name");
        QTest::newRow("--screenshot") << QStringLiteral("--screenshot") << QStringLiteral("window.png");
        QTest::newRow("--export-svg") << QStringLiteral("--export-svg") << QStringLiteral("plot.svg");
        QTest::newRow("--export-pdf") << QStringLiteral("--export-pdf") << QStringLiteral("plot.pdf");
    }
    void headlessStudioOnFullDisk()
    {
        QFETCH(QString, option);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString out = dir.filePath(name);
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous file");
        }
        QProcess p;
        p.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_IGN); // kept across exec
            rlimit limit{kFullDiskBytes, kFullDiskBytes};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ROOFLINE_STUDIO),
                {QStringLiteral(ROOFLINE_EXAMPLES_DIR "/gables/gables-fig6b.json"), option, out});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 1, qPrintable(err));
        QVERIFY2(err.contains(out + QStringLiteral(": cannot write the file: ")), qPrintable(err));
        QCOMPARE(readAll(out), QByteArray("the previous file"));
        QCOMPARE(entries(dir.path()), QStringList{name});
    }
};

QTEST_MAIN(TestFullDisk)
#include "tst_fulldisk.moc"
