// The Gables multi-roofline plot (seed 003, section III.C): one scaled roof per
// active IP, the memory roof, dashed verticals at each I_i and at I_avg, and
// the attainable point labelled with its value and bound. It paints the pure
// geometry computed by roofline::gables::plotGeometry().
#pragma once

#include "gables/geometry.h"
#include "gables/model.h"
#include "plothint.h"
#include "units.h"

#include <QTimer>
#include <qcustomplot.h>

#include <memory>
#include <optional>
#include <vector>

namespace studio {

class PlotTextImages;

class GablesPlot : public QCustomPlot
{
    Q_OBJECT
public:
    // Measured once per legend or layout change, not on every layout request (plothint.h).
    QSize sizeHint() const override { return m_hint.get(this, [this] { return QCustomPlot::sizeHint(); }); }
    QSize minimumSizeHint() const override
    {
        return m_minimumHint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
    }

    explicit GablesPlot(QWidget *parent = nullptr);
    ~GablesPlot() override;

    // How setModel() chooses the automatic ranges. Fit: around the model (whole decades
    // with margin). Hold, for a live edit (a slider step): when the previous setModel()
    // was a live edit less than kRangeHoldMs ago, the ranges only widen, so the axes
    // hold still while a slider moves instead of jumping a decade back and forth; once
    // the edits pause, rangesSettled() asks for a Fit if the ranges are wider than it.
    enum class Ranges { Fit, Hold };
    static constexpr int kRangeHoldMs = 500;
    // Rebuilds every plottable from the model; call replot() afterwards.
    void setModel(const roofline::gables::Soc &soc, const roofline::gables::Result &result,
                  Ranges ranges = Ranges::Fit);
    bool holdsRanges() const { return m_rangeHold.isActive(); }
    const roofline::gables::PlotGeometry &geometry() const { return m_geometry; }

    // A pinned snapshot drawn faded behind the current model (nullptr: none).
    // Call after setModel(), before replot().
    void setGhost(const roofline::gables::Soc *soc, const roofline::gables::Result *result, const QString &name);
    int ghostCurveCount() const; // visible ghost curves (tests)

    // Draws what changed since the last replot. When the axes, the grid, the snapshot's
    // faded roofs and the IP roofs are what the last replot drew (most slider steps: an
    // intensity, Bpeak), only the main and legend layers are drawn again, into their own
    // paint buffers; otherwise, as replot(), the whole plot. Either way the plot shows
    // what replot() would show.
    void replotChanged();
    quint64 layerReplotCount() const { return m_layerReplots; } // replotChanged() calls that drew two layers
    // How many times the Pₐₜₜ label's place was searched (tests: once per slider step).
    // Changes to the static layers' graphs (the IP roofs, the snapshot's roofs): tests.
    quint64 staticRevision() const { return m_staticRevision; }
    quint64 labelSearchCount() const { return m_labelSearches; }
    // IP points drawn on screen from a pre-drawn circle (with many IPs), since the plot was made (tests).
    quint64 stampedPoints() const;
    // How many (place, roof or I line) pairs those searches sampled, of the 60 places x all lines.
    quint64 labelLinesSampled() const { return m_labelLinesSampled; }
    // The legend's names measured (once per name and font) and drawn into images, since the
    // plot was made (tests).
    int legendMeasurements() const { return m_legendMeasurements; }
    int textRenders() const { return m_textRenders; }

    // Back to the automatic ranges after the user panned or zoomed.
    void resetView();
    bool isAutoRange() const { return m_autoRange; }

    // For tests and export: the roof graph of IP `ip` (nullptr when idle), and the memory roof.
    QCPGraph *roofGraph(int ip) const;
    // The thick copies of the limiting IPs' roofs shown (on a layer each step redraws), in IP order.
    std::vector<QCPGraph *> limitingRoofGraphs() const;
    QCPGraph *memoryGraph() const { return m_memoryGraph; }
    QCPGraph *attainableGraph() const { return m_attainableGraph; }
    QCPItemText *attainableLabel() const { return m_attainableLabel; }
    // The line from the label to the attainable point.
    QCPItemLine *attainableLeader() const { return m_leader; }
    // The value of each roof where its I line meets it ("75 Gops/s"), in geometry().selections order
    // (hidden ones: the attainable point's own, which its label states, and with too many IPs).
    std::vector<QCPItemText *> roofValueLabels() const;
    QString tooltipAt(const QPointF &pixel) const;

    static QColor ipColor(const roofline::gables::Ip &ip, int index);

signals:
    // The live edits paused with the ranges wider than a Fit would make them.
    void rangesSettled();

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    PlotHintCache m_hint, m_minimumHint;
    // What the bottom paint buffer's pixels depend on: the colours, ranges and every
    // plottable on its layers (staticContent), and where the axes and their ticks fall
    // (staticLayout, known after a layout); as the last replot() drew them.
    QByteArray staticContent() const;
    QByteArray staticLayout() const;
    QByteArray m_drawnContent, m_drawnLayout;
    // Whether the paint buffers marked invalid are only those of the layers replotChanged()
    // draws anew (they are then marked valid): otherwise it replots the whole plot.
    bool redrawnBuffersAloneInvalidated();
    // Counts the changes of the graphs on the static layers (the IP roofs, the snapshot's
    // roofs): staticContent() reads it instead of their data, pens and visibility.
    quint64 m_staticRevision = 0;
    // Sets a static graph (hidden when `points` is empty); a change only when it is one.
    bool setStaticGraph(QCPGraph *graph, const std::vector<roofline::gables::Point> &points, const QPen &pen,
                        bool antialiased);
    // Hides a static graph (its pen and antialiasing kept); a change only when it was shown.
    bool hideStaticGraph(QCPGraph *graph);
    struct GhostKey
    {
        roofline::gables::Soc soc;
        roofline::gables::Interval x;
        QString name;
    };
    std::optional<GhostKey> m_ghostFor; // what setGhost() last drew (none: no snapshot)
    quint64 m_layerReplots = 0;
    quint64 m_labelSearches = 0;
    quint64 m_labelLinesSampled = 0;
    void applyRanges(bool placeLabel = true);
    void placeAttainableLabel();
    void updateTitle();
    void updateNumberFormats();
    QCPGraph *takeGraph(std::vector<QCPGraph *> &pool, std::size_t index);
    QCPItemStraightLine *takeLine(std::size_t index);
    QCPItemText *takeLabel(std::size_t index);

    roofline::gables::Soc m_soc;
    roofline::gables::Result m_result;
    roofline::gables::PlotGeometry m_geometry;
    bool m_autoRange = true;
    bool m_applyingRanges = false;
    QTimer m_rangeHold; // runs from each live edit until the edits pause (Ranges::Hold)
    int m_legendMeasurements = 0;
    int m_textRenders = 0;
    std::unique_ptr<PlotTextImages> m_textImages; // the legend's names as images, on screen
    void addLegendEntry(QCPAbstractPlottable *plottable);
    PrefixedUnit m_performanceUnit; // the y axis' unit, held with the ranges

    QCPTextElement *m_title = nullptr;
    QString m_titleText;
    QString m_subtitleText;
    std::vector<QCPGraph *> m_roofGraphs;  // one per active IP, in geometry().ipRoofs order
    std::vector<QCPGraph *> m_limitingGraphs; // the limiting IP roofs drawn thick, on the "memory" layer
    QCPGraph *takeLimitingGraph(std::size_t index);
    std::vector<QCPGraph *> m_pointGraphs; // the selected point of each active IP
    QCPGraph *m_memoryGraph = nullptr;
    std::vector<QCPGraph *> m_extraRoofGraphs;  // memory-side memory, buses
    std::vector<QCPGraph *> m_extraPointGraphs; // where the memory, cache and bus roofs are read
    QCPGraph *m_attainableGraph = nullptr;
    std::vector<QCPGraph *> m_ghostGraphs; // the snapshot's IP roofs, then its memory roof
    QCPGraph *m_ghostPoint = nullptr;      // the snapshot's attainable point
    std::vector<QCPItemStraightLine *> m_verticals;
    std::vector<QCPItemText *> m_verticalLabels;
    QCPItemText *m_attainableLabel = nullptr;
    QCPItemLine *m_leader = nullptr;
    std::vector<QCPItemText *> m_valueLabels;
    quint64 m_modelGeneration = 0;  // setModel() calls
    std::vector<double> m_placedFor; // what placeAttainableLabel() last chose from (empty: nothing)
    QCPItemText *takeValueLabel(std::size_t index);
    void placeValueLabels();
};

} // namespace studio
