#include "timelineview.h"

#include "resources.h"
#include "timelinedocument.h"
#include "timelinepanel.h"
#include "timelinetablemodel.h"
#include "units.h"
#include "verrocchio/io.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

namespace studio {

using namespace roofline::verrocchio;

namespace {
const QString kDefaultTrace = QStringLiteral(":/examples/verrocchio/vector-add-2cores.json");
const QString kDefaultMachine = QStringLiteral(":/examples/verrocchio/ascend310.json");
} // namespace

TimelineView::TimelineView(TimelineDocument *document, QWidget *parent)
    : ModelView(parent)
    , m_document(document)
{
    m_pool.setMaxThreadCount(1);
    m_disposal.setMaxThreadCount(1);

    m_plot = new TimelinePlot(this);
    m_overview = new TimelineOverview(m_plot, this);
    m_readout = new QLabel(this);
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setWordWrap(true);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setMargin(4);

    m_model = new TimelineTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideNone); // eliding measures every cell's text at every repaint
    m_table->setColumnWidth(TimelineTableModel::Core, 44);
    m_table->setColumnWidth(TimelineTableModel::Index, 56);
    m_table->setColumnWidth(TimelineTableModel::Pipe, 52);
    m_table->setColumnWidth(TimelineTableModel::Instruction, 230);
    for (int column : { TimelineTableModel::Size, TimelineTableModel::Start, TimelineTableModel::End,
             TimelineTableModel::Duration, TimelineTableModel::Rate })
        m_table->setColumnWidth(column, 88);

    auto *toolbar = new QHBoxLayout;
    auto *reset = new QPushButton(tr("Reset zoom"), this);
    reset->setToolTip(tr("Show the whole trace (Ctrl+0). Wheel: zoom time; drag: pan."));
    m_criticalPath = new QCheckBox(tr("Critical path"), this);
    m_criticalPath->setChecked(true);
    m_criticalPath->setToolTip(tr("Outline the instructions whose chain of dependencies ends last."));
    m_arrows = new QCheckBox(tr("Set→wait arrows"), this);
    m_arrows->setToolTip(tr("Draw an arrow from each set_flag to the stalled wait_flag it released (visible stalls). "
                            "The selected instruction always shows its own."));
    auto *chrome = new QPushButton(tr("Export Chrome Trace…"), this);
    chrome->setToolTip(tr("Write the events as Chrome Trace Event JSON for Perfetto or chrome://tracing."));
    toolbar->addWidget(reset);
    toolbar->addWidget(m_criticalPath);
    toolbar->addWidget(m_arrows);
    toolbar->addStretch(1);
    toolbar->addWidget(chrome);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    topLayout->addLayout(toolbar);
    topLayout->addWidget(m_plot, 1);
    topLayout->addWidget(m_overview);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_readout);
    bottomLayout->addWidget(m_table, 1);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(top);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    left->setSizes({ 600, 280 });

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
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(reset, &QPushButton::clicked, this, &TimelineView::resetZoom);
    connect(m_criticalPath, &QCheckBox::toggled, m_plot, &TimelinePlot::setShowCriticalPath);
    connect(m_arrows, &QCheckBox::toggled, m_plot, &TimelinePlot::setShowFlagArrows);
    connect(chrome, &QPushButton::clicked, this, [this] {
        const QString base = QFileInfo(m_document->tracePath()).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chrome Trace"),
            (base.isEmpty() ? QStringLiteral("timeline") : base) + QStringLiteral(".trace.json"),
            tr("Chrome Trace JSON (*.json)"));
        QString error;
        if (!path.isEmpty() && !exportChromeTrace(path, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    connect(m_plot, &TimelinePlot::instructionClicked, this, &TimelineView::selectInTable);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &index) {
        if (index.isValid())
            m_plot->setSelected(m_model->refAt(index.row()));
    });

    connect(m_document, &TimelineDocument::modifiedChanged, this, &ModelView::modifiedChanged);
    connect(m_document, &TimelineDocument::filePathChanged, this, &ModelView::filePathChanged);
    connect(this, &TimelineView::updated, this, &ModelView::summaryChanged);
    connect(m_document, &TimelineDocument::valuesChanged, this, [this] { scheduleUpdate(false); });
    connect(m_document, &TimelineDocument::structureChanged, this, [this] {
        m_trace.reset(); // a new trace or machine: copy it for the workers on the next update
        scheduleUpdate(true);
    });

    QString error;
    if (!m_document->load(kDefaultMachine, &error) || !m_document->load(kDefaultTrace, &error))
        qWarning("%s", qPrintable(error)); // only when the build lost its resources
    flushPendingUpdate();
}

TimelineView::~TimelineView()
{
    m_pool.clear();
    m_pool.waitForDone();
    m_disposal.waitForDone();
}

TimelineData TimelineView::compute(std::shared_ptr<const Trace> trace, const Machine &machine)
{
    TimelineData data;
    data.trace = std::move(trace);
    data.machine = machine;
    auto result = std::make_shared<Result>(simulate(*data.trace, machine));
    data.bars = std::make_shared<const TimelineBars>(timelineBars(*data.trace, *result));
    auto onPath = std::make_shared<std::vector<std::vector<char>>>();
    for (const CoreProgram &core : data.trace->cores)
        onPath->emplace_back(core.instructions.size(), 0);
    for (const PathStep &step : result->criticalPath) {
        if (step.core < onPath->size() && step.instruction < (*onPath)[step.core].size())
            (*onPath)[step.core][step.instruction] = 1;
    }
    data.result = std::move(result);
    data.onPath = std::move(onPath);
    return data;
}

void TimelineView::scheduleUpdate(bool structural)
{
    m_structuralPending |= structural;
    if (m_pending)
        return; // one simulation per event-loop turn, however many edits arrive
    m_pending = true;
    QMetaObject::invokeMethod(this, &TimelineView::startUpdate, Qt::QueuedConnection);
}

void TimelineView::prepareInputs()
{
    m_pending = false;
    // Value edits come from the panel itself, which already shows them; a
    // new machine (a file, an override) rescales and refills it.
    if (m_structuralPending)
        m_panel->refreshValues(true);
    m_structuralPending = false;
    if (!m_trace)
        m_trace = std::make_shared<const Trace>(m_document->trace());
}

void TimelineView::startUpdate()
{
    if (!m_pending)
        return; // flushed meanwhile
    prepareInputs();
    const quint64 generation = ++m_generation;
    // Requests that have not started yet are superseded by this one.
    m_pool.clear();
    m_pool.start([trace = m_trace, machine = m_document->machine(), generation, guard = QPointer<TimelineView>(this)] {
        TimelineData data = compute(trace, machine);
        QMetaObject::invokeMethod(
            qApp,
            [guard, generation, data = std::move(data)] {
                if (guard)
                    guard->deliver(generation, data);
            },
            Qt::QueuedConnection);
    });
}

void TimelineView::deliver(quint64 generation, const TimelineData &data)
{
    if (generation != m_generation) {
        ++m_droppedCount; // stale: a newer request is on its way
        return;
    }
    m_shownGeneration = generation;
    apply(data);
}

void TimelineView::flushPendingUpdate()
{
    if (!m_pending && m_shownGeneration == m_generation)
        return;
    prepareInputs();
    m_shownGeneration = ++m_generation; // anything still running is now stale
    apply(compute(m_trace, m_document->machine()));
}

void TimelineView::apply(const TimelineData &data)
{
    // The result on screen until now is freed on another thread: at 10⁵
    // instructions that is some 10⁵ blocks and about a millisecond the GUI
    // thread should spend drawing (docs/performance.md).
    TimelineData retired = std::exchange(m_data, data);
    m_plot->setData(data);
    m_overview->setData(data);
    m_overview->setWindow(m_plot->xAxis->range().lower, m_plot->xAxis->range().upper);
    m_model->setData(data);
    m_disposal.start([retired = std::move(retired)]() mutable { retired = TimelineData(); });

    const Result &r = *data.result;
    const TimeUnit unit = timeUnitFor(r.totalNs);
    auto time = [&](double ns) { return QStringLiteral("%1 %2").arg(formatValue(ns * unit.perNs), unit.name); };
    QString text;
    if (r.error)
        text += QStringLiteral("<span style='color:#b00020'><b>Simulation stopped:</b> %1</span><br>")
                    .arg(QString::fromStdString(r.error->message).toHtmlEscaped());
    text += tr("<b>Total %1</b> &nbsp; bus contention %2 (%3 intervals) &nbsp; stalled waits %4 &nbsp; "
               "critical path %5 steps &nbsp; %6 instructions on %7 cores")
                .arg(time(r.totalNs), time(r.contentionNs))
                .arg(r.contention.size())
                .arg(r.stalls.size())
                .arg(r.criticalPath.size())
                .arg(data.trace->instructionCount())
                .arg(data.trace->cores.size());
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
    for (const std::string &w : r.warnings)
        text += QStringLiteral("<br><span style='color:#8a5a00'>%1</span>")
                    .arg(QString::fromStdString(w).toHtmlEscaped());
    m_readout->setText(text);
    m_plot->replot();
    m_overview->replot();
    ++m_updateCount;
    emit updated();
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

QString TimelineView::title() const
{
    return tr("Verrocchio timeline");
}

QStringList TimelineView::formatIds() const
{
    return { QString::fromLatin1(kTraceFormatId), QString::fromLatin1(kMachineFormatId) };
}

QStringList TimelineView::textSuffixes() const
{
    return { QStringLiteral("txt") };
}

QStringList TimelineView::exampleFiles() const
{
    QStringList files = resources::exampleFiles(QStringLiteral("verrocchio"));
    const QDir dir(QStringLiteral(":/examples/verrocchio"));
    for (const QString &name : dir.entryList({ QStringLiteral("*.txt") }, QDir::Files, QDir::Name))
        files << dir.filePath(name); // compact text traces
    return files;
}

bool TimelineView::openFile(const QString &path, QString *error, QStringList *warnings)
{
    if (!m_document->load(path, error, warnings))
        return false;
    flushPendingUpdate();
    m_plot->resetView();
    m_plot->replot();
    return true;
}

bool TimelineView::saveFile(const QString &path, QString *error)
{
    return m_document->saveMachine(path, error);
}

QString TimelineView::filePath() const
{
    return m_document->machinePath();
}

bool TimelineView::isModified() const
{
    return m_document->isModified();
}

bool TimelineView::applyOverride(const QString &assignment, QString *error)
{
    Machine machine = m_document->machine();
    roofline::Diagnostics diagnostics;
    diagnostics.setFile(m_document->machinePath().toStdString());
    if (!roofline::verrocchio::applyOverride(machine, assignment.toStdString(), diagnostics)) {
        if (error)
            *error = QString::fromStdString(diagnostics.toString()).trimmed();
        return false;
    }
    m_document->setMachine(machine, m_document->machinePath());
    m_document->setModified(true);
    flushPendingUpdate();
    return true;
}

QCustomPlot *TimelineView::exportPlot() const
{
    return m_plot;
}

QString TimelineView::exportTitle() const
{
    return tr("Verrocchio timeline: %1 on %2")
        .arg(QString::fromStdString(m_document->trace().name), QString::fromStdString(m_document->machine().name));
}

QString TimelineView::summary() const
{
    if (!m_data.result)
        return {};
    const Result &r = *m_data.result;
    const TimeUnit unit = timeUnitFor(r.totalNs);
    QString text = QStringLiteral("total %1 %2 · contention %3 %2 · %4 stalled waits")
                       .arg(formatValue(r.totalNs * unit.perNs), unit.name, formatValue(r.contentionNs * unit.perNs))
                       .arg(r.stalls.size());
    if (r.error)
        text += QStringLiteral(" · error: ") + QString::fromStdString(r.error->message);
    return text;
}

void TimelineView::resetZoom()
{
    m_plot->resetView();
    m_plot->replot();
}

bool TimelineView::exportChromeTrace(const QString &path, QString *error)
{
    flushPendingUpdate();
    const std::string text = chromeTrace(*m_data.trace, m_data.machine, *m_data.result).dump(1) + "\n";
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open for writing: %2").arg(path, file.errorString());
        return false;
    }
    file.write(text.data(), qint64(text.size()));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: could not be written: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace studio
