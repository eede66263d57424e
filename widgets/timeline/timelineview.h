// The Verrocchio timeline view: the Gantt chart of a simulated trace with its
// overview strip, the snapshot row, the readout and, in tabs, the instruction
// table and the sensitivity tornado on the left; the machine panel on the
// right. Machine edits are coalesced (a burst of slider events in one
// event-loop turn starts one simulation) and simulated in a worker thread:
// each request carries a generation number, and a result that is no longer the
// newest is dropped, so the GUI never waits for the simulation of a long
// trace. After the main result the same worker job simulates the compared
// snapshot (once: results are cached per snapshot); only while the
// sensitivity tab is shown, and once the newest result has been on screen for
// kSensitivityQuietMs, a job of its own simulates the sensitivity rows
// (cancelled as soon as a newer request exists). A short trace (up to
// syncInstructions()) is simulated on the GUI thread instead: its simulation
// costs less than the two hand-overs between the threads, which on a busy
// machine wait milliseconds each for a core (docs/performance.md).
// flushPendingUpdate() simulates synchronously (exports, tests).
#pragma once

#include "modelview.h"
#include "timelineplot.h"
#include "verrocchio/comparison.h"
#include "verrocchio/sensitivity.h"

#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace studio {

class EmptyState;
class GoalSeekPanel;
class RichReadoutLabel;
class SensitivityChart;
class SnapshotBar;
class TimelineDocument;
class TimelinePanel;
class TimelineTableModel;

// The simulation plan (roofline::verrocchio::SimulationPlan) of the newest
// trace, built by whichever thread first simulates that trace and shared by
// every later simulation of it: one pass over the trace per trace instead of
// per slider step. Not for traces past kMaxInstructions: a plan held is 20 bytes
// per instruction, and at 10⁶ instructions those 20 MB would take the studio
// past its 200 MB (docs/performance.md); their simulations build their own.
class TimelinePlanCache {
public:
    TimelinePlanCache();
    ~TimelinePlanCache();
    static constexpr std::size_t kMaxInstructions = 300000;
    std::shared_ptr<const roofline::verrocchio::SimulationPlan> planFor(
        const std::shared_ptr<const roofline::verrocchio::Trace> &trace);
    // The trace's BarsPlan (the bars' first pass, a byte per instruction: kept
    // at every size).
    std::shared_ptr<const roofline::verrocchio::BarsPlan> barsPlanFor(
        const std::shared_ptr<const roofline::verrocchio::Trace> &trace);
    // The same if it has been built, else none (the GUI thread's contention
    // spans take it when the worker has built it, never build it themselves).
    std::shared_ptr<const roofline::verrocchio::BarsPlan> builtBarsPlan(
        const std::shared_ptr<const roofline::verrocchio::Trace> &trace) const;

    // Once per trace up to kMaxInstructions, on the worker thread: maps the
    // heap its next steps will use (roofline::warmFreedMemory()),
    // kWarmBytesPerInstruction for each instruction. A step allocates its
    // result, bars and marks (some 100 bytes per instruction) while the
    // previous step's are still shown, so the first two steps after a trace
    // was opened found no freed memory of that size and mapped fresh pages:
    // some 1 800 page faults each, 2–3 ms at 10⁵ instructions
    // (docs/performance.md). About two steps' worth: what the worker's heap
    // holds from the third step on anyway (128 bytes left some 800 faults in
    // the second step; 192 none from the third on, as 256 did).
    static constexpr std::size_t kWarmBytesPerInstruction = 192;
    // What warmUp() and rewarm() map for a trace: 0 past kMaxInstructions (at
    // 10⁶ instructions two more results' worth would take the studio past its 200 MB).
    static std::size_t warmBytes(const roofline::verrocchio::Trace &trace);
    static bool warmsUp(const roofline::verrocchio::Trace &trace) { return warmBytes(trace) > 0; }
    void warmUp(const std::shared_ptr<const roofline::verrocchio::Trace> &trace);
    bool warmedFor(const std::shared_ptr<const roofline::verrocchio::Trace> &trace) const;
    // Maps as much again, on the worker thread, after a result that stays (a
    // compared snapshot's) took the memory warmUp() had mapped for the steps.
    static void rewarm(const roofline::verrocchio::Trace &trace);
    // Once per trace, on the worker's helper thread (TimelineView::compute()),
    // whatever its size: starts that thread and maps the heap its merges use.
    // The merged groups grow with the plots' width, not the trace (some 2 700
    // groups in a 1400-pixel window at 10⁵ instructions); the first two steps
    // after opening a trace mapped some 80 and 45 pages there, and the first
    // one started the thread: its merges took 1.8–2.1 ms instead of 0.45
    // (docs/performance.md).
    static constexpr std::size_t kHelperWarmBytes = std::size_t(2) << 20;
    void warmHelper(const std::shared_ptr<const roofline::verrocchio::Trace> &trace);
    bool helperWarmedFor(const std::shared_ptr<const roofline::verrocchio::Trace> &trace) const;
    // Past kMaxInstructions, where nothing is warmed and each step maps
    // memory afresh (and again after an idle release), warmUp() reserves the
    // heap for transparent huge pages instead, once per trace
    // (roofline::reserveHugePages()): kHugePageBytesPerInstruction for each
    // instruction, a result, its bars and a step in flight. At 10⁶
    // instructions on the development VM the first steps after opening took
    // 260–300 ms, 40–60 with the reservation; the first after an idle
    // release 200–380, 75–130 (docs/performance.md). Not before the
    // simulation that opens the trace on the GUI thread: in whole huge pages
    // around the heap's partly used ends, the studio's peak while opening a
    // flat 10⁶-instruction JSON trace went from 198 to 202–205 MB.
    static constexpr std::size_t kHugePageBytesPerInstruction = 320;

    // Results recycled: the pointer adoptResult() gives back hands its result
    // to this cache when its last holder lets go (a replaced result, freed on
    // the view's disposal thread), and the worker's next simulation refills
    // its arrays (roofline::verrocchio::simulate() with a recycled result)
    // instead of allocating new ones. In one heap (roofline::shareOneHeap())
    // the GUI thread's allocations split the memory the worker had warmed, and
    // the second step after opening a 10⁵-instruction trace wrote some 209
    // fresh pages in the simulation's arrays: 8.4–12.9 ms instead of 5.4–6.4
    // (docs/performance.md). One spare, of a trace up to kMaxInstructions
    // (past it the idle release gives the memory back instead). The arrays
    // that grow with the machine are written half as far again as they were
    // filled when a result is handed back (off the worker's path).
    std::shared_ptr<const roofline::verrocchio::Result> adoptResult(roofline::verrocchio::Result &&result) const;
    roofline::verrocchio::Result takeSpareResult() const; // empty when there is none
    std::size_t resultsRecycled() const; // results handed back and kept (tests)
    long recyclingPageFaults() const; // of the threads that handed them back, writing their grown arrays (tests)

private:
    static std::size_t hugePageBytes(const roofline::verrocchio::Trace &trace); // 0 up to kMaxInstructions
    struct SpareResult; // timelineview.cpp
    std::shared_ptr<SpareResult> m_spare;
    mutable std::mutex m_mutex;
    std::weak_ptr<const roofline::verrocchio::Trace> m_trace;
    std::shared_ptr<const roofline::verrocchio::SimulationPlan> m_plan;
    std::weak_ptr<const roofline::verrocchio::Trace> m_barsTrace;
    std::shared_ptr<const roofline::verrocchio::BarsPlan> m_barsPlan;
    std::weak_ptr<const roofline::verrocchio::Trace> m_reserved; // the huge-page reservation made (warmUp())
    std::weak_ptr<const roofline::verrocchio::Trace> m_warming; // claimed by a worker job
    std::weak_ptr<const roofline::verrocchio::Trace> m_warmed;  // done
    std::weak_ptr<const roofline::verrocchio::Trace> m_helperWarming, m_helperWarmed; // the same for warmHelper()
};

class TimelineView : public ModelView {
    Q_OBJECT
public:
    explicit TimelineView(TimelineDocument *document, QWidget *parent = nullptr);
    ~TimelineView() override;

    // ModelView
    QString title() const override;
    QStringList formatIds() const override;
    QStringList textSuffixes() const override;
    QStringList exampleFiles() const override;
    QString primer() const override;
    bool openFile(const QString &path, QString *error, QStringList *warnings) override;
    bool canSave() const override { return true; } // the machine; traces are read-only here
    bool saveFile(const QString &path, QString *error) override;
    QString filePath() const override; // the machine's file, which Save writes
    bool isModified() const override;
    bool applyOverride(const QString &assignment, QString *error) override;
    QUndoStack *undoStack() const override;
    QString sessionKey() const override { return QStringLiteral("timeline"); }
    QJsonObject sessionState() const override;
    bool restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error) override;
    QList<BundlePlot> bundlePlots() override;
    QList<BundleFile> bundleFiles() const override;
    void setSensitivityStep(double relativeStep) override;
    void refreshDisplay() override { scheduleUpdate(true); }
    QCustomPlot *exportPlot() const override;
    QString exportTitle() const override;
    QString summary() const override;
    void resetZoom() override;
    void flushPendingUpdate() override;
    bool showsEmptyState() const override;
    void setRecentFiles(const QStringList &paths) override;
    bool clearStartupModel(const QString &note) override;
    EmptyState *emptyState() const { return m_empty; }

    // Chrome Trace Event JSON of the current result (Perfetto, chrome://tracing).
    bool exportChromeTrace(const QString &path, QString *error);

    TimelineDocument *document() const { return m_document; }
    TimelinePlot *plot() const { return m_plot; }
    TimelineOverview *overview() const { return m_overview; }
    TimelinePanel *panel() const { return m_panel; }
    QTableView *table() const { return m_table; }
    TimelineTableModel *tableModel() const { return m_model; }
    RichReadoutLabel *readout() const { return m_readout; }
    QCheckBox *criticalPathBox() const { return m_criticalPath; }
    QCheckBox *arrowsBox() const { return m_arrows; }
    QCheckBox *hideEmptyLanesBox() const { return m_hideEmptyLanes; }
    // Folds the machine panel away (the chart takes the width) and back.
    QPushButton *panelToggle() const { return m_panelToggle; }
    QWidget *panelArea() const;
    QPushButton *resetButton() const { return m_reset; }
    SnapshotBar *snapshotBar() const { return m_snapshotBar; }
    QTabWidget *bottomTabs() const { return m_bottomTabs; }
    SensitivityChart *sensitivityChart() const { return m_sensitivity; }
    const TimelineData &data() const { return m_data; }
    const roofline::verrocchio::Result &result() const;
    // The compared snapshot's simulation, once it has arrived (nullptr before, or with none compared).
    const TimelineData *ghost() const;
    // The current result against the compared snapshot, when both are there.
    const std::optional<roofline::verrocchio::Comparison> &comparison() const { return m_comparison; }
    QString comparisonText() const { return m_comparisonText; }
    // The sensitivity rows on the chart (the core's, for the result shown), and how many arrived.
    const std::vector<roofline::verrocchio::Sensitivity> &sensitivityRows() const { return m_sensitivityRows; }
    quint64 sensitivityCount() const { return m_sensitivityCount; }
    // With the sensitivity tab shown, the rows (some thirty simulations) are
    // asked for once the newest result has been on screen this long with no
    // newer request: in a drag (steps some 5–50 ms apart) they were started
    // after every step and given up at the next, taking a core from the
    // step's own threads for rows never shown. A drag slower than this still
    // gets its rows between steps.
    static constexpr int kSensitivityQuietMs = 50;
    void setSensitivityQuietInterval(int ms) { m_sensitivityQuiet.setInterval(ms); }
    // Sensitivity jobs started in the worker, finished or given up: for tests.
    quint64 sensitivityJobsStarted() const { return m_sensitivityJobs->load(); }
    // How many results were drawn, and how many arrived stale and were dropped.
    quint64 updateCount() const { return m_updateCount; }
    quint64 droppedCount() const { return m_droppedCount; }
    // While a drag outruns the simulation (10⁶ instructions: 40–50 ms each),
    // a running simulation is not given up, and its result is drawn, once the
    // picture on screen is this old: coarse feedback instead of none until
    // the slider stops. Tests set 0 (every finished result is drawn).
    void setFeedbackInterval(int ms) { m_feedbackMs->store(ms); }
    // Traces of at most this many instructions are simulated on the GUI thread
    // at each edit (their compared snapshot too); longer ones in the worker.
    // The sensitivity rows always go to the worker. 0: every trace in the worker.
    static constexpr std::size_t kSyncInstructions = 20000;
    void setSyncInstructions(std::size_t instructions) { m_syncInstructions = instructions; }
    std::size_t syncInstructions() const { return m_syncInstructions; }
    // Whether the worker and its helper have nothing running and, where the
    // open trace's steps run in the worker and they map the heap for them
    // (TimelinePlanCache::warmUp(): from syncInstructions() to
    // kMaxInstructions; warmHelper(): from syncInstructions() on), have done so,
    // and no sensitivity rows are still due (kSensitivityQuietMs): a test's or a
    // benchmark's drag starting earlier queues behind it (and only its last step
    // runs), or is charged with the warm-up, a snapshot's or the sensitivity's simulations.
    bool workerSettled() const;
    // Results drawn without a hand-over to the worker (short traces).
    quint64 syncCount() const { return m_syncCount; }
    // Past TimelinePlanCache::kMaxInstructions nothing is warmed, and a drag
    // leaves the memory of a second result and its bars mapped but free (kept
    // by roofline::keepFreedMemory()): at 10⁶ instructions the studio then
    // held some 290 MB resident instead of some 175. Once no result has been
    // drawn for this long, the worker gives the free memory back
    // (roofline::releaseFreedMemory()). The next step maps it again, in huge
    // pages (TimelinePlanCache::warmUp()'s reservation): at 10⁶ instructions it
    // takes some 75–130 ms instead of 35–50 on the development VM while the
    // host still backs the memory given back, 150–250 ms once it has taken
    // it back (after about 2 s there; docs/performance.md). It was 30 s while
    // that step took 200–380 ms (4 KiB pages).
    static constexpr int kIdleReleaseMs = 2000;
    void setIdleReleaseDelay(int ms) { m_idleRelease.setInterval(ms); }
    // How often the worker has been asked to give free memory back.
    quint64 releaseCount() const { return m_releaseCount; }
    // Results handed back for the next simulation to refill (TimelinePlanCache::adoptResult()).
    std::size_t resultsRecycled() const { return m_plans->resultsRecycled(); }
    long recyclingPageFaults() const { return m_plans->recyclingPageFaults(); }
    // Results drawn although a newer request was already made (that feedback).
    quint64 intermediateCount() const { return m_intermediateCount; }
    // Worker jobs that have begun (a request still queued when the next one
    // comes is dropped, never begun).
    quint64 jobsBegun() const { return m_jobsBegun->load(); }
    // Results whose texts (table, readout, comparison) were shown before
    // their bars, while the worker still laid them out (showTexts()).
    quint64 earlyTextsCount() const { return m_earlyTextsCount; }
    // The result the table and readout show: newer than data()'s from the
    // moment its texts are shown until its bars are drawn.
    const TimelineData &textData() const { return m_early.result ? m_early : m_data; }
    // Where the last result drawn spent its time (steady clock, ns): its
    // stages up to the worker's end (TimelineData::stages), then its arrival
    // on the GUI thread and the end of drawing it into the plots and table.
    struct UpdateStages {
        TimelineData::Stages worker;
        std::int64_t delivered = 0;
        std::int64_t drawn = 0;
    };
    const UpdateStages &lastStages() const { return m_lastStages; }
    static std::int64_t steadyNanoseconds();

    // What compute() does besides the simulation, the bars and the critical path.
    struct ComputeOptions {
        std::function<bool()> cancelled; // gives up (returns no result) once this returns true
        TimelinePlanCache *plans = nullptr; // the trace's plan comes from here
        // Also merges the bars for the views the timeline and the overview will
        // show the result in (TimelineData::premerged), on `helper` while the
        // critical path is marked, when `helper` has a thread free.
        const MergeHints *hints = nullptr;
        QThreadPool *helper = nullptr;
        // Handed the result (no bars yet) as soon as it is simulated. Below
        // kTwoThreadBars instructions its receiver joins the contention spans
        // (contentionWithTexts(); TimelineData::contention is left null here):
        // the view's GUI thread does, beside the bars' layout.
        std::function<void(const TimelineData &)> simulated;
    };
    // From this many instructions on compute() lays out the bars and joins the
    // contention spans at once, on `helper`; below it, with `simulated`, the
    // receiver of the early result joins them.
    static constexpr std::size_t kTwoThreadBars = 200000;
    static bool contentionWithTexts(const roofline::verrocchio::Trace &trace);
    // Simulation, bars, contention spans and critical path of a trace on a
    // machine: pure, runs in the worker.
    static TimelineData compute(std::shared_ptr<const roofline::verrocchio::Trace> trace,
        const roofline::verrocchio::Machine &machine, const ComputeOptions &options);
    static TimelineData compute(std::shared_ptr<const roofline::verrocchio::Trace> trace,
        const roofline::verrocchio::Machine &machine)
    {
        return compute(std::move(trace), machine, ComputeOptions());
    }
    // What compute() is told of the plots: none while the view is hidden (nothing to merge for).
    std::optional<MergeHints> mergeHints() const;

signals:
    void updated(); // after every result drawn
    void textsShown(); // a result's table, readout and comparison, before its bars (showTexts())
    void sensitivityUpdated(); // after every sensitivity drawn

public:
    GoalSeekPanel *goalSeekPanel() const { return m_goalSeek; }

private:
    // "1 step", "2 steps": the readout and the status bar count single things too.
    static QString countOf(std::size_t n, const QString &one, const QString &many);
    void updateGoalSeekParameters();
    struct GhostRequest {
        quint64 id = 0;
        std::shared_ptr<const roofline::verrocchio::Trace> trace;
        roofline::verrocchio::Machine machine;
    };
    void scheduleUpdate(bool structural);
    void startUpdate();
    void prepareInputs();
    std::optional<GhostRequest> ghostRequest() const;
    bool sensitivityWanted() const;
    void requestSensitivity();
    // Worker jobs: simulate a snapshot; the sensitivity unless `latest` moves past `generation`.
    static void runGhost(const GhostRequest &request, const QPointer<TimelineView> &guard);
    static void runSensitivity(const std::shared_ptr<const roofline::verrocchio::Trace> &trace,
        const roofline::verrocchio::Machine &machine, quint64 generation, double step,
        const std::shared_ptr<std::atomic<quint64>> &latest, const std::shared_ptr<std::atomic<quint64>> &started,
        const QPointer<TimelineView> &guard);
    void deliver(quint64 generation, const TimelineData &data);
    void deliverGhost(quint64 snapshotId, const TimelineData &data);
    void deliverSensitivity(
        quint64 generation, double step, const std::vector<roofline::verrocchio::Sensitivity> &rows);
    void showTexts(quint64 generation, const TimelineData &early);
    void apply(const TimelineData &data);
    // The contention spans of `data`, joined on the GUI thread into one of
    // m_contentionBuffers that nothing else holds (a new one when both are).
    std::shared_ptr<const roofline::verrocchio::LaneContention> joinContentionHere(const TimelineData &data);
    // Maps both buffers and the scratch at twice the shown result's spans and
    // shares, after a trace is opened.
    void warmContentionBuffers();
    void updateComparison();
    void updateReadout();
    void showSensitivity();
    void computeSensitivityNow(); // on the GUI thread: exports, and short traces in flushPendingUpdate()
    static constexpr std::size_t kSyncSensitivityInstructions = 20000;
    void syncSnapshots();
    void selectInTable(InstructionRef ref);
    void setUpTabOrder();

    TimelineDocument *m_document;
    EmptyState *m_empty = nullptr;
    QStackedWidget *m_stack = nullptr;
    QString m_emptyNote; // why the start-up file did not open
    void updateEmptyState();
    TimelinePlot *m_plot = nullptr;
    TimelineOverview *m_overview = nullptr;
    TimelinePanel *m_panel = nullptr;
    QScrollArea *m_panelScroll = nullptr;
    QTableView *m_table = nullptr;
    TimelineTableModel *m_model = nullptr;
    RichReadoutLabel *m_readout = nullptr;
    QPushButton *m_reset = nullptr;
    QPushButton *m_chrome = nullptr;
    QCheckBox *m_criticalPath = nullptr;
    QCheckBox *m_arrows = nullptr;
    QCheckBox *m_hideEmptyLanes = nullptr;
    QPushButton *m_panelToggle = nullptr;
    SnapshotBar *m_snapshotBar = nullptr;
    QTabWidget *m_bottomTabs = nullptr;
    SensitivityChart *m_sensitivity = nullptr;
    GoalSeekPanel *m_goalSeek = nullptr;
    int m_goalSeekParameterCount = -1;

    TimelineData m_data;
    TimelineData m_early; // trace, machine and result of showTexts(), until apply(); no bars
    quint64 m_earlyTextsCount = 0;
    std::map<quint64, TimelineData> m_ghosts; // per snapshot id: its simulation (snapshots never change)
    std::optional<roofline::verrocchio::Comparison> m_comparison;
    QString m_comparisonText;
    std::vector<roofline::verrocchio::Sensitivity> m_sensitivityRows;
    quint64 m_sensitivityGeneration = 0; // of the rows shown; 0: none
    double m_sensitivityStepShown = 0;
    quint64 m_sensitivityCount = 0;
    bool m_pending = false;
    bool m_structuralPending = false;
    quint64 m_generation = 0; // of the newest request
    quint64 m_shownGeneration = 0; // of the result on screen
    quint64 m_updateCount = 0;
    quint64 m_droppedCount = 0;
    quint64 m_intermediateCount = 0;
    quint64 m_syncCount = 0;
    QTimer m_idleRelease; // kIdleReleaseMs after the last result drawn of a trace past kMaxInstructions
    QTimer m_sensitivityQuiet; // kSensitivityQuietMs after the newest result drawn: its sensitivity rows
    std::shared_ptr<std::atomic<quint64>> m_sensitivityJobs = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_releaseCount = 0;
    std::size_t m_syncInstructions = kSyncInstructions;
    std::int64_t m_requestedAt = 0; // the first edit of the pending burst
    std::int64_t m_deliveredAt = 0;
    UpdateStages m_lastStages;
    // When the picture on screen was drawn (ms of a steady clock), read by
    // the worker, and the interval after which a drag gets feedback.
    std::shared_ptr<std::atomic<qint64>> m_shownAt = std::make_shared<std::atomic<qint64>>(0);
    std::shared_ptr<std::atomic<int>> m_feedbackMs = std::make_shared<std::atomic<int>>(100);
    bool feedbackDue() const;
    // The newest generation when a drag was released: an older simulation still running
    // then is given up, and an older result is not drawn, whatever the feedback interval
    // (the release's picture comes next and is all the user waits for).
    std::shared_ptr<std::atomic<quint64>> m_releasedAt = std::make_shared<std::atomic<quint64>>(0);
    // The newest generation, read by the worker to give up a superseded sensitivity.
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<std::atomic<quint64>> m_jobsBegun = std::make_shared<std::atomic<quint64>>(0);
    // The current trace's plan, for the worker and the GUI thread alike.
    std::shared_ptr<TimelinePlanCache> m_plans = std::make_shared<TimelinePlanCache>();
    QThreadPool m_pool; // one thread: requests queue behind the running one
    QThreadPool m_disposal; // frees replaced results off the GUI thread
    // The GUI thread's contention spans (joinContentionHere()): written again
    // in turn, their capacity kept. Joined into fresh vectors, the first step
    // after opening a trace mapped some 230 pages for them (2.5 ms on the
    // development VM): the window's other allocations take freed memory of
    // the GUI thread's heap, so warming that heap did not stay warm.
    std::array<std::shared_ptr<roofline::verrocchio::LaneContention>, 2> m_contentionBuffers;
    std::vector<std::uint32_t> m_shareLanes;
    QThreadPool m_helper; // the worker's second thread: merges the bars while the critical path is marked
};

} // namespace studio
