// The Gables view driven through its real controls, offscreen: sliders move
// the plotted curves and the readout, fractions rebalance, examples open,
// bad files keep the current work, and exports hold the plot's content.
#include "gablesdocument.h"
#include "gablesparampanel.h"
#include "gablesplot.h"
#include "gablesview.h"
#include "snapshotbar.h"
#include "mainwindow.h"
#include "parameterslider.h"
#include "preferences.h"
#include "resources.h"
#include "roofline_version.h"
#include "gables/io.h"
#include "sensitivitychart.h"
#include "gables/sensitivity.h"
#include "termschart.h"
#include "units.h"
#include "testutils.h"

#include <QApplication>
#include <QCheckBox>
#include <QDate>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamReader>

#include <cmath>

using namespace studio;
using namespace roofline::gables;

namespace {

QString example(const char *name)
{
    return QStringLiteral(":/examples/gables/") + QLatin1String(name);
}

// Waits for the view's coalesced update after an edit.
bool waitForUpdate(GablesView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 2000);
}

double graphY(QCPGraph *graph, double x)
{
    // Graph data are sorted polylines; read the point at x exactly.
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        if (testutils::relativelyEqual(it->key, x, 1e-12))
            return it->value;
    }
    return std::nan("");
}

} // namespace

class TestGablesView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        QVERIFY(!resources::exampleFiles().isEmpty());
    }

    void bpeakSpinBoxReproducesFig6c()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 1 / 0.753125, 1e-12);

        const quint64 before = view->updateCount();
        view->panel()->bpeakSlider()->spinBox()->setValue(30); // exact entry
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 2.0, 1e-12);
        QCOMPARE(view->result().bound.kind, Bound::Kind::IpLink);
        QVERIFY(view->readout()->text().contains(QStringLiteral("2 Gops/s")));
        QVERIFY(view->readout()->text().contains(QStringLiteral("IP[1] GPU link")));
        QVERIFY(window.statusText().contains(QStringLiteral("IP[1] GPU link")));
        // The memory roof moved: Bpeak·I at the left edge.
        const double xLeft = view->plot()->geometry().xRange.lower;
        ROOFLINE_COMPARE_REL(graphY(view->plot()->memoryGraph(), xLeft), 30 * xLeft, 1e-12);
        QVERIFY(window.isWindowModified());
    }

    void draggingIntensityMovesGpuRoofPoint()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        ParameterSlider *i1 = view->panel()->intensitySlider(1);
        QCPGraph *gpuRoof = view->plot()->roofGraph(1);
        QVERIFY(gpuRoof);
        const double pBefore = view->result().attainableGops;

        // Drag the thumb across several positions; each step is one coalesced update.
        QSlider *slider = i1->slider();
        for (int step = 1; step <= 5; ++step) {
            const quint64 before = view->updateCount();
            slider->setValue(slider->value() + 40);
            QVERIFY(waitForUpdate(view, before));
            const double intensity = view->document()->soc().ips[1].intensity;
            ROOFLINE_COMPARE_REL(intensity, i1->scale().toValue(slider->value()), 1e-12);
            // The selected point of the GPU sits on its scaled roof: min(15 I, 200)/0.75.
            const Selection &s = view->plot()->geometry().selections[1];
            ROOFLINE_COMPARE_REL(s.selected.y, std::min(15 * intensity, 200.0) / 0.75, 1e-12);
        }
        QVERIFY(view->result().attainableGops > pBefore); // more reuse, more performance
        QVERIFY(i1->spinBox()->value() > 0.1);
    }

    void fractionSliderKeepsSumOne()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        GablesDocument *doc = view->document();
        const int added = doc->addIp();
        QCOMPARE(added, 2);
        QVERIFY(waitForUpdate(view, 0)); // structure change rebuilds the panel
        QTRY_COMPARE(view->panel()->ipEditorCount(), 3);

        // Give the new IP 20% of the work with the slider: the others scale by 0.8.
        quint64 before = view->updateCount();
        view->panel()->fractionSlider(2)->slider()->setValue(200);
        QVERIFY(waitForUpdate(view, before));
        const auto &ips = doc->soc().ips;
        ROOFLINE_COMPARE_REL(ips[2].fraction, 0.2, 1e-12);
        ROOFLINE_COMPARE_REL(ips[0].fraction, 0.25 * 0.8, 1e-12);
        ROOFLINE_COMPARE_REL(ips[1].fraction, 0.75 * 0.8, 1e-12);
        ROOFLINE_COMPARE_REL(fractionSum(ips), 1.0, 1e-12);
        // The other sliders show the rebalanced values.
        QCOMPARE(view->panel()->fractionSlider(0)->spinBox()->value(), 0.2);

        // Lock the CPU: moving the GPU now only trades with the new IP.
        view->panel()->lockBox(0)->setChecked(true);
        before = view->updateCount();
        view->panel()->fractionSlider(1)->spinBox()->setValue(0.7);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(ips[0].fraction, 0.2, 1e-12);
        ROOFLINE_COMPARE_REL(ips[1].fraction, 0.7, 1e-12);
        ROOFLINE_COMPARE_REL(ips[2].fraction, 0.1, 1e-12);
        // The plot draws three scaled roofs, each over its own fraction.
        QVERIFY(view->plot()->roofGraph(2));
        ROOFLINE_COMPARE_REL(view->plot()->geometry().ipRoofs[2].points.back().y, 40 / 0.1, 1e-12);
    }

    void addRenameRemoveThroughPanel()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        GablesView *view = window.gablesView();
        quint64 before = view->updateCount();
        QTest::mouseClick(view->panel()->addButton(), Qt::LeftButton);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->panel()->ipEditorCount(), 3);
        QVERIFY(!view->plot()->roofGraph(2)); // no work yet: not drawn

        QLineEdit *name = view->panel()->nameEdit(2);
        name->setText(QStringLiteral("NPU"));
        before = view->updateCount();
        emit name->editingFinished();
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->document()->soc().ips[2].name, std::string("NPU"));

        // A duplicate name is refused and the editor shows the old name again.
        QLineEdit *gpuName = view->panel()->nameEdit(1);
        gpuName->setText(QStringLiteral("CPU"));
        emit gpuName->editingFinished();
        QCOMPARE(view->document()->soc().ips[1].name, std::string("GPU"));
        QCOMPARE(gpuName->text(), QStringLiteral("GPU"));

        before = view->updateCount();
        QTest::mouseClick(view->panel()->removeButton(1), Qt::LeftButton);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->panel()->ipEditorCount(), 2);
        const auto &ips = view->document()->soc().ips;
        QCOMPARE(ips[1].name, std::string("NPU"));
        ROOFLINE_COMPARE_REL(ips[0].fraction, 1.0, 1e-12); // the GPU's work went to the CPU
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 40.0, 1e-12);
    }

    void extensionsThroughPanel()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        GablesView *view = window.gablesView();
        GablesParamPanel *panel = view->panel();
        QVERIFY(!panel->missRatioSlider(1)); // no cache, no miss-ratio controls

        // Serialized work: 0.00625 + 0.00625 ns/op -> 80 Gops/s.
        quint64 before = view->updateCount();
        panel->serializedBox()->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 80.0, 1e-12);
        QVERIFY(view->readout()->text().contains(QStringLiteral("serialized")));
        before = view->updateCount();
        panel->serializedBox()->setChecked(false);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 160.0, 1e-12);

        // A shared 10 GB/s bus for both IPs becomes the bound: 0.125 / 10 -> 80 Gops/s.
        before = view->updateCount();
        QTest::mouseClick(panel->addBusButton(), Qt::LeftButton);
        QVERIFY(waitForUpdate(view, before));
        panel->busSlider(0)->spinBox()->setValue(10);
        panel->busBox(0, 0)->setChecked(true);
        before = view->updateCount();
        panel->busBox(1, 0)->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 80.0, 1e-12);
        QCOMPARE(view->result().bound.kind, Bound::Kind::Bus);
        QVERIFY(view->termsChart()->rowLabels().first() == QStringLiteral("bus Bus 1"));
        QCOMPARE(int(view->plot()->geometry().extraRoofs.size()), 1);

        // A cache that catches the GPU's traffic: miss ratio sliders appear and act on T_mem.
        before = view->updateCount();
        panel->msmBox()->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        QTRY_VERIFY(panel->missRatioSlider(1));
        before = view->updateCount();
        panel->missRatioSlider(1)->spinBox()->setValue(0.5);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().memoryNs, (0.03125 + 0.5 * 0.09375) / 20, 1e-12);
        QVERIFY(view->document()->soc().memorySideMemory);

        // Removing the bus takes it off every IP.
        before = view->updateCount();
        view->document()->removeBus(0);
        QVERIFY(waitForUpdate(view, before));
        QVERIFY(view->document()->soc().ips[0].buses.empty());
        // Memory no longer ties: CPU compute and GPU link stay balanced at 160 Gops/s.
        QCOMPARE(view->result().bound.kind, Bound::Kind::Balanced);
        QCOMPARE(int(view->result().bound.limiting.size()), 2);
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 160.0, 1e-12);
    }

    void dragIsOneUndoStep()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        QUndoStack *stack = view->document()->undoStack();
        QVERIFY(!window.isWindowModified());
        const Soc before = view->document()->soc();
        const auto memoryBefore = view->plot()->memoryGraph()->data()->at(0)->value;
        const int stepsBefore = stack->count();

        // One drag of the Bpeak slider across many positions...
        QSlider *slider = view->panel()->bpeakSlider()->slider();
        emit slider->sliderPressed();
        for (int step = 0; step < 10; ++step)
            slider->setValue(slider->value() + 15);
        emit slider->sliderReleased();
        view->flushPendingUpdate();
        QCOMPARE(stack->count(), stepsBefore + 1); // ...is one step
        QVERIFY(window.isWindowModified());
        QVERIFY(view->document()->soc().bpeakGBps > before.bpeakGBps);

        // Undo restores the exact previous values, readout and plot, and the clean state.
        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->soc() == before);
        QCOMPARE(view->plot()->memoryGraph()->data()->at(0)->value, memoryBefore);
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 1 / 0.753125, 1e-12);
        QCOMPARE(view->panel()->bpeakSlider()->value(), 10.0);
        QVERIFY(!window.isWindowModified());

        // Two separate spin-box entries are two steps; redo brings the drag back.
        stack->redo();
        view->panel()->bpeakSlider()->spinBox()->setValue(30);
        view->panel()->bpeakSlider()->spinBox()->setValue(20);
        QCOMPARE(stack->count(), stepsBefore + 3);
        stack->undo();
        QCOMPARE(view->document()->soc().bpeakGBps, 30.0);
    }

    void structuralEditsUndo()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        QUndoStack *stack = view->document()->undoStack();
        const Soc fig6b = view->document()->soc();
        view->document()->addIp();
        view->document()->renameIp(2, QStringLiteral("NPU"), nullptr);
        view->document()->removeIp(0);
        view->flushPendingUpdate();
        QCOMPARE(view->panel()->ipEditorCount(), 2);
        QCOMPARE(stack->undoText(), QStringLiteral("Remove IP"));
        stack->undo();
        stack->undo();
        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->soc() == fig6b);
        QCOMPARE(view->panel()->ipEditorCount(), 2);
        QVERIFY(view->plot()->roofGraph(1));

        // Opening another file is a step too: undo brings fig. 6b back.
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        QVERIFY(!window.isWindowModified());
        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->soc() == fig6b);
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 1 / 0.753125, 1e-12);
    }

    void sensitivityTornadoFollowsTheModel()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        const auto &rows = view->sensitivityChart()->rows();
        QVERIFY(rows == sensitivity(view->document()->soc(), 0.1));
        // Pinned: the GPU's work share is the knob that matters most on the Snapdragon 835 example.
        QCOMPARE(rows[0].label, std::string("GPU f"));
        ROOFLINE_COMPARE_REL(rows[0].lowGops, 43.269230769230781, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].highGops, 196.07843137254912, 1e-12);
        QCOMPARE(rows[2].label, std::string("Ppeak"));
        ROOFLINE_COMPARE_REL(rows[2].highGops, 82.5, 1e-12);
        // The bars are those numbers, drawn from the current P_att.
        auto bars = view->sensitivityChart()->plottable(1); // the "+" series
        auto *high = qobject_cast<QCPBars *>(bars);
        QVERIFY(high);
        ROOFLINE_COMPARE_REL(high->baseValue(), 75.0, 1e-12);
        ROOFLINE_COMPARE_REL(high->baseValue() + high->data()->at(0)->value, 196.07843137254912, 1e-12);
        auto *low = qobject_cast<QCPBars *>(view->sensitivityChart()->plottable(0));
        ROOFLINE_COMPARE_REL(low->baseValue() + low->data()->at(0)->value, 43.269230769230781, 1e-12);
        QCOMPARE(high->dataCount(), SensitivityChart::maxRows);

        // It follows edits: a new Ppeak moves the baseline and every bar.
        const quint64 before = view->updateCount();
        view->panel()->ppeakSlider()->spinBox()->setValue(15);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(high->baseValue(), view->result().attainableGops, 1e-12);
        QVERIFY(view->sensitivityChart()->rows() == sensitivity(view->document()->soc(), 0.1));
    }

    void preferencesSetTheSensitivityStepAndUnitPrefixes()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        Preferences preferences;
        preferences.sensitivityPercent = 20;
        preferences.automaticPrefixes = false;
        window.applyPreferences(preferences);
        view->flushPendingUpdate();
        QCOMPARE(view->bottomTabs()->tabText(view->bottomTabs()->indexOf(view->sensitivityChart())),
                 QStringLiteral("Sensitivity ±20%"));
        QVERIFY(view->sensitivityChart()->rows() == sensitivity(view->document()->soc(), 0.2));
        QVERIFY(view->sensitivityChart()->xAxis->label().contains(QStringLiteral("±20%")));

        // Base units: a large P_att stays in Gops/s; automatic prefixes make it Tops/s.
        view->document()->setPpeak(5000);
        view->document()->setBpeak(1e5);
        for (int ip = 0; ip < int(view->document()->soc().ips.size()); ++ip) {
            view->document()->setBandwidth(ip, 1e5);
            view->document()->setIntensity(ip, 1000);
        }
        view->flushPendingUpdate();
        const double pAtt = view->result().attainableGops;
        QVERIFY(pAtt >= 1000);
        QVERIFY2(view->summary().contains(formatValue(pAtt, 5) + QStringLiteral(" Gops/s")), qPrintable(view->summary()));
        preferences.automaticPrefixes = true;
        window.applyPreferences(preferences);
        view->flushPendingUpdate();
        QVERIFY2(view->summary().contains(formatValue(pAtt / 1000, 5) + QStringLiteral(" Tops/s")), qPrintable(view->summary()));
        window.applyPreferences(Preferences()); // the defaults, for the tests that follow
    }

    void formatQuantityPicksThePrefix_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("in range") << 160.0 << "Gops/s" << "160 Gops/s";
        QTest::newRow("up one") << 1600.0 << "Gops/s" << "1.6 Tops/s";
        QTest::newRow("down one") << 0.5 << "GB/s" << "500 MB/s";
        QTest::newRow("time") << 1.9e-4 << "s" << "190 µs";
        QTest::newRow("no milli-bytes") << 0.25 << "B" << "0.25 B";
        QTest::newRow("unknown unit") << 12345.0 << "ops/byte" << "12345 ops/byte";
        QTest::newRow("zero") << 0.0 << "GB/s" << "0 GB/s";
        QTest::newRow("negative") << -2500.0 << "ns" << "-2.5 µs";
    }

    void formatQuantityPicksThePrefix()
    {
        QFETCH(double, value);
        QFETCH(QString, unit);
        QFETCH(QString, expected);
        QCOMPARE(formatQuantity(value, unit), expected);
        setAutomaticPrefixes(false);
        QCOMPARE(formatQuantity(value, unit), formatValue(value) + QLatin1Char(' ') + unit);
        QCOMPARE(timeUnitFor(1e7).name, QStringLiteral("ns"));
        setAutomaticPrefixes(true);
        QCOMPARE(timeUnitFor(1e7).name, QStringLiteral("ms"));
    }

    void snapshotsCompareAndRestore()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        GablesDocument *doc = view->document();
        const Soc fig6b = doc->soc();
        QCOMPARE(view->plot()->ghostCurveCount(), 0);

        QCOMPARE(doc->pinSnapshot(), 0); // "baseline", and compared at once
        quint64 before = view->updateCount();
        view->panel()->bpeakSlider()->spinBox()->setValue(30);
        QVERIFY(waitForUpdate(view, before));
        // The readout compares with the snapshot; the plot draws it faded.
        QCOMPARE(view->comparisonText(),
                 QStringLiteral("P_att 2 Gops/s, +50.6% vs baseline (1.328 Gops/s); bound moved from memory to "
                                "IP[1] GPU link"));
        QVERIFY(view->readout()->text().contains(QStringLiteral("+50.6% vs baseline")));
        QCOMPARE(view->plot()->ghostCurveCount(), 3); // two IP roofs and the memory roof of fig. 6b
        QCOMPARE(view->snapshotBar()->comboBox()->currentText(), QStringLiteral("baseline"));

        doc->renameSnapshot(0, QStringLiteral("fig. 6b"));
        QCOMPARE(view->snapshotBar()->comboBox()->itemText(1), QStringLiteral("fig. 6b"));

        // Restoring is an undoable step.
        doc->restoreSnapshot(0);
        view->flushPendingUpdate();
        QVERIFY(doc->soc() == fig6b);
        QVERIFY(view->comparisonText().contains(QStringLiteral("+0.0% vs fig. 6b")));
        doc->undoStack()->undo();
        QCOMPARE(doc->soc().bpeakGBps, 30.0);

        // "(none)" hides the ghost and the comparison; delete removes the snapshot.
        doc->setComparedSnapshot(-1);
        view->flushPendingUpdate();
        QCOMPARE(view->plot()->ghostCurveCount(), 0);
        QVERIFY(view->comparisonText().isEmpty());
        doc->setComparedSnapshot(0);
        doc->removeSnapshot(0);
        view->flushPendingUpdate();
        QVERIFY(doc->snapshots().empty());
        QCOMPARE(doc->comparedSnapshot(), -1);
        QCOMPARE(view->plot()->ghostCurveCount(), 0);
    }

    void droppingAFileOpensIt()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/gables/gables-fig6d.json"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        window.gablesView()->flushPendingUpdate();
        ROOFLINE_COMPARE_REL(window.gablesView()->result().attainableGops, 160.0, 1e-12);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("gables-fig6d.json")));
    }

    void sessionRoundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.session.json"));
        MainWindow a;
        QVERIFY(a.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *va = a.gablesView();
        a.gablesDocument()->pinSnapshot(QStringLiteral("baseline"));
        a.gablesDocument()->setBpeak(30);
        a.gablesDocument()->setLocked(1, true);
        va->flushPendingUpdate();
        va->plot()->xAxis->setRange(0.05, 50);
        va->bottomTabs()->setCurrentIndex(1);
        QString error;
        QVERIFY2(a.saveSession(path, &error), qPrintable(error));

        MainWindow b;
        QVERIFY(b.openFile(example("gables-fig6d.json"), nullptr));
        QVERIFY2(b.openFile(path, &error), qPrintable(error)); // routed by its "format"
        GablesView *vb = b.gablesView();
        QVERIFY(b.gablesDocument()->soc() == a.gablesDocument()->soc());
        QCOMPARE(b.gablesDocument()->locks(), a.gablesDocument()->locks());
        QCOMPARE(b.gablesDocument()->snapshots().size(), std::size_t(1));
        QVERIFY(b.gablesDocument()->snapshots()[0].soc == a.gablesDocument()->snapshots()[0].soc);
        QCOMPARE(b.gablesDocument()->comparedSnapshot(), 0);
        QCOMPARE(b.gablesDocument()->filePath(), a.gablesDocument()->filePath());
        QVERIFY(b.isWindowModified());
        QCOMPARE(vb->plot()->xAxis->range().lower, 0.05);
        QCOMPARE(vb->plot()->xAxis->range().upper, 50.0);
        QCOMPARE(vb->bottomTabs()->currentIndex(), 1);
        QCOMPARE(vb->comparisonText(), va->comparisonText());
        ROOFLINE_COMPARE_REL(vb->result().attainableGops, 2.0, 1e-12);

        // A session with a bad model is refused whole, naming the field; the work stays.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonObject views = root[QStringLiteral("views")].toObject();
        QJsonObject gables = views[QStringLiteral("gables")].toObject();
        QJsonObject model = gables[QStringLiteral("model")].toObject();
        QJsonObject socJson = model[QStringLiteral("soc")].toObject();
        socJson[QStringLiteral("bpeak_gbps")] = -30;
        model[QStringLiteral("soc")] = socJson;
        gables[QStringLiteral("model")] = model;
        views[QStringLiteral("gables")] = gables;
        root[QStringLiteral("views")] = views;
        const QByteArray text = QJsonDocument(root).toJson();
        const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        const Soc before = b.gablesDocument()->soc();
        QVERIFY(!b.openSession(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/soc/bpeak_gbps")), qPrintable(error));
        QVERIFY(b.gablesDocument()->soc() == before);
    }

    // Views are restored one after another: when a later view refuses its
    // part, the ones already restored go back to their work. A window with no
    // Gables model open writes a session without a Gables part.
    void badSessionPartChangesNoView()
    {
        QTemporaryDir dir;
        MainWindow a;
        QVERIFY(a.openFile(example("gables-fig6b.json"), nullptr));
        const QString good = dir.filePath(QStringLiteral("good.session.json"));
        QString error;
        QVERIFY2(a.saveSession(good, &error), qPrintable(error));

        QFile file(good);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonObject views = root[QStringLiteral("views")].toObject();
        QVERIFY(views.contains(QStringLiteral("gables")));
        QVERIFY(views.contains(QStringLiteral("timeline"))); // after Gables in the window's order
        QJsonObject timeline = views[QStringLiteral("timeline")].toObject();
        timeline[QStringLiteral("machine")] = QStringLiteral("not a machine");
        views[QStringLiteral("timeline")] = timeline;
        root[QStringLiteral("views")] = views;
        const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(root).toJson());
        out.close();

        MainWindow b;
        QVERIFY(b.openFile(example("gables-fig6d.json"), nullptr));
        b.gablesDocument()->setBpeak(33);
        const Soc before = b.gablesDocument()->soc();
        QVERIFY(!b.openSession(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("timeline")), qPrintable(error));
        QVERIFY(b.gablesDocument()->soc() == before);
        QVERIFY(b.gablesDocument()->soc() != a.gablesDocument()->soc());

        MainWindow empty;
        const QString none = dir.filePath(QStringLiteral("empty.session.json"));
        QVERIFY2(empty.saveSession(none, &error), qPrintable(error));
        MainWindow c;
        QVERIFY(c.openFile(example("gables-fig6d.json"), nullptr));
        QVERIFY2(c.openSession(none, &error), qPrintable(error));
        QVERIFY(!c.gablesDocument()->soc().ips.empty()); // no Gables part: the open model stays
    }

    void reviewBundle()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        window.gablesDocument()->pinSnapshot(QStringLiteral("fig. 6b"));
        window.gablesDocument()->setBpeak(30);
        QString error;
        const QString folder = dir.filePath(QStringLiteral("bundle"));
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QDir bundle(folder);
        for (const char *name : {"index.html", "gables-roofline.svg", "gables-roofline.png", "gables-terms.svg",
                                 "gables-terms.png", "gables-sensitivity.svg", "gables-sensitivity.png",
                                 "gables-roofline.csv", "gables-terms.csv", "gables-sensitivity.csv",
                                 "gables-model.json", "gables-snapshots.csv", "gables-snapshot-1.json"})
            QVERIFY2(QFileInfo(bundle.filePath(QLatin1String(name))).size() > 0, name);

        auto read = [&](const char *name) {
            QFile f(bundle.filePath(QLatin1String(name)));
            f.open(QIODevice::ReadOnly);
            return QString::fromUtf8(f.readAll());
        };
        const QString index = read("index.html");
        QVERIFY(index.contains(QStringLiteral(ROOFLINE_VERSION)));
        QVERIFY(index.contains(QDate::currentDate().toString(Qt::ISODate)));
        QVERIFY(index.contains(QStringLiteral("gables-roofline.png")));

        // The CSV holds the plotted curves: the memory roof's points are the graph's.
        QCPGraph *memory = window.gablesView()->plot()->memoryGraph();
        int matched = 0;
        for (const QString &line : read("gables-roofline.csv").split(QLatin1Char('\n'))) {
            const QStringList cells = line.split(QLatin1Char(','));
            if (cells.size() == 3 && cells[0] == QStringLiteral("memory roof")) {
                const auto point = memory->data()->at(matched++);
                ROOFLINE_COMPARE_REL(cells[1].toDouble(), point->key, 1e-15);
                ROOFLINE_COMPARE_REL(cells[2].toDouble(), point->value, 1e-15);
            }
        }
        QCOMPARE(matched, memory->dataCount());
        // The input reproduces the model; the snapshot table compares with the pin.
        const LoadResult model = parseSoc(read("gables-model.json").toStdString(), "gables-model.json");
        QVERIFY(model.soc && *model.soc == window.gablesDocument()->soc());
        QVERIFY(read("gables-snapshots.csv").contains(QStringLiteral("\"fig. 6b\",1.327800")));
        QVERIFY(read("gables-sensitivity.csv").startsWith(QStringLiteral("parameter,pointer,")));
        // An unwritable place is refused with its name.
        QVERIFY(!window.exportReviewBundle(QStringLiteral("/proc/no-such-bundle"), &error));
        QVERIFY(error.contains(QStringLiteral("/proc/no-such-bundle")));
    }

    void preferencesRoundTripAndTheme()
    {
        const Preferences saved = Preferences::load();
        Preferences p;
        p.theme = Preferences::Theme::Dark;
        p.exportWidth = 1600;
        p.exportHeight = 900;
        p.pngScale = 3;
        p.restoreLastSession = true;
        p.save();
        QVERIFY(Preferences::load() == p);
        PreferencesDialog dialog(p);
        QVERIFY(dialog.preferences() == p);

        applyTheme(Preferences::Theme::Dark);
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(45, 45, 48));
        applyTheme(Preferences::Theme::Light);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
        applyTheme(Preferences::Theme::System);
        saved.save();
    }

    void everyExampleOpens_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : resources::exampleFiles())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }
    void everyExampleOpens()
    {
        QFETCH(QString, path);
        MainWindow window;
        QString error;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        GablesView *view = window.gablesView();
        QVERIFY(view->result().attainableGops > 0 && std::isfinite(view->result().attainableGops));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("inf"), Qt::CaseInsensitive));
        QCOMPARE(view->panel()->ipEditorCount(), int(view->document()->soc().ips.size()));
        QVERIFY(view->plot()->memoryGraph()->dataCount() >= 2);
        QVERIFY(!view->termsChart()->rowLabels().isEmpty());
        QVERIFY(!window.isWindowModified());
    }

    void badFileKeepsCurrentWork()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format":"roofline-studio/gables","version":1,
            "soc":{"ppeak_gops":40,"bpeak_gbps":-10,"ips":[{"name":"CPU","acceleration":1,"bandwidth_gbps":6}]},
            "use_case":{"work":{"CPU":{"fraction":1,"intensity_ops_per_byte":8}}}})");
        file.close();

        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        window.gablesDocument()->setBpeak(25); // unsaved work
        const Soc before = window.gablesDocument()->soc();
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/soc/bpeak_gbps"))
                     && error.contains(QStringLiteral("must be > 0")),
                 qPrintable(error));
        QVERIFY(window.gablesDocument()->soc() == before);
        QVERIFY(window.gablesDocument()->isModified());
        QVERIFY(!window.openFile(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(error.contains(QStringLiteral("missing.json")));

        // Files are routed by their "format": an unknown one, none, or no JSON at all is refused clearly.
        auto write = [&](const char *name, const QByteArray &text) {
            QFile f(dir.filePath(QLatin1String(name)));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return f.fileName();
        };
        const QString unknown = write("unknown.json", R"({"format": "roofline-studio/teapot", "version": 1})");
        QVERIFY(!window.openFile(unknown, &error));
        QVERIFY2(error.contains(QStringLiteral("/format: unknown format \"roofline-studio/teapot\"")), qPrintable(error));
        const QString noFormat = write("noformat.json", R"({"soc": {}})");
        QVERIFY(!window.openFile(noFormat, &error));
        QVERIFY2(error.contains(QStringLiteral("/format: required field is missing")), qPrintable(error));
        const QString garbage = write("garbage.json", "{\n  oops");
        QVERIFY(!window.openFile(garbage, &error));
        QVERIFY2(error.contains(QStringLiteral("line 2, column")), qPrintable(error));
        QVERIFY(window.gablesDocument()->soc() == before);
    }

    void documentRejectsNonsense()
    {
        // Values a control could never produce are ignored, never shown as NaN.
        GablesDocument doc;
        Soc soc;
        soc.ppeakGops = 40;
        soc.bpeakGBps = 10;
        soc.ips = {Ip::make("CPU", 1, 6, 1, 8)};
        doc.setSoc(soc, QString());
        const int steps = doc.undoStack()->count();
        doc.setBpeak(std::nan(""));
        doc.setBpeak(0);
        doc.setBpeak(-3);
        doc.setBpeak(1e300);
        doc.setIntensity(0, 0);
        doc.setFraction(7, 0.5);
        QCOMPARE(doc.soc().bpeakGBps, 10.0);
        QCOMPARE(doc.soc().ips[0].intensity, 8.0);
        QCOMPARE(doc.undoStack()->count(), steps); // nothing to undo either
    }

    void saveRoundTrips()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        window.gablesDocument()->setBpeak(30);
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        QString error;
        QVERIFY2(window.saveFile(path, &error), qPrintable(error));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.recentFiles().contains(QFileInfo(path).absoluteFilePath()));
        MainWindow other;
        QVERIFY(other.openFile(path, &error));
        QVERIFY(other.gablesDocument()->soc() == window.gablesDocument()->soc());
        ROOFLINE_COMPARE_REL(other.gablesView()->result().attainableGops, 2.0, 1e-12);
    }

    // Tab runs left to right, top to bottom: the snapshot row, the tabs under
    // the plot, then the parameter panel top to bottom; every slider and spin
    // box of the panel says what it sets and in which unit.
    void keyboardOrderAndTooltips()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        window.setCurrentView(view);
        window.show(); // real geometry for the order check below
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->flushPendingUpdate();
        QApplication::processEvents();
        QList<QWidget *> expected = view->snapshotBar()->focusChain();
        expected << view->bottomTabs()->tabBar() << view->panel()->ppeakSlider()->slider()
                 << view->panel()->ppeakSlider()->spinBox();
        QWidget *w = expected.front();
        for (qsizetype i = 1; i < expected.size(); ++i) {
            do
                w = w->nextInFocusChain();
            while (!(w->focusPolicy() & Qt::TabFocus));
            QVERIFY2(w == expected[i], qPrintable(QStringLiteral("step %1: %2").arg(i).arg(w->metaObject()->className())));
        }
        // The panel's controls follow in their visual order: each one below or right of the one before.
        QWidget *panelWidget = view->panel()->ppeakSlider()->slider();
        QPoint last = panelWidget->mapTo(view->panel(), QPoint());
        for (int i = 0; i < 40; ++i) {
            do
                panelWidget = panelWidget->nextInFocusChain();
            while (!(panelWidget->focusPolicy() & Qt::TabFocus) || !panelWidget->isVisible());
            if (!view->panel()->isAncestorOf(panelWidget))
                break;
            const QPoint at = panelWidget->mapTo(view->panel(), QPoint());
            QVERIFY2(at.y() > last.y() - 4 || at.x() > last.x(),
                     qPrintable(QStringLiteral("%1 at (%2, %3) after (%4, %5)").arg(panelWidget->metaObject()->className())
                                    .arg(at.x()).arg(at.y()).arg(last.x()).arg(last.y())));
            last = at;
        }
        const auto sliders = view->panel()->findChildren<ParameterSlider *>();
        QVERIFY(sliders.size() >= 2 + 4 * 3);
        for (ParameterSlider *s : sliders) {
            const QString tip = s->slider()->toolTip();
            QVERIFY2(!tip.isEmpty() && tip == s->spinBox()->toolTip(), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("GB/s")) || tip.contains(QStringLiteral("Gops/s"))
                         || tip.contains(QStringLiteral("dimensionless")) || tip.contains(QStringLiteral("per byte")),
                     qPrintable(tip));
        }
    }

    void tooltipsGiveExactValues()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesPlot *plot = window.gablesView()->plot();
        plot->replot();
        const Point &a = plot->geometry().attainable;
        const QPointF pixel(plot->xAxis->coordToPixel(a.x), plot->yAxis->coordToPixel(a.y));
        const QString text = plot->tooltipAt(pixel);
        QVERIFY2(text.contains(QStringLiteral("P_att = 1.3278 Gops/s")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("memory")));
        // On the GPU's roof, away from any point.
        const double x = 1.0;
        const QPointF onRoof(plot->xAxis->coordToPixel(x), plot->yAxis->coordToPixel(15 * x / 0.75));
        QVERIFY2(plot->tooltipAt(onRoof).contains(QStringLiteral("GPU scaled roof")), qPrintable(plot->tooltipAt(onRoof)));
    }

    void zoomAndReset()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesPlot *plot = window.gablesView()->plot();
        QVERIFY(plot->isAutoRange());
        plot->xAxis->setRange(1, 10); // as a wheel zoom would
        QVERIFY(!plot->isAutoRange());
        // An edit keeps the user's zoom.
        window.gablesDocument()->setBpeak(30);
        window.gablesView()->flushPendingUpdate();
        QCOMPARE(plot->xAxis->range().lower, 1.0);
        plot->resetView();
        QVERIFY(plot->isAutoRange());
        QCOMPARE(plot->xAxis->range().lower, plot->geometry().xRange.lower);
        QCOMPARE(plot->yAxis->range().upper, plot->geometry().yRange.upper);
    }

    void manyIpsLegendStaysReadable()
    {
        Soc soc;
        soc.ppeakGops = 10;
        soc.bpeakGBps = 1000;
        for (int i = 0; i < 64; ++i)
            soc.ips.push_back(Ip::make("IP" + std::to_string(i), 1.0 + i, 10, 1.0 / 64, 1.0 + i));
        GablesDocument doc;
        doc.setSoc(soc, QString());
        GablesView view(&doc);
        QCOMPARE(view.panel()->ipEditorCount(), 64);
        QVERIFY(view.plot()->legend->itemCount() <= 12);
        QCOMPARE(view.termsChart()->rowLabels().size(), TermsChart::maxRows);
    }

    void exportSvgHasCurvesAndLabels()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        const QString path = dir.filePath(QStringLiteral("plot.svg"));
        QString error;
        QVERIFY2(window.exportCurrentPlot(path, ExportOptions{}, &error), qPrintable(error));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QString title, desc;
        QStringList texts;
        int polylines = 0;
        double width = 0, height = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            const auto name = xml.name();
            if (name == QLatin1String("svg")) {
                width = xml.attributes().value(QLatin1String("width")).toString().remove(QStringLiteral("mm")).toDouble();
                height = xml.attributes().value(QLatin1String("height")).toString().remove(QStringLiteral("mm")).toDouble();
            } else if (name == QLatin1String("title")) {
                title = xml.readElementText();
            } else if (name == QLatin1String("desc")) {
                desc = xml.readElementText();
            } else if (name == QLatin1String("text")) {
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
            } else if (name == QLatin1String("polyline") || name == QLatin1String("path")) {
                ++polylines;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(width > 0 && height > 0);
        QVERIFY(title.contains(QStringLiteral("Gables Fig. 6b")));
        QVERIFY(desc.contains(QStringLiteral("P_att = 1.3278 Gops/s")));
        const QString all = texts.join(QLatin1Char('|'));
        for (const char *expected : {"Operational intensity I (ops/byte)", "Attainable performance P (Gops/s)",
                                     "CPU roof / f (f = 0.25)", "GPU roof / f (f = 0.75)", "bound: memory",
                                     "I_avg"})
            QVERIFY2(all.contains(QLatin1String(expected)), qPrintable(QStringLiteral("missing %1 in %2").arg(QLatin1String(expected), all)));
        // The label's number, read back, is P_att within the shown precision.
        bool found = false;
        for (const QString &t : texts) {
            if (t.startsWith(QStringLiteral("P_att = "))) {
                const double shown = t.section(QLatin1Char(' '), 2, 2).toDouble();
                QVERIFY(testutils::relativelyEqual(shown, 1 / 0.753125, 1e-3));
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(all));
        QVERIFY(polylines >= 3); // two IP roofs and the memory roof at least

        // PNG and PDF exports write non-empty files; a bad suffix is refused.
        for (const char *name : {"plot.png", "plot.pdf"}) {
            QVERIFY2(window.exportCurrentPlot(dir.filePath(QLatin1String(name)), ExportOptions{}, &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 1000);
        }
        QVERIFY(!window.exportCurrentPlot(dir.filePath(QStringLiteral("plot.bmpx")), ExportOptions{}, &error));
        QVERIFY(error.contains(QStringLiteral("unknown export format")));
        QVERIFY(!window.exportCurrentPlot(QStringLiteral("/nonexistent-dir/plot.svg"), ExportOptions{}, &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/plot.svg")));
    }
};

QTEST_MAIN(TestGablesView)
#include "tst_gablesview.moc"
