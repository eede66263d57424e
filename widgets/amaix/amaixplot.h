// The AMAIX roofline scatter (seed 000, Fig. 7-style): log-log, one compute
// roof per processing unit, one memory roof per memory, and one marker per
// network layer (its tiles and bias stage grouped with it), coloured by unit
// or by bound, with its area proportional to the layer's share of the
// inference time. Layers that run hidden inside another layer's pipe are drawn
// hollow at their stand-alone roofline position.
#pragma once

#include "amaix/layersummary.h"
#include "amaix/model.h"
#include "plothint.h"

#include <QJsonValue>

#include <qcustomplot.h>

#include <vector>

namespace studio {

// One marker as painted; kept for tests, tooltips and hit testing.
struct LayerMarker
{
    double x = 0;      // ops/byte
    double y = 0;      // Gops/s
    double radius = 0; // pixels
    QColor color;
    bool hollow = false; // pipelined, does not set its pipe's time
    int row = -1;        // index into the layer summaries
};

// The markers of a result, pure: colours, radii (area ∝ time share, with a
// floor so every layer stays visible), no markers for host layers.
enum class MarkerColoring { ByUnit, ByBound };
std::vector<LayerMarker> layerMarkers(const std::vector<roofline::amaix::LayerSummary> &layers, double totalNs,
                                      MarkerColoring coloring);
QColor unitColor(int unit);
QColor boundColor(roofline::amaix::Bound bound);

class LayerScatter;
class ArrowBatch;

// An arrow of the compared snapshot: from its marker to the same layer's marker now (plot coordinates).
struct GhostArrow
{
    QPointF from, to;
};

class AmaixPlot : public QCustomPlot
{
    Q_OBJECT
public:
    // Measured once per legend or layout change, not on every layout request (plothint.h).
    QSize sizeHint() const override { return m_hint.get(this, [this] { return QCustomPlot::sizeHint(); }); }
    QSize minimumSizeHint() const override
    {
        return m_minimumHint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
    }

    explicit AmaixPlot(QWidget *parent = nullptr);

    // The plot keeps pointers to these; the caller keeps them alive and
    // calls setModel() again whenever they change. Call replot() afterwards.
    void setModel(const roofline::amaix::Network *network, const roofline::amaix::Accelerator *accelerator,
                  const roofline::amaix::Options &options, const roofline::amaix::Result *result,
                  const std::vector<roofline::amaix::LayerSummary> *layers);
    // A pinned snapshot drawn faded under the current model: its layer markers,
    // its roofs, and an arrow from each of its markers to where that layer (same
    // name) is now, when it moved. The plot copies what it draws; nullptr clears.
    // Takes effect at the next setModel().
    void setGhost(const roofline::amaix::Network *network, const roofline::amaix::Accelerator *accelerator,
                  const roofline::amaix::Options &options, const roofline::amaix::Result *result,
                  const std::vector<roofline::amaix::LayerSummary> *layers, const QString &name);
    const std::vector<LayerMarker> &ghostMarkers() const { return m_ghostMarkers; }
    // The arrows shown, each from a ghost marker (start) to the current marker (end), in plot coordinates.
    const std::vector<GhostArrow> &ghostArrows() const { return m_arrows; }
    int ghostRoofCount() const; // faded roofs shown
    quint64 stampedArrowHeads() const; // arrow heads drawn on screen from an image, since the plot was made (tests)
    void setColoring(MarkerColoring coloring);
    MarkerColoring coloring() const { return m_coloring; }

    const std::vector<LayerMarker> &markers() const { return m_markers; }
    // Roof graphs: compute roof of unit u (nullptr if the unit is idle and unused), memory roof of memory m.
    QCPGraph *unitRoof(int unit) const;
    QCPGraph *memoryRoof(int memory) const;
    const std::vector<double> &peaks() const { return m_peaks; }

    void setSelectedRow(int row); // -1: none; does not emit
    int selectedRow() const { return m_selectedRow; }
    // The marker under a pixel (nearest within its radius + 3 px), as an index into markers(), or -1.
    int markerAt(const QPointF &pixel) const;
    QPointF markerPixel(int marker) const;
    QString tooltipAt(const QPointF &pixel) const;
    // The layers named beside their markers: the largest time shares (up to
    // five, each at least 3 % of the inference) and the selected one; a name
    // that would cover another is left out. The texts shown, for tests.
    QStringList markerNames() const;

    void resetView();
    bool isAutoRange() const { return m_autoRange; }
    // The user's zoom for session files: null while the view follows the data,
    // else {"x": [lo, hi], "y": [lo, hi]}. Restoring anything else resets the view.
    QJsonValue zoomState() const;
    void restoreZoom(const QJsonValue &zoom);

signals:
    void layerClicked(int row);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    PlotHintCache m_hint, m_minimumHint;
    void rebuild();
    void applyRanges();
    void updateNumberFormats();

    const roofline::amaix::Network *m_network = nullptr;
    const roofline::amaix::Accelerator *m_accelerator = nullptr;
    const roofline::amaix::Result *m_result = nullptr;
    const std::vector<roofline::amaix::LayerSummary> *m_layers = nullptr;
    roofline::amaix::Options m_options;
    MarkerColoring m_coloring = MarkerColoring::ByUnit;
    std::vector<LayerMarker> m_markers;
    std::vector<double> m_peaks;
    std::vector<int> m_unitRoofIndex; // unit -> index into m_unitRoofs, or -1
    QCPRange m_autoX, m_autoY;
    bool m_autoRange = true;
    bool m_applyingRanges = false;
    int m_selectedRow = -1;
    QPoint m_pressPos;

    QCPTextElement *m_title = nullptr;
    LayerScatter *m_scatter = nullptr;
    std::vector<QCPGraph *> m_unitRoofs;
    std::vector<QCPGraph *> m_memoryRoofs;
    std::vector<QCPItemText *> m_roofLabels;
    QCPGraph *m_computeLegend = nullptr; // legend-only entries for colouring by bound
    QCPGraph *m_memoryLegend = nullptr;
    QCPGraph *m_pipelinedLegend = nullptr;
    QCPItemText *m_message = nullptr; // why nothing is plotted (infeasible, invalid)
    std::vector<QCPItemText *> m_nameLabels;
    std::vector<int> m_namedMarkers; // marker indices named, largest share first, the selected one last
    void updateNamedMarkers();
    void placeNameLabels();

    // The ghost: copies of the snapshot's markers (names parallel), roofs and arrows.
    void rebuildGhost();
    std::vector<LayerMarker> m_ghostMarkers;
    std::vector<std::string> m_ghostNames;
    std::vector<double> m_ghostPeaks;      // per used unit with a peak
    std::vector<double> m_ghostBandwidths; // per used memory
    QString m_ghostName;
    LayerScatter *m_ghostScatter = nullptr;
    std::vector<QCPGraph *> m_ghostRoofs;
    std::vector<GhostArrow> m_arrows; // drawn by m_arrowBatch
    ArrowBatch *m_arrowBatch = nullptr;
};

} // namespace studio
