// The nn-Meter view (seed 004): a network's operators grouped into the
// kernels a backend runs (a tree: kernel → member operators) linked both ways
// to the per-kernel latency chart; the totals (kernel sum, operator sum,
// FLOPs estimate) that show why kernels matter; the panel with the network,
// device and fusion-rule check boxes. A rule toggle detects the kernels again
// and redraws in the same event-loop turn (coalesced like the other views).
#pragma once

#include "modelview.h"
#include "nnmeter/parameters.h"
#include "nnmeter/predict.h"

#include <QHash>
#include <map>
#include <memory>
#include <QPixmap>

class QCPBars;
class QLabel;
class QPushButton;
class QTableWidget;
class QScrollArea;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace studio {

class EmptyState;
class GoalSeekPanel;
class LazyReplot;
class NnmeterDocument;
class NnmeterLabPanel;
class NnmeterPanel;
class NnmeterPlot;
class RichReadoutLabel;
class SensitivityChart;
class SnapshotBar;

// The readout's second line: what fusion saves (operator sum − kernel sum) and how far the
// FLOPs-proportional estimate lies from the kernel sum, worded for either sign ("come to
// 2 ms less than" / "more than" / "agree ... within 0.5 %").
QString flopsReadout(const roofline::nnmeter::Prediction &prediction, const roofline::nnmeter::Device &device);

class NnmeterView : public ModelView
{
    Q_OBJECT
public:
    // Takes `document` as its child when it has no parent.
    explicit NnmeterView(NnmeterDocument *document, QWidget *parent = nullptr);

    // ModelView
    QString title() const override;
    QStringList formatIds() const override; // nn-Meter devices and fusion rules
    QStringList exampleFiles() const override;
    QString primer() const override;
    bool openFile(const QString &path, QString *error, QStringList *warnings) override;
    // Network files from File ▸ Open, drag and drop and the command line open here while
    // this view is current (the panel's openPath, as its Open… button does).
    bool takesNetworks() const override { return true; }
    // Its CSVs by their header: measured latencies ("network,measured_ms"), the kernel lab's
    // record ("stage,name,...") and per-kernel latencies ("network,kernel,...").
    bool claimsFile(const QString &path) const override;
    QString filePath() const override; // the device's file
    bool isModified() const override;
    QUndoStack *undoStack() const override;
    QString sessionKey() const override { return QStringLiteral("nnmeter"); }
    QJsonObject sessionState() const override;
    bool restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error) override;
    QList<BundlePlot> bundlePlots() override;
    QList<BundleFile> bundleFiles() const override;
    void setSensitivityStep(double relativeStep) override;
    void refreshDisplay() override { scheduleUpdate(); }
    bool applyOverride(const QString &assignment, QString *error) override;
    QCustomPlot *exportPlot() const override;
    QString exportTitle() const override;
    QString summary() const override;
    void resetZoom() override;
    void flushPendingUpdate() override;
    void setRecentFiles(const QStringList &paths) override;
    bool showsEmptyState() const override;
    bool clearStartupModel(const QString &note) override;
    EmptyState *emptyState() const { return m_empty; }

    NnmeterDocument *document() const { return m_document; }
    NnmeterPlot *plot() const { return m_plot; }
    NnmeterPanel *panel() const { return m_panel; }
    QTreeWidget *kernelTree() const { return m_tree; }
    QCustomPlot *totalsChart() const { return m_totals; }
    SensitivityChart *sensitivityChart() const { return m_sensitivity; }
    const std::vector<roofline::nnmeter::Sensitivity> &sensitivityRows() const { return m_sensitivityRows; }
    QTabWidget *bottomTabs() const { return m_bottomTabs; }
    GoalSeekPanel *goalSeekPanel() const { return m_goalSeek; }
    // Predicted vs measured (seed 004 section 7's metric: share within ±10 %).
    struct MeasuredRow
    {
        QString network;      // as the file names it
        double measuredMs = 0;
        double predictedMs = -1; // < 0: no open network matches the name
        QString matchedFile;     // the network file it was matched to
        double noisePercent = -1;
    };
    const std::vector<MeasuredRow> &measuredRows() const { return m_measuredRows; }
    // Per kernel of the shown network, its latency measured inside a whole-network run
    // (the kernel lab's kernels.csv), matched by first layer and member count; < 0: none.
    const std::vector<double> &kernelMeasuredMs() const { return m_kernelMeasured; }
    QWidget *measuredTab() const { return m_measuredTab; }
    QTableWidget *measuredTable() const { return m_measuredTable; }
    QLabel *measuredSummary() const { return m_measuredSummary; }
    QPushButton *openMeasuredButton() const { return m_openMeasured; }
    bool openMeasured(const QString &path, QString *error); // one undoable step
    // The "Kernel lab" tab: builds predictors for this machine (nnmeterlab.h).
    NnmeterLabPanel *labPanel() const { return m_lab; }
    RichReadoutLabel *readout() const { return m_readout; }
    QLabel *messageLabel() const { return m_message; }
    SnapshotBar *snapshotBar() const { return m_snapshotBar; }
    QString comparisonText() const { return m_comparisonText; }
    // What is shown, as the core computed it.
    const roofline::nnmeter::Prediction &prediction() const { return m_prediction; }
    quint64 updateCount() const { return m_updateCount; }
    // How often the compared snapshot was predicted: once per snapshot compared, not per update (for tests).
    quint64 ghostPredictions() const { return m_ghostPredictions; }
    // The width the kernel tree asks for to show every kernel's name whole (for tests).
    int treeWantedWidth() const { return m_treeWanted; }
    // Cell texts of the kernel tree formatted so far, in every view (for tests: only the rows shown or asked for).
    static quint64 treeTextsFormatted();
    int selectedKernel() const { return m_selected; }
    void selectKernel(int kernel); // in the tree and the chart; -1: none

signals:
    void updated(); // after every coalesced detection + redraw

private:
    void scheduleUpdate();
    void refresh();
    void rebuildTree();
    void updateTotals();
    void updateSensitivity(bool evenIfHidden = false);
    void updateMeasured(bool evenIfHidden = false);
    bool namesShownNetwork(const std::string &name) const;
    QString kernelSummary() const; // the measured tab's per-kernel line ("" without kernels.csv)
    void matchKernelMeasurements();
    const roofline::network::Network *networkNamed(const QString &name, QString *file);
    void showMessage(const QString &text);
    void showEmptyState();
    void openExample(const QString &path);
    void useLabRun(const QString &deviceFile, const QString &measuredFile, const QString &label);
    SnapshotBar *makeSnapshotBar();
    QPixmap swatch(const QColor &color);
    void fitTreeToNames();

    NnmeterDocument *m_document;
    NnmeterPlot *m_plot = nullptr;
    NnmeterPanel *m_panel = nullptr;
    QScrollArea *m_panelScroll = nullptr;
    QTreeWidget *m_tree = nullptr;
    QSplitter *m_treeSplitter = nullptr; // the tree beside the chart
    int m_treeWanted = 0; // the width that shows every kernel's name whole (only grows, until the network changes)
    std::shared_ptr<const roofline::network::Network> m_treeNetwork; // the network the tree's rows show
    bool m_treeSizedByUser = false; // the user moved the splitter: leave the widths to them
    QCustomPlot *m_totals = nullptr;
    QCPBars *m_totalsNow = nullptr;      // the totals' series, kept from one update to the next
    QCPBars *m_totalsGhost = nullptr;    // the compared snapshot's (none: nullptr)
    QCPBars *m_totalsMeasured = nullptr; // the measured latency's (none: nullptr)
    LazyReplot *m_totalsReplot = nullptr;
    SensitivityChart *m_sensitivity = nullptr;
    GoalSeekPanel *m_goalSeek = nullptr;
    QWidget *m_measuredTab = nullptr;
    QTableWidget *m_measuredTable = nullptr;
    QLabel *m_measuredSummary = nullptr;
    QPushButton *m_openMeasured = nullptr;
    NnmeterLabPanel *m_lab = nullptr;
    std::vector<MeasuredRow> m_measuredRows;
    std::vector<double> m_kernelMeasured;
    std::map<QString, std::shared_ptr<const roofline::network::Network>> m_shipped; // examples, loaded when needed
    bool m_shippedLoaded = false;
    int m_goalSeekParameters = -1; // how many the panel lists (the device's efficiencies add some)
    QTabWidget *m_bottomTabs = nullptr;
    RichReadoutLabel *m_readout = nullptr;
    QLabel *m_message = nullptr;
    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QString m_emptyNote; // why the file named at start-up did not open
    SnapshotBar *m_snapshotBar = nullptr;
    QString m_comparisonText;
    roofline::nnmeter::Prediction m_prediction;
    roofline::nnmeter::Prediction m_ghost; // the compared snapshot's
    bool m_hasGhost = false;
    bool m_ghostValid = false; // m_ghost is the compared snapshot's (until the snapshots change)
    quint64 m_ghostPredictions = 0;
    std::vector<roofline::nnmeter::Sensitivity> m_sensitivityRows;
    QHash<QRgb, QPixmap> m_swatches;
    int m_selected = -1;
    bool m_selecting = false;
    bool m_pending = false;
    quint64 m_updateCount = 0;
};

} // namespace studio
