// The main window's quit question, offscreen: with changes in several views
// quitting asks once, listing them (issue 13); Cancel keeps the window,
// Discard All quits without writing, Save All writes every model.
#include "mainwindow.h"
#include "modelview.h"
#include "statusreadout.h"

#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace {

// Answers every modal message box that opens while it lives: records its
// text and informative text, then presses `button`.
class DialogAnswerer
{
public:
    explicit DialogAnswerer(QMessageBox::StandardButton button)
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this, button] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box == m_last)
                return;
            m_last = box;
            texts << box->text() + QLatin1Char('\n') + box->informativeText();
            box->button(button)->click();
        });
        m_timer.start(5);
    }
    QStringList texts;

private:
    QTimer m_timer;
    QMessageBox *m_last = nullptr;
};

QString changeFor(const studio::ModelView *view)
{
    if (view->sessionKey() == QLatin1String("gables"))
        return QStringLiteral("/soc/bpeak_gbps=31");
    if (view->sessionKey() == QLatin1String("amaix"))
        return QStringLiteral("/clock_ghz=1.5");
    if (view->sessionKey() == QLatin1String("nnmeter"))
        return QStringLiteral("/peak_gflops=50");
    if (view->sessionKey() == QLatin1String("brouwer"))
        return QStringLiteral("/memory=512MB");
    return QStringLiteral("/bus/bandwidth_gbps=30");
}

void changeEveryView(studio::MainWindow &window)
{
    for (studio::ModelView *view : window.views()) {
        QString error;
        QVERIFY2(view->applyOverride(changeFor(view), &error), qPrintable(error));
        QCOMPARE(view->isModified(), view->canSave()); // nn-Meter saves nothing: its edits live in sessions
    }
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and the last session go to a test location
    }

    // The status bar's summary is new on every update of the current view; it
    // is one line high and cut at the right, so its size hints are that
    // line's and no new text is measured (a QLabel measured each: 0.6 M
    // instructions).
    void statusSummaryMeasuresNothing()
    {
        studio::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString opened;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/snapdragon835.json"), &opened), qPrintable(opened));
        studio::StatusReadout *readout = window.statusReadout();
        QVERIFY(readout->isVisible());
        QCOMPARE(readout->sizeHint().height(), QLabel(QStringLiteral("Xg")).sizeHint().height());
        QVERIFY(readout->height() >= readout->sizeHint().height());
        int changedTexts = 0;
        for (studio::ModelView *view : window.views()) {
            window.setCurrentView(view);
            QApplication::processEvents();
            const int measured = readout->measurements();
            QStringList shown;
            const QString key = changeFor(view).section(QLatin1Char('='), 0, 0);
            const QStringList values = view->sessionKey() == QLatin1String("brouwer")
                ? QStringList { QStringLiteral("384MB"), QStringLiteral("512MB"), QStringLiteral("640MB") }
                : QStringList { QStringLiteral("20"), QStringLiteral("30"), QStringLiteral("40") };
            for (const QString &value : values) {
                QString error;
                const QString assignment = key + QLatin1Char('=') + (key == QLatin1String("/clock_ghz") ? QString::number(value.toDouble() / 20) : value);
                QVERIFY2(view->applyOverride(assignment, &error), qPrintable(assignment + QStringLiteral(": ") + error));
                QTRY_COMPARE(readout->text(), view->summary());
                for (int i = 0; i < 5; ++i)
                    QApplication::processEvents();
                shown << readout->text();
            }
            changedTexts += 3 - int(shown.removeDuplicates()) - 1;
            QCOMPARE(readout->measurements() - measured, 0);
        }
        QVERIFY2(changedTexts >= 6, qPrintable(QString::number(changedTexts))); // new texts were shown
    }

    void quittingWithFourUnsavedViewsAsksOnce()
    {
        studio::MainWindow window;
        window.show();
        QCOMPARE(window.views().size(), std::size_t(5)); // Gables, AMAIX, timeline, nn-Meter (no Save), Brouwer
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/snapdragon835.json"), &error), qPrintable(error));
        changeEveryView(window);
        QCOMPARE(window.unsavedViews().size(), 4);
        {
            DialogAnswerer cancel(QMessageBox::Cancel);
            QVERIFY(!window.close()); // Cancel: nothing closes
            QCOMPARE(cancel.texts.size(), 1);
            const QString &text = cancel.texts.front();
            QVERIFY2(text.contains(QStringLiteral("4 models have unsaved changes")), qPrintable(text));
            for (studio::ModelView *view : window.unsavedViews())
                QVERIFY2(text.contains(view->title()), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("snapdragon835.json, an example")), qPrintable(text));
        }
        QVERIFY(window.isVisible());
        QCOMPARE(window.unsavedViews().size(), 4);
        DialogAnswerer discard(QMessageBox::Discard);
        QVERIFY(window.close());
        QCOMPARE(discard.texts.size(), 1);
        QCOMPARE(window.unsavedViews().size(), 4); // nothing was written
    }

    void oneUnsavedViewAsksAboutIt()
    {
        studio::MainWindow window;
        window.show();
        studio::ModelView *view = window.views()[1];
        QString error;
        QVERIFY2(view->applyOverride(changeFor(view), &error), qPrintable(error));
        QCOMPARE(window.unsavedViews(), QList<studio::ModelView *>{view});
        DialogAnswerer discard(QMessageBox::Discard);
        QVERIFY(window.close());
        QCOMPARE(discard.texts.size(), 1);
        QVERIFY2(discard.texts.front().contains(view->title()), qPrintable(discard.texts.front()));
    }

    void saveAllWritesEveryModel()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList examples{QStringLiteral("gables/snapdragon835.json"), QStringLiteral("amaix/nv_full.json"),
                                   QStringLiteral("verrocchio/ascend310.json"), QStringLiteral("brouwer/edgecaffe-fe.json")};
        QStringList copies;
        for (const QString &example : examples) {
            const QString copy = dir.filePath(example.section(QLatin1Char('/'), 1));
            QVERIFY(QFile::copy(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/") + example, copy));
            QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
            copies << copy;
        }
        studio::MainWindow window;
        window.show();
        for (const QString &copy : copies) {
            QString error;
            QVERIFY2(window.openFile(copy, &error), qPrintable(error));
        }
        changeEveryView(window);
        DialogAnswerer save(QMessageBox::Save);
        QVERIFY(window.close());
        QCOMPARE(save.texts.size(), 1);
        QVERIFY(window.unsavedViews().isEmpty());
        const auto contents = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        QVERIFY2(contents(copies[0]).contains(QStringLiteral("31")), qPrintable(contents(copies[0])));
        QVERIFY2(contents(copies[1]).contains(QStringLiteral("1.5")), qPrintable(contents(copies[1])));
        QVERIFY2(contents(copies[2]).contains(QStringLiteral("30")), qPrintable(contents(copies[2])));
        // The Brouwer view saves its device (the memory is the view's, kept in sessions).
        QVERIFY2(contents(copies[3]).contains(QStringLiteral("roofline-studio/brouwer-device")), qPrintable(contents(copies[3])));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
