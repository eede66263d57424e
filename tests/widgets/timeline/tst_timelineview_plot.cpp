// The timeline view: sliders change the simulated bars, zoom and level of detail, SVG export, hover and keyboard.
// Helpers and the suite as a whole: timelineviewtesting.h.
#include "timelineviewtesting.h"
#include "plottextimages.h"
#include "imagecompare.h"
#include "residentmemory.h"

class TestTimelineViewPlot : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
    }

    // The default: vector-add-2cores on the Ascend 310, simulated and drawn.
    void startsWithAnExample()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        QVERIFY(view);
        QVERIFY(view->result().ok());
        QVERIFY(view->result().totalNs > 0);
        QCOMPARE(view->plot()->laneCount(), 2 * kPipeCount);
        QCOMPARE(view->document()->machine().name, ascend310().name);
        QVERIFY(!view->plot()->visibleGroups().empty());
        // The legend's entries measure their names once and draw them from images.
        int entries = 0;
        for (int i = 0; i < view->plot()->legend->itemCount(); ++i) {
            if (QCPAbstractLegendItem *item = view->plot()->legend->item(i)) { // null: an empty cell of the wrapped grid
                QVERIFY(dynamic_cast<CachedLegendItem *>(item));
                ++entries;
            }
        }
        QVERIFY(entries >= 3);
        QCOMPARE(view->tableModel()->rowCount(), int(view->document()->trace().instructionCount()));
        QVERIFY(view->formatIds().contains(QLatin1String(kTraceFormatId)));
        QVERIFY(view->formatIds().contains(QLatin1String(kMachineFormatId)));
        QVERIFY(view->exampleFiles().contains(QStringLiteral(":/examples/verrocchio/vector-add-1core.txt")));
    }

    // At 1280×800: "Hide empty lanes" leaves out the pipes no instruction ran
    // on (the ticks name the lanes left, a bar still hit-tests to its
    // instruction), and the machine panel folds away so the chart takes the width.
    void emptyLanesHideAndPanelFolds()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        view->flushPendingUpdate();
        TimelinePlot *plot = view->plot();
        const std::size_t lanes = plot->laneCount();
        QCOMPARE(plot->shownLanes().size(), lanes);
        const TimelineBars &bars = *plot->data().bars;
        std::vector<std::size_t> used;
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            if (bars.laneBegin[lane + 1] > bars.laneBegin[lane])
                used.push_back(lane);
        }
        QVERIFY(!used.empty() && used.size() < lanes); // a vector add leaves the cube unit idle
        const std::size_t groupsBefore = plot->visibleGroups().size();
        QTest::mouseClick(view->hideEmptyLanesBox(), Qt::LeftButton);
        QVERIFY(plot->hideEmptyLanes());
        QCOMPARE(plot->shownLanes(), used);
        auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(std::size_t(ticker->ticks().size()), used.size());
        QCOMPARE(ticker->ticks().last(), timelinepaint::laneLabel(used.back(), lanes / kPipeCount));
        QCOMPARE(plot->visibleGroups().size(), groupsBefore); // nothing that ran is hidden
        plot->replot();
        const Bar &bar = bars.bars[bars.laneBegin[used.back()]];
        const QPointF pixel(plot->xAxis->coordToPixel((bar.start + bar.end) / 2),
                            plot->yAxis->coordToPixel(double(used.size() - 1) + 0.5));
        const std::optional<InstructionRef> hit = plot->instructionAt(pixel);
        QVERIFY(hit);
        QCOMPARE(hit->core, bar.core());
        QCOMPARE(hit->instruction, bar.instruction);
        QVERIFY(view->sessionState().value(QStringLiteral("view")).toObject().value(QStringLiteral("hide_empty_lanes")).toBool());

        const int before = plot->width();
        QTest::mouseClick(view->panelToggle(), Qt::LeftButton);
        QVERIFY(!view->panelArea()->isVisible());
        QTRY_VERIFY(plot->width() > before + 150);
        QVERIFY(view->sessionState().value(QStringLiteral("view")).toObject().value(QStringLiteral("panel_hidden")).toBool());
        QTest::mouseClick(view->panelToggle(), Qt::LeftButton);
        QVERIFY(view->panelArea()->isVisible());
        QTest::mouseClick(view->hideEmptyLanesBox(), Qt::LeftButton);
        QCOMPARE(plot->shownLanes().size(), lanes);
    }

    // Halving B_bus through the slider lengthens the run and moves the MTE2 bars.
    void busSliderChangesTotalAndBars()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        const double before = view->result().totalNs;
        const auto barsBefore = view->data().bars->bars;
        ParameterSlider *bus = view->panel()->busSlider();
        const double oldBus = view->document()->machine().busGBps;

        const quint64 count = view->updateCount();
        bus->slider()->setValue(bus->scale().toPosition(oldBus / 2)); // what a drag does
        const double newBus = bus->value();
        QVERIFY(newBus < oldBus * 0.6);
        QCOMPARE(view->document()->machine().busGBps, newBus);
        QVERIFY(waitForUpdate(view, count));
        Machine expected = view->document()->machine();
        const Result reference = simulate(view->document()->trace(), expected);
        QVERIFY(waitForFresh(view, reference.totalNs));
        QVERIFY2(view->result().totalNs > before * 1.2,
            qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(view->result().totalNs)));
        // The bars are the new timings: the last MTE2 transfer of core 0 ends later.
        const auto &bars = *view->data().bars;
        QCOMPARE(bars.bars.size(), barsBefore.size());
        const std::size_t lane = laneOf(0, Pipe::MTE2);
        const Bar &lastNew = bars.bars[bars.laneBegin[lane + 1] - 1];
        const Bar &lastOld = barsBefore[bars.laneBegin[lane + 1] - 1];
        QVERIFY(lastNew.end > lastOld.end);
        // The readout and the status bar say the new total.
        QVERIFY(view->readout()->text().contains(QStringLiteral("Total")));
        QVERIFY(window.statusText().startsWith(QStringLiteral("total ")));
        QVERIFY(view->isModified());
        // Fewer cores than the trace has: the simulation's error is shown, nothing crashes.
        view->panel()->coresBox()->setValue(1);
        view->flushPendingUpdate();
        QVERIFY(!view->result().ok());
        QVERIFY2(view->readout()->text().contains(QStringLiteral("the trace has 2 cores")),
            qPrintable(view->readout()->text()));
        view->plot()->replot();
        view->panel()->coresBox()->setValue(2);
        view->flushPendingUpdate();
        QVERIFY(view->result().ok());
        // The plot's first drawn MTE2 rectangle is where the simulation put it.
        view->plot()->replot();
        const auto groups = view->plot()->visibleGroups();
        const auto first
            = std::find_if(groups.begin(), groups.end(), [&](const BarGroup &g) { return g.lane == lane; });
        QVERIFY(first != groups.end());
        const auto &barsNow = *view->data().bars; // the earlier reference died with its result
        QCOMPARE(first->start, barsNow.bars[barsNow.laneBegin[lane]].start);
    }

    // A burst of edits over several event-loop turns ends on the last one's result.
    void workerShowsTheNewestResult()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        view->setSyncInstructions(0); // the example is short: simulate it in the worker all the same
        TimelineDocument *doc = view->document();
        for (int i = 1; i <= 8; ++i) {
            doc->setBusBandwidth(10.0 * i);
            QCoreApplication::processEvents();
        }
        const Result reference = simulate(doc->trace(), doc->machine());
        QVERIFY(waitForFresh(view, reference.totalNs));
        QCOMPARE(view->data().machine.busGBps, 80.0);
        // A result that arrives after a newer one was drawn is dropped.
        const quint64 dropped = view->droppedCount();
        doc->setBusBandwidth(20);
        QCoreApplication::processEvents(); // the request goes to the worker
        doc->setBusBandwidth(30);
        view->flushPendingUpdate(); // a newer result, simulated here
        QCOMPARE(view->data().machine.busGBps, 30.0);
        QVERIFY(QTest::qWaitFor([&] { return view->droppedCount() > dropped; }, 5000));
        QCOMPARE(view->data().machine.busGBps, 30.0);
        doc->setBusBandwidth(80);
        view->flushPendingUpdate();
        // Invalid values are refused by the document.
        doc->setBusBandwidth(-1);
        doc->setBusBandwidth(std::nan(""));
        QCOMPARE(doc->machine().busGBps, 80.0);
    }

    // A short trace is simulated on the GUI thread: the slider's update is
    // drawn by the view's own queued start, with no result to wait for from
    // the worker; a trace past syncInstructions() still goes to the worker.
    void shortTraceIsDrawnWithoutTheWorker()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        QVERIFY(doc->trace().instructionCount() <= view->syncInstructions());
        ParameterSlider *bus = view->panel()->busSlider();
        const quint64 count = view->updateCount();
        const quint64 sync = view->syncCount();
        bus->slider()->setValue(bus->scale().toPosition(doc->machine().busGBps / 2));
        // Only the events posted to the view: a worker's result is posted to the application.
        QCoreApplication::sendPostedEvents(view, QEvent::MetaCall);
        QCOMPARE(view->updateCount(), count + 1);
        QCOMPARE(view->syncCount(), sync + 1);
        QCOMPARE(view->data().machine.busGBps, doc->machine().busGBps);
        QVERIFY(view->result() == simulate(doc->trace(), doc->machine())); // bit-identical to the core's
        const TimelineBars expectedBars = timelineBars(doc->trace(), view->result());
        QVERIFY(*view->data().bars == expectedBars);
        const auto &st = view->lastStages();
        QVERIFY(st.worker.requested > 0 && st.worker.handedOver >= st.worker.requested);
        QVERIFY(st.worker.jobStart >= st.worker.handedOver && st.drawn >= st.delivered);

        // The compared snapshot is simulated with it, once.
        doc->pinSnapshot();
        QCoreApplication::sendPostedEvents(view, QEvent::MetaCall);
        doc->setBusBandwidth(doc->machine().busGBps * 1.5);
        QCoreApplication::sendPostedEvents(view, QEvent::MetaCall);
        QVERIFY(view->ghost() != nullptr);
        QVERIFY(view->comparison().has_value());

        // Past the threshold the worker simulates, and the result arrives later.
        view->setSyncInstructions(0);
        const quint64 count2 = view->updateCount();
        doc->setBusBandwidth(doc->machine().busGBps / 3);
        QCoreApplication::sendPostedEvents(view, QEvent::MetaCall);
        QCOMPARE(view->updateCount(), count2); // what every trace did before: nothing drawn yet
        QCOMPARE(view->syncCount(), sync + 2);
        QVERIFY(waitForFresh(view, simulate(doc->trace(), doc->machine()).totalNs));
        QVERIFY(view->updateCount() > count2);
        QCOMPARE(view->syncCount(), sync + 2);
    }

    // A drag faster than the simulation: the running simulation is not given
    // up once the picture on screen is older than the feedback interval, and
    // its result is drawn while the newest one is computed (the 10⁶-instruction
    // drag of docs/performance.md). Interval 0: every finished result is drawn.
    // Each picture has its contention spans: from kTwoThreadBars instructions
    // joined by the worker's helper beside the bars; below, by the GUI thread
    // while the worker lays them out, or, for a result drawn although a newer
    // one is on its way (its texts were not shown), when it is drawn.
    void dragFasterThanTheSimulationShowsIntermediatePictures_data()
    {
        QTest::addColumn<int>("instructions");
        QTest::newRow("2e5: the helper joins the spans") << int(TimelineView::kTwoThreadBars);
        QTest::newRow("1.5e5: the GUI thread joins them") << 150000;
    }
    void dragFasterThanTheSimulationShowsIntermediatePictures()
    {
        QFETCH(int, instructions);
        MainWindow window;
        TimelineView *view = slowTraceShowingEveryResult(window, std::size_t(instructions));
        QVERIFY(view);
        TimelineDocument *doc = view->document();
        int pictures = 0, spansRight = 0;
        connect(view, &TimelineView::updated, view, [&] {
            ++pictures;
            const TimelineData &d = view->data();
            spansRight += d.contention && *d.contention == laneContention(*d.trace, *d.result) ? 1 : 0;
        });
        const quint64 intermediate = view->intermediateCount();
        const quint64 updates = view->updateCount();
        // Bursts of six requests, the first under way before the others come
        // (the worker thread, woken, may not have taken it yet on a busy
        // machine, and the next request would drop it unbegun). Its result is
        // drawn while the newest is computed, unless the machine was so busy
        // that it ended before the second request was made (then it was the
        // newest): up to three bursts.
        const Result reference = simulate(doc->trace(), [&] {
            Machine m = doc->machine();
            m.busGBps = 60.0;
            return m;
        }());
        for (int burst = 0; burst < 3 && view->intermediateCount() == intermediate; ++burst) {
            for (int i = 1; i <= 6; ++i) {
                const quint64 begun = view->jobsBegun();
                doc->setBusBandwidth(10.0 * i);
                QCoreApplication::processEvents(); // each request reaches the worker; the results come later
                if (i > 1)
                    continue;
                QDeadlineTimer deadline(5000); // without processing events: the result stays queued
                while (view->jobsBegun() == begun && !deadline.hasExpired())
                    QThread::yieldCurrentThread();
                QVERIFY(view->jobsBegun() > begun);
            }
            QVERIFY(waitForFresh(view, reference.totalNs));
            QCOMPARE(view->data().machine.busGBps, 60.0);
        }
        QVERIFY2(view->intermediateCount() > intermediate, "no picture drawn during the drag");
        QVERIFY(view->updateCount() >= updates + 2);
        // An intermediate picture never replaces a newer one: the last drawn is the newest.
        QTest::qWait(50);
        QCOMPARE(view->data().machine.busGBps, 60.0);
        // Its bars are the plain ones, and so is every picture's contention.
        QVERIFY(*view->data().bars == timelineBars(doc->trace(), view->result()));
        QVERIFY(pictures >= 2);
        QCOMPARE(spansRight, pictures);
        QVERIFY(!view->data().contention->spans.empty());
    }

    // Released, a drag wants the release's picture only: the simulation still running for an
    // older step is given up and an older result is not drawn, even with feedback due (interval
    // 0). Without the release that running simulation's picture is drawn first (the test
    // above), which made the final picture at 10⁶ instructions wait for it.
    void releasedDragDrawsOnlyTheReleasedValue()
    {
        MainWindow window;
        TimelineView *view = slowTraceShowingEveryResult(window);
        QVERIFY(view);
        TimelineDocument *doc = view->document();
        doc->beginDrag();
        // A step every 2 ms: each request has reached the worker before the next (a
        // simulation of 2·10⁵ instructions takes longer, so one is running at the release).
        for (int i = 1; i <= 5; ++i) {
            doc->setBusBandwidth(10.0 * i);
            QTest::qWait(2);
        }
        doc->setBusBandwidth(60.0); // the release's value: queued, not started
        doc->endDrag();
        const quint64 intermediate = view->intermediateCount();
        const quint64 updates = view->updateCount();
        const Result reference = simulate(doc->trace(), doc->machine());
        QVERIFY(waitForFresh(view, reference.totalNs));
        QCOMPARE(view->data().machine.busGBps, 60.0);
        QCOMPARE(view->intermediateCount(), intermediate);
        QCOMPARE(view->updateCount(), updates + 1);
        QTest::qWait(50);
        QCOMPARE(view->updateCount(), updates + 1);
        // After the release, a new run of edits gets feedback again.
        for (int i = 1; i <= 6; ++i) {
            doc->setBusBandwidth(10.0 * i + 5);
            QTest::qWait(2);
        }
        QVERIFY(waitForFresh(view, simulate(doc->trace(), doc->machine()).totalNs));
        QVERIFY2(view->intermediateCount() > intermediate, "no picture drawn during the later edits");
    }

    // The worker's name runs give every group the colour a scan of its members gives.
    void groupColoursFromNameRuns()
    {
        int merged = 0;
        for (const char *example : {"matmul-fp16-tiled.json", "contention-during.json", ""}) {
            const auto loaded = *example ? loadTraceFile(std::string(ROOFLINE_EXAMPLES_DIR "/verrocchio/") + example)
                                         : TraceLoadResult{syntheticVectorAdd(20000, 2), {}};
            QVERIFY(loaded.trace);
            Trace trace = *loaded.trace;
            // Names that change within a lane, so that some merged groups mix them.
            for (CoreProgram &core : trace.cores) {
                for (std::size_t i = 0; i < core.instructions.size(); ++i) {
                    if (i % 7 == 3)
                        core.instructions[i].name = trace.internName("odd one");
                }
            }
            const TimelineData data = TimelineView::compute(std::make_shared<const Trace>(trace), ascend310());
            QVERIFY(data.nameRunEnd && data.paletteSlot && data.namesUsed);
            TimelineData scanned = data;
            scanned.nameRunEnd.reset();
            scanned.paletteSlot.reset();
            TimelineData looked = data; // the name runs, each group's name from the trace
            looked.paletteSlot.reset();
            const double total = data.result->totalNs;
            for (double pixels : {50.0, 300.0, 2000.0}) {
                for (const BarGroup &g : mergeBars(*data.bars, 0, total, total / pixels)) {
                    merged += g.merged() ? 1 : 0;
                    QCOMPARE(timelinepaint::groupColorOf(data, g), timelinepaint::groupColorOf(scanned, g));
                    QCOMPARE(timelinepaint::groupColorOf(looked, g), timelinepaint::groupColorOf(scanned, g));
                }
            }
        }
        QVERIFY(merged > 0); // the synthetic trace merges at these widths
    }

    void zoomKeepsLayoutConsistent()
    {
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        TimelinePlot *plot = view->plot();
        plot->replot();
        const double total = view->result().totalNs;
        QVERIFY(plot->xAxis->range().lower <= 0 && plot->xAxis->range().upper >= total);

        // Zoom to the middle fifth: every drawn rectangle touches the view, in its lane.
        plot->setTimeRange(0.4 * total, 0.6 * total);
        plot->replot();
        QCOMPARE(plot->xAxis->range().lower, 0.4 * total);
        const auto groups = plot->visibleGroups();
        QVERIFY(!groups.empty());
        const auto &bars = *view->data().bars;
        std::size_t members = 0;
        for (const BarGroup &g : groups) {
            QVERIFY(g.end >= 0.4 * total && g.start <= 0.6 * total);
            QCOMPARE(g.lane, bars.bars[g.first].lane);
            members += g.count;
        }
        // Exactly the bars that intersect the view are drawn, none twice.
        const auto inView = std::count_if(bars.bars.begin(), bars.bars.end(),
            [&](const Bar &b) { return b.end >= 0.4 * total && b.start <= 0.6 * total; });
        QCOMPARE(members, std::size_t(inView));
        // The overview's window follows the timeline's range.
        QCOMPARE(view->overview()->window()->topLeft->coords().x(), 0.4 * total);
        QCOMPARE(view->overview()->window()->bottomRight->coords().x(), 0.6 * total);
        // The time axis names its unit.
        QVERIFY(plot->xAxis->label().startsWith(QStringLiteral("Time (")));

        // Zooming out past the trace or panning before 0 is clamped.
        plot->setTimeRange(-10 * total, 10 * total);
        QVERIFY(plot->xAxis->range().lower >= -0.02 * total - 1e-9);
        QVERIFY(plot->xAxis->range().upper <= 1.02 * total + 1e-9);
        // A real wheel step over the chart zooms time only; lanes stay.
        plot->resize(900, 500);
        plot->replot();
        const QCPRange lanes = plot->yAxis->range();
        const double widthBefore = plot->xAxis->range().size();
        const QPointF inside = plot->axisRect()->rect().center();
        QWheelEvent wheel(inside, plot->mapToGlobal(inside), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &wheel);
        QVERIFY2(plot->xAxis->range().size() < widthBefore * 0.95,
                 qPrintable(QStringLiteral("%1 -> %2").arg(widthBefore).arg(plot->xAxis->range().size())));
        QCOMPARE(plot->yAxis->range(), lanes);
        view->resetZoom();
        QVERIFY(plot->xAxis->range().lower <= 0 && plot->xAxis->range().upper >= total);
    }

    // 10^5 instructions: what is drawn is bounded by the pixels, and every
    // instruction is in exactly one drawn rectangle.
    void levelOfDetailAtTenToTheFifth()
    {
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        view->document()->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        TimelinePlot *plot = view->plot();
        const auto groups = plot->visibleGroups();
        const double pixels = plot->xAxis->range().size() / plot->nsPerPixel();
        QVERIFY2(double(groups.size()) <= double(plot->laneCount()) * pixels,
            qPrintable(QStringLiteral("%1 groups for %2 px").arg(groups.size()).arg(pixels)));
        std::size_t members = 0;
        for (const BarGroup &g : groups)
            members += g.count;
        QCOMPARE(members, view->data().bars->bars.size());
        QVERIFY(std::any_of(groups.begin(), groups.end(), [](const BarGroup &g) { return g.merged(); }));

        // Whether a group holds a bar of the critical path, from the worker's
        // index (TimelineData::nextOnPath), is what a scan of its members says.
        const TimelineData &data = view->data();
        QVERIFY(data.nextOnPath && data.nextOnPath->size() == data.bars->bars.size());
        std::size_t onPath = 0;
        for (const BarGroup &g : groups) {
            bool scanned = false;
            for (std::size_t i = g.first; i < g.first + g.count && !scanned; ++i) {
                const Bar &b = data.bars->bars[i];
                scanned = b.kind == Bar::Kind::Work && (*data.onPath)[b.core()][b.instruction];
            }
            QCOMPARE((*data.nextOnPath)[g.first] < g.first + g.count, scanned);
            onPath += scanned ? 1 : 0;
        }
        QVERIFY(onPath > 0 && onPath < groups.size());
    }

    // On screen, the bars, stalls and groups are painted as one
    // strip of pixels per lane (timelinepaint::LaneStrips) instead of one
    // rectangle each: the timeline and the overview look as they do drawn
    // rectangle by rectangle, for the example, 10⁴ bars drawn one by one,
    // 10⁵ merged ones, zoomed in, with a snapshot's ghost; an export still
    // draws rectangles. Without the strips stripRects() stays 0.
    void laneStripsPaintWhatRectanglesPaint()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        TimelinePlot *plot = view->plot();
        TimelineOverview *overview = view->overview();
        const auto screen = [](QCustomPlot *p) {
            p->replot();
            return p->grab().toImage();
        };
        for (const std::size_t n : {std::size_t(0), std::size_t(10000), std::size_t(100000)}) {
            if (n > 0) {
                view->document()->setTrace(syntheticVectorAdd(n, 2), QString());
                view->flushPendingUpdate();
            }
            for (const bool ghost : {false, true}) {
                if (ghost) {
                    view->document()->pinSnapshot();
                    view->panel()->busSlider()->slider()->setValue(view->panel()->busSlider()->slider()->value() / 2);
                    view->flushPendingUpdate();
                    QVERIFY(view->ghost());
                }
                const double total = view->result().totalNs;
                for (const double zoom : {1.0, 10.0, 100.0}) {
                    if (zoom == 1.0)
                        plot->resetView();
                    else
                        plot->setTimeRange(total / 3, total / 3 + total / zoom);
                    const QString what = QStringLiteral("%1 instructions%2, 1/%3 of the trace")
                                             .arg(n).arg(ghost ? QStringLiteral(" with a ghost") : QString()).arg(zoom);
                    plot->setLaneStrips(false);
                    overview->setLaneStrips(false);
                    const QImage rects = screen(plot), overviewRects = screen(overview);
                    QCOMPARE(plot->stripRects(), std::size_t(0));
                    plot->setLaneStrips(true);
                    overview->setLaneStrips(true);
                    const QImage strips = screen(plot), overviewStrips = screen(overview);
                    const std::size_t groups = plot->visibleGroups().size();
                    // Every rectangle (their outlines are opaque, their lanes tall enough) is in a strip.
                    QVERIFY2(plot->stripRects() == groups && overview->stripRects() > 0,
                             qPrintable(QStringLiteral("%1: %2 of %3 in strips").arg(what).arg(plot->stripRects()).arg(groups)));
                    int worst = 0;
                    const int differ = testutils::differingPixels(rects, strips, 2, &worst);
                    const int pixels = rects.width() * rects.height();
                    // Two rectangles of a lane on one pixel are composited in another order: a level or two apart.
                    QVERIFY2(differ >= 0 && differ * 2000 <= pixels,
                             qPrintable(QStringLiteral("%1: %2 of %3 pixels differ, by up to %4")
                                            .arg(what).arg(differ).arg(pixels).arg(worst)));
                    const int overviewDiffer = testutils::differingPixels(overviewRects, overviewStrips, 2, &worst);
                    QVERIFY2(overviewDiffer >= 0 && overviewDiffer * 2000 <= overviewRects.width() * overviewRects.height(),
                             qPrintable(QStringLiteral("%1, overview: %2 pixels differ, by up to %3")
                                            .arg(what).arg(overviewDiffer).arg(worst)));
                    qInfo("%s: %zu of %zu rectangles in strips, %d (overview %d) pixels differ", qPrintable(what),
                          plot->stripRects(), groups, differ, overviewDiffer);
                    // An export draws rectangles.
                    plot->toPixmap(plot->width(), plot->height());
                    QCOMPARE(plot->stripRects(), std::size_t(0));
                }
                if (ghost)
                    view->document()->setComparedSnapshot(-1);
            }
        }
        // Eight cores: 48 lanes, 36 shown, scrolled by a fraction of a lane.
        view->document()->setTrace(syntheticVectorAdd(20000, 8), QString());
        view->document()->setCoreCount(8);
        view->flushPendingUpdate();
        QCOMPARE(plot->laneCount(), std::size_t(48));
        plot->resetView();
        plot->yAxis->setRange(5.4, 41.4);
        plot->setLaneStrips(false);
        const QImage rects = screen(plot);
        plot->setLaneStrips(true);
        const QImage strips = screen(plot);
        QCOMPARE(plot->stripRects(), plot->visibleGroups().size());
        int worst = 0;
        const int differ = testutils::differingPixels(rects, strips, 2, &worst);
        QVERIFY2(differ >= 0 && differ * 2000 <= rects.width() * rects.height(),
                 qPrintable(QStringLiteral("48 lanes scrolled: %1 pixels differ, by up to %2").arg(differ).arg(worst)));
        qInfo("48 lanes scrolled: %d pixels differ", differ);
    }

    // At 1280×800 every line of the readout reads whole for a 10⁵-instruction
    // trace on two cores: none of them wraps at the width the layout gives the
    // readout (the summary line used to break in "… instructions on 2 / cores").
    void readoutLinesFitAt1280x800()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        view->document()->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        QCoreApplication::processEvents(); // the layout of the new text
        QLabel *readout = view->readout();
        const QString text = readout->text();
        QVERIFY2(text.contains(QStringLiteral("100000 instructions on 2 cores")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Utilisation")), qPrintable(text));
        QVERIFY(readout->width() > 300 && readout->width() < 1280);
        const int unwrapped = readout->heightForWidth(100000);
        QVERIFY2(readout->heightForWidth(readout->width()) == unwrapped,
            qPrintable(QStringLiteral("%1 px wide: %2 px high, %3 px unwrapped: %4")
                           .arg(readout->width())
                           .arg(readout->heightForWidth(readout->width()))
                           .arg(unwrapped)
                           .arg(text)));
        QCOMPARE(readout->height(), unwrapped); // and the layout gave it that height: nothing clipped
        // Counts of one read in the singular (the contention example: one core, a path of one step, one interval).
        const TraceLoadResult loaded = loadTraceFile(example("contention-after.json").toStdString());
        QVERIFY(loaded.trace);
        view->document()->setTrace(*loaded.trace, QString());
        view->flushPendingUpdate();
        const QString single = readout->text();
        QCOMPARE(view->result().criticalPath.size(), std::size_t(1));
        QCOMPARE(view->result().contention.size(), std::size_t(1));
        for (const char *expected : { "5 instructions on 1 core ", "critical path 1 step<", "in 1 interval ", "0 stalled waits" })
            QVERIFY2(single.contains(QLatin1String(expected)), qPrintable(expected + QStringLiteral(" in: ") + single));
        // The status bar's summary too (contention-during: one wait stalls).
        const TraceLoadResult during = loadTraceFile(example("contention-during.json").toStdString());
        QVERIFY(during.trace);
        view->document()->setTrace(*during.trace, QString());
        view->flushPendingUpdate();
        QCOMPARE(view->result().stalls.size(), std::size_t(1));
        QVERIFY2(view->summary().endsWith(QStringLiteral("· 1 stalled wait")), qPrintable(view->summary()));
        QVERIFY2(readout->text().contains(QLatin1String("1 stalled wait<")), qPrintable(readout->text()));
    }

    // A slider step paints the window once, the timeline, its overview and
    // the readout under them each once, and lays the readout's text out once:
    // the two plots are painted with the rest of the window. With an immediate repaint() per replot each plot
    // painted the window in a pass of its own, and the readout, which has
    // new text, in each pass (docs/performance.md).
    void sliderStepPaintsTheWindowOnce()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        view->setSyncInstructions(0); // through the worker, as a long trace goes
        const auto settle = [] {
            for (int i = 0; i < 5; ++i)
                QCoreApplication::processEvents();
        };
        ParameterSlider *bus = view->panel()->busSlider();
        const auto step = [&](int delta) {
            const quint64 count = view->updateCount();
            bus->slider()->setValue(bus->slider()->value() + delta);
            const bool updated = waitForUpdate(view, count);
            settle();
            return updated;
        };
        view->flushPendingUpdate();
        QVERIFY(step(3)); // the first paints after showing cover the whole window
        QVERIFY(step(-3));
        int plotPaints = 0, overviewPaints = 0, readoutPaints = 0, windowPaints = 0;
        EventCounter plot(view->plot(), QEvent::Paint, &plotPaints);
        EventCounter overview(view->overview(), QEvent::Paint, &overviewPaints);
        EventCounter readout(view->readout(), QEvent::Paint, &readoutPaints);
        EventCounter whole(&window, QEvent::Paint, &windowPaints);
        const int layouts = view->readout()->layouts();
        const int steps = 6;
        for (int i = 0; i < steps; ++i) {
            QVERIFY(step(i % 2 ? -7 : 11));
            QVERIFY(QTest::qWaitFor([&] { return plotPaints > i; }, 5000));
            QCOMPARE(view->data().machine.busGBps, view->document()->machine().busGBps); // the newest result
        }
        QCOMPARE(plotPaints, steps);
        QCOMPARE(overviewPaints, steps);
        QCOMPARE(readoutPaints, steps); // before: about three times a step
        // Its new text laid out once, for its height and its paint (a QLabel: twice, 4 M instructions each).
        QCOMPARE(view->readout()->layouts() - layouts, steps);
        QVERIFY2(windowPaints <= 2 * steps, qPrintable(QString::number(windowPaints))); // with the slider's own frame
    }

    // Three slider steps through the worker: the worker's minor page faults
    // in each (TimelineData::Stages::pageFaults), then the whole process's.
    static std::vector<long> faultsOfThreeSteps(TimelineView *view)
    {
        const auto minorFaults = [] {
            rusage usage {};
            getrusage(RUSAGE_SELF, &usage);
            return usage.ru_minflt;
        };
        ParameterSlider *bus = view->panel()->busSlider();
        std::vector<long> faults, workerFaults;
        for (int delta : { 5, -3, 4 }) {
            const long before = minorFaults();
            const long recycling = view->recyclingPageFaults();
            const std::size_t recycled = view->resultsRecycled();
            const quint64 count = view->updateCount();
            bus->slider()->setValue(bus->slider()->value() + delta);
            if (!waitForUpdate(view, count) || view->data().machine.busGBps != view->document()->machine().busGBps)
                return {};
            // The replaced result handed back (the disposal thread writes its
            // grown arrays, the first time some 200–300 pages: not the step's
            // path, and not counted here).
            if (!QTest::qWaitFor([&] { return view->resultsRecycled() > recycled; }, 5000))
                return {};
            faults.push_back(minorFaults() - before - (view->recyclingPageFaults() - recycling));
            workerFaults.push_back(view->lastStages().worker.pageFaults);
        }
        workerFaults.insert(workerFaults.end(), faults.begin(), faults.end());
        return workerFaults;
    }

    // The first steps after opening a trace reuse heap the worker mapped
    // beforehand (TimelinePlanCache::warmUp()); without it each of the first
    // two steps at 10⁵ instructions mapped some 1 800 fresh pages (2–3 ms).
    // So do the worker's helper and the GUI thread's contention spans.
    // After a snapshot is compared, its result takes that heap; the worker
    // maps as much again (TimelineView::runGhost()), else the first step after
    // comparing mapped some 1 400 pages (a 25 ms step in roofline-bench).
    void firstStepsMapFewPages_data()
    {
        QTest::addColumn<bool>("compare");
        QTest::newRow("after opening a trace") << false;
        QTest::newRow("after comparing a snapshot") << true;
    }
    void firstStepsMapFewPages()
    {
#if !defined(__GLIBC__)
        QSKIP("the warm-up does something only with glibc's allocator");
#endif
        if (testutils::kSanitizerAllocator)
            QSKIP("a sanitizer's allocator serves malloc in this build");
        QFETCH(bool, compare);
        roofline::keepFreedMemory(); // as the studio's main() does
        // The worker's faults (the simulation, bars and marks) in the first three
        // steps, warmed: 0–6, 0, 0; without: some 1 600, 1 600 and 480 after
        // opening, 1 400, 0, 0 after comparing. The whole process's, warmed:
        // 0–45, 0–10 and 0–10; with only the worker warmed some 250–480, 0–110
        // and 0–130 (the GUI thread's contention spans, the helper thread's
        // start and merges: TimelineView::warmContentionBuffers(),
        // TimelinePlanCache::warmHelper()); without: some 2 000, 1 650 and 480.
        // In about one run in eight of this test file the worker faulted as if
        // unwarmed (cause not found; its thread takes the heap, glibc's arena,
        // of a thread that has ended, and which one varies): then another
        // trace, larger than any before, so that what earlier steps freed
        // cannot stand in for the warm-up.
        QString counts;
        bool few = false;
        for (std::size_t instructions : { 100000, 160000, 250000 }) {
            MainWindow window;
            TimelineView *view = shownTimeline(window);
            QVERIFY(view);
            view->document()->setTrace(syntheticVectorAdd(instructions, 2), QString());
            view->flushPendingUpdate();
            QVERIFY(QTest::qWaitFor([&] { return view->workerSettled(); }, 10000));
            if (compare) {
                // Two steps first: the worker's heap then holds what a drag's steps use.
                QCOMPARE(faultsOfThreeSteps(view).size(), std::size_t(6));
                view->document()->pinSnapshot(QStringLiteral("before"));
                view->document()->setComparedSnapshot(0);
                QVERIFY(QTest::qWaitFor([&] { return view->ghost() && view->workerSettled(); }, 10000));
            }
            for (int i = 0; i < 5; ++i)
                QCoreApplication::processEvents();
            const std::vector<long> f = faultsOfThreeSteps(view);
            QCOMPARE(f.size(), std::size_t(6));
            counts += QStringLiteral("%1 instructions: worker %2, %3, %4; process %5, %6, %7. ")
                          .arg(instructions)
                          .arg(f[0]).arg(f[1]).arg(f[2])
                          .arg(f[3]).arg(f[4]).arg(f[5]);
            QVERIFY(f[0] >= 0); // measured
            QVERIFY(!compare || view->comparison().has_value());
            // The whole process's first step: the GUI thread's contention
            // spans and the helper's merges, warmed too (some 260 without).
            few = f[0] + f[1] + f[2] < 300 && f[3] < 150;
            if (few)
                break;
        }
        qInfo("page faults of the first three steps: %s", qPrintable(counts));
        QVERIFY2(few, qPrintable(counts));
    }

    // A replaced result goes back to the worker, whose next simulation
    // refills its arrays (TimelinePlanCache::adoptResult()): what is drawn is
    // the fresh simulation's result all the same, bit for bit, on every step,
    // whether the recycled result was of this machine, of another trace, or
    // of a simulation given up for a newer one.
    void sliderStepsRecycleTheirResults()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        view->setSyncInstructions(0); // every step in the worker, like a long trace's
        view->setFeedbackInterval(0);
        TimelineDocument *doc = view->document();
        ParameterSlider *bus = view->panel()->busSlider();
        const auto step = [&](int delta) {
            bus->slider()->setValue(bus->slider()->value() + delta);
            // The newest request's result drawn (a drag's stale ones may come first).
            return QTest::qWaitFor([&] { return view->data().machine.busGBps == doc->machine().busGBps; }, 5000)
                && *view->data().result == simulate(doc->trace(), doc->machine());
        };
        for (int delta : { 5, -3, 4 })
            QVERIFY(step(delta));
        const std::size_t recycled = view->resultsRecycled();
        QVERIFY(recycled >= 2); // the example's first result and the steps' since
        // Another trace: its first steps refill the example's arrays.
        doc->setTrace(syntheticVectorAdd(30000, 2), QString());
        view->flushPendingUpdate();
        for (int delta : { -6, 2, 7, -1 })
            QVERIFY(step(delta));
        // A drag faster than the simulation: steps given up, their results recycled too.
        for (int i = 0; i < 6; ++i) {
            bus->slider()->setValue(bus->slider()->value() + (i % 2 ? -2 : 3));
            QCoreApplication::processEvents();
        }
        QVERIFY(step(1));
        QVERIFY(QTest::qWaitFor([&] { return view->workerSettled(); }, 10000));
        QVERIFY2(view->resultsRecycled() >= recycled + 5,
            qPrintable(QStringLiteral("%1 → %2").arg(recycled).arg(view->resultsRecycled())));
    }

    // Past TimelinePlanCache::kMaxInstructions a drag leaves a second result's
    // memory mapped but free; once the view has been idle for a while the
    // worker gives it back (at 10⁶ instructions 337 → 189 MB resident in
    // roofline-bench). Shorter traces keep theirs: the warm-up's memory.
    void idleViewGivesFreeMemoryBack_data()
    {
        QTest::addColumn<std::size_t>("instructions");
        QTest::addColumn<bool>("released");
        QTest::newRow("10⁵ instructions: kept for the next steps") << std::size_t(100000) << false;
        QTest::newRow("4·10⁵ instructions: given back") << std::size_t(400000) << true;
    }
    void idleViewGivesFreeMemoryBack()
    {
#if !defined(__GLIBC__)
        QSKIP("releaseFreedMemory() does something only with glibc's allocator");
#endif
        if (testutils::kSanitizerAllocator)
            QSKIP("a sanitizer's allocator serves malloc in this build");
        QFETCH(std::size_t, instructions);
        QFETCH(bool, released);
        roofline::keepFreedMemory(); // as the studio's main() does
        const auto residentMB = [] { return double(testutils::residentBytes()) / (1 << 20); };
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        view->setIdleReleaseDelay(200);
        view->document()->setTrace(syntheticVectorAdd(instructions, 2), QString());
        view->flushPendingUpdate();
        QVERIFY(QTest::qWaitFor([&] { return view->workerSettled(); }, 10000));
        ParameterSlider *bus = view->panel()->busSlider();
        for (int delta : { 5, -3, 4, -6 }) {
            const quint64 count = view->updateCount();
            bus->slider()->setValue(bus->slider()->value() + delta);
            QVERIFY(waitForUpdate(view, count));
        }
        const double afterDrag = residentMB();
        QVERIFY(afterDrag > 0);
        if (released) // 200 ms after the last result drawn, once the worker is idle
            QVERIFY(QTest::qWaitFor([&] { return view->releaseCount() > 0; }, 10000));
        else
            QTest::qWait(600); // three times the delay
        QVERIFY(QTest::qWaitFor([&] { return view->workerSettled(); }, 10000));
        const double idle = residentMB();
        qInfo("resident after the steps %.0f MB, idle %.0f MB; %llu releases", afterDrag, idle,
            static_cast<unsigned long long>(view->releaseCount()));
        QCOMPARE(view->releaseCount() > 0, released);
        if (released) // a result and its bars at 4·10⁵ instructions: some 40 MB
            QVERIFY2(idle < afterDrag - 15, qPrintable(QStringLiteral("%1 → %2 MB").arg(afterDrag).arg(idle)));
        else
            QVERIFY2(idle > afterDrag - 5, qPrintable(QStringLiteral("%1 → %2 MB").arg(afterDrag).arg(idle)));
    }

    // The table, the readout and the comparison need the result alone: they
    // are shown as soon as the worker has simulated it, while it still lays
    // out the bars, and the plots follow with the bars. Each text is worked
    // out and laid out once a step: the plots' pass leaves them alone. The
    // GUI thread joins the contention spans then too.
    void textsComeBeforeTheBars()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        view->setSyncInstructions(0); // through the worker, as a long trace goes
        TimelineDocument *doc = view->document();
        doc->pinSnapshot(QStringLiteral("before"));
        doc->setComparedSnapshot(0);
        QVERIFY(QTest::qWaitFor([&] { return view->comparison().has_value(); }, 5000));
        ParameterSlider *bus = view->panel()->busSlider();
        // A first step, then the window settled: the comparison's line made the readout taller.
        const quint64 first = view->updateCount();
        bus->slider()->setValue(bus->slider()->value() + 5);
        QVERIFY(waitForUpdate(view, first));
        settleWindow();
        struct Seen {
            std::shared_ptr<const Result> texts, plotted, table;
            QString readout;
            bool comparisonOfTexts = false;
            std::shared_ptr<const LaneContention> contention;
        };
        std::vector<Seen> seen;
        connect(view, &TimelineView::textsShown, view, [&] {
            const TimelineData *ghost = view->ghost();
            seen.push_back({ view->textData().result, view->data().result, view->tableModel()->result(),
                view->readout()->text(),
                ghost && view->comparison() == compare(*view->textData().result, *ghost->result),
                view->textData().contention });
        });
        const quint64 early = view->earlyTextsCount();
        const int steps = 4;
        for (int i = 0; i < steps; ++i) {
            const QString before = view->readout()->text();
            const std::shared_ptr<const Result> shownBefore = view->data().result;
            const int layouts = view->readout()->layouts();
            const quint64 count = view->updateCount();
            bus->slider()->setValue(bus->slider()->value() + (i % 2 ? -9 : 13));
            QVERIFY(waitForUpdate(view, count));
            QVERIFY(QTest::qWaitFor([&] { return view->data().machine.busGBps == doc->machine().busGBps; }, 5000));
            QCOMPARE(int(seen.size()), i + 1);
            const Seen &s = seen.back();
            // When the texts were shown the plots still had the result before.
            QVERIFY(s.texts && s.texts != shownBefore);
            QCOMPARE(s.plotted, shownBefore);
            QCOMPARE(s.table, s.texts);
            QVERIFY(s.readout != before); // the total moved
            QVERIFY(s.comparisonOfTexts);
            // Then the bars of that very result, and the texts as they were.
            QCOMPARE(view->data().result, s.texts);
            QCOMPARE(view->textData().result, s.texts);
            QCOMPARE(view->tableModel()->result(), s.texts);
            QCOMPARE(view->readout()->text(), s.readout);
            QCOMPARE(view->readout()->layouts() - layouts, 1);
            QVERIFY(view->comparison() == compare(*view->data().result, *view->ghost()->result));
            // The contention spans joined on this thread with the texts, while
            // the worker laid out the bars: drawn as they were joined.
            QVERIFY(s.contention);
            QCOMPARE(view->data().contention, s.contention);
            QVERIFY(*s.contention == laneContention(doc->trace(), *s.texts));
            QVERIFY(!s.contention->spans.empty());
        }
        QCOMPARE(view->earlyTextsCount() - early, quint64(steps));
    }

    // A new result that moves the timeline's range (the whole trace shown, its
    // length changed) redraws the overview once: the view replots it with the
    // new data, and the replot the range change queued is given up. It ran
    // after the view's before, and drew the same picture again (2.3 M
    // instructions a step at 10^5 instructions). A pan still moves the window.
    void overviewReplotsOncePerStep()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        view->setSyncInstructions(0);
        view->flushPendingUpdate();
        QCoreApplication::processEvents();
        TimelineOverview *overview = view->overview();
        int replots = 0;
        connect(overview, &QCustomPlot::afterReplot, this, [&] { ++replots; });
        ParameterSlider *bus = view->panel()->busSlider();
        const int givenUp = overview->windowReplot().givenUp();
        const int steps = 4;
        for (int i = 0; i < steps; ++i) {
            const double before = view->result().totalNs;
            const quint64 count = view->updateCount();
            bus->slider()->setValue(bus->slider()->value() + (i % 2 ? -40 : 60));
            QVERIFY(waitForUpdate(view, count));
            for (int k = 0; k < 5; ++k)
                QCoreApplication::processEvents();
            QVERIFY(view->result().totalNs != before); // the range moved with the result
            QCOMPARE(overview->window()->bottomRight->coords().x(), view->plot()->xAxis->range().upper);
        }
        QCOMPARE(replots, steps);
        QCOMPARE(overview->windowReplot().givenUp() - givenUp, steps);
        // Each plot paints from one buffer: no overlay layer of its own to blend in on every paint.
        for (QCustomPlot *plot : { static_cast<QCustomPlot *>(view->plot()), static_cast<QCustomPlot *>(overview) })
            QCOMPARE(plot->layer(QStringLiteral("overlay"))->mode(), QCPLayer::lmLogical);
        // A pan has no new result: the queued replot draws the moved window.
        const double total = view->result().totalNs;
        view->plot()->setTimeRange(0.2 * total, 0.3 * total);
        QVERIFY(overview->windowReplot().pending());
        QTRY_VERIFY(!overview->windowReplot().pending());
        QCOMPARE(replots, steps + 1);
        QCOMPARE(overview->window()->topLeft->coords().x(), 0.2 * total);
    }

    // The worker merges the bars for the views the timeline and the overview
    // will show its result in, beside the critical path; the plots draw those
    // groups and merge nothing themselves, whole or zoomed, with a snapshot
    // compared (the whole view spans both) or not. A view that moved meanwhile
    // merges for itself. Either way the groups are what mergeBars() gives.
    void workerMergesForThePlots()
    {
        MainWindow window;
        TimelineView *view = shownTimeline(window);
        QVERIFY(view);
        view->document()->setTrace(syntheticVectorAdd(20000, 2), QString());
        view->flushPendingUpdate();
        view->setSyncInstructions(0); // through the worker
        QApplication::processEvents();
        TimelinePlot *plot = view->plot();
        TimelineOverview *overview = view->overview();
        ParameterSlider *bus = view->panel()->busSlider();
        const auto step = [&](int delta) {
            const quint64 count = view->updateCount();
            bus->slider()->setValue(bus->slider()->value() + delta);
            if (!waitForUpdate(view, count))
                return false;
            for (int k = 0; k < 5; ++k)
                QCoreApplication::processEvents();
            return true;
        };
        const auto mergedHere = [](const TimelineData &data, const MergeKey &key) {
            return mergeBars(*data.bars, key.lower, key.upper, key.nsPerPixel(), key.minPixels);
        };
        const auto check = [&](const char *what, int direction = 1) {
            const int uses = plot->premergedUses(), merges = plot->merges();
            const int overviewUses = overview->premergedUses(), overviewMerges = overview->merges();
            for (int i = 0; i < 3; ++i) {
                if (!step(direction * (i % 2 ? -5 : 13)))
                    return QStringLiteral("%1: no update").arg(what);
            }
            if (plot->premergedUses() - uses < 3 || plot->merges() != merges)
                return QStringLiteral("%1: timeline %2 premerged, %3 merged here")
                    .arg(what).arg(plot->premergedUses() - uses).arg(plot->merges() - merges);
            if (overview->premergedUses() - overviewUses < 3 || overview->merges() != overviewMerges)
                return QStringLiteral("%1: overview %2 premerged, %3 merged here")
                    .arg(what).arg(overview->premergedUses() - overviewUses).arg(overview->merges() - overviewMerges);
            if (!(plot->visibleGroups() == mergedHere(view->data(), plot->mergeKey())))
                return QStringLiteral("%1: the timeline's groups differ from mergeBars()").arg(what);
            return QString();
        };
        QString failure = check("whole trace");
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(plot->mergeKey().lower <= 0 && plot->mergeKey().upper >= view->result().totalNs);

        const double total = view->result().totalNs;
        plot->setTimeRange(0.3 * total, 0.4 * total);
        plot->replot();
        failure = check("a tenth of it");
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(plot->mergeKey().lower, 0.3 * total);

        plot->resetView();
        plot->replot();
        view->document()->pinSnapshot();
        QVERIFY(QTest::qWaitFor([&] { return view->ghost() != nullptr; }, 5000));
        const int ghostUses = plot->ghostPremergedUses(), ghostMerges = plot->ghostMerges();
        failure = check("snapshot compared", -1); // a slower bus: longer than the snapshot, the range grows
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(view->comparison().has_value());
        // The snapshot's band too: merged in the worker for each new range, not here.
        QVERIFY2(plot->ghostPremergedUses() - ghostUses >= 3 && plot->ghostMerges() == ghostMerges,
                 qPrintable(QStringLiteral("%1 premerged, %2 merged here")
                                .arg(plot->ghostPremergedUses() - ghostUses).arg(plot->ghostMerges() - ghostMerges)));
        const MergeKey key = plot->mergeKey();
        QVERIFY(plot->visibleGhostGroups().size() <= mergeBars(*view->ghost()->bars, key.lower, key.upper, key.nsPerPixel()).size());

        // The view zoomed after the request: the premerged groups are for the old view, the plot merges itself.
        const int merges = plot->merges();
        const quint64 count = view->updateCount();
        bus->slider()->setValue(bus->slider()->value() + 11);
        QCoreApplication::sendPostedEvents(view, QEvent::MetaCall); // the job starts, with the whole view's hints
        plot->setTimeRange(0.5 * total, 0.55 * total);
        QVERIFY(waitForUpdate(view, count));
        plot->replot();
        QVERIFY(plot->merges() > merges);
        QVERIFY(plot->visibleGroups() == mergedHere(view->data(), plot->mergeKey()));
    }

    void exportSvgHasOneRectPerGroup_data()
    {
        QTest::addColumn<int>("instructions"); // 0: the example
        QTest::addColumn<double>("zoom"); // fraction of the trace shown
        QTest::newRow("vector-add-2cores, whole") << 0 << 1.0;
        QTest::newRow("vector-add-2cores, a tenth") << 0 << 0.1;
        QTest::newRow("10^5 instructions, whole (merged)") << 100000 << 1.0;
    }

    void exportSvgHasOneRectPerGroup()
    {
        QFETCH(int, instructions);
        QFETCH(double, zoom);
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        window.show(); // the plot gets its real size
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (instructions > 0) {
            view->document()->setTrace(syntheticVectorAdd(std::size_t(instructions), 2), QString());
            view->flushPendingUpdate();
        }
        TimelinePlot *plot = view->plot();
        const double total = view->result().totalNs;
        plot->setTimeRange(0, zoom * total);
        // Export at the widget's size, so the level of detail is the one on screen.
        ExportOptions options;
        options.width = plot->width();
        options.height = plot->height();
        plot->replot();
        const auto groups = plot->visibleGroups();
        const double barHeight = std::abs(plot->yAxis->coordToPixel(0.86) - plot->yAxis->coordToPixel(0.14));

        QTemporaryDir dir;
        QString error;
        const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
        QVERIFY2(window.exportCurrentPlot(svg, options, &error), qPrintable(error));
        QList<SvgRect> bars;
        for (const SvgRect &r : svgRects(svg)) {
            if (r.fill != QLatin1String("none") && std::abs(r.height - barHeight) < 0.6)
                bars.push_back(r);
        }
        if (bars.size() != qsizetype(groups.size())) {
            QString seen;
            for (const SvgRect &r : svgRects(svg))
                seen += QStringLiteral("%1x%2 %3; ").arg(r.width).arg(r.height).arg(r.fill);
            QFAIL(qPrintable(QStringLiteral("%1 bar rects for %2 groups (bar height %3): %4")
                                 .arg(bars.size())
                                 .arg(groups.size())
                                 .arg(barHeight)
                                 .arg(seen.left(1500))));
        }
        // Same rectangles, by position: sort both by (y, x) and compare with a tolerance.
        std::vector<std::pair<double, double>> expected, actual;
        for (const BarGroup &g : groups) {
            double x0 = plot->xAxis->coordToPixel(g.start), x1 = plot->xAxis->coordToPixel(g.end);
            if (x1 - x0 < 1)
                x0 = (x0 + x1) / 2 - 0.5;
            expected.emplace_back(std::round(plot->yAxis->coordToPixel(g.lane + 0.14)), x0);
        }
        for (const SvgRect &r : bars)
            actual.emplace_back(std::round(r.y), r.x);
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(std::abs(expected[i].first - actual[i].first) <= 1
                    && std::abs(expected[i].second - actual[i].second) < 0.05,
                qPrintable(QStringLiteral("rect %1: expected (%2, %3), got (%4, %5)")
                               .arg(i)
                               .arg(expected[i].second)
                               .arg(expected[i].first)
                               .arg(actual[i].second)
                               .arg(actual[i].first)));
        }
        // Title and axis label are in the file as text.
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("Time ("));
        QVERIFY(text.contains("<title>Verrocchio timeline"));
        QVERIFY(!text.contains("nan"));
        // PNG and PDF go through the same path.
        for (const char *name : { "timeline.png", "timeline.pdf" }) {
            QVERIFY2(window.exportCurrentPlot(dir.filePath(QLatin1String(name)), options, &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 1000);
        }
    }

    // Issue 13: the PNG export keeps the instruction names the window writes
    // into bars wide enough for them. Zoomed in on the example so that the
    // bars are wide, an export at the plot's size writes the same names in
    // the same boxes as the screen, and each box in the PNG file holds ink of
    // the text's colour (a bar without its name is bare fill there); at twice
    // the resolution too.
    void pngExportKeepsInBarLabels()
    {
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->flushPendingUpdate();
        TimelinePlot *plot = view->plot();
        plot->setTimeRange(0, view->result().totalNs / 8);
        plot->replot();
        const std::vector<TimelinePlot::DrawnLabel> onScreen = plot->drawnLabels();
        QVERIFY2(onScreen.size() >= 3, qPrintable(QString::number(onScreen.size())));

        QTemporaryDir dir;
        QString error;
        for (const double scale : {1.0, 2.0}) {
            ExportOptions options;
            options.width = plot->width();
            options.height = plot->height();
            options.pngScale = scale;
            const QString png = dir.filePath(QStringLiteral("timeline-%1.png").arg(scale));
            QVERIFY2(window.exportCurrentPlot(png, options, &error), qPrintable(error));
            const std::vector<TimelinePlot::DrawnLabel> exported = plot->drawnLabels(); // the export's paint
            QCOMPARE(exported.size(), onScreen.size());
            const QImage image = QImage(png).convertToFormat(QImage::Format_RGB32);
            QCOMPARE(image.size(), QSize(int(options.width * scale), int(options.height * scale)));
            for (std::size_t i = 0; i < exported.size(); ++i) {
                const TimelinePlot::DrawnLabel &l = exported[i];
                QCOMPARE(l.text, onScreen[i].text);
                QVERIFY2(std::abs(l.box.center().x() - onScreen[i].box.center().x()) < 1
                             && std::abs(l.box.center().y() - onScreen[i].box.center().y()) < 1,
                         qPrintable(l.text));
                // Ink: pixels nearer the text's colour than the bar's fill.
                const auto distance = [](QRgb a, const QColor &b) {
                    return std::abs(qRed(a) - b.red()) + std::abs(qGreen(a) - b.green()) + std::abs(qBlue(a) - b.blue());
                };
                const QRect box = QRectF(l.box.topLeft() * scale, l.box.size() * scale).toAlignedRect() & image.rect();
                int ink = 0, fill = 0;
                for (int y = box.top(); y <= box.bottom(); ++y) {
                    for (int x = box.left(); x <= box.right(); ++x) {
                        const QRgb p = image.pixel(x, y);
                        if (distance(p, l.color) < distance(p, l.fill))
                            ++ink;
                        else
                            ++fill;
                    }
                }
                QVERIFY2(ink >= 8 * scale * scale && fill > ink,
                         qPrintable(QStringLiteral("\"%1\" at %2x scale: %3 ink pixels, %4 fill pixels")
                                        .arg(l.text).arg(scale).arg(ink).arg(fill)));
            }
        }
    }

    void hoverExplainsAndClickSelects()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAbstractItemModelTester tester(view->tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        TimelinePlot *plot = view->plot();
        plot->replot();

        // The first MTE2 transfer of core 0.
        const auto &bars = *view->data().bars;
        const Bar &bar = bars.bars[bars.laneBegin[laneOf(0, Pipe::MTE2)]];
        const QPointF centre(
            plot->xAxis->coordToPixel((bar.start + bar.end) / 2), plot->yAxis->coordToPixel(bar.lane + 0.5));
        const QString tip = plot->tooltipAt(centre);
        for (const char *part :
            { "copy_gm_to_ubuf", "size 4096 bytes", "start", "end", "achieved", "GB/s", "waited for" })
            QVERIFY2(tip.contains(QLatin1String(part)),
                qPrintable(QStringLiteral("%1 not in: %2").arg(QLatin1String(part), tip)));

        // A stalled wait says what it waited for.
        const std::size_t vLane = laneOf(0, Pipe::V);
        const auto stall = std::find_if(bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[vLane]),
            bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[vLane + 1]),
            [](const Bar &b) { return b.kind == Bar::Kind::Stall; });
        QVERIFY(stall != bars.bars.end());
        const QString stallTip = plot->tooltipAt(QPointF(
            plot->xAxis->coordToPixel((stall->start + stall->end) / 2), plot->yAxis->coordToPixel(stall->lane + 0.5)));
        QVERIFY2(stallTip.contains(QStringLiteral("wait_flag")) && stallTip.contains(QStringLiteral("for set_flag")),
            qPrintable(stallTip));

        // Clicking selects the row in the table.
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QVERIFY(plot->selected().has_value());
        QCOMPARE(plot->selected()->instruction, bar.instruction);
        const int row = view->tableModel()->rowOf({ bar.core(), bar.instruction });
        QCOMPARE(view->table()->currentIndex().row(), row);
        QCOMPARE(view->tableModel()->index(row, TimelineTableModel::Start).data().toString().toDouble(), bar.start);

        // Selecting a row selects the bar; an edit keeps rows and selection.
        view->table()->selectRow(row + 1);
        QCOMPARE(plot->selected()->instruction, view->tableModel()->refAt(row + 1).instruction);
        const quint64 before = view->updateCount();
        view->panel()->throughputSlider(Pipe::V)->spinBox()->setValue(20);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->table()->currentIndex().row(), row + 1);
        // Opening another trace resets the model cleanly (the tester checks).
        QVERIFY(window.openFile(example("vector-add-1core.txt"), nullptr));
        QCOMPARE(view->tableModel()->rowCount(), int(view->document()->trace().instructionCount()));
        // Toggles repaint without errors.
        view->arrowsBox()->setChecked(true);
        view->criticalPathBox()->setChecked(false);
        plot->replot();
    }

    // Every control has a tooltip with its meaning (and unit); the tab order runs through the view sensibly.
    void keyboardAndTooltips()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        for (QWidget *w : view->findChildren<QWidget *>()) {
            if (!qobject_cast<QSlider *>(w) && !qobject_cast<QAbstractSpinBox *>(w) && !qobject_cast<QComboBox *>(w))
                continue;
            if (w->parent() && qobject_cast<QAbstractSpinBox *>(w->parent()))
                continue; // a spin box's own line edit
            QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->objectName() + QLatin1Char(' ') + w->metaObject()->className()));
        }
        TimelinePanel *panel = view->panel();
        for (Pipe pipe : kAllPipes) {
            QVERIFY(panel->throughputSlider(pipe)->spinBox()->toolTip().contains(movesBytes(pipe) ? QStringLiteral("GB/s") : QStringLiteral("Gops/s")));
            QVERIFY(panel->initSlider(pipe)->slider()->toolTip().contains(QStringLiteral("in ns")));
        }
        QVERIFY(panel->busSlider()->spinBox()->toolTip().contains(QStringLiteral("GB/s")));
        QVERIFY(panel->skewSlider()->spinBox()->toolTip().contains(QStringLiteral("ns")));
        QVERIFY(panel->coresBox()->toolTip().contains(QStringLiteral("count")));

        // Walk the focus chain from Reset zoom: the toolbar, the snapshot row, the tabs, the table, the panel top to bottom.
        QList<QWidget *> order;
        QWidget *w = view->resetButton();
        for (int guard = 0; guard < 500 && order.size() < 80; ++guard) {
            if (w->focusPolicy() & Qt::TabFocus)
                order << w;
            w = w->nextInFocusChain();
            if (w == view->resetButton())
                break;
        }
        auto at = [&](QWidget *x) { return order.indexOf(x); };
        const QList<QWidget *> expected { view->resetButton(), view->criticalPathBox(), view->arrowsBox(),
            view->hideEmptyLanesBox(), view->panelToggle(),
            view->snapshotBar()->pinButton(), view->snapshotBar()->comboBox(), view->bottomTabs()->tabBar(), view->table(),
            panel->throughputSlider(Pipe::S)->slider(), panel->throughputSlider(Pipe::S)->spinBox(),
            panel->initSlider(Pipe::S)->slider(), panel->throughputSlider(Pipe::MTE2)->slider(),
            panel->throughputSlider(Pipe::MTE3)->spinBox(), panel->busModeBox(), panel->busSlider()->slider(),
            panel->writeSlider()->spinBox(), panel->coresBox(), panel->skewSlider()->slider(), panel->skewSlider()->spinBox() };
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QVERIFY2(at(expected[i]) >= 0, qPrintable(QStringLiteral("not in the tab order: %1").arg(i)));
            if (i > 0)
                QVERIFY2(at(expected[i - 1]) < at(expected[i]), qPrintable(QStringLiteral("out of order at %1").arg(i)));
        }
    }
};

QTEST_MAIN(TestTimelineViewPlot)

#include "tst_timelineview_plot.moc"
