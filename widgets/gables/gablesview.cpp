#include "gablesview.h"

#include "gables/comparison.h"
#include "gables/goalseek.h"
#include "emptystate.h"
#include "goalseekpanel.h"
#include "lazyreplot.h"
#include "gables/io.h"
#include "gables/sensitivity.h"
#include "gablesdocument.h"
#include "resources.h"
#include "gablesparampanel.h"
#include "gablesplot.h"
#include "sensitivitychart.h"
#include "readouthost.h"
#include "richreadoutlabel.h"
#include "snapshotbar.h"
#include "termschart.h"
#include "units.h"

#include <QComboBox>
#include <QJsonArray>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace studio {

using namespace roofline::gables;

GablesView::GablesView(GablesDocument *document, QWidget *parent)
    : ModelView(parent)
    , m_document(document)
{
    m_plot = new GablesPlot(this);
    m_terms = new TermsChart(this);
    m_termsReplot = new LazyReplot(m_terms); // not while the sensitivity or goal-seek tab hides it
    // Laid out once per new text, not again in its paint as a rich-text QLabel is (4.5 M
    // instructions of a 64-IP step); copied from its context menu, not selected by mouse.
    m_readout = new RichReadoutLabel(this);
    m_readout->setPadding(4);
    m_readout->setAlignment(Qt::AlignLeft | Qt::AlignVCenter); // as the QLabel it was: a short text mid-box
    // A fixed height: new numbers repaint the label but never relayout the window.
    m_readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_readout->setFixedHeight(m_readout->fontMetrics().lineSpacing() * 5 + 12);

    m_panel = new GablesParamPanel(document, this);
    m_panelScroll = new QScrollArea(this);
    m_panelScroll->setWidget(m_panel);
    m_panelScroll->setWidgetResizable(true);
    m_panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_panelScroll->setMinimumWidth(m_panel->sizeHint().width() + 24);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_plot);
    auto *bottom = new QWidget(left);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    m_snapshotBar = makeSnapshotBar();
    bottomLayout->addWidget(m_snapshotBar);
    bottomLayout->addWidget(new ReadoutHost(m_readout)); // new text: no window relayout
    m_sensitivity = new SensitivityChart(this);
    m_bottomTabs = new QTabWidget(bottom);
    m_bottomTabs->addTab(m_terms, tr("Time terms"));
    m_bottomTabs->addTab(m_sensitivity, QString());
    m_goalSeek = new GoalSeekPanel(this);
    m_goalSeek->setTargets({{QStringLiteral("patt"), tr("Attainable performance"), QStringLiteral("Gops/s"), 1}});
    m_goalSeek->setSeeker([this](const QString &, double target, const QString &pointer) {
        return seekAttainable(m_document->soc(), pointer.toStdString(), target);
    });
    m_goalSeek->setApplier([this](const QString &pointer, double value, QString *error) {
        return applyOverride(pointer + QLatin1Char('=') + QString::number(value, 'g', 17), error);
    });
    m_bottomTabs->addTab(m_goalSeek, tr("Goal seek"));
    setSensitivityStep(m_sensitivityStep); // names the tab
    bottomLayout->addWidget(m_bottomTabs, 1);
    // The tornado costs a few model evaluations per parameter: only while it is shown.
    connect(m_bottomTabs, &QTabWidget::currentChanged, this, [this] { updateSensitivity(); });
    m_terms->setMinimumHeight(150);
    left->addWidget(bottom);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    left->setSizes({560, 320});

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_panelScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);

    // No model (nothing opened, or a failed open): say what to do next, draw nothing.
    m_empty = new EmptyState(tr("an SoC model (a Gables file)"), this);
    m_empty->setExamples(exampleFiles());
    connect(m_empty, &EmptyState::openRequested, this, &ModelView::openRequested);
    connect(m_empty, &EmptyState::openDialogRequested, this, &ModelView::openDialogRequested);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(split);
    m_stack->addWidget(m_empty);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_document, &GablesDocument::modifiedChanged, this, &ModelView::modifiedChanged);
    connect(m_document, &GablesDocument::filePathChanged, this, &ModelView::filePathChanged);
    connect(this, &GablesView::updated, this, &ModelView::summaryChanged);
    connect(m_document, &GablesDocument::valuesChanged, this, [this] { scheduleUpdate(false); });
    connect(m_document, &GablesDocument::structureChanged, this, [this] { scheduleUpdate(true); });
    connect(m_plot, &GablesPlot::rangesSettled, this, [this] {
        m_refitPending = true;
        scheduleUpdate(false);
    });
    connect(m_panel, &GablesParamPanel::message, this, [this](const QString &text) {
        m_readout->setHtml(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(text.toHtmlEscaped()));
    });

    m_structuralPending = true;
    m_pending = true;
    refresh();
}

QLabel *GablesView::readout() const
{
    return m_readout;
}

void GablesView::scheduleUpdate(bool structural)
{
    m_structuralPending |= structural;
    if (m_pending)
        return; // one update per event-loop turn, however many edits arrive
    m_pending = true;
    QMetaObject::invokeMethod(this, &GablesView::flushPendingUpdate, Qt::QueuedConnection);
}

void GablesView::flushPendingUpdate()
{
    if (m_pending)
        refresh();
}

void GablesView::refresh()
{
    m_pending = false;
    const Soc &soc = m_document->soc();
    m_stack->setCurrentWidget(soc.ips.empty() ? static_cast<QWidget *>(m_empty) : m_stack->widget(0));
    if (soc.ips.empty())
        return;
    m_empty->setNote(QString());
    // A value edit is a live one (a slider step, a typed value): the plot's axes hold still
    // through a run of them. A new model or new IPs, and the refit after a run, fit them.
    const GablesPlot::Ranges ranges =
        m_structuralPending || m_refitPending ? GablesPlot::Ranges::Fit : GablesPlot::Ranges::Hold;
    m_refitPending = false;
    if (m_structuralPending) {
        m_structuralPending = false;
        m_panel->rebuild();
        m_panelScroll->setMinimumWidth(m_panel->sizeHint().width() + 24);
        // Tab runs left to right, top to bottom: the snapshot row, the tabs
        // below the plot, then the parameter panel from top to bottom.
        setFocusChain(m_snapshotBar->focusChain() + QList<QWidget *>{ m_bottomTabs->tabBar() }
                      + focusableDescendants(m_panel));
    } else {
        m_panel->refreshValues();
    }
    updateGoalSeekParameters();
    m_goalSeek->invalidate();
    m_result = evaluate(soc);
    m_plot->setModel(soc, m_result, ranges);
    const int compared = m_document->comparedSnapshot();
    std::optional<Comparison> comparison;
    if (compared >= 0) {
        const auto &snapshot = m_document->snapshots()[std::size_t(compared)];
        const Result baseline = evaluate(snapshot.soc);
        m_plot->setGhost(&snapshot.soc, &baseline, snapshot.name);
        comparison = compare(soc, m_result, snapshot.soc, baseline);
        m_comparisonText = QString::fromStdString(summarize(*comparison, snapshot.name.toStdString()));
        // The core's line is shared with the CLI, which writes "P_att"; the
        // studio writes the symbol with its subscript, as everywhere else.
        if (m_comparisonText.startsWith(QLatin1String("P_att ")))
            m_comparisonText.replace(0, 5, QStringLiteral("Pₐₜₜ"));
    } else {
        m_plot->setGhost(nullptr, nullptr, QString());
        m_comparisonText.clear();
    }
    m_terms->setModel(soc, m_result);

    QString terms;
    // Rounded as the plot's label rounds it (formatQuantity's four digits).
    terms += QStringLiteral("<b>P<sub>att</sub> = %1</b> &nbsp; bound: <b>%2</b><br>")
                 .arg(formatQuantity(m_result.attainableGops, QStringLiteral("Gops/s")),
                      QString::fromStdString(describe(m_result.bound, soc)).toHtmlEscaped());
    const Headroom headroom = roofline::gables::headroom(soc, m_result);
    if (headroom.available && headroom.factor > 1) {
        // "1.51× more Bpeak before IP[1] GPU link limits (at 2 Gops/s)"
        terms.chop(4); // the <br>
        terms += QStringLiteral(" &nbsp; headroom: %1× more %2 before %3 limits (at %4)<br>")
                     .arg(formatValue(headroom.factor, 3), QString::fromStdString(headroom.label).toHtmlEscaped(),
                          QString::fromStdString(describe(headroom.next, soc)).toHtmlEscaped(),
                          formatQuantity(headroom.nextGops, QStringLiteral("Gops/s")));
    }
    const TimeUnit unit = timeUnitFor(m_result.timeNs);
    terms += QStringLiteral("I<sub>avg</sub> = %1 ops/byte &nbsp; T = 1/P<sub>att</sub> = %2 %5/op &nbsp; "
                            "T<sub>mem</sub> = %3 %5/op (%4 bytes/op at %6)")
                 .arg(formatValue(m_result.averageIntensity), formatValue(m_result.timeNs * unit.perNs),
                      formatValue(m_result.memoryNs * unit.perNs), formatValue(m_result.memoryDataBytes), unit.name,
                      formatQuantity(soc.bpeakGBps, QStringLiteral("GB/s")));
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
        terms += QStringLiteral("<br>T<sub>msm</sub> = %1 %2/op").arg(formatValue(m_result.msmNs * unit.perNs), unit.name);
    for (std::size_t j = 0; j < soc.buses.size(); ++j) {
        terms += QStringLiteral("%1T<sub>bus %2</sub> = %3 %4/op")
                     .arg(j == 0 && !(soc.memorySideMemory && soc.msmBandwidthGBps > 0) ? QStringLiteral("<br>")
                                                                                         : QStringLiteral(" &nbsp; "),
                          QString::fromStdString(soc.buses[j].name).toHtmlEscaped(),
                          formatValue(m_result.busNs[j] * unit.perNs), unit.name);
    }
    if (!m_comparisonText.isEmpty())
        terms += QStringLiteral("<br><i>%1</i>").arg(m_comparisonText.toHtmlEscaped());
    if (soc.serialized)
        terms += QStringLiteral("<br>Serialized: the IPs run one after another, T = Σ max(C<sub>i</sub>, "
                                "D<sub>i</sub>/B<sub>i</sub>, m<sub>i</sub>D<sub>i</sub>/B<sub>peak</sub>)");
    m_readout->setHtml(terms);

    updateSensitivity();
    m_plot->replotChanged();
    m_termsReplot->replot();
    ++m_updateCount;
    emit updated();
}

bool GablesView::showsEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

bool GablesView::clearStartupModel(const QString &note)
{
    // The studio opens no Gables example when files are named on the command
    // line: the view is empty unless one of them opened here.
    if (!m_document->soc().ips.empty())
        return false;
    m_empty->setNote(note);
    return true;
}

void GablesView::setRecentFiles(const QStringList &paths)
{
    m_empty->setRecentFiles(paths);
}

void GablesView::updateGoalSeekParameters()
{
    const Soc &soc = m_document->soc();
    // What the list depends on: the extensions, the buses' and the active IPs' names. Most
    // steps change none of them, and building the list (four translated, formatted names
    // per IP) cost 0.7 M instructions per step at 64 IPs.
    std::string key{char('0' + (soc.memorySideMemory ? 1 : 0) + (soc.msmBandwidthGBps > 0 ? 2 : 0))};
    for (const Bus &bus : soc.buses)
        key.append(bus.name).push_back('\0');
    key.push_back('\1');
    for (const Ip &ip : soc.ips) {
        if (ip.isActive())
            key.append(ip.name).push_back('\0');
    }
    if (key == m_goalSeekKey)
        return;
    m_goalSeekKey = std::move(key);
    ++m_goalSeekListBuilds;
    QList<GoalSeekPanel::Parameter> parameters{
        {QStringLiteral("/soc/ppeak_gops"), tr("Ppeak: IP[0] peak (Gops/s)")},
        {QStringLiteral("/soc/bpeak_gbps"), tr("Bpeak: DRAM bandwidth (GB/s)")}};
    if (soc.memorySideMemory && soc.msmBandwidthGBps > 0)
        parameters.append({QStringLiteral("/soc/memory_side_memory/bandwidth_gbps"),
                           tr("B_msm: memory-side memory bandwidth (GB/s)")});
    for (const Bus &bus : soc.buses) {
        const QString name = QString::fromStdString(bus.name);
        parameters.append({QStringLiteral("/soc/buses/%1/bandwidth_gbps").arg(name), tr("Bus %1 bandwidth (GB/s)").arg(name)});
    }
    for (const Ip &ip : soc.ips) {
        if (!ip.isActive())
            continue;
        const QString name = QString::fromStdString(ip.name);
        parameters.append({QStringLiteral("/soc/ips/%1/acceleration").arg(name), tr("%1 acceleration A").arg(name)});
        parameters.append({QStringLiteral("/soc/ips/%1/bandwidth_gbps").arg(name), tr("%1 link bandwidth B (GB/s)").arg(name)});
        parameters.append({QStringLiteral("/use_case/work/%1/intensity_ops_per_byte").arg(name),
                           tr("%1 intensity I (ops/byte)").arg(name)});
        if (soc.memorySideMemory)
            parameters.append({QStringLiteral("/use_case/work/%1/miss_ratio").arg(name), tr("%1 miss ratio m").arg(name)});
    }
    QStringList pointers;
    for (const GoalSeekPanel::Parameter &p : parameters)
        pointers << p.pointer + p.label;
    if (pointers != m_goalSeekPointers) { // the list changes with the IPs and extensions only
        m_goalSeekPointers = pointers;
        m_goalSeek->setParameters(parameters);
    }
}

SnapshotBar *GablesView::makeSnapshotBar()
{
    auto *bar = new SnapshotBar(this);
    connect(bar, &SnapshotBar::pinRequested, m_document, [this] { m_document->pinSnapshot(); });
    connect(bar, &SnapshotBar::compareRequested, m_document, &GablesDocument::setComparedSnapshot);
    connect(bar, &SnapshotBar::restoreRequested, m_document, &GablesDocument::restoreSnapshot);
    connect(bar, &SnapshotBar::removeRequested, m_document, &GablesDocument::removeSnapshot);
    connect(bar, &SnapshotBar::renameRequested, m_document, &GablesDocument::renameSnapshot);
    auto sync = [this, bar] {
        QStringList names;
        for (const auto &snapshot : m_document->snapshots())
            names << snapshot.name;
        bar->setSnapshots(names, m_document->comparedSnapshot());
    };
    connect(m_document, &GablesDocument::snapshotsChanged, this, sync);
    sync();
    return bar;
}

void GablesView::setSensitivityStep(double relativeStep)
{
    ModelView::setSensitivityStep(relativeStep);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    const int tab = m_bottomTabs->indexOf(m_sensitivity);
    m_bottomTabs->setTabText(tab, tr("Sensitivity ±%1%").arg(pct));
    m_bottomTabs->setTabToolTip(tab, tr("Which knob matters: P_att when each parameter alone moves by ±%1%, "
                                        "computed from the model.").arg(pct));
    updateSensitivity();
}

void GablesView::updateSensitivity()
{
    if (m_bottomTabs->currentWidget() != m_sensitivity || m_document->soc().ips.empty())
        return;
    showSensitivity();
    m_sensitivity->replot();
}

void GablesView::showSensitivity()
{
    // On the GUI thread alone: since the probes evaluate P_att without building a Result,
    // 64 IPs take 0.4 ms, and a second thread no longer paid for itself. With both cores
    // busy (load 2.6) it cost more: median 0.46 against 0.38-0.44 ms, p99 3-4 ms against
    // 0.5 ms, the GUI waiting for the helper to get a core (docs/performance.md, issue 15).
    m_sensitivityRows = sensitivity(m_document->soc(), m_sensitivityStep, 1);
    std::vector<SensitivityChart::Row> rows;
    for (const Sensitivity &s : m_sensitivityRows)
        rows.push_back({QString::fromStdString(s.label), s.lowGops, s.highGops});
    m_sensitivity->setRows(rows, m_result.attainableGops, m_sensitivityStep, QStringLiteral("Pₐₜₜ"),
                           QStringLiteral("Gops/s"));
}

QString GablesView::title() const
{
    return tr("Gables SoC roofline");
}

QStringList GablesView::formatIds() const
{
    return {QString::fromLatin1(kFormatId)};
}

QStringList GablesView::exampleFiles() const
{
    return resources::exampleFiles(QStringLiteral("gables"));
}

bool GablesView::openFile(const QString &path, QString *error, QStringList *warnings)
{
    if (!m_document->load(path, error, warnings))
        return false;
    flushPendingUpdate();
    m_plot->resetView();
    return true;
}

bool GablesView::saveFile(const QString &path, QString *error)
{
    return m_document->save(path, error);
}

QString GablesView::filePath() const
{
    return m_document->filePath();
}

bool GablesView::isModified() const
{
    return m_document->isModified();
}

bool GablesView::applyOverride(const QString &assignment, QString *error)
{
    const QString path = m_document->filePath();
    return applyOverrideWith(m_document->soc(), path, assignment, error, roofline::gables::applyOverride,
                             [&](const Soc &soc) { m_document->setSoc(soc, path); });
}

QList<ModelView::BundlePlot> GablesView::bundlePlots()
{
    flushPendingUpdate();
    showSensitivity(); // even when its tab is hidden
    return {{QStringLiteral("gables-roofline"), tr("Gables multi-roofline plot"), m_plot},
            {QStringLiteral("gables-terms"), tr("Time terms per IP and shared resource"), m_terms},
            {QStringLiteral("gables-sensitivity"), tr("Sensitivity of Pₐₜₜ to each parameter at ±%1%").arg(m_sensitivityStep * 100), m_sensitivity}};
}

QList<ModelView::BundleFile> GablesView::bundleFiles() const
{
    const Soc &soc = m_document->soc();
    auto number = [](double v) { return QString::number(v, 'g', 17); };
    QList<BundleFile> files;

    // The curves exactly as plotted: every roof's polyline and the selected points.
    const PlotGeometry &g = m_plot->geometry();
    QString curves = QStringLiteral("curve,intensity_ops_per_byte,performance_gops\n");
    auto roofName = [&](const Roof &roof) {
        switch (roof.kind) {
        case RoofKind::Ip: return QString::fromStdString(soc.ips[std::size_t(roof.ip)].name) + QStringLiteral(" roof");
        case RoofKind::Memory: return QStringLiteral("memory roof");
        case RoofKind::MemorySideMemory: return QStringLiteral("memory-side memory roof");
        case RoofKind::Bus: return QStringLiteral("bus ") + QString::fromStdString(soc.buses[std::size_t(roof.bus)].name) + QStringLiteral(" roof");
        }
        return QString();
    };
    std::vector<Roof> roofs = g.ipRoofs;
    roofs.push_back(g.memoryRoof);
    roofs.insert(roofs.end(), g.extraRoofs.begin(), g.extraRoofs.end());
    for (const Roof &roof : roofs) {
        for (const Point &p : roof.points)
            curves += QStringLiteral("%1,%2,%3\n").arg(roofName(roof), number(p.x), number(p.y));
    }
    curves += QStringLiteral("attainable point,%1,%2\n").arg(number(g.attainable.x), number(g.attainable.y));
    files.append({QStringLiteral("gables-roofline.csv"), tr("The roofline plot's curves and attainable point"), curves.toUtf8()});

    QString terms = QStringLiteral("ip,fraction,intensity_ops_per_byte,compute_ns_per_op,link_ns_per_op,time_ns_per_op\n");
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        const IpTerms &t = m_result.ips[i];
        terms += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                     .arg(QString::fromStdString(soc.ips[i].name), number(soc.ips[i].fraction), number(soc.ips[i].intensity),
                          number(t.computeNs), number(t.linkNs), number(t.timeNs));
    }
    terms += QStringLiteral("memory,,,,,%1\n").arg(number(m_result.memoryNs));
    files.append({QStringLiteral("gables-terms.csv"), tr("Time terms (ns per op of use-case work)"), terms.toUtf8()});

    QString tornado = QStringLiteral("parameter,pointer,low_value,high_value,p_att_low_gops,p_att_high_gops\n");
    for (const Sensitivity &r : sensitivity(soc, m_sensitivityStep)) {
        tornado += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                       .arg(QString::fromStdString(r.label), QString::fromStdString(r.pointer), number(r.lowValue),
                            number(r.highValue), number(r.lowGops), number(r.highGops));
    }
    files.append({QStringLiteral("gables-sensitivity.csv"), tr("Sensitivity at ±%1%").arg(m_sensitivityStep * 100), tornado.toUtf8()});

    files.append({QStringLiteral("gables-model.json"), tr("The model as evaluated (input)"),
                  QByteArray::fromStdString(serialize(soc))});

    // The snapshots against the current configuration.
    QString table = QStringLiteral("snapshot,p_att_gops,current_p_att_gops,change_gops,relative_change,bound,current_bound\n");
    int index = 0;
    for (const auto &snapshot : m_document->snapshots()) {
        const Result baseline = evaluate(snapshot.soc);
        const Comparison c = compare(soc, m_result, snapshot.soc, baseline);
        table += QStringLiteral("\"%1\",%2,%3,%4,%5,\"%6\",\"%7\"\n")
                     .arg(snapshot.name, number(c.baselineGops), number(c.currentGops), number(c.changeGops),
                          number(c.relativeChange), QString::fromStdString(c.baselineBound),
                          QString::fromStdString(c.currentBound));
        files.append({QStringLiteral("gables-snapshot-%1.json").arg(++index), tr("Snapshot \"%1\" (input)").arg(snapshot.name),
                      QByteArray::fromStdString(serialize(snapshot.soc))});
    }
    files.append({QStringLiteral("gables-snapshots.csv"), tr("Snapshots compared with the current configuration"),
                  table.toUtf8()});
    return files;
}

QJsonObject GablesView::sessionState() const
{
    if (m_document->soc().ips.empty())
        return {}; // nothing open
    QJsonObject state = m_document->sessionState();
    QJsonObject view;
    view[QStringLiteral("auto_range")] = m_plot->isAutoRange();
    view[QStringLiteral("x")] = QJsonArray{m_plot->xAxis->range().lower, m_plot->xAxis->range().upper};
    view[QStringLiteral("y")] = QJsonArray{m_plot->yAxis->range().lower, m_plot->yAxis->range().upper};
    view[QStringLiteral("bottom_tab")] = m_bottomTabs->currentIndex();
    state[QStringLiteral("view")] = view;
    return state;
}

bool GablesView::restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    if (!m_document->restoreSession(state, sessionFile, error))
        return false;
    flushPendingUpdate();
    const QJsonObject view = state.value(QStringLiteral("view")).toObject();
    m_bottomTabs->setCurrentIndex(view.value(QStringLiteral("bottom_tab")).toInt(0));
    const QJsonArray x = view.value(QStringLiteral("x")).toArray();
    const QJsonArray y = view.value(QStringLiteral("y")).toArray();
    auto valid = [](const QJsonArray &r) {
        return r.size() == 2 && r[0].toDouble() > 0 && r[1].toDouble() > r[0].toDouble() && std::isfinite(r[1].toDouble());
    };
    if (!view.value(QStringLiteral("auto_range")).toBool(true) && valid(x) && valid(y)) {
        m_plot->xAxis->setRange(x[0].toDouble(), x[1].toDouble()); // marks the range as the user's
        m_plot->yAxis->setRange(y[0].toDouble(), y[1].toDouble());
    } else {
        m_plot->resetView();
    }
    m_plot->replot();
    return true;
}

QUndoStack *GablesView::undoStack() const
{
    return m_document->undoStack();
}

QCustomPlot *GablesView::exportPlot() const
{
    return m_plot;
}

QString GablesView::exportTitle() const
{
    return tr("Gables roofline: %1").arg(QString::fromStdString(m_document->soc().name));
}

void GablesView::resetZoom()
{
    m_plot->resetView();
}

QString GablesView::summary() const
{
    return QStringLiteral("Pₐₜₜ = %1 · bound: %2 · average I = %3 ops/byte")
        .arg(formatQuantity(m_result.attainableGops, QStringLiteral("Gops/s")),
             QString::fromStdString(describe(m_result.bound, m_document->soc())), formatValue(m_result.averageIntensity));
}


QString GablesView::primer() const
{
    return tr(
        "<h3>Gables: the roofline of a whole SoC</h3>\n"
        "<p><b>What the plot shows.</b> Log-log axes: operational intensity (ops per byte moved off chip) across,\n"
        "performance (Gops/s) up. Each IP that has work draws its own roofline, scaled by 1/f<sub>i</sub>: the\n"
        "slanted part is its link B<sub>i</sub>·I, the flat part its peak A<sub>i</sub>·P<sub>peak</sub>. The\n"
        "slanted black line is DRAM, B<sub>peak</sub>·I. A vertical line at each IP's intensity I<sub>i</sub>\n"
        "(and one at the average I<sub>avg</sub> for DRAM) ends where it meets its roof; the lowest of those points\n"
        "is the attainable performance P<sub>att</sub>, and its roof names the bound.</p>\n"
        "<p><b>The controls.</b> P<sub>peak</sub>: the peak of IP[0], the reference. B<sub>peak</sub>: DRAM\n"
        "bandwidth. Per IP: work f (its share of the work; the other IPs rebalance so the shares sum to 1),\n"
        "intensity I, acceleration A (its peak is A·P<sub>peak</sub>) and link bandwidth B. Sliders are\n"
        "logarithmic and span two decades around the value; Shift+drag is ten times finer; the spin box takes an\n"
        "exact number. The readout gives P<sub>att</sub>, the bound and the headroom to the next bound; the\n"
        "<i>Time terms</i> tab shows which term is longest; <i>Sensitivity</i> shows which parameter matters;\n"
        "<i>Goal seek</i> finds the value of one parameter that reaches a P<sub>att</sub>.</p>\n"
        "<p><b>Where the equations come from.</b> Hill &amp; Reddi, <i>Gables: A Roofline Model for Mobile\n"
        "SoCs</i>, HPCA 2019, section III: T<sub>i</sub> = max(D<sub>i</sub>/B<sub>i</sub>, C<sub>i</sub>),\n"
        "T<sub>mem</sub> = ΣD<sub>i</sub>/B<sub>peak</sub>, P<sub>att</sub> = 1/max(T<sub>i</sub>,\n"
        "T<sub>mem</sub>). The checks against the paper's Fig. 6 and the extensions beyond it (system cache, buses,\n"
        "serial work: our formulation) are in docs/models/gables.md.</p>\n");
}

} // namespace studio
