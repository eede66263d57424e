// The AMAIX view's review workflow: undo, snapshots and comparison, sensitivity, review bundle.
// Helpers and the suite as a whole: amaixviewtesting.h.
#include "amaixviewtesting.h"

class TestAmaixViewReview : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(!resources::exampleFiles(QStringLiteral("amaix")).isEmpty());
    }

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

    // On screen the ghost arrows' heads are stamped from images, one per direction; PNG and
    // SVG exports draw the paths. Around every tip the two pictures agree to within the
    // antialiasing of a head turned by up to 1.4° and moved by up to half a pixel.
    void arrowHeadsAreStampedOnScreen()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        AmaixView *view = amaixView(window);
        window.setCurrentView(view);
        AmaixDocument *doc = view->document();
        QCOMPARE(doc->pinSnapshot(), 0);
        quint64 before = view->updateCount();
        view->panel()->slider(QStringLiteral("/memories/DRAM/bandwidth_gbps"))->spinBox()->setValue(128);
        QVERIFY(waitForUpdate(view, before));
        QApplication::processEvents();
        AmaixPlot *plot = view->plot();
        const std::size_t arrows = plot->ghostArrows().size();
        QVERIFY(arrows >= 3);

        const quint64 stamps = plot->stampedArrowHeads();
        plot->replot();
        const QImage screen = plot->grab().toImage().convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(plot->stampedArrowHeads(), stamps + arrows); // every arrow here is many pixels long
        const QImage exported = plot->toPixmap(plot->width(), plot->height(), 1.0).toImage().convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(plot->stampedArrowHeads(), stamps + arrows); // the export drew paths
        QCOMPARE(screen.size(), exported.size());

        int tips = 0;
        for (const GhostArrow &a : plot->ghostArrows()) {
            const QPoint tip(int(std::lround(plot->xAxis->coordToPixel(a.to.x()))),
                             int(std::lround(plot->yAxis->coordToPixel(a.to.y()))));
            const QRect box = QRect(tip - QPoint(10, 10), QSize(21, 21)) & screen.rect();
            if (box.width() < 21 || box.height() < 21)
                continue; // at an edge
            double difference = 0;
            int darkScreen = 0, darkExport = 0; // the head's pixels (the grey ghost colour darkened)
            for (int y = box.top(); y <= box.bottom(); ++y) {
                for (int x = box.left(); x <= box.right(); ++x) {
                    const QRgb p = screen.pixel(x, y), q = exported.pixel(x, y);
                    difference += std::abs(qGray(p) - qGray(q));
                    darkScreen += qGray(p) < 140;
                    darkExport += qGray(q) < 140;
                }
            }
            difference /= box.width() * box.height();
            QVERIFY2(difference < 8, qPrintable(QString::number(difference)));
            QVERIFY2(std::abs(darkScreen - darkExport) <= 6 + darkExport / 4,
                     qPrintable(QStringLiteral("%1 %2").arg(darkScreen).arg(darkExport)));
            ++tips;
        }
        QVERIFY(tips >= 3);
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
        for (const GhostArrow &arrow : arrows) {
            const QPointF from = arrow.from, to = arrow.to;
            const auto g = std::find_if(expected.begin(), expected.end(),
                                        [&](const LayerMarker &m) { return m.x == from.x() && m.y == from.y(); });
            QVERIFY(g != expected.end());
            const LayerMarker *m = markerOfRow(view->plot(), g->row);
            QCOMPARE(to.x(), m->x);
            QCOMPARE(to.y(), m->y);
            ROOFLINE_COMPARE_REL(to.y(), nowLayers[std::size_t(g->row)].performance(), 1e-12);
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
        for (const GhostArrow &arrow : view->plot()->ghostArrows())
            QVERIFY(std::isfinite(arrow.to.x()) && arrow.to.x() > 0);
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

QTEST_MAIN(TestAmaixViewReview)

#include "tst_amaixview_review.moc"
