// Issue 14: PNG, PDF and SVG export go through one atomic path. A full disk
// (here: a file size limit, which fails writes the same way for any user) leaves
// the previous export as it was, leaves no scratch file, and says path and reason;
// so does a read-only folder (tests/readonlyfolder.h, root included).
#include "plotexport.h"
#include "filesizelimit.h"
#include "readonlyfolder.h"
#include "testutils.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace studio;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestPlotExport : public QObject
{
    Q_OBJECT

private slots:
    void fullDiskKeepsThePreviousExport_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("readOnly");
        for (const char *name : {"png", "pdf", "svg"}) {
            QTest::newRow(name) << QStringLiteral("plot.") + QLatin1String(name) << false;
            QTest::addRow("%s, read-only folder", name) << QStringLiteral("plot.") + QLatin1String(name) << true;
        }
    }
    void fullDiskKeepsThePreviousExport()
    {
        QFETCH(QString, name);
        QFETCH(bool, readOnly);
        QCustomPlot plot;
        plot.resize(800, 600);
        plot.addGraph()->setData({1, 2, 3}, {3, 1, 2});
        plot.xAxis->setLabel(QStringLiteral("x (s)"));
        plot.rescaleAxes();
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        ExportFormat format;
        QVERIFY(formatFromSuffix(path, &format));
        ExportOptions options;
        options.width = 800;
        options.height = 600;
        QString error;
        // A good export first; it is the "previous export" below.
        QVERIFY2(exportPlot(&plot, path, format, options, &error), qPrintable(error));
        const QByteArray previous = readAll(path);
        QVERIFY(previous.size() > 1000);
        bool exported = true;
        if (readOnly) {
            ReadOnlyFolder limit(dir.path().toStdString());
            if (!limit.ok())
                QSKIP("no read-only folder here");
            exported = exportPlot(&plot, path, format, options, &error);
        } else {
            FileSizeLimit limit(512);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            exported = exportPlot(&plot, path, format, options, &error);
        }
        QVERIFY(!exported);
        QVERIFY2(error.startsWith(path + QStringLiteral(": cannot write the file: ")), qPrintable(error));
        if (readOnly)
            QVERIFY2(error.contains(QStringLiteral("Permission denied")), qPrintable(error));
        else
            QVERIFY2(error.contains(QStringLiteral("File too large")) || error.contains(QStringLiteral("cut short")),
                     qPrintable(error));
        QCOMPARE(readAll(path), previous);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name});
    }

    // The studio's one atomic write (sessions, models, CSV, bundles,
    // screenshots). Qt 6.4's QSaveFile took a short write for success: with
    // 100 KB to write and room for 200 bytes, commit() put a 200-byte file in
    // place of the user's. Small writes (buffered, failing at flush) as well.
    void saveFileAtomicallyOnFullDisk_data()
    {
        QTest::addColumn<int>("size");
        QTest::newRow("buffered 5 KB") << 5000;
        QTest::newRow("direct 100 KB") << 100000;
    }
    void saveFileAtomicallyOnFullDisk()
    {
        QFETCH(int, size);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.json"));
        QString error;
        QVERIFY2(saveFileAtomically(path, QByteArray("previous"), &error), qPrintable(error));
        bool saved = true;
        {
            FileSizeLimit limit(200);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            saved = saveFileAtomically(path, QByteArray(size, 'x'), &error);
        }
        QVERIFY(!saved);
        QCOMPARE(error, path + QStringLiteral(": cannot write the file: File too large"));
        QCOMPARE(readAll(path), QByteArray("previous"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("model.json")});
        QVERIFY2(saveFileAtomically(path, QByteArray(size, 'y'), &error), qPrintable(error));
        QCOMPARE(readAll(path), QByteArray(size, 'y'));
    }
};

QTEST_MAIN(TestPlotExport)
#include "tst_plotexport.moc"
