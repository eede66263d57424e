// The kernel lab run from the nn-Meter view's "Kernel lab" tab, offscreen,
// through its real buttons: a tiny quick run (seconds) on a worker thread
// replaces the view's predictors with this machine's (the bars, the device
// selector and the predicted-vs-measured table change; one undo step brings
// the old ones back), Save writes files that load to the same predictions;
// Cancel stops the run, writes nothing and leaves every predictor as it was;
// bad settings and an unwritable folder are refused with a message.
// Not timed: the cancel latency is printed, and only bounded generously.
#include "nnmeterviewtesting.h"

#include "nnmeterlab.h"

#include "nnmeter/lab/kernelnets.h"

#include <QDir>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTableWidget>

#include <cmath>

namespace {

const QString kLenet = QStringLiteral(":/examples/amaix/lenet.json");

std::vector<double> plottedMs(const NnmeterView &view)
{
    std::vector<double> ms;
    for (double v : view.plot()->barValues())
        ms.push_back(v / view.plot()->unitPerMs());
    return ms;
}

void chooseNetwork(NnmeterView &view, const QString &path)
{
    QComboBox *box = view.panel()->networkBox();
    const int i = box->findData(path);
    QVERIFY(i >= 0);
    box->setCurrentIndex(i);
    emit box->activated(i);
    view.flushPendingUpdate();
    QCOMPARE(view.document()->networkPath(), path);
}

// Only `kinds` checked, quick or not, the given budget.
void settings(NnmeterLabPanel *lab, const std::vector<std::string> &kinds, const QString &budget, bool quick = true)
{
    for (const std::string &kind : roofline::nnmeter::lab::sampleKinds())
        lab->kindBox(kind)->setChecked(std::find(kinds.begin(), kinds.end(), kind) != kinds.end());
    lab->quickBox()->setChecked(quick);
    lab->budgetBox()->setCurrentText(budget);
}

} // namespace

class TestNnmeterViewLab : public QObject
{
    Q_OBJECT
private slots:
    void quickRunReplacesThePredictors()
    {
        NnmeterView view(new NnmeterDocument);
        QTemporaryDir dir;
        NnmeterLabPanel *lab = view.labPanel();
        lab->setOutputFolder(dir.filePath(QStringLiteral("lab")));
        chooseNetwork(view, kLenet);
        view.document()->undoStack()->clear();
        const Device before = view.document()->device();
        const std::vector<double> barsBefore = plottedMs(view);
        QCOMPARE(view.prediction().learnedKernels, 0); // the Cortex-A76 device is analytical

        QCOMPARE(lab->budgetBox()->currentText(), QStringLiteral("10m"));
        QVERIFY(!lab->quickBox()->isChecked());
        settings(lab, {"conv", "add"}, QStringLiteral("3s")); // quick: done in under a second here
        QVERIFY(lab->currentNetworkButton()->isChecked());
        QSignalSpy ended(lab, &NnmeterLabPanel::runEnded);
        QTest::mouseClick(lab->runButton(), Qt::LeftButton);
        QVERIFY(lab->isRunning());
        QVERIFY(!lab->runButton()->isEnabled() && lab->cancelButton()->isEnabled());

        // The GUI stays live while the worker measures: a rule toggle redraws.
        QVERIFY(QTest::qWaitFor([&] { return lab->progressBar()->value() > 0; }, 30000));
        const quint64 updates = view.updateCount();
        view.panel()->multiOutboundBox()->click();
        QVERIFY(waitForUpdate(&view, updates));
        view.panel()->multiOutboundBox()->click();
        view.flushPendingUpdate();
        QVERIFY(lab->isRunning());

        QVERIFY(QTest::qWaitFor([&] { return !ended.isEmpty(); }, 120000));
        QVERIFY2(ended.first().first().toBool(), qPrintable(lab->errorLabel()->text()));
        view.flushPendingUpdate();
        QVERIFY(!lab->isRunning() && lab->runButton()->isEnabled());
        QCOMPARE(lab->progressBar()->value(), 1000);
        const roofline::nnmeter::lab::LabResult *result = lab->lastResult();
        QVERIFY(result);

        // The view now predicts with this machine's device, a file of the run's folder.
        const QString deviceFile = QDir(lab->lastRunFolder()).filePath(QStringLiteral("onednn_cpu.device.json"));
        QVERIFY(QFileInfo::exists(deviceFile));
        QCOMPARE(view.document()->devicePath(), deviceFile);
        const Device &after = view.document()->device();
        QVERIFY(!(after == before));
        QCOMPARE(after.rules.backend, std::string("onednn-cpu"));
        QVERIFY(after.predictors.count("conv") && after.predictors.count("add"));
        QCOMPARE(after.peakGflops, result->device.peakGflops);
        QVERIFY(view.prediction() == corePrediction(view.document()));
        QVERIFY(view.prediction().learnedKernels > 0);
        // ROOFLINE_SCREENSHOT_DIR=dir: the lab tab after the run, for a person to look at.
        if (const QString shots = qEnvironmentVariable("ROOFLINE_SCREENSHOT_DIR"); !shots.isEmpty()) {
            view.bottomTabs()->setCurrentWidget(lab);
            for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
                view.resize(size);
                view.show();
                QTest::qWait(50);
                view.grab().save(QStringLiteral("%1/nnmeter-lab-%2.png").arg(shots).arg(size.width()));
            }
        }
        const std::vector<double> barsAfter = plottedMs(view);
        QCOMPARE(barsAfter.size(), view.prediction().kernels.size());
        QVERIFY(barsAfter != barsBefore);
        for (std::size_t k = 0; k < barsAfter.size(); ++k)
            QVERIFY(std::abs(barsAfter[k] / view.prediction().kernels[k].ms - 1) < 1e-9);
        QComboBox *devices = view.panel()->deviceBox();
        QCOMPARE(devices->currentData().toString(), deviceFile);
        QVERIFY2(devices->currentText().startsWith(QStringLiteral("this machine, lab ")), qPrintable(devices->currentText()));

        // Predicted vs measured: LeNet as the lab ran it, predicted by the lab's device.
        QCOMPARE(result->networks.size(), std::size_t(1));
        view.bottomTabs()->setCurrentWidget(view.measuredTab());
        QCOMPARE(view.measuredRows().size(), std::size_t(1));
        const NnmeterView::MeasuredRow &row = view.measuredRows().front();
        QCOMPARE(row.network, QStringLiteral("lenet.json"));
        QCOMPARE(row.measuredMs, result->networks[0].measuredMs);
        QCOMPARE(row.matchedFile, kLenet);
        QVERIFY(std::abs(row.predictedMs / result->networks[0].predictedMs - 1) < 1e-9);
        QVERIFY2(view.measuredSummary()->text().contains(QStringLiteral("of 1 networks within ±10 %")),
                 qPrintable(view.measuredSummary()->text()));
        // The tab's own accuracy: one row per trained kind, and the end-to-end line.
        QCOMPARE(lab->accuracyTable()->rowCount(), 2);
        QCOMPARE(lab->accuracyTable()->item(0, 0)->text(), QStringLiteral("add"));
        QVERIFY(lab->resultLabel()->text().contains(QStringLiteral("lenet.json")));
        QVERIFY(lab->resultLabel()->text().contains(QStringLiteral("Undo")));

        // One undo step: the old predictors, bars and measurements back; redo: the lab's again.
        QCOMPARE(view.undoStack()->count(), 3); // two rule clicks, the lab's device
        view.undoStack()->undo();
        view.flushPendingUpdate();
        QVERIFY(view.document()->device() == before);
        QVERIFY(view.document()->measured() == nullptr);
        QCOMPARE(plottedMs(view), barsBefore);
        view.undoStack()->redo();
        view.flushPendingUpdate();
        QCOMPARE(plottedMs(view), barsAfter);

        // Save: the same files elsewhere, each written atomically; they predict alike.
        QString error;
        const QString saved = dir.filePath(QStringLiteral("saved"));
        QVERIFY2(lab->savePredictors(saved, &error), qPrintable(error));
        const DeviceLoad load = loadDeviceFile((saved + QStringLiteral("/onednn_cpu.device.json")).toStdString());
        QVERIFY2(load.device, load.diagnostics.toString().c_str());
        QVERIFY(predictNetwork(view.document()->network(), *load.device) == view.prediction());
        QVERIFY(QFileInfo::exists(saved + QStringLiteral("/onednn_cpu/measured.csv")));
        QVERIFY(!lab->savePredictors(QStringLiteral("/proc/no-such-folder"), &error));
        QVERIFY2(error.contains(QStringLiteral("/proc/no-such-folder")), qPrintable(error));

        // The session names the run's device file: it restores in a new view.
        const QJsonObject session = view.sessionState();
        NnmeterView restored(new NnmeterDocument);
        QVERIFY2(restored.restoreSessionState(session, QStringLiteral("s.json"), &error), qPrintable(error));
        QVERIFY(restored.prediction() == view.prediction());
    }

    void cancelKeepsThePredictors()
    {
        NnmeterView view(new NnmeterDocument);
        QTemporaryDir dir;
        NnmeterLabPanel *lab = view.labPanel();
        const QString out = dir.filePath(QStringLiteral("lab"));
        lab->setOutputFolder(out);
        view.panel()->ruleBox("bn_relu")->click(); // some work of the user's
        view.flushPendingUpdate();
        const Device before = view.document()->device();
        const Prediction predicted = view.prediction();
        const std::vector<double> bars = plottedMs(view);
        const int steps = view.undoStack()->count();

        settings(lab, {"conv"}, QStringLiteral("60s"), false); // a full run: would take a minute
        QSignalSpy ended(lab, &NnmeterLabPanel::runEnded);
        QTest::mouseClick(lab->runButton(), Qt::LeftButton);
        QVERIFY(lab->isRunning());
        QVERIFY(QTest::qWaitFor([&] { return !lab->log()->toPlainText().isEmpty(); }, 30000)); // measuring
        QTest::mouseClick(lab->cancelButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return !ended.isEmpty(); }, 10000));
        qInfo("cancel took %.1f ms to stop the worker", lab->lastCancelLatencyMs());
        QCOMPARE(ended.first().first().toBool(), false);
        QVERIFY(lab->lastCancelLatencyMs() >= 0 && lab->lastCancelLatencyMs() < 10000);
        QVERIFY(lab->statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(lab->runButton()->isEnabled() && !lab->cancelButton()->isEnabled());

        view.flushPendingUpdate();
        QVERIFY(view.document()->device() == before);
        QVERIFY(view.prediction() == predicted);
        QCOMPARE(plottedMs(view), bars);
        QCOMPARE(view.undoStack()->count(), steps);
        QVERIFY(view.document()->measured() == nullptr);
        QVERIFY(lab->lastResult() == nullptr);
        QVERIFY(!lab->saveButton()->isEnabled());
        QVERIFY(QDir(out).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty()); // nothing written
        QCOMPARE(view.panel()->deviceBox()->count(), 4); // no new device listed
    }

    void badSettingsAreRefused()
    {
        NnmeterView view(new NnmeterDocument);
        NnmeterLabPanel *lab = view.labPanel();
        settings(lab, {}, QStringLiteral("20s"));
        QTest::mouseClick(lab->runButton(), Qt::LeftButton);
        QVERIFY(!lab->isRunning());
        QVERIFY(!lab->errorLabel()->isHidden());
        QVERIFY2(lab->errorLabel()->text().startsWith(QStringLiteral("Kernels:")), qPrintable(lab->errorLabel()->text()));

        settings(lab, {"conv"}, QStringLiteral("soon"));
        QTest::mouseClick(lab->runButton(), Qt::LeftButton);
        QVERIFY(!lab->isRunning());
        QVERIFY2(lab->errorLabel()->text().contains(QStringLiteral("\"soon\" is not a duration")),
                 qPrintable(lab->errorLabel()->text()));
        QCOMPARE(view.undoStack()->count(), 0);
    }

    // The run measures, then cannot write its folder: the message names the path, nothing changes.
    void unwritableFolderIsReported()
    {
        NnmeterView view(new NnmeterDocument);
        chooseNetwork(view, kLenet);
        QTemporaryDir dir;
        const QString blocker = dir.filePath(QStringLiteral("a-file"));
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        NnmeterLabPanel *lab = view.labPanel();
        lab->setOutputFolder(blocker + QStringLiteral("/lab")); // under a file: cannot be made
        const Device before = view.document()->device();
        const int steps = view.undoStack()->count();
        settings(lab, {"add"}, QStringLiteral("2s"));
        QSignalSpy ended(lab, &NnmeterLabPanel::runEnded);
        QTest::mouseClick(lab->runButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return !ended.isEmpty(); }, 120000));
        QCOMPARE(ended.first().first().toBool(), false);
        QVERIFY(!lab->errorLabel()->isHidden());
        QVERIFY2(lab->errorLabel()->text().contains(blocker + QStringLiteral("/lab")), qPrintable(lab->errorLabel()->text()));
        QVERIFY(lab->errorLabel()->text().contains(QStringLiteral("predictors in use stay")));
        view.flushPendingUpdate();
        QVERIFY(view.document()->device() == before);
        QCOMPARE(view.undoStack()->count(), steps);
        QVERIFY(lab->lastResult() == nullptr);
    }
};

QTEST_MAIN(TestNnmeterViewLab)
#include "tst_nnmeterview_lab.moc"
