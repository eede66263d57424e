// Issue 14: the soak test of the studio. A seeded random sequence of slider
// moves, undo/redo, snapshots (pin, compare, restore, delete), file opens
// (good and bad, into every view) and view switches across all views; no crash, every bad file refused with a message, the user's work
// kept, and less than 5 % growth of live heap memory between the first and
// the last thousand steps. ROOFLINE_SOAK_STEPS sets the length (CI: 2000;
// the long form: 100000, docs/reliability.md), ROOFLINE_SOAK_SEED the seed.
#include "mainwindow.h"
#include "modelview.h"
#include "snapshotbar.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPixmapCache>
#include <QPushButton>
#include <qcustomplot.h>
#include <QSlider>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cstddef>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
// From the sanitizer runtime (sanitizer/allocator_interface.h, which GCC does not ship).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#else
#include <malloc.h>
#endif

#include <random>

namespace {

// Bytes of heap in use now (not address space: ASan's quarantine and glibc's
// arenas would hide or fake growth).
double liveHeapBytes()
{
#if defined(__SANITIZE_ADDRESS__)
    return double(__sanitizer_get_current_allocated_bytes());
#else
    return double(mallinfo2().uordblks + mallinfo2().hblkhd);
#endif
}

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

// Snapshots a view keeps at most in the soak: pinning grows a list by design
// (like the undo history); past this the step deletes one instead.
constexpr int kMaxSnapshots = 6;

// Wider than any view's minimum (the nn-Meter view's is 1,483 px with its
// measurements shown), so the window keeps this size whatever is shown: at
// 1,280 x 800 Qt widened it to each state's minimum (1,487, 1,553, 1,586 px)
// and every plot's paint buffers with it (4 B per pixel per buffered layer
// group; 39 of the 60 MB measured): the same models measured 55.7 to 60.5 MB.
constexpr QSize kWindow(1920, 1080);

void deleteAllSnapshots(studio::ModelView *view)
{
    for (auto *bar : view->findChildren<studio::SnapshotBar *>()) {
        for (int guard = 0; bar->comboBox()->count() > 1 && guard < 100; ++guard) {
            emit bar->comboBox()->activated(1); // compare with the first, then delete it
            bar->removeButton()->click();
        }
    }
}

} // namespace

class TestSoak : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void randomActions()
    {
        const int steps = envInt("ROOFLINE_SOAK_STEPS", 2000);
        const int seed = envInt("ROOFLINE_SOAK_SEED", 14);
        const int window = std::min(1000, steps / 4); // the first and the last `window` steps are compared
        const int report = envInt("ROOFLINE_SOAK_REPORT", 0);
        std::mt19937 rng(static_cast<unsigned>(seed));
        auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ex = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/");
        const QStringList good{ex + "gables/snapdragon835.json",   ex + "gables/three-ip-camera.json",
                               ex + "gables/gables-fig6b.json",    ex + "amaix/nv_small.json",
                               ex + "amaix/lenet.json",            ex + "amaix/resnet18.json",
                               ex + "verrocchio/ascend310.json",   ex + "verrocchio/vector-add-1core.txt",
                               ex + "verrocchio/contention-during.json",
                               ex + "brouwer/edgecaffe-fe.json",    ex + "brouwer/seed-table2-fe.json",
                               ex + "brouwer/networks/GenderNet.prototxt", // to Brouwer or nn-Meter when current, else AMAIX
                               ex + "nnmeter/onednn_cpu.device.json", ex + "nnmeter/tflite_cpu.rules.json",
                               ex + "nnmeter/onednn_cpu/measured.csv"};
        // Bad files: truncated, not UTF-8, deep, a folder, missing.
        auto write = [&](const QString &name, const QByteArray &bytes) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(bytes);
            return dir.filePath(name);
        };
        QFile gables(good[0]);
        QVERIFY(gables.open(QIODevice::ReadOnly));
        const QByteArray gablesBytes = gables.readAll();
        const QStringList bad{write("truncated.json", gablesBytes.left(gablesBytes.size() / 2)),
                              write("ff.txt", QByteArray("core \xFF", 6)),
                              write("deep.json", QByteArray(20000, '[') + QByteArray(20000, ']')),
                              write("denormal.csv", "network,measured_ms\nlenet.json,1e-320\n"),
                              write("cut.prototxt", "name: \"n\"\nlayer { name: \"c\" type: \"Convolution\" bottom: "),
                              dir.path(), dir.filePath("missing.json")};

        studio::MainWindow mainWindow;
        mainWindow.resize(kWindow);
        mainWindow.show();
        auto *tabs = mainWindow.findChild<QTabWidget *>();
        QVERIFY(tabs);

        // The heap is compared in one canonical state: the same models open in
        // every view and no undo history (which grows by design), so what is
        // left is what the steps leaked or cached.
        // Every view's whole model is opened, each file into the view named
        // (a network goes to the current view when it takes networks): a view
        // left on a bigger network than before would read as growth.
        const QList<QPair<QString, QString>> canonical{
            {QStringLiteral("gables"), good[0]},   {QStringLiteral("amaix"), good[3]},
            {QStringLiteral("amaix"), good[4]},    {QStringLiteral("timeline"), good[6]},
            {QStringLiteral("timeline"), good[7]}, {QStringLiteral("brouwer"), good[9]},
            {QStringLiteral("brouwer"), good[11]}, {QStringLiteral("nnmeter"), good[12]},
            {QStringLiteral("nnmeter"), good[4]},  {QStringLiteral("nnmeter"), good[14]}};
        double pixmapCache = 0; // bytes QPixmapCache held at the last measurement
        double plotArea = 0; // pixels of every plot then: QCustomPlot's paint buffers follow it
        int plotCount = 0;
        QList<QList<int>> splitterSizes; // of every splitter, at the first measurement
        auto canonicalHeap = [&]() {
            for (const auto &[viewKey, file] : canonical) {
                for (studio::ModelView *v : mainWindow.views())
                    if (v->sessionKey() == viewKey)
                        mainWindow.setCurrentView(v);
                QString error;
                if (!mainWindow.openFile(file, &error))
                    qWarning("%s", qPrintable(error));
            }
            for (studio::ModelView *v : mainWindow.views()) {
                deleteAllSnapshots(v);
                if (v->undoStack())
                    v->undoStack()->clear();
            }
            // The window back to its size (kWindow), and every splitter back to
            // where the first measurement found it (a splitter gives a panel
            // that once needed more room the room back only when dragged): the
            // plots, and their paint buffers, the same size at each measurement.
            mainWindow.resize(kWindow);
            const QList<QSplitter *> splitters = mainWindow.findChildren<QSplitter *>();
            if (splitterSizes.isEmpty())
                for (QSplitter *sp : splitters)
                    splitterSizes.append(sp->sizes());
            else
                for (qsizetype i = 0; i < splitters.size() && i < splitterSizes.size(); ++i)
                    splitters[i]->setSizes(splitterSizes[i]);
            // Every view and every tab inside it shown once, then the first: a
            // plot shown for the first time allocates its paint buffers (about
            // 1 MB each at this size; heaptrack: 3.6 of 4 MB "grown" between 600
            // and 2,000 steps were these), which is not growth.
            for (studio::ModelView *v : mainWindow.views()) {
                mainWindow.setCurrentView(v);
                QApplication::processEvents();
                for (QTabWidget *inner : v->findChildren<QTabWidget *>()) {
                    const int keep = inner->currentIndex();
                    for (int i = 0; i < inner->count(); ++i) {
                        inner->setCurrentIndex(i);
                        QApplication::processEvents();
                    }
                    inner->setCurrentIndex(keep);
                }
            }
            tabs->setCurrentIndex(0);
            for (int k = 0; k < 5; ++k) {
                QTest::qWait(20); // pending work (simulations in a worker) finishes
                QApplication::processEvents();
            }
            // Qt's QPixmapCache is emptied before measuring: the Fusion style
            // keeps there a pixmap per combo box, header and button size and
            // state it drew (heaptrack, seed 7, 750 against 3,000 steps: 0.67
            // of the 1.77 MB that had "grown"; 3-5 MB in it), and Qt bounds it
            // (10 MB by default). Its size is reported.
            plotArea = 0;
            plotCount = 0;
            for (const QCustomPlot *p : mainWindow.findChildren<QCustomPlot *>()) {
                plotArea += double(p->width()) * p->height();
                ++plotCount;
            }
            const double withCache = liveHeapBytes();
            QPixmapCache::clear();
            const double heap = liveHeapBytes();
            pixmapCache = withCache - heap;
            return heap;
        };
        double firstWindow = 0, lastWindow = 0, firstCache = 0, firstArea = 0;
        int firstPlots = 0;
        QList<int> skipped;
        for (const QString &kind : qEnvironmentVariable("ROOFLINE_SOAK_SKIP").split(QLatin1Char(','), Qt::SkipEmptyParts))
            skipped << kind.toInt();
        int opened = 0, refused = 0, moved = 0, undone = 0, snapshotSteps = 0;
        for (int step = 0; step < steps; ++step) {
            studio::ModelView *view = mainWindow.currentView();
            int action = pick(11);
            // ROOFLINE_SOAK_ONLY=N repeats one kind of action (0 switch, 1 open, 2 bad open, 3 undo/redo, 5 slider,
            // 10 snapshot): to find what grows.
            if (qEnvironmentVariableIsSet("ROOFLINE_SOAK_ONLY"))
                action = qEnvironmentVariableIntValue("ROOFLINE_SOAK_ONLY");
            // ROOFLINE_SOAK_SKIP=N,M turns those kinds into view switches (same sequence otherwise).
            if (skipped.contains(action))
                action = 0;
            switch (action) {
            case 0:
                tabs->setCurrentIndex(pick(tabs->count()));
                break;
            case 1: {
                QString error;
                QVERIFY2(mainWindow.openFile(good[pick(int(good.size()))], &error), qPrintable(error));
                ++opened;
                break;
            }
            case 2: {
                QString error;
                const QString file = bad[pick(int(bad.size()))];
                QVERIFY2(!mainWindow.openFile(file, &error), qPrintable(file));
                QVERIFY2(!error.isEmpty(), qPrintable(file));
                ++refused;
                break;
            }
            case 3:
            case 4:
                if (view && view->undoStack()) {
                    QUndoStack *stack = view->undoStack();
                    if (pick(2) == 0 && stack->canUndo())
                        stack->undo();
                    else if (stack->canRedo())
                        stack->redo();
                    ++undone;
                }
                break;
            case 10: {
                // Pin, compare with one (or none), restore, or delete: the view's snapshot bar, as a user clicks it.
                studio::SnapshotBar *bar = view ? view->findChild<studio::SnapshotBar *>() : nullptr;
                if (!bar || !bar->isVisible())
                    break;
                QComboBox *box = bar->comboBox();
                switch (pick(4)) {
                case 0:
                    if (box->count() - 1 < kMaxSnapshots && bar->pinButton()->isEnabled())
                        bar->pinButton()->click();
                    else if (bar->removeButton()->isEnabled())
                        bar->removeButton()->click();
                    break;
                case 1:
                    emit box->activated(pick(box->count()));
                    break;
                case 2:
                    if (bar->restoreButton()->isEnabled())
                        bar->restoreButton()->click();
                    break;
                default:
                    if (bar->removeButton()->isEnabled())
                        bar->removeButton()->click();
                    break;
                }
                ++snapshotSteps;
                break;
            }
            default: {
                if (!view)
                    break;
                QList<QSlider *> sliders;
                for (QSlider *s : view->findChildren<QSlider *>())
                    if (s->isVisible() && s->isEnabled())
                        sliders << s;
                if (sliders.isEmpty())
                    break;
                QSlider *s = sliders[pick(int(sliders.size()))];
                s->setValue(s->minimum() + pick(std::max(1, s->maximum() - s->minimum() + 1)));
                ++moved;
                break;
            }
            }
            QApplication::processEvents();
            if (step + 1 == window) {
                firstWindow = canonicalHeap();
                firstCache = pixmapCache;
                firstArea = plotArea;
                firstPlots = plotCount;
            }
            // ROOFLINE_SOAK_REPORT=N: the canonical heap every N steps (the long form's curve).
            if (report > 0 && (step + 1) % report == 0 && step + 1 != steps) {
                const double heap = canonicalHeap();
                qInfo("soak: step %d: live heap %.2f MB (%+.2f %%), QPixmapCache %.2f MB, %d plots %.3f Mpx", step + 1,
                      heap / 1e6, firstWindow > 0 ? 100 * (heap - firstWindow) / firstWindow : 0.0, pixmapCache / 1e6,
                      plotCount, plotArea / 1e6);
            }
        }
        lastWindow = canonicalHeap();
        // ROOFLINE_SOAK_EXIT=1 ends the process here, the window and everything
        // it holds still allocated: under heaptrack, what is "leaked" is then
        // what was live at the end, and two runs of different lengths show
        // which call sites grow with the steps (docs/reliability.md).
        if (qEnvironmentVariableIsSet("ROOFLINE_SOAK_EXIT"))
            std::_Exit(0);
        const double growth = (lastWindow - firstWindow) / firstWindow;
        qInfo("soak: %d steps (seed %d): %d opens, %d refused, %d slider moves, %d undo/redo, %d snapshot steps; "
              "live heap %.1f MB after %d steps, %.1f MB at the end (%+.2f %%); QPixmapCache emptied before each: "
              "%.2f and %.2f MB; %d plots, %.3f and %.3f Mpx",
              steps, seed, opened, refused, moved, undone, snapshotSteps, firstWindow / 1e6, window, lastWindow / 1e6,
              100 * growth, firstCache / 1e6, pixmapCache / 1e6, plotCount, firstArea / 1e6, plotArea / 1e6);
        QVERIFY(opened > 0 && refused > 0 && moved > 0 && snapshotSteps > 0);
        QCOMPARE(plotCount, firstPlots); // no plot made per step and kept
        // Issue 14 asks for < 5 %, in CI under ASan too. Measured (seed 14,
        // docs/reliability.md): +4.6 % over 2,000 steps and +11.8 % over 8,000
        // before the two causes heaptrack found were fixed (FastTextDelegate
        // kept every text ever drawn; the Gables IP editors filled Qt's pixmap
        // cache with a new swatch per open), +2.1 % and +1.3 % after. Under
        // ASan the count is its allocator's live user bytes (quarantined
        // blocks are not counted), and the growth is the same. With snapshots
        // and every view (2026-11-27): +4-5 % at 1,280 x 800 with the pixmap
        // cache counted, +0.73 % (seed 7, 3,000 steps, 98.0 -> 98.7 MB) as
        // measured now, flat from step 2,000; under ASan +0.51 % (seed 14); the
        // fresh-clone CI runs of the narrower soak had +2.60 % and +2.43 %
        // (docs/reliability.md).
        QVERIFY2(growth < 0.05, qPrintable(QStringLiteral("live heap grew by %1 % (issue 14: < 5 %)").arg(100 * growth)));
    }
};

QTEST_MAIN(TestSoak)
#include "tst_soak.moc"
