#include "nnmeterview.h"
#include "readouthost.h"
#include "richreadoutlabel.h"

#include "emptystate.h"
#include "kerneltextdelegate.h"
#include "goalseekpanel.h"
#include "lazyreplot.h"
#include "nnmeterdocument.h"
#include "nnmeterlab.h"
#include "nnmeterpanel.h"
#include "nnmeterplot.h"
#include "plotstyle.h"
#include "resources.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "units.h"

#include "nnmeter/io.h"
#include "nnmeter/measured.h"
#include "nnmeter/parameters.h"
#include "network/io.h"

#include <QFileInfo>
#include <QHash>
#include <QPixmap>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStyle>
#include <QFontMetrics>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace studio {

using namespace roofline;
using namespace roofline::nnmeter;

namespace {

// A splitter that asks its owner to size the panes again after each resize
// (QSplitter keeps a pane of stretch 0 at the width it had in the first, smaller layout).
class TreeSplitter : public QSplitter
{
public:
    TreeSplitter(Qt::Orientation orientation, std::function<void()> resized, QWidget *parent)
        : QSplitter(orientation, parent)
        , m_resized(std::move(resized))
    {
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QSplitter::resizeEvent(event);
        m_resized();
    }

private:
    std::function<void()> m_resized;
};

const QString kDefaultDevice = QStringLiteral(":/examples/nnmeter/cortexa76_tflite_cpu.device.json");
const QString kDefaultNetwork = QStringLiteral(":/examples/amaix/resnet50.json");

QString msText(double ms)
{
    return formatQuantity(ms * 1e-3, QStringLiteral("s"));
}

QString flopsText(double flops)
{
    return formatQuantity(flops, QStringLiteral("FLOP/s")).chopped(2); // "8.218 GFLOP"
}

// A kernel's share of the kernel sum: three digits, and below 0.01 % only that (a
// split of 5 µs in ViT's 590 ms read "0.000887 %", wider than the column).
QString shareText(double percentValue)
{
    if (percentValue > 0 && percentValue < 0.01)
        return QStringLiteral("< 0.01 %");
    return QStringLiteral("%1 %").arg(formatValue(percentValue, 3));
}

QString percent(double ratio)
{
    return QStringLiteral("%1%2 %").arg(ratio >= 0 ? QStringLiteral("+") : QString(), formatValue(ratio * 100, 3));
}

} // namespace

// What fusion saves and how far the FLOPs-proportional estimate is from the kernel sum, worded
// for either sign: FLOPs alone can fall short of the kernel sum (memory-bound kernels, overhead)
// or exceed it (kernels faster than the convolution's efficiency, e.g. learned ones).
QString flopsReadout(const Prediction &p, const Device &device)
{
    const QString saves = NnmeterView::tr("Fusion saves %1 of memory traffic and overhead")
                              .arg(msText(std::max(0.0, p.operatorSumMs - p.kernelSumMs)));
    const QString flops = NnmeterView::tr("FLOPs alone (%1 at %2)")
                              .arg(flopsText(p.flops), formatQuantity(device.peakGflops * device.efficiencyOf("conv").compute,
                                                                       QStringLiteral("GFLOP/s")));
    const double gap = p.flopsMs - p.kernelSumMs;
    QString verdict;
    if (std::abs(gap) <= 0.005 * std::max(p.kernelSumMs, 1e-12))
        verdict = NnmeterView::tr("%1 agree with the kernel sum within 0.5 %").arg(flops);
    else if (gap < 0)
        verdict = NnmeterView::tr("%1 come to %2 less than the kernel sum").arg(flops, msText(-gap));
    else
        verdict = NnmeterView::tr("%1 come to %2 more than the kernel sum").arg(flops, msText(gap));
    return saves + QStringLiteral("; ") + verdict + QLatin1Char('.');
}

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

QString csvText(QString s)
{
    return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

} // namespace

NnmeterView::NnmeterView(NnmeterDocument *document, QWidget *parent)
    : ModelView(parent)
    , m_document(document)
{
    if (!m_document->parent())
        m_document->setParent(this); // a document made for the view alone goes with it
    m_plot = new NnmeterPlot(this);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("Kernel / operator"), tr("Latency"), tr("Share"), tr("Measured")});
    m_tree->headerItem()->setToolTip(3, tr("The kernel's latency measured where it ran in a whole-network run "
                                           "(the kernel lab's kernels.csv), with the prediction's error"));
    m_tree->setColumnHidden(3, true);
    m_tree->setUniformRowHeights(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    // The number columns are as wide as their widest usual text, not sized to
    // their contents: ResizeToContents measured every row's text after every
    // rule toggle (a tenth of the toggle's time in callgrind), and the columns
    // jumped as the values changed. A longer text ends in "…" (the user can widen it).
    {
        const QFontMetrics metrics(m_tree->font());
        const int margin = 2 * m_tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_tree) + 12;
        const QString widest[] = {QStringLiteral("999.9 ms"), QStringLiteral("0.0000 %"), QStringLiteral("999.9 ms (+999 %)")};
        for (int c = 1; c < 4; ++c) {
            m_tree->header()->setSectionResizeMode(c, QHeaderView::Interactive);
            m_tree->header()->resizeSection(c, std::max(metrics.horizontalAdvance(m_tree->headerItem()->text(c)),
                                                        metrics.horizontalAdvance(widest[c - 1]))
                                                   + margin);
        }
    }
    m_tree->setItemDelegate(new KernelTextDelegate(m_tree)); // each text laid out and drawn into an image once (kerneltextdelegate.h)
    m_tree->setToolTip(tr("Each kernel the backend runs, with the operators fused into it; selecting one shows it on the chart"));
    m_tree->setMinimumWidth(250);

    m_panel = new NnmeterPanel(document, this);
    m_panelScroll = new QScrollArea(this);
    m_panelScroll->setWidget(m_panel);
    m_panelScroll->setWidgetResizable(true);
    m_panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_panelScroll->setMinimumWidth(m_panel->sizeHint().width() + 24);

    // New text on every rule toggle: its own document, laid out once per text and painted once
    // (richreadoutlabel.h); its context menu copies the text. A QLabel laid a rich text out in
    // its paint and, through its text control, asked for a second paint from inside that one.
    m_readout = new RichReadoutLabel(this);
    m_readout->setContentsMargins(4, 4, 4, 4); // it paints in contentsRect(), which QLabel::setMargin() leaves out
    m_readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_readout->setFixedHeight(m_readout->fontMetrics().lineSpacing() * 5 + 12);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

    m_totals = new QCustomPlot(this);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    setUpBarChart(m_totals, ticker);
    m_totalsReplot = new LazyReplot(m_totals); // not while the sensitivity tab hides it
    m_totals->xAxis->setLabel(tr("predicted latency of the network (ms)"));
    m_sensitivity = new SensitivityChart(this);
    m_bottomTabs = new QTabWidget(this);
    m_bottomTabs->addTab(m_totals, tr("Totals"));
    m_bottomTabs->setTabToolTip(0, tr("Kernel sum (nn-Meter), operator sum and FLOPs estimate of the network"));
    m_bottomTabs->addTab(m_sensitivity, QString());
    m_goalSeek = new GoalSeekPanel(this);
    m_goalSeek->setTargets({{QStringLiteral("time"), tr("Kernel sum (latency)"), QStringLiteral("ms"), 1}});
    m_goalSeek->setSeeker([this](const QString &, double target, const QString &pointer) {
        return seekLatency(m_document->network(), m_document->device(), pointer.toStdString(), target);
    });
    m_goalSeek->setApplier([this](const QString &pointer, double value, QString *error) {
        return applyOverride(pointer + QLatin1Char('=') + QString::number(value, 'g', 17), error);
    });
    m_bottomTabs->addTab(m_goalSeek, tr("Goal seek"));
    m_bottomTabs->setTabToolTip(2, tr("The device number (peak, bandwidth, overhead, an efficiency) at which the kernel sum "
                                      "reaches a latency"));
    m_measuredTab = new QWidget(this);
    auto *measuredLayout = new QVBoxLayout(m_measuredTab);
    auto *measuredTop = new QHBoxLayout;
    m_measuredSummary = new QLabel(m_measuredTab);
    m_measuredSummary->setWordWrap(true);
    m_measuredSummary->setTextFormat(Qt::RichText);
    m_openMeasured = new QPushButton(tr("Open measurements…"), m_measuredTab);
    m_openMeasured->setToolTip(tr("A CSV of network,measured_ms, or the kernel lab's measurements.csv"));
    measuredTop->addWidget(m_measuredSummary, 1);
    measuredTop->addWidget(m_openMeasured, 0, Qt::AlignTop);
    measuredLayout->addLayout(measuredTop);
    m_measuredTable = new QTableWidget(0, 5, m_measuredTab);
    m_measuredTable->setHorizontalHeaderLabels({tr("Network"), tr("Measured (ms)"), tr("Predicted (ms)"), tr("Error"), tr("Within ±10 %")});
    m_measuredTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 5; ++c)
        m_measuredTable->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_measuredTable->verticalHeader()->hide();
    m_measuredTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    measuredLayout->addWidget(m_measuredTable, 1);
    m_bottomTabs->addTab(m_measuredTab, tr("Predicted vs measured"));
    m_bottomTabs->setTabToolTip(3, tr("The kernel sum beside measured end-to-end latencies, with the seed's metric: "
                                      "the share of networks predicted within ±10 %"));
    connect(m_openMeasured, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open measured latencies"), QString(),
                                                          tr("Measured latencies (*.csv);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !openMeasured(path, &error))
            showMessage(error);
    });
    m_lab = new NnmeterLabPanel(this);
    m_bottomTabs->addTab(m_lab, tr("Kernel lab"));
    m_bottomTabs->setTabToolTip(4, tr("Build predictors for this machine's CPU: time kernels with oneDNN, detect its "
                                      "fusion rules, train random forests and measure networks end to end"));
    m_lab->setNetworkSource([this](bool all) {
        std::vector<lab::LabNetwork> networks;
        auto add = [&](const QString &path, const network::Network &net) {
            networks.push_back({path.isEmpty() ? net.name : QFileInfo(path).fileName().toStdString(), net});
        };
        const auto &current = m_document->state().network;
        if (current)
            add(m_document->networkPath(), *current);
        if (all)
            for (const auto &[path, net] : m_document->openedNetworks())
                if (net != current)
                    add(path, *net);
        return networks;
    });
    connect(m_lab, &NnmeterLabPanel::resultReady, this, &NnmeterView::useLabRun);
    setSensitivityStep(m_sensitivityStep);
    connect(m_bottomTabs, &QTabWidget::currentChanged, this, [this] {
        updateSensitivity();
        updateMeasured();
    });

    m_snapshotBar = makeSnapshotBar();
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_snapshotBar);
    bottomLayout->addWidget(new ReadoutHost(m_readout)); // new text: no window relayout (readouthost.h)
    bottomLayout->addWidget(m_message);
    bottomLayout->addWidget(m_bottomTabs, 1);

    // The tree beside the chart on top; the snapshot row, the readout and the
    // tabs across both below; the panel on the right.
    auto *top = new TreeSplitter(Qt::Horizontal, [this] { fitTreeToNames(); }, this);
    m_treeSplitter = top;
    connect(top, &QSplitter::splitterMoved, this, [this] { m_treeSizedByUser = true; });
    top->addWidget(m_tree);
    top->addWidget(m_plot);
    top->setStretchFactor(0, 0);
    top->setStretchFactor(1, 1);
    top->setChildrenCollapsible(false);
    top->setSizes({330, 900});

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(top);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setChildrenCollapsible(false);
    left->setSizes({560, 300});

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_panelScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);

    // No network or no device (the file named at start-up failed, or one half
    // is missing): say what to open, draw nothing. The example buttons open
    // here (a network example is a JSON network the main window would give
    // the AMAIX view).
    m_empty = new EmptyState(tr("a network and an nn-Meter device (ONNX, Caffe and JSON networks; device and "
                                "fusion-rules files)"),
                             this);
    {
        QStringList networks;
        for (const QString &path : resources::exampleFiles(QStringLiteral("amaix")))
            if (nnmeterFileKind(path) == NnmeterFileKind::Network)
                networks << path;
        m_empty->setExampleGroups({{tr("Networks"), networks}, {tr("Devices"), exampleFiles()}});
    }
    connect(m_empty, &EmptyState::openRequested, this, &NnmeterView::openExample);
    connect(m_empty, &EmptyState::openDialogRequested, this, &ModelView::openDialogRequested);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(split);
    m_stack->addWidget(m_empty);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_document, &NnmeterDocument::modifiedChanged, this, &ModelView::modifiedChanged);
    connect(m_document, &NnmeterDocument::filePathChanged, this, &ModelView::filePathChanged);
    connect(this, &NnmeterView::updated, this, &ModelView::summaryChanged);
    connect(m_document, &NnmeterDocument::valuesChanged, this, &NnmeterView::scheduleUpdate);
    connect(m_document, &NnmeterDocument::structureChanged, this, &NnmeterView::scheduleUpdate);
    connect(m_panel, &NnmeterPanel::message, this, &NnmeterView::showMessage);
    connect(m_plot, &NnmeterPlot::kernelClicked, this, &NnmeterView::selectKernel);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (m_selecting || !item)
            return;
        QTreeWidgetItem *top = item->parent() ? item->parent() : item;
        selectKernel(m_tree->indexOfTopLevelItem(top));
    });

    // The default example: ResNet-50 on the mobile CPU of the seed.
    QString error;
    m_document->loadDevice(kDefaultDevice, &error);
    m_document->loadNetwork(kDefaultNetwork, &error);
    m_document->undoStack()->clear();
    m_document->setModified(false);
    m_pending = true;
    refresh();
}

void NnmeterView::scheduleUpdate()
{
    if (m_pending)
        return; // one detection and redraw per event-loop turn
    m_pending = true;
    QMetaObject::invokeMethod(this, &NnmeterView::flushPendingUpdate, Qt::QueuedConnection);
}

void NnmeterView::flushPendingUpdate()
{
    if (m_pending)
        refresh();
}

void NnmeterView::showMessage(const QString &text)
{
    // Red that reads on either theme (chosen when shown: the theme can change in between).
    m_message->setStyleSheet(plotThemeDark() ? QStringLiteral("color:#ff7b7b") : QStringLiteral("color:#b00020"));
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void NnmeterView::useLabRun(const QString &deviceFile, const QString &measuredFile, const QString &label)
{
    QString error;
    QStringList warnings;
    if (!m_document->loadLabRun(deviceFile, measuredFile, label, &error, &warnings)) {
        m_lab->showError(tr("The run's device could not be opened, so the predictors in use stay: %1").arg(error));
        return;
    }
    m_panel->addDeviceChoice(deviceFile, label);
    m_lab->setResultText(tr("The view now uses these predictors (device \"%1\" in the selector); Edit ▸ Undo goes back.")
                             .arg(label.toHtmlEscaped()));
    if (!warnings.isEmpty())
        showMessage(warnings.join(QLatin1Char(' ')));
    flushPendingUpdate();
}

void NnmeterView::openExample(const QString &path)
{
    // Recent files go through the main window (they may be any view's); examples open here.
    if (nnmeterFileKind(path) == NnmeterFileKind::Unknown) {
        emit openRequested(path);
        return;
    }
    QString error;
    QStringList warnings;
    if (!m_panel->openPath(path, &error, &warnings)) {
        m_emptyNote = error;
        showEmptyState();
        return;
    }
    flushPendingUpdate();
}

void NnmeterView::showEmptyState()
{
    // What is open already, so whoever opened one half sees what is missing.
    QStringList lines;
    if (!m_emptyNote.isEmpty())
        lines << m_emptyNote;
    const NnmeterState &s = m_document->state();
    if (s.network)
        lines << tr("Network open: %1 (%2). Open an nn-Meter device to predict it on.")
                     .arg(QString::fromStdString(s.network->name), QFileInfo(s.networkPath).fileName());
    else if (!s.devicePath.isEmpty())
        lines << tr("Device open: %1 (%2). Open a network to detect its kernels.")
                     .arg(QString::fromStdString(s.device.name), QFileInfo(s.devicePath).fileName());
    m_empty->setNote(lines.join(QLatin1Char('\n')));
    m_stack->setCurrentWidget(m_empty);
    m_prediction = Prediction{};
    m_measuredRows.clear();
    ++m_updateCount;
    emit updated();
}

bool NnmeterView::showsEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

void NnmeterView::setRecentFiles(const QStringList &paths)
{
    m_empty->setRecentFiles(paths);
}

bool NnmeterView::clearStartupModel(const QString &note)
{
    // Only the start-up example (ResNet-50 on the seed's mobile CPU): no step, no snapshot, no lab run.
    if (m_document->undoStack()->count() > 0 || !m_document->snapshots().empty() || m_document->isModified()
        || m_lab->isRunning())
        return false;
    m_emptyNote = note;
    m_document->clear();
    flushPendingUpdate();
    return true;
}

void NnmeterView::refresh()
{
    m_pending = false;
    if (!m_document->hasModel()) {
        showEmptyState();
        return;
    }
    if (showsEmptyState()) {
        m_stack->setCurrentIndex(0);
        m_emptyNote.clear();
    }
    const network::Network &net = m_document->network();
    const Device &device = m_document->device();
    m_prediction = predictNetwork(net, device, device.rules);

    std::vector<double> ghostMs;
    QString ghostName;
    m_hasGhost = false;
    m_comparisonText.clear();
    if (const int compared = m_document->comparedSnapshot(); compared >= 0) {
        const auto &snapshot = m_document->snapshots()[std::size_t(compared)];
        if (snapshot.state.network) {
            // A snapshot's state never changes, so its prediction is kept until the snapshots or
            // the compared one change (snapshotsChanged), not made again on every rule toggle.
            if (!m_ghostValid) {
                m_ghost = predictNetwork(*snapshot.state.network, snapshot.state.device, snapshot.state.device.rules);
                m_ghostValid = true;
                ++m_ghostPredictions;
            }
            m_hasGhost = true;
            for (const KernelPrediction &k : m_ghost.kernels)
                ghostMs.push_back(k.ms);
            ghostName = snapshot.name;
            const double change = m_ghost.kernelSumMs > 0 ? m_prediction.kernelSumMs / m_ghost.kernelSumMs - 1 : 0;
            m_comparisonText = tr("kernel sum %1, %2 vs %3 (%4); %5 kernels (was %6)")
                                   .arg(msText(m_prediction.kernelSumMs), percent(change), snapshot.name,
                                        msText(m_ghost.kernelSumMs))
                                   .arg(m_prediction.detection.kernels.size())
                                   .arg(m_ghost.detection.kernels.size());
        }
    }
    // A file may give a name of any length: the title shows its first 120 characters.
    const auto shortName = [](const std::string &name) {
        const QString text = QString::fromStdString(name);
        return text.size() > 120 ? text.left(119) + QChar(0x2026) : text;
    };
    const QString title = tr("%1: %2 kernels from %3 operators\non %4")
                              .arg(shortName(net.name))
                              .arg(m_prediction.detection.kernels.size())
                              .arg(m_prediction.detection.operators)
                              .arg(shortName(device.name));
    matchKernelMeasurements();
    m_plot->setPrediction(m_prediction, title, ghostMs, ghostName, m_kernelMeasured);
    rebuildTree();
    updateTotals();
    m_panel->refresh();

    // The readout: the three totals and what fusion changes.
    const Prediction &p = m_prediction;
    QString text = tr("<b>Kernel sum %1</b> (%2 kernels) &nbsp; operator sum %3 (%4 operators, %5) &nbsp; "
                      "FLOPs estimate %6")
                       .arg(msText(p.kernelSumMs))
                       .arg(p.detection.kernels.size())
                       .arg(msText(p.operatorSumMs))
                       .arg(p.detection.operators)
                       .arg(p.kernelSumMs > 0 ? percent(p.operatorSumMs / p.kernelSumMs - 1) : QStringLiteral("—"),
                            msText(p.flopsMs));
    text += QStringLiteral("<br>") + flopsReadout(p, device);
    text += QStringLiteral("<br>") + (p.learnedKernels > 0
                                          ? tr("%1 of %2 kernels from learned predictors, the rest analytical (roofline).")
                                                .arg(p.learnedKernels)
                                                .arg(p.kernels.size())
                                          : tr("Every kernel analytical: the device's roofline (no learned predictor)."));
    if (!m_comparisonText.isEmpty())
        text += QStringLiteral("<br><i>%1</i>").arg(m_comparisonText.toHtmlEscaped());
    m_readout->setHtml(text);

    const std::vector<NumberParameter> numbers = numberParameters(device);
    if (int(numbers.size()) != m_goalSeekParameters) {
        QList<GoalSeekPanel::Parameter> parameters;
        for (const NumberParameter &n : numbers)
            parameters.append({QString::fromStdString(n.pointer),
                               n.unit.empty() ? QString::fromStdString(n.label)
                                              : QStringLiteral("%1 (%2)").arg(QString::fromStdString(n.label), QString::fromStdString(n.unit))});
        m_goalSeek->setParameters(parameters);
        m_goalSeekParameters = int(numbers.size());
    }
    m_goalSeek->invalidate();

    updateSensitivity();
    updateMeasured();
    m_plot->replot();
    m_totalsReplot->replot();
    ++m_updateCount;
    emit updated();
}

namespace {

quint64 g_treeTexts = 0; // cell texts formatted (treeTextsFormatted())

// A kernel's row. Its tooltip is written when it is asked for (hovering), not
// for every kernel on every rule toggle: formatting the tooltips of all ~125
// kernels of ResNet-50 was a fifth of rebuilding the tree (callgrind). The
// latency, share and measured texts likewise: a toggle gives every row new
// numbers, and only the rows on screen (about 25 of ResNet-50's 73–159) are
// asked for theirs, when painted.
class KernelItem : public QTreeWidgetItem
{
public:
    KernelItem() = default;

    // The kernel this row shows now (the row is reused from one detection to the next).
    void setKernel(const Kernel &kernel, const KernelPrediction &prediction)
    {
        if (m_typeStd != kernel.type) {
            m_typeStd = kernel.type;
            m_type = QString::fromStdString(kernel.type);
        }
        m_operators = int(kernel.layers.size());
        m_source = prediction.source;
        m_computeBound = prediction.computeBound;
        m_bytes = kernel.bytes;
        m_flops = kernel.flops;
        m_hw = kernel.hw;
        m_cin = kernel.cin;
        m_cout = kernel.cout;
    }
    // Its latency, its share of `total` and the latency measured (< 0: none), formatted when shown.
    void setLatency(double ms, double total, double measuredMs)
    {
        if (ms == m_ms && total == m_total && measuredMs == m_measuredMs)
            return;
        m_ms = ms;
        m_total = total;
        m_measuredMs = measuredMs;
        m_formatted = false;
    }
    const QString &type() const { return m_type; }

    QVariant data(int column, int role) const override
    {
        if (column == 0 && role == Qt::ToolTipRole)
            return NnmeterView::tr("%1: %2 operator(s), %9, %3, %4 moved; input %5×%6, CIN %7, COUT %8")
                .arg(m_type)
                .arg(m_operators)
                .arg(m_source == Source::Learned ? NnmeterView::tr("learned predictor")
                     : m_computeBound            ? NnmeterView::tr("compute-bound")
                                                 : NnmeterView::tr("memory-bound"),
                     formatQuantity(m_bytes, QStringLiteral("B")))
                .arg(m_hw)
                .arg(m_hw)
                .arg(m_cin)
                .arg(m_cout)
                .arg(flopsText(m_flops));
        if (column >= 1 && column <= 3 && (role == Qt::DisplayRole || role == Qt::EditRole)) {
            if (!m_formatted) {
                m_cells[0] = msText(m_ms);
                m_cells[1] = shareText(100 * m_ms / m_total);
                m_cells[2] = m_measuredMs < 0 ? QString()
                    : m_measuredMs > 0 ? NnmeterView::tr("%1 (%2)").arg(msText(m_measuredMs), percent(m_ms / m_measuredMs - 1))
                                       : msText(m_measuredMs);
                m_formatted = true;
                g_treeTexts += 3;
            }
            return m_cells[std::size_t(column - 1)];
        }
        return QTreeWidgetItem::data(column, role);
    }

private:
    std::string m_typeStd;
    QString m_type;
    int m_operators = 0;
    Source m_source = Source::Analytical;
    bool m_computeBound = false;
    double m_bytes = 0, m_flops = 0;
    decltype(Kernel::hw) m_hw{};
    decltype(Kernel::cin) m_cin{};
    decltype(Kernel::cout) m_cout{};
    double m_ms = -1, m_total = 1, m_measuredMs = -1;
    mutable std::array<QString, 3> m_cells; // latency, share, measured
    mutable bool m_formatted = false;
};

// An operator's row under its kernel: "name (type)", its layer name as the tooltip, both
// formatted when asked for (the kernels are collapsed: most operator rows are never shown).
class OperatorItem : public QTreeWidgetItem
{
public:
    OperatorItem() = default;
    int layer() const { return m_layer; }
    // Shows `layer` of `net`, which outlives the row (the view keeps the network its rows show,
    // and clears the tree for another one).
    void setLayer(const network::Network &net, int layer)
    {
        if (layer == m_layer && &net == m_net)
            return;
        m_net = &net;
        m_layer = layer;
        m_formatted = false;
    }
    QVariant data(int column, int role) const override
    {
        if (column == 0 && (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::ToolTipRole)) {
            if (!m_formatted && m_net) {
                m_name = QString::fromStdString(m_net->layers[std::size_t(m_layer)].name);
                m_text = QStringLiteral("%1 (%2)").arg(m_name, QString::fromStdString(operatorType(*m_net, std::size_t(m_layer))));
                m_formatted = true;
                ++g_treeTexts;
            }
            return role == Qt::ToolTipRole ? m_name : m_text;
        }
        return QTreeWidgetItem::data(column, role);
    }

private:
    const network::Network *m_net = nullptr;
    int m_layer = -1;
    mutable QString m_name, m_text;
    mutable bool m_formatted = false;
};

} // namespace

quint64 NnmeterView::treeTextsFormatted()
{
    return g_treeTexts;
}

void NnmeterView::rebuildTree()
{
    // The rows are reused from one detection to the next, their texts set with the model's
    // signals blocked (one repaint of the viewport below instead of a dataChanged per cell):
    // clearing the tree and making ~100 kernel rows and ~175 operator rows anew was most of
    // rebuilding it (callgrind, a rule toggle of ResNet-50). Only a change in the number of
    // kernels or of a kernel's operators inserts or removes rows (with the model's signals).
    const QSignalBlocker block(m_tree);
    const network::Network &net = m_document->network();
    if (m_treeNetwork != m_document->state().network) {
        // Another network: its rows have nothing in common with the last one's, and the tree's
        // wanted width starts again from its names (a rule toggle only ever widens it).
        m_tree->clear();
        m_treeNetwork = m_document->state().network;
        m_treeWanted = 0;
    }
    const Prediction &p = m_prediction;
    const double total = p.kernelSumMs > 0 ? p.kernelSumMs : 1;
    const int count = int(p.detection.kernels.size());
    while (m_tree->topLevelItemCount() > count)
        delete m_tree->takeTopLevelItem(m_tree->topLevelItemCount() - 1);
    const int reused = m_tree->topLevelItemCount();
    QList<QTreeWidgetItem *> added;
    std::vector<KernelItem *> items(std::size_t(count), nullptr);
    {
        const QSignalBlocker modelSignals(m_tree->model());
        for (int i = 0; i < count; ++i) {
            const Kernel &k = p.detection.kernels[std::size_t(i)];
            const KernelPrediction &kp = p.kernels[std::size_t(i)];
            KernelItem *item = i < reused ? static_cast<KernelItem *>(m_tree->topLevelItem(i)) : new KernelItem;
            items[std::size_t(i)] = item;
            if (i >= reused)
                added.append(item);
            const double measuredMs = std::size_t(i) < m_kernelMeasured.size() ? m_kernelMeasured[std::size_t(i)] : -1;
            const QString before = item->type();
            item->setKernel(k, kp);
            if (item->type() != before || item->text(0).isEmpty()) // row i is always "#i+1": only a new type changes it
                item->setText(0, QStringLiteral("#%1 %2").arg(i + 1).arg(item->type()));
            item->setData(0, Qt::DecorationRole, swatch(m_plot->colorOf(item->type()))); // colours follow the types' shares
            item->setLatency(kp.ms, total, measuredMs); // formatted when shown (KernelItem)
            if (i < reused && item->isExpanded())
                item->setExpanded(false); // as a new row: another kernel may be in this place now
            // The operators: the rows there are show the first members.
            const int have = std::min(item->childCount(), int(k.layers.size()));
            for (int c = 0; c < have; ++c)
                static_cast<OperatorItem *>(item->child(c))->setLayer(net, k.layers[std::size_t(c)]);
        }
    }
    // Rows inserted and removed with the model's signals, so the view follows.
    for (int i = 0; i < count; ++i) {
        KernelItem *item = items[std::size_t(i)];
        const Kernel &k = p.detection.kernels[std::size_t(i)];
        const int want = int(k.layers.size());
        if (item->childCount() > want) {
            while (item->childCount() > want)
                delete item->takeChild(item->childCount() - 1);
        } else if (item->childCount() < want) {
            QList<QTreeWidgetItem *> children;
            for (int c = item->childCount(); c < want; ++c) {
                auto *op = new OperatorItem;
                op->setLayer(net, k.layers[std::size_t(c)]);
                children.append(op);
            }
            item->addChildren(children);
        }
    }
    if (!added.isEmpty())
        m_tree->addTopLevelItems(added);
    m_tree->viewport()->update(); // the texts set above, with the model's signals blocked
    // With per-kernel timings the Measured column takes the Share column's place (the tree stays
    // readable at 1280 px: at 250 px the four columns left no room for the kernel names).
    const bool measuredShown = std::any_of(m_kernelMeasured.begin(), m_kernelMeasured.end(), [](double ms) { return ms >= 0; });
    m_tree->setColumnHidden(3, !measuredShown);
    m_tree->setColumnHidden(2, measuredShown);
    // The minimum stays 250 px (400 with the measured column made the window wider than
    // 1280 px); fitTreeToNames() gives the tree what its names need where there is room.
    {
        // Wide enough for the longest kernel name and the columns now shown ("#112 dwconv-bn-relu6"): at
        // the splitter's first sizes the names were cut off at 1280 and 1920 px.
        // Measured once per kernel type with the longest number ("#" and as many zeros:
        // the font's digits are of one width), not once per row: ViT has 355 rows.
        const QFontMetrics metrics(m_tree->font());
        const QString number = QStringLiteral("#%1 ").arg(QString(QString::number(count).size(), QLatin1Char('0')));
        std::set<std::string_view> types;
        for (const Kernel &k : p.detection.kernels)
            types.insert(k.type);
        int name = 0;
        for (std::string_view type : types)
            name = std::max(name, metrics.horizontalAdvance(number + QString::fromUtf8(type.data(), qsizetype(type.size()))));
        int wanted = m_tree->indentation() + m_tree->iconSize().width() + name + 36
                     + m_tree->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_tree) + 2 * m_tree->frameWidth();
        for (int c = 1; c < m_tree->columnCount(); ++c)
            if (!m_tree->isColumnHidden(c))
                wanted += m_tree->header()->sectionSize(c);
        if (wanted > m_treeWanted) { // only grows: a rule toggle must not make the chart jump
            m_treeWanted = wanted;
            fitTreeToNames();
        }
    }
    // Lay the rows out now, not in the next paint: laid out while painting, the
    // tree changed its scroll bars' range, which repainted it a second time
    // (roofline-bench --paints: the tree's viewport painted twice per toggle).
    m_tree->doItemsLayout();
    m_tree->header()->doItemsLayout();
    if (m_selected >= count)
        m_selected = -1;
    m_selecting = true;
    m_tree->setCurrentItem(m_selected >= 0 ? items[std::size_t(m_selected)] : nullptr);
    m_selecting = false;
    m_plot->setSelectedKernel(m_selected);
}

void NnmeterView::fitTreeToNames()
{
    if (m_treeSizedByUser || !m_treeSplitter || m_treeWanted <= 0)
        return;
    const int total = m_treeSplitter->width() - m_treeSplitter->handleWidth();
    if (total <= 0)
        return;
    // At most half of the row, and the chart keeps room for its legend in two columns
    // (with the measured column shown, the tree would take it all).
    const int chart = std::max(total / 2, m_plot->legendWidth(2) + 24);
    const int tree = std::clamp(m_treeWanted, m_tree->minimumWidth(), std::max(m_tree->minimumWidth(), total - chart));
    if (std::abs(m_tree->width() - tree) <= 1)
        return;
    m_plot->fitLegendToWidth(total - tree); // before: the legend's row sets the chart's minimum width
    m_treeSplitter->setSizes({tree, total - tree});
}

QPixmap NnmeterView::swatch(const QColor &color)
{
    // One pixmap per colour: a QColor as decoration makes the delegate render
    // a new pixmap on every paint (the soak test saw the heap grow by it).
    QPixmap &p = m_swatches[color.rgba()];
    if (p.isNull()) {
        p = QPixmap(12, 12);
        p.fill(color);
    }
    return p;
}

void NnmeterView::selectKernel(int kernel)
{
    m_selected = kernel >= 0 && kernel < m_tree->topLevelItemCount() ? kernel : -1;
    m_selecting = true;
    if (m_selected >= 0) {
        QTreeWidgetItem *item = m_tree->topLevelItem(m_selected);
        m_tree->setCurrentItem(item);
        m_tree->scrollToItem(item);
    } else {
        m_tree->setCurrentItem(nullptr);
    }
    m_selecting = false;
    m_plot->setSelectedKernel(m_selected);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void NnmeterView::updateTotals()
{
    // The bars are kept from one update to the next and given new values: made anew on every
    // rule toggle, each series came with a new legend entry, and QCustomPlot measured the new
    // entries' texts and laid the legend out again in the replot. Only a compared snapshot or
    // a measured latency coming or going adds or removes a series (after "current", in the
    // legend order they always had).
    const Prediction &p = m_prediction;
    double measuredMs = -1; // the current network's measured latency, when a measurements file names it
    if (const auto *measured = m_document->measured())
        for (const MeasuredLatency &m : *measured)
            if (namesShownNetwork(m.network))
                measuredMs = m.measuredMs;
    const bool withMeasured = measuredMs > 0;
    const bool first = !m_totalsNow;
    if (first)
        m_totalsNow = addHorizontalBars(m_totals, tr("current"), QColor(0x1f, 0x77, 0xb4), 0.6);
    if (first || m_hasGhost != (m_totalsGhost != nullptr) || withMeasured != (m_totalsMeasured != nullptr)) {
        for (QCPBars **bars : {&m_totalsGhost, &m_totalsMeasured})
            if (*bars) {
                m_totals->removePlottable(*bars); // its legend entry goes with it
                *bars = nullptr;
            }
        if (m_hasGhost)
            m_totalsGhost = addHorizontalBars(m_totals, QString(), QColor(170, 170, 170), 0.38);
        if (withMeasured)
            m_totalsMeasured = addHorizontalBars(m_totals, tr("measured"), QColor(0x2c, 0xa0, 0x2c), 0.6);
        auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(m_totals->yAxis->ticker());
        ticker->clear();
        ticker->addTick(1, tr("kernel sum (nn-Meter)"));
        ticker->addTick(2, tr("operator sum"));
        ticker->addTick(3, tr("FLOPs estimate"));
        if (withMeasured)
            ticker->addTick(4, tr("measured"));
    }
    double hi = std::max({p.kernelSumMs, p.operatorSumMs, p.flopsMs});
    if (m_hasGhost) {
        const QString name = tr("snapshot \"%1\"").arg(m_document->snapshots()[std::size_t(m_document->comparedSnapshot())].name);
        if (m_totalsGhost->name() != name)
            m_totalsGhost->setName(name);
        m_totalsGhost->setData({1.4, 2.4, 3.4}, {m_ghost.kernelSumMs, m_ghost.operatorSumMs, m_ghost.flopsMs}, true);
        m_totalsNow->setWidth(0.38);
        m_totalsNow->setData({0.8, 1.8, 2.8}, {p.kernelSumMs, p.operatorSumMs, p.flopsMs}, true);
        hi = std::max({hi, m_ghost.kernelSumMs, m_ghost.operatorSumMs, m_ghost.flopsMs});
    } else {
        m_totalsNow->setWidth(0.6);
        m_totalsNow->setData({1, 2, 3}, {p.kernelSumMs, p.operatorSumMs, p.flopsMs}, true);
    }
    if (withMeasured) {
        m_totalsMeasured->setData({4}, {measuredMs}, true);
        hi = std::max(hi, measuredMs);
    }
    m_totals->yAxis->setRange(0.4, withMeasured ? 4.6 : 3.6);
    m_totals->xAxis->setRange(0, hi > 0 ? hi * 1.1 : 1);
}

void NnmeterView::setSensitivityStep(double relativeStep)
{
    ModelView::setSensitivityStep(relativeStep);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    const int tab = m_bottomTabs->indexOf(m_sensitivity);
    m_bottomTabs->setTabText(tab, tr("Sensitivity ±%1%").arg(pct));
    m_bottomTabs->setTabToolTip(tab, tr("Which device number matters: the kernel sum when each alone moves by ±%1%").arg(pct));
    updateSensitivity();
}

void NnmeterView::updateSensitivity(bool evenIfHidden)
{
    if (!m_document->hasModel() || (!evenIfHidden && m_bottomTabs->currentWidget() != m_sensitivity))
        return;
    m_sensitivityRows = sensitivity(m_document->network(), m_document->device(), m_sensitivityStep);
    std::vector<SensitivityChart::Row> rows;
    for (const Sensitivity &s : m_sensitivityRows)
        rows.push_back({QString::fromStdString(s.label), s.lowMs, s.highMs});
    m_sensitivity->setRows(rows, m_prediction.kernelSumMs, m_sensitivityStep, tr("kernel sum"), QStringLiteral("ms"));
    m_sensitivity->replot();
}

bool NnmeterView::openMeasured(const QString &path, QString *error)
{
    if (!m_document->loadMeasured(path, error))
        return false;
    showMessage(QString());
    flushPendingUpdate();
    updateMeasured(true);
    return true;
}

const network::Network *NnmeterView::networkNamed(const QString &name, QString *file)
{
    auto matches = [&](const QString &path, const network::Network &net) {
        return name == QString::fromStdString(net.name) || name == QFileInfo(path).fileName()
               || name == QFileInfo(path).completeBaseName();
    };
    if (m_document->state().network && matches(m_document->networkPath(), m_document->network())) {
        *file = m_document->networkPath();
        return &m_document->network();
    }
    for (const auto &[path, net] : m_document->openedNetworks())
        if (matches(path, *net)) {
            *file = path;
            return net.get();
        }
    if (!m_shippedLoaded) {
        m_shippedLoaded = true;
        for (const QString &path : resources::exampleFiles(QStringLiteral("amaix"))) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            network::NetworkLoad loaded = network::parseNetwork(f.readAll().toStdString(), path.toStdString());
            if (loaded.network)
                m_shipped[path] = std::make_shared<const network::Network>(std::move(*loaded.network));
        }
    }
    for (const auto &[path, net] : m_shipped)
        if (matches(path, *net)) {
            *file = path;
            return net.get();
        }
    return nullptr;
}

bool NnmeterView::namesShownNetwork(const std::string &name) const
{
    if (!m_document->state().network)
        return false;
    const QString n = QString::fromStdString(name);
    const QString path = m_document->networkPath();
    return n == QString::fromStdString(m_document->network().name) || (!path.isEmpty() && (n == QFileInfo(path).fileName() || n == QFileInfo(path).completeBaseName()));
}

void NnmeterView::matchKernelMeasurements()
{
    const auto &kernels = m_prediction.detection.kernels;
    m_kernelMeasured.assign(kernels.size(), -1.0);
    const auto *measured = m_document->kernelsMeasured();
    if (!measured || !m_document->state().network)
        return;
    // A measured kernel is the shown kernel that starts at the same layer with as many members
    // (the same kernel whatever its index under the rules in force).
    const network::Network &net = m_document->network();
    std::unordered_map<std::string, std::size_t> byFirst;
    for (std::size_t k = 0; k < kernels.size(); ++k)
        if (!kernels[k].layers.empty())
            byFirst.emplace(net.layers[std::size_t(kernels[k].layers.front())].name, k);
    std::string matchedNetwork;
    for (const KernelLatency &m : *measured) {
        if (!matchedNetwork.empty() ? m.network != matchedNetwork : !namesShownNetwork(m.network))
            continue;
        matchedNetwork = m.network; // one network's rows: the first name that matches
        const auto it = byFirst.find(m.firstLayer);
        if (it != byFirst.end() && int(kernels[it->second].layers.size()) == m.operators)
            m_kernelMeasured[it->second] = m.measuredMs;
    }
}

QString NnmeterView::kernelSummary() const
{
    const auto *measured = m_document->kernelsMeasured();
    if (!measured)
        return {};
    int matched = 0, within = 0;
    double sumMeasured = 0, sumPredicted = 0;
    for (std::size_t k = 0; k < m_kernelMeasured.size(); ++k)
        if (m_kernelMeasured[k] >= 0) {
            ++matched;
            within += withinTenPercent(m_prediction.kernels[k].ms, m_kernelMeasured[k]);
            sumMeasured += m_kernelMeasured[k];
            sumPredicted += m_prediction.kernels[k].ms;
        }
    const QString file = QFileInfo(m_document->state().kernelsMeasuredPath).fileName().toHtmlEscaped();
    if (matched == 0)
        return tr("<br>Per kernel (%1): no kernel of %2 measured under these rules.")
            .arg(file, QString::fromStdString(m_document->network().name).toHtmlEscaped());
    return tr("<br>Per kernel of %1 (%2): %3 of %4 kernels measured in a network run, %5 of them within ±10 %; "
              "they measured %6 in all, predicted %7.")
        .arg(QString::fromStdString(m_document->network().name).toHtmlEscaped(), file)
        .arg(matched)
        .arg(m_kernelMeasured.size())
        .arg(within)
        .arg(msText(sumMeasured), msText(sumPredicted));
}

void NnmeterView::updateMeasured(bool evenIfHidden)
{
    const auto *measured = m_document->measured();
    m_measuredTable->setEnabled(measured != nullptr);
    if (!measured) {
        m_measuredRows.clear();
        m_measuredTable->setRowCount(0);
        m_measuredSummary->setText(
            tr("<span style='color:gray'>No measured latencies are open, so nothing is compared. The kernel lab "
               "(<tt>roofline-cli kernel-lab --out DIR</tt>) writes <tt>DIR/onednn_cpu/measurements.csv</tt>; open it, "
               "or a CSV of <tt>network,measured_ms</tt> (docs/file-formats-nnmeter.md), and select the device the "
               "networks were measured on.</span>")
            + (m_document->state().network ? kernelSummary() : QString()));
        return;
    }
    if (!evenIfHidden && m_bottomTabs->currentWidget() != m_measuredTab)
        return;
    m_measuredRows.clear();
    int compared = 0, within = 0;
    for (const MeasuredLatency &m : *measured) {
        MeasuredRow row;
        row.network = QString::fromStdString(m.network);
        row.measuredMs = m.measuredMs;
        row.noisePercent = m.noisePercent;
        if (const network::Network *net = m_document->hasModel() ? networkNamed(row.network, &row.matchedFile) : nullptr) {
            row.predictedMs = predictNetwork(*net, m_document->device(), m_document->rules()).kernelSumMs;
            ++compared;
            within += withinTenPercent(row.predictedMs, row.measuredMs);
        }
        m_measuredRows.push_back(row);
    }
    m_measuredTable->setRowCount(int(m_measuredRows.size()));
    for (std::size_t i = 0; i < m_measuredRows.size(); ++i) {
        const MeasuredRow &r = m_measuredRows[i];
        const bool have = r.predictedMs >= 0;
        const double error = have ? r.predictedMs / r.measuredMs - 1 : 0;
        const QStringList cells{r.network,
                                formatValue(r.measuredMs, 5)
                                    + (r.noisePercent >= 0 ? tr(" (±%1 %)").arg(formatValue(r.noisePercent, 2)) : QString()),
                                have ? formatValue(r.predictedMs, 5) : tr("—"),
                                have ? percent(error) : tr("not open"),
                                have ? (withinTenPercent(r.predictedMs, r.measuredMs) ? tr("yes") : tr("no")) : QString()};
        for (int c = 0; c < 5; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c == 0)
                item->setToolTip(have ? r.matchedFile : tr("No open or shipped network has this name or file name: open it to compare"));
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_measuredTable->setItem(int(i), c, item);
        }
    }
    QString summary = compared == 0
        ? tr("None of the %1 measured networks is open: open them (Network ▸ Open…) to compare.").arg(measured->size())
        : tr("<b>%1 of %2 networks within ±10 %</b> (%3 %; the seed's metric) on %4 with the rules in force.")
              .arg(within)
              .arg(compared)
              .arg(formatValue(100.0 * within / compared, 3))
              .arg(QString::fromStdString(m_document->device().name).toHtmlEscaped());
    if (compared < int(measured->size()))
        summary += tr(" %1 measured network(s) not open.").arg(int(measured->size()) - compared);
    summary += kernelSummary();
    summary += tr("<br><span style='color:gray'>%1</span>").arg(QFileInfo(m_document->state().measuredPath).fileName().toHtmlEscaped());
    m_measuredSummary->setText(summary);
}

SnapshotBar *NnmeterView::makeSnapshotBar()
{
    auto *bar = new SnapshotBar(this);
    connect(bar, &SnapshotBar::pinRequested, m_document, [this] { m_document->pinSnapshot(); });
    connect(bar, &SnapshotBar::compareRequested, m_document, &NnmeterDocument::setComparedSnapshot);
    connect(bar, &SnapshotBar::restoreRequested, m_document, &NnmeterDocument::restoreSnapshot);
    connect(bar, &SnapshotBar::removeRequested, m_document, &NnmeterDocument::removeSnapshot);
    connect(bar, &SnapshotBar::renameRequested, m_document, &NnmeterDocument::renameSnapshot);
    auto sync = [this, bar] {
        QStringList names;
        for (const auto &snapshot : m_document->snapshots())
            names << snapshot.name;
        bar->setSnapshots(names, m_document->comparedSnapshot());
    };
    connect(m_document, &NnmeterDocument::snapshotsChanged, this, sync);
    connect(m_document, &NnmeterDocument::snapshotsChanged, this, [this] { m_ghostValid = false; });
    sync();
    return bar;
}

// ---------------------------------------------------------------- ModelView

QString NnmeterView::title() const
{
    return tr("nn-Meter kernels");
}

QStringList NnmeterView::formatIds() const
{
    return {QString::fromLatin1(kDeviceFormatId), QString::fromLatin1(kRulesFormatId)};
}

QStringList NnmeterView::exampleFiles() const
{
    QStringList files;
    for (const QString &path : resources::exampleFiles(QStringLiteral("nnmeter")))
        if (path.endsWith(QLatin1String(".device.json")))
            files << path;
    return files;
}

QString NnmeterView::primer() const
{
    return tr(
        "<h3>nn-Meter: a network's latency, kernel by kernel</h3>\n"
        "<p><b>What the plot shows.</b> One bar per kernel, in the order the kernels run: its predicted latency\n"
        "(µs or ms on the axis), coloured by kernel type (conv-bn-relu, add-relu, ...). A kernel is what the\n"
        "backend fuses and runs as one: the tree on the left lists each kernel and the operators in it; click a bar\n"
        "or a tree row to find the other. Below, <i>Totals</i> compares the kernel sum (nn-Meter's prediction) with\n"
        "the sum over operators run one by one and with a FLOPs-proportional estimate: the gap is what fusion and\n"
        "memory traffic change.</p>\n"
        "<p><b>The controls.</b> The network (shipped, or ONNX, Caffe and JSON files you open), the device (its\n"
        "peak P<sub>peak</sub>, bandwidth B<sub>peak</sub>, per-kernel overhead, efficiencies and learned predictors)\n"
        "and the fusion rules: each BF_&lt;first&gt;_&lt;second&gt; check box says whether the backend fuses that\n"
        "pair; multi-outbound and multi-inbound are the connection rules of seed Fig. 4; the units (SE, hswish,\n"
        "channel shuffle, ...) collapse patterns first. Every toggle detects the kernels again at once.\n"
        "<i>Sensitivity</i> shows which device number matters; <i>Goal seek</i> finds the one that reaches a latency.</p>\n"
        "<p><b>Where the equations come from.</b> nn-Meter (Zhang et al., MobiSys 2021; seed 004): kernels are\n"
        "detected by the backend's fusion rules (section 4), each kernel's latency is predicted and the model\n"
        "latency is their sum (section 2.2). Here a kernel's latency is its roofline on the device,\n"
        "overhead + max(FLOPs / (P<sub>peak</sub>·e<sub>compute</sub>), bytes / (B<sub>peak</sub>·e<sub>memory</sub>)),\n"
        "or a learned random forest when the device has one. Our readings of the seed: docs/models/nnmeter.md.</p>\n");
}

bool NnmeterView::claimsFile(const QString &path) const
{
    if (!path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return false;
    const QByteArray line = csvHeaderLine(path);
    return line.startsWith("network,measured_ms") || line.startsWith("stage,name,") || line.startsWith("network,kernel,");
}

bool NnmeterView::openFile(const QString &path, QString *error, QStringList *warnings)
{
    if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return openMeasured(path, error);
    if (!m_panel->openPath(path, error, warnings))
        return false;
    showMessage(QString());
    flushPendingUpdate();
    return true;
}

QString NnmeterView::filePath() const
{
    return m_document->devicePath();
}

bool NnmeterView::isModified() const
{
    return false; // nothing to save: the rules and numbers live in sessions
}

QUndoStack *NnmeterView::undoStack() const
{
    return m_document->undoStack();
}

QJsonObject NnmeterView::sessionState() const
{
    QJsonObject state = m_document->sessionState();
    if (state.isEmpty())
        return state;
    state[QStringLiteral("view")] = QJsonObject{{QStringLiteral("selected_kernel"), m_selected},
                                                {QStringLiteral("bottom_tab"), m_bottomTabs->currentIndex()}};
    return state;
}

bool NnmeterView::restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    if (!m_document->restoreSession(state, sessionFile, error))
        return false;
    showMessage(QString());
    const QJsonObject view = state.value(QStringLiteral("view")).toObject();
    m_bottomTabs->setCurrentIndex(view.value(QStringLiteral("bottom_tab")).toInt(0));
    flushPendingUpdate();
    selectKernel(view.value(QStringLiteral("selected_kernel")).toInt(-1));
    return true;
}

bool NnmeterView::applyOverride(const QString &assignment, QString *error)
{
    return applyOverrideWith(m_document->device(), m_document->devicePath(), assignment, error, roofline::nnmeter::applyOverride,
                             [&](const Device &device) { m_document->setOverridden(device, assignment); });
}

QCustomPlot *NnmeterView::exportPlot() const
{
    return m_plot;
}

QString NnmeterView::exportTitle() const
{
    return tr("nn-Meter kernels: %1 on %2")
        .arg(QString::fromStdString(m_document->network().name), QString::fromStdString(m_document->device().name));
}

QString NnmeterView::summary() const
{
    if (!m_document->hasModel())
        return tr("nn-Meter: no network or device open");
    return tr("kernel sum %1 · %2 kernels · operator sum %3 · FLOPs estimate %4")
        .arg(msText(m_prediction.kernelSumMs))
        .arg(m_prediction.detection.kernels.size())
        .arg(msText(m_prediction.operatorSumMs), msText(m_prediction.flopsMs));
}

void NnmeterView::resetZoom()
{
    m_plot->xAxis->setRange(0.3, double(m_prediction.detection.kernels.size()) + 0.7);
    m_plot->replot();
}

QList<ModelView::BundlePlot> NnmeterView::bundlePlots()
{
    flushPendingUpdate();
    if (showsEmptyState())
        return {};
    updateSensitivity(true);
    updateMeasured(true);
    return {{QStringLiteral("nnmeter-kernels"), tr("Predicted latency per kernel, coloured by kernel type"), m_plot},
            {QStringLiteral("nnmeter-totals"), tr("Kernel sum, operator sum and FLOPs estimate"), m_totals},
            {QStringLiteral("nnmeter-sensitivity"), tr("Sensitivity of the kernel sum at ±%1%").arg(m_sensitivityStep * 100),
             m_sensitivity}};
}

QList<ModelView::BundleFile> NnmeterView::bundleFiles() const
{
    QList<BundleFile> files;
    if (!m_document->hasModel())
        return files;
    const network::Network &net = m_document->network();
    const Prediction &p = m_prediction;
    QString kernels = QStringLiteral("kernel,type,kind,operators,members,latency_ms,analytical_ms,source,bound,flops,bytes,hw,cin,cout\n");
    for (std::size_t i = 0; i < p.detection.kernels.size(); ++i) {
        const Kernel &k = p.detection.kernels[i];
        const KernelPrediction &kp = p.kernels[i];
        QStringList members;
        for (int layer : k.layers)
            members << QString::fromStdString(net.layers[std::size_t(layer)].name);
        kernels += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14\n")
                       .arg(i + 1)
                       .arg(QString::fromStdString(k.type), QString::fromStdString(k.kind))
                       .arg(k.layers.size())
                       .arg(csvText(members.join(QLatin1Char(' '))), number(kp.ms), number(kp.analyticalMs),
                            kp.source == Source::Learned ? QStringLiteral("learned") : QStringLiteral("analytical"),
                            kp.computeBound ? QStringLiteral("compute") : QStringLiteral("memory"), number(k.flops),
                            number(k.bytes))
                       .arg(k.hw)
                       .arg(k.cin)
                       .arg(k.cout);
    }
    files.append({QStringLiteral("nnmeter-kernels.csv"), tr("Every kernel: members, latency, bound"), kernels.toUtf8()});
    QString totals = QStringLiteral("quantity,ms\n");
    totals += QStringLiteral("kernel_sum,%1\noperator_sum,%2\nflops_estimate,%3\n")
                  .arg(number(p.kernelSumMs), number(p.operatorSumMs), number(p.flopsMs));
    files.append({QStringLiteral("nnmeter-totals.csv"), tr("Kernel sum, operator sum, FLOPs estimate"), totals.toUtf8()});
    QString tornado = QStringLiteral("parameter,pointer,low_value,high_value,kernel_sum_low_ms,kernel_sum_high_ms\n");
    for (const Sensitivity &r : sensitivity(net, m_document->device(), m_sensitivityStep))
        tornado += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                       .arg(csvText(QString::fromStdString(r.label)), QString::fromStdString(r.pointer), number(r.lowValue),
                            number(r.highValue), number(r.lowMs), number(r.highMs));
    files.append({QStringLiteral("nnmeter-sensitivity.csv"), tr("Sensitivity at ±%1%").arg(m_sensitivityStep * 100), tornado.toUtf8()});
    files.append({QStringLiteral("nnmeter-device.json"), tr("The device as evaluated (input)"),
                  QByteArray::fromStdString(serializeDevice(m_document->device()))});
    files.append({QStringLiteral("nnmeter-rules.json"), tr("The fusion rules in force (input)"),
                  QByteArray::fromStdString(serializeRules(m_document->rules()))});
    files.append({QStringLiteral("nnmeter-network.json"), tr("The network (input)"),
                  QByteArray::fromStdString(network::serialize(net))});
    QString table = QStringLiteral("snapshot,kernel_sum_ms,kernels,current_kernel_sum_ms,current_kernels,relative_change\n");
    for (const auto &snapshot : m_document->snapshots()) {
        if (!snapshot.state.network)
            continue;
        const Prediction s = predictNetwork(*snapshot.state.network, snapshot.state.device, snapshot.state.device.rules);
        table += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                     .arg(csvText(snapshot.name), number(s.kernelSumMs))
                     .arg(s.detection.kernels.size())
                     .arg(number(p.kernelSumMs))
                     .arg(p.detection.kernels.size())
                     .arg(number(s.kernelSumMs > 0 ? p.kernelSumMs / s.kernelSumMs - 1 : 0));
    }
    if (m_document->measured()) {
        QString measured = QStringLiteral("network,measured_ms,predicted_ms,relative_error,within_10_percent,network_file\n");
        for (const MeasuredRow &r : m_measuredRows)
            measured += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                            .arg(csvText(r.network), number(r.measuredMs), r.predictedMs >= 0 ? number(r.predictedMs) : QString(),
                                 r.predictedMs >= 0 ? number(r.predictedMs / r.measuredMs - 1) : QString(),
                                 r.predictedMs >= 0 ? (withinTenPercent(r.predictedMs, r.measuredMs) ? QStringLiteral("yes") : QStringLiteral("no")) : QString(),
                                 csvText(r.matchedFile));
        files.append({QStringLiteral("nnmeter-measured.csv"), tr("Predicted vs measured per network"), measured.toUtf8()});
    }
    if (std::any_of(m_kernelMeasured.begin(), m_kernelMeasured.end(), [](double ms) { return ms >= 0; })) {
        QString perKernel = QStringLiteral("kernel,type,first_layer,operators,measured_ms,predicted_ms,relative_error,within_10_percent\n");
        for (std::size_t k = 0; k < m_kernelMeasured.size() && k < p.kernels.size(); ++k) {
            if (m_kernelMeasured[k] < 0)
                continue;
            const Kernel &kernel = p.detection.kernels[k];
            const double m = m_kernelMeasured[k], pr = p.kernels[k].ms;
            perKernel += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                             .arg(k + 1)
                             .arg(csvText(QString::fromStdString(kernel.type)),
                                  csvText(QString::fromStdString(net.layers[std::size_t(kernel.layers.front())].name)))
                             .arg(kernel.layers.size())
                             .arg(number(m), number(pr), m > 0 ? number(pr / m - 1) : QString(),
                                  withinTenPercent(pr, m) ? QStringLiteral("yes") : QStringLiteral("no"));
        }
        files.append({QStringLiteral("nnmeter-kernels-measured.csv"), tr("Predicted vs measured per kernel of the network shown"),
                      perKernel.toUtf8()});
    }
    files.append({QStringLiteral("nnmeter-snapshots.csv"), tr("Snapshots compared with the current configuration"), table.toUtf8()});
    return files;
}

} // namespace studio
