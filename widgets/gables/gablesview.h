// The Gables view: the multi-roofline plot, the time-terms chart and the
// readout on the left, the parameter panel on the right. Edits arrive from
// the document; redraws are coalesced so that a burst of slider events in one
// event-loop turn costs one evaluation and one replot.
#pragma once

#include "gables/model.h"
#include "gables/sensitivity.h"
#include "modelview.h"

class QComboBox;
class QHBoxLayout;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabWidget;

namespace studio {

class GablesDocument;
class GablesParamPanel;
class GablesPlot;
class RichReadoutLabel;
class EmptyState;
class GoalSeekPanel;
class LazyReplot;
class SensitivityChart;
class SnapshotBar;
class TermsChart;

class GablesView : public ModelView
{
    Q_OBJECT
public:
    explicit GablesView(GablesDocument *document, QWidget *parent = nullptr);

    // ModelView
    QString title() const override;
    QStringList formatIds() const override;
    QStringList exampleFiles() const override;
    QString primer() const override;
    bool openFile(const QString &path, QString *error, QStringList *warnings) override;
    bool canSave() const override { return true; }
    bool saveFile(const QString &path, QString *error) override;
    QString filePath() const override;
    bool isModified() const override;
    bool applyOverride(const QString &assignment, QString *error) override;
    QUndoStack *undoStack() const override;
    QString sessionKey() const override { return QStringLiteral("gables"); }
    QList<BundlePlot> bundlePlots() override;
    QList<BundleFile> bundleFiles() const override;
    QJsonObject sessionState() const override;
    bool restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error) override;
    QCustomPlot *exportPlot() const override;
    QString exportTitle() const override;
    void resetZoom() override;
    void setSensitivityStep(double relativeStep) override;
    void refreshDisplay() override { scheduleUpdate(true); }

    GablesDocument *document() const { return m_document; }
    GablesPlot *plot() const { return m_plot; }
    TermsChart *termsChart() const { return m_terms; }
    SensitivityChart *sensitivityChart() const { return m_sensitivity; }
    // The model's sensitivity rows the chart shows (all, largest swing first).
    const std::vector<roofline::gables::Sensitivity> &sensitivityRows() const { return m_sensitivityRows; }
    QTabWidget *bottomTabs() const { return m_bottomTabs; }
    GablesParamPanel *panel() const { return m_panel; }
    QLabel *readout() const; // a RichReadoutLabel: laid out once per new text (richreadoutlabel.h)
    GoalSeekPanel *goalSeekPanel() const { return m_goalSeek; }
    EmptyState *emptyState() const { return m_empty; }
    bool showsEmptyState() const override;
    void setRecentFiles(const QStringList &paths) override;
    bool clearStartupModel(const QString &note) override;
    SnapshotBar *snapshotBar() const { return m_snapshotBar; }
    QString comparisonText() const { return m_comparisonText; }
    const roofline::gables::Result &result() const { return m_result; }
    // One line for the status bar: "P_att = 160 Gops/s · bound: balanced (…)".
    QString summary() const override;
    // How many coalesced updates ran (tests and the benchmark wait on it).
    quint64 updateCount() const { return m_updateCount; }
    // How often the goal-seek parameter list was built again (tests: not on a value step).
    quint64 goalSeekListBuilds() const { return m_goalSeekListBuilds; }

    // Evaluates and redraws now if an update is pending.
    void flushPendingUpdate() override;

signals:
    void updated(); // after every coalesced evaluate + redraw

private:
    void updateGoalSeekParameters();
    void scheduleUpdate(bool structural);
    void refresh();
    void updateSensitivity();
    SnapshotBar *makeSnapshotBar();

    GablesDocument *m_document;
    GablesPlot *m_plot = nullptr;
    TermsChart *m_terms = nullptr;
    LazyReplot *m_termsReplot = nullptr;
    SensitivityChart *m_sensitivity = nullptr;
    GoalSeekPanel *m_goalSeek = nullptr;
    EmptyState *m_empty = nullptr;
    QStackedWidget *m_stack = nullptr;
    QStringList m_goalSeekPointers;
    std::string m_goalSeekKey; // what the goal-seek list was built from (updateGoalSeekParameters())
    quint64 m_goalSeekListBuilds = 0;
    std::vector<roofline::gables::Sensitivity> m_sensitivityRows;
    void showSensitivity(); // the model's rows into the chart
    QTabWidget *m_bottomTabs = nullptr;
    SnapshotBar *m_snapshotBar = nullptr;
    QString m_comparisonText; // "Pₐₜₜ … vs baseline …; bound moved from … to …"
    GablesParamPanel *m_panel = nullptr;
    QScrollArea *m_panelScroll = nullptr;
    RichReadoutLabel *m_readout = nullptr;
    roofline::gables::Result m_result;
    bool m_pending = false;
    bool m_structuralPending = false;
    bool m_refitPending = false; // the plot's held ranges are to fit the model again
    quint64 m_updateCount = 0;
};

} // namespace studio
