// The Verrocchio timeline: one Gantt lane per core × pipe (S, MTE2, MTE1, M,
// V, MTE3), bars coloured by instruction, stalled waits hatched, bus
// contention shaded on the MTE lanes with each transfer's share, the critical
// path outlined, and set→wait arrows on demand. Horizontal zoom with the
// wheel, pan by dragging. Bars narrower than a pixel are merged by
// roofline::verrocchio::mergeBars(), so a redraw costs about (lanes × pixels),
// not the trace length; for a new result the worker merges them for the views
// the plots will show it in (TimelineData::premerged), else the paint does.
#pragma once

#include "verrocchio/layout.h"
#include "verrocchio/simulation.h"
#include "verrocchio/trace.h"
#include "plothint.h"
#include "queuedreplot.h"

#include <qcustomplot.h>

#include <memory>
#include <optional>
#include <vector>

namespace studio {

class TimelineBarsPlottable;
class TimelineGhostPlottable;

// The view a plot's bars are merged for (roofline::verrocchio::mergeBars()):
// its time range, where its axis rect lies in pixels, and the width under
// which a bar joins a group. Equal keys give equal groups.
struct MergeKey {
    double lower = 0, upper = 0; // ns
    double left = 0, width = 0;  // the axis rect, pixels
    double minPixels = 1;
    bool operator==(const MergeKey &) const = default;
    // Nanoseconds per pixel, as QCPAxis::coordToPixel() places the range's
    // ends on a horizontal axis; 0 for an empty or invalid view (nothing merges).
    double nsPerPixel() const;
};

// Groups merged in the worker for the view a result is expected to be drawn in.
struct PremergedGroups {
    MergeKey key;
    // Whose bars: the result's own (null), or a compared snapshot's (the timeline's faded band).
    std::shared_ptr<const roofline::verrocchio::TimelineBars> of;
    std::vector<roofline::verrocchio::BarGroup> groups;
};

// What the worker needs to know of the timeline and its overview to merge
// their bars for them (TimelineView::compute()).
struct MergeHints {
    bool whole = true;              // the timeline shows the whole trace: its range follows the result
    double lower = 0, upper = 0;    // else its range (ns)
    double ghostTotalNs = 0;        // the compared snapshot's length: a whole view spans both
    std::shared_ptr<const roofline::verrocchio::TimelineBars> ghostBars; // its bars, merged for the timeline too
    double left = 0, width = 0;     // the timeline's axis rect (pixels)
    double overviewLeft = 0, overviewWidth = 0;
};

// What the plot shows: shared, immutable, cheap to hand around.
struct TimelineData {
    std::shared_ptr<const roofline::verrocchio::Trace> trace;
    roofline::verrocchio::Machine machine;
    std::shared_ptr<const roofline::verrocchio::Result> result;
    std::shared_ptr<const roofline::verrocchio::TimelineBars> bars;
    // Per lane, when its transfers shared the bus (drawn as shaded spans).
    // Null until joined: the view's GUI thread joins them for an early result
    // (TimelineView::ComputeOptions::simulated) while the worker lays out the bars.
    std::shared_ptr<const roofline::verrocchio::LaneContention> contention;
    // Per core, per instruction: 1 when it lies on the critical path.
    std::shared_ptr<const std::vector<std::vector<char>>> onPath;
    // Worked out once per result in the worker, so that a redraw does not
    // look every bar's instruction up (at 10⁶ instructions those lookups were
    // 16 % of the GUI thread's time). Per bar: the first later bar of its lane
    // whose instruction has another name (stalls do not count), so a merged
    // group's colour needs no scan of its members; and per interned name, 1
    // when an instruction of that name ran (the legend). Null: look them up.
    std::shared_ptr<const std::vector<std::uint32_t>> nameRunEnd;
    // Per bar: its instruction's slot in the names' palette
    // (TimelinePlot::paletteSlotOfName(); a stall: 0, never read), so that a
    // group's colour is read beside its bar instead of from the trace (a
    // cache miss per group: 40 % of the bars' draw at 10⁵ instructions).
    // With nameRunEnd or not at all.
    std::shared_ptr<const std::vector<std::uint8_t>> paletteSlot;
    std::shared_ptr<const std::vector<char>> namesUsed;
    // Per bar: the first bar of its lane from it on whose instruction lies on
    // the critical path (the lane's end: none), so whether a merged group holds
    // one needs no scan of its members (drawing the path scanned them all:
    // 0.8 M instructions per update at 10⁵ instructions). Null: scan.
    std::shared_ptr<const std::vector<std::uint32_t>> nextOnPath;
    // The timeline's and the overview's groups, merged in the worker for the
    // views they are expected to show the result in (MergeHints): on the GUI
    // thread the merge walked every bar of the trace twice per update (2.9 M
    // instructions at 10⁵ instructions). A plot whose view matches no key
    // merges for itself. Null: nothing premerged.
    std::shared_ptr<const std::vector<PremergedGroups>> premerged;
    // When each stage of the update that made this data ended (steady clock,
    // ns; 0: not measured): the edit that asked for it, the GUI's hand-over
    // to the worker, and the worker's stages. roofline-bench reads them.
    struct Stages {
        std::int64_t requested = 0; // the first edit of the coalesced burst
        std::int64_t handedOver = 0; // the queued startUpdate() ran and queued the job
        std::int64_t jobStart = 0;
        std::int64_t simulated = 0;
        std::int64_t bars = 0;
        std::int64_t computed = 0; // critical path and name runs too
        // Minor page faults of the thread that ran compute(), while it ran
        // (-1: not measured): memory it mapped afresh (TimelinePlanCache::warmUp()).
        long pageFaults = -1;
    } stages;
};

struct InstructionRef {
    std::uint32_t core = 0;
    std::uint32_t instruction = 0;
    bool operator==(const InstructionRef &) const = default;
};

class TimelinePlot : public QCustomPlot {
    Q_OBJECT
public:
    // Measured once per legend or layout change, not on every layout request (plothint.h).
    QSize sizeHint() const override { return m_hint.get(this, [this] { return QCustomPlot::sizeHint(); }); }
    QSize minimumSizeHint() const override
    {
        return m_minimumHint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
    }

    explicit TimelinePlot(QWidget *parent = nullptr);

    // New data; keeps the zoom unless the lanes changed. Call replot() afterwards.
    void setData(const TimelineData &data);
    const TimelineData &data() const { return m_data; }
    std::size_t laneCount() const;
    // Hides the lanes no instruction ran in (a pipe the trace never uses), so
    // the lanes that matter get the height; off by default.
    void setHideEmptyLanes(bool hide);
    bool hideEmptyLanes() const { return m_hideEmptyLanes; }
    // The lanes drawn, top to bottom (all of them unless empty ones are hidden).
    std::vector<std::size_t> shownLanes() const;

    // Back to the whole trace.
    void resetView();
    void setTimeRange(double startNs, double endNs);

    void setShowCriticalPath(bool show);
    bool showCriticalPath() const { return m_showCriticalPath; }
    void setShowFlagArrows(bool show);
    bool showFlagArrows() const { return m_showFlagArrows; }
    void setSelected(std::optional<InstructionRef> selected);
    std::optional<InstructionRef> selected() const { return m_selected; }

    // A pinned snapshot's result, drawn as a faded band at the bottom of each
    // lane (merged by the same level of detail as the bars), with a dashed line
    // where it ends and a legend entry naming it; nullptr removes it. The whole
    // view spans both results. Call replot() afterwards.
    void setGhost(const TimelineData *ghost, const QString &name);
    bool hasGhost() const;
    double ghostTotalNs() const; // the compared snapshot's total (ns); 0 without one
    // The ghost's rectangles the last paint drew (or would draw now).
    std::vector<roofline::verrocchio::BarGroup> visibleGhostGroups() const;
    int ghostMerges() const; // how often the snapshot's bars were merged for a view (tests)
    int ghostPremergedUses() const; // and how often the worker had merged them for it

    // The instruction names the last paint (on screen or into an export)
    // wrote into bars: the text's box in that paint's pixels, its colour and
    // the bar's fill.
    struct DrawnLabel
    {
        QRectF box;
        QString text;
        QColor color;
        QColor fill;
    };
    const std::vector<DrawnLabel> &drawnLabels() const;

    // The rectangles the last paint drew (or would draw now): bars and merged groups.
    std::vector<roofline::verrocchio::BarGroup> visibleGroups() const;
    // On screen, the bars, stalls and groups (with their opaque outlines) are
    // painted as one strip of pixels per lane (timelinepaint::LaneStrips); off:
    // one by one, as exports draw them (tests compare the two). How many the
    // last paint put in strips.
    void setLaneStrips(bool on);
    std::size_t stripRects() const;
    // How often the bars' groups came premerged from the worker, and how often the plot merged them itself (tests).
    int premergedUses() const;
    int merges() const;
    // Where the axis rect lies now, and what the worker is told to merge for
    // the next result (the range the plot will show it in, as setData() keeps it).
    MergeKey mergeKey() const;
    MergeHints mergeHints() const;
    // The range a whole view shows for a result of `totalNs` (and a compared snapshot of `ghostTotalNs`, 0: none).
    static QCPRange wholeRange(double totalNs, double ghostTotalNs);
    double nsPerPixel() const;
    // The instruction under a pixel (a bar or a stall), if any.
    std::optional<InstructionRef> instructionAt(const QPointF &pixel) const;
    QString tooltipAt(const QPointF &pixel) const;
    QString describeInstruction(InstructionRef ref) const; // multi-line, for tooltips
    static QColor colorOfName(std::uint32_t name);
    // The same colour in two steps: a name's slot in the palette (what the
    // worker writes per bar, TimelineData::paletteSlot) and the slot's colour.
    static constexpr std::uint32_t kPaletteSize = 10;
    static constexpr std::uint8_t paletteSlotOfName(std::uint32_t name)
    {
        return static_cast<std::uint8_t>(name == 0 ? kPaletteSize - 1 : (name - 1) % kPaletteSize);
    }
    static QColor paletteColor(std::uint8_t slot);

signals:
    void instructionClicked(studio::InstructionRef ref);
    void timeRangeChanged(double startNs, double endNs);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    PlotHintCache m_hint, m_minimumHint;
    void updateTitle(); // the trace's name, wrapped, then machine and total
    void clampRange(const QCPRange &range);
    void updateTimeAxis();
    void updateLaneAxis();
    void updateLegend();
    double extentNs() const; // the longer of the result and the ghost

    TimelineData m_data;
    TimelineBarsPlottable *m_bars = nullptr;
    TimelineGhostPlottable *m_ghost = nullptr;
    bool m_showCriticalPath = true;
    bool m_showFlagArrows = false;
    std::optional<InstructionRef> m_selected;
    QPoint m_pressPos;
    std::size_t m_lanes = 0;
    bool m_hideEmptyLanes = false;
    std::vector<int> m_rows;          // row of each lane, -1 hidden; empty: row = lane
    std::vector<std::size_t> m_laneOfRow;
    std::size_t m_rowCount = 0;       // rows drawn
    bool updateRows();                // true when the rows changed
    std::optional<std::size_t> laneAtPixel(double y) const;
    bool m_clamping = false;
    std::vector<QCPBars *> m_legendEntries;
    struct LegendEntry
    {
        QString name;
        QBrush brush;
        QPen pen;
        bool operator==(const LegendEntry &) const = default;
    };
    std::vector<LegendEntry> m_legendShown; // what m_legendEntries show
};

// The whole trace in a strip below the timeline; the shaded window is the
// timeline's visible range, and clicking or dragging moves it.
class TimelineOverview : public QCustomPlot {
    Q_OBJECT
public:
    // Measured once per legend or layout change, not on every layout request (plothint.h).
    QSize sizeHint() const override { return m_hint.get(this, [this] { return QCustomPlot::sizeHint(); }); }
    QSize minimumSizeHint() const override
    {
        return m_minimumHint.get(this, [this] { return QCustomPlot::minimumSizeHint(); });
    }

    explicit TimelineOverview(TimelinePlot *timeline, QWidget *parent = nullptr);
    void setData(const TimelineData &data);
    void setWindow(double startNs, double endNs);
    QCPItemRect *window() const { return m_window; }
    void setLaneStrips(bool on); // as TimelinePlot's
    std::size_t stripRects() const;
    int premergedUses() const; // as TimelinePlot's
    int merges() const;
    MergeKey mergeKey() const;
    // The range the overview shows a result of `totalNs` in.
    static QCPRange rangeFor(double totalNs);
    // The replot a move of the timeline's window asks for (given up when the
    // view replots the overview first, as it does with each new result).
    const QueuedReplot &windowReplot() const { return *m_windowReplot; }

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    PlotHintCache m_hint, m_minimumHint;
    void centreAt(double x);

    TimelinePlot *m_timeline;
    TimelineBarsPlottable *m_bars = nullptr;
    QCPItemRect *m_window = nullptr;
    QueuedReplot *m_windowReplot = nullptr;
};

} // namespace studio

Q_DECLARE_METATYPE(studio::InstructionRef)
