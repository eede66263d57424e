#include "timelineview.h"
#include "readouthost.h"
#include "richreadoutlabel.h"

#include "goalseekpanel.h"
#include "verrocchio/goalseek.h"

#include "resources.h"
#include "sensitivitychart.h"
#include "emptystate.h"
#include "fasttextdelegate.h"
#include "snapshotbar.h"
#include "timelinedocument.h"
#include "timelinepanel.h"
#include "timelinetablemodel.h"
#include "units.h"
#include "common/allocator.h"
#include "verrocchio/io.h"
#include "verrocchio/layout.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSemaphore>
#include <QSplitter>
#include <QStackedWidget>
#include <QUndoStack>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>
#include <sys/resource.h>

namespace studio {

using namespace roofline::verrocchio;

namespace {
const QString kDefaultTrace = QStringLiteral(":/examples/verrocchio/vector-add-2cores.json");
const QString kDefaultMachine = QStringLiteral(":/examples/verrocchio/ascend310.json");

// Minor page faults of the calling thread so far; -1 where not known.
long threadPageFaults()
{
#if defined(RUSAGE_THREAD)
    rusage usage {};
    return getrusage(RUSAGE_THREAD, &usage) == 0 ? usage.ru_minflt : -1;
#else
    return -1;
#endif
}
} // namespace

TimelineView::TimelineView(TimelineDocument *document, QWidget *parent)
    : ModelView(parent)
    , m_document(document)
{
    m_pool.setMaxThreadCount(1);
    m_disposal.setMaxThreadCount(1);
    m_helper.setMaxThreadCount(1);
    m_helper.setExpiryTimeout(-1); // kept: waking a sleeping thread is cheaper than starting one
    m_sensitivityQuiet.setSingleShot(true);
    m_sensitivityQuiet.setInterval(kSensitivityQuietMs);
    connect(&m_sensitivityQuiet, &QTimer::timeout, this, [this] {
        if (sensitivityWanted())
            requestSensitivity(); // nothing when a request is pending or the rows shown are current
    });
    m_idleRelease.setSingleShot(true);
    m_idleRelease.setInterval(kIdleReleaseMs);
    connect(&m_idleRelease, &QTimer::timeout, this, [this] {
        if (m_pending || m_shownGeneration != m_generation || m_pool.activeThreadCount() != 0) {
            m_idleRelease.start(); // not idle yet
            return;
        }
        ++m_releaseCount;
        // Behind nothing: a new request queues after it. A spare result (of an
        // earlier, shorter trace: this one's are not kept) is given back too.
        m_pool.start([plans = m_plans] {
            plans->takeSpareResult();
            roofline::releaseFreedMemory();
        });
    });

    m_plot = new TimelinePlot(this);
    m_overview = new TimelineOverview(m_plot, this);
    // New text every update: laid out once per text and width, and painted
    // from that layout (richreadoutlabel.h). A QLabel laid the rich text out
    // for its height and again for every paint.
    m_readout = new RichReadoutLabel(this);
    m_readout->setContentsMargins(4, 4, 4, 4);

    m_model = new TimelineTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setItemDelegate(new FastTextDelegate(m_table)); // shapes only the texts that changed
    m_table->setColumnWidth(TimelineTableModel::Core, 44);
    m_table->setColumnWidth(TimelineTableModel::Index, 56);
    m_table->setColumnWidth(TimelineTableModel::Pipe, 52);
    m_table->setColumnWidth(TimelineTableModel::Instruction, 230);
    for (int column : { TimelineTableModel::Size, TimelineTableModel::Start, TimelineTableModel::End,
             TimelineTableModel::Duration, TimelineTableModel::Rate })
        m_table->setColumnWidth(column, 88);
    m_table->setToolTip(tr("Every instruction of every core in program order; times in ns. Select a row to "
                           "select its bar."));

    auto *toolbar = new QHBoxLayout;
    m_reset = new QPushButton(tr("Reset zoom"), this);
    m_reset->setToolTip(tr("Show the whole trace (Ctrl+0). Wheel: zoom time; drag: pan."));
    m_criticalPath = new QCheckBox(tr("Critical path"), this);
    m_criticalPath->setChecked(true);
    m_criticalPath->setToolTip(tr("Outline the instructions whose chain of dependencies ends last."));
    m_arrows = new QCheckBox(tr("Set→wait arrows"), this);
    m_arrows->setToolTip(tr("Draw an arrow from each set_flag to the stalled wait_flag it released (visible stalls). "
                            "The selected instruction always shows its own."));
    m_hideEmptyLanes = new QCheckBox(tr("Hide empty lanes"), this);
    m_hideEmptyLanes->setToolTip(tr("Leave out the lanes of pipes no instruction ran on, so the others get the height."));
    m_panelToggle = new QPushButton(tr("Hide panel"), this);
    m_panelToggle->setCheckable(true);
    m_panelToggle->setToolTip(tr("Fold the machine panel away so the chart takes the window's width; press again "
                                 "to bring it back."));
    m_chrome = new QPushButton(tr("Export Chrome Trace…"), this);
    m_chrome->setToolTip(tr("Write the events as Chrome Trace Event JSON for Perfetto or chrome://tracing."));
    toolbar->addWidget(m_reset);
    toolbar->addWidget(m_criticalPath);
    toolbar->addWidget(m_arrows);
    toolbar->addWidget(m_hideEmptyLanes);
    toolbar->addStretch(1);
    toolbar->addWidget(m_chrome);
    toolbar->addWidget(m_panelToggle);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    topLayout->addLayout(toolbar);
    topLayout->addWidget(m_plot, 1);
    topLayout->addWidget(m_overview);

    m_snapshotBar = new SnapshotBar(this);
    m_sensitivity = new SensitivityChart(this);
    m_sensitivity->setMinimumHeight(150);
    m_bottomTabs = new QTabWidget(this);
    m_bottomTabs->addTab(m_table, tr("Instructions"));
    m_bottomTabs->addTab(m_sensitivity, QString());
    m_goalSeek = new GoalSeekPanel(this);
    m_goalSeek->setTargets({{QStringLiteral("total"), tr("Total time"), QStringLiteral("µs"), 1e3}});
    m_goalSeek->setSeeker([this](const QString &, double target, const QString &pointer) {
        QApplication::setOverrideCursor(Qt::WaitCursor); // some fifty simulations
        const roofline::GoalSeek g =
            roofline::verrocchio::seekTotalTime(m_document->trace(), m_document->machine(), pointer.toStdString(), target);
        QApplication::restoreOverrideCursor();
        return g;
    });
    m_goalSeek->setApplier([this](const QString &pointer, double value, QString *error) {
        return applyOverride(pointer + QLatin1Char('=') + QString::number(value, 'g', 17), error);
    });
    m_bottomTabs->addTab(m_goalSeek, tr("Goal seek"));
    setSensitivityStep(m_sensitivityStep); // names the tab

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_snapshotBar);
    bottomLayout->addWidget(new ReadoutHost(m_readout)); // new text: no window relayout (readouthost.h)
    bottomLayout->addWidget(m_bottomTabs, 1);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(top);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    left->setSizes({ 540, 360 });

    m_panel = new TimelinePanel(document, this);
    m_panelScroll = new QScrollArea(this);
    m_panelScroll->setWidget(m_panel);
    m_panelScroll->setWidgetResizable(true);
    m_panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_panelScroll->setMinimumWidth(m_panel->sizeHint().width() + 24);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_panelScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);

    // No trace (a failed open at start-up): say what to do next, draw nothing.
    m_empty = new EmptyState(tr("a trace (a Verrocchio trace, JSON or text) to simulate on the machine"), this);
    {
        QStringList traces, machines;
        for (const QString &path : exampleFiles()) {
            QString ignored;
            (readFormatId(path, &ignored) == QLatin1String(kMachineFormatId) ? machines : traces) << path;
        }
        m_empty->setExampleGroups({{tr("Traces"), traces}, {tr("Machines"), machines}});
    }
    connect(m_empty, &EmptyState::openRequested, this, &ModelView::openRequested);
    connect(m_empty, &EmptyState::openDialogRequested, this, &ModelView::openDialogRequested);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(split);
    m_stack->addWidget(m_empty);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    setUpTabOrder();

    connect(m_reset, &QPushButton::clicked, this, &TimelineView::resetZoom);
    connect(m_criticalPath, &QCheckBox::toggled, m_plot, &TimelinePlot::setShowCriticalPath);
    connect(m_arrows, &QCheckBox::toggled, m_plot, &TimelinePlot::setShowFlagArrows);
    connect(m_hideEmptyLanes, &QCheckBox::toggled, m_plot, &TimelinePlot::setHideEmptyLanes);
    connect(m_panelToggle, &QPushButton::toggled, this, [this](bool hidden) {
        m_panelScroll->setVisible(!hidden);
        m_panelToggle->setText(hidden ? tr("Show panel") : tr("Hide panel"));
    });
    connect(m_chrome, &QPushButton::clicked, this, [this] {
        const QString base = QFileInfo(m_document->tracePath()).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chrome Trace"),
            (base.isEmpty() ? QStringLiteral("timeline") : base) + QStringLiteral(".trace.json"),
            tr("Chrome Trace JSON (*.json);;Chrome Trace JSON, gzip-compressed (*.json.gz)"));
        QString error;
        if (!path.isEmpty() && !exportChromeTrace(path, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    connect(m_plot, &TimelinePlot::instructionClicked, this, &TimelineView::selectInTable);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &index) {
        if (index.isValid())
            m_plot->setSelected(m_model->refAt(index.row()));
    });
    // The tornado costs two simulations per parameter: only while its tab is shown.
    connect(m_bottomTabs, &QTabWidget::currentChanged, this, [this] {
        if (sensitivityWanted())
            requestSensitivity();
    });

    connect(m_snapshotBar, &SnapshotBar::pinRequested, m_document, [this] { m_document->pinSnapshot(); });
    connect(m_snapshotBar, &SnapshotBar::compareRequested, m_document, &TimelineDocument::setComparedSnapshot);
    connect(m_snapshotBar, &SnapshotBar::restoreRequested, m_document, &TimelineDocument::restoreSnapshot);
    connect(m_snapshotBar, &SnapshotBar::removeRequested, m_document, &TimelineDocument::removeSnapshot);
    connect(m_snapshotBar, &SnapshotBar::renameRequested, m_document, &TimelineDocument::renameSnapshot);
    connect(m_document, &TimelineDocument::snapshotsChanged, this, &TimelineView::syncSnapshots);

    connect(m_document, &TimelineDocument::modifiedChanged, this, &ModelView::modifiedChanged);
    connect(m_document, &TimelineDocument::filePathChanged, this, &ModelView::filePathChanged);
    connect(this, &TimelineView::updated, this, &ModelView::summaryChanged);
    connect(m_document, &TimelineDocument::valuesChanged, this, [this] { scheduleUpdate(false); });
    // A pending update (the release's value) gets m_generation + 1; every generation up to
    // m_generation but the newest is stale from now on.
    connect(m_document, &TimelineDocument::dragFinished, this, [this] { m_releasedAt->store(m_generation); });
    connect(m_document, &TimelineDocument::structureChanged, this, [this] {
        m_readout->resetHeight(); // another trace or machine: the readout may take fewer lines again
        scheduleUpdate(true);
    });
    // Undo, redo, a snapshot or a session: the controls show the state without emitting edits.
    connect(m_document, &TimelineDocument::restored, this, [this] { m_panel->refreshValues(); });

    QString error;
    if (!m_document->load(kDefaultMachine, &error) || !m_document->load(kDefaultTrace, &error))
        qWarning("%s", qPrintable(error)); // only when the build lost its resources
    m_document->undoStack()->clear(); // the start-up examples are no step to undo
    m_document->setModified(false);
    syncSnapshots();
    flushPendingUpdate();
}

TimelineView::~TimelineView()
{
    m_latest->store(~quint64(0)); // a running sensitivity gives up at its next simulation
    m_pool.clear();
    m_pool.waitForDone(); // a running job waits for its merge on m_helper
    m_disposal.waitForDone();
}

void TimelineView::setUpTabOrder()
{
    // Left to right, top to bottom: the chart's toolbar, the snapshot row, the
    // tabs below, then the machine panel (whose own order runs top to bottom).
    QList<QWidget *> chain { m_reset, m_criticalPath, m_arrows, m_hideEmptyLanes, m_chrome, m_panelToggle };
    chain << m_snapshotBar->focusChain() << m_bottomTabs->tabBar() << m_table << m_panel->focusChain();
    setFocusChain(chain);
}

std::shared_ptr<const SimulationPlan> TimelinePlanCache::planFor(const std::shared_ptr<const Trace> &trace)
{
    if (trace->instructionCount() > kMaxInstructions)
        return nullptr; // each simulation builds its own (see the header)
    const std::lock_guard lock(m_mutex);
    if (!m_plan || m_trace.lock() != trace) {
        m_plan.reset(); // the old trace's first: both at once could be 40 MB at 10⁶ instructions
        m_plan = std::make_shared<const SimulationPlan>(*trace);
        m_trace = trace;
    }
    return m_plan;
}

std::shared_ptr<const BarsPlan> TimelinePlanCache::barsPlanFor(const std::shared_ptr<const Trace> &trace)
{
    const std::lock_guard lock(m_mutex);
    if (!m_barsPlan || m_barsTrace.lock() != trace) {
        m_barsPlan = std::make_shared<const BarsPlan>(*trace);
        m_barsTrace = trace;
    }
    return m_barsPlan;
}

std::shared_ptr<const BarsPlan> TimelinePlanCache::builtBarsPlan(const std::shared_ptr<const Trace> &trace) const
{
    const std::lock_guard lock(m_mutex);
    return m_barsPlan && m_barsTrace.lock() == trace ? m_barsPlan : nullptr;
}

struct TimelinePlanCache::SpareResult
{
    std::mutex mutex;
    std::unique_ptr<Result> result;
    std::atomic<std::size_t> kept{0};
    std::atomic<long> faults{0}; // the page faults of writing the grown arrays (tests)

    // The deleter of adoptResult()'s pointers, on whichever thread lets go last.
    void keep(Result *returned)
    {
        std::unique_ptr<Result> given(returned), older;
        std::size_t timings = 0;
        for (const CoreResult &core : given->cores)
            timings += core.instructions.capacity();
        if (timings > kMaxInstructions)
            return; // freed
        // The arrays that grow with the machine (a slider step at 10⁵
        // instructions filled some 25 % more shares than the result it
        // recycled): written half as far again here (within their capacity),
        // on the thread that lets go (the view's disposal thread), not page
        // by page in the next simulation on the worker (162 page faults, 2 ms).
        // Some 0.04 ms once mapped; the first time some 200–300 page faults.
        const long faultsBefore = threadPageFaults();
        const auto touch = [](auto &v) {
            v.resize(std::min(v.capacity(), v.size() + v.size() / 2));
            v.clear();
        };
        touch(given->shares);
        touch(given->contention);
        touch(given->criticalPath);
        touch(given->stalls);
        if (faultsBefore >= 0)
            faults.fetch_add(threadPageFaults() - faultsBefore, std::memory_order_relaxed);
        {
            const std::lock_guard lock(mutex);
            older = std::exchange(result, std::move(given));
        }
        kept.fetch_add(1, std::memory_order_relaxed);
    } // `older` (if the worker took none since) freed here, outside the lock
};

TimelinePlanCache::TimelinePlanCache()
    : m_spare(std::make_shared<SpareResult>())
{
}

TimelinePlanCache::~TimelinePlanCache() = default;

std::shared_ptr<const Result> TimelinePlanCache::adoptResult(Result &&result) const
{
    // The deleter holds the slot, not the cache: a result may outlive the view.
    // (The result itself is not const: it was made here.)
    return std::shared_ptr<const Result>(
        new Result(std::move(result)), [spare = m_spare](const Result *r) { spare->keep(const_cast<Result *>(r)); });
}

Result TimelinePlanCache::takeSpareResult() const
{
    std::unique_ptr<Result> taken;
    {
        const std::lock_guard lock(m_spare->mutex);
        taken = std::move(m_spare->result);
    }
    return taken ? std::move(*taken) : Result();
}

std::size_t TimelinePlanCache::resultsRecycled() const
{
    return m_spare->kept.load(std::memory_order_relaxed);
}

long TimelinePlanCache::recyclingPageFaults() const
{
    return m_spare->faults.load(std::memory_order_relaxed);
}

std::size_t TimelinePlanCache::warmBytes(const Trace &trace)
{
    const std::size_t instructions = trace.instructionCount();
    return instructions <= kMaxInstructions ? kWarmBytesPerInstruction * instructions : 0;
}

std::size_t TimelinePlanCache::hugePageBytes(const Trace &trace)
{
    const std::size_t instructions = trace.instructionCount();
    return instructions > kMaxInstructions ? kHugePageBytesPerInstruction * instructions : 0;
}

void TimelinePlanCache::rewarm(const Trace &trace)
{
    roofline::warmFreedMemory(warmBytes(trace));
}

namespace {
// True for the first caller with `trace`, which claims it (`claimed`); false for later ones.
bool claimOnce(std::mutex &mutex, const std::shared_ptr<const Trace> &trace, std::weak_ptr<const Trace> &claimed)
{
    const std::lock_guard lock(mutex);
    if (claimed.lock() == trace)
        return false;
    claimed = trace;
    return true;
}

// Maps `bytes` on the calling thread once per trace; `done` names the trace when mapped.
void warmOnce(std::mutex &mutex, const std::shared_ptr<const Trace> &trace, std::weak_ptr<const Trace> &claimed,
    std::weak_ptr<const Trace> &done, std::size_t bytes)
{
    if (!claimOnce(mutex, trace, claimed))
        return;
    roofline::warmFreedMemory(bytes);
    const std::lock_guard lock(mutex);
    done = trace;
}
} // namespace

void TimelinePlanCache::warmUp(const std::shared_ptr<const Trace> &trace)
{
    if (warmsUp(*trace))
        warmOnce(m_mutex, trace, m_warming, m_warmed, warmBytes(*trace));
    else if (const std::size_t bytes = hugePageBytes(*trace); bytes > 0 && claimOnce(m_mutex, trace, m_reserved))
        roofline::reserveHugePages(bytes);
}

bool TimelinePlanCache::warmedFor(const std::shared_ptr<const Trace> &trace) const
{
    const std::lock_guard lock(m_mutex);
    return m_warmed.lock() == trace;
}

void TimelinePlanCache::warmHelper(const std::shared_ptr<const Trace> &trace)
{
    warmOnce(m_mutex, trace, m_helperWarming, m_helperWarmed, kHelperWarmBytes);
}

bool TimelinePlanCache::helperWarmedFor(const std::shared_ptr<const Trace> &trace) const
{
    const std::lock_guard lock(m_mutex);
    return m_helperWarmed.lock() == trace;
}

namespace {

// The views the plots will show a result of `totalNs` in, as TimelinePlot::setData()
// and TimelineOverview::setData() set them: the groups to merge for.
std::vector<PremergedGroups> expectedViews(const MergeHints &h, double totalNs)
{
    // The timeline, the overview, then the snapshot's band.
    std::vector<PremergedGroups> views(h.ghostBars ? 3 : 2);
    const QCPRange main = h.whole ? TimelinePlot::wholeRange(totalNs, h.ghostTotalNs) : QCPRange(h.lower, h.upper);
    views[0].key = { main.lower, main.upper, h.left, h.width, 1.0 };
    const QCPRange overview = TimelineOverview::rangeFor(totalNs);
    views[1].key = { overview.lower, overview.upper, h.overviewLeft, h.overviewWidth, 2.0 };
    if (h.ghostBars) {
        views[2].key = views[0].key; // the snapshot's band: the timeline's view, its bars
        views[2].of = h.ghostBars;
    }
    // A plot not laid out yet (no width) would get every bar unmerged: nothing to merge for.
    std::erase_if(views, [](const PremergedGroups &v) { return !(v.key.width > 0) || !(v.key.nsPerPixel() > 0); });
    return views;
}

void mergeFor(PremergedGroups *begin, PremergedGroups *end, const TimelineBars &bars)
{
    for (PremergedGroups *v = begin; v != end; ++v)
        v->groups = mergeBars(v->of ? *v->of : bars, v->key.lower, v->key.upper, v->key.nsPerPixel(), v->key.minPixels);
}

} // namespace

std::optional<MergeHints> TimelineView::mergeHints() const
{
    if (!m_plot->isVisible())
        return std::nullopt;
    MergeHints hints = m_plot->mergeHints();
    const MergeKey overview = m_overview->mergeKey();
    hints.overviewLeft = overview.left;
    hints.overviewWidth = m_overview->isVisible() ? overview.width : 0;
    return hints;
}

namespace {
TimelineView::ComputeOptions planned(TimelinePlanCache *plans)
{
    TimelineView::ComputeOptions options;
    options.plans = plans;
    return options;
}
} // namespace

bool TimelineView::contentionWithTexts(const Trace &trace)
{
    return trace.instructionCount() < kTwoThreadBars;
}

TimelineData TimelineView::compute(std::shared_ptr<const Trace> trace, const Machine &machine,
    const ComputeOptions &options)
{
    TimelineData data;
    data.stages.jobStart = steadyNanoseconds();
    const long faultsBefore = threadPageFaults();
    data.trace = std::move(trace);
    data.machine = machine;
    QThreadPool *const helper = options.helper;
    const std::shared_ptr<const SimulationPlan> plan = options.plans ? options.plans->planFor(data.trace) : nullptr;
    // A replaced result's arrays refilled where the cache has one (TimelinePlanCache::adoptResult()).
    std::shared_ptr<const Result> result = plan
        ? options.plans->adoptResult(
              simulate(*data.trace, *plan, machine, options.cancelled, options.plans->takeSpareResult()))
        : std::make_shared<const Result>(simulate(*data.trace, machine, options.cancelled));
    if (result->error && result->error->kind == SimulationError::Kind::Cancelled)
        return data; // no result: superseded
    data.stages.simulated = steadyNanoseconds();
    // The contention spans: joined by the receiver of the early result while
    // the bars are laid out here (at 10⁵ instructions they were half of this
    // stage, 0.52 of 1.06 ms in roofline-core-bench, and the GUI thread, once
    // it has shown the texts, has nothing to do), on the helper beside the bars
    // for long traces (at 10⁶: 12.2 + 7.7 ms one after the other, 12.0 at
    // once), else here after them.
    const bool contentionByReceiver = options.simulated && contentionWithTexts(*data.trace);
    if (options.simulated) {
        TimelineData early;
        early.trace = data.trace;
        early.machine = machine;
        early.result = result; // not changed from here on: read on two threads
        options.simulated(early);
    }
    // The bars' first pass over the trace, once per trace (BarsPlan): at 10⁵
    // instructions 45 % of the bars' instructions.
    const std::shared_ptr<const BarsPlan> barsPlan = options.plans ? options.plans->barsPlanFor(data.trace) : nullptr;
    const auto layOutBars = [&] {
        data.bars = std::make_shared<const TimelineBars>(
            barsPlan ? timelineBars(*data.trace, *result, *barsPlan) : timelineBars(*data.trace, *result));
    };
    const auto joinContention = [&] {
        data.contention = std::make_shared<const LaneContention>(laneContention(*data.trace, *result, barsPlan.get()));
    };
    if (contentionByReceiver)
        layOutBars();
    else if (helper && data.trace->instructionCount() >= kTwoThreadBars) {
        QSemaphore done;
        if (!helper->tryStart([&] {
                joinContention();
                done.release();
            })) {
            layOutBars();
            joinContention();
        } else {
            struct Join { // also when layOutBars() throws: joinContention() still uses this frame's data
                QSemaphore &done;
                ~Join() { done.acquire(); }
            } join{done};
            layOutBars();
        }
    } else {
        layOutBars();
        joinContention();
    }
    data.stages.bars = steadyNanoseconds();
    // The plots' merges (each walks every bar: about 1.5 M instructions at
    // 10⁵ instructions) run on the helper thread beside the critical path and
    // name runs below; all here without a helper.
    // Each view's merge goes to whichever thread claims it first: the helper
    // from now on, this thread after the critical path and name runs. A helper
    // that has not been given a core by then (the GUI thread showing the
    // texts, the disposal thread, another process: more busy threads than cores)
    // is not waited for; the state is shared, since its job may start after
    // this frame is gone (it then finds every view claimed; each view holds
    // the bars it merges).
    struct MergeShare {
        std::vector<PremergedGroups> views;
        std::size_t count = 0; // views.size(), read by both threads while the views are written
        std::shared_ptr<const TimelineBars> bars;
        std::atomic<std::size_t> next{0}, done{0};
        void work()
        {
            for (std::size_t i; (i = next.fetch_add(1)) < count;) {
                mergeFor(&views[i], &views[i] + 1, *bars);
                done.fetch_add(1);
                done.notify_all();
            }
        }
    };
    auto share = std::make_shared<MergeShare>();
    if (options.hints)
        share->views = expectedViews(*options.hints, result->totalNs);
    share->count = share->views.size();
    share->bars = data.bars;
    if (share->count > 0 && helper)
        helper->tryStart([share] { share->work(); });
    auto onPath = std::make_shared<std::vector<std::vector<char>>>();
    for (const CoreProgram &core : data.trace->cores)
        onPath->emplace_back(core.instructions.size(), 0);
    for (const PathStep &step : result->criticalPath) {
        if (step.core < onPath->size() && step.instruction < (*onPath)[step.core].size())
            (*onPath)[step.core][step.instruction] = 1;
    }
    data.result = std::move(result);
    data.onPath = std::move(onPath);
    // Name runs per lane (backwards: a work bar's run ends where the next work
    // bar's does when both have one name, else at that next bar) and the names used.
    const TimelineBars &bars = *data.bars;
    const Trace &t = *data.trace;
    auto runEnd = std::make_shared<std::vector<std::uint32_t>>(bars.bars.size());
    auto pathNext = std::make_shared<std::vector<std::uint32_t>>(bars.bars.size());
    auto barSlots = std::make_shared<std::vector<std::uint8_t>>(bars.bars.size());
    auto used = std::make_shared<std::vector<char>>(t.names.size(), 0);
    std::uint32_t *const runEnds = runEnd->data();
    std::uint32_t *const pathNexts = pathNext->data();
    std::uint8_t *const paletteSlots = barSlots->data();
    char *const usedNames = used->data();
    const std::size_t nameCount = used->size();
    const Bar *const all = bars.bars.data();
    for (std::size_t lane = 0; lane < bars.laneCount(); ++lane) {
        const auto end = static_cast<std::uint32_t>(bars.laneBegin[lane + 1]);
        // Every bar of a lane is of the lane's core: its path marks and its
        // program once per lane, and the next work bar's name and run end in
        // locals (at 10⁶ instructions this loop was as long as the bars' layout).
        const std::size_t core = coreOfLane(lane);
        const char *const corePath = (*data.onPath)[core].data();
        const Instruction *const program = t.cores[core].instructions.data();
        std::uint32_t nextWork = end, nextPath = end, nextName = 0, nextRunEnd = end;
        for (std::size_t i = end; i-- > bars.laneBegin[lane];) {
            const Bar &b = all[i];
            if (b.kind != Bar::Kind::Work) {
                runEnds[i] = nextRunEnd;
                pathNexts[i] = nextPath;
                continue;
            }
            if (corePath[b.instruction])
                nextPath = static_cast<std::uint32_t>(i);
            pathNexts[i] = nextPath;
            const std::uint32_t name = program[b.instruction].name;
            if (name < nameCount)
                usedNames[name] = 1;
            paletteSlots[i] = TimelinePlot::paletteSlotOfName(name);
            // The next work bar's run, if it has this name; else the run ends there.
            const std::uint32_t runEndHere = nextWork == end ? end : nextName == name ? nextRunEnd : nextWork;
            runEnds[i] = runEndHere;
            nextWork = static_cast<std::uint32_t>(i);
            nextName = name;
            nextRunEnd = runEndHere;
        }
    }
    data.nameRunEnd = std::move(runEnd);
    data.paletteSlot = std::move(barSlots);
    data.namesUsed = std::move(used);
    data.nextOnPath = std::move(pathNext);
    share->work();
    for (std::size_t d; (d = share->done.load()) < share->count;)
        share->done.wait(d); // a view the helper claimed and is merging
    if (share->count > 0)
        data.premerged = std::make_shared<const std::vector<PremergedGroups>>(std::move(share->views));
    data.stages.computed = steadyNanoseconds();
    data.stages.pageFaults = faultsBefore < 0 ? -1 : threadPageFaults() - faultsBefore;
    return data;
}

std::int64_t TimelineView::steadyNanoseconds()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void TimelineView::scheduleUpdate(bool structural)
{
    m_structuralPending |= structural;
    if (m_pending)
        return; // one simulation per event-loop turn, however many edits arrive
    m_pending = true;
    m_requestedAt = steadyNanoseconds();
    QMetaObject::invokeMethod(this, &TimelineView::startUpdate, Qt::QueuedConnection);
}

void TimelineView::prepareInputs()
{
    m_pending = false;
    updateEmptyState();
    // Value edits come from the panel itself, which already shows them; a
    // new machine (a file, an override) rescales and refills it.
    if (m_structuralPending)
        m_panel->refreshValues(true);
    m_structuralPending = false;
    updateGoalSeekParameters();
    m_goalSeek->invalidate();
}

void TimelineView::updateEmptyState()
{
    if (m_document->hasTrace()) {
        m_emptyNote.clear();
        m_stack->setCurrentIndex(0);
        return;
    }
    QStringList lines;
    if (!m_emptyNote.isEmpty())
        lines << m_emptyNote;
    lines << tr("Machine: %1 (%2).")
                 .arg(QString::fromStdString(m_document->machine().name),
                      m_document->machinePath().isEmpty() ? tr("built in") : QFileInfo(m_document->machinePath()).fileName());
    m_empty->setNote(lines.join(QLatin1Char('\n')));
    m_stack->setCurrentWidget(m_empty);
}

QWidget *TimelineView::panelArea() const
{
    return m_panelScroll;
}

bool TimelineView::showsEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

void TimelineView::setRecentFiles(const QStringList &paths)
{
    m_empty->setRecentFiles(paths);
}

bool TimelineView::clearStartupModel(const QString &note)
{
    // Only the start-up example (the vector add on Ascend 310): no step, no snapshot.
    if (m_document->undoStack()->count() > 0 || !m_document->snapshots().empty() || m_document->isModified())
        return false;
    m_emptyNote = note;
    m_document->clearTrace();
    flushPendingUpdate();
    return true;
}

void TimelineView::updateGoalSeekParameters()
{
    using namespace roofline::verrocchio;
    const Machine &machine = m_document->machine();
    QList<GoalSeekPanel::Parameter> parameters;
    for (Pipe p : kAllPipes) {
        const QString name = QString::fromLatin1(pipeName(p));
        const bool mte = p == Pipe::MTE1 || p == Pipe::MTE2 || p == Pipe::MTE3;
        parameters.append({QStringLiteral("/pipes/%1/%2").arg(name, mte ? QStringLiteral("bandwidth_gbps")
                                                                         : QStringLiteral("throughput_gops")),
                           mte ? tr("%1 bandwidth (GB/s)").arg(name) : tr("%1 throughput (Gops/s)").arg(name)});
    }
    if (machine.busMode == BusMode::HalfDuplex) {
        parameters.append({QStringLiteral("/bus/bandwidth_gbps"), tr("Bus bandwidth (GB/s)")});
    } else {
        parameters.append({QStringLiteral("/bus/read_gbps"), tr("Bus read bandwidth (GB/s)")});
        parameters.append({QStringLiteral("/bus/write_gbps"), tr("Bus write bandwidth (GB/s)")});
    }
    for (Pipe p : kAllPipes) {
        const QString name = QString::fromLatin1(pipeName(p));
        parameters.append({QStringLiteral("/pipes/%1/init_ns").arg(name), tr("%1 start-up latency Init (ns)").arg(name)});
    }
    parameters.append({QStringLiteral("/cores/skew_ns"), tr("Core start skew δt (ns)")});
    if (parameters.size() != m_goalSeekParameterCount) {
        m_goalSeekParameterCount = int(parameters.size());
        m_goalSeek->setParameters(parameters);
    }
}

std::optional<TimelineView::GhostRequest> TimelineView::ghostRequest() const
{
    const TimelineDocument::Snapshot *snapshot = m_document->compared();
    if (!snapshot || m_ghosts.count(snapshot->id))
        return std::nullopt;
    auto trace = snapshot->state.trace ? std::shared_ptr<const Trace>(snapshot->state.trace, &snapshot->state.trace->trace)
                                       : std::make_shared<const Trace>();
    return GhostRequest { snapshot->id, std::move(trace), snapshot->state.machine };
}

bool TimelineView::sensitivityWanted() const
{
    return m_bottomTabs->currentWidget() == m_sensitivity;
}

// Worker side. Each job posts its results back to the GUI thread, where the
// view (if it still exists) decides whether they are still wanted.
namespace {
template<typename Deliver> void post(const QPointer<TimelineView> &guard, Deliver deliver)
{
    QMetaObject::invokeMethod(
        qApp,
        [guard, deliver = std::move(deliver)]() mutable {
            if (guard)
                deliver(guard.data());
        },
        Qt::QueuedConnection);
}
qint64 steadyMilliseconds()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

void TimelineView::runGhost(const GhostRequest &request, const QPointer<TimelineView> &guard)
{
    post(guard, [id = request.id, data = compute(request.trace, request.machine)](TimelineView *view) {
        view->deliverGhost(id, data);
    });
    // The snapshot's result stays (the view keeps it while it is compared),
    // in memory the worker's heap had warmed for the next steps
    // (TimelinePlanCache::warmUp()): map as much again, or the first step
    // after comparing maps it afresh (some 1 400 page faults at 10⁵
    // instructions, a 25 ms step; docs/performance.md).
    TimelinePlanCache::rewarm(*request.trace);
}

void TimelineView::runSensitivity(const std::shared_ptr<const Trace> &trace, const Machine &machine,
    quint64 generation, double step, const std::shared_ptr<std::atomic<quint64>> &latest,
    const std::shared_ptr<std::atomic<quint64>> &started, const QPointer<TimelineView> &guard)
{
    started->fetch_add(1);
    const auto superseded = [&] { return latest->load() != generation; };
    if (superseded())
        return;
    auto rows = sensitivity(*trace, machine, step, superseded);
    if (superseded())
        return; // a newer request brings its own
    post(guard, [generation, step, rows = std::move(rows)](TimelineView *view) {
        view->deliverSensitivity(generation, step, rows);
    });
}

void TimelineView::startUpdate()
{
    if (!m_pending)
        return; // flushed meanwhile
    prepareInputs();
    const quint64 generation = ++m_generation;
    m_latest->store(generation);
    m_sensitivityQuiet.stop(); // a drag goes on: the rows wait until it pauses
    if (m_document->trace().instructionCount() <= m_syncInstructions) {
        // A short trace: simulated here, drawn at once. Anything still queued
        // or running in the worker is stale now (m_latest moved on).
        m_pool.clear();
        if (const std::optional<GhostRequest> ghost = ghostRequest()) {
            // Once per snapshot; a snapshot of a long trace goes to the worker.
            if (ghost->trace->instructionCount() <= m_syncInstructions)
                m_ghosts[ghost->id] = compute(ghost->trace, ghost->machine);
            else
                m_pool.start([request = *ghost, guard = QPointer<TimelineView>(this)] { runGhost(request, guard); });
        }
        const std::int64_t handedOver = steadyNanoseconds();
        TimelineData data = compute(m_document->sharedTrace(), m_document->machine(), planned(m_plans.get()));
        data.stages.requested = m_requestedAt;
        data.stages.handedOver = handedOver;
        m_deliveredAt = steadyNanoseconds();
        m_shownGeneration = generation;
        ++m_syncCount;
        apply(data); // the sensitivity rows (some thirty simulations: in the worker) once the slider pauses
        return;
    }
    // With no snapshot compared, the job is the simulation alone.
    std::optional<GhostRequest> ghost = ghostRequest();
    // Requests that have not started yet are superseded by this one.
    m_pool.clear();
    const TimelineData::Stages stages { m_requestedAt, steadyNanoseconds() };
    m_pool.start([trace = m_document->sharedTrace(), machine = m_document->machine(), generation, ghost,
                     latest = m_latest, shownAt = m_shownAt, feedbackMs = m_feedbackMs, releasedAt = m_releasedAt,
                     stages, plans = m_plans, hints = mergeHints(), helper = &m_helper, begun = m_jobsBegun,
                     guard = QPointer<TimelineView>(this)] {
        begun->fetch_add(1);
        // A long simulation stops as soon as a newer request is made, so the
        // newest one starts at once instead of after it (10⁶ instructions:
        // 40–50 ms) — unless the picture on screen is older than the feedback
        // interval: then it runs on and is drawn, so that a drag faster than
        // the simulation still shows where it goes. Once the drag is released
        // the release's picture is all that is wanted: it stops then too.
        const auto superseded = [&] {
            return latest->load(std::memory_order_relaxed) != generation
                && (generation <= releasedAt->load(std::memory_order_relaxed)
                    || steadyMilliseconds() - shownAt->load(std::memory_order_relaxed) < feedbackMs->load());
        };
        // The table, the readout and the comparison need the result alone:
        // the GUI thread shows them while this thread lays the bars out
        // (some 2 ms at 10⁵ instructions), and then draws only the plots.
        const auto showTexts = [&](const TimelineData &early) {
            if (latest->load(std::memory_order_relaxed) == generation)
                post(guard, [generation, early](TimelineView *view) { view->showTexts(generation, early); });
        };
        // m_helper outlives the job: the view's destructor waits for m_pool first.
        TimelineData data
            = compute(trace, machine, { superseded, plans.get(), hints ? &*hints : nullptr, helper, showTexts });
        if (!data.result)
            return;
        data.stages.requested = stages.requested;
        data.stages.handedOver = stages.handedOver;
        post(guard, [generation, data = std::move(data)](TimelineView *view) { view->deliver(generation, data); });
        // Once per trace, while the GUI thread draws this result: the next
        // steps' allocations then find mapped pages.
        if (latest->load() == generation) {
            plans->warmUp(trace);
            if (helper && !plans->helperWarmedFor(trace))
                helper->tryStart([plans, trace] { plans->warmHelper(trace); });
        }
        if (ghost && latest->load() == generation) // a stale one leaves it to the newest
            runGhost(*ghost, guard);
    });
}

void TimelineView::requestSensitivity()
{
    if (m_pending || (m_sensitivityGeneration == m_generation && m_sensitivityStepShown == m_sensitivityStep))
        return; // the pending update brings it, or the rows shown are current
    // Not in front of the queue: a main request waiting there keeps its turn.
    m_pool.start([trace = m_document->sharedTrace(), machine = m_document->machine(), generation = m_generation,
                     step = m_sensitivityStep, latest = m_latest, jobs = m_sensitivityJobs,
                     guard = QPointer<TimelineView>(this)] {
        runSensitivity(trace, machine, generation, step, latest, jobs, guard);
    });
}

bool TimelineView::feedbackDue() const
{
    return steadyMilliseconds() - m_shownAt->load() >= m_feedbackMs->load();
}

void TimelineView::deliver(quint64 generation, const TimelineData &data)
{
    m_deliveredAt = steadyNanoseconds();
    if (generation != m_generation) {
        if (generation > m_shownGeneration && generation > m_releasedAt->load() && feedbackDue()) {
            // A drag outran the simulation: draw this one meanwhile.
            ++m_intermediateCount;
            m_shownGeneration = generation;
            apply(data);
            return;
        }
        ++m_droppedCount; // stale: a newer request is on its way
        return;
    }
    m_shownGeneration = generation;
    apply(data);
}

void TimelineView::deliverGhost(quint64 snapshotId, const TimelineData &data)
{
    const auto &snapshots = m_document->snapshots();
    if (std::none_of(snapshots.begin(), snapshots.end(), [&](const auto &s) { return s.id == snapshotId; }))
        return; // deleted meanwhile
    m_ghosts[snapshotId] = data;
    const TimelineDocument::Snapshot *compared = m_document->compared();
    if (compared && compared->id == snapshotId) {
        updateComparison();
        m_plot->replot();
    }
}

void TimelineView::deliverSensitivity(quint64 generation, double step, const std::vector<Sensitivity> &rows)
{
    if (generation != m_generation || step != m_sensitivityStep)
        return;
    m_sensitivityRows = rows;
    m_sensitivityGeneration = generation;
    m_sensitivityStepShown = step;
    ++m_sensitivityCount;
    showSensitivity();
    emit sensitivityUpdated();
}

void TimelineView::showSensitivity()
{
    const double total = m_data.result ? m_data.result->totalNs : 0;
    const TimeUnit unit = timeUnitFor(total > 0 ? total : 1);
    std::vector<SensitivityChart::Row> rows;
    for (const Sensitivity &s : m_sensitivityRows)
        rows.push_back({ QString::fromStdString(s.label), s.lowNs * unit.perNs, s.highNs * unit.perNs });
    m_sensitivity->setRows(rows, total * unit.perNs, m_sensitivityStepShown > 0 ? m_sensitivityStepShown : m_sensitivityStep,
        tr("total time"), unit.name);
    m_sensitivity->replot();
}

bool TimelineView::workerSettled() const
{
    if (m_pool.activeThreadCount() != 0 || m_helper.activeThreadCount() != 0 || m_sensitivityQuiet.isActive())
        return false;
    const std::shared_ptr<const Trace> trace = m_document->sharedTrace();
    if (trace->instructionCount() <= m_syncInstructions)
        return true; // simulated on the GUI thread: no warm-up
    return (!TimelinePlanCache::warmsUp(*trace) || m_plans->warmedFor(trace)) && m_plans->helperWarmedFor(trace);
}

void TimelineView::flushPendingUpdate()
{
    if (!m_pending && m_shownGeneration == m_generation)
        return;
    prepareInputs();
    m_shownGeneration = ++m_generation; // anything still running is now stale
    m_latest->store(m_generation);
    if (const std::optional<GhostRequest> ghost = ghostRequest())
        m_ghosts[ghost->id] = compute(ghost->trace, ghost->machine);
    apply(compute(m_document->sharedTrace(), m_document->machine(), planned(m_plans.get())));
    // The steps that follow run in the worker: its heap warmed now, while the
    // window is still being laid out, not in the first of them.
    if (m_document->trace().instructionCount() > m_syncInstructions) {
        m_pool.start([plans = m_plans, trace = m_document->sharedTrace()] { plans->warmUp(trace); });
        m_helper.start([plans = m_plans, trace = m_document->sharedTrace()] { plans->warmHelper(trace); });
        if (contentionWithTexts(m_document->trace()))
            warmContentionBuffers(); // this thread's part of the steps
    }
    if (!sensitivityWanted())
        return;
    // Exports and screenshots want the tornado drawn: at once for a short trace
    // (up to 30 simulations of well under a millisecond), else in the worker.
    if (m_document->trace().instructionCount() <= kSyncSensitivityInstructions)
        computeSensitivityNow();
    else
        requestSensitivity();
}

void TimelineView::computeSensitivityNow()
{
    deliverSensitivity(m_generation, m_sensitivityStep,
        sensitivity(m_document->trace(), m_document->machine(), m_sensitivityStep));
}

void TimelineView::showTexts(quint64 generation, const TimelineData &early)
{
    if (generation != m_generation)
        return; // a newer request is on its way, with its own
    m_early = early;
    m_model->setData(early);
    if (m_document->compared())
        updateComparison(); // writes the readout too; the plot keeps its ghost until it draws the new bars
    else
        updateReadout();
    // The worker lays out the bars meanwhile and leaves the contention spans to this thread.
    // The trace's BarsPlan (each transfer's lane in a byte) once the worker has built it.
    if (contentionWithTexts(*early.trace)) {
        m_early.contention = joinContentionHere(early);
    }
    ++m_earlyTextsCount;
    emit textsShown();
}

void TimelineView::apply(const TimelineData &data)
{
    // The result on screen until now is freed on another thread: at 10⁵
    // instructions that is some 10⁵ blocks and about a millisecond the GUI
    // thread should spend drawing (docs/performance.md).
    m_shownAt->store(steadyMilliseconds());
    TimelineData retired = std::exchange(m_data, data);
    // The texts of this very result already shown (showTexts()): only the plots are new.
    const bool textsShown = m_early.result && m_early.result == data.result;
    if (!m_data.contention && m_data.trace && m_data.result) {
        // Joined in showTexts(); not when that was skipped (a result drawn
        // although a newer one is on its way).
        m_data.contention = textsShown && m_early.contention
            ? m_early.contention
            : joinContentionHere(m_data);
    }
    m_early = TimelineData();
    m_plot->setData(m_data);
    m_overview->setData(m_data);
    m_overview->setWindow(m_plot->xAxis->range().lower, m_plot->xAxis->range().upper);
    if (!textsShown)
        m_model->setData(data);
    m_disposal.start([retired = std::move(retired)]() mutable { retired = TimelineData(); });
    if (m_document->compared())
        updateComparison(); // cheap: the snapshot's result is cached; writes the readout too
    else if (!textsShown)
        updateReadout();
    m_plot->replot();
    m_overview->replot();
    if (m_data.trace && m_data.trace->instructionCount() > TimelinePlanCache::kMaxInstructions)
        m_idleRelease.start();
    if (m_shownGeneration == m_generation && sensitivityWanted())
        m_sensitivityQuiet.start();
    m_lastStages = { data.stages, m_deliveredAt, steadyNanoseconds() };
    m_deliveredAt = 0; // flushPendingUpdate() draws without a delivery
    ++m_updateCount;
    emit updated();
}

std::shared_ptr<const LaneContention> TimelineView::joinContentionHere(const TimelineData &data)
{
    // A buffer held only here: neither shown nor on its way to m_disposal.
    auto free = std::find_if(m_contentionBuffers.begin(), m_contentionBuffers.end(),
        [](const std::shared_ptr<LaneContention> &b) { return b && b.use_count() == 1; });
    if (free == m_contentionBuffers.end()) {
        free = std::find(m_contentionBuffers.begin(), m_contentionBuffers.end(), nullptr);
        if (free == m_contentionBuffers.end())
            free = m_contentionBuffers.begin(); // both held: a new one, the old one lives on with its holders
        *free = std::make_shared<LaneContention>();
    }
    laneContention(*data.trace, *data.result, m_plans->builtBarsPlan(data.trace).get(), **free, m_shareLanes);
    return *free;
}

void TimelineView::warmContentionBuffers()
{
    if (!m_data.result || !m_data.contention)
        return;
    const auto touch = [](auto &v, std::size_t n) {
        if (v.capacity() >= n)
            return;
        v.resize(n); // writes each page once
        v.clear(); // the capacity stays
    };
    // Twice the opened result's: the contention moves with the machine's
    // sliders (the first step of roofline-bench at 10⁵ instructions had 25 %
    // more shares than the result it was opened with, and mapped 86 pages
    // with buffers 1.25 times the opened result's). A larger one grows its
    // vector, mapping fresh pages as before.
    const std::size_t spans = 2 * m_data.contention->spans.size();
    for (auto &buffer : m_contentionBuffers) {
        if (buffer && buffer.use_count() > 1)
            continue; // held (shown): written again only once it is free
        if (!buffer)
            buffer = std::make_shared<LaneContention>();
        touch(buffer->spans, spans);
    }
    touch(m_shareLanes, 2 * m_data.result->shares.size());
}

const TimelineData *TimelineView::ghost() const
{
    const TimelineDocument::Snapshot *snapshot = m_document->compared();
    if (!snapshot)
        return nullptr;
    const auto it = m_ghosts.find(snapshot->id);
    return it == m_ghosts.end() ? nullptr : &it->second;
}

void TimelineView::updateComparison()
{
    const TimelineDocument::Snapshot *snapshot = m_document->compared();
    const TimelineData *g = ghost();
    // The plot draws m_data's bars: while a newer result's texts are shown, apply() gives it the ghost.
    if (!m_early.result) {
        if (snapshot && g && m_data.result)
            m_plot->setGhost(g, snapshot->name);
        else
            m_plot->setGhost(nullptr, QString());
    }
    const TimelineData &shown = textData();
    if (!snapshot || !g || !shown.result) {
        m_comparison.reset();
        m_comparisonText = snapshot ? tr("simulating snapshot \"%1\"…").arg(snapshot->name) : QString();
    } else {
        m_comparison = compare(*shown.result, *g->result);
        m_comparisonText = QString::fromStdString(summarize(*m_comparison, snapshot->name.toStdString()));
    }
    updateReadout();
}

void TimelineView::syncSnapshots()
{
    QStringList names;
    for (const auto &snapshot : m_document->snapshots())
        names << snapshot.name;
    m_snapshotBar->setSnapshots(names, m_document->comparedSnapshot());
    // Forget the results of deleted snapshots.
    for (auto it = m_ghosts.begin(); it != m_ghosts.end();) {
        const auto &list = m_document->snapshots();
        const bool alive = std::any_of(list.begin(), list.end(), [&](const auto &s) { return s.id == it->first; });
        it = alive ? std::next(it) : m_ghosts.erase(it);
    }
    if (const std::optional<GhostRequest> request = ghostRequest()) {
        // Simulate the newly compared snapshot in the worker, behind any queued request.
        m_pool.start([request = *request, guard = QPointer<TimelineView>(this)] { runGhost(request, guard); });
    }
    m_readout->resetHeight(); // a comparison line comes or goes
    updateComparison();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::updateReadout()
{
    const TimelineData &shown = textData();
    if (!shown.result)
        return;
    const Result &r = *shown.result;
    const TimeUnit unit = timeUnitFor(r.totalNs);
    auto time = [&](double ns) { return QStringLiteral("%1 %2").arg(formatValue(ns * unit.perNs), unit.name); };
    QString text;
    if (r.error)
        text += QStringLiteral("<span style='color:#b00020'><b>Simulation stopped:</b> %1</span><br>")
                    .arg(QString::fromStdString(r.error->message).toHtmlEscaped());
    // Two short lines rather than one long one: at 1280×800 the one line
    // wrapped in the middle ("… instructions on 2 / cores"). Each line fits the
    // chart's width there for a 10⁶-instruction trace (tst_timelineview_plot::
    // readoutLinesFitAt1280x800).
    text += tr("<b>Total %1</b> for %2 on %3 &nbsp; critical path %4")
                .arg(time(r.totalNs))
                .arg(countOf(shown.trace->instructionCount(), tr("1 instruction"), tr("%1 instructions")))
                .arg(countOf(shown.trace->cores.size(), tr("1 core"), tr("%1 cores")))
                .arg(countOf(r.criticalPath.size(), tr("1 step"), tr("%1 steps")));
    text += QStringLiteral("<br>") + tr("Bus contention %1 in %2 &nbsp; %3")
                                         .arg(time(r.contentionNs))
                                         .arg(countOf(r.contention.size(), tr("1 interval"), tr("%1 intervals")))
                                         .arg(countOf(r.stalls.size(), tr("1 stalled wait"), tr("%1 stalled waits")));
    text += QStringLiteral("<br>") + tr("Utilisation (busy / total):");
    const std::size_t cores = r.cores.size();
    for (Pipe pipe : kLaneOrder) {
        double sum = 0, most = 0;
        for (std::size_t c = 0; c < cores; ++c) {
            sum += r.busyFraction(c, pipe);
            most = std::max(most, r.busyFraction(c, pipe));
        }
        const double mean = cores ? sum / double(cores) : 0;
        text += QStringLiteral(" &nbsp; %1 %2 %").arg(QString::fromLatin1(pipeName(pipe)), formatValue(100 * mean, 3));
        if (cores > 1 && most - mean > 0.005)
            text += tr(" (max %1 %)").arg(formatValue(100 * most, 3));
    }
    if (cores > 1)
        text += tr(" &nbsp; (mean over cores)");
    if (!m_comparisonText.isEmpty())
        text += QStringLiteral("<br><i>%1</i>").arg(m_comparisonText.toHtmlEscaped());
    for (const std::string &w : r.warnings)
        text += QStringLiteral("<br><span style='color:#8a5a00'>%1</span>")
                    .arg(QString::fromStdString(w).toHtmlEscaped());
    m_readout->setHtml(text);
}

QString TimelineView::countOf(std::size_t n, const QString &one, const QString &many)
{
    return n == 1 ? one : many.arg(n);
}

const Result &TimelineView::result() const
{
    static const Result empty;
    return m_data.result ? *m_data.result : empty;
}

void TimelineView::selectInTable(InstructionRef ref)
{
    const int row = m_model->rowOf(ref);
    if (row < 0)
        return;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void TimelineView::setSensitivityStep(double relativeStep)
{
    if (!std::isfinite(relativeStep) || relativeStep <= 0 || relativeStep > 1)
        return;
    ModelView::setSensitivityStep(relativeStep);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    const int tab = m_bottomTabs->indexOf(m_sensitivity);
    m_bottomTabs->setTabText(tab, tr("Sensitivity ±%1%").arg(pct));
    m_bottomTabs->setTabToolTip(tab, tr("Which machine parameter matters: the total time when each one alone moves "
                                        "by ±%1%, simulated in the background while this tab is shown.").arg(pct));
    if (sensitivityWanted())
        requestSensitivity();
}


QString TimelineView::primer() const
{
    return tr(
        "<h3>Verrocchio: the event timeline of an AI core</h3>\n"
        "<p><b>What the plot shows.</b> Time across; one lane per pipe (scalar S, the memory-transfer engines MTE1,\n"
        "MTE2, MTE3, the matrix unit M, the vector unit V) of every core. Each bar is an instruction; hatching marks\n"
        "stalls on a flag, shading marks time when transfers shared the bus, and the critical path is outlined.\n"
        "The overview strip below lets you jump along a long trace.</p>\n"
        "<p><b>The controls.</b> Per pipe its throughput Th (GB/s for transfers, Gops/s for compute) and its\n"
        "start-up latency Init; the shared bus bandwidth (or separate read and write bandwidths); the number of\n"
        "cores and their start skew. The readout gives the total time, the critical resource and the bus\n"
        "contention; <i>Instructions</i> lists every event; <i>Goal seek</i> finds the bandwidth or latency that\n"
        "reaches a total time.</p>\n"
        "<p><b>Where the equations come from.</b> The Verrocchio model of the DaVinci AI core (Tang &amp; Wang,\n"
        "JPDC 2023): pipes run in order, flags synchronise them, transfers share the bus equally, each instruction\n"
        "takes Init + size/rate. Our choices where the paper is silent: docs/models/verrocchio.md.</p>\n");
}

} // namespace studio
