// The Brouwer view (seed 002, memory-constrained inference; docs/views/brouwer.md):
// per-layer stacked bars of loading and execution time coloured by regime
// beside the total time against available memory, the predicted-vs-measured
// scatter, the sensitivity tornado; the layer and coefficient tables; the
// panel with the network, device, memory and measurements, and the fit panel.
// Edits arrive from the document; updates are coalesced (one evaluation and
// one replot per event-loop turn), and a memory move recomputes only what
// depends on the memory: the curve is computed when the network, device or
// bytes per element change.
#pragma once

#include "brouwer/fit.h"
#include "brouwer/model.h"
#include "modelview.h"
#include "richreadoutlabel.h"
#include "sensitivitychart.h"

#include <memory>

class QLabel;
class QScrollArea;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace studio {

class BrouwerBarsPlot;
class BrouwerCurvePlot;
class BrouwerDocument;
class BrouwerFitPanel;
class BrouwerLayerModel;
class BrouwerPanel;
class BrouwerScatterPlot;
class GoalSeekPanel;
class SnapshotBar;

class BrouwerView : public ModelView
{
    Q_OBJECT
public:
    explicit BrouwerView(BrouwerDocument *document, QWidget *parent = nullptr);

    // ModelView
    QString title() const override;
    QStringList formatIds() const override;
    QStringList exampleFiles() const override;
    QString primer() const override;
    bool claimsFile(const QString &path) const override; // measured CSVs, by their header
    bool openFile(const QString &path, QString *error, QStringList *warnings) override;
    bool takesNetworks() const override { return true; }
    // A network file (Caffe prototxt/pbtxt, ONNX, our JSON) becomes the current network
    // (one step); ONNX and Caffe through the shared importer (networkfileimport.h).
    bool openNetwork(const QString &path, QString *error, QStringList *warnings);
    QString filePath() const override; // the device's file
    bool canSave() const override { return true; }
    bool saveFile(const QString &path, QString *error) override; // the device, atomically
    bool isModified() const override;
    QUndoStack *undoStack() const override;
    QString sessionKey() const override { return QStringLiteral("brouwer"); }
    QJsonObject sessionState() const override;
    bool restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error) override;
    QList<BundlePlot> bundlePlots() override;
    QList<BundleFile> bundleFiles() const override;
    void setSensitivityStep(double relativeStep) override;
    void refreshDisplay() override { scheduleUpdate(true); }
    bool applyOverride(const QString &assignment, QString *error) override; // /memory=256MB, /bytes_per_element=2
    QCustomPlot *exportPlot() const override;
    QString exportTitle() const override;
    QString summary() const override;
    void resetZoom() override;
    void flushPendingUpdate() override;

    BrouwerDocument *document() const { return m_document; }
    BrouwerPanel *panel() const { return m_panel; }
    BrouwerFitPanel *fitPanel() const { return m_fit; }
    BrouwerBarsPlot *barsPlot() const { return m_bars; }
    BrouwerCurvePlot *curvePlot() const { return m_curve; }
    BrouwerScatterPlot *scatterPlot() const { return m_scatter; }
    SensitivityChart *sensitivityChart() const { return m_sensitivity; }
    QTabWidget *tabs() const { return m_tabs; }
    QTabWidget *tableTabs() const { return m_tableTabs; }
    QTableView *layerTable() const { return m_layerTable; }
    BrouwerLayerModel *layerModel() const { return m_layerModel; }
    QTableWidget *coefficientTable() const { return m_coefficients; }
    GoalSeekPanel *goalSeekPanel() const { return m_goalSeek; }
    SnapshotBar *snapshotBar() const { return m_snapshotBar; }
    RichReadoutLabel *comparisonLabel() const { return m_comparisonLabel; }
    QLabel *messageLabel() const { return m_message; }
    QString comparisonText() const { return m_comparisonText; }

    // What is plotted now, as the core computed it.
    const roofline::brouwer::Result &result() const { return m_result; }
    const roofline::brouwer::Curve &curve() const { return m_curveData; }
    const roofline::brouwer::Metrics &metrics() const { return m_metrics; }
    // The sensitivity rows as computed, in ms, largest swing first (the chart shows the
    // first SensitivityChart::maxRows of them, in the readout's unit).
    const std::vector<SensitivityChart::Row> &sensitivityRows() const { return m_sensitivityRows; }
    int observationCount() const { return m_observationCount; }
    quint64 updateCount() const { return m_updateCount; }

    // Write the per-layer result as CSV (the core's resultToCsv), atomically.
    bool exportCsv(const QString &path, QString *error) const;

signals:
    void updated(); // after every coalesced evaluate + redraw

private:
    void scheduleUpdate(bool structural);
    void refresh();
    void refreshStructure();
    void showMessage(const QString &text);
    void updateComparison();
    void updateSensitivity(bool evenIfHidden = false);
    void connectSnapshotBar();
    void openNetworkDialog();
    void openDeviceDialog();
    void openMeasurementsDialog();
    void saveDeviceDialog();
    QString readoutHtml() const;

    BrouwerDocument *m_document;
    BrouwerPanel *m_panel = nullptr;
    BrouwerFitPanel *m_fit = nullptr;
    QScrollArea *m_panelScroll = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTabWidget *m_tableTabs = nullptr;
    QWidget *m_layersTab = nullptr;
    BrouwerBarsPlot *m_bars = nullptr;
    BrouwerCurvePlot *m_curve = nullptr;
    BrouwerScatterPlot *m_scatter = nullptr;
    SensitivityChart *m_sensitivity = nullptr;
    QTableView *m_layerTable = nullptr;
    BrouwerLayerModel *m_layerModel = nullptr;
    QSortFilterProxyModel *m_layerProxy = nullptr;
    QTableWidget *m_coefficients = nullptr;
    GoalSeekPanel *m_goalSeek = nullptr;
    SnapshotBar *m_snapshotBar = nullptr;
    RichReadoutLabel *m_comparisonLabel = nullptr;
    QLabel *m_message = nullptr;
    QString m_comparisonText;

    // Copies taken at each structural refresh (what the plots point into).
    std::shared_ptr<const void> m_networkHold, m_deviceHold;
    const std::vector<roofline::brouwer::LayerFeatures> *m_layers = nullptr;
    const roofline::brouwer::Device *m_device = nullptr;
    roofline::brouwer::Result m_result;
    roofline::brouwer::Curve m_curveData;
    roofline::brouwer::Metrics m_metrics;
    std::vector<SensitivityChart::Row> m_sensitivityRows;
    int m_observationCount = 0;
    // The compared snapshot, evaluated once per choice.
    int m_comparedIndex = -1;
    const void *m_comparedFor = nullptr;
    roofline::brouwer::Result m_comparedResult;
    roofline::brouwer::Curve m_comparedCurve;
    bool m_seedShape = false; // the device is the seed's Table 2 as printed (isSeedShapeDevice)
    bool m_pending = false;
    bool m_structuralPending = false;
    quint64 m_updateCount = 0;
};

} // namespace studio
