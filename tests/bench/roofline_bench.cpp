// roofline-bench: how long a slider move takes to become a finished replot,
// and how fast the core evaluates, in every view: Gables (2, 16 and 64 IPs),
// AMAIX (ResNet-50 on nv_full and a synthetic network, 500 layers by
// default), the Verrocchio timeline (10⁴ and 10⁵ instructions by default),
// Brouwer (SoS_GoogleNet, the memory slider) and nn-Meter (ResNet-50 and
// EfficientNet-B0, a fusion-rule toggle); each plain, with a snapshot compared
// and with the snapshot and the sensitivity tab shown (a review's use).
//
//   QT_QPA_PLATFORM=offscreen roofline-bench [--quick] [--iterations N] [--ips N[,N...]]
//       [--instructions N[,N...]] [--layers N[,N...]] [--nnmeter-networks N] [--nnmeter-toggles-only] [--paints]
//       [--steps] [--summary] [--scaling] [--only gables|timeline|amaix|import|brouwer|nnmeter]
//
// --scaling runs Gables, AMAIX and the timeline over a range of sizes (2–128
// IPs, 100–2000 layers, 10³–10⁶ instructions; 10⁶ with a tenth of the
// iterations) and ends with --summary's table: one Markdown row per series,
// for docs/performance.md's "update time by size", so that a regression at
// one size shows next to the others.
//
// "Slider to replot" is measured from QSlider::setValue() (what a drag does)
// through the document edit, the coalesced evaluation, both charts' replot and
// the paint events, to the point where the event loop is idle again. Each line
// gives the wall time and the GUI thread's CPU time of the same updates: on a
// machine shared with other work the wall time also counts waiting for a
// core, the CPU time does not. --paints adds what each update repainted and
// laid out, per widget class; --steps lists the slowest updates of a series
// with what each changed (Brouwer: the memory, the swapping layers).
#include "common/allocator.h"
#include "eventcounter.h"
#include "residentmemory.h"
#include "amaix/io.h"
#include "amaix/sweep.h"
#include "amaixdocument.h"
#include "amaixpanel.h"
#include "amaixplot.h"
#include "amaixview.h"
#include "brouwerdocument.h"
#include "brouwerpanel.h"
#include "brouwerplots.h"
#include "brouwerview.h"
#include "gables/geometry.h"
#include "gables/model.h"
#include "gablesdocument.h"
#include "gablesparampanel.h"
#include "gablesplot.h"
#include "termschart.h"
#include "gablesview.h"
#include "mainwindow.h"
#include "network/import.h"
#include "nnmeter/predict.h"
#include "nnmeterdocument.h"
#include "nnmeterpanel.h"
#include "nnmeterplot.h"
#include "nnmeterview.h"
#include "onnxfill.h"
#include "parameterslider.h"
#include "timelinedocument.h"
#include "timelinepanel.h"
#include "timelineplot.h"
#include "timelinetablemodel.h"
#include "timelineview.h"
#include "verrocchio/synthetic.h"
#include "sensitivitychart.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QTimer>
#include <QElapsedTimer>
#include <QSlider>
#include <QTableView>
#include <QCheckBox>
#include <QTreeWidget>
#include <QPaintEvent>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h> // per-move dumps under callgrind (no-ops otherwise)
#define BENCH_CALLGRIND_ZERO() CALLGRIND_ZERO_STATS
#define BENCH_CALLGRIND_DUMP(name) CALLGRIND_DUMP_STATS_AT(name)
#else
#define BENCH_CALLGRIND_ZERO()
#define BENCH_CALLGRIND_DUMP(name)
#endif

#include <algorithm>
#include <numeric>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <vector>

using namespace roofline::gables;

namespace {

struct Stats
{
    double median = 0, p90 = 0, p99 = 0, max = 0;
};

Stats summarize(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    auto at = [&](double q) { return samples[std::min(samples.size() - 1, std::size_t(q * double(samples.size())))]; };
    return {at(0.5), at(0.9), at(0.99), samples.back()};
}

// Times `work` alone, repeatedly, and prints its median and p99: where one update's time goes.
template<typename Work>
void printStage(const char *name, int iterations, Work &&work)
{
    std::vector<double> t;
    QElapsedTimer timer;
    for (int i = 0; i < std::max(10, iterations / 4); ++i) {
        timer.start();
        work();
        t.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const Stats st = summarize(t);
    std::printf("         %-36s median %6.2f  p99 %6.2f ms\n", name, st.median, st.p99);
}

// CPU time of the calling (GUI) thread and of the whole process (workers
// included), in ms: what an update costs whatever else the machine runs. The
// wall time on a shared machine also counts waiting for a core.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// The process's resident set, MiB; -1 where unknown.
double residentMB()
{
    const std::int64_t bytes = testutils::residentBytes();
    return bytes < 0 ? -1 : double(bytes) / (1 << 20);
}

double processCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// What one update repaints and lays out (--paints): every paint event and
// layout request of the run, per widget class, with the painted area. A fixed
// cost in every view shows up here as a widget that should not need painting.
class EventCensus : public QObject
{
public:
    EventCensus() { qApp->installEventFilter(this); }
    ~EventCensus() override { qApp->removeEventFilter(this); }
    void print(const char *title, int updates) const
    {
        std::printf("  %s: per update (of %d), by widget class:\n", title, updates);
        std::vector<std::pair<QString, Entry>> rows(m_entries.begin(), m_entries.end());
        std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.second.area > b.second.area; });
        for (const auto &[name, e] : rows)
            std::printf("    %-52s paints %6.2f  area %9.0f px (region %9.0f px)  layout requests %6.2f\n", qPrintable(name),
                        double(e.paints) / updates, double(e.area) / updates, double(e.region) / updates,
                        double(e.layouts) / updates);
    }

protected:
    bool eventFilter(QObject *object, QEvent *event) override
    {
        if (event->type() != QEvent::Paint && event->type() != QEvent::LayoutRequest)
            return false;
        auto *widget = qobject_cast<QWidget *>(object);
        if (!widget)
            return false;
        QString name = QString::fromLatin1(widget->metaObject()->className());
        if (!widget->objectName().isEmpty() && !widget->objectName().startsWith(QLatin1String("qt_")))
            name += QLatin1Char(' ') + widget->objectName();
        if (widget->parentWidget())
            name += QStringLiteral(" in ") + QString::fromLatin1(widget->parentWidget()->metaObject()->className());
        Entry &e = m_entries[name];
        if (event->type() == QEvent::Paint) {
            ++e.paints;
            // area: the bounding rectangle of what is repainted (what a widget
            // that ignores the region paints); region: its pixels.
            const QPaintEvent *paint = static_cast<QPaintEvent *>(event);
            e.area += qint64(paint->rect().width()) * paint->rect().height();
            for (const QRect &r : paint->region())
                e.region += qint64(r.width()) * r.height();
        } else {
            ++e.layouts;
        }
        return false;
    }

private:
    struct Entry
    {
        qint64 paints = 0, area = 0, region = 0, layouts = 0;
    };
    std::map<QString, Entry> m_entries;
};

// What one update repainted and which widgets received a layout request
// (--steps): the pixels painted and the classes, for the slowest updates' lines.
class StepCensus : public QObject
{
public:
    StepCensus() { qApp->installEventFilter(this); }
    ~StepCensus() override { qApp->removeEventFilter(this); }
    std::string take()
    {
        std::string layouts;
        for (const auto &[name, count] : m_layouts)
            layouts += " " + name + (count > 1 ? "×" + std::to_string(count) : std::string());
        std::vector<std::pair<std::string, long long>> painted(m_painted.begin(), m_painted.end());
        std::sort(painted.begin(), painted.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
        std::string largest;
        for (std::size_t i = 0; i < std::min<std::size_t>(4, painted.size()); ++i)
            largest += " " + painted[i].first + " " + std::to_string(painted[i].second);
        char text[96];
        std::snprintf(text, sizeof text, "painted %7lld px in %3d paints (largest:", m_area, m_paints);
        m_area = 0;
        m_paints = 0;
        m_layouts.clear();
        m_painted.clear();
        return text + largest + "); layout requests:" + (layouts.empty() ? std::string(" none") : layouts);
    }

protected:
    bool eventFilter(QObject *object, QEvent *event) override
    {
        if (!object->isWidgetType())
            return false;
        if (event->type() == QEvent::Paint) {
            const QRect r = static_cast<QPaintEvent *>(event)->rect();
            m_area += qint64(r.width()) * r.height();
            m_painted[name(object)] += qint64(r.width()) * r.height();
            ++m_paints;
        } else if (event->type() == QEvent::LayoutRequest) {
            ++m_layouts[name(object)];
        }
        return false;
    }
    // "QWidget<BrouwerPanel": a plain QWidget by its parent (and its name, "qt_scrollarea_viewport")
    static std::string name(QObject *object)
    {
        std::string n = object->metaObject()->className();
        if (n == "QWidget" && !object->objectName().isEmpty())
            n += "(" + object->objectName().toStdString() + ")";
        if (n.rfind("QWidget", 0) == 0 && object->parent())
            n += std::string("<") + object->parent()->metaObject()->className();
        const std::size_t colons = n.find("studio::");
        return colons == std::string::npos ? n : n.erase(colons, 8);
    }

private:
    long long m_area = 0;
    int m_paints = 0;
    std::map<std::string, int> m_layouts;
    std::map<std::string, long long> m_painted;
};

bool g_census = false; // --paints
bool g_nnmeterTogglesOnly = false; // --nnmeter-toggles-only: no stage timings (callgrind of the toggles alone)
bool g_steps = false;  // --steps: the slowest updates of each series, with what each changed

// One series of updates: wall time and the GUI thread's CPU time of each.
struct Timings
{
    std::vector<double> wall, cpu;
    std::vector<std::string> what; // per update, when the view says (--steps)
    std::shared_ptr<EventCensus> census = g_census ? std::make_shared<EventCensus>() : nullptr;
};

// Every series printed so far, for --summary's table at the end.
struct SeriesSummary
{
    std::string label;
    Stats wall, cpu;
    std::size_t count = 0;
};
std::vector<SeriesSummary> g_summary;

// "<label>  wall median … p99 …  | GUI CPU median … p99 …": one line per series.
void printTimings(const std::string &label, const Timings &t)
{
    const Stats w = summarize(t.wall);
    const Stats c = summarize(t.cpu);
    g_summary.push_back({label, w, c, t.wall.size()});
    std::printf("%-58s wall median %6.2f  p90 %6.2f  p99 %6.2f  max %6.2f | GUI CPU median %6.2f  p90 %6.2f  p99 %6.2f  max %6.2f ms (n=%zu)\n",
                label.c_str(), w.median, w.p90, w.p99, w.max, c.median, c.p90, c.p99, c.max, t.wall.size());
    if (t.census)
        t.census->print("paint events and layout requests", int(t.wall.size()));
    if (g_steps && t.what.size() == t.cpu.size()) {
        std::vector<std::size_t> order(t.cpu.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return t.cpu[a] > t.cpu[b]; });
        std::printf("  slowest updates (GUI CPU, wall ms):\n");
        for (std::size_t k = 0; k < std::min<std::size_t>(12, order.size()); ++k)
            std::printf("    #%-4zu %6.2f %6.2f  %s\n", order[k], t.cpu[order[k]], t.wall[order[k]], t.what[order[k]].c_str());
        std::printf("  the median update:\n");
        const std::size_t m = order[order.size() / 2];
        std::printf("    #%-4zu %6.2f %6.2f  %s\n", m, t.cpu[m], t.wall[m], t.what[m].c_str());
    }
    std::fflush(stdout);
}

// Drags two sliders in turn as a user would and measures each move until the
// view's coalesced update ran and the window painted (`updates` reads its count).
template<typename UpdateCount>
Timings dragSliders(QSlider *a, QSlider *b, int iterations, UpdateCount &&updates)
{
    Timings t;
    t.wall.reserve(std::size_t(iterations));
    t.cpu.reserve(std::size_t(iterations));
    QElapsedTimer timer;
    for (int i = 0; i < iterations; ++i) {
        QSlider *slider = (i % 2) ? a : b;
        const int position = 300 + (i * 37) % 400;
        const quint64 before = updates();
        const double cpu0 = threadCpuMs();
        timer.start();
        slider->setValue(position == slider->value() ? position + 1 : position);
        while (updates() == before)
            QApplication::processEvents();
        QApplication::processEvents(); // the paint events
        t.wall.push_back(double(timer.nsecsElapsed()) / 1e6);
        t.cpu.push_back(threadCpuMs() - cpu0);
    }
    return t;
}

Soc makeSoc(int n)
{
    Soc soc;
    soc.name = std::to_string(n) + "-IP benchmark SoC";
    soc.ppeakGops = 50;
    soc.bpeakGBps = 60;
    for (int i = 0; i < n; ++i) {
        Ip ip;
        ip.name = "IP" + std::to_string(i);
        ip.acceleration = 1 + (i % 7) * 3.5;
        ip.bandwidthGBps = 5 + (i % 5) * 4;
        ip.fraction = 1.0 / n;
        ip.intensity = 0.25 * (1 + i % 9);
        soc.ips.push_back(ip);
    }
    return soc;
}

void benchCore(int n, int iterations)
{
    Soc soc = makeSoc(n);
    volatile double sink = 0;
    const int rounds = iterations * 200;
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) {
        soc.ips[0].intensity = 0.25 + (r % 100) * 0.01;
        sink = sink + evaluate(soc).attainableGops;
    }
    const double evalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) {
        soc.ips[0].intensity = 0.25 + (r % 100) * 0.01;
        const Result result = evaluate(soc);
        sink = sink + plotGeometry(soc, result).attainable.y;
    }
    const double geoSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("core   %3d IPs  evaluate: %10.0f evaluations/s (%.2f us each)   evaluate+geometry: %10.0f/s (%.2f us)\n",
                n, rounds / evalSeconds, evalSeconds / rounds * 1e6, rounds / geoSeconds, geoSeconds / rounds * 1e6);
}


void benchReplot(int n, int iterations)
{
    studio::MainWindow window;
    window.resize(1400, 900);
    window.show();
    window.gablesDocument()->setSoc(makeSoc(n), QString());
    QApplication::processEvents();
    studio::GablesView *view = window.gablesView();
    view->flushPendingUpdate();
    settleWindow();

    // Drag the last IP's intensity slider back and forth, and Bpeak's, as a user would.
    QSlider *intensity = view->panel()->intensitySlider(n - 1)->slider();
    QSlider *bpeak = view->panel()->bpeakSlider()->slider();
    const auto label = [&](const char *what) { return "gables " + std::to_string(n) + " IPs, " + what; };
    printTimings(label("slider -> finished replot"), dragSliders(intensity, bpeak, iterations, [&] { return view->updateCount(); }));
    // With a compared snapshot (ghost curves, comparison readout), then the
    // sensitivity tornado shown too: how they are used in a review.
    window.gablesDocument()->pinSnapshot();
    view->flushPendingUpdate();
    settleWindow();
    printTimings(label("snapshot compared"), dragSliders(intensity, bpeak, iterations, [&] { return view->updateCount(); }));
    view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
    view->flushPendingUpdate();
    settleWindow(); // the tab switch's layout requests: unsettled, a whole-window repaint in the fourth step
    printTimings(label("snapshot + sensitivity shown"), dragSliders(intensity, bpeak, iterations, [&] { return view->updateCount(); }));
    view->bottomTabs()->setCurrentIndex(0);
    window.gablesDocument()->setComparedSnapshot(-1);
    view->flushPendingUpdate();

    // Where the time goes: each stage of one update alone.
    const Soc &soc = window.gablesDocument()->soc();
    printStage("panel: refresh controls", iterations, [&] { view->panel()->refreshValues(); });
    printStage("evaluate + plot geometry", iterations, [&] { view->plot()->setModel(soc, evaluate(soc)); });
    printStage("roofline plot: replot", iterations, [&] { view->plot()->replot(); });
    printStage("terms chart: replot", iterations, [&] { view->termsChart()->replot(); });
}

// The Verrocchio timeline at n instructions (a synthetic double-buffered
// vector add on two cores): B_bus slider → simulation in the worker → the
// fresh result drawn. The stages after it show which part runs where: only
// the "(GUI)" ones occupy the GUI thread.
void benchTimeline(std::size_t n, int iterations)
{
    studio::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto *view = window.findChild<studio::TimelineView *>();
    window.setCurrentView(view);
    view->document()->setTrace(roofline::verrocchio::syntheticVectorAdd(n, 2), QString());
    view->flushPendingUpdate();
    // The window laid out and the worker idle (TimelineView::workerSettled()):
    // after opening a trace it maps the heap for the next steps
    // (TimelinePlanCache::warmUp(), some 5 ms), after a snapshot is compared
    // it simulates the snapshot. A user's first slider move comes long after
    // either; a series started at once charged them to its first step (23–29
    // ms, a tenth of p99's three slowest steps).
    const auto settle = [&] {
        settleWindow();
        QElapsedTimer waited;
        waited.start();
        while (!view->workerSettled() && waited.elapsed() < 10000)
            QApplication::processEvents(QEventLoop::AllEvents, 5);
        if (!view->workerSettled())
            std::fprintf(stderr, "timeline %zu instr: the worker was still busy after 10 s\n", n);
        settleWindow(); // what the worker's last result asked to be drawn
    };
    settle();

    QSlider *bus = view->panel()->busSlider()->slider();
    // One step: the B_bus slider to `position` (one more if it is there
    // already), until the fresh result is drawn and the window painted.
    const auto moveBus = [&](int position) {
        bus->setValue(position == bus->value() ? position + 1 : position);
        const double wanted = view->document()->machine().busGBps;
        while (view->data().machine.busGBps != wanted)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents); // sleeps until the worker posts
        QApplication::processEvents(); // paint events
    };
    QElapsedTimer timer;
    qint64 appliedAt = 0; // when the view finished drawing the result into its plots
    QObject::connect(view, &studio::TimelineView::updated, view, [&] { appliedAt = timer.nsecsElapsed(); });
    // Where the wall time of one step goes, stage by stage (the view's
    // timestamps, TimelineView::lastStages()), in the order they run.
    static const char *const kStageNames[] = { "edit: slider to update requested (GUI)",
        "hand-over: queued start of the job (GUI)", "hand-over: worker thread wakes", "simulate (worker)",
        "bars (worker)", "critical path, name runs, merges (worker)", "hand-over: result reaches the GUI",
        "new data into plots, table; replot (GUI)", "window paint (GUI)" };
    constexpr std::size_t kStages = std::size(kStageNames);
    const auto drag = [&](const char *what) {
        Timings t;
        std::vector<double> applied, process;
        std::vector<long> faults; // the worker's minor page faults in compute() (-1: not measured)
        std::array<std::vector<double>, kStages> stages;
        for (int i = 0; i < iterations; ++i) {
            const int position = 300 + (i * 37) % 400;
            const double cpu0 = threadCpuMs();
            const double process0 = processCpuMs();
            const std::int64_t start = studio::TimelineView::steadyNanoseconds();
            timer.start();
            moveBus(position);
            t.wall.push_back(double(timer.nsecsElapsed()) / 1e6);
            const std::int64_t end = studio::TimelineView::steadyNanoseconds();
            t.cpu.push_back(threadCpuMs() - cpu0);
            process.push_back(processCpuMs() - process0);
            applied.push_back(double(appliedAt) / 1e6);
            const auto &st = view->lastStages();
            faults.push_back(st.worker.pageFaults);
            const std::int64_t marks[kStages + 1] = { start, st.worker.requested, st.worker.handedOver,
                st.worker.jobStart, st.worker.simulated, st.worker.bars, st.worker.computed, st.delivered, st.drawn,
                end };
            if (std::all_of(std::begin(marks), std::end(marks), [](std::int64_t m) { return m > 0; })) {
                for (std::size_t k = 0; k < kStages; ++k)
                    stages[k].push_back(double(marks[k + 1] - marks[k]) / 1e6);
            }
        }
        char label[96];
        std::snprintf(label, sizeof label, "timeline %zu instr%s, slider -> fresh result drawn", n, what);
        printTimings(label, t);
        const Stats p = summarize(process);
        std::printf("         process CPU (GUI + worker: simulation, and sensitivity if shown) median %6.2f  p99 %6.2f ms; "
                    "%llu stale results dropped\n",
                    p.median, p.p99, static_cast<unsigned long long>(view->droppedCount()));
        if (g_steps && stages[0].size() == t.wall.size()) {
            // The slowest steps, stage by stage: where a tail step lost its time.
            std::vector<std::size_t> order(t.wall.size());
            std::iota(order.begin(), order.end(), std::size_t(0));
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return t.wall[a] > t.wall[b]; });
            for (std::size_t k = 0; k < std::min<std::size_t>(6, order.size()); ++k) {
                const std::size_t i = order[k];
                std::printf("         step %3zu: %6.2f ms =", i, t.wall[i]);
                for (std::size_t s = 0; s < kStages; ++s)
                    std::printf(" %.2f", stages[s][i]);
                std::printf(" (the stages below, in order); the worker's page faults %ld\n", faults[i]);
            }
        }
        if (!stages[0].empty()) {
            std::printf("         wall time by stage (n=%zu):\n", stages[0].size());
            for (std::size_t k = 0; k < kStages; ++k) {
                const Stats s = summarize(stages[k]);
                std::printf("           %-44s median %6.2f  p90 %6.2f  p99 %6.2f ms\n", kStageNames[k], s.median,
                            s.p90, s.p99);
            }
        }
        return summarize(applied);
    };
    // The first steps after opening the trace, a step per 16 ms as a drag
    // makes them: what a user's first slider move costs. The series below
    // start from a view that has drawn hundreds of results. Through the worker
    // only: shorter traces are simulated on the GUI thread, where nothing is
    // warmed up.
    if (n > view->syncInstructions()) {
        constexpr int kFirstSteps = 3;
        std::array<double, kFirstSteps> wall {};
        std::array<std::array<double, kStages - 2>, kFirstSteps> stage {}; // the stages from the hand-over to the plots drawn
        std::array<long, kFirstSteps> stepFaults {};
        for (int k = 0; k < kFirstSteps; ++k) {
            QElapsedTimer paced;
            paced.start();
            while (paced.elapsed() < 16)
                QApplication::processEvents(QEventLoop::AllEvents, 5);
            const int position = 300 + (k * 37) % 400;
            timer.start();
            moveBus(position);
            wall[k] = double(timer.nsecsElapsed()) / 1e6;
            const auto &st = view->lastStages();
            stepFaults[k] = st.worker.pageFaults;
            const std::int64_t marks[kStages - 1] = { st.worker.requested, st.worker.handedOver, st.worker.jobStart,
                st.worker.simulated, st.worker.bars, st.worker.computed, st.delivered, st.drawn };
            for (std::size_t m = 0; m + 2 < kStages; ++m)
                stage[k][m] = marks[m] > 0 && marks[m + 1] > 0 ? double(marks[m + 1] - marks[m]) / 1e6 : -1;
        }
        std::printf("timeline %zu instr, the first steps after opening it (a step per 16 ms): %.2f, %.2f, %.2f ms\n", n,
            wall[0], wall[1], wall[2]);
        if (g_steps) {
            for (int k = 0; k < kFirstSteps; ++k) {
                std::printf("         first step %d: the stages below from the second to the eighth, in order:", k + 1);
                for (double d : stage[k])
                    std::printf(" %.2f", d);
                std::printf(" ms; the worker's page faults %ld\n", stepFaults[k]);
            }
        }
    }
    const Stats a = drag(view->syncInstructions() >= n ? ", simulated on the GUI thread" : "");
    std::printf("         of which until the plots were redrawn  median %6.2f  p99 %6.2f ms (the rest: window paint)\n",
                a.median, a.p99);
    if (view->syncInstructions() >= n) {
        // The same steps through the worker, as before short traces stayed on the GUI thread.
        const std::size_t sync = view->syncInstructions();
        view->setSyncInstructions(0);
        drag(", in the worker");
        view->setSyncInstructions(sync);
    }

    // A drag as a hand makes it: a slider step every 16 ms for 1.5 s whether
    // or not the last one has been drawn, then the release. How often a
    // picture is drawn during the drag, and how long after the release the
    // final one takes.
    {
        std::vector<qint64> drawnAt;
        QElapsedTimer clock;
        const auto connection = QObject::connect(view, &studio::TimelineView::updated, view,
                                                 [&] { drawnAt.push_back(clock.elapsed()); });
        const quint64 intermediate = view->intermediateCount();
        clock.start();
        int steps = 0;
        bus->setSliderDown(true); // the thumb pressed (sliderPressed), released below
        while (clock.elapsed() < 1500) {
            const int position = 300 + (steps * 7) % 400;
            bus->setValue(position == bus->value() ? position + 1 : position);
            ++steps;
            while (clock.elapsed() < steps * 16)
                QApplication::processEvents(QEventLoop::AllEvents, 2);
        }
        bus->setSliderDown(false); // sliderReleased: the view gives up an older running simulation
        const qint64 release = clock.elapsed();
        const std::size_t duringDrag = drawnAt.size();
        const double wanted = view->document()->machine().busGBps;
        while (view->data().machine.busGBps != wanted)
            QApplication::processEvents(QEventLoop::WaitForMoreEvents);
        QApplication::processEvents();
        const qint64 final = clock.elapsed() - release;
        qint64 gap = drawnAt.empty() ? release : drawnAt.front();
        for (std::size_t i = 1; i < duringDrag; ++i)
            gap = std::max(gap, drawnAt[i] - drawnAt[i - 1]);
        QObject::disconnect(connection);
        std::printf("timeline %6zu instr, continuous drag (a step per 16 ms, 1.5 s): %zu pictures drawn during it "
                    "(%llu of them intermediate, largest gap %lld ms); final picture %lld ms after the release\n",
                    n, duringDrag, static_cast<unsigned long long>(view->intermediateCount() - intermediate),
                    static_cast<long long>(gap), static_cast<long long>(final));
    }
    // What the drags left resident, and what stays once the view has been
    // idle for TimelineView::kIdleReleaseMs (here 1 s instead of 2) and the
    // worker has given the free memory back (past kMaxInstructions only), and
    // the next step, which maps it again.
    const auto reportResident = [&](const char *what) {
        view->setIdleReleaseDelay(1000);
        settle();
        const double afterDrags = residentMB();
        const quint64 released = view->releaseCount();
        QElapsedTimer idle;
        idle.start();
        while ((view->releaseCount() == released || !view->workerSettled()) && idle.elapsed() < 10000)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        const double givenBack = residentMB();
        // The next step maps that memory again.
        timer.start();
        moveBus(bus->value() + 3);
        std::printf("timeline %zu instr, holding the trace, its result %s: resident after the drags %.0f MB, "
                    "%.0f MB once the free memory was given back (idle %lld ms later); the next step %.1f ms\n",
                    n, what, afterDrags, givenBack, static_cast<long long>(idle.elapsed()),
                    double(timer.nsecsElapsed()) / 1e6);
        view->setIdleReleaseDelay(studio::TimelineView::kIdleReleaseMs);
    };
    if (n > studio::TimelinePlanCache::kMaxInstructions)
        reportResident("(no snapshot)");
    // The review features: a compared snapshot (simulated once, drawn faded in
    // every update), then also the sensitivity tab (up to 30 simulations in the
    // worker after each result, cancelled by the next slider move).
    view->document()->pinSnapshot();
    view->flushPendingUpdate();
    settle();
    drag(", snapshot compared");
    view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
    settle();
    drag(", + sensitivity shown");
    view->bottomTabs()->setCurrentIndex(0);
    view->document()->setComparedSnapshot(-1);
    view->flushPendingUpdate();
    if (n > studio::TimelinePlanCache::kMaxInstructions)
        reportResident("and its snapshot's");

    const studio::TimelineData data = view->data();
    studio::TimelinePlanCache plans; // as the view's: the plan built once
    printStage("simulate + bars + path (worker)", iterations,
        [&] { studio::TimelineView::ComputeOptions options;
            options.plans = &plans;
            studio::TimelineView::compute(data.trace, data.machine, options); });
    printStage("timeline: set data + replot (GUI)", iterations, [&] {
        view->plot()->setData(data);
        view->plot()->replot();
    });
    printStage("timeline: replot, whole trace (GUI)", iterations, [&] {
        view->plot()->resetView();
        view->plot()->replot();
    });
    int panStep = 0;
    printStage("timeline: pan at 1/10 zoom (GUI)", iterations, [&] {
        const double width = data.result->totalNs / 10;
        const double start = (panStep++ % 90) * width / 10;
        view->plot()->setTimeRange(start, start + width);
        view->plot()->replot();
    });
    printStage("timeline: replot, zoomed to 1/100", iterations, [&] {
        view->plot()->setTimeRange(0, data.result->totalNs / 100);
        view->plot()->replot();
    });
    view->plot()->resetView();
    printStage("overview: set data + replot (GUI)", iterations, [&] {
        view->overview()->setData(data);
        view->overview()->replot();
    });
    printStage("instruction table: new timings (GUI)", iterations, [&] {
        view->tableModel()->setData(data);
        QApplication::processEvents();
    });
    printStage("whole window repaint (GUI)", iterations, [&] { window.repaint(); });
}

// A synthetic network of `n` layers: conv 3x3 / batch-norm / ReLU blocks with
// a stride-1 pooling every fourth block, shapes constant so every layer runs.
roofline::amaix::Network makeAmaixNetwork(int n)
{
    using namespace roofline::amaix;
    Network net;
    net.name = std::to_string(n) + "-layer synthetic network";
    net.dataType = "fp16";
    net.inputs.push_back({"data", Shape{64, 28, 28}});
    for (int i = 0; i < n; ++i) {
        Layer l;
        l.name = "l" + std::to_string(i);
        l.inputs = {i - 1}; // the first reads input 0 (-1)
        switch (i % 3) {
        case 0:
            if (i % 12 == 9) {
                l.type = LayerType::Pooling;
                l.kernelH = l.kernelW = 3;
                l.padH = l.padW = 1;
            } else {
                l.type = LayerType::Convolution;
                l.outChannels = 64;
                l.kernelH = l.kernelW = 3;
                l.padH = l.padW = 1;
                l.hasBias = false;
            }
            break;
        case 1: l.type = LayerType::BatchNorm; break;
        default: l.type = LayerType::Activation; break;
        }
        net.layers.push_back(l);
    }
    roofline::Diagnostics diagnostics;
    if (!inferShapes(net, diagnostics))
        std::fprintf(stderr, "synthetic network: %s\n", diagnostics.toString().c_str());
    return net;
}

// AMAIX: slider → evaluation, table and scatter replot, for ResNet-50 on
// nv_full with divide and conquer, and for a synthetic network of each size
// in --layers (500 layers by default); the
// core's evaluations per second and the sweep's points per second.
void benchAmaix(int iterations, const std::vector<int> &layerCounts)
{
    using namespace roofline::amaix;
    std::string text; // the embedded examples
    studio::readTextFile(QStringLiteral(":/examples/amaix/nv_full.json"), &text, nullptr);
    const Accelerator nvFull = *parseAccelerator(text, "nv_full.json").accelerator;
    studio::readTextFile(QStringLiteral(":/examples/amaix/resnet50.json"), &text, nullptr);
    const Network resnet = *parseNetwork(text, "resnet50.json").network;
    // ResNet-50, then one synthetic network per size asked for.
    std::vector<Network> synthetic;
    for (int layers : layerCounts)
        synthetic.push_back(makeAmaixNetwork(layers));
    std::vector<const Network *> networks{&resnet};
    for (const Network &net : synthetic)
        networks.push_back(&net);
    Options refine;
    refine.refine = true;

    for (const Network *net : networks) {
        roofline::amaix::Result scratch;
        Accelerator acc = nvFull;
        const int rounds = iterations * 5;
        volatile double sink = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < rounds; ++r) {
            acc.memories[0].bandwidthGBps = 32 + r % 64;
            evaluate(*net, acc, refine, scratch);
            sink = sink + scratch.totalNs;
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("amaix core  %-30s evaluate (refine): %8.0f networks/s (%.1f us each)\n", net->name.c_str(),
                    rounds / seconds, seconds / rounds * 1e6);

        SweepSpec spec;
        spec.options = refine;
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/memories/DRAM/bandwidth_gbps", 0,
                             logValues(4, 512, std::size_t(iterations * 5))});
        roofline::Diagnostics diagnostics;
        const auto sweepStart = std::chrono::steady_clock::now();
        const SweepResult sweep = runSweep(*net, nvFull, spec, diagnostics);
        const double sweepSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sweepStart).count();
        std::printf("amaix sweep %-30s %zu points: %8.0f points/s (all hardware threads)\n", net->name.c_str(),
                    sweep.points.size(), double(sweep.points.size()) / sweepSeconds);
    }

    studio::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto *view = window.findChild<studio::AmaixView *>();
    window.setCurrentView(view);
    for (const Network *net : networks) {
        view->document()->setNetwork(*net, QString());
        view->document()->setRefine(true);
        view->flushPendingUpdate();
        settleWindow(); // the new network's layout requests: unsettled, they went into the first steps
        QSlider *dram = view->panel()->slider(QStringLiteral("/memories/DRAM/bandwidth_gbps"))->slider();
        QSlider *clock = view->panel()->slider(QStringLiteral("/clock_ghz"))->slider();
        const auto label = [&](const char *what) { return "amaix " + net->name + ", " + what; };
        printTimings(label("slider -> finished replot"), dragSliders(dram, clock, iterations, [&] { return view->updateCount(); }));
        roofline::amaix::Result r;
        std::vector<LayerSummary> layers;
        printStage("evaluate + layer summaries", iterations, [&] {
            evaluate(view->document()->network(), view->document()->accelerator(), view->document()->options(), r);
            summarizeLayers(view->document()->network(), r, layers);
        });
        printStage("scatter: replot", iterations, [&] { view->plot()->replot(); });
        printStage("table: repaint", iterations, [&] { view->table()->viewport()->repaint(); });
        printStage("view: whole update, no paint", iterations, [&] {
            view->document()->setRefine(!view->document()->options().refine);
            view->flushPendingUpdate();
        });
        view->document()->setRefine(true);
        view->flushPendingUpdate();
        printStage("whole window repaint", iterations, [&] { window.repaint(); });

        // The review features: a compared snapshot (faded markers, roofs and
        // arrows on the scatter), then the sensitivity tab instead of the scatter.
        const int pinned = view->document()->pinSnapshot();
        view->document()->setComparedSnapshot(pinned);
        view->flushPendingUpdate();
        settleWindow();
        printTimings(label("snapshot compared"), dragSliders(dram, clock, iterations, [&] { return view->updateCount(); }));
        view->tabs()->setCurrentWidget(view->sensitivityChart());
        view->flushPendingUpdate();
        settleWindow();
        printTimings(label("snapshot + sensitivity shown"), dragSliders(dram, clock, iterations, [&] { return view->updateCount(); }));
        view->document()->setComparedSnapshot(-1);
        view->flushPendingUpdate();
        settleWindow();
        printTimings(label("sensitivity shown"), dragSliders(dram, clock, iterations, [&] { return view->updateCount(); }));
        view->tabs()->setCurrentIndex(0);
        view->document()->setComparedSnapshot(-1);
        view->flushPendingUpdate();
    }
}

// The nn-Meter view (issue 12): a fusion-rule check box clicked → kernels
// detected again → tree, kernel chart, totals and readout redrawn and painted.
// ResNet-50 shipped (v1, 175 operators), torchvision's ResNet-50 (ONNX, 174)
// EfficientNet-B0 (ONNX, 287 operators, SE units) and GoogLeNet (ONNX, issue 12's second network).
// Until the window is laid out after a setup step (a network opened, a snapshot pinned, a
// tab shown): each layout that activates posts the next request to its parent, which one
// pass of processEvents() leaves for the next. Unsettled, the first three toggles of each
// network paid for the network's open climbing to the main window (a whole-window layout
// and repaint each; tst_nnmeterview_toggle), which a user's event loop does at once.
// (A function, not a lambda: `toggles` below stays lambda #1 for callgrind.)
void settleNnmeter()
{
    for (int i = 0; i < 10; ++i)
        QApplication::processEvents();
}

void benchNnmeter(int iterations, int networkCount)
{
    using namespace roofline;
    studio::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto *view = window.findChild<studio::NnmeterView *>();
    window.setCurrentView(view);
    QApplication::processEvents();
    const QStringList networks{QStringLiteral(":/examples/amaix/resnet50.json"),
                               QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/onnx/resnet50.onnx"),
                               QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/onnx/efficientnet_b0.onnx"),
                               QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/onnx/googlenet.onnx")};
    for (const QString &path : networks.mid(0, networkCount)) {
        QString error;
        if (!view->panel()->openPath(path, &error, nullptr)) {
            std::printf("nnmeter: %s\n", qPrintable(error));
            continue;
        }
        view->flushPendingUpdate();
        settleNnmeter();
        const std::string name = view->document()->network().name + " (" + QFileInfo(path).suffix().toStdString() + ")";
        // Alternate two rules so each click changes the kernels.
        QCheckBox *a = view->panel()->ruleBox("bn_relu");
        QCheckBox *b = view->panel()->ruleBox("conv_bn");
        if (!a || !b)
            continue;
        // Each toggle's GUI-thread CPU in three phases: the click itself (the check box, the
        // document's edit, the undo step and whoever listens to the stack), the view's update
        // (read when the view emits updated(), so inside the same event-loop pass), and the
        // rest (layout and paint). Read at the signal: the loop below returns from
        // processEvents() only after the paint that the same pass of posted events runs.
        std::vector<double> clickCpu, updateCpu, paintCpu, untilUpdated;
        quint64 refreshes = 0; // the view's updates the clicks caused (one each, unless something echoes)
        QElapsedTimer timer;
        double cpuStart = 0, atUpdateCpu = -1, atUpdateWall = -1;
        auto toggles = [&] {
            Timings t;
            clickCpu.clear();
            updateCpu.clear();
            paintCpu.clear();
            untilUpdated.clear();
            for (int i = 0; i < iterations; ++i) {
                QCheckBox *box = (i % 2) ? a : b;
                const quint64 before = view->updateCount();
                const std::size_t kernelsBefore = view->prediction().detection.kernels.size();
                atUpdateCpu = atUpdateWall = -1;
                if (g_steps)
                    BENCH_CALLGRIND_ZERO(); // under callgrind, each toggle a dump of its own (--steps)
                cpuStart = threadCpuMs();
                timer.start();
                box->click();
                const double clicked = threadCpuMs();
                while (view->updateCount() == before)
                    QApplication::processEvents();
                QApplication::processEvents(); // the paint events, if the pass above left any
                t.wall.push_back(double(timer.nsecsElapsed()) / 1e6);
                const double end = threadCpuMs();
                if (g_steps)
                    BENCH_CALLGRIND_DUMP("nnmeter rule toggle");
                t.cpu.push_back(end - cpuStart);
                clickCpu.push_back(clicked - cpuStart);
                updateCpu.push_back(atUpdateCpu - clicked);
                paintCpu.push_back(end - atUpdateCpu);
                untilUpdated.push_back(atUpdateWall);
                refreshes += view->updateCount() - before;
                if (g_steps) // which toggles are slow (the first ones of a run?) and in which phase
                    t.what.push_back("toggle " + std::to_string(i) + ": " + std::to_string(kernelsBefore) + " -> "
                                     + std::to_string(view->prediction().detection.kernels.size()) + " kernels, update "
                                     + std::to_string(updateCpu.back()) + ", layout + paint " + std::to_string(paintCpu.back())
                                     + " ms GUI CPU");
            }
            return t;
        };
        // (after `toggles`, which stays lambda #1 for callgrind's --toggle-collect)
        const auto atUpdate = QObject::connect(view, &studio::NnmeterView::updated, view, [&] {
            if (atUpdateCpu < 0) {
                atUpdateCpu = threadCpuMs();
                atUpdateWall = double(timer.nsecsElapsed()) / 1e6;
            }
        });
        const auto printPhases = [&] {
            const Stats c = summarize(clickCpu), u = summarize(updateCpu), p = summarize(paintCpu), w = summarize(untilUpdated);
            std::printf("         GUI CPU by phase, median / p99: click (edit, undo step) %5.2f / %5.2f, view update %5.2f / %5.2f, "
                        "layout + paint %5.2f / %5.2f ms; wall until the view updated %5.2f / %5.2f ms\n",
                        c.median, c.p99, u.median, u.p99, p.median, p.p99, w.median, w.p99);
        };
        const auto label = [&](const char *what) {
            return "nnmeter " + name + ", " + what;
        };
        const auto printRefreshes = [&] { // more than 1.00: a click's update made another one
            std::printf("         view updates per click: %.2f\n", double(refreshes) / iterations);
            refreshes = 0;
        };
        printTimings(label("rule -> finished replot"), toggles());
        printRefreshes();
        printPhases();
        if (!g_nnmeterTogglesOnly) {
            printStage("detect + predict (core)", iterations, [&] {
                const nnmeter::Prediction p = nnmeter::predictNetwork(view->document()->network(), view->document()->device(),
                                                                      view->document()->rules());
                (void)p;
            });
            printStage("kernel chart: replot", iterations, [&] { view->plot()->replot(); });
            printStage("kernel tree: repaint", iterations, [&] { view->kernelTree()->viewport()->repaint(); });
            printStage("whole window repaint", iterations, [&] { window.repaint(); });
            printStage("view: whole update, no paint", iterations, [&] {
                view->document()->setMultiInbound(!view->document()->rules().multiInbound);
                view->flushPendingUpdate();
            });
            printStage("panel: refresh", iterations, [&] { view->panel()->refresh(); });
        }
        // With a snapshot compared (the ghost line, two sets of totals).
        view->document()->pinSnapshot();
        view->flushPendingUpdate();
        settleNnmeter();
        printTimings(label("snapshot compared"), toggles());
        printRefreshes();
        printPhases();
        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        settleNnmeter();
        printTimings(label("snapshot + sensitivity shown"), toggles());
        printRefreshes();
        printPhases();
        view->bottomTabs()->setCurrentIndex(0);
        view->document()->removeSnapshot(0);
        view->document()->resetRules();
        view->flushPendingUpdate();
        QObject::disconnect(atUpdate);
    }
}

// The Brouwer view (issue 11) on SoS_GoogleNet (EdgeCaffe's GoogLeNet, 142
// layers) with the seed's Table 2 (both regimes): the memory slider moved
// across 16 MiB – 1 GiB, so layers switch regime, to a finished replot of the
// bars, the curve's current point, the table and the readout.
// One memory move to its finished replot. Under callgrind each move is a dump
// of its own (callgrind.out.PID.N, in the order of the moves), e.g.
//   valgrind --tool=callgrind roofline-bench --only brouwer --iterations 40 --steps
[[gnu::noinline]] void brouwerMove(studio::BrouwerView *view, QSlider *slider, int position)
{
    const quint64 before = view->updateCount();
    BENCH_CALLGRIND_ZERO();
    slider->setValue(position);
    while (view->updateCount() == before)
        QApplication::processEvents();
    QApplication::processEvents(); // the paint events
    BENCH_CALLGRIND_DUMP("brouwer memory move");
}

void benchBrouwer(int iterations)
{
    studio::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto *view = window.findChild<studio::BrouwerView *>();
    window.setCurrentView(view);
    studio::BrouwerDocument *doc = view->document();
    for (std::size_t i = 0; i < doc->networks().size(); ++i) {
        if (doc->networks()[i]->name == QLatin1String("SoS_GoogleNet"))
            doc->selectNetwork(int(i));
    }
    for (std::size_t i = 0; i < doc->devices().size(); ++i) {
        if (doc->devices()[i].path.endsWith(QLatin1String("seed-table2-fe.json")))
            doc->selectDevice(int(i));
    }
    view->flushPendingUpdate();
    // Until the window is laid out: each layout that activates posts the next request to its
    // parent, which one pass of processEvents() leaves for the next (the first moves paid for it).
    const auto settle = [] {
        for (int i = 0; i < 10; ++i)
            QApplication::processEvents();
    };
    settle();
    QSlider *slider = view->panel()->memorySlider();
    const int top = studio::BrouwerPanel::memoryScale().toPosition(1024.0 * 1024 * 1024);
    auto drag = [&] {
        Timings t;
        QElapsedTimer timer;
        std::unique_ptr<StepCensus> census;
        if (g_steps)
            census = std::make_unique<StepCensus>();
        for (int i = 0; i < iterations; ++i) {
            const int position = (i * 37) % top;
            const int from = slider->value();
            const int swappingBefore = view->result().swappingLayers;
            const double cpu0 = threadCpuMs();
            timer.start();
            brouwerMove(view, slider, position == from ? position + 1 : position);
            t.wall.push_back(double(timer.nsecsElapsed()) / 1e6);
            t.cpu.push_back(threadCpuMs() - cpu0);
            if (g_steps) {
                char what[160];
                std::snprintf(what, sizeof what, "position %4d -> %4d (%8.1f MiB), swapping layers %3d -> %3d, bars' time unit %s",
                              from, slider->value(), doc->params().availableBytes / (1024.0 * 1024), swappingBefore,
                              view->result().swappingLayers, qPrintable(view->barsPlot()->timeUnit()));
                t.what.emplace_back(std::string(what) + "\n           " + census->take());
            }
        }
        return t;
    };
    std::printf("brouwer SoS_GoogleNet: %zu layers, %zu knees\n", view->result().layers.size(), view->curve().knees.size());
    printTimings("brouwer SoS_GoogleNet, slider -> finished replot", drag());
    const auto &layers = doc->network()->layers;
    printStage("evaluate (core)", iterations, [&] { (void)roofline::brouwer::evaluate(*doc->device(), layers, doc->params()); });
    printStage("bars: replot", iterations, [&] { view->barsPlot()->replot(); });
    printStage("curve: replot", iterations, [&] { view->curvePlot()->replot(); });
    printStage("memory curve (160 + knees, core)", iterations, [&] {
        (void)roofline::brouwer::memoryCurve(*doc->device(), layers, 4, studio::BrouwerDocument::kMinMemory,
                                             studio::BrouwerDocument::kMaxMemory, 160);
    });
    printStage("whole window repaint", iterations, [&] { window.repaint(); });
    const int pinned = doc->pinSnapshot();
    doc->setComparedSnapshot(pinned);
    view->flushPendingUpdate();
    QApplication::processEvents();
    printStage("view: whole update, snapshot compared", iterations, [&] {
        doc->setAvailableBytes(doc->params().availableBytes * 1.01 > 1024.0 * 1024 * 1024 ? 20.0 * 1024 * 1024
                                                                                          : doc->params().availableBytes * 1.01);
        view->flushPendingUpdate();
    });
    printStage("curve: replot, snapshot compared", iterations, [&] { view->curvePlot()->replot(); });
    printStage("bars: replot, snapshot compared", iterations, [&] { view->barsPlot()->replot(); });
    settle();
    printTimings("brouwer SoS_GoogleNet, snapshot compared", drag());
    view->tabs()->setCurrentWidget(view->sensitivityChart());
    settle();
    printTimings("brouwer SoS_GoogleNet, snapshot + sensitivity shown", drag());
    view->tabs()->setCurrentIndex(0);
}

} // namespace

// Opening an ONNX network in the studio (issue 10): File ▸ Open's path from
// MainWindow::openFile until the AMAIX view has evaluated, filled the table and
// plotted; meanwhile a 1 ms timer measures the longest gap in the GUI thread's
// event loop — the import itself runs on a worker thread, so the gap is what
// the window cannot paint (the view's refresh, not the import).
void benchImport(int iterations)
{
    using namespace studio;
    const QString data = QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/onnx/");
    // Files of this run only: ctest runs both bench programs' smoke tests at once.
    const QString tag = QString::number(QCoreApplication::applicationPid());
    const QString large = QDir::temp().filePath(QStringLiteral("roofline-bench-%1-resnet50-filled.onnx").arg(tag));
    {
        const std::string bytes = filledOnnx((data + QStringLiteral("resnet50.onnx")).toStdString());
        QFile f(large);
        if (bytes.empty() || !f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())) {
            std::fprintf(stderr, "import: cannot write %s\n", qPrintable(large));
            std::exit(1);
        }
    }
    struct Case
    {
        const char *label;
        QString path;
        int runs;
    };
    const bool quick = iterations <= 20;
    const int small = quick ? 3 : std::max(10, iterations / 8);
    // The same network as our JSON (what Save Network As writes): the view's own refresh, for comparison.
    const QString json = QDir::temp().filePath(QStringLiteral("roofline-bench-%1-resnet50-imported.json").arg(tag));
    {
        const roofline::network::NetworkLoad r50 =
            roofline::network::importOnnxFile((data + QStringLiteral("resnet50.onnx")).toStdString());
        roofline::Diagnostics diagnostics;
        if (!r50.network || !roofline::network::saveNetworkFile(*r50.network, json.toStdString(), diagnostics)) {
            std::fprintf(stderr, "import: cannot write %s\n", qPrintable(json));
            std::exit(1);
        }
    }
    const std::vector<Case> cases{{"ResNet-50 as our JSON (no import)", json, small},
                                  {"ResNet-50 ONNX fixture (59 kB)", data + QStringLiteral("resnet50.onnx"), small},
                                  {"ViT-B/16 ONNX fixture", data + QStringLiteral("vit_b_16.onnx"), small},
                                  {"ResNet-50 ONNX, weights inline (102 MB)", large, quick ? 1 : std::max(3, iterations / 40)}};
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    AmaixView *view = nullptr;
    for (ModelView *v : window.views())
        view = view ? view : qobject_cast<AmaixView *>(v);
    std::printf("import into the AMAIX view (open → evaluated, tabled, plotted):\n");
    for (const Case &c : cases) {
        std::vector<double> open, gap;
        for (int i = 0; i < c.runs; ++i) {
            QString error;
            window.openFile(QStringLiteral(":/examples/amaix/alexnet.json"), &error); // something else first
            QApplication::processEvents();
            QElapsedTimer beat;
            double longest = 0;
            QTimer heart;
            heart.setInterval(1);
            QObject::connect(&heart, &QTimer::timeout, [&] {
                longest = std::max(longest, double(beat.nsecsElapsed()) / 1e6);
                beat.start();
            });
            QElapsedTimer timer;
            timer.start();
            beat.start();
            heart.start();
            if (!window.openFile(c.path, &error)) {
                std::fprintf(stderr, "import: %s\n", qPrintable(error));
                std::exit(1);
            }
            view->flushPendingUpdate();
            QApplication::processEvents();
            open.push_back(double(timer.nsecsElapsed()) / 1e6);
            longest = std::max(longest, double(beat.nsecsElapsed()) / 1e6);
            heart.stop();
            gap.push_back(longest);
        }
        const Stats o = summarize(open);
        const Stats g = summarize(gap);
        std::printf("  %-42s %3zu runs  open median %7.1f  p90 %7.1f  p99 %7.1f ms   longest GUI-thread gap median %5.1f  max %5.1f ms\n",
                    c.label, open.size(), o.median, o.p90, o.p99, g.median, g.max);
    }
    QFile::remove(large);
    QFile::remove(json);
}

namespace {

// "2,16,64": the sizes of a list option, each clamped to [lo, hi]; empty if
// any item is not a number.
std::vector<long long> sizeList(const char *text, long long lo, long long hi)
{
    std::vector<long long> out;
    for (const QString &item : QString::fromLocal8Bit(text).split(QLatin1Char(','))) {
        bool ok = false;
        const long long n = item.trimmed().toLongLong(&ok);
        if (!ok)
            return {};
        out.push_back(std::clamp(n, lo, hi));
    }
    return out;
}

// --summary: every series of the run again, as a Markdown table.
void printSummary()
{
    std::printf("\n| series | wall median | wall p90 | wall p99 | GUI CPU median | GUI CPU p99 | n |\n"
                "|---|---:|---:|---:|---:|---:|---:|\n");
    for (const SeriesSummary &s : g_summary)
        std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %zu |\n", s.label.c_str(), s.wall.median, s.wall.p90,
                    s.wall.p99, s.cpu.median, s.cpu.p99, s.count);
    std::printf("\n(ms; wall: slider move to the painted window; GUI CPU: the GUI thread's CPU time of the same updates)\n");
}

} // namespace

int main(int argc, char **argv)
{
    roofline::keepFreedMemory();
    roofline::shareOneHeap(); // the timeline's huge-page reservation covers its worker's results too
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RooflineStudio"));
    QApplication::setApplicationName(QStringLiteral("roofline-bench"));
    int iterations = 400;
    bool iterationsGiven = false;
    std::vector<int> sizes{2, 16, 64};
    std::vector<std::size_t> instructions{10000, 100000};
    std::vector<int> layers{500}; // the synthetic network's sizes
    bool sizesGiven = false, instructionsGiven = false, layersGiven = false;
    int nnmeterNetworks = 4; // --nnmeter-networks: the first N of ResNet-50 JSON, ResNet-50 ONNX, EfficientNet-B0, GoogLeNet
    bool summary = false, scaling = false;
    QString only; // "gables", "timeline" or "amaix": one part, e.g. for callgrind
    bool usage = false;
    for (int i = 1; i < argc && !usage; ++i) {
        const bool hasValue = i + 1 < argc;
        if (std::strcmp(argv[i], "--quick") == 0) {
            iterations = 20;
            iterationsGiven = true;
        } else if (std::strcmp(argv[i], "--iterations") == 0 && hasValue) {
            iterations = std::max(10, std::atoi(argv[++i]));
            iterationsGiven = true;
        } else if (std::strcmp(argv[i], "--ips") == 0 && hasValue) {
            sizes.clear(); // e.g. one size only, for callgrind
            for (long long n : sizeList(argv[++i], 1, 256))
                sizes.push_back(int(n));
            usage = sizes.empty();
            sizesGiven = true;
        } else if (std::strcmp(argv[i], "--instructions") == 0 && hasValue) {
            instructions.clear();
            for (long long n : sizeList(argv[++i], 1, 10'000'000))
                instructions.push_back(std::size_t(n));
            usage = instructions.empty();
            instructionsGiven = true;
        } else if (std::strcmp(argv[i], "--layers") == 0 && hasValue) {
            layers.clear();
            for (long long n : sizeList(argv[++i], 1, 5000))
                layers.push_back(int(n));
            usage = layers.empty();
            layersGiven = true;
        } else if (std::strcmp(argv[i], "--nnmeter-networks") == 0 && hasValue) {
            nnmeterNetworks = std::clamp(std::atoi(argv[++i]), 1, 4); // e.g. one network for callgrind
        } else if (std::strcmp(argv[i], "--nnmeter-toggles-only") == 0) {
            g_nnmeterTogglesOnly = true;
        } else if (std::strcmp(argv[i], "--paints") == 0) {
            g_census = true; // what each update repaints and lays out
        } else if (std::strcmp(argv[i], "--steps") == 0) {
            g_steps = true; // the slowest updates, with what they changed
        } else if (std::strcmp(argv[i], "--summary") == 0) {
            summary = true;
        } else if (std::strcmp(argv[i], "--scaling") == 0) {
            scaling = summary = true;
        } else if (std::strcmp(argv[i], "--only") == 0 && hasValue) {
            only = QString::fromLocal8Bit(argv[++i]);
        } else {
            usage = true;
        }
    }
    if (usage) {
        std::fprintf(stderr, "usage: roofline-bench [--quick] [--iterations N] [--ips N[,N...]] [--instructions N[,N...]] "
                             "[--layers N[,N...]] [--nnmeter-networks N] [--nnmeter-toggles-only] [--paints] [--steps] "
                             "[--summary] [--scaling] [--only gables|timeline|amaix|import|brouwer|nnmeter]\n");
        return 2;
    }
    if (scaling) {
        // The sizes of docs/performance.md's "update time by size", unless given.
        if (!sizesGiven)
            sizes = {2, 4, 8, 16, 32, 64, 128};
        if (!instructionsGiven)
            instructions = {1000, 10000, 100000, 1000000};
        if (!layersGiven)
            layers = {100, 250, 500, 1000, 2000};
        if (!iterationsGiven)
            iterations = 200;
    }
    const auto wanted = [&](const char *part) {
        if (scaling && only.isEmpty()) // the parts that have a size
            return std::strcmp(part, "gables") == 0 || std::strcmp(part, "timeline") == 0 || std::strcmp(part, "amaix") == 0;
        return only.isEmpty() || only == QLatin1String(part);
    };
    std::printf("Roofline Studio benchmark, platform %s, %d iterations\n", qPrintable(QApplication::platformName()),
                iterations);
    if (wanted("gables")) {
        for (int n : sizes)
            benchCore(n, iterations);
        for (int n : sizes)
            benchReplot(n, iterations);
    }
    if (wanted("timeline")) {
        // A step at 10⁶ instructions takes some 60 ms: a tenth of the
        // iterations when scaling (at least 10) keeps the run to minutes.
        for (std::size_t n : instructions)
            benchTimeline(n, scaling && n >= 1'000'000 ? std::max(10, iterations / 10) : iterations);
    }
    if (wanted("amaix"))
        benchAmaix(iterations, layers);
    if (wanted("import"))
        benchImport(iterations);
    if (wanted("brouwer"))
        benchBrouwer(iterations);
    if (wanted("nnmeter"))
        benchNnmeter(iterations, nnmeterNetworks);
    if (summary)
        printSummary();
    return 0;
}
