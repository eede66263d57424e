// The AMAIX view: the per-layer roofline scatter (or the sweep) above the
// layer table, the accelerator panel on the right. Edits arrive from the
// document; redraws are coalesced so that a burst of slider events in one
// event-loop turn costs one evaluation, one table update and one replot.
#pragma once

#include "amaix/comparison.h"
#include "amaix/layersummary.h"
#include "amaix/model.h"
#include "amaix/sensitivity.h"
#include "modelview.h"

class QAction;
class QLabel;
class QPushButton;
class QScrollArea;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace studio {

class AmaixDocument;
class AmaixPanel;
class AmaixPlot;
class AmaixSweepPanel;
class AmaixTableModel;
class EmptyState;
class GoalSeekPanel;
class RichReadoutLabel;
class SensitivityChart;
class SnapshotBar;

class AmaixView : public ModelView
{
    Q_OBJECT
public:
    explicit AmaixView(AmaixDocument *document, QWidget *parent = nullptr);

    // ModelView
    QString title() const override;
    QStringList formatIds() const override;
    QStringList textSuffixes() const override; // measured per-layer times (CSV)
    QStringList exampleFiles() const override;
    QString primer() const override;
    bool openFile(const QString &path, QString *error, QStringList *warnings) override;
    QString filePath() const override; // the accelerator's file: what Save writes
    QList<QAction *> fileActions() const override { return {m_saveNetworkAction}; }
    bool canSave() const override { return true; }
    bool saveFile(const QString &path, QString *error) override; // the accelerator as JSON, atomically
    bool isModified() const override;
    QUndoStack *undoStack() const override;
    QString sessionKey() const override { return QStringLiteral("amaix"); }
    QJsonObject sessionState() const override;
    bool restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error) override;
    QList<BundlePlot> bundlePlots() override;
    QList<BundleFile> bundleFiles() const override;
    void setSensitivityStep(double relativeStep) override;
    void refreshDisplay() override { scheduleUpdate(true); }
    bool applyOverride(const QString &assignment, QString *error) override;
    QCustomPlot *exportPlot() const override; // the roofline scatter, or the sweep when its tab is shown
    QString exportTitle() const override;
    QString summary() const override;
    void resetZoom() override;
    void flushPendingUpdate() override;
    bool showsEmptyState() const override;
    void setRecentFiles(const QStringList &paths) override;
    bool clearStartupModel(const QString &note) override;
    EmptyState *emptyState() const { return m_empty; }

    // The network as our JSON (docs/file-formats-network.md), written atomically;
    // an imported ONNX or Caffe network reads back the same. File ▸ Save Network As.
    bool saveNetworkAs(const QString &path, QString *error) const;
    QAction *saveNetworkAction() const { return m_saveNetworkAction; }
    // The line above the table saying what the current network imported as
    // `other` and how AMAIX treats it; hidden when there is nothing to say.
    QLabel *importNotice() const { return m_importNotice; }

    // The per-stage result as CSV (core's resultToCsv); false with `error` set.
    bool exportCsv(const QString &path, QString *error) const;

    AmaixDocument *document() const { return m_document; }
    AmaixPlot *plot() const { return m_plot; }
    AmaixPanel *panel() const { return m_panel; }
    AmaixSweepPanel *sweep() const { return m_sweep; }
    AmaixTableModel *tableModel() const { return m_model; }
    QSortFilterProxyModel *proxyModel() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    QTabWidget *tabs() const { return m_tabs; }
    RichReadoutLabel *totalsLabel() const { return m_totals; }
    SnapshotBar *snapshotBar() const { return m_snapshotBar; }
    RichReadoutLabel *comparisonLabel() const { return m_comparisonLabel; }
    QString comparisonText() const { return m_comparisonText; } // empty when nothing is compared
    const roofline::amaix::SnapshotComparison &comparison() const { return m_comparison; }
    SensitivityChart *sensitivityChart() const { return m_sensitivity; }
    // The rows the tornado shows (all of them, largest swing first), as the core computed them.
    const std::vector<roofline::amaix::Sensitivity> &sensitivityRows() const { return m_sensitivityRows; }
    const roofline::amaix::Result &result() const { return m_result; }
    const std::vector<roofline::amaix::LayerSummary> &layers() const { return m_layers; }
    const roofline::amaix::SummaryTotals &totals() const { return m_summaryTotals; }
    quint64 updateCount() const { return m_updateCount; }
    int selectedLayer() const { return m_selectedLayer; } // network layer index or -1
    void selectLayer(int layer);                           // in the table and the plot

signals:
    void updated(); // after every coalesced evaluate + redraw

public:
    GoalSeekPanel *goalSeekPanel() const { return m_goalSeek; }

private:
    void scheduleUpdate(bool structural);
    void refresh();
    void showMessage(const QString &text);
    void updateComparison();
    void updateSensitivity(bool evenIfHidden = false);
    void updateImportNotice();
    void connectSnapshotBar();
    void showEmptyState();

    AmaixDocument *m_document;
    EmptyState *m_empty = nullptr;
    QStackedWidget *m_stack = nullptr;
    QString m_emptyNote; // why the start-up file did not open
    AmaixPlot *m_plot = nullptr;
    AmaixPanel *m_panel = nullptr;
    AmaixSweepPanel *m_sweep = nullptr;
    QScrollArea *m_panelScroll = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_table = nullptr;
    AmaixTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    RichReadoutLabel *m_totals = nullptr;
    QLabel *m_message = nullptr;
    QLabel *m_importNotice = nullptr;
    QAction *m_saveNetworkAction = nullptr;
    QPushButton *m_csvButton = nullptr;
    SnapshotBar *m_snapshotBar = nullptr;
    RichReadoutLabel *m_comparisonLabel = nullptr;
    int m_comparisonFor = -1; // the snapshot m_comparisonLabel compares with
    SensitivityChart *m_sensitivity = nullptr;
    GoalSeekPanel *m_goalSeek = nullptr;
    QString m_comparisonText;
    roofline::amaix::SnapshotComparison m_comparison;
    std::vector<roofline::amaix::Sensitivity> m_sensitivityRows;

    // What the plot and the table point into: copies taken at each refresh, so a
    // document change waiting for its coalesced update never leaves them inconsistent.
    roofline::amaix::Network m_network;
    roofline::amaix::Accelerator m_accelerator;
    roofline::amaix::Result m_result;
    std::vector<roofline::amaix::LayerSummary> m_layers;
    roofline::amaix::SummaryTotals m_summaryTotals;
    std::vector<double> m_measuredNs; // per network layer, NaN where not measured
    double m_measuredTotalNs = 0;
    const void *m_columnsSizedFor = nullptr; // the network the table's name and type columns were fitted to
    int m_selectedLayer = -1;
    bool m_selecting = false;
    bool m_pending = false;
    bool m_structuralPending = false;
    bool m_plotStale = false; // the scatter changed while another tab was shown
    quint64 m_updateCount = 0;
};

} // namespace studio
