// The AMAIX view driven through its real controls, offscreen: sliders move the
// markers, roofs and totals (checked against the core's own numbers), table and
// plot selection stay linked, the table model passes QAbstractItemModelTester,
// sweeps run and cancel, every example network opens on nv_full, bad files keep
// the current work, and exports hold the plot's content.
#include "amaix/comparison.h"
#include "amaix/io.h"
#include "amaix/layersummary.h"
#include "amaix/sensitivity.h"
#include "amaix/model.h"
#include "amaix/sweep.h"
#include "amaixdocument.h"
#include "amaixpanel.h"
#include "amaixplot.h"
#include "amaixsweep.h"
#include "amaixtablemodel.h"
#include "amaixview.h"
#include "mainwindow.h"
#include "parameterslider.h"
#include "resources.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "testutils.h"
#include "units.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

using namespace studio;
using namespace roofline::amaix;
using roofline::Diagnostics;

namespace {

QString example(const char *name)
{
    return QStringLiteral(":/examples/amaix/") + QLatin1String(name);
}

AmaixView *amaixView(MainWindow &window)
{
    for (ModelView *view : window.views()) {
        if (auto *amaix = qobject_cast<AmaixView *>(view))
            return amaix;
    }
    return nullptr;
}

bool waitForUpdate(AmaixView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 3000);
}

// The core's result for the document as it stands, evaluated independently of the view.
Result coreResult(const AmaixDocument &doc)
{
    return evaluate(doc.network(), doc.accelerator(), doc.options());
}

int conv1Row(AmaixView *view)
{
    return view->tableModel()->rowOfLayer(view->document()->network().indexOf("conv1"));
}

const LayerMarker *markerOfRow(AmaixPlot *plot, int row)
{
    for (const LayerMarker &m : plot->markers()) {
        if (m.row == row)
            return &m;
    }
    return nullptr;
}

} // namespace

class TestAmaixView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(!resources::exampleFiles(QStringLiteral("amaix")).isEmpty());
    }

    void startsWithAlexNetOnNvFull()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QVERIFY(view);
        QCOMPARE(view->document()->network().name, std::string("AlexNet"));
        QCOMPARE(view->document()->accelerator().name, std::string("nv_full"));
        QVERIFY(view->result().ok());
        const Result core = coreResult(*view->document());
        ROOFLINE_COMPARE_REL(view->result().totalNs, core.totalNs, 1e-12);
        // One marker per layer that runs on the accelerator and moves data; one table row per layer with stages.
        const auto layers = summarizeLayers(view->document()->network(), core);
        QCOMPARE(view->tableModel()->rowCount(), int(layers.size()));
        QCOMPARE(view->plot()->markers().size(), layerMarkers(layers, core.totalNs, MarkerColoring::ByUnit).size());
        QVERIFY(view->plot()->markers().size() >= 15);
        // Pipelined activations are hollow, convolutions are not.
        QVERIFY(!markerOfRow(view->plot(), conv1Row(view))->hollow);
        const int relu1 = view->tableModel()->rowOfLayer(view->document()->network().indexOf("relu1"));
        QVERIFY(markerOfRow(view->plot(), relu1)->hollow);
        // nv_full's MAC array roof: T_k·T_c·f = 16·64·1 Gops/s.
        const int conv = view->document()->accelerator().unitIndex("CONV_CORE");
        QVERIFY(view->plot()->unitRoof(conv));
        ROOFLINE_COMPARE_REL(view->plot()->peaks()[std::size_t(conv)], 1024.0, 1e-12);
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("FPS")));
        QVERIFY(view->totalsLabel()->text().contains(QStringLiteral("per inference")));
    }

    void bandwidthSliderMovesMarkersAndTotals()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        ParameterSlider *dram = view->panel()->slider(QStringLiteral("/memories/DRAM/bandwidth_gbps"));
        QVERIFY(dram);
        const int memory = view->document()->accelerator().memoryIndex("DRAM");
        const double totalBefore = view->result().totalNs;
        // The first memory-bound layer that sets its own time.
        int row = -1;
        for (std::size_t i = 0; i < view->layers().size() && row < 0; ++i) {
            if (view->layers()[i].bound == Bound::Memory && !view->layers()[i].pipelined && view->layers()[i].timeNs > 0)
                row = int(i);
        }
        QVERIFY(row >= 0);
        const double yBefore = markerOfRow(view->plot(), row)->y;

        // Drag the thumb down: less bandwidth, memory-bound layers slow down.
        QSlider *slider = dram->slider();
        for (int step = 1; step <= 4; ++step) {
            const quint64 before = view->updateCount();
            slider->setValue(slider->value() - 60);
            QVERIFY(waitForUpdate(view, before));
            const double b = view->document()->accelerator().memories[std::size_t(memory)].bandwidthGBps;
            ROOFLINE_COMPARE_REL(b, dram->scale().toValue(slider->value()), 1e-12);
            const Result core = coreResult(*view->document());
            ROOFLINE_COMPARE_REL(view->result().totalNs, core.totalNs, 1e-12);
            ROOFLINE_COMPARE_REL(view->totals().fps, core.fps, 1e-12);
            // The memory roof is B·I.
            QCPGraph *roof = view->plot()->memoryRoof(memory);
            QVERIFY(roof);
            const auto first = roof->data()->constBegin();
            ROOFLINE_COMPARE_REL(first->value, b * first->key, 1e-12);
            // The marker sits at the core's numbers for its layer.
            const auto layers = summarizeLayers(view->document()->network(), core);
            const LayerMarker *m = markerOfRow(view->plot(), row);
            QVERIFY(m);
            ROOFLINE_COMPARE_REL(m->x, layers[std::size_t(row)].intensity(), 1e-12);
            ROOFLINE_COMPARE_REL(m->y, layers[std::size_t(row)].performance(), 1e-12);
        }
        QVERIFY(view->result().totalNs > totalBefore);
        QVERIFY(markerOfRow(view->plot(), row)->y < yBefore);
        QVERIFY(view->panel()->readout()->text().contains(formatValue(view->result().fps)));
    }

    void macArraySpinBoxMovesComputeRoof()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        ParameterSlider *tc = view->panel()->slider(QStringLiteral("/scaling/t_c"));
        QVERIFY(tc);
        const quint64 before = view->updateCount();
        tc->spinBox()->setValue(32);
        QVERIFY(waitForUpdate(view, before));
        const int conv = view->document()->accelerator().unitIndex("CONV_CORE");
        ROOFLINE_COMPARE_REL(view->plot()->peaks()[std::size_t(conv)], 16.0 * 32, 1e-12);
        QCPGraph *roof = view->plot()->unitRoof(conv);
        QVERIFY(roof);
        ROOFLINE_COMPARE_REL(roof->data()->constBegin()->value, 512.0, 1e-12);
        ROOFLINE_COMPARE_REL(view->result().totalNs, coreResult(*view->document()).totalNs, 1e-12);
        // A slider dragged to a fractional T_c is rounded to whole channels.
        const quint64 before2 = view->updateCount();
        tc->slider()->setValue(tc->slider()->value() + 7);
        QVERIFY(waitForUpdate(view, before2));
        const double tC = view->document()->accelerator().nvdla.tC;
        QCOMPARE(tC, std::round(tC));
        // Reset brings back the file's accelerator.
        QVERIFY(view->panel()->resetButton()->isEnabled());
        view->panel()->resetButton()->click();
        QTRY_COMPARE(view->document()->accelerator().nvdla.tC, 64.0);
    }

    void burstOfEditsIsOneUpdate()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        ParameterSlider *clock = view->panel()->slider(QStringLiteral("/clock_ghz"));
        QVERIFY(clock);
        const quint64 before = view->updateCount();
        for (int i = 0; i < 10; ++i)
            clock->slider()->setValue(clock->slider()->value() + 5);
        QVERIFY(waitForUpdate(view, before));
        QTest::qWait(20);
        QCOMPARE(view->updateCount(), before + 1);
    }

    void switchesAndChoosers()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        // Divide and conquer.
        quint64 before = view->updateCount();
        view->panel()->refineBox()->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        QVERIFY(view->document()->options().refine);
        ROOFLINE_COMPARE_REL(view->result().totalNs, coreResult(*view->document()).totalNs, 1e-12);
        // The general model keeps the MAC array's peak.
        QComboBox *scaling = view->panel()->scalingBox();
        before = view->updateCount();
        scaling->setCurrentIndex(scaling->findData(int(ScalingModel::General)));
        emit scaling->activated(scaling->currentIndex());
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->document()->accelerator().scaling, ScalingModel::General);
        QVERIFY(view->result().ok());
        const int conv = view->document()->accelerator().unitIndex("CONV_CORE");
        ROOFLINE_COMPARE_REL(view->plot()->peaks()[std::size_t(conv)], 1024.0, 1e-12);
        QVERIFY(view->panel()->slider(QStringLiteral("/units/CONV_CORE/ops_per_cycle")));
        QVERIFY(!view->panel()->slider(QStringLiteral("/scaling/t_c")));
        // Data type int8: one byte per element.
        QComboBox *types = view->panel()->dataTypeBox();
        before = view->updateCount();
        types->setCurrentIndex(types->findData(QStringLiteral("int8")));
        emit types->activated(types->currentIndex());
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->result().dataType, std::string("int8"));
        // Network chooser: ResNet-50.
        QComboBox *networks = view->panel()->networkBox();
        before = view->updateCount();
        networks->setCurrentIndex(networks->findData(example("resnet50.json")));
        emit networks->activated(networks->currentIndex());
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->document()->network().name, std::string("ResNet-50"));
        QVERIFY(view->tableModel()->rowCount() > 100);
        // Accelerator chooser: generic DLA (general model).
        QComboBox *accelerators = view->panel()->acceleratorBox();
        before = view->updateCount();
        accelerators->setCurrentIndex(accelerators->findData(example("generic_dla.json")));
        emit accelerators->activated(accelerators->currentIndex());
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->document()->accelerator().scaling, ScalingModel::General);
        ROOFLINE_COMPARE_REL(view->result().totalNs, coreResult(*view->document()).totalNs, 1e-12);
        // nvdla is refused for it (no MAC array unit), with the reason, and nothing changes.
        QString error;
        QVERIFY(!view->document()->setScaling(ScalingModel::Nvdla, &error));
        QVERIFY2(error.contains(QStringLiteral("mac_array")), qPrintable(error));
        QCOMPARE(view->document()->accelerator().scaling, ScalingModel::General);
    }

    void tableModelPassesTester()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QAbstractItemModelTester sourceTester(view->tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(view->proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view->tableModel()->columnCount(), int(AmaixTableModel::ColumnCount));
        // Value edits, a new network and a measurement file, all under the testers.
        quint64 before = view->updateCount();
        view->panel()->slider(QStringLiteral("/clock_ghz"))->spinBox()->setValue(1.5);
        QVERIFY(waitForUpdate(view, before));
        QString error;
        QVERIFY2(window.openFile(example("lenet.json"), &error), qPrintable(error));
        QVERIFY(view->tableModel()->rowCount() > 3);

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("lenet.csv"));
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("layer,time_us\nconv1,12.5\nconv2,30\ntotal,80\n");
        }
        QVERIFY2(window.openFile(csv, &error), qPrintable(error));
        QVERIFY(!view->table()->isColumnHidden(AmaixTableModel::Measured));
        const int row = view->tableModel()->rowOfLayer(view->document()->network().indexOf("conv2"));
        QCOMPARE(view->tableModel()->index(row, AmaixTableModel::Measured).data(AmaixTableModel::SortRole).toDouble(), 30.0);
        QVERIFY(view->totalsLabel()->text().contains(QStringLiteral("measured 80")));
        // The performance-sheet column of a convolution is the core's baseline.
        const double sheet = view->tableModel()->index(row, AmaixTableModel::Baseline).data(AmaixTableModel::SortRole).toDouble();
        QVERIFY(sheet > 0);

        // Sorting by time, descending: the first row is the slowest layer.
        view->table()->sortByColumn(AmaixTableModel::Time, Qt::DescendingOrder);
        double slowest = 0;
        for (const LayerSummary &l : view->layers())
            slowest = std::max(slowest, l.timeNs);
        ROOFLINE_COMPARE_REL(view->proxyModel()->index(0, AmaixTableModel::Time).data(AmaixTableModel::SortRole).toDouble(),
                             slowest / 1000, 1e-12);
        // A measured name the network does not have is refused with file, line and reason.
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("layer,time_us\nconv9,12.5\n");
        }
        QVERIFY(!window.openFile(csv, &error));
        QVERIFY2(error.contains(csv) && error.contains(QStringLiteral("line 2")) && error.contains(QStringLiteral("conv9")),
                 qPrintable(error));
    }

    void tableAndPlotSelectionLinked()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        AmaixView *view = amaixView(window);
        window.setCurrentView(view);
        view->plot()->replot();

        // Click conv2's marker: the table selects conv2.
        const int conv2 = view->document()->network().indexOf("conv2");
        const int row = view->tableModel()->rowOfLayer(conv2);
        int marker = -1;
        for (std::size_t i = 0; i < view->plot()->markers().size(); ++i) {
            if (view->plot()->markers()[i].row == row)
                marker = int(i);
        }
        QVERIFY(marker >= 0);
        const QPoint at = view->plot()->markerPixel(marker).toPoint();
        QCOMPARE(view->plot()->markerAt(at), marker);
        QTest::mouseClick(view->plot(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(view->selectedLayer(), conv2);
        const QModelIndex current = view->table()->selectionModel()->currentIndex();
        QCOMPARE(view->proxyModel()->data(current, AmaixTableModel::LayerRole).toInt(), conv2);
        QVERIFY(view->plot()->tooltipAt(at).contains(QStringLiteral("conv2")));
        QVERIFY(view->plot()->tooltipAt(at).contains(QStringLiteral("Gops/s")));

        // Select pool5 in the table (sorted by intensity): the plot selects it.
        view->table()->sortByColumn(AmaixTableModel::Intensity, Qt::AscendingOrder);
        const int pool5 = view->document()->network().indexOf("pool5");
        const QModelIndex proxyIndex = view->proxyModel()->mapFromSource(
            view->tableModel()->index(view->tableModel()->rowOfLayer(pool5), 0));
        view->table()->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect
                                                                          | QItemSelectionModel::Rows);
        QCOMPARE(view->selectedLayer(), pool5);
        QCOMPARE(view->plot()->selectedRow(), view->tableModel()->rowOfLayer(pool5));
        // The selection survives a slider edit.
        const quint64 before = view->updateCount();
        view->panel()->slider(QStringLiteral("/clock_ghz"))->spinBox()->setValue(2);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->plot()->selectedRow(), view->tableModel()->rowOfLayer(pool5));
        QCOMPARE(view->proxyModel()->data(view->table()->selectionModel()->currentIndex(), AmaixTableModel::LayerRole).toInt(),
                 pool5);
    }

    void constantAreaFamily()
    {
        // Seed 000, Fig. 13: MAC arrays of nv_full's area (T_k·T_c = 16·64 in fp16).
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixSweepPanel *sweep = view->sweep();
        QComboBox *x = sweep->parameterBox(0);
        x->setCurrentIndex(x->findData(QStringLiteral("constant-area")));
        QVERIFY(sweep->isConstantArea(0));
        sweep->fromBox(0)->setValue(2);
        sweep->toBox(0)->setValue(128);
        QSignalSpy finished(sweep, &AmaixSweepPanel::finished);
        sweep->runButton()->click();
        QVERIFY(finished.wait(10000));
        const auto &points = sweep->result().points;
        QCOMPARE(points.size(), std::size_t(7)); // T_k = 2, 4, …, 128
        const Accelerator base = view->document()->accelerator();
        const double area = 16 * 64;
        for (const SweepPoint &p : points) {
            QCOMPARE(std::exp2(std::round(std::log2(p.x))), p.x);
            if (p.status != Status::Ok)
                continue;
            Accelerator acc = base;
            Diagnostics diagnostics;
            resolveParameter(acc, "/data_types/fp16/t_k", diagnostics)->set(acc, p.x);
            resolveParameter(acc, "/scaling/t_c", diagnostics)->set(acc, area / p.x);
            ROOFLINE_COMPARE_REL(p.fps, evaluate(view->document()->network(), acc, view->document()->options()).fps, 1e-12);
        }
        // Applying a point keeps the area: T_c follows T_k.
        const auto feasible = std::find_if(points.begin(), points.end(),
                                           [](const SweepPoint &p) { return p.status == Status::Ok && p.x != 16; });
        QVERIFY(feasible != points.end());
        QVERIFY(sweep->applyPoint(std::size_t(feasible - points.begin())));
        Diagnostics diagnostics;
        const Accelerator &now = view->document()->accelerator();
        ROOFLINE_COMPARE_REL(resolveParameter(now, "/data_types/fp16/t_k", diagnostics)->get(now) *
                                 resolveParameter(now, "/scaling/t_c", diagnostics)->get(now),
                             area, 1e-12);
        // ...as one undo step: undo returns to 16 x 64.
        QCOMPARE(view->undoStack()->undoText(), QStringLiteral("Apply sweep point"));
        view->undoStack()->undo();
        QVERIFY(view->document()->accelerator() == base);
    }

    void sweepRunsAppliesAndCancels()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixSweepPanel *sweep = view->sweep();
        QComboBox *x = sweep->parameterBox(0);
        x->setCurrentIndex(x->findData(QStringLiteral("/memories/DRAM/bandwidth_gbps")));
        sweep->fromBox(0)->setValue(4);
        sweep->toBox(0)->setValue(256);
        sweep->countBox(0)->setValue(13);
        QSignalSpy finished(sweep, &AmaixSweepPanel::finished);
        sweep->runButton()->click();
        QVERIFY(finished.wait(10000));
        QCOMPARE(sweep->result().points.size(), std::size_t(13));
        QVERIFY(!sweep->result().cancelled);
        QCOMPARE(sweep->progressBar()->value(), 100);
        QCOMPARE(sweep->lineGraph()->data()->size(), 13);
        // FPS grows with bandwidth, and each point is the core's number.
        const auto &points = sweep->result().points;
        QVERIFY(points.back().fps > points.front().fps);
        Accelerator acc = view->document()->accelerator();
        acc.memories[0].bandwidthGBps = points[5].x;
        ROOFLINE_COMPARE_REL(points[5].fps, evaluate(view->document()->network(), acc, view->document()->options()).fps, 1e-12);
        // Applying a point sets the configuration.
        const quint64 before = view->updateCount();
        QVERIFY(sweep->applyPoint(5));
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->document()->accelerator().memories[0].bandwidthGBps, points[5].x, 1e-12);
        ROOFLINE_COMPARE_REL(view->result().fps, points[5].fps, 1e-12);

        // A large two-parameter sweep of ResNet-50, cancelled at once.
        QString error;
        QVERIFY(window.openFile(example("resnet50.json"), &error));
        sweep->secondAxisBox()->setChecked(true);
        QComboBox *y = sweep->parameterBox(1);
        y->setCurrentIndex(y->findData(QStringLiteral("/scaling/cbuf_bytes")));
        sweep->countBox(0)->setValue(400);
        sweep->countBox(1)->setValue(80);
        sweep->toBox(1)->setValue(4 * 1024 * 1024);
        finished.clear();
        sweep->runButton()->click();
        QVERIFY(sweep->isRunning());
        sweep->cancelButton()->click();
        QVERIFY(finished.wait(20000));
        QVERIFY(sweep->result().cancelled);
        QVERIFY(sweep->result().completed < sweep->result().points.size());
        QVERIFY(sweep->statusLabel()->text().contains(QStringLiteral("Cancelled")));

        // A small two-parameter sweep fills the heat map; small CBUFs are infeasible (NaN, grey).
        sweep->countBox(0)->setValue(6);
        sweep->countBox(1)->setValue(6);
        sweep->fromBox(1)->setValue(8 * 1024);
        finished.clear();
        sweep->runButton()->click();
        QVERIFY(finished.wait(20000));
        QVERIFY(sweep->heatMap()->visible());
        QCOMPARE(sweep->heatMap()->data()->keySize(), 6);
        bool infeasible = false, feasible = false;
        for (const SweepPoint &p : sweep->result().points) {
            infeasible |= p.status == Status::Infeasible;
            feasible |= p.status == Status::Ok;
        }
        QVERIFY(infeasible && feasible);
        QVERIFY(std::isnan(sweep->heatMap()->data()->cell(0, 0)));
    }

    void sweepValuesRoundIntegralParameters()
    {
        QCOMPARE(sweepValues(1, 8, 4, true, false).size(), std::size_t(4));
        const auto v = sweepValues(1, 4, 10, true, true);
        QCOMPARE(v, (std::vector<double>{1, 2, 3, 4}));
        QVERIFY(sweepValues(0, 4, 10, true, false).empty());
    }

    void everyExampleNetworkOpensWithNvFull_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : resources::exampleFiles(QStringLiteral("amaix"))) {
            QString error;
            if (readFormatId(path, &error) == QLatin1String(kNetworkFormatId))
                QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
        }
    }
    void everyExampleNetworkOpensWithNvFull()
    {
        QFETCH(QString, path);
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        QCOMPARE(window.currentView(), view);
        QCOMPARE(view->document()->accelerator().name, std::string("nv_full"));
        if (path.endsWith(QLatin1String("vgg16.json"))) {
            // docs/models/amaix.md: one kernel group of fc6 needs more than the 512 KiB CBUF, in every mode.
            QCOMPARE(view->result().status, Status::Infeasible);
            QVERIFY(view->plot()->markers().empty());
            QVERIFY(view->totalsLabel()->text().contains(QStringLiteral("fc6")));
            QVERIFY(view->summary().startsWith(QStringLiteral("infeasible")));
            return;
        }
        QVERIFY2(view->result().ok(), view->result().error.c_str());
        QVERIFY(view->result().totalNs > 0);
        QVERIFY(!view->plot()->markers().empty());
        for (const LayerMarker &m : view->plot()->markers())
            QVERIFY(std::isfinite(m.x) && std::isfinite(m.y) && m.x > 0 && m.y > 0);
        QVERIFY(!view->summary().contains(QStringLiteral("nan")));
    }

    void badFileKeepsCurrentWork_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("network: negative kernel")
            << QByteArray(R"({"format": "roofline-studio/amaix-network", "version": 1, "name": "bad",
                  "inputs": [{"name": "data", "shape": [3, 8, 8]}],
                  "layers": [{"name": "c", "type": "convolution", "out_channels": 4, "kernel": -3}]})")
            << QStringLiteral("/layers/0/kernel") << QStringLiteral("got -3");
        QTest::newRow("accelerator: zero bandwidth")
            << QByteArray(R"({"format": "roofline-studio/amaix-accelerator", "version": 1, "name": "bad",
                  "clock_ghz": 1, "default_data_type": "int8", "data_types": {"int8": {"bytes": 1}},
                  "units": {"U": {"ops_per_cycle": 4}}, "memories": {"DRAM": {"bandwidth_gbps": 0}},
                  "mapping": {"convolution": {"unit": "U", "memory": "DRAM"}}})")
            << QStringLiteral("/memories/DRAM/bandwidth_gbps") << QStringLiteral("got 0");
    }
    void badFileKeepsCurrentWork()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        MainWindow window;
        AmaixView *view = amaixView(window);
        const Network network = view->document()->network();
        const Accelerator accelerator = view->document()->accelerator();
        const double total = view->result().totalNs;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        }
        QString error;
        QVERIFY(!window.openFile(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(field), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        QVERIFY(view->document()->network() == network);
        QVERIFY(view->document()->accelerator() == accelerator);
        QCOMPARE(view->result().totalNs, total);
    }

    void exportsPlotAndCsv()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY(window.openFile(example("nv_full.json"), &error));
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("amaix.svg"));
        QVERIFY2(window.exportCurrentPlot(svg, ExportOptions{}, &error), qPrintable(error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString content = QString::fromUtf8(f.readAll());
        for (const char *expected : {"Operational intensity I (ops/byte)", "Attained performance P (Gops/s)",
                                     "CONV_CORE roof: 1024 Gops/s", "DRAM roof: 64 GB/s", "AlexNet on nv_full"})
            QVERIFY2(content.contains(QLatin1String(expected)), expected);
        QVERIFY(!content.contains(QStringLiteral("nan")));
        for (const char *name : {"amaix.png", "amaix.pdf"}) {
            QVERIFY2(window.exportCurrentPlot(dir.filePath(QLatin1String(name)), ExportOptions{}, &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 1000);
        }
        // The sweep's plot is exported when its tab is shown.
        view->tabs()->setCurrentWidget(view->sweep());
        QCOMPARE(view->exportPlot(), view->sweep()->plot());
        view->tabs()->setCurrentIndex(0);

        const QString csv = dir.filePath(QStringLiteral("amaix.csv"));
        QVERIFY2(view->exportCsv(csv, &error), qPrintable(error));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QByteArray header = c.readLine();
        QVERIFY2(header.startsWith("stage,layer"), header.constData());
        QVERIFY(c.readAll().contains("conv1"));
        QVERIFY(!view->exportCsv(QStringLiteral("/nonexistent-dir/x.csv"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/x.csv")));
    }

    // --- Design review: undo, snapshots, sensitivity, sessions, save, keyboard ---

    void dragIsOneUndoStep()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixDocument *doc = view->document();
        QUndoStack *stack = view->undoStack();
        QCOMPARE(stack, doc->undoStack());
        QCOMPARE(stack->count(), 0); // the start-up examples are no step
        QVERIFY(!view->isModified());
        const Accelerator before = doc->accelerator();
        const double totalBefore = view->result().totalNs;
        const std::vector<LayerMarker> markersBefore = view->plot()->markers();
        const int memory = before.memoryIndex("DRAM");
        const auto roofBefore = *view->plot()->memoryRoof(memory)->data()->constBegin();

        // One drag of the DRAM slider across many positions...
        ParameterSlider *dram = view->panel()->slider(QStringLiteral("/memories/DRAM/bandwidth_gbps"));
        QSlider *slider = dram->slider();
        emit slider->sliderPressed();
        for (int step = 0; step < 10; ++step) {
            slider->setValue(slider->value() + 12);
            QCoreApplication::processEvents(); // each position is evaluated and drawn
        }
        emit slider->sliderReleased();
        view->flushPendingUpdate();
        QCOMPARE(stack->count(), 1); // ...is one step
        QVERIFY(view->isModified());
        QVERIFY(doc->accelerator().memories[std::size_t(memory)].bandwidthGBps > 64);
        QVERIFY(view->result().totalNs < totalBefore);

        // Undo restores the exact values, the plotted data and the clean state.
        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(doc->accelerator() == before);
        QCOMPARE(view->result().totalNs, totalBefore);
        QCOMPARE(view->plot()->markers().size(), markersBefore.size());
        for (std::size_t i = 0; i < markersBefore.size(); ++i) {
            QCOMPARE(view->plot()->markers()[i].x, markersBefore[i].x);
            QCOMPARE(view->plot()->markers()[i].y, markersBefore[i].y);
            QCOMPARE(view->plot()->markers()[i].radius, markersBefore[i].radius);
        }
        const auto roof = *view->plot()->memoryRoof(memory)->data()->constBegin();
        QCOMPARE(roof.key, roofBefore.key);
        QCOMPARE(roof.value, roofBefore.value);
        QCOMPARE(dram->value(), 64.0);
        QVERIFY(!view->isModified());

        // Two spin-box entries are two steps; redo brings the drag back.
        stack->redo();
        view->flushPendingUpdate();
        QVERIFY(doc->accelerator().memories[std::size_t(memory)].bandwidthGBps > 64);
        dram->spinBox()->setValue(100);
        dram->spinBox()->setValue(80);
        QCOMPARE(stack->count(), 3);
        stack->undo();
        QCOMPARE(doc->accelerator().memories[std::size_t(memory)].bandwidthGBps, 100.0);

        // Switches, the data type and opening a file are steps too.
        view->panel()->refineBox()->setChecked(true);
        QString error;
        QVERIFY2(window.openFile(example("lenet.json"), &error), qPrintable(error));
        view->flushPendingUpdate();
        QCOMPARE(doc->network().name, std::string("LeNet"));
        stack->undo();
        view->flushPendingUpdate();
        QCOMPARE(doc->network().name, std::string("AlexNet"));
        QCOMPARE(view->result().totalNs, coreResult(*doc).totalNs);
        QVERIFY(doc->options().refine);
        stack->undo();
        QVERIFY(!doc->options().refine);
    }

    void snapshotGhostAndComparison()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixDocument *doc = view->document();
        QVERIFY(view->plot()->ghostMarkers().empty());
        QVERIFY(view->comparisonText().isEmpty());
        QCOMPARE(doc->pinSnapshot(), 0); // "baseline", compared at once
        const AmaixState pinned = doc->state();
        QCOMPARE(view->snapshotBar()->comboBox()->currentText(), QStringLiteral("baseline"));

        quint64 before = view->updateCount();
        view->panel()->slider(QStringLiteral("/memories/DRAM/bandwidth_gbps"))->spinBox()->setValue(128);
        QVERIFY(waitForUpdate(view, before));

        // The ghost markers are the snapshot's own layer markers, from the core.
        const Network &net = doc->network();
        const Result old = evaluate(*pinned.network, pinned.accelerator, pinned.options);
        const auto oldLayers = summarizeLayers(*pinned.network, old);
        const auto expected = layerMarkers(oldLayers, old.totalNs, MarkerColoring::ByUnit);
        const auto &ghost = view->plot()->ghostMarkers();
        QCOMPARE(ghost.size(), expected.size());
        for (std::size_t i = 0; i < ghost.size(); ++i) {
            QCOMPARE(ghost[i].x, expected[i].x);
            QCOMPARE(ghost[i].y, expected[i].y);
        }
        // One arrow per layer that moved, from its ghost marker to its marker now.
        const Result now = coreResult(*doc);
        const auto nowLayers = summarizeLayers(net, now);
        int moved = 0;
        for (const LayerMarker &g : expected) {
            const LayerMarker *m = markerOfRow(view->plot(), g.row); // same network: same rows
            QVERIFY(m);
            if (m->x != g.x || m->y != g.y)
                ++moved;
        }
        QVERIFY2(moved >= 3, qPrintable(QString::number(moved))); // fc6, fc7, fc8 (memory-bound) moved up
        const auto arrows = view->plot()->ghostArrows();
        QCOMPARE(int(arrows.size()), moved);
        for (QCPItemLine *arrow : arrows) {
            const QPointF from = arrow->start->coords(), to = arrow->end->coords();
            const auto g = std::find_if(expected.begin(), expected.end(),
                                        [&](const LayerMarker &m) { return m.x == from.x() && m.y == from.y(); });
            QVERIFY(g != expected.end());
            const LayerMarker *m = markerOfRow(view->plot(), g->row);
            QCOMPARE(to.x(), m->x);
            QCOMPARE(to.y(), m->y);
            ROOFLINE_COMPARE_REL(to.y(), nowLayers[std::size_t(g->row)].performance(), 1e-12);
            QCOMPARE(arrow->head().style(), QCPLineEnding::esSpikeArrow);
        }
        QVERIFY(view->plot()->ghostRoofCount() >= 2); // its compute and memory roofs, faded

        // The readout is the core's comparison.
        const SnapshotComparison c = compareSnapshot(now, summarizeTotals(nowLayers, now), old,
                                                     summarizeTotals(oldLayers, old));
        QVERIFY(view->comparison() == c);
        QVERIFY(c.relativeChange < 0);
        QCOMPARE(view->comparisonText(), QString::fromStdString(summarize(c, "baseline")));
        QVERIFY(view->comparisonLabel()->isVisibleTo(view));
        QCOMPARE(view->comparisonLabel()->text(), view->comparisonText());
        QVERIFY2(view->comparisonText().startsWith(QStringLiteral("Inference %1 ms").arg(formatValue(now.totalNs / 1e6, 4))),
                 qPrintable(view->comparisonText()));
        QVERIFY(view->comparisonText().contains(QStringLiteral("% (\u2212")));

        // Rename, restore (an undoable step), none, delete.
        doc->renameSnapshot(0, QStringLiteral("64 GB/s"));
        QCOMPARE(view->snapshotBar()->comboBox()->itemText(1), QStringLiteral("64 GB/s"));
        doc->restoreSnapshot(0);
        view->flushPendingUpdate();
        QVERIFY(doc->accelerator() == pinned.accelerator);
        QVERIFY(view->plot()->ghostArrows().empty()); // nothing moved
        QVERIFY(view->comparisonText().contains(QStringLiteral("+0.0% (+0 ms) vs 64 GB/s")));
        doc->undoStack()->undo();
        QCOMPARE(doc->accelerator().memories[0].bandwidthGBps, 128.0);
        doc->setComparedSnapshot(-1);
        view->flushPendingUpdate();
        QVERIFY(view->plot()->ghostMarkers().empty());
        QVERIFY(view->plot()->ghostArrows().empty());
        QCOMPARE(view->plot()->ghostRoofCount(), 0);
        QVERIFY(view->comparisonText().isEmpty());
        QVERIFY(!view->comparisonLabel()->isVisibleTo(view));
        doc->setComparedSnapshot(0);
        doc->removeSnapshot(0);
        view->flushPendingUpdate();
        QVERIFY(doc->snapshots().empty());
        QCOMPARE(doc->comparedSnapshot(), -1);
        QVERIFY(view->plot()->ghostMarkers().empty());

        // A snapshot of another network: arrows only for layers of the same name.
        doc->pinSnapshot(QStringLiteral("AlexNet"));
        QString error;
        QVERIFY2(window.openFile(example("lenet.json"), &error), qPrintable(error));
        view->flushPendingUpdate();
        QVERIFY(!view->plot()->ghostMarkers().empty());
        for (QCPItemLine *arrow : view->plot()->ghostArrows())
            QVERIFY(std::isfinite(arrow->end->coords().x()) && arrow->end->coords().x() > 0);
        QVERIFY(!view->comparisonText().contains(QStringLiteral("nan")));

        // VGG-16 does not fit nv_full's CBUF: no NaN anywhere, the readout says why.
        QVERIFY2(window.openFile(example("vgg16.json"), &error), qPrintable(error));
        view->tabs()->setCurrentWidget(view->sensitivityChart());
        view->flushPendingUpdate();
        QVERIFY(!view->result().ok());
        QVERIFY2(view->comparisonText().startsWith(QStringLiteral("The current configuration does not evaluate")),
                 qPrintable(view->comparisonText()));
        QVERIFY(view->sensitivityRows().empty());
        QVERIFY(view->sensitivityChart()->shownRows().empty());
        QVERIFY(view->sensitivityChart()->xAxis->label().startsWith(QStringLiteral("No sensitivity: ")));
        // Back to AlexNet with the VGG-16 state pinned and compared: the baseline is the one that fails.
        doc->pinSnapshot(QStringLiteral("vgg"));
        doc->setComparedSnapshot(1);
        doc->undoStack()->undo(); // LeNet again
        view->flushPendingUpdate();
        QVERIFY2(view->comparisonText().contains(QStringLiteral("vgg does not evaluate: ")), qPrintable(view->comparisonText()));
        QVERIFY(view->plot()->ghostMarkers().empty());
    }

    void sensitivityTabFollowsTheModel()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixDocument *doc = view->document();
        QVERIFY(view->sensitivityRows().empty()); // not computed while its tab is hidden
        view->tabs()->setCurrentWidget(view->sensitivityChart());
        QCOMPARE(view->exportPlot(), view->sensitivityChart());
        auto check = [&](double step) {
            const auto core = sensitivity(doc->network(), doc->accelerator(), doc->options(), step);
            QVERIFY(!core.empty());
            QVERIFY(view->sensitivityRows() == core);
            const auto &shown = view->sensitivityChart()->shownRows();
            QCOMPARE(shown.size(), std::min<std::size_t>(core.size(), SensitivityChart::maxRows));
            const double perNs = 1e-6; // AlexNet on nv_full runs for milliseconds
            for (std::size_t i = 0; i < shown.size(); ++i) {
                QVERIFY(shown[i].label.startsWith(QString::fromStdString(core[i].label)));
                ROOFLINE_COMPARE_REL(shown[i].low, core[i].lowNs * perNs, 1e-12);
                ROOFLINE_COMPARE_REL(shown[i].high, core[i].highNs * perNs, 1e-12);
            }
            auto *high = qobject_cast<QCPBars *>(view->sensitivityChart()->plottable(1));
            QVERIFY(high);
            ROOFLINE_COMPARE_REL(high->baseValue(), view->result().totalNs * perNs, 1e-12);
            QVERIFY(view->sensitivityChart()->xAxis->label().contains(QStringLiteral("(ms)")));
        };
        check(0.1);
        QVERIFY(view->tabs()->tabText(view->tabs()->currentIndex()).contains(QStringLiteral("\u00b110%")));

        // Live: an edit recomputes it.
        const quint64 before = view->updateCount();
        view->panel()->slider(QStringLiteral("/clock_ghz"))->spinBox()->setValue(1.4);
        QVERIFY(waitForUpdate(view, before));
        check(0.1);
        // The step from the preferences.
        view->setSensitivityStep(0.2);
        check(0.2);
        QVERIFY(view->tabs()->tabText(view->tabs()->currentIndex()).contains(QStringLiteral("\u00b120%")));
    }

    void sessionRoundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.session.json"));
        const QString csv = dir.filePath(QStringLiteral("alexnet.csv"));
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("layer,time_us\nconv1,400\ntotal,6000\n");
        }
        MainWindow a;
        AmaixView *va = amaixView(a);
        AmaixDocument *da = va->document();
        QString error;
        QVERIFY(a.openFile(QStringLiteral(":/examples/gables/gables-fig6b.json"), &error)); // the other views' part
        QVERIFY2(a.openFile(csv, &error), qPrintable(error));
        da->setRefine(true);
        da->setDataType(QStringLiteral("int8"));
        da->pinSnapshot(QStringLiteral("int8 refined"));
        // A trip through the general model: the general snapshot keeps nvdla's numbers for a
        // switch back, and back under nvdla the MAC array keeps the peak it had (neither is in
        // an accelerator file: the session carries them beside it).
        Diagnostics d;
        da->setParameter(*resolveParameter(da->accelerator(), "/scaling/t_c", d), 32);
        QVERIFY(da->setScaling(ScalingModel::General, &error));
        da->pinSnapshot(QStringLiteral("general"));
        QVERIFY(da->setScaling(ScalingModel::Nvdla, &error));
        QCOMPARE(da->accelerator().units[std::size_t(da->accelerator().unitIndex("CONV_CORE"))].opsPerCycle, 512.0);
        da->setParameter(*resolveParameter(da->accelerator(), "/memories/DRAM/bandwidth_gbps", d), 96);
        da->pinSnapshot(QStringLiteral("96 GB/s"));
        da->setComparedSnapshot(2);
        da->setParameter(*resolveParameter(da->accelerator(), "/clock_ghz", d), 1.25);
        va->flushPendingUpdate();
        va->panel()->coloringBox()->setCurrentIndex(1);
        va->tabs()->setCurrentWidget(va->sensitivityChart());
        va->plot()->xAxis->setRange(0.5, 500);
        va->plot()->yAxis->setRange(1, 5000);
        QVERIFY(va->isModified());
        QVERIFY2(a.saveSession(path, &error), qPrintable(error));

        MainWindow b;
        QVERIFY2(b.openFile(path, &error), qPrintable(error)); // routed by its "format"
        AmaixView *vb = amaixView(b);
        AmaixDocument *db = vb->document();
        QVERIFY(db->network() == da->network());
        QVERIFY(db->accelerator() == da->accelerator());
        QVERIFY(db->loadedAccelerator() == da->loadedAccelerator());
        QVERIFY(db->options() == da->options());
        QCOMPARE(db->networkPath(), da->networkPath());
        QCOMPARE(db->acceleratorPath(), da->acceleratorPath());
        QCOMPARE(db->measuredPath(), csv);
        QVERIFY(db->measured() && *db->measured() == *da->measured());
        QCOMPARE(db->snapshots().size(), std::size_t(3));
        QCOMPARE(db->snapshots()[1].state.accelerator.scaling, ScalingModel::General);
        QCOMPARE(db->snapshots()[1].state.accelerator.nvdla.tC, 32.0); // the file's default would be 64
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(db->snapshots()[i].name, da->snapshots()[i].name);
            QVERIFY(db->snapshots()[i].state.accelerator == da->snapshots()[i].state.accelerator);
            QVERIFY(db->snapshots()[i].state.options == da->snapshots()[i].state.options);
            QVERIFY(*db->snapshots()[i].state.network == *da->snapshots()[i].state.network);
        }
        QCOMPARE(db->comparedSnapshot(), 2);
        QVERIFY(db->isModified());
        QVERIFY(b.isWindowModified());
        QCOMPARE(db->undoStack()->count(), 0); // a new history
        QCOMPARE(vb->result().totalNs, va->result().totalNs);
        QCOMPARE(vb->comparisonText(), va->comparisonText());
        QCOMPARE(vb->plot()->ghostMarkers().size(), va->plot()->ghostMarkers().size());
        QCOMPARE(vb->plot()->coloring(), MarkerColoring::ByBound);
        QCOMPARE(vb->tabs()->currentWidget(), vb->sensitivityChart());
        QVERIFY(vb->sensitivityRows() == va->sensitivityRows());
        QCOMPARE(vb->plot()->xAxis->range().lower, 0.5);
        QCOMPARE(vb->plot()->yAxis->range().upper, 5000.0);
        QCOMPARE(vb->sessionState().value(QStringLiteral("snapshots")), va->sessionState().value(QStringLiteral("snapshots")));
        QCOMPARE(vb->panel()->slider(QStringLiteral("/clock_ghz"))->value(), 1.25);

        // A bad session is refused whole with the file, the pointer and the reason; the work stays.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        auto patched = [&](auto edit) {
            QJsonObject r = root;
            QJsonObject views = r[QStringLiteral("views")].toObject();
            QJsonObject amaix = views[QStringLiteral("amaix")].toObject();
            edit(amaix);
            views[QStringLiteral("amaix")] = amaix;
            r[QStringLiteral("views")] = views;
            const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
            QFile out(bad);
            if (!out.open(QIODevice::WriteOnly))
                qFatal("cannot write");
            out.write(QJsonDocument(r).toJson());
            return bad;
        };
        const Accelerator accBefore = db->accelerator();
        const int stepsBefore = db->undoStack()->count();
        const QString bad = patched([](QJsonObject &amaix) {
            QJsonArray snapshots = amaix[QStringLiteral("snapshots")].toArray();
            QJsonObject s1 = snapshots[2].toObject();
            QJsonObject state = s1[QStringLiteral("state")].toObject();
            QJsonObject acc = state[QStringLiteral("accelerator")].toObject();
            QJsonObject memories = acc[QStringLiteral("memories")].toObject();
            memories[QStringLiteral("DRAM")] = QJsonObject{{QStringLiteral("bandwidth_gbps"), -3}};
            acc[QStringLiteral("memories")] = memories;
            state[QStringLiteral("accelerator")] = acc;
            s1[QStringLiteral("state")] = state;
            snapshots[2] = s1;
            amaix[QStringLiteral("snapshots")] = snapshots;
        });
        QVERIFY(!b.openSession(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/views/amaix/snapshots/2/state/accelerator"))
                     && error.contains(QStringLiteral("/memories/DRAM/bandwidth_gbps")) && error.contains(QStringLiteral("-3")),
                 qPrintable(error));
        QVERIFY(db->accelerator() == accBefore);
        QCOMPARE(db->snapshots().size(), std::size_t(3));
        QCOMPARE(db->undoStack()->count(), stepsBefore);
        QCOMPARE(vb->result().totalNs, va->result().totalNs);

        // Other kinds of damage: a measured CSV naming a layer the network lacks, a compared index out of range.
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) {
            amaix[QStringLiteral("measured_csv")] = QStringLiteral("layer,time_us\nconv99,1\n");
        }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/measured_csv")) && error.contains(QStringLiteral("conv99")),
                 qPrintable(error));
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) { amaix[QStringLiteral("compared")] = 7; }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/compared")), qPrintable(error));
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) {
            amaix[QStringLiteral("options")] = QJsonObject{{QStringLiteral("data_type"), QStringLiteral("fp64")}};
        }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/options/data_type")) && error.contains(QStringLiteral("fp64")),
                 qPrintable(error));
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) {
            amaix[QStringLiteral("accelerator_extra")] = QJsonObject{{QStringLiteral("nvdla"), QJsonArray{64, 32}}};
        }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/accelerator_extra/nvdla")), qPrintable(error));
        QCOMPARE(db->comparedSnapshot(), 2);
        QVERIFY(db->measured());
    }

    void saveWritesTheAccelerator()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixDocument *doc = view->document();
        QVERIFY(view->canSave());
        QCOMPARE(view->filePath(), example("nv_full.json"));
        view->panel()->slider(QStringLiteral("/scaling/t_c"))->spinBox()->setValue(32);
        QVERIFY(view->isModified());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nv_half.json"));
        QString error;
        QVERIFY2(view->saveFile(path, &error), qPrintable(error));
        QVERIFY(!view->isModified());
        QCOMPARE(view->filePath(), path);
        const AcceleratorLoad back = loadAcceleratorFile(path.toStdString());
        QVERIFY2(back.accelerator, back.diagnostics.toString().c_str());
        QVERIFY(*back.accelerator == doc->accelerator());
        QCOMPARE(back.accelerator->nvdla.tC, 32.0);
        QVERIFY(!view->panel()->resetButton()->isEnabled()); // the saved file is what Reset returns to
        doc->undoStack()->undo();
        QVERIFY(view->isModified());
        QVERIFY(!view->saveFile(QStringLiteral("/nonexistent-dir/a.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/a.json")), qPrintable(error));
    }

    void keyboardOrderAndTooltips()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixPanel *panel = view->panel();
        // Every control of the panel explains itself; every number names its unit.
        for (QWidget *w : panel->findChildren<QWidget *>()) {
            if (qobject_cast<QSlider *>(w) || qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w)
                || qobject_cast<QCheckBox *>(w) || qobject_cast<QPushButton *>(w))
                QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->objectName() + QLatin1Char(' ') + w->metaObject()->className()));
        }
        for (QWidget *w : view->sweep()->findChildren<QWidget *>()) {
            if (qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w) || qobject_cast<QCheckBox *>(w)
                || qobject_cast<QPushButton *>(w))
                QVERIFY2(!w->toolTip().isEmpty(), w->metaObject()->className());
        }
        const QStringList pointers = panel->sliderPointers();
        QVERIFY(pointers.size() >= 10);
        const auto info = settableParameters(view->document()->accelerator(), panel->activeDataType());
        QCOMPARE(int(info.size()), int(pointers.size()));
        for (std::size_t i = 0; i < info.size(); ++i) {
            const QString tip = panel->slider(pointers[int(i)])->slider()->toolTip();
            QVERIFY2(tip.contains(QStringLiteral(", in %1").arg(QString::fromStdString(info[i].unit))), qPrintable(tip));
            QCOMPARE(panel->slider(pointers[int(i)])->spinBox()->toolTip(), tip);
        }
        // Tab goes down the panel: choosers, then each slider and its spin box in order, then Reset.
        QList<QWidget *> order;
        QWidget *w = panel->networkBox();
        for (int guard = 0; guard < 200 && w; ++guard) {
            if (w->isAncestorOf(panel) || !panel->isAncestorOf(w))
                break;
            // A spin box takes focus through its line edit.
            QWidget *control = qobject_cast<QAbstractSpinBox *>(w->parentWidget()) ? w->parentWidget() : w;
            if ((w->focusPolicy() & Qt::TabFocus) && (order.isEmpty() || order.back() != control))
                order << control;
            w = w->nextInFocusChain();
        }
        QList<QWidget *> expected{panel->networkBox(), panel->acceleratorBox(), panel->dataTypeBox(),
                                  panel->scalingBox(), panel->refineBox(), panel->coloringBox()};
        for (const QString &pointer : pointers)
            expected << panel->slider(pointer)->slider() << panel->slider(pointer)->spinBox();
        expected << panel->resetButton();
        QCOMPARE(order.mid(0, expected.size()), expected);
        // After a rebuild (another scaling model) too.
        QComboBox *scaling = panel->scalingBox();
        scaling->setCurrentIndex(scaling->findData(int(ScalingModel::General)));
        emit scaling->activated(scaling->currentIndex());
        view->flushPendingUpdate();
        QWidget *next = panel->coloringBox()->nextInFocusChain();
        while (next && !(next->focusPolicy() & Qt::TabFocus))
            next = next->nextInFocusChain();
        QCOMPARE(next, panel->slider(QStringLiteral("/clock_ghz"))->slider());
        // The view: the plot's tabs, the snapshot row, the table, the CSV button, then the panel.
        QList<QWidget *> viewOrder;
        for (QWidget *v = view->tabs()->tabBar(); v && viewOrder.size() < 40; v = v->nextInFocusChain()) {
            if (v == panel->networkBox())
                break;
            if ((v->focusPolicy() & Qt::TabFocus) && v->isVisibleTo(view) && view->isAncestorOf(v))
                viewOrder << v;
        }
        const int pin = int(viewOrder.indexOf(view->snapshotBar()->pinButton()));
        const int compare = int(viewOrder.indexOf(view->snapshotBar()->comboBox()));
        const int table = int(viewOrder.indexOf(view->table()));
        QVERIFY(pin > 0 && compare > pin && table > compare);
        QPushButton *csv = nullptr;
        for (QPushButton *b : view->findChildren<QPushButton *>()) {
            if (b->text().startsWith(QStringLiteral("Export table as CSV")))
                csv = b;
        }
        QVERIFY(csv);
        QCOMPARE(viewOrder.back(), static_cast<QWidget *>(csv));
        // The snapshot bar's pin has its shortcut.
        QCOMPARE(view->snapshotBar()->pinButton()->shortcut(), QKeySequence(QStringLiteral("Ctrl+P")));
    }

    void reviewBundleHasSnapshotsAndSensitivity()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        view->document()->pinSnapshot();
        view->panel()->slider(QStringLiteral("/clock_ghz"))->spinBox()->setValue(2);
        const auto plots = view->bundlePlots();
        QCOMPARE(plots.size(), 2);
        QCOMPARE(plots[1].plot, static_cast<QCustomPlot *>(view->sensitivityChart()));
        QVERIFY(!view->sensitivityChart()->shownRows().empty()); // drawn although its tab is hidden
        QMap<QString, QByteArray> files;
        for (const auto &f : view->bundleFiles())
            files[f.name] = f.content;
        for (const char *name : {"amaix-stages.csv", "amaix-sensitivity.csv", "amaix-snapshots.csv",
                                 "amaix-accelerator.json", "amaix-network.json", "amaix-snapshot-1-accelerator.json"})
            QVERIFY2(files.contains(QLatin1String(name)), name);
        const QList<QByteArray> tornado = files[QStringLiteral("amaix-sensitivity.csv")].split('\n');
        const auto core = sensitivity(view->document()->network(), view->document()->accelerator(),
                                      view->document()->options(), 0.1);
        QCOMPARE(tornado.size(), int(core.size()) + 2); // header, rows, final newline
        QVERIFY(tornado[1].startsWith("\"" + QByteArray::fromStdString(core[0].label) + "\","));
        const QList<QByteArray> snapshots = files[QStringLiteral("amaix-snapshots.csv")].split('\n');
        QCOMPARE(snapshots.size(), 3);
        const QList<QByteArray> fields = snapshots[1].split(',');
        QCOMPARE(fields[0], QByteArray("\"baseline\""));
        ROOFLINE_COMPARE_REL(fields[2].toDouble(), view->result().totalNs, 1e-12);
        ROOFLINE_COMPARE_REL(fields[4].toDouble(), view->comparison().relativeChange, 1e-12);
        const AcceleratorLoad acc = parseAccelerator(files[QStringLiteral("amaix-accelerator.json")].toStdString(), "bundle");
        QVERIFY(acc.accelerator && *acc.accelerator == view->document()->accelerator());
    }
};

QTEST_MAIN(TestAmaixView)
#include "tst_amaixview.moc"
