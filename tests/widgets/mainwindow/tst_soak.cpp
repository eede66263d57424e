// Issue 14: the soak test of the studio. A seeded random sequence of slider
// moves, undo/redo, file opens (good and bad) and view switches across all
// views; no crash, every bad file refused with a message, the user's work
// kept, and less than 5 % growth of live heap memory between the first and
// the last thousand steps. ROOFLINE_SOAK_STEPS sets the length (CI: 2000;
// the long form: 100000, docs/reliability.md), ROOFLINE_SOAK_SEED the seed.
#include "mainwindow.h"
#include "modelview.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSlider>
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
        std::mt19937 rng(static_cast<unsigned>(seed));
        auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ex = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/");
        const QStringList good{ex + "gables/snapdragon835.json",   ex + "gables/three-ip-camera.json",
                               ex + "gables/gables-fig6b.json",    ex + "amaix/nv_small.json",
                               ex + "amaix/lenet.json",            ex + "amaix/resnet18.json",
                               ex + "verrocchio/ascend310.json",   ex + "verrocchio/vector-add-1core.txt",
                               ex + "verrocchio/contention-during.json"};
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
                              dir.path(), dir.filePath("missing.json")};

        studio::MainWindow mainWindow;
        mainWindow.resize(1280, 800);
        mainWindow.show();
        auto *tabs = mainWindow.findChild<QTabWidget *>();
        QVERIFY(tabs);

        // The heap is compared in one canonical state: the same models open in
        // every view and no undo history (which grows by design), so what is
        // left is what the steps leaked or cached.
        const QStringList canonical{good[0], good[3], good[4], good[6], good[7]};
        auto canonicalHeap = [&]() {
            for (const QString &file : canonical) {
                QString error;
                if (!mainWindow.openFile(file, &error))
                    qWarning("%s", qPrintable(error));
            }
            for (studio::ModelView *v : mainWindow.views())
                if (v->undoStack())
                    v->undoStack()->clear();
            for (int k = 0; k < 5; ++k) {
                QTest::qWait(20); // pending work (simulations in a worker) finishes
                QApplication::processEvents();
            }
            return liveHeapBytes();
        };
        double firstWindow = 0, lastWindow = 0;
        int opened = 0, refused = 0, moved = 0, undone = 0;
        for (int step = 0; step < steps; ++step) {
            studio::ModelView *view = mainWindow.currentView();
            int action = pick(10);
            // ROOFLINE_SOAK_ONLY=N repeats one kind of action (0 switch, 1 open, 2 bad open, 3 undo/redo, 5 slider): to find what grows.
            if (qEnvironmentVariableIsSet("ROOFLINE_SOAK_ONLY"))
                action = qEnvironmentVariableIntValue("ROOFLINE_SOAK_ONLY");
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
            if (step + 1 == window)
                firstWindow = canonicalHeap();
        }
        lastWindow = canonicalHeap();
        // ROOFLINE_SOAK_EXIT=1 ends the process here, the window and everything
        // it holds still allocated: under heaptrack, what is "leaked" is then
        // what was live at the end, and two runs of different lengths show
        // which call sites grow with the steps (docs/reliability.md).
        if (qEnvironmentVariableIsSet("ROOFLINE_SOAK_EXIT"))
            std::_Exit(0);
        const double growth = (lastWindow - firstWindow) / firstWindow;
        qInfo("soak: %d steps (seed %d): %d opens, %d refused, %d slider moves, %d undo/redo; live heap %.1f MB after "
              "%d steps, %.1f MB at the end (%+.2f %%)",
              steps, seed, opened, refused, moved, undone, firstWindow / 1e6, window, lastWindow / 1e6, 100 * growth);
        QVERIFY(opened > 0 && refused > 0 && moved > 0);
        // Issue 14 asks for < 5 %, in the normal build and under ASan. Measured (seed 14,
        // docs/reliability.md): +4.6 % over 2,000 steps and +11.8 % over 8,000 before the
        // two causes heaptrack found were fixed (FastTextDelegate kept every text ever
        // drawn; the Gables IP editors filled Qt's pixmap cache with a new swatch per
        // open), +2.1 % and +1.3 % after. Under ASan (its allocator's count of live bytes)
        // +2.60 % and +2.43 % in the fresh-clone CI runs of 2026-11-27 05:53 and 09:45.
        QVERIFY2(growth < 0.05, qPrintable(QStringLiteral("live heap grew by %1 % (issue 14: < 5 %)").arg(100 * growth)));
    }
};

QTEST_MAIN(TestSoak)
#include "tst_soak.moc"
