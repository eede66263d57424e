// The AMAIX view: sliders move markers, roofs and totals; table and plot linked; sweeps; keyboard order.
// Helpers and the suite as a whole: amaixviewtesting.h.
#include "amaixviewtesting.h"

#include <QRegularExpression>
#include <QTextDocument>

class TestAmaixViewPlot : public QObject
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
        QVERIFY(view->totalsLabel()->text().contains(QStringLiteral("FPS")));
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

    // A slider move announces only the table cells that read differently, a
    // column's run of rows at a time, so the table repaints those cells and not
    // every one it shows (docs/performance.md): on ResNet-50, DRAM bandwidth
    // and clock moves, every cell whose text, sort value or colour changed is
    // announced (none missed), the untouched columns (names, types, bytes) are
    // not, and the table reads the core's numbers afterwards.
    void sliderMoveAnnouncesOnlyTheChangedCells()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        AmaixView *view = amaixView(window);
        window.setCurrentView(view);
        QString error;
        QVERIFY2(window.openFile(example("resnet50.json"), &error), qPrintable(error));
        AmaixTableModel *model = view->tableModel();
        const int rows = model->rowCount(), columns = model->columnCount();
        QVERIFY(rows > 100);
        auto cells = [&] {
            std::vector<QVariant> all;
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < columns; ++c)
                    for (int role : {int(Qt::DisplayRole), AmaixTableModel::SortRole, int(Qt::ForegroundRole)})
                        all.push_back(model->index(r, c).data(role));
            return all;
        };
        QSignalSpy announced(model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(model, &QAbstractItemModel::modelReset);
        const QStringList pointers{QStringLiteral("/memories/DRAM/bandwidth_gbps"), QStringLiteral("/clock_ghz")};
        int changedCells = 0, announcedCells = 0;
        for (int step = 0; step < 6; ++step) {
            QSlider *slider = view->panel()->slider(pointers[step % 2])->slider();
            const std::vector<QVariant> before = cells();
            announced.clear();
            const quint64 updates = view->updateCount();
            slider->setValue(slider->value() + (step < 2 ? -90 : 45));
            QVERIFY(waitForUpdate(view, updates));
            const std::vector<QVariant> after = cells();
            std::vector<char> covered(std::size_t(rows * columns), 0);
            for (const QList<QVariant> &signal : announced) {
                const QModelIndex tl = signal[0].toModelIndex(), br = signal[1].toModelIndex();
                QCOMPARE(tl.column(), br.column()); // runs of one column
                for (int r = tl.row(); r <= br.row(); ++r)
                    covered[std::size_t(r * columns + tl.column())] = 1;
            }
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < columns; ++c) {
                    bool changed = false;
                    for (int k = 0; k < 3; ++k) {
                        const std::size_t i = std::size_t((r * columns + c) * 3 + k);
                        changed = changed || before[i] != after[i];
                    }
                    changedCells += changed;
                    announcedCells += covered[std::size_t(r * columns + c)];
                    QVERIFY2(!changed || covered[std::size_t(r * columns + c)],
                             qPrintable(QStringLiteral("step %1: row %2 column %3 changed unannounced").arg(step).arg(r).arg(c)));
                }
            for (int c : {int(AmaixTableModel::Name), int(AmaixTableModel::Type), int(AmaixTableModel::Ops),
                          int(AmaixTableModel::DTotal), int(AmaixTableModel::Intensity)})
                for (int r = 0; r < rows; ++r)
                    QVERIFY2(!covered[std::size_t(r * columns + c)], qPrintable(QStringLiteral("column %1 announced").arg(c)));
            // The numbers are the core's.
            const Result core = coreResult(*view->document());
            const auto layers = summarizeLayers(view->document()->network(), core);
            for (int r = 0; r < rows; r += 17)
                ROOFLINE_COMPARE_REL(model->index(r, AmaixTableModel::Time).data(AmaixTableModel::SortRole).toDouble(),
                                     layers[std::size_t(r)].timeNs / 1000, 1e-12);
        }
        QCOMPARE(reset.count(), 0);
        QVERIFY(changedCells > 0);
        // A third of the table at most (it was all of it).
        QVERIFY2(announcedCells * 3 < 6 * rows * columns,
                 qPrintable(QStringLiteral("%1 of %2 cells announced").arg(announcedCells).arg(6 * rows * columns)));
    }

    // The roofline plot is painted with the rest of the window: a slider step
    // paints the window for the slider's own frame and once for the update,
    // not a third time for an immediate repaint() of the plot before the
    // readouts' pass; the panel's readout lays its new text out once
    // (docs/performance.md).
    void replotIsPaintedWithTheWindow()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        AmaixView *view = amaixView(window);
        window.setCurrentView(view);
        QSlider *slider = view->panel()->slider(QStringLiteral("/memories/DRAM/bandwidth_gbps"))->slider();
        const auto step = [&](int delta) {
            const quint64 updates = view->updateCount();
            slider->setValue(slider->value() + delta);
            const bool updated = waitForUpdate(view, updates);
            for (int i = 0; i < 5; ++i)
                QCoreApplication::processEvents();
            return updated;
        };
        QVERIFY(step(5)); // the first paints after showing cover the whole window
        QVERIFY(step(-5));
        int plotPaints = 0, windowPaints = 0;
        EventCounter plot(view->plot(), QEvent::Paint, &plotPaints);
        EventCounter whole(&window, QEvent::Paint, &windowPaints);
        const int layouts = view->panel()->readout()->layouts();
        const int totalsLayouts = view->totalsLabel()->layouts(), totalsPaints = view->totalsLabel()->paints();
        const int steps = 6;
        for (int i = 0; i < steps; ++i) {
            const double before = view->document()->accelerator().memories.front().bandwidthGBps;
            QVERIFY(step(i % 2 ? -30 : 45));
            QVERIFY(view->document()->accelerator().memories.front().bandwidthGBps != before);
        }
        QCOMPARE(plotPaints, steps);
        QVERIFY2(windowPaints <= 2 * steps, qPrintable(QString::number(windowPaints))); // before: 3 a step
        // The panel's readout: its new text laid out once, for its height and its paint.
        QCOMPARE(view->panel()->readout()->layouts() - layouts, steps);
        QVERIFY(view->panel()->readout()->text().contains(formatValue(view->result().fps)));
        // The totals row too (a QLabel laid rich text out again in each paint), painted once a step.
        QCOMPARE(view->totalsLabel()->layouts() - totalsLayouts, steps);
        QCOMPARE(view->totalsLabel()->paints() - totalsPaints, steps);
        QVERIFY(view->totalsLabel()->text().contains(formatValue(view->totals().fps)));
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

    // Issue 13: the plot names the layers that matter (largest time shares,
    // the selected one) and no two names overlap; the table's cells carry
    // readable units; the totals stay on one line with the performance sheet
    // explained; the sweep's axes are plain names with units.
    void namesUnitsAndAxes()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        AmaixView *view = amaixView(window);
        window.setCurrentView(view);
        view->flushPendingUpdate();
        AmaixPlot *plot = view->plot();
        plot->replot();
        const auto &layers = view->layers();
        const auto largest = std::max_element(layers.begin(), layers.end(),
                                              [](const LayerSummary &a, const LayerSummary &b) { return a.timeNs < b.timeNs; });
        const QString largestName = QString::fromStdString(view->document()->network().layers[std::size_t(largest->layer)].name);
        QStringList names = plot->markerNames();
        QVERIFY2(names.contains(largestName), qPrintable(names.join(QLatin1Char(','))));
        QVERIFY(names.size() <= 6);
        // A small layer named once selected.
        const auto smallest = std::min_element(layers.begin(), layers.end(), [](const LayerSummary &a, const LayerSummary &b) {
            return (a.onHost || a.pipelined ? 1e300 : a.timeNs) < (b.onHost || b.pipelined ? 1e300 : b.timeNs);
        });
        const QString smallName = QString::fromStdString(view->document()->network().layers[std::size_t(smallest->layer)].name);
        QVERIFY(!plot->markerNames().contains(smallName));
        view->selectLayer(smallest->layer);
        plot->replot();
        QVERIFY2(plot->markerNames().contains(smallName), qPrintable(plot->markerNames().join(QLatin1Char(','))));

        // Units in the cells, no e-notation anywhere.
        const QRegularExpression bytes(QStringLiteral("^[0-9.]+ [kMGT]?B$"));
        const QRegularExpression time(QStringLiteral("^([0-9.]+ (ns|µs|ms|s)|0)$"));
        for (int row = 0; row < view->proxyModel()->rowCount(); ++row) {
            for (int column = 0; column < view->proxyModel()->columnCount(); ++column) {
                const QString text = view->proxyModel()->index(row, column).data().toString();
                QVERIFY2(!text.contains(QStringLiteral("e+")) && !text.contains(QStringLiteral("e-")), qPrintable(text));
            }
            const QString weights = view->proxyModel()->index(row, AmaixTableModel::DWeight).data().toString();
            QVERIFY2(bytes.match(weights).hasMatch(), qPrintable(weights));
            const QString t = view->proxyModel()->index(row, AmaixTableModel::Time).data().toString();
            QVERIFY2(time.match(t).hasMatch() || t == QStringLiteral("–"), qPrintable(t));
        }
        QVERIFY(!view->totalsLabel()->wordWrap());
        QVERIFY(!view->totalsLabel()->text().contains(QStringLiteral("<br")));
        {
            // ...and fits the window at 1280×800: nothing cut at the right.
            QTextDocument doc;
            doc.setDefaultFont(view->totalsLabel()->font());
            doc.setDocumentMargin(0);
            doc.setHtml(view->totalsLabel()->text());
            QVERIFY2(doc.idealWidth() <= view->totalsLabel()->width(),
                     qPrintable(QStringLiteral("%1 > %2").arg(doc.idealWidth()).arg(view->totalsLabel()->width())));
        }
        QVERIFY(view->totalsLabel()->toolTip().contains(QStringLiteral("Performance sheet")));

        QComboBox *x = view->sweep()->parameterBox(0);
        const int clock = x->findData(QStringLiteral("/clock_ghz"));
        QVERIFY(clock >= 0);
        QCOMPARE(x->itemText(clock), QStringLiteral("Clock (GHz)"));
        QVERIFY(x->itemData(clock, Qt::ToolTipRole).toString().contains(QStringLiteral("/clock_ghz")));
        for (int i = 0; i < x->count(); ++i)
            QVERIFY2(!x->itemText(i).startsWith(QLatin1Char('/')) && !x->itemText(i).contains(QStringLiteral("_gbps")),
                     qPrintable(x->itemText(i))); // a name, never a JSON pointer
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
        auto *csv = view->findChild<QPushButton *>(QStringLiteral("exportTableCsv"));
        QVERIFY(csv);
        QCOMPARE(viewOrder.back(), static_cast<QWidget *>(csv));
        // The snapshot bar's pin has its shortcut.
        QCOMPARE(view->snapshotBar()->pinButton()->shortcut(), QKeySequence(QStringLiteral("Ctrl+P")));
    }
};

QTEST_MAIN(TestAmaixViewPlot)

#include "tst_amaixview_plot.moc"
