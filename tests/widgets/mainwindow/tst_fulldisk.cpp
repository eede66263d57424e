// Issue 14: the studio's own files on a full disk. Sessions, the autosave and
// review bundles are written through one atomic path (QSaveFile: written,
// flushed, synced, renamed); a write that fails leaves the previous file as it
// was, leaves no scratch file, and tells the user the path and the reason.
// The "full disk" is a file size limit (tests/filesizelimit.h): writes beyond
// it fail with "File too large" for any user, the way ENOSPC does on a full disk.
// The same saves into a read-only folder (tests/readonlyfolder.h, root included)
// fail with "Permission denied", the same way.
#include "amaixview.h"
#include "brouwerview.h"
#include "filesizelimit.h"
#include "mainwindow.h"
#include "modelview.h"
#include "readonlyfolder.h"
#include "timelineview.h"

#include <functional>

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

// A write that must fail in `folder` (full, or read-only), keeping the file
// that was there: `write` is called while the limit holds; the message must
// start with the path and give the reason. Returns what went wrong, or "".
QString failsKeepingThePrevious(const QString &folder, const QString &name, bool readOnly,
                                const std::function<bool(const QString &path, QString *error)> &write)
{
    const QString path = QDir(folder).filePath(name);
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write("the previous file") != 17)
            return QStringLiteral("%1: cannot write the previous file").arg(path);
    }
    const QStringList before = entries(folder);
    QString error;
    bool written = true;
    bool limited = false;
    if (readOnly) {
        ReadOnlyFolder limit(folder.toStdString());
        limited = limit.ok();
        if (limited)
            written = write(path, &error);
    } else {
        FileSizeLimit limit(kFullDiskBytes);
        limited = limit.ok();
        if (limited)
            written = write(path, &error);
    }
    if (!limited)
        return QStringLiteral("SKIP");
    const QString reason = readOnly ? QStringLiteral(": Permission denied") : QStringLiteral(": File too large");
    if (written)
        return QStringLiteral("%1: written%2").arg(path, readOnly ? QStringLiteral(" into a read-only folder")
                                                                  : QStringLiteral(" past a full disk"));
    if (!error.startsWith(path + QStringLiteral(": ")) || !error.contains(reason))
        return QStringLiteral("%1: the message does not name the path and \"%2\": %3").arg(path, reason.mid(2), error);
    if (readAll(path) != QByteArray("the previous file"))
        return QStringLiteral("%1: the previous file was not kept").arg(path);
    if (entries(folder) != before)
        return QStringLiteral("%1: left %2").arg(path, entries(folder).join(QLatin1Char(' ')));
    return {};
}

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

    // Every view's own saves and exports (the models, the AMAIX and Brouwer
    // result CSVs, the timeline's Chrome trace) on a full disk and into a
    // read-only folder: refused with path and reason, the previous file kept.
    void viewSavesAndExports_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("full disk") << false;
        QTest::newRow("read-only folder") << true;
    }
    void viewSavesAndExports()
    {
        QFETCH(bool, readOnly);
        studio::MainWindow window;
        window.resize(1000, 700);
        QString error;
        for (const char *model : {"amaix/lenet.json", "gables/snapdragon835.json", "verrocchio/ascend310.json"})
            QVERIFY2(window.openFile(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/") + QLatin1String(model), &error),
                     qPrintable(error));
        QTemporaryDir dir;
        QStringList failures;
        int checked = 0;
        auto check = [&](const QString &name, const std::function<bool(const QString &, QString *)> &write) {
            // With room, the write works (so the refusal below is the disk's, not the model's).
            QString first;
            if (!write(dir.filePath(QStringLiteral("ok-") + name), &first)) {
                failures << QStringLiteral("%1: fails with room: %2").arg(name, first);
                return;
            }
            if (QFileInfo(dir.filePath(QStringLiteral("ok-") + name)).size() <= qint64(kFullDiskBytes)) {
                failures << QStringLiteral("%1: smaller than the full disk's room").arg(name);
                return;
            }
            const QString problem = failsKeepingThePrevious(dir.path(), name, readOnly, write);
            if (problem == QLatin1String("SKIP"))
                QSKIP(readOnly ? "no read-only folder here" : "cannot set RLIMIT_FSIZE here");
            if (!problem.isEmpty())
                failures << problem;
            ++checked;
        };
        for (studio::ModelView *view : window.views()) {
            view->flushPendingUpdate();
            if (view->canSave())
                check(view->sessionKey() + QStringLiteral("-model.json"),
                      [view](const QString &path, QString *e) { return view->saveFile(path, e); });
            if (auto *amaix = qobject_cast<studio::AmaixView *>(view))
                check(QStringLiteral("amaix-layers.csv"),
                      [amaix](const QString &path, QString *e) { return amaix->exportCsv(path, e); });
            if (auto *brouwer = qobject_cast<studio::BrouwerView *>(view))
                check(QStringLiteral("brouwer-layers.csv"),
                      [brouwer](const QString &path, QString *e) { return brouwer->exportCsv(path, e); });
            if (auto *timeline = qobject_cast<studio::TimelineView *>(view))
                check(QStringLiteral("timeline.trace.json"),
                      [timeline](const QString &path, QString *e) { return timeline->exportChromeTrace(path, e); });
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
        QVERIFY2(checked >= 7, qPrintable(QString::number(checked))); // 4 models, 3 exports
    }

    // The session, the review bundle and the autosave's folder made read-only.
    void sessionAndBundleIntoAReadOnlyFolder()
    {
        studio::MainWindow window;
        window.resize(1000, 700);
        QTemporaryDir dir;
        const QString problem = failsKeepingThePrevious(dir.path(), QStringLiteral("review.session.json"), true,
                                                        [&](const QString &path, QString *error) {
                                                            return window.saveSession(path, error);
                                                        });
        if (problem == QLatin1String("SKIP"))
            QSKIP("no read-only folder here");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // A bundle into a read-only folder that holds a previous bundle.
        const QString folder = dir.filePath(QStringLiteral("review"));
        QString error;
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QStringList before = entries(folder);
        bool exported = true;
        {
            ReadOnlyFolder limit(folder.toStdString());
            QVERIFY(limit.ok());
            exported = window.exportReviewBundle(folder, &error);
        }
        QVERIFY(!exported);
        QVERIFY2(error.startsWith(folder) && error.contains(QStringLiteral("Permission denied")), qPrintable(error));
        QCOMPARE(entries(folder), before);

        // The autosave's folder: told in the status bar, the last good autosave kept.
        QVERIFY(window.writeAutosave());
        const QString autosave = studio::MainWindow::autosavePath();
        const QByteArray previous = readAll(autosave);
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/snapdragon835.json"), &error), qPrintable(error));
        bool saved = true;
        {
            ReadOnlyFolder limit(QFileInfo(autosave).absolutePath().toStdString());
            QVERIFY(limit.ok());
            saved = window.writeAutosave();
        }
        QVERIFY(!saved);
        QVERIFY2(window.autosaveError().startsWith(autosave + QStringLiteral(": "))
                     && window.autosaveError().contains(QStringLiteral("Permission denied")),
                 qPrintable(window.autosaveError()));
        QVERIFY(window.statusBar()->currentMessage().contains(autosave));
        QCOMPARE(readAll(autosave), previous);
        QFile::remove(autosave);
    }

    // The headless studio's files (screenshot, plot export, bundle) with the
    // same limit in a child process: exit 1, path and reason, old file kept.
    void headlessStudioOnFullDisk_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("readOnly");
        for (bool readOnly : {false, true}) {
            const char *where = readOnly ? " read-only folder" : " full disk";
            QTest::addRow("--screenshot,%s", where) << QStringLiteral("--screenshot") << QStringLiteral("window.png") << readOnly;
            QTest::addRow("--export-svg,%s", where) << QStringLiteral("--export-svg") << QStringLiteral("plot.svg") << readOnly;
            QTest::addRow("--export-pdf,%s", where) << QStringLiteral("--export-pdf") << QStringLiteral("plot.pdf") << readOnly;
        }
    }
    void headlessStudioOnFullDisk()
    {
        QFETCH(QString, option);
        QFETCH(QString, name);
        QFETCH(bool, readOnly);
        if (readOnly && !ReadOnlyFolder::childCanRun(ROOFLINE_STUDIO))
            QSKIP("nobody cannot reach the program here (the tree is under a folder only root may enter)");
        QTemporaryDir dir;
        const QString out = dir.filePath(name);
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous file");
        }
        QProcess p;
        if (readOnly) {
            const auto readable = QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                                  | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther;
            QVERIFY(QFile::setPermissions(dir.path(), readable));
            p.setChildProcessModifier(&ReadOnlyFolder::dropRootInChild); // root writes anywhere
        } else {
            p.setChildProcessModifier([] {
                std::signal(SIGXFSZ, SIG_IGN); // kept across exec
                rlimit limit{kFullDiskBytes, kFullDiskBytes};
                ::setrlimit(RLIMIT_FSIZE, &limit);
            });
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ROOFLINE_STUDIO),
                {QStringLiteral(ROOFLINE_EXAMPLES_DIR "/gables/gables-fig6b.json"), option, out});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 1, qPrintable(err));
        // A PDF is rendered to a scratch file first: on a full disk that one is cut short.
        const QString reason = readOnly                         ? QStringLiteral("Permission denied")
                               : name.endsWith(QLatin1String(".pdf")) ? QStringLiteral("the PDF was cut short")
                                                                      : QStringLiteral("File too large");
        QVERIFY2(err.contains(out + QStringLiteral(": cannot write the file: ") + reason), qPrintable(err));
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QCOMPARE(readAll(out), QByteArray("the previous file"));
        QCOMPARE(entries(dir.path()), QStringList{name});
    }
};

QTEST_MAIN(TestFullDisk)
#include "tst_fulldisk.moc"
