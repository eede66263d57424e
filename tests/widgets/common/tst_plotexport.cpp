// Issue 14: PNG, PDF and SVG export go through one atomic path. A full disk
// (here: a file size limit, which fails writes the same way for any user) leaves
// the previous export as it was, leaves no scratch file, and says path and reason.
#include "plotexport.h"
#include "testutils.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <csignal>

using namespace studio;

namespace {

class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        ::getrlimit(RLIMIT_FSIZE, &m_saved);
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        m_ok = ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_handler);
    }
    bool ok() const { return m_ok; }

private:
    rlimit m_saved{};
    void (*m_handler)(int) = nullptr;
    bool m_ok = false;
};

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
        QTest::newRow("png") << QStringLiteral("plot.png");
        QTest::newRow("pdf") << QStringLiteral("plot.pdf");
        QTest::newRow("svg") << QStringLiteral("plot.svg");
    }
    void fullDiskKeepsThePreviousExport()
    {
        QFETCH(QString, name);
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
        {
            FileSizeLimit limit(512);
            if (!limit.ok())
                QSKIP("cannot set RLIMIT_FSIZE here");
            exported = exportPlot(&plot, path, format, options, &error);
        }
        QVERIFY(!exported);
        QVERIFY2(error.startsWith(path + QStringLiteral(": ")), qPrintable(error));
        QCOMPARE(readAll(path), previous);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name});
    }
};

QTEST_MAIN(TestPlotExport)
#include "tst_plotexport.moc"
