// The Gables view's review workflow: undo, sensitivity, preferences, snapshots.
// Helpers and the suite as a whole: gablesviewtesting.h.
#include "gablesviewtesting.h"
#include "eventcounter.h"
#include "imagecompare.h"
#include "plottextimages.h"
#include "richreadoutlabel.h"

#include <QGroupBox>
#include <QScrollArea>
#include <QTextDocumentFragment>

#include <memory>
#include <set>

namespace {
// The antialiasing a layerable draws with: QCPLayer::draw() applies this hint before each
// one's draw(), and QCustomPlot keeps the step protected (a pointer to a protected member
// formed in a derived class may be called on any object of the base, as svgexport.cpp does).
struct HintStep : QCPLayerable
{
    static bool antialiased(const QCPLayerable *layerable, QCPPainter::PainterModes modes)
    {
        QImage image(4, 4, QImage::Format_ARGB32_Premultiplied);
        QCPPainter painter(&image);
        painter.setModes(modes);
        const auto step = &HintStep::applyDefaultAntialiasingHint;
        (layerable->*step)(&painter);
        return painter.testRenderHint(QPainter::Antialiasing);
    }
};

// 64 IPs as in roofline-bench --ips 64 (nine intensities, so I lines share columns).
Soc sixtyFourIps(Soc soc)
{
    soc.ips.clear();
    for (int i = 0; i < 64; ++i)
        soc.ips.push_back(Ip::make("IP" + std::to_string(i), 1 + (i % 7) * 3.5, 5 + (i % 5) * 4, 1.0 / 64,
                                   0.25 * (1 + i % 9)));
    return soc;
}
} // namespace

class TestGablesViewReview : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        QVERIFY(!resources::exampleFiles().isEmpty());
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
        const auto &rows = view->sensitivityRows();
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
        QVERIFY(view->sensitivityRows() == sensitivity(view->document()->soc(), 0.1));
    }

    // The legend's names are measured once per name and drawn from images made once per
    // text: steps that go back to names drawn before measure and render nothing. The picture
    // is the one drawn from glyphs.
    void legendNamesAreDrawnFromImages()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        GablesPlot *plot = view->plot();
        QSlider *slider = view->panel()->intensitySlider(1)->slider();
        const auto step = [&](int by) { return editAndSettle(view, [&] { slider->setValue(slider->value() + by); }); };
        QVERIFY(step(3)); // both states drawn once
        QVERIFY(step(-3));
        const int measurements = plot->legendMeasurements(), renders = plot->textRenders();
        QVERIFY(measurements > 0);
        QVERIFY(renders > 0);
        for (int i = 0; i < 4; ++i)
            QVERIFY(step(i % 2 ? -3 : 3));
        QCOMPARE(plot->legendMeasurements(), measurements);
        QCOMPARE(plot->textRenders(), renders);
        // The bar charts below the plot (addHorizontalBars) have such entries too.
        for (QCustomPlot *chart : {static_cast<QCustomPlot *>(view->termsChart()), static_cast<QCustomPlot *>(view->sensitivityChart())}) {
            QVERIFY(chart->legend->itemCount() >= 2);
            for (int i = 0; i < chart->legend->itemCount(); ++i)
                QVERIFY(dynamic_cast<CachedLegendItem *>(chart->legend->item(i)));
        }

        plot->replot();
        const QImage fromImages = plot->grab().toImage();
        PlotTextImages::enabled = false;
        plot->replot();
        const QImage fromGlyphs = plot->grab().toImage();
        PlotTextImages::enabled = true;
        int worst = 0;
        const int differ = testutils::differingPixels(fromImages, fromGlyphs, 1, &worst);
        QVERIFY2(differ >= 0 && differ < fromImages.width() * fromImages.height() / 1000,
                 qPrintable(QStringLiteral("%1 pixels differ, by up to %2 levels").arg(differ).arg(worst)));
    }

    // A run of live edits holds the axes: they widen for a value outside them but do not
    // narrow back, nor does the y axis change its unit, so the steps of a drag across a
    // decade draw two layers instead of the whole plot. When the edits pause, the plot fits
    // the model again (the ranges and unit of plotGeometry() and the readout).
    void liveEditsHoldTheAxesUntilTheyPause()
    {
        MainWindow window;
        GablesView *view = showExample(window, "gables-fig6b.json");
        QVERIFY(view);
        GablesPlot *plot = view->plot();
        QVERIFY(!plot->holdsRanges()); // opening a file fits
        const auto fitted = [view] {
            const Soc &soc = view->document()->soc();
            return plotGeometry(soc, evaluate(soc));
        };
        const PlotGeometry before = fitted();
        QCOMPARE(plot->geometry(), before);
        QVERIFY(plot->yAxis->label().contains(QLatin1String("(Gops/s)")));
        QSignalSpy wholeReplots(plot, &QCustomPlot::beforeReplot);
        const auto edit = [view](QDoubleSpinBox *box, double value) {
            QVERIFY(editAndSettle(view, [&] { box->setValue(value); }));
        };

        // Bpeak 10 -> 0.5 GB/s: Pₐₜₜ falls to 66 Mops/s, the y range widens downwards.
        QDoubleSpinBox *bpeak = view->panel()->bpeakSlider()->spinBox();
        edit(bpeak, 0.5);
        QVERIFY(plot->holdsRanges());
        const PlotGeometry low = fitted();
        QVERIFY(low.yRange.lower < before.yRange.lower);
        QCOMPARE(plot->yAxis->range().lower, low.yRange.lower); // the drag's first step fits
        QVERIFY(plot->yAxis->label().contains(QLatin1String("(Mops/s)")));

        // ... and back to 10 GB/s within the run: the y axis keeps its lower decades and unit.
        edit(bpeak, 10);
        QVERIFY(plot->holdsRanges());
        QCOMPARE(plot->yAxis->range().lower, low.yRange.lower);
        QVERIFY(plot->yAxis->label().contains(QLatin1String("(Mops/s)")));
        // What is drawn is the model's, across the held range.
        QCOMPARE(plot->geometry().attainable, before.attainable);
        QCOMPARE(plot->geometry().selections, before.selections);
        QCOMPARE(plot->attainableGraph()->data()->at(0)->value, before.attainable.y);
        QCOMPARE(plot->memoryGraph()->data()->at(0)->key, plot->xAxis->range().lower);
        QCOMPARE(plot->memoryGraph()->data()->at(1)->key, plot->xAxis->range().upper);

        // Further out within the run (the GPU's intensity ×10⁴): the fit reaches past the held x
        // range, which grows a decade beyond the fit; ten times further (×10⁵) the fit moves a
        // decade, inside that decade: no widening, no whole replot.
        {
            QDoubleSpinBox *gpuIntensity = view->panel()->intensitySlider(1)->spinBox();
            const double original = view->document()->soc().ips[1].intensity;
            const double heldUpper = plot->xAxis->range().upper;
            edit(gpuIntensity, original * 1e4);
            const double fitUpper = fitted().xRange.upper;
            QVERIFY(fitUpper > heldUpper);
            QCOMPARE(plot->xAxis->range().upper, fitUpper * 10);
            wholeReplots.clear();
            edit(gpuIntensity, original * 1e5);
            QCOMPARE(fitted().xRange.upper, fitUpper * 10);
            QCOMPARE(plot->xAxis->range().upper, fitUpper * 10);
            QCOMPARE(wholeReplots.count(), 0);
            edit(gpuIntensity, original);
            QCOMPARE(view->document()->soc().ips[1].intensity, original);
            QVERIFY(plot->holdsRanges());
        }

        // Now the ranges cover both ends: the next steps across them draw two layers each
        // (without the hold, each was a whole replot: new decades, a new unit).
        const QCPRange x = plot->xAxis->range(), y = plot->yAxis->range();
        for (double value : {0.5, 10.0, 0.5, 10.0}) {
            wholeReplots.clear();
            const quint64 layerReplots = plot->layerReplotCount();
            edit(bpeak, value);
            QCOMPARE(wholeReplots.count(), 0);
            QCOMPARE(plot->layerReplotCount(), layerReplots + 1);
            QCOMPARE(plot->xAxis->range(), x);
            QCOMPARE(plot->yAxis->range(), y);
        }

        // The edits pause: the plot fits again, once, in the readout's unit.
        const quint64 updates = view->updateCount();
        QTRY_VERIFY_WITH_TIMEOUT(view->updateCount() > updates, 5000);
        QVERIFY(!plot->holdsRanges());
        QCOMPARE(plot->geometry(), before);
        QCOMPARE(plot->yAxis->range().lower, before.yRange.lower);
        QVERIFY(plot->yAxis->label().contains(QLatin1String("(Gops/s)")));
        QApplication::processEvents();
        QTest::qWait(2 * GablesPlot::kRangeHoldMs);
        QCOMPARE(view->updateCount(), updates + 1); // fitted: nothing more to do
    }

    // The first slider steps after opening a 64-IP SoC cost what later steps cost (issue 15):
    // once the event loop has laid the window out, which takes a bounded number of passes
    // (each layout that activates posts the next request to its parent; the bench waits for
    // the same, settleWindow() of eventcounter.h), no step lays out the panel, the view or the
    // main window, and none draws the whole plot. Unsettled, the bench's first four steps
    // carried the opening's layout and three whole-window repaints (docs/performance.md).
    // This model's y axis switches to powers of ten (10⁶) when it opens: the first step was a
    // whole replot while the opening's replot measured the axis margin for "1e+06"
    // (GablesPlot::updateNumberFormats()), which fails the whole-replot count of step 0.
    void firstStepsAfterOpeningLayOutNothing()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        view->document()->setSoc(sixtyFourIps(view->document()->soc()), QString());
        view->flushPendingUpdate();
        int viewRequests = 0;
        int passes = 0;
        {
            EventCounter atView(view, QEvent::LayoutRequest, &viewRequests);
            passes = settleWindow();
        }
        QVERIFY(viewRequests > 0); // a new panel of 64 IPs: the view was laid out again
        QVERIFY2(passes < 20, qPrintable(QString::number(passes))); // and settled, no ping-pong
        GablesPlot *plot = view->plot();
        QVERIFY(!plot->holdsRanges());

        QWidget *panel = view->panel();
        QWidget *scroll = panel->parentWidget() ? panel->parentWidget()->parentWidget() : nullptr; // the viewport's area
        QVERIFY(qobject_cast<QScrollArea *>(scroll));
        int requests = 0;
        std::vector<std::unique_ptr<EventCounter>> counters;
        for (QWidget *w : {static_cast<QWidget *>(&window), static_cast<QWidget *>(view), panel, scroll})
            counters.push_back(std::make_unique<EventCounter>(w, QEvent::LayoutRequest, &requests));
        for (QGroupBox *box : panel->findChildren<QGroupBox *>())
            counters.push_back(std::make_unique<EventCounter>(box, QEvent::LayoutRequest, &requests));
        QVERIFY(counters.size() > 64);
        QSignalSpy wholeReplots(plot, &QCustomPlot::beforeReplot);
        // As the bench drags them: Bpeak, the last IP's intensity, in turn.
        QSlider *sliders[] = {view->panel()->bpeakSlider()->slider(), view->panel()->intensitySlider(63)->slider()};
        for (int i = 0; i < 4; ++i) {
            const quint64 layerReplots = plot->layerReplotCount();
            QVERIFY(editAndSettle(view, [&] { sliders[i % 2]->setValue(sliders[i % 2]->value() + 3); }));
            QApplication::processEvents(); // what the step posted
            QVERIFY2(requests == 0, qPrintable(QStringLiteral("step %1: %2 layout requests").arg(i).arg(requests)));
            QCOMPARE(wholeReplots.count(), 0);
            QCOMPARE(plot->layerReplotCount(), layerReplots + 1);
        }
    }

    // A step that makes another IP the limiting one draws two layers, not the whole plot: the
    // thick roof is drawn on the memory layer, and the legend's new entries (which mark its
    // buffer invalid) are in a layer the step draws anyway. The picture is a whole replot's.
    void limitingIpChangeRedrawsTwoLayers()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        view->document()->setSoc(sixtyFourIps(view->document()->soc()), QString());
        view->flushPendingUpdate();
        QApplication::processEvents();
        GablesPlot *plot = view->plot();
        QSignalSpy wholeReplots(plot, &QCustomPlot::beforeReplot);
        QDoubleSpinBox *intensity = view->panel()->intensitySlider(63)->spinBox();
        const auto limitingIps = [view] {
            std::vector<int> ips;
            for (const Term &t : view->result().bound.limiting) { // an IP's compute or link term
                if (t.ip >= 0 && std::find(ips.begin(), ips.end(), t.ip) == ips.end())
                    ips.push_back(t.ip);
            }
            std::sort(ips.begin(), ips.end());
            return ips;
        };
        // IP63's intensity very low, then high: its link (17 GB/s, below Bpeak) becomes the
        // bound, then the memory does. The first two steps widen the held ranges (whole replots).
        int changes = 0;
        std::vector<int> before = limitingIps();
        const double values[] = {1e-3, 200.0, 1e-3, 200.0};
        for (int step = 0; step < 4; ++step) {
            wholeReplots.clear();
            const quint64 layerReplots = plot->layerReplotCount();
            QVERIFY(editAndSettle(view, [&] { intensity->setValue(values[step]); }));
            ROOFLINE_COMPARE_REL(view->document()->soc().ips[63].intensity, values[step], 1e-9);
            const std::vector<int> now = limitingIps();
            changes += now != before;
            before = now;
            if (step < 2)
                continue; // the first visit of each end widens the held ranges: a whole replot
            QVERIFY2(wholeReplots.count() == 0, qPrintable(QStringLiteral("step %1").arg(step)));
            QCOMPARE(plot->layerReplotCount(), layerReplots + 1);
            QCOMPARE(int(plot->limitingRoofGraphs().size()), int(now.size()));
            for (std::size_t k = 0; k < now.size(); ++k) {
                QCPGraph *thick = plot->limitingRoofGraphs()[k];
                QCPGraph *roof = plot->roofGraph(now[k]);
                QCOMPARE(thick->dataCount(), roof->dataCount());
                QCOMPARE(thick->data()->at(0)->value, roof->data()->at(0)->value);
                QCOMPARE(thick->pen().color(), roof->pen().color());
            }
            const QImage shown = plot->grab().toImage();
            plot->replot();
            QCOMPARE(shown, plot->grab().toImage());
        }
        QCOMPARE(changes, 4); // IP63's link, the memory, IP63's link, the memory
    }

    // A slider step that leaves the axes, grid, snapshot roofs and IP roofs as they were
    // redraws the plot's other layers only (no whole replot, which fails on the old code);
    // one that moves the roofs, or a new theme, redraws the whole plot. Either way the
    // plot shows the model's values and the picture of an immediate whole replot.
    void sliderStepRedrawsOnlyWhatChanged()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        window.setCurrentView(view);
        QCOMPARE(view->document()->pinSnapshot(), 0); // compared at once: the faded roofs drawn
        view->flushPendingUpdate();
        QApplication::processEvents();
        GablesPlot *plot = view->plot();
        QVERIFY(plot->ghostCurveCount() > 0);
        QSignalSpy wholeReplots(plot, &QCustomPlot::beforeReplot);
        const auto wholePicture = [plot] {
            plot->replot();
            return plot->grab().toImage();
        };
        const auto move = [view](QSlider *slider, int by) {
            QVERIFY(editAndSettle(view, [&] { slider->setValue(slider->value() + by); }));
        };
        const auto showsModel = [view, plot] {
            const Soc &soc = view->document()->soc();
            const PlotGeometry g = plotGeometry(soc, evaluate(soc));
            QCOMPARE(plot->attainableGraph()->data()->at(0)->key, g.attainable.x);
            QCOMPARE(plot->attainableGraph()->data()->at(0)->value, g.attainable.y);
            QCOMPARE(plot->memoryGraph()->data()->at(1)->value, g.memoryRoof.points[1].y);
            QCOMPARE(plot->geometry().selections.size(), g.selections.size());
            for (std::size_t i = 0; i < g.selections.size(); ++i)
                QCOMPARE(plot->geometry().selections[i].selected.x, g.selections[i].selected.x);
        };

        // Bpeak and an intensity, a step each: the roofs and the axes stay, two layers are drawn.
        const QCPRange x = plot->xAxis->range(), y = plot->yAxis->range();
        for (QSlider *slider : {view->panel()->bpeakSlider()->slider(), view->panel()->intensitySlider(1)->slider()}) {
            const quint64 layerReplots = plot->layerReplotCount();
            const quint64 staticRevision = plot->staticRevision();
            wholeReplots.clear();
            move(slider, 3);
            // Nothing on the static layers was set again (the roofs' and the snapshot's graphs
            // are compared with what they hold; the snapshot's are not even rebuilt).
            QCOMPARE(plot->staticRevision(), staticRevision);
            QCOMPARE(plot->xAxis->range(), x);
            QCOMPARE(plot->yAxis->range(), y);
            QCOMPARE(wholeReplots.count(), 0);
            QCOMPARE(plot->layerReplotCount(), layerReplots + 1);
            showsModel();
            const QImage shown = plot->grab().toImage();
            QCOMPARE(shown, wholePicture());
        }

        // Ppeak scales every roof: the whole plot is drawn.
        wholeReplots.clear();
        quint64 layerReplots = plot->layerReplotCount();
        const quint64 staticRevision = plot->staticRevision();
        move(view->panel()->ppeakSlider()->slider(), 5);
        QVERIFY(plot->staticRevision() > staticRevision);
        QCOMPARE(wholeReplots.count(), 1);
        QCOMPARE(plot->layerReplotCount(), layerReplots);
        showsModel();
        QImage shown = plot->grab().toImage();
        QCOMPARE(shown, wholePicture());

        // A new theme recolours the axes and grid: the next step draws the whole plot.
        applyTheme(Preferences::Theme::Dark);
        wholeReplots.clear();
        layerReplots = plot->layerReplotCount();
        move(view->panel()->intensitySlider(1)->slider(), -3);
        QVERIFY(wholeReplots.count() >= 1);
        // Drawn whole by the step, or by the theme's own queued replot first with the step's
        // layers on it (which comes first depends on the order of posted events): at most one
        // layer replot, and the picture a whole replot draws.
        QVERIFY(plot->layerReplotCount() <= layerReplots + 1);
        shown = plot->grab().toImage();
        QCOMPARE(shown, wholePicture());
        applyTheme(Preferences::Theme::Light);
    }

    // With many IPs the 1-px roofs, the snapshot's dotted roofs and the faint I lines are
    // drawn aliased on screen, so Qt takes its one-pixel path (a plot-wide aePlottables and
    // aeItems overrode their own flag: every one went through the antialiased stroker, half
    // of a decade-crossing replot, which fails the screen checks); exports (the painter
    // draws without caching) keep them antialiased, and a small SoC is drawn as before.
    void onePixelLinesAreAliasedOnScreenOnly()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        window.setCurrentView(view);
        GablesPlot *plot = view->plot();
        const auto lines = [plot] {
            std::vector<QCPItemStraightLine *> shown;
            for (int i = 0; i < plot->itemCount(); ++i) {
                if (auto *line = qobject_cast<QCPItemStraightLine *>(plot->item(i)); line && line->visible())
                    shown.push_back(line);
            }
            return shown;
        };
        const QCPPainter::PainterModes screen, exporting(QCPPainter::pmNoCaching);
        view->document()->pinSnapshot();
        view->flushPendingUpdate();
        QApplication::processEvents();
        // Three IPs: every roof, snapshot roof and I line antialiased, on screen too.
        for (const Roof &roof : plot->geometry().ipRoofs)
            QVERIFY(HintStep::antialiased(plot->roofGraph(roof.ip), screen));
        QVERIFY(!lines().empty());
        for (QCPItemStraightLine *line : lines())
            QVERIFY(HintStep::antialiased(line, screen));

        view->document()->setSoc(sixtyFourIps(view->document()->soc()), QString());
        view->document()->setComparedSnapshot(view->document()->pinSnapshot());
        view->flushPendingUpdate();
        QApplication::processEvents();
        QCOMPARE(plot->ghostCurveCount(), 65); // the 64 IPs' roofs and the memory roof
        int aliasedRoofs = 0, limitingRoofs = 0;
        for (const Roof &roof : plot->geometry().ipRoofs) {
            QCPGraph *graph = plot->roofGraph(roof.ip);
            const bool thin = graph->pen().widthF() <= 1;
            (thin ? aliasedRoofs : limitingRoofs) += 1;
            QCOMPARE(HintStep::antialiased(graph, screen), !thin);
            QVERIFY(HintStep::antialiased(graph, exporting));
        }
        QVERIFY(aliasedRoofs > 50);
        QCOMPARE(limitingRoofs, 0); // every roof on the static layer is thin; a limiting one is drawn thick by another graph
        std::set<int> limitingIps;
        for (const Term &t : view->result().bound.limiting) {
            if (t.ip >= 0)
                limitingIps.insert(t.ip);
        }
        QCOMPARE(plot->limitingRoofGraphs().size(), limitingIps.size());
        for (QCPGraph *thick : plot->limitingRoofGraphs()) {
            QCOMPARE(thick->pen().widthF(), 4.0);
            QVERIFY(HintStep::antialiased(thick, screen));
            QCOMPARE(thick->layer()->name(), QStringLiteral("memory"));
        }
        int snapshotRoofs = 0;
        for (QCPLayerable *child : plot->layer(QStringLiteral("grid"))->children()) {
            auto *graph = qobject_cast<QCPGraph *>(child);
            if (!graph || !graph->visible())
                continue;
            ++snapshotRoofs;
            QCOMPARE(graph->pen().style(), Qt::DotLine);
            QVERIFY(!HintStep::antialiased(graph, screen));
            QVERIFY(HintStep::antialiased(graph, exporting));
        }
        QCOMPARE(snapshotRoofs, 65);
        int aliasedLines = 0;
        for (QCPItemStraightLine *line : lines()) {
            const bool faint = line->pen().style() == Qt::SolidLine && line->pen().widthF() <= 1;
            aliasedLines += faint;
            QCOMPARE(HintStep::antialiased(line, screen), !faint); // "I avg" stays dashed and smooth
            QVERIFY(HintStep::antialiased(line, exporting));
        }
        QCOMPARE(aliasedLines, 64);
        // The memory roof and the points are curves and markers: smooth on screen.
        QVERIFY(HintStep::antialiased(plot->memoryGraph(), screen));
    }

    // With many IPs each IP's circle is stamped from a pre-drawn pixmap on screen (64
    // antialiased ellipses stroked and filled anew were 2.1 M instructions of every step):
    // once per point per step, which fails on the old code (no stamps); not in an export or
    // for a small SoC, and the picture is still what a whole replot draws.
    void pointCirclesAreStampedWithManyIps()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        GablesPlot *plot = view->plot();
        const auto move = [view](QSlider *slider, int by) {
            QVERIFY(editAndSettle(view, [&] { slider->setValue(slider->value() + by); }));
        };
        QSlider *bpeak = view->panel()->bpeakSlider()->slider();
        move(bpeak, 3);
        QCOMPARE(plot->stampedPoints(), quint64(0)); // three IPs: circles drawn as before

        view->document()->setSoc(sixtyFourIps(view->document()->soc()), QString());
        view->flushPendingUpdate();
        QApplication::processEvents();
        for (int by : {3, -3}) {
            const quint64 stamps = plot->stampedPoints();
            move(bpeak, by);
            QCOMPARE(plot->stampedPoints(), stamps + 64); // the points' layer drawn once, as a layer or whole
        }
        const QImage shown = plot->grab().toImage();
        plot->replot();
        QCOMPARE(shown, plot->grab().toImage());
        const quint64 stamps = plot->stampedPoints();
        QVERIFY(!plot->toPixmap(800, 600).isNull()); // an export draws the circles themselves
        QCOMPARE(plot->stampedPoints(), stamps);
    }

    // The readout's new text is laid out in the step and painted from that layout (a
    // rich-text QLabel laid it out again in its paint: 4.5 M instructions of a 64-IP step,
    // and the old label is no RichReadoutLabel, which fails the cast); it says what it said.
    void readoutIsNotLaidOutInItsPaint()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        auto *readout = dynamic_cast<RichReadoutLabel *>(view->readout());
        QVERIFY(readout);
        QSlider *bpeak = view->panel()->bpeakSlider()->slider();
        // Each step lays the new text out, and once more at the width it is painted at (a
        // size-hint query lays it out at another width first: see docs/performance.md);
        // never again in a paint of the same text.
        for (int by : {2, 3, -3, 5}) {
            const int layouts = readout->layouts();
            const quint64 before = view->updateCount();
            bpeak->setValue(bpeak->value() + by);
            QVERIFY(waitForUpdate(view, before));
            QApplication::processEvents();
            QVERIFY2(readout->layouts() <= layouts + 2, qPrintable(QString::number(readout->layouts() - layouts)));
            const int laidOut = readout->layouts();
            readout->repaint();
            QCOMPARE(readout->layouts(), laidOut);
            const Soc &soc = view->document()->soc();
            const QString attainable = formatQuantity(evaluate(soc).attainableGops, QStringLiteral("Gops/s"));
            QVERIFY2(readout->document()->toPlainText().contains(attainable), qPrintable(readout->text()));
            QCOMPARE(readout->document()->toPlainText(), QTextDocumentFragment::fromHtml(readout->text()).toPlainText());
        }
    }

    // A step that moves the axes into a new decade searches the Pₐₜₜ label's place once,
    // after the replot's layout (it was searched twice: setModel() placed it for the old
    // layout first, which fails the count), and puts it where a fresh window puts it.
    void rangeChangeSearchesTheLabelOnce()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        GablesPlot *plot = view->plot();
        const auto step = [&](QDoubleSpinBox *spinBox, double value) {
            const quint64 before = view->updateCount();
            const quint64 searches = plot->labelSearchCount();
            spinBox->setValue(value);
            QVERIFY(waitForUpdate(view, before));
            QApplication::processEvents();
            QCOMPARE(plot->labelSearchCount(), searches + 1);
        };
        // An ordinary step (Bpeak a little), then one that moves x into new decades.
        step(view->panel()->bpeakSlider()->spinBox(), view->document()->soc().bpeakGBps * 1.05);
        const QCPRange x = plot->xAxis->range();
        ParameterSlider *intensity = view->panel()->intensitySlider(1);
        step(intensity->spinBox(), view->document()->soc().ips[1].intensity * 300);
        QVERIFY(plot->xAxis->range() != x);
        // The edits pause: the view fits again (held, the widened side had a decade more).
        QTRY_VERIFY_WITH_TIMEOUT(!plot->holdsRanges(), 5000);
        view->flushPendingUpdate();
        QApplication::processEvents();

        MainWindow fresh;
        fresh.resize(1400, 900);
        fresh.show();
        fresh.gablesDocument()->setSoc(view->document()->soc(), QString());
        fresh.setCurrentView(fresh.gablesView());
        fresh.gablesView()->flushPendingUpdate();
        QApplication::processEvents();
        GablesPlot *other = fresh.gablesView()->plot();
        QCOMPARE(other->size(), plot->size());
        QCOMPARE(other->xAxis->range(), plot->xAxis->range());
        QCOMPARE(other->yAxis->range(), plot->yAxis->range());
        QCOMPARE(other->attainableLabel()->positionAlignment(), plot->attainableLabel()->positionAlignment());
        QCOMPARE(other->attainableLabel()->position->coords(), plot->attainableLabel()->position->coords());
        QCOMPARE(plot->grab().toImage(), other->grab().toImage());

        // At 64 IPs the search samples the lines only near each of its 60 places, and stops
        // counting a place's lines once it cannot win: a small share of the pairs (all of
        // them on the old code).
        Soc many = view->document()->soc();
        many.ips.clear();
        for (int i = 0; i < 64; ++i)
            many.ips.push_back(Ip::make("IP" + std::to_string(i), 1 + (i % 7) * 3.5, 5 + (i % 5) * 4, 1.0 / 64,
                                        0.25 * (1 + i % 9)));
        view->document()->setSoc(many, QString());
        view->flushPendingUpdate();
        QApplication::processEvents();
        const quint64 sampled = plot->labelLinesSampled();
        step(view->panel()->bpeakSlider()->spinBox(), view->document()->soc().bpeakGBps * 1.05);
        const std::size_t lines = plot->geometry().ipRoofs.size() + 1 + plot->geometry().extraRoofs.size()
            + plot->geometry().selections.size();
        qInfo("%llu of %zu (place, line) pairs sampled", plot->labelLinesSampled() - sampled, 60 * lines);
        QVERIFY(plot->labelLinesSampled() - sampled < 60 * lines / 3);
    }

    // The goal-seek list follows the active IPs: a value step leaves it as it is, without
    // building it again (it was built on every step, which fails the count); an IP whose
    // work goes to 0 leaves the list, and comes back with its work.
    void goalSeekListIsBuiltOnlyWhenItChanges()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        QComboBox *box = view->goalSeekPanel()->parameterBox();
        const auto offers = [box](const QString &pointer) { return box->findData(pointer) >= 0; };
        const QString dspIntensity = QStringLiteral("/use_case/work/DSP/intensity_ops_per_byte");
        const int count = box->count();
        QVERIFY(count > 0);
        QVERIFY(offers(dspIntensity));
        const auto edit = [view](QDoubleSpinBox *spinBox, double value) {
            const quint64 before = view->updateCount();
            spinBox->setValue(value);
            QVERIFY(waitForUpdate(view, before));
        };
        quint64 builds = view->goalSeekListBuilds();
        edit(view->panel()->bpeakSlider()->spinBox(), 20);
        edit(view->panel()->intensitySlider(1)->spinBox(), 3);
        QCOMPARE(view->goalSeekListBuilds(), builds);
        QCOMPARE(box->count(), count);

        edit(view->panel()->fractionSlider(2)->spinBox(), 0); // the DSP idle: its parameters leave
        QCOMPARE(view->goalSeekListBuilds(), builds + 1);
        QVERIFY(!offers(dspIntensity));
        QVERIFY(box->count() < count);
        edit(view->panel()->fractionSlider(2)->spinBox(), 0.05);
        QCOMPARE(view->goalSeekListBuilds(), builds + 2);
        QVERIFY(offers(dspIntensity));
        QCOMPARE(box->count(), count);
    }

    // While the sensitivity tab hides the time-terms chart, slider moves give it its data
    // but do not redraw it; shown again, it is redrawn once and draws what an immediate
    // replot draws, for the current model.
    void hiddenTermsChartIsNotRedrawn()
    {
        MainWindow window;
        GablesView *view = showExample(window, "snapdragon835.json");
        QVERIFY(view);
        TermsChart *terms = view->termsChart();
        QVERIFY(terms->isVisible());
        QSignalSpy termsReplots(terms, &QCustomPlot::beforeReplot);
        QSignalSpy sensitivityReplots(view->sensitivityChart(), &QCustomPlot::beforeReplot);

        // Shown: every move redraws it.
        QSlider *slider = view->panel()->bpeakSlider()->slider();
        quint64 before = view->updateCount();
        slider->setValue(slider->value() + 20);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(termsReplots.count(), 1);

        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        QApplication::processEvents();
        QVERIFY(!terms->isVisible());
        termsReplots.clear();
        sensitivityReplots.clear();
        for (int move = 0; move < 6; ++move) {
            before = view->updateCount();
            slider->setValue(slider->value() + (move % 2 ? -35 : 50));
            QVERIFY(waitForUpdate(view, before));
            QApplication::processEvents();
            // The tornado shown follows the model...
            QVERIFY(view->sensitivityRows() == sensitivity(view->document()->soc(), 0.1));
            auto *high = qobject_cast<QCPBars *>(view->sensitivityChart()->plottable(1));
            ROOFLINE_COMPARE_REL(high->baseValue(), view->result().attainableGops, 1e-12);
        }
        QCOMPARE(sensitivityReplots.count(), 6);
        QCOMPARE(termsReplots.count(), 0); // ...the hidden chart is not drawn

        // Shown again: drawn once, with the current model's terms.
        view->bottomTabs()->setCurrentWidget(terms);
        QApplication::processEvents();
        QCOMPARE(termsReplots.count(), 1);
        TermsChart fresh;
        fresh.setModel(view->document()->soc(), view->result());
        QCOMPARE(terms->rowLabels(), fresh.rowLabels());
        QCOMPARE(terms->memoryBars()->dataCount(), fresh.memoryBars()->dataCount());
        for (int i = 0; i < fresh.memoryBars()->dataCount(); ++i)
            QCOMPARE(terms->memoryBars()->data()->at(i)->value, fresh.memoryBars()->data()->at(i)->value);
        for (int i = 0; i < fresh.linkBars()->dataCount(); ++i)
            QCOMPARE(terms->linkBars()->data()->at(i)->value, fresh.linkBars()->data()->at(i)->value);
        const QImage shown = terms->grab().toImage();
        terms->replot();
        QCOMPARE(terms->grab().toImage(), shown);
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
        QVERIFY(view->sensitivityRows() == sensitivity(view->document()->soc(), 0.2));
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
        QVERIFY2(view->summary().contains(formatValue(pAtt) + QStringLiteral(" Gops/s")), qPrintable(view->summary()));
        preferences.automaticPrefixes = true;
        window.applyPreferences(preferences);
        view->flushPendingUpdate();
        QVERIFY2(view->summary().contains(formatValue(pAtt / 1000) + QStringLiteral(" Tops/s")), qPrintable(view->summary()));
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
        QTest::newRow("milliseconds down") << 0.005238 << "ms" << "5.238 µs";
        QTest::newRow("FLOP/s, not s") << 52937.0 << "MFLOP/s" << "52.94 GFLOP/s";
        QTest::newRow("unknown prefix") << 3000.0 << "QB" << "3000 QB";
    }

    void formatQuantityPicksThePrefix()
    {
        QFETCH(double, value);
        QFETCH(QString, unit);
        QFETCH(QString, expected);
        QCOMPARE(formatQuantity(value, unit), expected);
        // prefixedUnit names the unit written and the factor to it.
        const PrefixedUnit shown = prefixedUnit(value, unit);
        QCOMPARE(shown.unit, value == 0 ? unit : expected.section(QLatin1Char(' '), 1));
        if (shown.unit != unit)
            QCOMPARE(formatValue(value * shown.factor), expected.section(QLatin1Char(' '), 0, 0));
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
        // The core's words (shared with the CLI) with the symbol written as the studio writes it (issue 13).
        QCOMPARE(view->comparisonText(),
                 QStringLiteral("Pₐₜₜ 2 Gops/s, +50.6% vs baseline (1.328 Gops/s); bound moved from memory to "
                                "IP[1] GPU link"));
        QCOMPARE(QString::fromStdString(roofline::gables::summarize(
                     roofline::gables::compare(doc->soc(), roofline::gables::evaluate(doc->soc()), fig6b,
                                               roofline::gables::evaluate(fig6b)),
                     "baseline")),
                 QStringLiteral("P_att 2 Gops/s, +50.6% vs baseline (1.328 Gops/s); bound moved from memory to "
                                "IP[1] GPU link"));
        QVERIFY(view->readout()->text().contains(QStringLiteral("<i>Pₐₜₜ 2 Gops/s, +50.6% vs baseline")));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("P_att")));
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
};

QTEST_MAIN(TestGablesViewReview)

#include "tst_gablesview_review.moc"
