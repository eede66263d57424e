// The timeline view's review workflow: undo, snapshots and ghost, sensitivity, review bundle.
// Helpers and the suite as a whole: timelineviewtesting.h.
#include "timelineviewtesting.h"

class TestTimelineViewReview : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
    }

    // A real drag of the B_bus thumb is one undo step; undo gives back the exact machine and total.
    void sliderDragIsOneUndoStep()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        QApplication::processEvents(); // lays out the tab: the thumb has its place
        QUndoStack *stack = view->undoStack();
        QVERIFY(stack);
        QCOMPARE(stack, view->document()->undoStack());
        QVERIFY(!view->isModified());
        const Machine before = view->document()->machine();
        const double totalBefore = view->result().totalNs;
        const int steps = stack->count();

        QSlider *slider = view->panel()->busSlider()->slider();
        QVERIFY(dragSlider(slider, -slider->width() / 4, 12));
        view->flushPendingUpdate();
        QCOMPARE(stack->count(), steps + 1);
        // The step names the value: "Bus bandwidth 45.56 → 31.2 GB/s", from where the drag started.
        QVERIFY2(stack->undoText().startsWith(QStringLiteral("Bus bandwidth %1 → ").arg(formatValue(before.busGBps)))
                     && stack->undoText().endsWith(QStringLiteral(" GB/s")),
                 qPrintable(stack->undoText()));
        QVERIFY(view->document()->machine().busGBps < before.busGBps);
        QVERIFY(view->isModified());
        QVERIFY(view->result().totalNs > totalBefore);
        const Machine dragged = view->document()->machine();

        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->machine() == before);
        QCOMPARE(view->result().totalNs, totalBefore);
        QCOMPARE(view->panel()->busSlider()->value(), before.busGBps); // the controls follow
        QVERIFY(!view->isModified());
        stack->redo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->machine() == dragged);

        // Two spin-box entries are two steps; the bus mode and the core count are steps too.
        view->panel()->initSlider(Pipe::MTE2)->spinBox()->setValue(300);
        view->panel()->initSlider(Pipe::MTE2)->spinBox()->setValue(310);
        view->panel()->busModeBox()->setCurrentIndex(1);
        QCOMPARE(stack->count(), steps + 4);
        stack->undo();
        QCOMPARE(view->document()->machine().busMode, BusMode::HalfDuplex);
        QCOMPARE(view->panel()->busModeBox()->currentIndex(), 0);
        stack->undo();
        QCOMPARE(view->document()->machine().pipe(Pipe::MTE2).initNs, 300.0);

        // Opening a trace is a step: undo brings the previous trace and its total back.
        const double totalNow = simulate(view->document()->trace(), view->document()->machine()).totalNs;
        QVERIFY(window.openFile(example("contention-before.json"), nullptr));
        QVERIFY(view->document()->tracePath().endsWith(QStringLiteral("contention-before.json")));
        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->tracePath().endsWith(QStringLiteral("vector-add-2cores.json")));
        QCOMPARE(view->result().totalNs, totalNow);
    }

    // Pin, compare, ghost lanes, the comparison readout from the core, restore, rename, delete.
    void snapshotsGhostAndComparison()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        QTest::mouseClick(view->snapshotBar()->pinButton(), Qt::LeftButton);
        QCOMPARE(doc->snapshots().size(), std::size_t(1));
        QCOMPARE(doc->comparedSnapshot(), 0);
        QCOMPARE(view->snapshotBar()->comboBox()->currentText(), QStringLiteral("baseline"));
        const Machine pinned = doc->machine();

        doc->setBusBandwidth(pinned.busGBps / 2);
        view->flushPendingUpdate();
        QVERIFY(view->ghost());
        QVERIFY(view->ghost()->machine == pinned);
        QVERIFY(view->plot()->hasGhost());
        view->plot()->replot();
        const auto ghostGroups = view->plot()->visibleGhostGroups();
        QVERIFY(!ghostGroups.empty());
        QVERIFY(std::all_of(ghostGroups.begin(), ghostGroups.end(),
            [&](const BarGroup &g) { return g.lane < view->plot()->laneCount(); }));

        // The numbers are the core's comparison of the two simulations.
        const Result baseline = simulate(doc->trace(), pinned);
        const Comparison expected = compare(simulate(doc->trace(), doc->machine()), baseline);
        QVERIFY(view->comparison());
        QVERIFY(*view->comparison() == expected);
        QVERIFY(expected.changeNs > 0);
        QCOMPARE(view->comparisonText(), QString::fromStdString(summarize(expected, "baseline")));
        QVERIFY2(view->readout()->text().contains(QStringLiteral("vs baseline")), qPrintable(view->readout()->text()));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("nan")));

        // None compared: no ghost, no comparison; back: from the cache, at once.
        doc->setComparedSnapshot(-1);
        QVERIFY(!view->plot()->hasGhost());
        QVERIFY(view->comparisonText().isEmpty());
        doc->setComparedSnapshot(0);
        QVERIFY(view->plot()->hasGhost());

        // A second snapshot is simulated in the worker when it is first compared.
        const int second = doc->pinSnapshot(QStringLiteral("narrow bus"));
        doc->setComparedSnapshot(second);
        QVERIFY(QTest::qWaitFor([&] { return view->ghost() != nullptr; }, 5000));
        QVERIFY(view->comparison());
        QCOMPARE(view->comparison()->changeNs, 0.0);
        doc->renameSnapshot(second, QStringLiteral("half bus"));
        QCOMPARE(view->snapshotBar()->comboBox()->currentText(), QStringLiteral("half bus"));
        QVERIFY(view->comparisonText().contains(QStringLiteral("vs half bus")));

        // Restore is an undoable step back to the pinned machine.
        doc->restoreSnapshot(0);
        view->flushPendingUpdate();
        QVERIFY(doc->machine() == pinned);
        QCOMPARE(view->panel()->busSlider()->value(), pinned.busGBps);
        doc->undoStack()->undo();
        QCOMPARE(doc->machine().busGBps, pinned.busGBps / 2);

        doc->removeSnapshot(second);
        QCOMPARE(doc->comparedSnapshot(), -1);
        QVERIFY(!view->plot()->hasGhost());
        QVERIFY(!view->ghost());
    }

    // The ghost at 10^5 instructions is merged like the bars: bounded by lanes × pixels.
    void ghostLevelOfDetailAtTenToTheFifth()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        view->document()->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        view->document()->pinSnapshot();
        view->document()->setBusBandwidth(view->document()->machine().busGBps * 0.7);
        view->flushPendingUpdate();
        view->plot()->replot();
        const auto groups = view->plot()->visibleGhostGroups();
        QVERIFY(!groups.empty());
        const double pixels = view->plot()->axisRect()->width();
        QVERIFY(pixels > 300);
        // At most about one rectangle per lane and pixel (groups and single bars are at least a pixel wide)...
        QVERIFY2(double(groups.size()) <= double(view->plot()->laneCount()) * (pixels + 2),
            qPrintable(QStringLiteral("%1 groups, %2 px").arg(groups.size()).arg(pixels)));
        // ...though the snapshot has some 10^5 bars.
        QVERIFY2(view->ghost()->bars->bars.size() > 30000, qPrintable(QString::number(view->ghost()->bars->bars.size())));
    }

    // The snapshot does not change while a slider moves: its bars are merged
    // once per view (range and scale), not on every redraw, and the groups
    // drawn are those of a fresh merge of that view.
    void ghostIsMergedOncePerView()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        TimelineDocument *doc = view->document();
        doc->setTrace(syntheticVectorAdd(20000, 2), QString());
        view->flushPendingUpdate();
        doc->pinSnapshot();
        const double bus = doc->machine().busGBps;
        doc->setBusBandwidth(bus * 0.7);
        view->flushPendingUpdate();
        QVERIFY(view->ghost());
        TimelinePlot *plot = view->plot();
        plot->setHideEmptyLanes(false); // every lane drawn: the filter below is the plot's
        const double total = view->ghost()->result->totalNs;
        plot->xAxis->setRange(0.2 * total, 0.4 * total); // zoomed: kept across edits
        plot->replot();
        const int merges = plot->ghostMerges();
        const QCPRange r = plot->xAxis->range();
        const double px = std::abs(plot->xAxis->coordToPixel(r.upper) - plot->xAxis->coordToPixel(r.lower));
        std::vector<BarGroup> fresh = mergeBars(*view->ghost()->bars, r.lower, r.upper, r.size() / px);
        std::erase_if(fresh, [&](const BarGroup &g) { return g.lane >= plot->laneCount() || g.allStalls(); });
        QVERIFY(!fresh.empty());
        for (const double factor : {0.75, 0.8, 0.85}) {
            doc->setBusBandwidth(bus * factor);
            view->flushPendingUpdate();
            plot->replot();
            QCOMPARE(plot->xAxis->range().lower, r.lower);
            QCOMPARE(plot->xAxis->range().upper, r.upper);
            QVERIFY(plot->visibleGhostGroups() == fresh);
        }
        QCOMPARE(plot->ghostMerges(), merges); // before: one more per redraw and per call
        // Another view: merged again.
        plot->xAxis->setRange(0.1 * total, 0.4 * total);
        plot->replot();
        QCOMPARE(plot->ghostMerges(), merges + 1);
        QVERIFY(plot->visibleGhostGroups() != fresh);
    }

    // The tornado: the core's rows, computed in the worker only while its tab is shown.
    void sensitivityFollowsTheCore()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        QCOMPARE(view->sensitivityCount(), quint64(0)); // hidden: never computed
        doc->setBusBandwidth(doc->machine().busGBps * 0.8);
        view->flushPendingUpdate();
        QTest::qWait(50);
        QCOMPARE(view->sensitivityCount(), quint64(0));

        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > 0; }, 10000));
        const auto expected = sensitivity(doc->trace(), doc->machine(), 0.1);
        QVERIFY(!expected.empty());
        QVERIFY(view->sensitivityRows() == expected);
        const auto &shown = view->sensitivityChart()->shownRows();
        QCOMPARE(shown.size(), std::min<std::size_t>(expected.size(), SensitivityChart::maxRows));
        const TimeUnit unit = timeUnitFor(view->result().totalNs);
        QCOMPARE(shown[0].label, QString::fromStdString(expected[0].label));
        ROOFLINE_COMPARE_REL(shown[0].low, expected[0].lowNs * unit.perNs, 1e-12);
        ROOFLINE_COMPARE_REL(shown[0].high, expected[0].highNs * unit.perNs, 1e-12);

        // Live: a machine edit brings new rows for the new machine.
        const quint64 count = view->sensitivityCount();
        doc->setInitNs(Pipe::MTE2, doc->machine().pipe(Pipe::MTE2).initNs + 500);
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > count; }, 10000));
        QVERIFY(view->sensitivityRows() == sensitivity(doc->trace(), doc->machine(), 0.1));

        // The step is configurable.
        const quint64 count2 = view->sensitivityCount();
        view->setSensitivityStep(0.2);
        QVERIFY(view->bottomTabs()->tabText(1).contains(QStringLiteral("±20%")));
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > count2; }, 10000));
        QVERIFY(view->sensitivityRows() == sensitivity(doc->trace(), doc->machine(), 0.2));
    }

    // At 10^5 instructions a burst of edits supersedes the running sensitivity: only the newest arrives.
    void newerRequestSupersedesSensitivity()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        doc->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > 0; }, 60000)); // in the worker
        const quint64 before = view->sensitivityCount();
        const double bus = doc->machine().busGBps;
        for (int i = 1; i <= 5; ++i) {
            doc->setBusBandwidth(bus * (1 - 0.05 * i));
            QCoreApplication::processEvents(); // each edit is a request of its own
        }
        const auto expected = sensitivity(doc->trace(), doc->machine(), 0.1);
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityRows() == expected; }, 60000));
        QTest::qWait(100);
        QVERIFY(view->sensitivityRows() == expected); // nothing older arrived after it
        QVERIFY2(view->sensitivityCount() - before < 5, qPrintable(QString::number(view->sensitivityCount() - before)));
    }

    // A drag with the tornado shown starts no sensitivity job while its steps
    // come faster than kSensitivityQuietMs; once it pauses, the rows of its last step come.
    void dragDefersSensitivity()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        doc->setTrace(syntheticVectorAdd(30000, 2), QString()); // past syncInstructions(): in the worker
        view->flushPendingUpdate();
        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > 0 && view->workerSettled(); }, 60000));
        const quint64 jobsBefore = view->sensitivityJobsStarted();
        const quint64 rowsBefore = view->sensitivityCount();
        const double bus = doc->machine().busGBps;
        constexpr int kSteps = 10;
        for (int i = 1; i <= kSteps; ++i) {
            doc->setBusBandwidth(bus * (1 - 0.03 * i));
            const double wanted = doc->machine().busGBps;
            // The next step as soon as this one is drawn, as a drag's do.
            QVERIFY(QTest::qWaitFor([&] { return view->data().machine.busGBps == wanted; }, 60000));
        }
        const quint64 duringDrag = view->sensitivityJobsStarted() - jobsBefore;
        // Without the deferral every step started one (kSteps); a step of a
        // loaded machine that took longer than the quiet interval to be
        // followed may start one.
        QVERIFY2(duringDrag <= 2, qPrintable(QString::number(duringDrag)));
        QCOMPARE(view->sensitivityCount(), rowsBefore);
        const auto expected = sensitivity(doc->trace(), doc->machine(), 0.1);
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityRows() == expected; }, 60000));
        QVERIFY(view->sensitivityJobsStarted() > jobsBefore);
    }

    // The review bundle: the chart and the tornado as SVG, the comparison and sensitivity CSVs from the core.
    void reviewBundle()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        view->document()->pinSnapshot(QStringLiteral("wide \"bus\""));
        view->document()->setBusBandwidth(view->document()->machine().busGBps / 3);
        QString error;
        const QString folder = dir.filePath(QStringLiteral("bundle"));
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QDir bundle(folder);
        for (const char *name : { "verrocchio-timeline.svg", "verrocchio-timeline.png", "timeline-sensitivity.svg",
                 "timeline-sensitivity.png", "timeline-sensitivity.csv", "timeline-snapshots.csv",
                 "timeline-machine.json", "timeline-snapshot-1-machine.json" })
            QVERIFY2(QFileInfo(bundle.filePath(QLatin1String(name))).size() > 0, name);
        auto read = [&](const char *name) {
            QFile f(bundle.filePath(QLatin1String(name)));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        const auto rows = sensitivity(view->document()->trace(), view->document()->machine(), 0.1);
        const QStringList tornado = read("timeline-sensitivity.csv").split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(tornado.size(), qsizetype(rows.size()) + 1);
        QVERIFY(tornado[1].startsWith(QStringLiteral("\"%1\",%2,").arg(QString::fromStdString(rows[0].label),
            QString::fromStdString(rows[0].pointer))));
        QVERIFY(tornado[1].endsWith(QString::number(rows[0].highNs, 'g', 17)));
        const QStringList snapshots = read("timeline-snapshots.csv").split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(snapshots.size(), 2);
        const Comparison c = compare(view->result(), simulate(view->document()->trace(), view->document()->snapshots()[0].state.machine));
        QVERIFY2(snapshots[1].startsWith(QStringLiteral("\"wide \"\"bus\"\"\",%1,%2,%3,").arg(
            QString::number(c.baseline.totalNs, 'g', 17), QString::number(c.current.totalNs, 'g', 17),
            QString::number(c.changeNs, 'g', 17))), qPrintable(snapshots[1]));
    }
};

QTEST_MAIN(TestTimelineViewReview)

#include "tst_timelineview_review.moc"
