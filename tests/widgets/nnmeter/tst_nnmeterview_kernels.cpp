// The nn-Meter view's kernels: the tree and the bars show the core's
// detection and prediction; a real rule check box detects again and redraws;
// undo brings the kernels back; the tree and the chart select each other.
#include "nnmeterviewtesting.h"

#include <QClipboard>

class TestNnmeterViewKernels : public QObject
{
    Q_OBJECT
private slots:
    void defaultShowsTheCoresPrediction()
    {
        NnmeterView view(new NnmeterDocument);
        // ResNet-50 (shipped, v1 with batch norm) on the mobile CPU of the seed.
        QCOMPARE(QString::fromStdString(view.document()->network().name), QStringLiteral("ResNet-50"));
        QVERIFY(view.document()->device() == sourceDevice("cortexa76_tflite_cpu.device.json"));
        const Prediction core = corePrediction(view.document());
        QVERIFY(view.prediction() == core);
        QCOMPARE(countType(core, "conv-bn-relu"), 33);
        // The tree: one top-level item per kernel, its members as children.
        QCOMPARE(view.kernelTree()->topLevelItemCount(), int(core.detection.kernels.size()));
        for (int k = 0; k < view.kernelTree()->topLevelItemCount(); ++k)
            QCOMPARE(view.kernelTree()->topLevelItem(k)->childCount(), int(core.detection.kernels[std::size_t(k)].layers.size()));
        // The bars: one per kernel, heights in the axis unit, summing to the kernel sum.
        const std::vector<double> &bars = view.plot()->barValues();
        QCOMPARE(bars.size(), core.detection.kernels.size());
        double sum = 0;
        for (std::size_t i = 0; i < bars.size(); ++i) {
            ROOFLINE_COMPARE_REL(bars[i] / view.plot()->unitPerMs(), core.kernels[i].ms, 1e-12);
            sum += bars[i];
        }
        ROOFLINE_COMPARE_REL(sum / view.plot()->unitPerMs(), core.kernelSumMs, 1e-9);
        QCOMPARE(view.plot()->valueUnit(), QStringLiteral("ms"));
        QVERIFY(view.plot()->yAxis->label().contains(QStringLiteral("(ms)")));
        QVERIFY(view.plot()->barsOf(QStringLiteral("conv-bn-relu")));
        QVERIFY(view.readout()->text().contains(QStringLiteral("Kernel sum")));
        QVERIFY(view.summary().contains(QStringLiteral("73 kernels")));
        // The totals chart: kernel sum, operator sum, FLOPs estimate as the core has them.
        auto *bars3 = qobject_cast<QCPBars *>(view.totalsChart()->plottable(0));
        QVERIFY(bars3);
        ROOFLINE_COMPARE_REL(bars3->data()->at(0)->value, core.kernelSumMs, 1e-12);
        ROOFLINE_COMPARE_REL(bars3->data()->at(1)->value, core.operatorSumMs, 1e-12);
        ROOFLINE_COMPARE_REL(bars3->data()->at(2)->value, core.flopsMs, 1e-12);
        QVERIFY(core.operatorSumMs > core.kernelSumMs); // what fusion saves
    }

    void bnReluCheckBoxSplitsKernels()
    {
        NnmeterView view(new NnmeterDocument);
        view.resize(1600, 1000);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const Prediction before = view.prediction();
        QCheckBox *box = view.panel()->ruleBox("bn_relu");
        QVERIFY(box);
        QVERIFY(box->isChecked());
        QVERIFY(box->text().contains(QStringLiteral("33×")));
        const quint64 updates = view.updateCount();
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QVERIFY(waitForUpdate(&view, updates));
        QVERIFY(!box->isChecked());
        QVERIFY(box->property("changed").toBool());
        QVERIFY(box->toolTip().contains(QStringLiteral("changed from the rule set")));
        // Each conv-bn-relu becomes conv-bn + relu: 33 more kernels, none conv-bn-relu.
        const Prediction after = view.prediction();
        QCOMPARE(after.detection.kernels.size(), before.detection.kernels.size() + 33);
        QCOMPARE(countType(after, "conv-bn-relu"), 0);
        QVERIFY(after == corePrediction(view.document()));
        FusionRules expected = sourceDevice("cortexa76_tflite_cpu.device.json").rules;
        expected.pairs["bn_relu"].fuses = false;
        QVERIFY(after == predictNetwork(view.document()->network(), view.document()->device(), expected));
        QCOMPARE(view.kernelTree()->topLevelItemCount(), int(after.detection.kernels.size()));
        QCOMPARE(view.plot()->barValues().size(), after.detection.kernels.size());
        QVERIFY(!view.plot()->barsOf(QStringLiteral("conv-bn-relu")));
        QVERIFY(view.plot()->barsOf(QStringLiteral("relu")));
        // The relu tensors now go to memory and back: a longer kernel sum.
        QVERIFY(after.kernelSumMs > before.kernelSumMs);
        QVERIFY(view.panel()->resetRulesButton()->isEnabled());

        // One undo step brings the fused kernels back.
        QCOMPARE(view.undoStack()->count(), 1);
        const quint64 undone = view.updateCount();
        view.undoStack()->undo();
        QVERIFY(waitForUpdate(&view, undone));
        QVERIFY(view.prediction() == before);
        QVERIFY(box->isChecked());
        QCOMPARE(view.kernelTree()->topLevelItemCount(), int(before.detection.kernels.size()));
        view.undoStack()->redo();
        view.flushPendingUpdate();
        QCOMPARE(countType(view.prediction(), "conv-bn-relu"), 0);
        view.panel()->resetRulesButton()->click();
        view.flushPendingUpdate();
        QVERIFY(view.prediction() == before);
    }

    // What a rule toggle redraws (issue 15): not the totals chart while the sensitivity tab
    // hides it, then once, with the current totals, when it shows. The kernel rows' tooltips
    // (written when asked for) say what they said.
    void ruleToggleRedrawsNoHiddenChart()
    {
        NnmeterView view(new NnmeterDocument);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        int totalsReplots = 0;
        connect(view.totalsChart(), &QCustomPlot::afterReplot, this, [&] { ++totalsReplots; });
        QCheckBox *boxes[] = {view.panel()->ruleBox("bn_relu"), view.panel()->ruleBox("conv_bn")};
        QVERIFY(boxes[0] && boxes[1]);
        const auto toggle = [&](QCheckBox *box) {
            const quint64 updates = view.updateCount();
            const int kernels = view.kernelTree()->topLevelItemCount();
            box->click();
            return waitForUpdate(&view, updates) && view.kernelTree()->topLevelItemCount() != kernels;
        };
        for (QCheckBox *box : boxes)
            QVERIFY(toggle(box));
        QCOMPARE(totalsReplots, 2);
        view.bottomTabs()->setCurrentWidget(view.sensitivityChart());
        QCoreApplication::processEvents();
        totalsReplots = 0;
        for (QCheckBox *box : boxes)
            QVERIFY(toggle(box));
        QCOMPARE(totalsReplots, 0);
        view.bottomTabs()->setCurrentWidget(view.totalsChart());
        QCOMPARE(totalsReplots, 1); // shown: drawn with the current totals
        auto *bars = qobject_cast<QCPBars *>(view.totalsChart()->plottable(0));
        QVERIFY(bars);
        ROOFLINE_COMPARE_REL(bars->data()->at(0)->value, view.prediction().kernelSumMs, 1e-12);
        const QString tip = view.kernelTree()->topLevelItem(0)->toolTip(0);
        QVERIFY2(tip.contains(QStringLiteral("operator(s)")) && tip.contains(QStringLiteral("moved; input")), qPrintable(tip));
        QTreeWidgetItem *op = view.kernelTree()->topLevelItem(0)->child(0);
        QVERIFY(op && op->text(0).startsWith(op->toolTip(0) + QStringLiteral(" (")));
        // The snapshot's step line (one pixel wide since issue 15), to look at.
        if (const QString dir = qEnvironmentVariable("ROOFLINE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            view.document()->pinSnapshot(QStringLiteral("before"));
            QVERIFY(toggle(boxes[0]));
            for (const QSize size : {QSize(1920, 1080), QSize(1280, 800)}) {
                view.resize(size);
                QCoreApplication::processEvents();
                view.grab().save(QStringLiteral("%1/nnmeter-ghost-%2.png").arg(dir).arg(size.width()));
            }
        }
    }

    void ruleToggleDoesNoWorkTwice()
    {
        // What a rule toggle no longer does (issue 12, docs/performance.md 2026-11-27 afternoon):
        // predict the compared snapshot again, lay the chart's legend and title texts out about
        // ten times each, reset the tree's model (every row made anew), paint the readout twice;
        // and the bars, now filled as rectangles, are drawn in their types' colours.
        NnmeterView view(new NnmeterDocument);
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.document()->pinSnapshot(QStringLiteral("fused"));
        QCOMPARE(view.document()->comparedSnapshot(), 0);
        view.flushPendingUpdate();
        QCoreApplication::processEvents();
        const quint64 ghost = view.ghostPredictions();
        QVERIFY(ghost >= 1);
        QTreeWidget *tree = view.kernelTree();
        int resets = 0;
        connect(tree->model(), &QAbstractItemModel::modelReset, this, [&] { ++resets; });
        const int measured = view.plot()->textMeasurements();
        const int paints = view.readout()->paints();
        const int readoutLayouts = view.readout()->layouts();
        // The totals chart's series and legend entries are kept (issue 12, evening): made anew on
        // every toggle before, each with a new legend entry to measure and lay out.
        QCustomPlot *totals = view.totalsChart();
        QCOMPARE(totals->plottableCount(), 2); // current and the compared snapshot
        int totalsDestroyed = 0;
        QObject watching; // goes before totalsDestroyed does (the view's end destroys the series)
        for (int i = 0; i < totals->plottableCount(); ++i)
            connect(totals->plottable(i), &QObject::destroyed, &watching, [&] { ++totalsDestroyed; });
        for (int i = 0; i < totals->legend->itemCount(); ++i)
            connect(totals->legend->item(i), &QObject::destroyed, &watching, [&] { ++totalsDestroyed; });
        QCheckBox *boxes[] = {view.panel()->ruleBox("bn_relu"), view.panel()->ruleBox("conv_bn")};
        QVERIFY(boxes[0] && boxes[1]);
        const int toggles = 4;
        for (int i = 0; i < toggles; ++i) {
            const quint64 updates = view.updateCount();
            boxes[i % 2]->click();
            QVERIFY(waitForUpdate(&view, updates));
            QCoreApplication::processEvents(); // the paint
        }
        QCOMPARE(view.ghostPredictions(), ghost); // the snapshot did not change
        QCOMPARE(resets, 0);
        // Each toggle lays out at most each legend entry's name and the title once (they change
        // with the kernel counts); QCustomPlot's layout asked each about ten times per replot.
        const int entries = view.plot()->legend->itemCount() + 1;
        QVERIFY2(view.plot()->textMeasurements() - measured <= toggles * entries,
                 qPrintable(QStringLiteral("%1 text measurements in %2 toggles, %3 entries")
                                .arg(view.plot()->textMeasurements() - measured)
                                .arg(toggles)
                                .arg(entries)));
        QVERIFY2(view.readout()->paints() - paints <= toggles, qPrintable(QString::number(view.readout()->paints() - paints)));
        // The readout (RichReadoutLabel) lays each new text out once, at the width it has.
        QVERIFY2(view.readout()->layouts() - readoutLayouts <= toggles,
                 qPrintable(QString::number(view.readout()->layouts() - readoutLayouts)));
        QCOMPARE(totalsDestroyed, 0);
        QCOMPARE(totals->plottableCount(), 2);
        QCOMPARE(totals->legend->itemCount(), 2);
        {
            // ...and show the totals as predicted now, beside the snapshot's.
            auto *now = qobject_cast<QCPBars *>(totals->plottable(0));
            auto *ghostBars = qobject_cast<QCPBars *>(totals->plottable(1));
            QVERIFY(now && ghostBars);
            const Prediction &current = view.prediction();
            const double want[] = {current.kernelSumMs, current.operatorSumMs, current.flopsMs};
            QCOMPARE(now->data()->size(), 3);
            for (int i = 0; i < 3; ++i) {
                QCOMPARE(now->data()->at(i)->key, 0.8 + i);
                ROOFLINE_COMPARE_REL(now->data()->at(i)->value, want[i], 1e-12);
            }
            QCOMPARE(now->width(), 0.38);
            QVERIFY(ghostBars->name().contains(QStringLiteral("fused")));
            QCOMPARE(ghostBars->data()->size(), 3);
            QVERIFY(totals->xAxis->range().upper >= std::max({want[0], want[1], want[2]}));
        }
        // The rows reused show the kernels as detected now, each with its operators.
        const Prediction &p = view.prediction();
        QVERIFY(p == corePrediction(view.document()));
        QCOMPARE(tree->topLevelItemCount(), int(p.detection.kernels.size()));
        const roofline::network::Network &net = view.document()->network();
        for (int k = 0; k < tree->topLevelItemCount(); ++k) {
            const Kernel &kernel = p.detection.kernels[std::size_t(k)];
            QTreeWidgetItem *row = tree->topLevelItem(k);
            QCOMPARE(row->text(0), QStringLiteral("#%1 %2").arg(k + 1).arg(QString::fromStdString(kernel.type)));
            QVERIFY(row->toolTip(0).startsWith(QString::fromStdString(kernel.type) + QLatin1Char(':')));
            QCOMPARE(row->childCount(), int(kernel.layers.size()));
            for (int c = 0; c < row->childCount(); ++c)
                QCOMPARE(row->child(c)->toolTip(0), QString::fromStdString(net.layers[std::size_t(kernel.layers[std::size_t(c)])].name));
        }
        // The tallest bar, in the middle of its height, has its type's colour.
        const std::vector<double> &bars = view.plot()->barValues();
        const std::size_t tallest = std::size_t(std::max_element(bars.begin(), bars.end()) - bars.begin());
        const QImage image = view.plot()->grab().toImage();
        const QPoint middle(int(view.plot()->xAxis->coordToPixel(double(tallest + 1))),
                            int(view.plot()->yAxis->coordToPixel(bars[tallest] / 2)));
        const QColor expected = view.plot()->colorOf(QString::fromStdString(p.detection.kernels[tallest].type));
        QCOMPARE(QColor(image.pixel(middle)).rgb(), expected.rgb());
        // A snapshot no longer compared, and compared again: predicted once more.
        view.document()->setComparedSnapshot(-1);
        view.flushPendingUpdate();
        view.document()->setComparedSnapshot(0);
        view.flushPendingUpdate();
        QCOMPARE(view.ghostPredictions(), ghost + 1);
        QVERIFY(view.comparisonText().contains(QStringLiteral("fused")));
        // No snapshot compared: the totals chart drops the snapshot's series and widens the bars again.
        view.document()->setComparedSnapshot(-1);
        view.flushPendingUpdate();
        QCOMPARE(totals->plottableCount(), 1);
        QCOMPARE(totals->legend->itemCount(), 1);
        QCOMPARE(qobject_cast<QCPBars *>(totals->plottable(0))->width(), 0.6);
        QCOMPARE(qobject_cast<QCPBars *>(totals->plottable(0))->data()->at(0)->key, 1.0);
        // The readout's context menu copies its text (it is not selectable with the mouse).
        QCOMPARE(view.readout()->contextMenuPolicy(), Qt::ActionsContextMenu);
        QCOMPARE(view.readout()->actions().size(), 1);
        view.readout()->actions().first()->trigger();
        QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("Kernel sum ")));
        QCOMPARE(QApplication::clipboard()->text(), view.readout()->document()->toPlainText());
    }

    void treeWidthFollowsTheNetwork()
    {
        // The tree's wanted width grows with the kernel names a rule toggle brings (the chart
        // must not jump), and starts again when another network is opened: a network with
        // short names after one with long names gets its narrower tree back.
        NnmeterView view(new NnmeterDocument);
        view.resize(1920, 1080);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int resnet = view.treeWantedWidth();
        QVERIFY(resnet > 0);
        QString error;
        QVERIFY2(view.panel()->openPath(onnxFixture("mobilenet_v3_small"), &error, nullptr), qPrintable(error));
        view.flushPendingUpdate();
        const int mobilenet = view.treeWantedWidth();
        QVERIFY2(mobilenet > resnet, qPrintable(QStringLiteral("%1 vs %2").arg(mobilenet).arg(resnet)));
        // A rule toggle never narrows it.
        const quint64 updates = view.updateCount();
        view.panel()->unitBox("se")->click();
        QVERIFY(waitForUpdate(&view, updates));
        QVERIFY(view.treeWantedWidth() >= mobilenet);
        QCoreApplication::processEvents();
        const int wideTree = view.kernelTree()->width();
        QVERIFY2(view.panel()->openPath(QStringLiteral(":/examples/amaix/resnet50.json"), &error, nullptr), qPrintable(error));
        view.flushPendingUpdate();
        QCoreApplication::processEvents();
        QCOMPARE(view.treeWantedWidth(), resnet);
        QVERIFY2(view.kernelTree()->width() < wideTree,
                 qPrintable(QStringLiteral("%1 vs %2").arg(view.kernelTree()->width()).arg(wideTree)));
        // Undo goes back to MobileNetV3 and its wider tree.
        view.undoStack()->undo();
        view.flushPendingUpdate();
        QVERIFY(view.treeWantedWidth() > resnet);
    }

    void multiOutboundAndUnitsRedetect()
    {
        NnmeterView view(new NnmeterDocument);
        // With BF_relu_conv on, relu fuses into the next convolution, except where the
        // relu (a block's output) has two consumers (seed Fig. 4(b))...
        view.panel()->ruleBox("relu_conv")->click();
        view.flushPendingUpdate();
        const std::size_t kernels = view.prediction().detection.kernels.size();
        // ...until multi-outbound is on: then it fuses with its first consumer too, so fewer kernels.
        view.panel()->multiOutboundBox()->click();
        view.flushPendingUpdate();
        QVERIFY(view.document()->rules().multiOutbound);
        QVERIFY(view.prediction() == corePrediction(view.document()));
        QVERIFY(view.prediction().detection.kernels.size() < kernels);
        view.panel()->resetRulesButton()->click();

        // MobileNetV3-Small through the import path: 9 SE kernels, none with the unit off.
        QString error;
        QVERIFY2(view.panel()->openPath(onnxFixture("mobilenet_v3_small"), &error, nullptr), qPrintable(error));
        view.flushPendingUpdate();
        QCOMPARE(countType(view.prediction(), "se"), 9);
        view.panel()->unitBox("se")->click();
        view.flushPendingUpdate();
        QCOMPARE(countType(view.prediction(), "se"), 0);
        QVERIFY(view.prediction() == corePrediction(view.document()));
        QVERIFY(!view.plot()->barsOf(QStringLiteral("se")));
    }

    void shareColumnFitsTheSmallestKernels()
    {
        // ViT-B/16 on this machine's device: its slices take 5 µs of 590 ms, and a share
        // written "0.000887 %" did not fit the Share column (it ended in "…").
        NnmeterView view(new NnmeterDocument);
        view.resize(1280, 800);
        QString error;
        QVERIFY2(view.openFile(nnExample("onednn_cpu.device.json"), &error, nullptr), qPrintable(error));
        QVERIFY2(view.panel()->openPath(onnxFixture("vit_b_16"), &error, nullptr), qPrintable(error));
        view.flushPendingUpdate();
        QTreeWidget *tree = view.kernelTree();
        QVERIFY(!tree->isColumnHidden(2));
        const QFontMetrics metrics(tree->font());
        int tiny = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            const QString share = tree->topLevelItem(i)->text(2);
            tiny += share == QStringLiteral("< 0.01 %");
            QVERIFY2(metrics.horizontalAdvance(share) + 12 <= tree->columnWidth(2), qPrintable(share));
        }
        QVERIFY(tiny > 0); // the slices
    }

    void onnxResNet50MatchesTheCli()
    {
        // The torchvision fixture gives the figures pinned for roofline-cli nnmeter.
        NnmeterView view(new NnmeterDocument);
        QString error;
        QVERIFY2(view.panel()->openPath(onnxFixture("resnet50"), &error, nullptr), qPrintable(error));
        view.flushPendingUpdate();
        QCOMPARE(view.prediction().detection.operators, 174);
        QCOMPARE(view.prediction().detection.kernels.size(), std::size_t(72));
        QCOMPARE(countType(view.prediction(), "add-relu"), 16);
        ROOFLINE_COMPARE_REL(view.prediction().kernelSumMs, 214.10, 1e-3);
        QCOMPARE(view.panel()->networkBox()->currentText(), QStringLiteral("resnet50"));
        QCOMPARE(view.panel()->networkBox()->currentData().toString(), onnxFixture("resnet50"));
    }

    void treeAndChartSelectEachOther()
    {
        NnmeterView view(new NnmeterDocument);
        view.resize(1600, 1000);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        // A click on bar 5 selects kernel 5 in the tree.
        const int k = 4;
        const QPoint at(int(view.plot()->xAxis->coordToPixel(k + 1)),
                        int(view.plot()->yAxis->coordToPixel(view.plot()->barValues()[k] / 2)));
        QCOMPARE(view.plot()->kernelAt(at), k);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, at);
        QCOMPARE(view.selectedKernel(), k);
        QCOMPARE(view.kernelTree()->currentItem(), view.kernelTree()->topLevelItem(k));
        // Choosing an operator in the tree selects its kernel on the chart.
        QTreeWidgetItem *member = view.kernelTree()->topLevelItem(9)->child(0);
        view.kernelTree()->setCurrentItem(member);
        QCOMPARE(view.selectedKernel(), 9);
        QCOMPARE(view.plot()->selectedKernel(), 9);
    }

    void deviceSliderIsOneUndoStep()
    {
        NnmeterView view(new NnmeterDocument);
        ParameterSlider *peak = view.panel()->slider(QStringLiteral("/peak_gflops"));
        QVERIFY(peak);
        const double before = view.prediction().kernelSumMs;
        peak->spinBox()->setValue(77.44); // twice the A76's peak
        view.flushPendingUpdate();
        QCOMPARE(view.document()->device().peakGflops, 77.44);
        QVERIFY(view.prediction().kernelSumMs < before);
        QVERIFY(view.prediction() == corePrediction(view.document()));
        QCOMPARE(view.undoStack()->count(), 1);
        // --set reaches the same numbers and the rules.
        QString error;
        QVERIFY2(view.applyOverride(QStringLiteral("/fusions/BF_conv_bn=false"), &error), qPrintable(error));
        QCOMPARE(countType(view.prediction(), "conv-bn-relu"), 0);
        QVERIFY(!view.applyOverride(QStringLiteral("/bandwidth_gbps=-3"), &error));
        QVERIFY2(error.contains(QStringLiteral("/bandwidth_gbps")) && error.contains(QStringLiteral("must be > 0")), qPrintable(error));
    }

    void goalSeekFindsThePeak()
    {
        NnmeterView view(new NnmeterDocument);
        GoalSeekPanel *panel = view.goalSeekPanel();
        const double target = 0.8 * view.prediction().kernelSumMs;
        panel->valueBox()->setValue(target);
        const int peak = panel->parameterBox()->findData(QStringLiteral("/peak_gflops"));
        QVERIFY(peak >= 0);
        panel->parameterBox()->setCurrentIndex(peak);
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY2(panel->lastResult().found(), panel->lastResult().message.c_str());
        const double expected = seekLatency(view.document()->network(), view.document()->device(), "/peak_gflops",
                                            panel->valueBox()->value()).value;
        QCOMPARE(panel->lastResult().value, expected);
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        view.flushPendingUpdate();
        QCOMPARE(view.document()->device().peakGflops, expected);
        ROOFLINE_COMPARE_REL(view.prediction().kernelSumMs, panel->valueBox()->value(), 1e-5);
        QCOMPARE(view.undoStack()->count(), 1);
    }
};

QTEST_MAIN(TestNnmeterViewKernels)
#include "tst_nnmeterview_kernels.moc"
