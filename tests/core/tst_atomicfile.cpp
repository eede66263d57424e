// Issue 14: one atomic write path (core/common/atomicfile.h). A write that
// fails — a full disk, a file size limit, a missing folder — leaves the old
// file exactly as it was, leaves no temporary file behind, and says which
// path and why.
#include "common/atomicfile.h"
#include "common/diagnostics.h"
#include "brouwer/io.h"
#include "filesizelimit.h"
#include "network/io.h"
#include "readonlyfolder.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iterator>

using namespace roofline;

namespace {

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writePlain(const std::string &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

// Only the files the test made: no ".tmp-" sibling may survive a failure.
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void replacesAndKeepsPermissions()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.json").toStdString();
        writePlain(path, "old");
        ::chmod(path.c_str(), 0640);
        QCOMPARE(writeFileAtomically(path, "new contents"), std::string());
        QCOMPARE(readAll(path), std::string("new contents"));
        struct stat st;
        QCOMPARE(::stat(path.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0640);
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.json")});
    }

    void failedWriteKeepsTheOriginal()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.json").toStdString();
        writePlain(path, "the user's previous export");
        std::string error;
        {
            FileSizeLimit limit(4096);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            error = writeFileAtomically(path, std::string(1 << 20, 'x'));
        }
        QVERIFY2(error.rfind(path + ": cannot write the file: ", 0) == 0, error.c_str());
        QCOMPARE(readAll(path), std::string("the user's previous export"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.json")});
    }

    // A read-only folder (root included: tests/readonlyfolder.h): the same
    // refusal, with the reason, and the file there kept.
    void readOnlyFolderKeepsTheOriginal()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.json").toStdString();
        writePlain(path, "the user's previous export");
        std::string error;
        {
            ReadOnlyFolder readOnly(dir.path().toStdString());
            if (!readOnly.ok())
                QSKIP("no read-only folder here");
            error = writeFileAtomically(path, std::string(1 << 20, 'x'));
        }
        QCOMPARE(error, path + ": cannot write the file: Permission denied");
        QCOMPARE(readAll(path), std::string("the user's previous export"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.json")});
    }

    void missingFolderAndFolderAsFile()
    {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("no-such-dir/out.json").toStdString();
        QCOMPARE(writeFileAtomically(missing, "x"), missing + ": cannot write the file: No such file or directory");
        const std::string folder = dir.filePath("sub").toStdString();
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        QCOMPARE(writeFileAtomically(folder, "x"), folder + ": is a folder, not a file");
        QVERIFY(QFileInfo(QString::fromStdString(folder)).isDir());
    }

    void abandonedWriteLeavesNothing()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.json").toStdString();
        writePlain(path, "old");
        {
            AtomicFile file(path);
            QVERIFY(file.write("half a file"));
            // no commit(): an exception or an early return
        }
        QCOMPARE(readAll(path), std::string("old"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.json")});
    }

    // A set of files written as one (the kernel lab's device, rules and
    // measurements): when any of them cannot be written, none of the previous
    // set is replaced, whichever file it is; when all can, all are replaced.
    void fileSetIsReplacedAsAWhole_data()
    {
        QTest::addColumn<int>("largeFile"); // which file is too large for the limit, -1: none
        QTest::newRow("first file too large") << 0;
        QTest::newRow("middle file too large") << 1;
        QTest::newRow("last file too large") << 2;
        QTest::newRow("all fit") << -1;
    }
    void fileSetIsReplacedAsAWhole()
    {
        QFETCH(int, largeFile);
        QTemporaryDir dir;
        const QStringList names{QStringLiteral("rules.json"), QStringLiteral("kernels.csv"),
                                QStringLiteral("device.json")};
        std::vector<std::pair<std::string, std::string>> set;
        for (int i = 0; i < names.size(); ++i) {
            const std::string path = dir.filePath(names[i]).toStdString();
            writePlain(path, "previous " + std::to_string(i));
            set.emplace_back(path, i == largeFile ? std::string(1 << 20, 'x') : "new " + std::to_string(i));
        }
        std::string error;
        {
            FileSizeLimit limit(4096);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            error = writeFilesAtomically(set);
        }
        if (largeFile < 0) {
            QVERIFY2(error.empty(), error.c_str());
        } else {
            QCOMPARE(error, set[std::size_t(largeFile)].first + ": cannot write the file: File too large");
        }
        for (int i = 0; i < names.size(); ++i)
            QCOMPARE(readAll(set[std::size_t(i)].first),
                     (largeFile < 0 ? "new " : "previous ") + std::to_string(i));
        QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("device.json"), QStringLiteral("kernels.csv"),
                                                   QStringLiteral("rules.json")}));
    }

    // A process killed in the middle of a write (the studio's autosave, when
    // the machine goes down) leaves the old file and nothing beside it.
    void killedWhileWritingLeavesNothing()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("autosave.json").toStdString();
        writePlain(path, "the last good autosave");
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            AtomicFile file(path);
            file.write(std::string(100000, 'x'));
            ::kill(::getpid(), SIGKILL); // no destructor, no commit()
            ::_exit(1);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        QCOMPARE(readAll(path), std::string("the last good autosave"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("autosave.json")});
    }

    // The network writer goes through the same path.
    void networkSaveOnFullDisk()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("net.json").toStdString();
        const network::NetworkLoad lenet = network::loadNetworkFile(ROOFLINE_EXAMPLES_DIR "/amaix/resnet50.json");
        QVERIFY2(lenet.network, lenet.diagnostics.toString().c_str());
        writePlain(path, "previous");
        Diagnostics d;
        bool saved = true;
        {
            FileSizeLimit limit(1024);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            saved = network::saveNetworkFile(*lenet.network, path, d);
        }
        QVERIFY(!saved);
        QVERIFY2(d.toString().find(path + ": cannot write the file: File too large") != std::string::npos,
                 d.toString().c_str());
        QCOMPARE(readAll(path), std::string("previous"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("net.json")});
    }

    // Brouwer device files (roofline-cli brouwer-fit --out) too: the fitted
    // device is written whole or not at all.
    void brouwerDeviceSaveOnFullDisk()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("device.json").toStdString();
        const brouwer::DeviceLoad device = brouwer::loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/brouwer/edgecaffe-fe.json");
        QVERIFY2(device.device, device.diagnostics.toString().c_str());
        QVERIFY(brouwer::serialize(*device.device).size() > 600);
        writePlain(path, "the previous fit");
        Diagnostics d;
        bool saved = true;
        {
            FileSizeLimit limit(512);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            saved = brouwer::saveDeviceFile(*device.device, path, d);
        }
        QVERIFY(!saved);
        QVERIFY2(d.toString() == path + ": cannot write the file: File too large\n", d.toString().c_str());
        QCOMPARE(readAll(path), std::string("the previous fit"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("device.json")});
        // And with room, the same call writes what loads back.
        Diagnostics ok;
        QVERIFY2(brouwer::saveDeviceFile(*device.device, path, ok), ok.toString().c_str());
        QCOMPARE(readAll(path), brouwer::serialize(*device.device));
    }

    // A real full disk: a 64 KiB tmpfs (needs root; skipped elsewhere).
    void fullTmpfs()
    {
        QTemporaryDir dir;
        const std::string mountPoint = dir.path().toStdString();
        if (::geteuid() != 0 || ::mount("tmpfs", mountPoint.c_str(), "tmpfs", 0, "size=64k") != 0)
            QSKIP("cannot mount a small tmpfs here (not root, or not allowed)");
        const std::string path = mountPoint + "/export.pdf";
        writePlain(path, "the previous export");
        const std::string error = writeFileAtomically(path, std::string(1 << 20, 'x'));
        const std::string kept = readAll(path);
        const QStringList left = entries(dir.path());
        ::umount(mountPoint.c_str());
        QVERIFY2(error.rfind(path + ": cannot write the file: No space left on device", 0) == 0, error.c_str());
        QCOMPARE(kept, std::string("the previous export"));
        QCOMPARE(left, QStringList{QStringLiteral("export.pdf")});
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
