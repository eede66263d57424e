// Network files (Caffe prototxt, ONNX, our network JSON) opened from the main
// window (File ▸ Open, drag and drop and the command line all go through
// MainWindow::openFile) go to the current view when it takes networks
// (Brouwer, nn-Meter), else to the AMAIX view; a refused file keeps every
// view's work.
#include "amaixdocument.h"
#include "amaixview.h"
#include "gablesview.h"
#include "brouwerdocument.h"
#include "brouwerview.h"
#include "mainwindow.h"
#include "modelview.h"
#include "nnmeterdocument.h"
#include "nnmeterview.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace studio;

namespace {

template<class View>
View *viewOf(MainWindow &window)
{
    for (ModelView *view : window.views()) {
        if (auto *v = qobject_cast<View *>(view))
            return v;
    }
    return nullptr;
}

const QString kGenderNet = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/brouwer/networks/GenderNet.prototxt");
const QString kLeNetJson = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/lenet.json");

// What AMAIX holds, to show that a file routed elsewhere left it alone.
struct AmaixMark
{
    QString networkPath;
    std::size_t layers = 0;
    int steps = 0;
    bool operator==(const AmaixMark &) const = default;
};
AmaixMark markOf(AmaixView *amaix)
{
    return {amaix->document()->networkPath(), amaix->document()->network().layers.size(),
            amaix->document()->undoStack()->count()};
}

} // namespace

class TestNetworkRouting : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void prototxtOpensInBrouwerWhenCurrent()
    {
        MainWindow window;
        auto *brouwer = viewOf<BrouwerView>(window);
        auto *amaix = viewOf<AmaixView>(window);
        QVERIFY(brouwer && amaix);
        QVERIFY(brouwer->takesNetworks());
        QVERIFY(!amaix->takesNetworks());
        window.setCurrentView(brouwer);
        const AmaixMark before = markOf(amaix);
        QCOMPARE(brouwer->document()->network()->name, QStringLiteral("AgeNet"));
        const int steps = brouwer->document()->undoStack()->count();

        QString error;
        QStringList warnings;
        QVERIFY2(window.openFile(kGenderNet, &error, &warnings), qPrintable(error));
        QCOMPARE(window.currentView(), static_cast<ModelView *>(brouwer));
        QCOMPARE(brouwer->document()->network()->name, QStringLiteral("GenderNet"));
        QCOMPARE(brouwer->document()->network()->path, kGenderNet);
        QCOMPARE(brouwer->document()->undoStack()->count(), steps + 1); // one undoable step
        brouwer->flushPendingUpdate();
        QCOMPARE(brouwer->result().layers.size(), brouwer->document()->network()->layers.size());
        QVERIFY(markOf(amaix) == before); // AMAIX's network did not change

        // Our network JSON too (its format is AMAIX's, but Brouwer is current).
        QVERIFY2(window.openFile(kLeNetJson, &error, &warnings), qPrintable(error));
        QCOMPARE(window.currentView(), static_cast<ModelView *>(brouwer));
        QCOMPARE(brouwer->document()->network()->name, QStringLiteral("lenet"));
        QVERIFY(markOf(amaix) == before);

        brouwer->document()->undoStack()->undo();
        QCOMPARE(brouwer->document()->network()->name, QStringLiteral("GenderNet"));
    }

    void prototxtOpensInNnmeterWhenCurrent()
    {
        MainWindow window;
        auto *nnmeter = viewOf<NnmeterView>(window);
        auto *amaix = viewOf<AmaixView>(window);
        auto *brouwer = viewOf<BrouwerView>(window);
        QVERIFY(nnmeter && amaix && brouwer);
        QVERIFY(nnmeter->takesNetworks());
        window.setCurrentView(nnmeter);
        const AmaixMark before = markOf(amaix);
        const QString brouwerNet = brouwer->document()->network()->name;
        QVERIFY(nnmeter->document()->networkPath() != kGenderNet);

        QString error;
        QVERIFY2(window.openFile(kGenderNet, &error), qPrintable(error));
        QCOMPARE(window.currentView(), static_cast<ModelView *>(nnmeter));
        QCOMPARE(nnmeter->document()->networkPath(), kGenderNet);
        QCOMPARE(nnmeter->document()->network().layers.size(),
                 readBrouwerNetwork(kGenderNet, nullptr, nullptr)->network.layers.size());
        QVERIFY(markOf(amaix) == before);
        QCOMPARE(brouwer->document()->network()->name, brouwerNet);

        QVERIFY2(window.openFile(kLeNetJson, &error), qPrintable(error));
        QCOMPARE(nnmeter->document()->networkPath(), kLeNetJson);
        QVERIFY(markOf(amaix) == before);
    }

    // A view that takes no networks: AMAIX opens it, as before.
    void prototxtOpensInAmaixOtherwise()
    {
        MainWindow window;
        auto *amaix = viewOf<AmaixView>(window);
        auto *brouwer = viewOf<BrouwerView>(window);
        window.setCurrentView(window.gablesView());
        QString error;
        QVERIFY2(window.openFile(kGenderNet, &error), qPrintable(error));
        QCOMPARE(window.currentView(), static_cast<ModelView *>(amaix));
        QCOMPARE(amaix->document()->networkPath(), kGenderNet);
        QCOMPARE(brouwer->document()->network()->name, QStringLiteral("AgeNet"));
    }

    // A refused network keeps the current view's work and everybody else's.
    void refusedNetworkKeepsCurrentWork_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("prototxt") << QStringLiteral("broken.prototxt")
                                  << QByteArray("name: \"x\"\nlayer { name: \"conv1\" type: \"Convolution\" bottom: ");
        QTest::newRow("json") << QStringLiteral("broken.json")
                              << QByteArray("{\"format\": \"roofline-studio/amaix-network\", \"version\": 1, \"layers\": 5}");
    }
    void refusedNetworkKeepsCurrentWork()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();

        for (bool nnmeterCurrent : {false, true}) {
            MainWindow window;
            auto *amaix = viewOf<AmaixView>(window);
            auto *brouwer = viewOf<BrouwerView>(window);
            auto *nnmeter = viewOf<NnmeterView>(window);
            ModelView *current = nnmeterCurrent ? static_cast<ModelView *>(nnmeter) : brouwer;
            window.setCurrentView(current);
            brouwer->document()->setAvailableBytes(64.0 * 1024 * 1024); // work of the user's
            const int brouwerSteps = brouwer->document()->undoStack()->count();
            const QString nnmeterNet = nnmeter->document()->networkPath();
            const AmaixMark before = markOf(amaix);

            QString error;
            QVERIFY(!window.openFile(path, &error));
            QVERIFY2(error.contains(path), qPrintable(error));
            QCOMPARE(window.currentView(), current);
            QCOMPARE(brouwer->document()->network()->name, QStringLiteral("AgeNet"));
            QCOMPARE(brouwer->document()->undoStack()->count(), brouwerSteps);
            QCOMPARE(brouwer->document()->params().availableBytes, 64.0 * 1024 * 1024);
            QCOMPARE(nnmeter->document()->networkPath(), nnmeterNet);
            QVERIFY(markOf(amaix) == before);
            // Named on the command line: the empty state belongs to the view it was meant for,
            // which holds the user's work here and keeps it; AMAIX keeps its example too.
            window.showEmptyStateAfterFailedOpen(path, error);
            QCOMPARE(window.currentView(), current);
            QVERIFY(!amaix->showsEmptyState());
            QVERIFY(markOf(amaix) == before);
            QCOMPARE(brouwer->document()->network()->name, QStringLiteral("AgeNet"));
        }
    }
};

QTEST_MAIN(TestNetworkRouting)
#include "tst_networkrouting.moc"
