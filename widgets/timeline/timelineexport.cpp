// The timeline view as the main window sees it (ModelView): files, --set,
// sessions, the review bundle, and the Chrome Trace export. The view itself
// (controls, background simulation, readout) is timelineview.cpp.
#include "timelineview.h"

#include "resources.h"
#include "sensitivitychart.h"
#include "fasttextdelegate.h"
#include "snapshotbar.h"
#include "timelinedocument.h"
#include "timelinepanel.h"
#include "timelinetablemodel.h"
#include "units.h"
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
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace studio {

using namespace roofline::verrocchio;

namespace {

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QString();
}

QString csvText(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString pipeOrNone(const std::optional<Pipe> &pipe)
{
    return pipe ? QString::fromLatin1(pipeName(*pipe)) : QString();
}

} // namespace

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

QUndoStack *TimelineView::undoStack() const
{
    return m_document->undoStack();
}

bool TimelineView::applyOverride(const QString &assignment, QString *error)
{
    const QString path = m_document->machinePath();
    return applyOverrideWith(m_document->machine(), path, assignment, error, roofline::verrocchio::applyOverride,
                             [&](const Machine &machine) { m_document->setMachine(machine, path); }); // a step, unsaved
}

QJsonObject TimelineView::sessionState() const
{
    if (!m_document->hasTrace())
        return {}; // nothing to restore: the view takes no part
    QJsonObject state = m_document->sessionState();
    const QCPRange r = m_plot->xAxis->range();
    const double total = m_data.result ? m_data.result->totalNs : 0;
    QJsonObject view;
    view[QStringLiteral("critical_path")] = m_criticalPath->isChecked();
    view[QStringLiteral("arrows")] = m_arrows->isChecked();
    view[QStringLiteral("hide_empty_lanes")] = m_hideEmptyLanes->isChecked();
    view[QStringLiteral("panel_hidden")] = m_panelToggle->isChecked();
    view[QStringLiteral("bottom_tab")] = m_bottomTabs->currentIndex();
    view[QStringLiteral("whole")] = r.lower <= 0 && r.upper >= total;
    view[QStringLiteral("range_ns")] = QJsonArray { r.lower, r.upper };
    state[QStringLiteral("view")] = view;
    return state;
}

bool TimelineView::restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    // The view's part is checked first too, so a bad session changes nothing.
    const QJsonValue viewValue = state.value(QStringLiteral("view"));
    auto fail = [&](const QString &pointer, const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: /views/timeline/view%2: %3").arg(sessionFile, pointer, reason);
        return false;
    };
    if (!viewValue.isUndefined() && !viewValue.isObject())
        return fail(QString(), QStringLiteral("expected an object"));
    const QJsonObject view = viewValue.toObject();
    for (const char *key : { "critical_path", "arrows", "whole", "hide_empty_lanes", "panel_hidden" }) {
        const QJsonValue v = view.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isBool())
            return fail(QStringLiteral("/") + QLatin1String(key), QStringLiteral("expected true or false"));
    }
    const QJsonValue tab = view.value(QStringLiteral("bottom_tab"));
    if (!tab.isUndefined() && (!tab.isDouble() || tab.toDouble() != std::floor(tab.toDouble())
                                  || tab.toDouble() < 0 || tab.toDouble() >= m_bottomTabs->count()))
        return fail(QStringLiteral("/bottom_tab"), QStringLiteral("expected 0 (instructions) or 1 (sensitivity)"));
    const QJsonArray range = view.value(QStringLiteral("range_ns")).toArray();
    const bool rangeValid = range.size() == 2 && range[0].isDouble() && range[1].isDouble()
        && std::isfinite(range[0].toDouble()) && std::isfinite(range[1].toDouble())
        && range[1].toDouble() > range[0].toDouble();
    if (view.contains(QStringLiteral("range_ns")) && !rangeValid)
        return fail(QStringLiteral("/range_ns"), QStringLiteral("expected [start, end] in ns with start < end"));

    if (!m_document->restoreSession(state, sessionFile, error))
        return false;
    m_criticalPath->setChecked(view.value(QStringLiteral("critical_path")).toBool(true));
    m_arrows->setChecked(view.value(QStringLiteral("arrows")).toBool(false));
    m_hideEmptyLanes->setChecked(view.value(QStringLiteral("hide_empty_lanes")).toBool(false));
    m_panelToggle->setChecked(view.value(QStringLiteral("panel_hidden")).toBool(false));
    m_bottomTabs->setCurrentIndex(tab.toInt(0));
    flushPendingUpdate();
    if (!view.value(QStringLiteral("whole")).toBool(true) && rangeValid)
        m_plot->setTimeRange(range[0].toDouble(), range[1].toDouble());
    else
        m_plot->resetView();
    m_plot->replot();
    return true;
}

QList<ModelView::BundlePlot> TimelineView::bundlePlots()
{
    flushPendingUpdate();
    if (showsEmptyState())
        return {};
    computeSensitivityNow(); // even when its tab is hidden: an export may simulate on the GUI thread
    return { { QStringLiteral("verrocchio-timeline"), title(), m_plot },
        { QStringLiteral("timeline-sensitivity"),
            tr("Sensitivity of the total time to each machine parameter at ±%1%").arg(m_sensitivityStep * 100),
            m_sensitivity } };
}

QList<ModelView::BundleFile> TimelineView::bundleFiles() const
{
    QList<BundleFile> files;
    if (!m_document->hasTrace())
        return files;
    const Trace &trace = m_document->trace();
    const Machine &machine = m_document->machine();
    const Result current = m_data.result && m_data.machine == machine && m_data.trace.get() == &trace
        ? *m_data.result
        : simulate(trace, machine);

    QString tornado = QStringLiteral("parameter,pointer,unit,value,low_value,high_value,total_low_ns,total_high_ns\n");
    const auto rows = m_sensitivityGeneration == m_shownGeneration && m_sensitivityStepShown == m_sensitivityStep
        ? m_sensitivityRows
        : sensitivity(trace, machine, m_sensitivityStep);
    for (const Sensitivity &s : rows) {
        tornado += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                       .arg(csvText(QString::fromStdString(s.label)), QString::fromStdString(s.pointer),
                           QString::fromStdString(s.unit), csvNumber(s.value), csvNumber(s.lowValue),
                           csvNumber(s.highValue), csvNumber(s.lowNs), csvNumber(s.highNs));
    }
    files.append({ QStringLiteral("timeline-sensitivity.csv"),
        tr("Total time when each machine parameter moves by ±%1%").arg(m_sensitivityStep * 100), tornado.toUtf8() });
    files.append({ QStringLiteral("timeline-machine.json"), tr("The machine as simulated (input)"),
        QByteArray::fromStdString(serialize(machine)) });

    QString table = QStringLiteral("snapshot,total_ns,current_total_ns,change_ns,relative_change,critical_pipe,"
                                   "critical_busy,current_critical_pipe,current_critical_busy,contention_ns,"
                                   "current_contention_ns\n");
    int index = 0;
    for (const auto &snapshot : m_document->snapshots()) {
        const auto cached = m_ghosts.find(snapshot.id);
        const Result baseline = cached != m_ghosts.end()
            ? *cached->second.result
            : simulate(snapshot.state.trace ? snapshot.state.trace->trace : Trace(), snapshot.state.machine);
        const Comparison c = compare(current, baseline);
        table += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11\n")
                     .arg(csvText(snapshot.name), csvNumber(c.baseline.totalNs), csvNumber(c.current.totalNs),
                         csvNumber(c.changeNs), csvNumber(c.relativeChange), pipeOrNone(c.baseline.critical),
                         csvNumber(c.baseline.criticalBusy), pipeOrNone(c.current.critical),
                         csvNumber(c.current.criticalBusy))
                     .arg(csvNumber(c.baseline.contentionNs), csvNumber(c.current.contentionNs));
        files.append({ QStringLiteral("timeline-snapshot-%1-machine.json").arg(++index),
            tr("Snapshot \"%1\": its machine (input)").arg(snapshot.name),
            QByteArray::fromStdString(serialize(snapshot.state.machine)) });
    }
    files.append({ QStringLiteral("timeline-snapshots.csv"),
        tr("Snapshots compared with the current configuration (total time, critical pipe, contention)"),
        table.toUtf8() });
    return files;
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
    if (!m_document->hasTrace())
        return tr("Verrocchio: no trace open");
    if (!m_data.result)
        return {};
    const Result &r = *m_data.result;
    const TimeUnit unit = timeUnitFor(r.totalNs);
    QString text = QStringLiteral("total %1 %2 · contention %3 %2 · %4")
                       .arg(formatValue(r.totalNs * unit.perNs), unit.name, formatValue(r.contentionNs * unit.perNs),
                           countOf(r.stalls.size(), tr("1 stalled wait"), tr("%1 stalled waits")));
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
    // Streamed (bounded memory; 10⁶ instructions in half a second), written
    // atomically, gzip-compressed when the name ends in .gz.
    const std::string message = exportToFile(QFile::encodeName(path).toStdString(), ExportKind::ChromeTrace,
                                             *m_data.trace, m_data.machine, *m_data.result);
    if (!message.empty()) {
        if (error)
            *error = QString::fromStdString(message);
        return false;
    }
    return true;
}

} // namespace studio
