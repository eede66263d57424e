#include "amaixview.h"
#include "readouthost.h"
#include "richreadoutlabel.h"

#include "amaix/goalseek.h"
#include "goalseekpanel.h"

#include "amaix/baseline.h"
#include "amaix/io.h"
#include "amaixdocument.h"
#include "diagnosticstext.h"
#include "emptystate.h"
#include "fasttextdelegate.h"
#include "networkimport.h"
#include "amaixpanel.h"
#include "amaixplot.h"
#include "amaixsweep.h"
#include "amaixtablemodel.h"
#include "resources.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "units.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include "plotexport.h"
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <thread>

namespace studio {

using namespace roofline;
using namespace roofline::amaix;

AmaixView::AmaixView(AmaixDocument *document, QWidget *parent)
    : ModelView(parent)
    , m_document(document)
{
    // Created in the order Tab should visit them: the plot's tabs, the sweep's
    // controls, the snapshot row, the table, the CSV button, then the panel.
    m_tabs = new QTabWidget(this);
    m_plot = new AmaixPlot(this);
    m_sweep = new AmaixSweepPanel(document, this);
    m_tabs->addTab(m_plot, tr("Roofline"));
    m_tabs->addTab(m_sweep, tr("Sweep"));
    m_sensitivity = new SensitivityChart(this);
    m_tabs->addTab(m_sensitivity, QString());
    m_goalSeek = new GoalSeekPanel(this);
    m_goalSeek->setTargets({{QStringLiteral("fps"), tr("Frame rate"), QStringLiteral("FPS"), 1},
                            {QStringLiteral("time"), tr("Time per inference"), QStringLiteral("ms"), 1e6}});
    m_goalSeek->setSeeker([this](const QString &key, double target, const QString &pointer) {
        return seekInference(m_document->network(), m_document->accelerator(), m_document->options(),
                             pointer.toStdString(), target,
                             key == QLatin1String("fps") ? InferenceTarget::Fps : InferenceTarget::TimeNs);
    });
    m_goalSeek->setApplier([this](const QString &pointer, double value, QString *error) {
        return applyOverride(pointer + QLatin1Char('=') + QString::number(value, 'g', 17), error);
    });
    m_tabs->addTab(m_goalSeek, tr("Goal seek"));
    setSensitivityStep(m_sensitivityStep); // names the tab

    m_snapshotBar = new SnapshotBar(this);
    m_comparisonLabel = new RichReadoutLabel(this); // new text on every step, never shorter (richreadoutlabel.h)
    m_comparisonLabel->setToolTip(tr("The current configuration against the compared snapshot: time per inference, "
                                     "FPS, the change in time, and how many timed layers are compute-bound"));
    m_comparisonLabel->hide();

    m_model = new AmaixTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AmaixTableModel::SortRole);
    m_proxy->setDynamicSortFilter(true);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(AmaixTableModel::Name, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setItemDelegate(new FastTextDelegate(m_table)); // every update rewrites the visible cells
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setDefaultSectionSize(86);
    m_table->setColumnWidth(AmaixTableModel::Name, 130);
    m_table->setColumnWidth(AmaixTableModel::Type, 110);

    m_totals = new RichReadoutLabel(this);
    m_totals->setSingleLine(true); // never grows the window (cut at the right on a very narrow one)
    m_totals->setAlignment(Qt::AlignLeft | Qt::AlignVCenter); // level with the CSV button's text
    m_totals->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color:#b00020"));
    m_message->hide();
    m_importNotice = new QLabel(this);
    m_importNotice->setObjectName(QStringLiteral("importNotice"));
    m_importNotice->setWordWrap(true);
    m_importNotice->setTextFormat(Qt::RichText);
    m_importNotice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_importNotice->setStyleSheet(QStringLiteral("QLabel{background:#fff4d6;color:#5c4400;padding:3px 6px;}"));
    m_importNotice->hide();
    m_saveNetworkAction = new QAction(tr("Save &Network As…"), this);
    m_saveNetworkAction->setToolTip(tr("Write the AMAIX view's network (imported ones too) in Roofline Studio's JSON"));
    connect(m_saveNetworkAction, &QAction::triggered, this, [this] {
        const QString base = QFileInfo(m_document->networkPath()).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(this, tr("Save network as"),
                                                          (base.isEmpty() ? QStringLiteral("network") : base)
                                                              + QStringLiteral(".json"),
                                                          tr("Roofline Studio networks (*.json)"));
        QString error;
        if (!path.isEmpty() && !saveNetworkAs(path, &error))
            QMessageBox::warning(this, tr("Save failed"), error);
    });
    // Short, so the totals beside it keep one line at 1280 px.
    m_csvButton = new QPushButton(tr("CSV…"), this);
    m_csvButton->setObjectName(QStringLiteral("exportTableCsv"));
    m_csvButton->setToolTip(tr("Export the table as CSV: one row per AMAIX stage (tiles and bias stages separate), "
                               "as roofline-cli writes it"));

    m_panel = new AmaixPanel(document, this);
    m_panelScroll = new QScrollArea(this);
    m_panelScroll->setWidget(m_panel);
    m_panelScroll->setWidgetResizable(true);
    m_panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_tabs);
    auto *bottom = new QWidget(left);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_importNotice);
    bottomLayout->addWidget(m_snapshotBar);
    bottomLayout->addWidget(new ReadoutHost(m_comparisonLabel)); // new text: no window relayout (readouthost.h)
    bottomLayout->addWidget(m_table, 1);
    auto *totalsRow = new QHBoxLayout;
    totalsRow->addWidget(new ReadoutHost(m_totals), 1);
    totalsRow->addWidget(m_csvButton);
    bottomLayout->addLayout(totalsRow);
    bottomLayout->addWidget(m_message);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setSizes({560, 330});

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_panelScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);

    // No network or no accelerator (a failed open at start-up): say what to do
    // next, draw nothing.
    m_empty = new EmptyState(tr("a network and an accelerator (AMAIX files; ONNX and Caffe networks too)"), this);
    {
        QStringList networks, accelerators;
        for (const QString &path : exampleFiles()) {
            QString ignored;
            (readFormatId(path, &ignored) == QLatin1String(kAcceleratorFormatId) ? accelerators : networks) << path;
        }
        m_empty->setExampleGroups({{tr("Networks"), networks}, {tr("Accelerators"), accelerators}});
    }
    connect(m_empty, &EmptyState::openRequested, this, &ModelView::openRequested);
    connect(m_empty, &EmptyState::openDialogRequested, this, &ModelView::openDialogRequested);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(split);
    m_stack->addWidget(m_empty);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_document, &AmaixDocument::filePathChanged, this, &ModelView::filePathChanged);
    connect(m_document, &AmaixDocument::modifiedChanged, this, &ModelView::modifiedChanged);
    connectSnapshotBar();
    connect(this, &AmaixView::updated, this, &ModelView::summaryChanged);
    connect(m_document, &AmaixDocument::valuesChanged, this, [this] { scheduleUpdate(false); });
    connect(m_document, &AmaixDocument::structureChanged, this, [this] {
        m_panel->readout()->resetHeight(); // another network or accelerator: the readout may need fewer lines
        scheduleUpdate(true);
    });
    connect(m_panel, &AmaixPanel::message, this, &AmaixView::showMessage);
    connect(m_panel, &AmaixPanel::coloringChanged, this,
            [this](int coloring) { m_plot->setColoring(MarkerColoring(coloring)); });
    connect(m_plot, &AmaixPlot::layerClicked, this, [this](int row) {
        if (row >= 0 && std::size_t(row) < m_layers.size())
            selectLayer(m_layers[std::size_t(row)].layer);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (m_selecting || !current.isValid())
            return;
        const int layer = m_proxy->data(current, AmaixTableModel::LayerRole).toInt();
        m_selectedLayer = layer;
        m_plot->setSelectedRow(m_model->rowOfLayer(layer));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_sweep)
            m_sweep->plot()->replot();
        if (m_tabs->currentWidget() == m_plot && m_plotStale) {
            m_plotStale = false;
            m_plot->replot();
        }
        updateSensitivity(); // the tornado is computed only while its tab is shown
    });
    connect(m_csvButton, &QPushButton::clicked, this, [this] {
        const QString base = QFileInfo(m_document->networkPath()).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(this, tr("Export layer table"),
                                                          (base.isEmpty() ? QStringLiteral("amaix") : base)
                                                              + QStringLiteral(".csv"),
                                                          tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            showMessage(error);
    });

    // Start with AlexNet on nv_full, as the paper does.
    QString error;
    m_document->loadAccelerator(QStringLiteral(":/examples/amaix/nv_full.json"), &error);
    m_document->loadNetwork(QStringLiteral(":/examples/amaix/alexnet.json"), &error);
    m_document->resetHistory(); // the start is not an undoable step
    m_structuralPending = true;
    m_pending = true;
    refresh();
    m_plot->resetView();
}

void AmaixView::scheduleUpdate(bool structural)
{
    m_structuralPending |= structural;
    if (m_pending)
        return; // one update per event-loop turn, however many edits arrive
    m_pending = true;
    QMetaObject::invokeMethod(this, &AmaixView::flushPendingUpdate, Qt::QueuedConnection);
}

void AmaixView::flushPendingUpdate()
{
    if (m_pending)
        refresh();
}

void AmaixView::showMessage(const QString &text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void AmaixView::refresh()
{
    m_pending = false;
    if (!m_document->hasModel()) {
        showEmptyState();
        return;
    }
    if (showsEmptyState()) {
        m_stack->setCurrentIndex(0);
        m_emptyNote.clear();
        m_structuralPending = true; // the panel and the sweep were not built for this model
        m_plotStale = true;
    }
    const bool structural = m_structuralPending;
    if (structural)
        m_network = m_document->network();
    m_accelerator = m_document->accelerator();
    const Network &net = m_network;
    const Accelerator &acc = m_accelerator;
    if (m_structuralPending) {
        m_structuralPending = false;
        m_panel->rebuild();
        m_panelScroll->setMinimumWidth(m_panel->sizeHint().width() + 24);
        {
            // The sweep's axes: each number's plain name with the unit it is swept in ("Clock (GHz)").
            const QStringList pointers = m_panel->sliderPointers();
            const std::vector<SettableParameter> infos = settableParameters(acc, activeDataType(net, acc, m_document->options()));
            QStringList axisLabels;
            for (const QString &pointer : pointers) {
                QString label = pointer;
                for (const SettableParameter &info : infos) {
                    if (QString::fromStdString(info.pointer) == pointer)
                        label = QStringLiteral("%1 (%2)").arg(QString::fromStdString(info.label),
                                                              QString::fromStdString(info.unit));
                }
                axisLabels << label;
            }
            m_sweep->setParameters(pointers, axisLabels, m_panel->sliderIntegers());
        }
        {
            // Goal seek varies the continuous numbers only (the clock, ops/cycle, bandwidths).
            QList<GoalSeekPanel::Parameter> parameters;
            const QStringList pointers = m_panel->sliderPointers(), labels = m_panel->sliderLabels();
            const std::vector<bool> integers = m_panel->sliderIntegers();
            for (qsizetype i = 0; i < pointers.size() && i < labels.size() && std::size_t(i) < integers.size(); ++i) {
                if (!integers[std::size_t(i)])
                    parameters.append({pointers[i], labels[i]});
            }
            m_goalSeek->setParameters(parameters);
        }
        updateImportNotice();
        // Measured times by layer index, once per structure.
        m_measuredNs.clear();
        m_measuredTotalNs = 0;
        if (m_document->measured()) {
            m_measuredNs.assign(net.layers.size(), std::nan(""));
            for (const MeasuredTime &m : *m_document->measured()) {
                const int layer = net.indexOf(m.layer);
                if (layer >= 0)
                    m_measuredNs[std::size_t(layer)] = m.timeNs;
                if (m.layer == "total")
                    m_measuredTotalNs = m.timeNs;
            }
        }
    } else {
        m_panel->refreshValues();
    }
    m_goalSeek->invalidate();

    bool fellBack = false; // the network's data type is not offered: the accelerator's default instead
    const Options options = m_document->evaluationOptions(&fellBack);
    evaluate(net, acc, options, m_result);
    summarizeLayers(net, m_result, m_layers);
    m_summaryTotals = summarizeTotals(m_layers, m_result);

    std::vector<double> baselineNs;
    double baselineTotalNs = 0;
    if (m_result.ok()) {
        BaselineOptions bo;
        bo.dataType = options.dataType;
        const BaselineResult baseline = evaluateBaseline(net, acc, bo);
        if (baseline.ok) {
            baselineNs = baseline.layerNs;
            baselineTotalNs = baseline.totalNs;
        }
    }
    updateComparison(); // before setModel: the plot draws the ghost with the model
    m_plot->setModel(&net, &acc, options, &m_result, &m_layers);
    {
        m_selecting = true;
        m_model->setModel(&net, &acc, &m_layers, m_result.totalNs, baselineNs, m_measuredNs, !structural);
        m_selecting = false;
    }
    if (structural && m_document->state().network.get() != m_columnsSizedFor) {
        m_columnsSizedFor = m_document->state().network.get();
        // Imported layers have long names ("/layer1/layer1.0/conv1/Conv"): the name and type
        // columns fit the widest, within bounds (the tooltip has the whole name).
        const QFontMetrics metrics(m_table->font());
        int name = 0, type = 0;
        for (const Layer &layer : net.layers) {
            name = std::max(name, metrics.horizontalAdvance(QString::fromStdString(layer.name)));
            if (layer.type == LayerType::Other)
                type = std::max(type, metrics.horizontalAdvance(QStringLiteral("\u26a0 other: ")
                                                                + QString::fromStdString(layer.op)));
        }
        m_table->setColumnWidth(AmaixTableModel::Name, std::clamp(name + 16, 130, 300));
        m_table->setColumnWidth(AmaixTableModel::Type, std::clamp(type + 16, 110, 220));
    }
    m_table->setColumnHidden(AmaixTableModel::Baseline, baselineNs.empty());
    m_table->setColumnHidden(AmaixTableModel::Measured, m_measuredNs.empty());
    if (structural)
        selectLayer(m_selectedLayer >= 0 && std::size_t(m_selectedLayer) < net.layers.size() ? m_selectedLayer : -1);
    else
        m_plot->setSelectedRow(m_model->rowOfLayer(m_selectedLayer));

    // Totals under the table and the panel's readout.
    const SummaryTotals &t = m_summaryTotals;
    QString totals;
    QString readout;
    if (m_result.ok()) {
        const TimeUnit unit = timeUnitFor(t.timeNs);
        // One line at any window width: the parts in readable units; the byte
        // breakdown and what the performance sheet leaves out in the tooltip.
        totals = tr("<b>Total</b>: %1 %2, %3 FPS · %4 · %5 · %6/%7 layers compute-bound")
                     .arg(formatValue(t.timeNs * unit.perNs), unit.name, formatValue(t.fps),
                          formatQuantity(t.ops, QStringLiteral("ops"), 3),
                          formatQuantity(t.dIfmap + t.dWeight + t.dOfmap, QStringLiteral("B"), 3))
                     .arg(t.computeBoundLayers)
                     .arg(t.timedLayers);
        QString totalsTip = tr("Time per inference and frame rate; operations; bytes moved: input feature maps %1, "
                               "weights %2, output feature maps %3; timed layers that are compute-bound.")
                                .arg(formatQuantity(t.dIfmap, QStringLiteral("B"), 3),
                                     formatQuantity(t.dWeight, QStringLiteral("B"), 3),
                                     formatQuantity(t.dOfmap, QStringLiteral("B"), 3));
        if (!baselineNs.empty()) {
            totals += tr(" · perf. sheet %1 %2")
                          .arg(formatValue(baselineTotalNs * unit.perNs), unit.name);
            totalsTip += QLatin1Char('\n')
                + tr("Performance sheet: NVDLA's estimate counts convolution and fully connected layers only, each as "
                     "the larger of its MAC and DRAM cycles; it leaves out tiling, bias stages, warm-up and the other "
                     "layers AMAIX charges, so it comes out lower than AMAIX and than a measurement.");
        }
        if (m_measuredTotalNs > 0)
            totals += tr(" · measured %1 %2").arg(formatValue(m_measuredTotalNs * unit.perNs), unit.name);
        m_totals->setToolTip(totalsTip);
        readout = tr("<span style='font-size:large'><b>%1 %2</b> per inference &nbsp; <b>%3 FPS</b></span><br>"
                     "Compute-bound: %4% of timed layers (%5% of the time)<br>%6 · %7 model%8%9")
                      .arg(formatValue(t.timeNs * unit.perNs), unit.name, formatValue(t.fps),
                           formatValue(100 * t.computeBoundShare(), 3),
                           formatValue(t.timeNs > 0 ? 100 * t.computeBoundNs / t.timeNs : 0, 3),
                           QString::fromStdString(m_result.dataType),
                           acc.scaling == ScalingModel::Nvdla ? QStringLiteral("nvdla") : QStringLiteral("general"),
                           m_document->options().refine ? tr(", divide and conquer") : QString())
                      .arg(fellBack ? QStringLiteral("<br>")
                                   + tr("The network's %1 is not offered by %2: its default %3 is used.")
                                         .arg(QString::fromStdString(net.dataType).toHtmlEscaped(),
                                              QString::fromStdString(acc.name).toHtmlEscaped(),
                                              QString::fromStdString(m_result.dataType).toHtmlEscaped())
                                    : QString());
    } else {
        m_totals->setToolTip(QString());
        totals = readout = tr("<span style='color:#b00020'><b>%1</b>: %2</span>")
                               .arg(QString::fromLatin1(statusName(m_result.status)),
                                    QString::fromStdString(m_result.error).toHtmlEscaped());
    }
    m_totals->setHtml(totals);
    m_panel->readout()->setHtml(readout);
    m_sweep->markCurrent();
    m_comparisonLabel->setPlainText(m_comparisonText);
    m_comparisonLabel->setVisible(!m_comparisonText.isEmpty());
    updateSensitivity();

    if (m_tabs->currentWidget() == m_plot)
        m_plot->replot();
    else
        m_plotStale = true; // drawn when its tab is shown again (exports draw it themselves)
    ++m_updateCount;
    emit updated();
}

void AmaixView::showEmptyState()
{
    // What is open already, so a user who opened one half sees what is missing.
    QStringList lines;
    if (!m_emptyNote.isEmpty())
        lines << m_emptyNote;
    const AmaixState &s = m_document->state();
    if (s.network && !s.network->layers.empty())
        lines << tr("Network open: %1 (%2). Open an accelerator to evaluate it on.")
                     .arg(QString::fromStdString(s.network->name), QFileInfo(s.networkPath).fileName());
    else if (!s.accelerator.units.empty())
        lines << tr("Accelerator open: %1 (%2). Open a network to evaluate on it.")
                     .arg(QString::fromStdString(s.accelerator.name), QFileInfo(s.acceleratorPath).fileName());
    m_empty->setNote(lines.join(QLatin1Char('\n')));
    m_stack->setCurrentWidget(m_empty);
    ++m_updateCount;
    emit updated();
}

bool AmaixView::showsEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

void AmaixView::setRecentFiles(const QStringList &paths)
{
    m_empty->setRecentFiles(paths);
}

bool AmaixView::clearStartupModel(const QString &note)
{
    // Only the start-up example (AlexNet on nv_full): no step, no snapshot.
    if (m_document->undoStack()->count() > 0 || !m_document->snapshots().empty() || m_document->isModified())
        return false;
    m_emptyNote = note;
    m_document->clear();
    flushPendingUpdate();
    return true;
}

void AmaixView::selectLayer(int layer)
{
    m_selectedLayer = layer;
    const int row = m_model->rowOfLayer(layer);
    m_plot->setSelectedRow(row);
    m_selecting = true;
    if (row < 0) {
        m_table->clearSelection();
    } else {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    }
    m_selecting = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString AmaixView::title() const
{
    return tr("AMAIX DNN accelerator");
}

QStringList AmaixView::formatIds() const
{
    return {QString::fromLatin1(kNetworkFormatId), QString::fromLatin1(kAcceleratorFormatId)};
}

QStringList AmaixView::textSuffixes() const
{
    // Measured times, and networks imported from ONNX and Caffe (networkimport.h).
    return {QStringLiteral("csv"), QStringLiteral("onnx"), QStringLiteral("prototxt"), QStringLiteral("pbtxt")};
}

QStringList AmaixView::exampleFiles() const
{
    return resources::exampleFiles(QStringLiteral("amaix"));
}

bool AmaixView::openFile(const QString &path, QString *error, QStringList *warnings)
{
    bool ok = false;
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
        ok = m_document->loadMeasured(path, error, warnings);
    } else if (network::isImportedNetworkFile(path.toStdString())) {
        ok = importNetwork(this, m_document, path, error, warnings);
    } else {
        const QString format = readFormatId(path, error);
        if (format == QLatin1String(kNetworkFormatId)) {
            ok = m_document->loadNetwork(path, error, warnings);
        } else if (format == QLatin1String(kAcceleratorFormatId)) {
            ok = m_document->loadAccelerator(path, error, warnings);
        } else if (!format.isEmpty() && error) {
            *error = tr("%1: /format: \"%2\" is not an AMAIX network or accelerator").arg(path, format);
        }
    }
    if (!ok)
        return false;
    showMessage(QString());
    flushPendingUpdate();
    m_plot->resetView();
    return true;
}

bool AmaixView::saveNetworkAs(const QString &path, QString *error) const
{
    Diagnostics diagnostics;
    if (network::saveNetworkFile(m_document->network(), path.toStdString(), diagnostics))
        return true;
    if (error)
        *error = errorsOf(diagnostics);
    return false;
}

void AmaixView::updateImportNotice()
{
    const std::string summary = network::unmodelledSummary(m_network);
    if (summary.empty()) {
        m_importNotice->hide();
        return;
    }
    // How AMAIX runs `other` layers: where the accelerator maps the type.
    const Mapping &mapping = m_accelerator.mapping[std::size_t(LayerType::Other)];
    QString treatment;
    if (!mapping.mapped)
        treatment = tr("%1 maps no unit to <code>other</code>, so the network does not evaluate on it; "
                       "an accelerator that maps <code>other</code> to a unit or to <code>\"host\"</code> "
                       "(e.g. generic_dla) runs it")
                        .arg(QString::fromStdString(m_accelerator.name).toHtmlEscaped());
    else if (mapping.onHost())
        treatment = tr("%1 runs them on the host: no time on the accelerator, no marker in the plot")
                        .arg(QString::fromStdString(m_accelerator.name).toHtmlEscaped());
    else
        treatment = tr("%1 runs them on %2 with one operation per output element, like any layer it maps")
                        .arg(QString::fromStdString(m_accelerator.name).toHtmlEscaped(),
                             QString::fromStdString(m_accelerator.units[std::size_t(mapping.unit)].name).toHtmlEscaped());
    m_importNotice->setText(tr("<b>%1</b> — imported as <code>other</code> layers (marked ⚠ in the table); %2.")
                                .arg(QString::fromStdString(summary).toHtmlEscaped(), treatment));
    m_importNotice->show();
}

QString AmaixView::filePath() const
{
    return m_document->acceleratorPath();
}

bool AmaixView::saveFile(const QString &path, QString *error)
{
    return m_document->saveAccelerator(path, error);
}

bool AmaixView::isModified() const
{
    return m_document->isModified();
}

QUndoStack *AmaixView::undoStack() const
{
    return m_document->undoStack();
}

void AmaixView::connectSnapshotBar()
{
    connect(m_snapshotBar, &SnapshotBar::pinRequested, m_document, [this] { m_document->pinSnapshot(); });
    connect(m_snapshotBar, &SnapshotBar::compareRequested, m_document, &AmaixDocument::setComparedSnapshot);
    connect(m_snapshotBar, &SnapshotBar::restoreRequested, m_document, &AmaixDocument::restoreSnapshot);
    connect(m_snapshotBar, &SnapshotBar::renameRequested, m_document, &AmaixDocument::renameSnapshot);
    connect(m_snapshotBar, &SnapshotBar::removeRequested, m_document, &AmaixDocument::removeSnapshot);
    auto sync = [this] {
        QStringList names;
        for (const AmaixDocument::Snapshot &snapshot : m_document->snapshots())
            names << snapshot.name;
        m_snapshotBar->setSnapshots(names, m_document->comparedSnapshot());
    };
    connect(m_document, &AmaixDocument::snapshotsChanged, this, sync);
    sync();
}

void AmaixView::updateComparison()
{
    const int compared = m_document->comparedSnapshot();
    if (compared != m_comparisonFor) {
        m_comparisonFor = compared;
        m_comparisonLabel->resetHeight(); // another snapshot: the comparison may be shorter
    }
    if (compared < 0) {
        m_plot->setGhost(nullptr, nullptr, Options{}, nullptr, nullptr, QString());
        m_comparisonText.clear();
        m_comparison = SnapshotComparison{};
        return;
    }
    const AmaixDocument::Snapshot &snapshot = m_document->snapshots()[std::size_t(compared)];
    const AmaixState &s = snapshot.state;
    static const Network none;
    const Network &net = s.network ? *s.network : none;
    const Options options = withOfferedDataType(net, s.accelerator, s.options);
    const Result baseline = evaluate(net, s.accelerator, options);
    const std::vector<LayerSummary> layers = summarizeLayers(net, baseline);
    m_plot->setGhost(&net, &s.accelerator, options, &baseline, &layers, snapshot.name);
    m_comparison = compareSnapshot(m_result, m_summaryTotals, baseline, summarizeTotals(layers, baseline));
    m_comparisonText = QString::fromStdString(summarize(m_comparison, snapshot.name.toStdString()));
}

void AmaixView::setSensitivityStep(double relativeStep)
{
    ModelView::setSensitivityStep(relativeStep);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    const int tab = m_tabs->indexOf(m_sensitivity);
    m_tabs->setTabText(tab, tr("Sensitivity \u00b1%1%").arg(pct));
    m_tabs->setTabToolTip(tab, tr("Which accelerator number matters: the time per inference when each one alone moves "
                                  "by \u00b1%1%, computed from the model").arg(pct));
    updateSensitivity();
}

void AmaixView::updateSensitivity(bool evenIfHidden)
{
    if ((!evenIfHidden && m_tabs->currentWidget() != m_sensitivity) || m_network.layers.empty() || m_accelerator.units.empty())
        return;
    // Both cores (up to four): the tornado is redrawn on every slider step
    // while it is shown, and its evaluations were most of the step's time.
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    m_sensitivityRows = sensitivity(m_network, m_accelerator, m_document->evaluationOptions(), m_sensitivityStep, threads);
    const TimeUnit unit = timeUnitFor(m_result.ok() ? m_result.totalNs : 0);
    std::vector<SensitivityChart::Row> rows;
    for (const Sensitivity &r : m_sensitivityRows) {
        QString label = QString::fromStdString(r.label);
        if (!r.lowFeasible || !r.highFeasible)
            label += tr(" (%1 not possible)").arg(!r.lowFeasible ? QStringLiteral("\u2212") : QStringLiteral("+"));
        rows.push_back({label, r.lowNs * unit.perNs, r.highNs * unit.perNs});
    }
    m_sensitivity->setRows(rows, m_result.ok() ? m_result.totalNs * unit.perNs : 0, m_sensitivityStep,
                           tr("Time per inference"), unit.name);
    if (!m_result.ok()) // nothing to move from: say why instead of "now 0 ns"
        m_sensitivity->xAxis->setLabel(tr("No sensitivity: the configuration does not evaluate (%1)")
                                           .arg(QString::fromStdString(m_result.error)));
    m_sensitivity->replot(QCustomPlot::rpQueuedReplot);
}

QJsonObject AmaixView::sessionState() const
{
    if (!m_document->hasModel())
        return {}; // nothing to restore: the view takes no part
    QJsonObject state = m_document->sessionState();
    QJsonObject view;
    view[QStringLiteral("zoom")] = m_plot->zoomState();
    view[QStringLiteral("tab")] = m_tabs->currentIndex();
    view[QStringLiteral("coloring")] = int(m_plot->coloring());
    view[QStringLiteral("selected_layer")] = QString::fromStdString(
        m_selectedLayer >= 0 && std::size_t(m_selectedLayer) < m_network.layers.size()
            ? m_network.layers[std::size_t(m_selectedLayer)].name
            : std::string());
    state[QStringLiteral("view")] = view;
    return state;
}

bool AmaixView::restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    if (!m_document->restoreSession(state, sessionFile, error))
        return false;
    // The view's own state is cosmetic: values that make no sense are ignored.
    const QJsonObject view = state.value(QStringLiteral("view")).toObject();
    const int coloring = view.value(QStringLiteral("coloring")).toInt(0);
    m_panel->coloringBox()->setCurrentIndex(coloring == 1 ? 1 : 0);
    m_selectedLayer = m_document->network().indexOf(view.value(QStringLiteral("selected_layer")).toString().toStdString());
    showMessage(QString());
    flushPendingUpdate();
    const int tab = view.value(QStringLiteral("tab")).toInt(0);
    m_tabs->setCurrentIndex(tab >= 0 && tab < m_tabs->count() ? tab : 0);
    m_plot->restoreZoom(view.value(QStringLiteral("zoom")));
    return true;
}

QList<ModelView::BundlePlot> AmaixView::bundlePlots()
{
    flushPendingUpdate();
    if (showsEmptyState())
        return {};
    updateSensitivity(true); // even when its tab is hidden
    return {{QStringLiteral("amaix-roofline"), tr("AMAIX per-layer roofline%1")
                                                   .arg(m_comparisonText.isEmpty() ? QString()
                                                                                   : tr(" with the compared snapshot faded")),
             m_plot},
            {QStringLiteral("amaix-sensitivity"),
             tr("Sensitivity of the time per inference to each accelerator number at \u00b1%1%").arg(m_sensitivityStep * 100),
             m_sensitivity}};
}

QList<ModelView::BundleFile> AmaixView::bundleFiles() const
{
    QList<BundleFile> files;
    if (!m_document->hasModel())
        return files;
    if (!m_result.ok())
        return files;
    auto number = [](double v) { return QString::number(v, 'g', 17); };
    auto quoted = [](QString text) { return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"'); };
    files.append({QStringLiteral("amaix-stages.csv"), tr("Every AMAIX stage of the current configuration (the table's data)"),
                  QByteArray::fromStdString(resultToCsv(m_network, m_accelerator, m_result))});

    QString tornado = QStringLiteral("parameter,pointer,value,low_value,high_value,low_time_ns,high_time_ns,"
                                     "low_feasible,high_feasible\n");
    for (const Sensitivity &r : sensitivity(m_network, m_accelerator, m_document->evaluationOptions(), m_sensitivityStep)) {
        tornado += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                       .arg(quoted(QString::fromStdString(r.label)), QString::fromStdString(r.pointer), number(r.value),
                            number(r.lowValue), number(r.highValue), number(r.lowNs), number(r.highNs),
                            r.lowFeasible ? QStringLiteral("1") : QStringLiteral("0"))
                       .arg(r.highFeasible ? QStringLiteral("1") : QStringLiteral("0"));
    }
    files.append({QStringLiteral("amaix-sensitivity.csv"),
                  tr("Time per inference with each accelerator number at \u00b1%1%").arg(m_sensitivityStep * 100),
                  tornado.toUtf8()});
    files.append({QStringLiteral("amaix-accelerator.json"), tr("The accelerator as evaluated (input)"),
                  QByteArray::fromStdString(serialize(m_accelerator))});
    if (const auto &text = m_document->state().networkText)
        files.append({QStringLiteral("amaix-network.json"), tr("The network (input)"), QByteArray::fromStdString(*text)});

    // Every snapshot against the current configuration.
    QString table = QStringLiteral("snapshot,time_ns,current_time_ns,change_ns,relative_change,fps,current_fps,"
                                   "compute_bound_layers,current_compute_bound_layers,timed_layers,current_timed_layers,"
                                   "status\n");
    int index = 0;
    for (const AmaixDocument::Snapshot &snapshot : m_document->snapshots()) {
        const AmaixState &s = snapshot.state;
        static const Network none;
        const Network &net = s.network ? *s.network : none;
        const Result baseline = evaluate(net, s.accelerator, withOfferedDataType(net, s.accelerator, s.options));
        const SnapshotComparison c = compareSnapshot(m_result, m_summaryTotals, baseline, summarizeTotals(summarizeLayers(net, baseline), baseline));
        table += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,")
                     .arg(quoted(snapshot.name), number(c.baselineNs), number(c.currentNs), number(c.changeNs),
                          number(c.relativeChange), number(c.baselineFps), number(c.currentFps))
                     .arg(c.baselineComputeBound)
                     .arg(c.currentComputeBound);
        table += QStringLiteral("%1,%2,%3\n")
                     .arg(c.baselineTimed)
                     .arg(c.currentTimed)
                     .arg(quoted(c.baselineOk ? QStringLiteral("ok") : QString::fromStdString(c.baselineError)));
        files.append({QStringLiteral("amaix-snapshot-%1-accelerator.json").arg(++index),
                      tr("Snapshot \u201c%1\u201d: its accelerator (input)").arg(snapshot.name),
                      QByteArray::fromStdString(serialize(s.accelerator))});
    }
    files.append({QStringLiteral("amaix-snapshots.csv"), tr("Snapshots compared with the current configuration"),
                  table.toUtf8()});
    return files;
}

bool AmaixView::applyOverride(const QString &assignment, QString *error)
{
    const AmaixState &state = m_document->state();
    return applyOverrideWith(state.accelerator, state.acceleratorPath, assignment, error, roofline::amaix::applyOverride,
                             [&](const roofline::amaix::Accelerator &accelerator) {
                                 m_document->setOverridden(accelerator, assignment);
                             });
}

QCustomPlot *AmaixView::exportPlot() const
{
    if (m_tabs->currentWidget() == m_sweep)
        return m_sweep->plot();
    if (m_tabs->currentWidget() == m_sensitivity)
        return m_sensitivity;
    return m_plot;
}

QString AmaixView::exportTitle() const
{
    return tr("AMAIX roofline: %1 on %2")
        .arg(QString::fromStdString(m_document->network().name), QString::fromStdString(m_document->accelerator().name));
}

QString AmaixView::summary() const
{
    if (!m_document->hasModel())
        return tr("AMAIX: no network and accelerator open");
    if (!m_result.ok())
        return QStringLiteral("%1: %2").arg(QString::fromLatin1(statusName(m_result.status)),
                                            QString::fromStdString(m_result.error));
    const TimeUnit unit = timeUnitFor(m_result.totalNs);
    return QStringLiteral("%1 on %2: %3 %4 per inference · %5 FPS · %6% of timed layers compute-bound")
        .arg(QString::fromStdString(m_document->network().name), QString::fromStdString(m_document->accelerator().name),
             formatValue(m_result.totalNs * unit.perNs), unit.name, formatValue(m_result.fps),
             formatValue(100 * m_summaryTotals.computeBoundShare(), 3));
}

void AmaixView::resetZoom()
{
    m_plot->resetView();
}

bool AmaixView::exportCsv(const QString &path, QString *error) const
{
    if (!m_result.ok()) {
        if (error)
            *error = tr("%1: nothing to export: %2").arg(path, QString::fromStdString(m_result.error));
        return false;
    }
    return saveFileAtomically(path, QByteArray::fromStdString(resultToCsv(m_network, m_accelerator, m_result)), error);
}


QString AmaixView::primer() const
{
    return tr(
        "<h3>AMAIX: a DNN, layer by layer, on an accelerator</h3>\n"
        "<p><b>What the plot shows.</b> Log-log axes: operational intensity (ops per byte) across, performance up.\n"
        "The accelerator's units each draw a roofline (compute peak, memory bandwidth); every layer (or pipe of\n"
        "layers that run together, e.g. convolution → bias → ReLU) is a marker at its intensity and the performance\n"
        "it attains. The table lists each layer's operations, bytes, time and bound; click a row to find its\n"
        "marker. The totals give the time per inference and the frame rate.</p>\n"
        "<p><b>The controls.</b> The clock, each unit's operations per cycle, each memory's bandwidth, and, for\n"
        "NVDLA, the MAC array (T<sub>k</sub>×T<sub>c</sub>), the convolution buffer and the bus width. <i>Sweep</i>\n"
        "plots the time over one or two parameters; <i>Sensitivity</i> shows which matters most; <i>Goal seek</i>\n"
        "finds the clock or bandwidth that reaches a frame rate or a time per inference.</p>\n"
        "<p><b>Where the equations come from.</b> The AMAIX model (a generic analytical model for deep-learning\n"
        "accelerators, NVDLA case study): per layer, performance = min(peak, intensity × bandwidth) and time =\n"
        "operations / performance (section 2); NVDLA's scaling factors, tiling and convolution modes (sections\n"
        "3.3–3.6). Details and the fidelity against the paper: docs/models/amaix.md.</p>\n");
}

} // namespace studio
