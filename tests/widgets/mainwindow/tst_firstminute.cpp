// The first minute: a window with no model (nothing opened, or the file named
// on the command line failed) shows an empty state that says what to do next
// and draws no plot; its example buttons open a model.
#include "amaixdocument.h"
#include "amaixview.h"
#include "emptystate.h"
#include "plotstyle.h"
#include "preferences.h"
#include "timelinedocument.h"
#include "timelineview.h"
#include "units.h"
#include "gablesdocument.h"
#include "gablesplot.h"
#include "gablesview.h"
#include "mainwindow.h"
#include "modelview.h"

#include <qcustomplot.h>

#include <QDialog>
#include <QUndoStack>
#include <QLabel>
#include <QStandardPaths>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTemporaryDir>
#include <QTest>

using namespace studio;

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(content);
    return path;
}

QPushButton *buttonNamed(QWidget *parent, const QString &text)
{
    for (QPushButton *b : parent->findChildren<QPushButton *>()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

// ROOFLINE_SCREENSHOT_DIR=dir: the window as the test sees it, for a person to look at.
void keepScreenshot(QWidget &window, const QString &name)
{
    const QString dir = qEnvironmentVariable("ROOFLINE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        window.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

ModelView *viewWithKey(MainWindow &window, const QString &key)
{
    for (ModelView *view : window.views()) {
        if (view->sessionKey() == key)
            return view;
    }
    return nullptr;
}

} // namespace

class TestFirstMinute : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
    }

    // AMAIX after a network named on the command line failed: no AlexNet
    // pretending to be the user's network, an empty state naming the failure;
    // its examples are grouped (networks, accelerators), and the view stays
    // empty until both halves are open.
    void amaixEmptyStateAfterFailedOpen()
    {
        QTemporaryDir dir;
        const QString bad = writeFile(dir, QStringLiteral("mynet.json"),
                                      "{\"format\": \"roofline-studio/amaix-network\", \"version\": 1, \"layers\": 5}");
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        ModelView *view = viewWithKey(window, QStringLiteral("amaix"));
        QVERIFY(view);
        QVERIFY(!view->showsEmptyState()); // the start-up example
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        QCOMPARE(window.showEmptyStateAfterFailedOpen(bad, error), view);
        QCOMPARE(window.currentView(), view);
        QVERIFY(view->showsEmptyState());
        keepScreenshot(window, QStringLiteral("empty-amaix"));
        QVERIFY(!view->exportPlot()->isVisible()); // no axes, no legend, no markers
        auto *empty = view->findChild<EmptyState *>();
        QVERIFY(empty && empty->isVisible());
        QVERIFY2(empty->note().contains(QStringLiteral("mynet.json did not open")), qPrintable(empty->note()));
        QVERIFY2(empty->note().contains(QStringLiteral("/layers")), qPrintable(empty->note())); // the reason, with the field
        QVERIFY(view->sessionState().isEmpty());
        QVERIFY(view->bundlePlots().isEmpty());
        QVERIFY(!window.exportCurrentPlot(dir.filePath(QStringLiteral("x.png")), ExportOptions(), &error));
        QVERIFY2(error.contains(QStringLiteral("no model open")), qPrintable(error));
        QVERIFY(empty->findChildren<QLabel *>().size() > 0);

        // Networks and accelerators are offered; one half keeps the empty state and says what is missing.
        QPushButton *alexnet = buttonNamed(empty, QStringLiteral("alexnet"));
        QPushButton *nvSmall = buttonNamed(empty, QStringLiteral("nv_small"));
        QVERIFY(alexnet && nvSmall);
        QTest::mouseClick(alexnet, Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(view->showsEmptyState());
        QVERIFY2(empty->note().contains(QStringLiteral("Open an accelerator")), qPrintable(empty->note()));
        QTest::mouseClick(nvSmall, Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(!view->showsEmptyState());
        QVERIFY(view->exportPlot()->isVisible());
        QVERIFY(view->exportPlot()->plottableCount() > 0);
        QVERIFY(view->summary().contains(QStringLiteral("FPS")));

        // Work of the user's is never dropped.
        QVERIFY(!window.showEmptyStateAfterFailedOpen(bad, error));
        QVERIFY(!view->showsEmptyState());
    }

    // The timeline after a trace named on the command line failed: an empty
    // state (the machine it would run on named), examples grouped; a trace
    // brings the Gantt chart back.
    void timelineEmptyStateAfterFailedOpen()
    {
        QTemporaryDir dir;
        const QString bad = writeFile(dir, QStringLiteral("mytrace.json"),
                                      "{\"format\": \"roofline-studio/verrocchio-trace\", \"version\": 1, \"cores\": 3}");
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        ModelView *view = viewWithKey(window, QStringLiteral("timeline"));
        QVERIFY(view);
        QVERIFY(!view->showsEmptyState());
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        QCOMPARE(window.showEmptyStateAfterFailedOpen(bad, error), view);
        QCOMPARE(window.currentView(), view);
        QVERIFY(view->showsEmptyState());
        keepScreenshot(window, QStringLiteral("empty-timeline"));
        QVERIFY(!view->exportPlot()->isVisible());
        auto *empty = view->findChild<EmptyState *>();
        QVERIFY(empty && empty->isVisible());
        QVERIFY2(empty->note().contains(QStringLiteral("mytrace.json did not open")), qPrintable(empty->note()));
        QVERIFY2(empty->note().contains(QStringLiteral("Machine: ")), qPrintable(empty->note()));
        QVERIFY(view->sessionState().isEmpty());
        QVERIFY(view->summary().contains(QStringLiteral("no trace")));
        QPushButton *example = buttonNamed(empty, QStringLiteral("vector-add-2cores"));
        QVERIFY(example);
        QVERIFY(buttonNamed(empty, QStringLiteral("ascend310"))); // machines listed too
        QTest::mouseClick(example, Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(!view->showsEmptyState());
        QVERIFY(view->exportPlot()->isVisible());
        QVERIFY(view->exportPlot()->plottableCount() + view->exportPlot()->itemCount() > 0);
        QVERIFY2(view->summary().startsWith(QStringLiteral("total ")), qPrintable(view->summary()));
    }

    // A file that is no JSON at all cannot be routed: the Gables view (empty when
    // files are named) shows the reason.
    void unroutableFailureShowsInTheFirstView()
    {
        QTemporaryDir dir;
        const QString bad = writeFile(dir, QStringLiteral("garbage.json"), "not json");
        MainWindow window;
        window.show();
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        ModelView *view = window.showEmptyStateAfterFailedOpen(bad, error);
        QCOMPARE(view, static_cast<ModelView *>(window.gablesView()));
        QVERIFY(window.gablesView()->showsEmptyState());
        QVERIFY(window.gablesView()->emptyState()->note().contains(QStringLiteral("garbage.json did not open")));
    }

    void emptyStateAfterFailedOpen()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"roofline-studio/gables\", \"version\": 1, \"soc\": ");
        f.close();

        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        GablesView *view = window.gablesView();
        view->flushPendingUpdate();
        QVERIFY(view->showsEmptyState());
        QVERIFY(!view->plot()->isVisible()); // no legend box, no axes, no stray line
        QVERIFY(view->emptyState()->isVisible());
        const QStringList examples = view->emptyState()->exampleButtons();
        QVERIFY(examples.contains(QStringLiteral("gables-fig6b")));

        // An example button opens the model and the plot comes back.
        QPushButton *button = nullptr;
        for (QPushButton *b : view->emptyState()->findChildren<QPushButton *>()) {
            if (b->text() == QStringLiteral("gables-fig6b"))
                button = b;
        }
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(!view->showsEmptyState());
        QCOMPARE(view->document()->soc().ips.size(), std::size_t(2));
        QVERIFY(view->plot()->isVisible());
        QVERIFY(view->plot()->plottableCount() > 0);
    }

    // History entries name the value: a slider drag is one step "Bpeak 10 → 42 GB/s"
    // (the first value and the last), in every view.
    void historyStepsNameTheirValues()
    {
        MainWindow window;
        window.show();
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/gables-fig6b.json"), &error), qPrintable(error));
        GablesDocument *gables = window.gablesDocument();
        gables->beginDrag();
        gables->setBpeak(20);
        gables->setBpeak(30);
        gables->setBpeak(42);
        gables->endDrag();
        QUndoStack *stack = gables->undoStack();
        QCOMPARE(stack->text(stack->count() - 1), QStringLiteral("Bpeak 10 → 42 GB/s"));
        gables->setPpeak(75);
        QCOMPARE(stack->text(stack->count() - 1), QStringLiteral("Ppeak 40 → 75 Gops/s"));

        auto *amaix = window.findChild<AmaixView *>();
        QVERIFY(amaix);
        roofline::Diagnostics diagnostics;
        const auto clock = roofline::amaix::resolveParameter(amaix->document()->accelerator(), "/clock_ghz", diagnostics);
        QVERIFY(clock);
        QVERIFY(amaix->document()->setParameter(*clock, 1.5));
        QUndoStack *amaixStack = amaix->document()->undoStack();
        QCOMPARE(amaixStack->text(amaixStack->count() - 1), QStringLiteral("Clock 1 → 1.5 GHz"));

        auto *timeline = window.findChild<TimelineView *>();
        QVERIFY(timeline);
        const double bus = timeline->document()->machine().busGBps;
        timeline->document()->setBusBandwidth(30);
        QUndoStack *timelineStack = timeline->document()->undoStack();
        QCOMPARE(timelineStack->text(timelineStack->count() - 1),
                 QStringLiteral("Bus bandwidth %1 → 30 GB/s").arg(formatValue(bus)));
    }

    // Dark theme: every legend of every plot stays readable, started dark or
    // switched, replotted any number of times (a legend passes its text colour
    // on to its items; each was once themed a second time, dark on dark).
    void darkThemeLegendsReadable()
    {
        applyTheme(Preferences::Theme::Dark);
        {
            MainWindow window;
            window.resize(1280, 800);
            window.show();
            QString error;
            QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/gables-fig6b.json"), &error), qPrintable(error));
            for (int round = 0; round < 2; ++round) {
                for (ModelView *view : window.views()) {
                    for (const ModelView::BundlePlot &plot : view->bundlePlots()) {
                        plot.plot->replot();
                        const int background = plotBackgroundBrush(plot.plot).color().lightness();
                        QVERIFY2(background < 100, qPrintable(plot.name));
                        QCPLegend *legend = plot.plot->legend;
                        for (int i = 0; i < legend->itemCount(); ++i) {
                            if (QCPAbstractLegendItem *item = legend->item(i))
                                QVERIFY2(item->textColor().lightness() - background > 100,
                                         qPrintable(QStringLiteral("%1: legend item %2").arg(plot.name).arg(i)));
                        }
                        // Grey and black markers turn light (the Gables Pₐₜₜ star was
                        // drawn black on the dark background, invisible).
                        for (int i = 0; i < plot.plot->graphCount(); ++i) {
                            const QCPScatterStyle style = plot.plot->graph(i)->scatterStyle();
                            const QColor pen = style.pen().color();
                            if (style.isNone() || !style.isPenDefined() || style.pen().style() == Qt::NoPen || pen.alpha() == 0 || pen.hslSaturation() > 40)
                                continue;
                            QVERIFY2(pen.lightness() - background > 100,
                                     qPrintable(QStringLiteral("%1: graph %2 (%3) marker %4").arg(plot.name).arg(i)
                                                    .arg(plot.plot->graph(i)->name(), pen.name())));
                        }
                    }
                }
            }
        }
        applyTheme(Preferences::Theme::Light);
    }

    // Help ▸ Keyboard Shortcuts lists the menus' shortcuts and the controls';
    // every view has a primer, opened from Help and from the "?" beside the tabs.
    void helpShortcutsAndPrimers()
    {
        MainWindow window;
        window.show();
        const QString shortcuts = window.shortcutsHtml();
        for (const QString &expected : {QStringLiteral("File ▸ Open…"), QStringLiteral("Ctrl+O"), QStringLiteral("Ctrl+Z"),
                                        QStringLiteral("Reset Zoom"), QStringLiteral("Shift+drag"), QStringLiteral("Ctrl+P")})
            QVERIFY2(shortcuts.contains(expected), qPrintable(expected));
        for (ModelView *view : window.views()) {
            const QString primer = window.primerHtml(view);
            QVERIFY2(primer.contains(QStringLiteral("What the plot shows")), qPrintable(view->title()));
            QVERIFY2(primer.contains(QStringLiteral("Where the equations come from")), qPrintable(view->title()));
        }
        auto *corner = qobject_cast<QToolButton *>(qobject_cast<QTabWidget *>(window.centralWidget())->cornerWidget(Qt::TopRightCorner));
        QVERIFY(corner);
        window.setCurrentView(window.views()[2]); // the Verrocchio timeline
        QTest::mouseClick(corner, Qt::LeftButton);
        QVERIFY(window.lastHelpDialog());
        QTRY_VERIFY(window.lastHelpDialog()->isVisible());
        auto *text = window.lastHelpDialog()->findChild<QTextBrowser *>();
        QVERIFY(text);
        QVERIFY(text->toPlainText().contains(QStringLiteral("Verrocchio")));
    }
};

QTEST_MAIN(TestFirstMinute)
#include "tst_firstminute.moc"
