// The Brouwer view: the memory slider moves the bars, the curve's current point
// and the totals; the regime switches where F crosses 0; undo, snapshots, --set.
// Helpers: brouwerviewtesting.h.
#include "brouwerviewtesting.h"

#include "goalseekpanel.h"

class TestBrouwerViewPlot : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The view never makes the window wider than a 1280-pixel screen.
    void fitsOnA1280Screen()
    {
        MainWindow window;
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        QApplication::processEvents();
        QVERIFY2(view->minimumSizeHint().width() <= 1200, qPrintable(QString::number(view->minimumSizeHint().width())));
        QVERIFY2(window.minimumSizeHint().width() <= 1280, qPrintable(QString::number(window.minimumSizeHint().width())));
    }

    void startsWithAgeNetOnOurFit()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        QVERIFY(view);
        BrouwerDocument *doc = view->document();
        QCOMPARE(doc->network()->name, QStringLiteral("AgeNet"));
        QVERIFY(doc->devicePath().endsWith(QStringLiteral("edgecaffe-fe.json")));
        QCOMPARE(doc->networks().size(), std::size_t(5)); // the shipped EdgeCaffe networks
        QCOMPARE(doc->devices().size(), std::size_t(4));  // Table 2 (both models) and our two fits
        const Result core = coreResult(*doc);
        QCOMPARE(view->result(), core);
        // One bar per layer in each series; load + exec stacked equal the core's layer totals.
        const int n = int(core.layers.size());
        QCOMPARE(n, 19);
        QCOMPARE(view->barsPlot()->loadStandard()->data()->size(), n);
        for (int i = 0; i < n; ++i) {
            const double stacked = barValue(view->barsPlot()->loadStandard(), i) + barValue(view->barsPlot()->loadSwapping(), i)
                + barValue(view->barsPlot()->execStandard(), i) + barValue(view->barsPlot()->execSwapping(), i);
            ROOFLINE_COMPARE_REL(stacked, core.layers[std::size_t(i)].totalMs(false), 1e-12);
        }
        QCOMPARE(view->layerModel()->rowCount(), n);
        QVERIFY(view->coefficientTable()->rowCount() > 0);
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("per inference")));
    }

    // Table 2 stays selectable, labelled as the seed's shape; the time axes speak
    // µs, ms or s by magnitude (the data stay in ms), never e-notation.
    void seedTable2IsTheShapeAndAxesAreScaled()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        const int table2 = deviceIndex(*doc, QStringLiteral("seed-table2-fe.json"));
        QVERIFY(table2 >= 0);
        QComboBox *devices = view->panel()->deviceBox();
        QVERIFY2(devices->itemText(table2).contains(QStringLiteral("the seed's shape")), qPrintable(devices->itemText(table2)));
        QVERIFY(devices->itemData(table2, Qt::ToolTipRole).toString().contains(QStringLiteral("not calibrated times")));
        const int ours = deviceIndex(*doc, QStringLiteral("edgecaffe-fe.json"));
        QVERIFY(!devices->itemText(ours).contains(QStringLiteral("shape")));
        QVERIFY(!view->panel()->readout()->text().contains(QStringLiteral("The seed's shape")));

        // Every tick label is the coordinate (ms) in the axis' unit, plainly written.
        auto checkAxis = [](QCustomPlot *plot, QCPAxis *axis, const QString &unit, double msPerUnit) {
            plot->replot();
            QVERIFY2(axis->label().endsWith(QStringLiteral("(%1)").arg(unit)), qPrintable(axis->label()));
            const QVector<double> ticks = axis->tickVector();
            const QVector<QString> labels = axis->tickVectorLabels();
            QVERIFY(!ticks.isEmpty());
            for (int i = 0; i < ticks.size(); ++i) {
                // "2.5e+10" is drawn as 2.5·10¹⁰ when the number format asks for beautiful powers ('b').
                QVERIFY2(!labels[i].contains(QLatin1Char('e')) || axis->numberFormat().contains(QLatin1Char('b')),
                         qPrintable(labels[i]));
                bool plain = false;
                double shown = plot->locale().toDouble(labels[i], &plain);
                if (!plain)
                    plain = true, shown = labels[i].toDouble(&plain); // C-locale e-notation, drawn as a power
                QVERIFY2(plain, qPrintable(labels[i]));
                ROOFLINE_COMPARE_REL(shown, ticks[i] / msPerUnit, 1e-5);
            }
        };

        // Our fit at 24 MiB: ms per layer.
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const double ourTop = view->barsPlot()->yAxis->range().upper / 1.18;
        QVERIFY(ourTop > 1 && ourTop < 1000);
        QCOMPARE(view->barsPlot()->timeUnit(), QStringLiteral("ms"));
        checkAxis(view->barsPlot(), view->barsPlot()->yAxis, QStringLiteral("ms"), 1);
        QCOMPARE(view->barsPlot()->yAxis->label(), QStringLiteral("Time per layer (ms)"));

        // Table 2 at 24 MiB: AgeNet's fc6 takes 10^8 s and more, written in s.
        doc->selectDevice(table2);
        view->flushPendingUpdate();
        QVERIFY(view->result().totalMs(false) > 1e11);
        QCOMPARE(view->barsPlot()->timeUnit(), QStringLiteral("s"));
        checkAxis(view->barsPlot(), view->barsPlot()->yAxis, QStringLiteral("s"), 1e3);
        QCOMPARE(view->curvePlot()->timeUnit(), QStringLiteral("s"));
        checkAxis(view->curvePlot(), view->curvePlot()->yAxis, QStringLiteral("s"), 1e3);
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("The seed's shape")));
        // The bars' data stay in ms: the stacked bars equal the core's layer totals.
        const Result core = coreResult(*doc);
        const int fc6 = layerIndex(*doc, "fc6");
        ROOFLINE_COMPARE_REL(barValue(view->barsPlot()->loadSwapping(), fc6) + barValue(view->barsPlot()->execSwapping(), fc6),
                             core.layers[std::size_t(fc6)].totalMs(false), 1e-12);
    }

    // Our LASSO device was fitted without a memory limit: under one, the swapping
    // layers are predicted by extrapolation and hatched as uncalibrated.
    void lassoSwappingLayersAreHatched()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("edgecaffe-lasso.json")));
        doc->setAvailableBytes(1024.0 * 1024 * 1024);
        view->flushPendingUpdate();
        QCOMPARE(view->result().swappingLayers, 0);
        QCOMPARE(view->barsPlot()->uncalibrated()->data()->size(), 0);
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const int fc6 = layerIndex(*doc, "fc6");
        QCOMPARE(view->result().swappingLayers, 1);
        QVERIFY(view->result().layers[std::size_t(fc6)].swapping());
        QCOMPARE(view->barsPlot()->uncalibrated()->data()->size(), 1);
        QCOMPARE(int(std::lround(view->barsPlot()->uncalibrated()->data()->constBegin()->key)), fc6);
        QVERIFY(view->result().layers[std::size_t(fc6)].exec.ms > 0); // predicted all the same
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("hatched")));
    }

    // AgeNet's fc6 by hand: I = 384·7·7 = 18,816, P = 18,816·512 + 512 = 9,634,304,
    // O = 512; required = 9,653,632 elements = 38,614,528 B at 4 B per element.
    void memorySliderSwitchesRegimeWhereOverflowCrossesZero()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json"))); // both regimes calibrated
        view->flushPendingUpdate();
        const int fc6 = layerIndex(*doc, "fc6");
        QVERIFY(fc6 >= 0);
        const LayerFeatures &f = doc->network()->layers[std::size_t(fc6)];
        QCOMPARE(f.inputs, 18816.0);
        QCOMPARE(f.parameters, 9634304.0);
        QCOMPARE(f.outputs, 512.0);
        const double required = 9653632.0 * 4;

        QSlider *slider = view->panel()->memorySlider();
        const SliderScale scale = BrouwerPanel::memoryScale();
        // Sweep the real slider from 16 MiB upwards; fc6 swaps exactly while the memory is below its requirement.
        int switched = -1;
        for (int position = 0; position <= scale.toPosition(64.0 * 1024 * 1024); position += 3) {
            const quint64 before = view->updateCount();
            slider->setValue(position);
            QVERIFY(waitForUpdate(view, before));
            const double bytes = doc->params().availableBytes;
            ROOFLINE_COMPARE_REL(bytes, scale.toValue(position), 1e-12);
            const LayerPrediction &l = view->result().layers[std::size_t(fc6)];
            const double overflow = std::max(0.0, 9653632.0 - std::floor(bytes / 4));
            QCOMPARE(l.overflow, overflow);
            QCOMPARE(l.swapping(), bytes < required);
            // What the bars show: fc6's execution in the swapping series or the standard one, never both.
            QCOMPARE(barValue(view->barsPlot()->execSwapping(), fc6) > 0, bytes < required);
            QCOMPARE(barValue(view->barsPlot()->execStandard(), fc6) > 0, bytes >= required);
            // The total is the core's, and the curve's current point sits on it.
            const Result core = coreResult(*doc);
            ROOFLINE_COMPARE_REL(view->result().totalMs(false), core.totalMs(false), 1e-12);
            QCOMPARE(view->curvePlot()->currentGraph()->data()->size(), 1);
            ROOFLINE_COMPARE_REL(view->curvePlot()->currentGraph()->data()->constBegin()->value, core.totalMs(false), 1e-12);
            ROOFLINE_COMPARE_REL(view->curvePlot()->currentGraph()->data()->constBegin()->key, bytes / 1048576.0, 1e-12);
            if (switched < 0 && !l.swapping())
                switched = position;
        }
        QVERIFY(switched > 0);
        QVERIFY(scale.toValue(switched) >= required);
        QVERIFY(scale.toValue(switched - 3) < required);

        // Exactly at the requirement: standard; one byte less: swapping (F = 1 element short, read as 1).
        QLineEdit *field = view->panel()->memoryField();
        field->setText(QString::number(required, 'f', 0));
        QMetaObject::invokeMethod(field, "editingFinished");
        view->flushPendingUpdate();
        QCOMPARE(doc->params().availableBytes, required);
        QVERIFY(!view->result().layers[std::size_t(fc6)].swapping());
        field->setText(QString::number(required - 1, 'f', 0));
        QMetaObject::invokeMethod(field, "editingFinished");
        view->flushPendingUpdate();
        QVERIFY(view->result().layers[std::size_t(fc6)].swapping());
        QCOMPARE(view->result().layers[std::size_t(fc6)].overflow, 1.0);
        // A size out of range is refused with a message; the memory stays.
        field->setText(QStringLiteral("3 TB"));
        QMetaObject::invokeMethod(field, "editingFinished");
        QCOMPARE(doc->params().availableBytes, required - 1);
        QVERIFY(view->messageLabel()->text().contains(QStringLiteral("16 MiB to 16 GiB")));
    }

    void curveHasAKneeAtEachLayersRequirement()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        view->flushPendingUpdate();
        const Curve core = memoryCurve(*doc->device(), doc->network()->layers, 4, BrouwerDocument::kMinMemory,
                                       BrouwerDocument::kMaxMemory, 160);
        QCOMPARE(view->curve().knees, core.knees);
        QCOMPARE(view->curve().points.size(), core.points.size());
        QCOMPARE(view->curvePlot()->curveGraph()->data()->size(), int(core.points.size()));
        // AgeNet: only fc6 needs more than 16 MiB, so there is one knee, at 38,614,528 B.
        QCOMPARE(core.knees.size(), std::size_t(1));
        QCOMPARE(core.knees[0].layer, std::string("fc6"));
        QCOMPARE(core.knees[0].bytes, 9653632.0 * 4);
        QCOMPARE(view->curvePlot()->kneeGraph()->data()->size(), 1);
        ROOFLINE_COMPARE_REL(view->curvePlot()->kneeGraph()->data()->constBegin()->key, 9653632.0 * 4 / 1048576.0, 1e-12);
        // Below the knee the total is larger (Table 2: swapping costs), above it flat.
        QVERIFY(core.points.front().totalMs > core.points.back().totalMs);
        // The bytes per element move the knee: at 2 B it halves.
        view->panel()->bytesPerElementBox()->setValue(2);
        view->flushPendingUpdate();
        QCOMPARE(doc->params().bytesPerElement, 2.0);
        QCOMPARE(view->curve().knees.at(0).bytes, 9653632.0 * 2);
    }

    void dragIsOneUndoStep()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        const double start = doc->params().availableBytes;
        QSlider *slider = view->panel()->memorySlider();
        const int steps = doc->undoStack()->count();
        slider->setSliderDown(true); // press: the drag starts
        emit slider->sliderPressed();
        for (int p = 100; p < 400; p += 20)
            slider->setValue(p);
        slider->setSliderDown(false);
        emit slider->sliderReleased();
        view->flushPendingUpdate();
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QVERIFY(doc->params().availableBytes != start);
        doc->undoStack()->undo();
        view->flushPendingUpdate();
        QCOMPARE(doc->params().availableBytes, start);
        QCOMPARE(view->result(), coreResult(*doc));
        QCOMPARE(slider->value(), BrouwerPanel::memoryScale().toPosition(start));
    }

    void snapshotIsComparedOnBarsAndCurve()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        doc->setAvailableBytes(1024.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const double baseline = view->result().totalMs(false);
        const int pinned = doc->pinSnapshot();
        QCOMPARE(doc->comparedSnapshot(), pinned);
        doc->setAvailableBytes(20.0 * 1024 * 1024); // fc6 swaps
        view->flushPendingUpdate();
        QCOMPARE(view->barsPlot()->comparedGraph()->data()->size(), 19);
        QVERIFY(view->curvePlot()->comparedGraph()->data()->size() > 100);
        QVERIFY(view->comparisonLabel()->isVisibleTo(view));
        QVERIFY(view->comparisonText().contains(QStringLiteral("baseline")));
        QVERIFY(view->result().totalMs(false) > baseline);
        doc->restoreSnapshot(pinned);
        view->flushPendingUpdate();
        ROOFLINE_COMPARE_REL(view->result().totalMs(false), baseline, 1e-12);
    }

    // Goal seek through its tab: the least memory for a total time, applied as one step.
    void goalSeekFindsTheKnee()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        doc->setAvailableBytes(20.0 * 1024 * 1024);
        view->flushPendingUpdate();
        QVERIFY(view->result().swappingLayers == 1);
        const double fits = evaluate(*doc->device(), doc->network()->layers, {1e9, 4}).totalMs(false);
        GoalSeekPanel *panel = view->goalSeekPanel();
        panel->valueBox()->setValue(fits * 1.5);
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY2(panel->lastResult().found(), panel->lastResult().message.c_str());
        QVERIFY(std::abs(panel->lastResult().value - 9653632.0 * 4) <= 1);
        QVERIFY(panel->resultLabel()->text().contains(QStringLiteral("36.83 MiB")));
        const int steps = doc->undoStack()->count();
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        view->flushPendingUpdate();
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QCOMPARE(view->result().swappingLayers, 0);
        QVERIFY(view->result().totalMs(false) <= fits * 1.5);
    }

    void setOverrideAndSensitivity()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        QString error;
        QVERIFY2(view->applyOverride(QStringLiteral("/memory=512MB"), &error), qPrintable(error));
        QCOMPARE(view->document()->params().availableBytes, 512.0 * 1024 * 1024);
        QVERIFY(view->applyOverride(QStringLiteral("/bytes_per_element=2"), &error));
        QCOMPARE(view->document()->params().bytesPerElement, 2.0);
        QVERIFY(!view->applyOverride(QStringLiteral("/memory=lots"), &error));
        QVERIFY2(error.contains(QStringLiteral("/memory")) && error.contains(QStringLiteral("lots")), qPrintable(error));
        QVERIFY(!view->applyOverride(QStringLiteral("/clock=1"), &error));
        QCOMPARE(view->document()->params().availableBytes, 512.0 * 1024 * 1024);
        view->tabs()->setCurrentWidget(view->sensitivityChart());
        QCOMPARE(view->sensitivityChart()->shownRows().size(), std::size_t(2));
    }
};

QTEST_MAIN(TestBrouwerViewPlot)
#include "tst_brouwerview_plot.moc"
