#include "brouwerview.h"
#include "readouthost.h"
#include "richreadoutlabel.h"

#include "brouwer/goalseek.h"
#include "brouwer/io.h"
#include "brouwer/sensitivity.h"
#include "common/jsonreader.h"
#include "network/import.h"
#include "network/io.h"
#include "brouwerdocument.h"
#include "brouwerfitpanel.h"
#include "brouwerformat.h"
#include "brouwerpanel.h"
#include "brouwerplots.h"
#include "brouwertables.h"
#include "cachedlabel.h"
#include "fasttextdelegate.h"
#include "goalseekpanel.h"
#include "networkfileimport.h"
#include "resources.h"
#include "sensitivitychart.h"
#include "plotexport.h"
#include "plotstyle.h"
#include "snapshotbar.h"
#include "units.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::brouwer;

namespace {

constexpr int kCurveSamples = 160;

QString bytesText(double bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

// --set for the Brouwer view: "/memory=256MB" (or /available_bytes) and "/bytes_per_element=2".
bool applyParamsOverride(Params &params, const std::string &assignment, Diagnostics &diagnostics)
{
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos) {
        diagnostics.error("", "--set needs POINTER=VALUE, got \"" + assignment + "\"");
        return false;
    }
    const std::string pointer = assignment.substr(0, eq), value = assignment.substr(eq + 1);
    if (pointer == "/memory" || pointer == "/available_bytes") {
        const auto bytes = parseMemorySize(value);
        if (!bytes || *bytes < BrouwerDocument::kMinMemory * 0.999 || *bytes > BrouwerDocument::kMaxMemory * 1.001) {
            diagnostics.error(pointer, "must be a size from 16 MiB to 16 GiB (256MB, 1.5GiB, 4G), got \"" + value + "\"");
            return false;
        }
        params.availableBytes = *bytes;
        return true;
    }
    if (pointer == "/bytes_per_element") {
        const auto v = parseFiniteNumber(value);
        if (!v || *v < BrouwerDocument::kMinBytesPerElement || *v > BrouwerDocument::kMaxBytesPerElement) {
            diagnostics.error(pointer, "must be a number from 0.125 to 64, got \"" + value + "\"");
            return false;
        }
        params.bytesPerElement = *v;
        return true;
    }
    diagnostics.error(pointer, "unknown parameter: the Brouwer view takes /memory and /bytes_per_element");
    return false;
}

// Our measured CSV or EdgeCaffe's: the first line that is not blank or a comment names the columns.
bool looksLikeMeasuredCsv(const QString &path)
{
    if (QFileInfo(path).suffix().toLower() != QLatin1String("csv"))
        return false;
    const QByteArray line = csvHeaderLine(path);
    return line.startsWith("networkName,layerId,layerName") || line.startsWith("network,layer,load_ns");
}

} // namespace

BrouwerView::BrouwerView(BrouwerDocument *document, QWidget *parent)
    : ModelView(parent)
    , m_document(document)
{
    m_tabs = new QTabWidget(this);
    m_layersTab = new QWidget(this);
    auto *plots = new QSplitter(Qt::Horizontal, m_layersTab);
    m_bars = new BrouwerBarsPlot(plots);
    m_curve = new BrouwerCurvePlot(plots);
    plots->addWidget(m_bars);
    plots->addWidget(m_curve);
    // Fixed minimums: a plot's own hint follows its legend and tick labels, and
    // must never make the window wider than the screen (1280 px and up).
    m_bars->setMinimumSize(260, 200);
    m_curve->setMinimumSize(240, 200);
    plots->setStretchFactor(0, 1);
    plots->setStretchFactor(1, 1);
    plots->setChildrenCollapsible(false);
    auto *layersLayout = new QVBoxLayout(m_layersTab);
    layersLayout->setContentsMargins(0, 0, 0, 0);
    layersLayout->addWidget(plots);
    m_tabs->addTab(m_layersTab, tr("Layers and memory"));
    m_scatter = new BrouwerScatterPlot(this);
    m_scatter->setMinimumSize(260, 200);
    m_tabs->addTab(m_scatter, tr("Predicted vs measured"));
    m_sensitivity = new SensitivityChart(this);
    m_tabs->addTab(m_sensitivity, QString());
    setSensitivityStep(m_sensitivityStep); // names the tab

    m_snapshotBar = new SnapshotBar(this);
    m_comparisonLabel = new RichReadoutLabel(this); // new text on every move, never shorter (richreadoutlabel.h)
    m_comparisonLabel->setToolTip(tr("The current configuration against the compared snapshot: total time and "
                                     "swapping layers"));
    m_comparisonLabel->hide();

    m_layerModel = new BrouwerLayerModel(this);
    m_layerProxy = new QSortFilterProxyModel(this);
    m_layerProxy->setSourceModel(m_layerModel);
    m_layerProxy->setSortRole(BrouwerLayerModel::SortRole);
    m_layerProxy->setDynamicSortFilter(true);
    m_layerTable = new QTableView(this);
    m_layerTable->setModel(m_layerProxy);
    m_layerTable->setSortingEnabled(true);
    m_layerTable->sortByColumn(BrouwerLayerModel::Name, Qt::AscendingOrder);
    m_layerTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_layerTable->setAlternatingRowColors(true);
    m_layerTable->setItemDelegate(new FastTextDelegate(m_layerTable));
    m_layerTable->verticalHeader()->setVisible(false);
    m_layerTable->verticalHeader()->setDefaultSectionSize(m_layerTable->fontMetrics().height() + 6);
    m_layerTable->horizontalHeader()->setDefaultSectionSize(96);
    m_layerTable->setColumnWidth(BrouwerLayerModel::Name, 150);
    m_layerTable->setColumnWidth(BrouwerLayerModel::Overflow, 150);
    m_coefficients = new QTableWidget(this);
    m_coefficients->verticalHeader()->setVisible(false);
    m_coefficients->setAlternatingRowColors(true);
    m_coefficients->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->addTab(m_layerTable, tr("Layers"));
    m_tableTabs->addTab(m_coefficients, tr("Coefficients"));
    // Goal seek: the least memory at which the total time reaches a target.
    m_goalSeek = new GoalSeekPanel(this);
    m_goalSeek->setTargets({{QStringLiteral("total"), tr("Total time"), QStringLiteral("ms"), 1}});
    m_goalSeek->setParameters({{QStringLiteral("/memory"), tr("Available memory")}});
    m_goalSeek->setSeeker([this](const QString &, double target, const QString &) {
        const BrouwerState &s = m_document->state();
        return seekMemory(*s.device, s.network->layers, s.params, target, s.smeared, BrouwerDocument::kMinMemory,
                          BrouwerDocument::kMaxMemory);
    });
    m_goalSeek->setApplier([this](const QString &pointer, double value, QString *error) {
        return applyOverride(pointer + QLatin1Char('=') + QString::number(value, 'f', 0), error);
    });
    m_tableTabs->addTab(m_goalSeek, tr("Goal seek"));

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color:#b00020"));
    m_message->hide();

    m_panel = new BrouwerPanel(document, this);
    auto *fitBox = new QGroupBox(tr("Fit a device on the measurements"), this);
    auto *fitLayout = new QVBoxLayout(fitBox);
    m_fit = new BrouwerFitPanel(document, fitBox);
    fitLayout->addWidget(m_fit);
    // The cross-validation table beside the layer table (wide enough for its six columns), enabled and
    // brought forward when a run completes.
    m_tableTabs->addTab(m_fit->cvTable(), tr("Cross-validation"));
    m_tableTabs->setTabEnabled(m_tableTabs->indexOf(m_fit->cvTable()), false);
    m_tableTabs->setTabToolTip(m_tableTabs->indexOf(m_fit->cvTable()),
                               tr("Leave-one-network-out cross-validation: run it with Cross-validate in the fit panel"));
    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_panel);
    sideLayout->addWidget(fitBox);
    sideLayout->addStretch(1);
    m_panelScroll = new QScrollArea(this);
    m_panelScroll->setWidget(side);
    m_panelScroll->setWidgetResizable(true);
    m_panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_panelScroll->setMinimumWidth(side->sizeHint().width() + 24);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_tabs);
    auto *bottom = new QWidget(left);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_snapshotBar);
    bottomLayout->addWidget(new ReadoutHost(m_comparisonLabel)); // new text: no window relayout (readouthost.h)
    bottomLayout->addWidget(m_tableTabs, 1);
    bottomLayout->addWidget(m_message);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setSizes({560, 300});
    left->setChildrenCollapsible(false);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_panelScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_document, &BrouwerDocument::filePathChanged, this, &ModelView::filePathChanged);
    connect(m_document, &BrouwerDocument::modifiedChanged, this, &ModelView::modifiedChanged);
    connect(this, &BrouwerView::updated, this, &ModelView::summaryChanged);
    connect(m_document, &BrouwerDocument::valuesChanged, this, [this] { scheduleUpdate(false); });
    connect(m_document, &BrouwerDocument::structureChanged, this, [this] { scheduleUpdate(true); });
    connect(m_document, &BrouwerDocument::snapshotsChanged, this, [this] {
        m_comparedFor = nullptr;
        scheduleUpdate(false);
    });
    connect(m_panel, &BrouwerPanel::message, this, &BrouwerView::showMessage);
    connect(m_panel, &BrouwerPanel::openNetworkRequested, this, &BrouwerView::openNetworkDialog);
    connect(m_panel, &BrouwerPanel::openDeviceRequested, this, &BrouwerView::openDeviceDialog);
    connect(m_panel, &BrouwerPanel::openMeasurementsRequested, this, &BrouwerView::openMeasurementsDialog);
    connect(m_fit, &BrouwerFitPanel::message, this, &BrouwerView::showMessage);
    connect(m_fit, &BrouwerFitPanel::saveRequested, this, &BrouwerView::saveDeviceDialog);
    connect(m_fit, &BrouwerFitPanel::crossValidated, this, [this](bool completed) {
        if (!completed)
            return; // cancelled: the tab keeps the last complete run, if any
        const int tab = m_tableTabs->indexOf(m_fit->cvTable());
        m_tableTabs->setTabEnabled(tab, true);
        m_tableTabs->setCurrentIndex(tab);
    });
    connect(m_curve, &BrouwerCurvePlot::memoryClicked, m_document, [this](double bytes) {
        m_document->setAvailableBytes(std::clamp(bytes, BrouwerDocument::kMinMemory, BrouwerDocument::kMaxMemory));
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { updateSensitivity(); });
    connectSnapshotBar();

    m_document->resetHistory();
    m_structuralPending = true;
    m_pending = true;
    refresh();
}

void BrouwerView::scheduleUpdate(bool structural)
{
    m_structuralPending |= structural;
    if (m_pending)
        return; // one update per event-loop turn, however many edits arrive
    m_pending = true;
    QMetaObject::invokeMethod(this, &BrouwerView::flushPendingUpdate, Qt::QueuedConnection);
}

void BrouwerView::flushPendingUpdate()
{
    if (m_pending)
        refresh();
}

void BrouwerView::showMessage(const QString &text)
{
    m_message->setStyleSheet(plotThemeDark() ? QStringLiteral("color:#ff8a80") : QStringLiteral("color:#b00020"));
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void BrouwerView::refreshStructure()
{
    const BrouwerState &s = m_document->state();
    m_networkHold = s.network;
    m_deviceHold = s.device;
    m_layers = &s.network->layers;
    m_device = s.device.get();
    m_seedShape = isSeedShapeDevice(s.devicePath);
    m_panel->resetReadoutHeight(); // another network, device or element size: the readouts may shrink
    m_comparisonLabel->resetHeight();
    const bool smeared = s.smeared;
    m_curveData = memoryCurve(*m_device, *m_layers, s.params.bytesPerElement, BrouwerDocument::kMinMemory,
                              BrouwerDocument::kMaxMemory, kCurveSamples);
    m_curve->setCurve(m_curveData, smeared,
                      tr("Total time against available memory"));
    fillCoefficientTable(m_coefficients, *m_device);
    m_fit->refresh();

    // Predicted against measured, for every observation the measurements give.
    std::vector<BrouwerScatterPlot::Point> points;
    m_metrics = Metrics{};
    m_observationCount = 0;
    QString metricsText;
    if (s.measured) {
        const Observations obs = m_document->observations();
        m_observationCount = int(obs.items.size());
        for (const Observation &o : obs.items) {
            const PartPrediction p = predictPart(*m_device, o.submodel, o.features, o.overflow);
            const bool load = o.submodel == Category::Load || o.submodel == Category::LoadP0;
            points.push_back({QStringLiteral("%1 %2 %3%4")
                                  .arg(QString::fromStdString(o.network), QString::fromStdString(o.layer),
                                       load ? tr("load") : tr("exec"),
                                       o.memoryBytes > 0 ? tr(" at %1").arg(bytesText(o.memoryBytes)) : QString()),
                              o.timeNs * 1e-6, smeared ? p.smearedMs : p.ms, load});
        }
        if (!obs.items.empty()) {
            m_metrics = evaluateMetrics(*m_device, obs.items);
            metricsText = tr("%1 observations (%2 rows)\nMAPE %3 % in log space (the seed's metric)\n"
                             "MAPE %4 % linear, %5 % smeared\nR² %6 in log space")
                              .arg(m_metrics.rows)
                              .arg(s.measured->rows.size())
                              .arg(formatValue(m_metrics.mapeLog, 3), formatValue(m_metrics.mapeLinear, 3),
                                   formatValue(m_metrics.mapeSmeared, 3), formatValue(m_metrics.r2Log, 3));
        } else {
            metricsText = tr("No measured row matches a layer of a known network\n(the shipped ones and those you opened).");
        }
    }
    m_scatter->setPoints(points, tr("Predicted against measured: %1").arg(QString::fromStdString(m_device->name)),
                         metricsText);
    if (s.measured && points.empty())
        m_scatter->metricsLabel()->setText(metricsText);
    m_scatter->replot(QCustomPlot::rpQueuedReplot);
    m_comparedFor = nullptr;
}

void BrouwerView::refresh()
{
    m_pending = false;
    const BrouwerState &s = m_document->state();
    if (!s.network || !s.device)
        return;
    if (m_structuralPending || s.network != m_networkHold || s.device != m_deviceHold) {
        m_structuralPending = false;
        refreshStructure();
    }
    m_panel->refresh();
    m_goalSeek->invalidate();
    m_result = roofline::brouwer::evaluate(*m_device, *m_layers, s.params);
    const bool smeared = s.smeared;
    updateComparison();
    const int compared = m_document->comparedSnapshot();
    const QString comparedName = compared >= 0 ? m_document->snapshots()[std::size_t(compared)].name : QString();
    m_bars->setResult(m_result, smeared,
                      tr("%1 at %2: %3 of %4 layers swap")
                          .arg(s.network->name, bytesText(s.params.availableBytes))
                          .arg(m_result.swappingLayers)
                          .arg(m_result.layers.size()),
                      compared >= 0 && !m_comparedResult.layers.empty() ? &m_comparedResult : nullptr, comparedName);
    m_curve->setCurrent(s.params.availableBytes, m_result.totalMs(smeared));
    m_layerModel->setResult(m_result, smeared);
    m_panel->setReadout(readoutHtml());
    m_comparisonLabel->setPlainText(m_comparisonText);
    m_comparisonLabel->setVisible(!m_comparisonText.isEmpty());
    m_bars->replot(QCustomPlot::rpQueuedReplot);
    m_curve->replotChanged(); // a memory move: the current point's layer only
    updateSensitivity();
    ++m_updateCount;
    emit updated();
}

QString BrouwerView::readoutHtml() const
{
    const BrouwerState &s = m_document->state();
    const bool smeared = s.smeared;
    const Result &r = m_result;
    const QString warn = plotThemeDark() ? QStringLiteral("#f0b050") : QStringLiteral("#8a5a00"); // readable on both
    QString html = tr("<span style='font-size:large'><b>%1</b> per inference</span><br>load %2 · execution %3<br>")
                       .arg(brouwerTimeText(r.totalMs(smeared)), brouwerTimeText(smeared ? r.smearedLoadMs : r.loadMs),
                            brouwerTimeText(smeared ? r.smearedExecMs : r.execMs));
    html += smeared ? tr("plain back-transform: %1").arg(brouwerTimeText(r.totalMs(false)))
                    : tr("smeared (Duan): %1").arg(brouwerTimeText(r.totalMs(true)));
    html += QStringLiteral("<br>");
    // The layer that overflows most, and the next knee above the current memory.
    const LayerPrediction *worst = nullptr;
    for (const LayerPrediction &l : r.layers) {
        if (l.swapping() && (!worst || l.overflow > worst->overflow))
            worst = &l;
    }
    if (worst)
        html += tr("<b>%1 of %2 layers swap</b>; largest overflow: %3, F = %4 elements (%5 short)<br>")
                    .arg(r.swappingLayers)
                    .arg(r.layers.size())
                    .arg(QString::fromStdString(worst->name).toHtmlEscaped(), QString::number(worst->overflow, 'f', 0),
                         bytesText(worst->overflow * s.params.bytesPerElement));
    else
        html += tr("No layer swaps: every layer fits in %1<br>").arg(bytesText(s.params.availableBytes));
    double largest = 0;
    for (const LayerPrediction &l : r.layers)
        largest = std::max(largest, l.requiredBytes);
    html += tr("the largest layer needs %1").arg(bytesText(largest));
    if (m_seedShape)
        html += tr("<br><span style='color:%1'><b>The seed's shape, not calibrated times:</b> Table 2 as printed; read "
                   "as log10 of ns with raw counts its LOAD and FC slopes over-predict large layers by orders of "
                   "magnitude (docs/models/brouwer.md). Our EdgeCaffe fit gives times.</span>")
                    .arg(warn);
    if (r.uncalibratedParts)
        html += tr("<br><span style='color:%2'>%1 parts are uncalibrated (hatched): the device has no data for "
                   "their regime</span>")
                    .arg(r.uncalibratedParts)
                    .arg(warn);
    return html;
}

void BrouwerView::updateComparison()
{
    const int compared = m_document->comparedSnapshot();
    if (compared < 0) {
        m_comparedIndex = -1;
        m_comparedResult = Result{};
        m_comparedCurve = Curve{};
        m_curve->setComparedCurve(nullptr, false, QString());
        m_comparisonText.clear();
        return;
    }
    const BrouwerDocument::Snapshot &snapshot = m_document->snapshots()[std::size_t(compared)];
    const BrouwerState &b = snapshot.state;
    const bool smeared = m_document->smeared();
    if (m_comparedIndex != compared || m_comparedFor != this) {
        m_comparisonLabel->resetHeight(); // another snapshot: the comparison may shrink
        m_comparedIndex = compared;
        m_comparedFor = this;
        m_comparedResult = roofline::brouwer::evaluate(*b.device, b.network->layers, b.params);
        m_comparedCurve = memoryCurve(*b.device, b.network->layers, b.params.bytesPerElement,
                                      BrouwerDocument::kMinMemory, BrouwerDocument::kMaxMemory, kCurveSamples);
        m_curve->setComparedCurve(&m_comparedCurve, smeared, snapshot.name);
    }
    const double now = m_result.totalMs(smeared), then = m_comparedResult.totalMs(smeared);
    const double change = then > 0 ? (now - then) / then * 100 : 0;
    m_comparisonText = tr("Total %1, %2% vs %3 (%4 at %5 on %6); %7 layers swap (%3: %8)")
                           .arg(brouwerTimeText(now), (change >= 0 ? QStringLiteral("+") : QString()) + formatValue(change, 3),
                                snapshot.name, brouwerTimeText(then), bytesText(b.params.availableBytes),
                                QString::fromStdString(b.device->name))
                           .arg(m_result.swappingLayers)
                           .arg(m_comparedResult.swappingLayers);
}

void BrouwerView::setSensitivityStep(double relativeStep)
{
    ModelView::setSensitivityStep(relativeStep);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    const int tab = m_tabs->indexOf(m_sensitivity);
    m_tabs->setTabText(tab, tr("Sensitivity \u00b1%1%").arg(pct));
    m_tabs->setTabToolTip(tab, tr("The total time when the available memory, the element size or one coefficient of the "
                                  "device alone moves by \u00b1%1%, computed from the model; the coefficients are in log "
                                  "space, so \u00b1%1% of an intercept a scales the times it enters by base^(\u00b1%1% of a)")
                                   .arg(pct));
    updateSensitivity();
}

void BrouwerView::updateSensitivity(bool evenIfHidden)
{
    if ((!evenIfHidden && m_tabs->currentWidget() != m_sensitivity) || !m_device || !m_layers)
        return;
    const BrouwerState &s = m_document->state();
    const bool smeared = s.smeared;
    auto total = [&](Params p) { return roofline::brouwer::evaluate(*m_device, *m_layers, p).totalMs(smeared); };
    std::vector<SensitivityChart::Row> rows;
    Params lo = s.params, hi = s.params;
    lo.availableBytes *= 1 - m_sensitivityStep;
    hi.availableBytes *= 1 + m_sensitivityStep;
    rows.push_back({tr("Available memory"), total(lo), total(hi)});
    lo = hi = s.params;
    lo.bytesPerElement *= 1 - m_sensitivityStep;
    hi.bytesPerElement *= 1 + m_sensitivityStep;
    rows.push_back({tr("Bytes per element"), total(lo), total(hi)});
    // Every coefficient of the device that moves the total here (the core, largest swing first).
    for (const CoefficientSensitivity &c : coefficientSensitivity(*m_device, *m_layers, s.params, m_sensitivityStep, smeared))
        rows.push_back({QString::fromStdString(c.label), c.lowMs, c.highMs});
    std::stable_sort(rows.begin(), rows.end(), [](const SensitivityChart::Row &a, const SensitivityChart::Row &b) {
        return std::abs(a.high - a.low) > std::abs(b.high - b.low);
    });
    // In the unit the readout speaks (µs, ms, s), not ms whatever the size.
    const double baseline = m_result.totalMs(smeared);
    const TimeUnit unit = timeUnitFor(std::max(baseline, 1e-12) * 1e6);
    const double perMs = unit.perNs * 1e6;
    m_sensitivityRows = rows;
    for (SensitivityChart::Row &r : rows) {
        r.low *= perMs;
        r.high *= perMs;
    }
    m_sensitivity->setRows(rows, baseline * perMs, m_sensitivityStep, tr("Total time"), unit.name);
    m_sensitivity->replot(QCustomPlot::rpQueuedReplot);
}

void BrouwerView::connectSnapshotBar()
{
    connect(m_snapshotBar, &SnapshotBar::pinRequested, m_document, [this] { m_document->pinSnapshot(); });
    connect(m_snapshotBar, &SnapshotBar::compareRequested, m_document, &BrouwerDocument::setComparedSnapshot);
    connect(m_snapshotBar, &SnapshotBar::restoreRequested, m_document, &BrouwerDocument::restoreSnapshot);
    connect(m_snapshotBar, &SnapshotBar::renameRequested, m_document, &BrouwerDocument::renameSnapshot);
    connect(m_snapshotBar, &SnapshotBar::removeRequested, m_document, &BrouwerDocument::removeSnapshot);
    auto sync = [this] {
        QStringList names;
        for (const BrouwerDocument::Snapshot &snapshot : m_document->snapshots())
            names << snapshot.name;
        m_snapshotBar->setSnapshots(names, m_document->comparedSnapshot());
    };
    connect(m_document, &BrouwerDocument::snapshotsChanged, this, sync);
    sync();
}

// --- Files -------------------------------------------------------------------

QString BrouwerView::title() const
{
    return tr("Brouwer");
}

QStringList BrouwerView::formatIds() const
{
    return {QString::fromLatin1(kDeviceFormatId)};
}

QStringList BrouwerView::exampleFiles() const
{
    return resources::exampleFiles(QStringLiteral("brouwer"));
}

bool BrouwerView::claimsFile(const QString &path) const
{
    return looksLikeMeasuredCsv(path);
}

bool BrouwerView::openFile(const QString &path, QString *error, QStringList *warnings)
{
    bool ok = false;
    if (QFileInfo(path).suffix().toLower() == QLatin1String("csv")) {
        ok = m_document->loadMeasurements({path}, error, warnings);
    } else if (roofline::network::isImportedNetworkFile(path.toStdString())) {
        ok = openNetwork(path, error, warnings);
    } else {
        QString formatError;
        const QString format = readFormatId(path, &formatError);
        if (format == QLatin1String(kDeviceFormatId))
            ok = m_document->loadDevice(path, error, warnings);
        else if (format == QLatin1String(roofline::network::kNetworkFormatId))
            ok = m_document->loadNetwork(path, error, warnings);
        else if (error)
            *error = format.isEmpty() ? formatError
                                      : tr("%1: /format: \"%2\" is not a brouwer device or a network").arg(path, format);
    }
    if (!ok)
        return false;
    showMessage(QString());
    flushPendingUpdate();
    return true;
}

bool BrouwerView::openNetwork(const QString &path, QString *error, QStringList *warnings)
{
    if (!roofline::network::isImportedNetworkFile(path.toStdString()))
        return m_document->loadNetwork(path, error, warnings); // our JSON
    // ONNX and Caffe through the shared importer: a worker thread, and the sizes of
    // symbolic inputs asked (or --input-shape); the session keeps the network as our JSON.
    roofline::network::Network net;
    InputShapes used;
    if (!importNetworkFile(this, path, {}, &net, &used, error, warnings))
        return false;
    return m_document->setImportedNetwork(std::move(net), path, error);
}

void BrouwerView::openNetworkDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open network"), QString(),
                                                      tr("Networks (*.prototxt *.pbtxt *.onnx *.json);;All files (*)"));
    QString error;
    QStringList warnings;
    if (path.isEmpty())
        return;
    if (!openNetwork(path, &error, &warnings))
        showMessage(error);
    else
        showMessage(warnings.join(QLatin1Char('\n')));
}

void BrouwerView::openDeviceDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open device"), QString(),
                                                      tr("Brouwer devices (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !m_document->loadDevice(path, &error))
        showMessage(error);
    else if (!path.isEmpty())
        showMessage(QString());
}

void BrouwerView::openMeasurementsDialog()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open measured per-layer times"), QString(),
                                                            tr("Measurements (*.csv);;All files (*)"));
    QString error;
    QStringList warnings;
    if (paths.isEmpty())
        return;
    if (!m_document->loadMeasurements(paths, &error, &warnings))
        showMessage(error);
    else
        showMessage(warnings.size() > 3 ? warnings.mid(0, 3).join(QLatin1Char('\n')) + tr("\n… and %1 more warnings").arg(warnings.size() - 3)
                                        : warnings.join(QLatin1Char('\n')));
}

void BrouwerView::saveDeviceDialog()
{
    const QString suggested = m_document->devicePath().startsWith(QLatin1Char(':')) || m_document->devicePath().isEmpty()
        ? QStringLiteral("device.json")
        : m_document->devicePath();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save device as"), suggested,
                                                      tr("Brouwer devices (*.json)"));
    QString error;
    if (!path.isEmpty() && !saveFile(path, &error))
        QMessageBox::warning(this, tr("Save failed"), error);
}

QString BrouwerView::filePath() const
{
    return m_document->devicePath();
}

bool BrouwerView::saveFile(const QString &path, QString *error)
{
    return m_document->saveDevice(path, error);
}

bool BrouwerView::isModified() const
{
    return m_document->isModified();
}

QUndoStack *BrouwerView::undoStack() const
{
    return m_document->undoStack();
}

bool BrouwerView::exportCsv(const QString &path, QString *error) const
{
    return saveFileAtomically(path, QByteArray::fromStdString(resultToCsv(m_result)), error);
}

// --- Sessions, bundles, export -------------------------------------------------

QJsonObject BrouwerView::sessionState() const
{
    QJsonObject state = m_document->sessionState();
    state[QStringLiteral("view")] = QJsonObject{{QStringLiteral("tab"), m_tabs->currentIndex()},
                                                {QStringLiteral("table_tab"), m_tableTabs->currentIndex()}};
    return state;
}

bool BrouwerView::restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    if (!m_document->restoreSession(state, sessionFile, error))
        return false;
    const QJsonObject view = state.value(QStringLiteral("view")).toObject(); // cosmetic: nonsense is ignored
    const int tab = view.value(QStringLiteral("tab")).toInt(0);
    m_tabs->setCurrentIndex(tab >= 0 && tab < m_tabs->count() ? tab : 0);
    const int tableTab = view.value(QStringLiteral("table_tab")).toInt(0);
    m_tableTabs->setCurrentIndex(tableTab >= 0 && tableTab < m_tableTabs->count() ? tableTab : 0);
    showMessage(QString());
    flushPendingUpdate();
    return true;
}

QList<ModelView::BundlePlot> BrouwerView::bundlePlots()
{
    flushPendingUpdate();
    updateSensitivity(true);
    QList<BundlePlot> plots{
        {QStringLiteral("brouwer-layers"), tr("Brouwer: per-layer loading and execution time by regime"), m_bars},
        {QStringLiteral("brouwer-memory"), tr("Brouwer: total time against available memory, knees and the current point"),
         m_curve},
        {QStringLiteral("brouwer-sensitivity"),
         tr("Sensitivity of the total time to the memory, the element size and the device's coefficients at \u00b1%1%").arg(m_sensitivityStep * 100),
         m_sensitivity}};
    if (m_document->measured())
        plots.append({QStringLiteral("brouwer-measured"), tr("Brouwer: predicted against measured per-layer times"), m_scatter});
    return plots;
}

QList<ModelView::BundleFile> BrouwerView::bundleFiles() const
{
    QList<BundleFile> files;
    if (!m_device || !m_layers)
        return files;
    auto number = [](double v) { return QString::number(v, 'g', 17); };
    auto quoted = [](QString text) { return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"'); };
    files.append({QStringLiteral("brouwer-layers.csv"), tr("Every layer at the current memory (the table's data)"),
                  QByteArray::fromStdString(resultToCsv(m_result))});
    QString curve = QStringLiteral("available_bytes,total_ms,total_smeared_ms\n");
    for (const CurvePoint &p : m_curveData.points)
        curve += QStringLiteral("%1,%2,%3\n").arg(number(p.bytes), number(p.totalMs), number(p.smearedMs));
    files.append({QStringLiteral("brouwer-memory.csv"), tr("Total time against available memory (the curve's data)"), curve.toUtf8()});
    QString knees = QStringLiteral("bytes,layer\n");
    for (const Knee &k : m_curveData.knees)
        knees += QStringLiteral("%1,%2\n").arg(number(k.bytes), quoted(QString::fromStdString(k.layer)));
    files.append({QStringLiteral("brouwer-knees.csv"), tr("Where each layer starts to swap"), knees.toUtf8()});
    files.append({QStringLiteral("brouwer-device.json"), tr("The device (input)"), QByteArray::fromStdString(serialize(*m_device))});
    const BrouwerState &s = m_document->state();
    files.append({QStringLiteral("brouwer-network.json"), tr("The network (input, our JSON)"),
                  QByteArray::fromStdString(roofline::network::serialize(s.network->network))});
    if (s.measured) {
        QString points = QStringLiteral("observation,measured_ms,predicted_ms,load\n");
        for (const BrouwerScatterPlot::Point &p : m_scatter->points())
            points += QStringLiteral("%1,%2,%3,%4\n").arg(quoted(p.label), number(p.measuredMs), number(p.predictedMs),
                                                          p.load ? QStringLiteral("1") : QStringLiteral("0"));
        files.append({QStringLiteral("brouwer-measured.csv"), tr("Predicted against measured (the scatter's data)"), points.toUtf8()});
    }
    QString table = QStringLiteral("snapshot,network,device,available_bytes,bytes_per_element,total_ms,current_total_ms,"
                                   "swapping_layers,current_swapping_layers\n");
    for (const BrouwerDocument::Snapshot &snapshot : m_document->snapshots()) {
        const BrouwerState &b = snapshot.state;
        const Result r = roofline::brouwer::evaluate(*b.device, b.network->layers, b.params);
        table += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                     .arg(quoted(snapshot.name), quoted(b.network->name), quoted(QString::fromStdString(b.device->name)),
                          number(b.params.availableBytes), number(b.params.bytesPerElement), number(r.totalMs(s.smeared)),
                          number(m_result.totalMs(s.smeared)))
                     .arg(r.swappingLayers)
                     .arg(m_result.swappingLayers);
    }
    files.append({QStringLiteral("brouwer-snapshots.csv"), tr("Snapshots compared with the current configuration"), table.toUtf8()});
    return files;
}

bool BrouwerView::applyOverride(const QString &assignment, QString *error)
{
    return applyOverrideWith(m_document->params(), m_document->devicePath(), assignment, error, applyParamsOverride,
                             [&](const Params &params) { m_document->setParams(params, tr("Set %1").arg(assignment)); });
}

QCustomPlot *BrouwerView::exportPlot() const
{
    if (m_tabs->currentWidget() == m_scatter)
        return m_scatter;
    if (m_tabs->currentWidget() == m_sensitivity)
        return m_sensitivity;
    return m_bars;
}

QString BrouwerView::exportTitle() const
{
    const BrouwerState &s = m_document->state();
    return tr("Brouwer: %1 on %2 at %3")
        .arg(s.network ? s.network->name : QString(), s.device ? QString::fromStdString(s.device->name) : QString(),
             bytesText(s.params.availableBytes));
}

QString BrouwerView::summary() const
{
    const BrouwerState &s = m_document->state();
    if (!s.network || !s.device)
        return {};
    return tr("%1 on %2 at %3: %4 per inference · %5 of %6 layers swap")
        .arg(s.network->name, QString::fromStdString(s.device->name), bytesText(s.params.availableBytes),
             brouwerTimeText(m_result.totalMs(s.smeared)))
        .arg(m_result.swappingLayers)
        .arg(m_result.layers.size());
}

QString BrouwerView::primer() const
{
    return tr(
        "<h3>Brouwer: inference time under a memory limit</h3>\n"
        "<p><b>What the plot shows.</b> Left: every layer of the network in execution order, its loading time\n"
        "(light) and execution time (dark) stacked, blue when the layer fits in the available memory (standard\n"
        "regime) and orange when it does not (swapping regime); hatched parts use a regime the device is not\n"
        "calibrated for. Right: the network's total time against the available memory (log-log), a circle at each\n"
        "knee (below it one more layer swaps) and the current memory in red. <i>Predicted vs measured</i> compares\n"
        "the device with measured per-layer times (MAPE, R²).</p>\n"
        "<p><b>The controls.</b> The network and the device (calibrated coefficients), the available memory\n"
        "(16 MiB – 16 GiB, logarithmic; type 256MB for an exact value), the bytes per element, the smeared\n"
        "back-transform, measured times (EdgeCaffe's CSV or ours), and a fit panel that fits a device on them in\n"
        "the background. <i>Goal seek</i> finds the least memory that reaches a total time.</p>\n"
        "<p><b>Where the equations come from.</b> H. Brouwer, <i>Modeling Inference Time of Deep Neural Networks on\n"
        "Memory-constrained Systems</i> (seed 002): required memory = (inputs + parameters + outputs) × bytes per\n"
        "element and overflow F = what does not fit (§3.1); per category and regime log t = a + b·log x (+ c·log F)\n"
        "(§3.2, Table 2) or a LASSO over products of the basic features (§3.3), fitted in log space (§4.3).\n"
        "Details and how our EdgeCaffe fit compares with the seed: docs/models/brouwer.md.</p>\n");
}

void BrouwerView::resetZoom()
{
    m_structuralPending = true;
    m_pending = true;
    refresh();
}

} // namespace studio
