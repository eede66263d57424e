// The Verrocchio timeline view: the Gantt chart of a simulated trace with its
// overview strip, the readout and the instruction table on the left, the
// machine panel on the right. Machine edits are coalesced (a burst of slider
// events in one event-loop turn starts one simulation) and simulated in a
// worker thread: each request carries a generation number, and a result that
// is no longer the newest is dropped, so the GUI never waits for the
// simulation of a long trace. flushPendingUpdate() simulates synchronously
// (exports, tests).
#pragma once

#include "modelview.h"
#include "timelineplot.h"

#include <QThreadPool>

#include <memory>

class QCheckBox;
class QLabel;
class QScrollArea;
class QTableView;

namespace studio {

class TimelineDocument;
class TimelinePanel;
class TimelineTableModel;

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
    bool openFile(const QString &path, QString *error, QStringList *warnings) override;
    bool canSave() const override { return true; } // the machine; traces are read-only here
    bool saveFile(const QString &path, QString *error) override;
    QString filePath() const override; // the machine's file, which Save writes
    bool isModified() const override;
    bool applyOverride(const QString &assignment, QString *error) override;
    QCustomPlot *exportPlot() const override;
    QString exportTitle() const override;
    QString summary() const override;
    void resetZoom() override;
    void flushPendingUpdate() override;

    // Chrome Trace Event JSON of the current result (Perfetto, chrome://tracing).
    bool exportChromeTrace(const QString &path, QString *error);

    TimelineDocument *document() const { return m_document; }
    TimelinePlot *plot() const { return m_plot; }
    TimelineOverview *overview() const { return m_overview; }
    TimelinePanel *panel() const { return m_panel; }
    QTableView *table() const { return m_table; }
    TimelineTableModel *tableModel() const { return m_model; }
    QLabel *readout() const { return m_readout; }
    QCheckBox *criticalPathBox() const { return m_criticalPath; }
    QCheckBox *arrowsBox() const { return m_arrows; }
    const TimelineData &data() const { return m_data; }
    const roofline::verrocchio::Result &result() const;
    // How many results were drawn, and how many arrived stale and were dropped.
    quint64 updateCount() const { return m_updateCount; }
    quint64 droppedCount() const { return m_droppedCount; }

    // Simulation, bars and critical path of a trace on a machine: pure, runs in the worker.
    static TimelineData compute(
        std::shared_ptr<const roofline::verrocchio::Trace> trace, const roofline::verrocchio::Machine &machine);

signals:
    void updated(); // after every result drawn

private:
    void scheduleUpdate(bool structural);
    void startUpdate();
    void prepareInputs();
    void deliver(quint64 generation, const TimelineData &data);
    void apply(const TimelineData &data);
    void selectInTable(InstructionRef ref);

    TimelineDocument *m_document;
    TimelinePlot *m_plot = nullptr;
    TimelineOverview *m_overview = nullptr;
    TimelinePanel *m_panel = nullptr;
    QScrollArea *m_panelScroll = nullptr;
    QTableView *m_table = nullptr;
    TimelineTableModel *m_model = nullptr;
    QLabel *m_readout = nullptr;
    QCheckBox *m_criticalPath = nullptr;
    QCheckBox *m_arrows = nullptr;

    std::shared_ptr<const roofline::verrocchio::Trace> m_trace; // the document's, shared with workers
    TimelineData m_data;
    bool m_pending = false;
    bool m_structuralPending = false;
    quint64 m_generation = 0; // of the newest request
    quint64 m_shownGeneration = 0; // of the result on screen
    quint64 m_updateCount = 0;
    quint64 m_droppedCount = 0;
    QThreadPool m_pool; // one thread: requests queue behind the running one
    QThreadPool m_disposal; // frees replaced results off the GUI thread
};

} // namespace studio
