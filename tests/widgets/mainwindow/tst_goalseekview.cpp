// Goal seek in every view, through its real controls: the target box, the
// parameter box, Seek, then Apply, which sets the value as one undoable step
// and brings the plotted result to the target.
#include "amaixdocument.h"
#include "amaixview.h"
#include "gablesdocument.h"
#include "gablesview.h"
#include "goalseekpanel.h"
#include "mainwindow.h"
#include "timelinedocument.h"
#include "timelineview.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace studio;

namespace {

bool choose(QComboBox *box, const QString &data)
{
    const int i = box->findData(data);
    if (i < 0)
        return false;
    box->setCurrentIndex(i);
    return true;
}

template<class View>
View *findView(MainWindow &window)
{
    for (ModelView *v : window.views()) {
        if (auto *view = qobject_cast<View *>(v))
            return view;
    }
    return nullptr;
}

} // namespace

class TestGoalSeekView : public QObject
{
    Q_OBJECT
private slots:
    // Fig. 6b: P_att 2 Gops/s needs Bpeak ≥ 15.0625 GB/s; Apply moves the plot there.
    void gables()
    {
        MainWindow window;
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/gables/gables-fig6b.json"), &error), qPrintable(error));
        auto *view = findView<GablesView>(window);
        QVERIFY(view);
        view->flushPendingUpdate();
        QVERIFY(view->readout()->text().contains(QStringLiteral("1.51× more Bpeak before IP[1] GPU link limits")));
        GoalSeekPanel *panel = view->goalSeekPanel();
        panel->valueBox()->setValue(2);
        QVERIFY(choose(panel->parameterBox(), QStringLiteral("/soc/bpeak_gbps")));
        QVERIFY(!panel->applyButton()->isEnabled());
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY(panel->lastResult().found());
        QCOMPARE(panel->lastResult().value, 15.0625);
        QVERIFY(panel->resultLabel()->text().contains(QStringLiteral("needs Bpeak ≥ 15.06 GB/s")));
        QVERIFY(panel->applyButton()->isEnabled());
        const int steps = view->undoStack()->count();
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        view->flushPendingUpdate();
        QCOMPARE(view->document()->soc().bpeakGBps, 15.0625);
        QVERIFY(std::abs(view->result().attainableGops - 2) < 1e-9);
        QCOMPARE(view->undoStack()->count(), steps + 1);

        // Unreachable: the bound is named, Apply stays off.
        panel->valueBox()->setValue(3);
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY(!panel->lastResult().found());
        QVERIFY(panel->resultLabel()->text().contains(QStringLiteral("IP[1] GPU link caps it at 2 Gops/s")));
        QVERIFY(!panel->applyButton()->isEnabled());
    }

    void amaix()
    {
        MainWindow window;
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/amaix/alexnet.json"), &error), qPrintable(error));
        QVERIFY2(window.openFile(QStringLiteral(":/examples/amaix/nv_full.json"), &error), qPrintable(error));
        auto *view = findView<AmaixView>(window);
        QVERIFY(view);
        view->flushPendingUpdate();
        GoalSeekPanel *panel = view->goalSeekPanel();
        QVERIFY(choose(panel->targetBox(), QStringLiteral("fps")));
        panel->valueBox()->setValue(250);
        QVERIFY(choose(panel->parameterBox(), QStringLiteral("/memories/DRAM/bandwidth_gbps")));
        QVERIFY(panel->parameterBox()->findData(QStringLiteral("/scaling/cbuf_bytes")) < 0); // whole numbers: not offered
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY2(panel->lastResult().found(), panel->lastResult().message.c_str());
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(std::abs(view->result().fps - 250) < 250e-6);

        // Time per inference in ms.
        QVERIFY(choose(panel->targetBox(), QStringLiteral("time")));
        panel->valueBox()->setValue(5);
        QVERIFY(choose(panel->parameterBox(), QStringLiteral("/clock_ghz")));
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY2(panel->lastResult().found(), panel->lastResult().message.c_str());
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(std::abs(view->result().totalNs - 5e6) < 5);
    }

    void timeline()
    {
        MainWindow window;
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(":/examples/verrocchio/vector-add-2cores.json"), &error),
                 qPrintable(error));
        auto *view = findView<TimelineView>(window);
        QVERIFY(view);
        view->flushPendingUpdate();
        GoalSeekPanel *panel = view->goalSeekPanel();
        panel->valueBox()->setValue(9); // µs
        QVERIFY(choose(panel->parameterBox(), QStringLiteral("/bus/bandwidth_gbps")));
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY2(panel->lastResult().found(), panel->lastResult().message.c_str());
        QVERIFY(panel->resultLabel()->text().contains(QStringLiteral("total 9 µs needs")));
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        QCOMPARE(view->document()->machine().busGBps, panel->lastResult().value);
        QTRY_VERIFY(std::abs(view->result().totalNs - 9000) < 9000e-6);
    }
};

QTEST_MAIN(TestGoalSeekView)
#include "tst_goalseekview.moc"
