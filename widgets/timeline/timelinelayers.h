// The painting layers of the timeline (internal to widgets/timeline/): the
// lanes (bars, stalls, labels, selection; timelinelanes.cpp), the annotations
// drawn over them (bus contention, critical path, set→wait arrows;
// timelineannotations.cpp) and the faded snapshot ghost. TimelinePlot
// (timelineplot.cpp) and TimelineOverview (timelineoverview.cpp) stack them.
#pragma once

#include "timelineplot.h"
#include "units.h"

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace studio {

namespace timelinepaint {

inline constexpr double kBarTop = 0.14; // bars fill [lane + kBarTop, lane + 1 − kBarTop]
inline constexpr std::size_t kMaxLabels = 600;
inline constexpr std::size_t kMaxArrows = 300;
inline constexpr std::size_t kMaxLegendNames = 10;
inline constexpr std::size_t kMaxVisibleLanes = 36;

inline const QColor kStallColor(150, 150, 150);
inline const QColor kMergedColor(110, 110, 110);
inline const QColor kContentionColor(197, 27, 125, 40);
inline const QColor kContentionBandColor(197, 27, 125); // unlike any instruction colour
inline const QColor kCriticalColor(200, 0, 40);
inline const QColor kArrowColor(30, 30, 30);
inline const QColor kGhostLineColor(90, 90, 90);
inline constexpr double kGhostInset = 0.015; // the ghost band: [lane + 1 − kBarTop + inset, lane + 1 − inset]

// Tick labels in the time unit the axis label names.
class TimeTicker : public QCPAxisTicker {
public:
    double perNs = 1;

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        const double v = tick * perNs;
        return formatValue(std::abs(v) < 1e-9 ? 0.0 : v, 6);
    }
};

QString laneLabel(std::size_t lane, std::size_t cores);

// Which row each lane is drawn in when empty lanes are hidden (-1: hidden);
// empty: every lane in its own row (row = lane).
using LaneRows = std::vector<int>;
inline double rowOf(const LaneRows &rows, std::size_t lane)
{
    return rows.empty() ? double(lane) : lane < rows.size() ? double(rows[lane]) : -1.0;
}
inline bool laneShown(const LaneRows &rows, std::size_t lane)
{
    return rows.empty() || (lane < rows.size() && rows[lane] >= 0);
}

// Filled rectangles, with or without an opaque hairline outline, painted on
// screen as one strip of pixels per lane rather than one by one: the raster
// engine spends about half a microsecond on each small rectangle of
// drawRects() and more on each outline's four hairlines, and a lane of 1–4 px
// bars, stalls and groups has hundreds of them (10⁴ instructions: each of its
// bars and stalls; 10⁵: the merged groups, in the timeline and the overview),
// where an image of the lane costs as much as a few. A lane's rectangles all
// have the same rows, so its strip is three rows of pixels composited here
// (the outlines' top row, the rows between, their bottom row), copied to the
// lane's rows and drawn as one image. The pixels are those RectBatches
// paints with drawRects() and drawLines(): the same columns and rows (a fill
// covers [qRound(x1), qRound(x2)) × [qRound(y1), qRound(y2)), an outline the
// edge of [⌊x1⌋, ⌊x2⌋] × [⌊y1⌋, ⌊y2⌋], as the raster engine rasterises them),
// the same premultiplied colour and source-over, in the same order (a batch's
// fills, then its outlines, then the next batch; a pixel of two rectangles keeps
// the later one on top); only where translucent rectangles overlap can the
// rounding of a level differ. Only for an aliased raster painter with one
// device pixel per unit and a whole-pixel translation that is not an export
// (pmNoCaching, as exported PNGs are painted, or pmVectorized): exports keep
// one rectangle per bar (tst_timelineview_plot::laneStripsPaintWhatRectanglesPaint).
class LaneStrips {
public:
    static bool usable(const QCPPainter *painter);
    // A painter's strips over what its clip (or device) shows; `lanes`: the lanes there are.
    LaneStrips(const QCPPainter *painter, std::size_t lanes);
    // Composites `rect` (painter coordinates) into lane `lane`'s strip, as
    // drawn after the rectangles of a lower `order` and before those of a
    // higher one, its outline (if valid) just after its fill. False when the
    // strip cannot take it: its rows are not those of the lane's earlier
    // rectangles, or the outline is translucent (then the caller draws it as
    // a rectangle). A "lane" is any band of rectangles with the same rows:
    // the annotations give each kind of edge a lane of its own.
    // Colours premultiplied as the raster engine makes them of a solid brush
    // (premultipliedOf); `outline` 0: none.
    bool add(std::size_t lane, const QRectF &rect, quint32 fill, quint32 outline, std::uint16_t order);
    static quint32 premultipliedOf(const QColor &colour) { return colour.rgba64().premultiplied().toArgb32(); }
    std::size_t count() const { return m_count; }
    void paint(QCPPainter *painter);

private:
    static constexpr std::uint16_t kNone = 0xffff;
    struct Row {
        std::vector<quint32> pixels; // premultiplied ARGB, m_area.width() wide
        std::vector<std::uint16_t> order; // per pixel, the order of what is on top (kNone: nothing)
    };
    struct Band {
        int top = 0, bottom = 0; // device rows ⌊y1⌋ and ⌊y2⌋ of the lane's rectangles
        int fillTop = 0, fillBottom = 0; // their fills' rows [qRound(y1), qRound(y2))
        int left = 0, right = 0; // columns touched [left, right), relative to m_area
        std::array<Row, 3> rows; // row `top`, the rows between, row `bottom`
    };
    void composite(Band &band, int row, int from, int to, quint32 colour, std::uint16_t order);
    QRect m_area; // device pixels the strips cover
    QPoint m_offset; // painter → device
    std::vector<int> m_bandOfLane; // -1: none yet
    std::vector<Band> m_bands;
    std::size_t m_count = 0;
};

// Rectangles collected by fill and outline and painted with one drawRects()
// per pair: the raster engine fills a batch of axis-aligned rectangles many
// times faster than the same rectangles one call and one pen change each
// (docs/performance.md). Every rectangle stays its own <rect> in SVG.
// After useStrips(), a rectangle given with its lane goes into a LaneStrips
// instead where it can (painted first; the few it cannot take follow).
class RectBatches {
public:
    static constexpr std::size_t kNoLane = std::size_t(-1);
    // Strips for `painter` if it can take them (LaneStrips::usable), `lanes` of them.
    void useStrips(const QCPPainter *painter, std::size_t lanes);
    void add(const QRectF &rect, const QColor &fill, const QColor &outline = QColor(), std::size_t lane = kNoLane);
    void paint(QCPPainter *painter);
    std::size_t stripRects() const { return m_stripRects; } // by the last paint()

private:
    struct Batch {
        quint64 key;
        QColor fill;
        QColor outline;
        std::vector<QRectF> rects;
        quint32 fillPremultiplied = 0, outlinePremultiplied = 0; // for the strips (0: no outline)
    };
    std::vector<Batch> m_batches;
    std::optional<LaneStrips> m_strips;
    std::size_t m_stripRects = 0;
};

QString formatTime(double ns, const TimeUnit &unit);
double nsPerPixelOf(const QCPAxis *axis);
// The view of a horizontal axis, as mergeBars() sees it (MergeKey).
MergeKey mergeKeyOf(const QCPAxis *axis, double minPixels);
// The colour of a group's work when it is all one instruction (waits in
// between do not count), neutral for a mix.
QColor groupColorOf(const TimelineData &data, const roofline::verrocchio::BarGroup &g);
// A group's horizontal extent in pixels, at least one pixel wide so that nothing that ran is invisible.
std::pair<double, double> groupPixels(const QCPAxis *axis, const roofline::verrocchio::BarGroup &g);

} // namespace timelinepaint

// Paints the bars of a TimelineData on its axes: key = time (ns), value = lane.
class TimelineBarsPlottable : public QCPAbstractPlottable {
public:
    TimelineBarsPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis, bool compact)
        : QCPAbstractPlottable(keyAxis, valueAxis)
        , m_compact(compact)
    {
        setAntialiased(false); // axis-aligned rectangles: crisp and fast
    }

    TimelineData data;
    bool showCriticalPath = true;
    bool showFlagArrows = false;
    std::optional<InstructionRef> selected;
    std::vector<TimelinePlot::DrawnLabel> drawnLabels; // by the last draw(), screen or export
    bool laneStrips = true; // timelinepaint::LaneStrips where the painter allows them (tests compare)
    std::size_t stripRects = 0; // rectangles the last draw() painted as strips

    double nsPerPixel() const { return timelinepaint::nsPerPixelOf(keyAxis()); }

    // The view the bars are merged for now.
    MergeKey mergeKey() const { return timelinepaint::mergeKeyOf(keyAxis(), m_compact ? 2.0 : 1.0); }
    // The rectangles to draw: the worker's groups when they were merged for this view, else merged here.
    std::vector<roofline::verrocchio::BarGroup> groups() const
    {
        if (!data.bars)
            return {};
        const MergeKey key = mergeKey();
        if (data.premerged) {
            for (const PremergedGroups &p : *data.premerged) {
                if (p.key == key && !p.of) {
                    ++m_premergedUses;
                    return p.groups;
                }
            }
        }
        ++m_merges;
        return mergeBars(*data.bars, key.lower, key.upper, key.nsPerPixel(), key.minPixels);
    }
    int premergedUses() const { return m_premergedUses; }
    int merges() const { return m_merges; }

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain) const override
    {
        foundRange = data.result != nullptr;
        return QCPRange(0, data.result ? std::max(data.result->totalNs, 1e-3) : 1);
    }
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const override
    {
        foundRange = data.bars != nullptr;
        return QCPRange(0, data.bars ? double(std::max<std::size_t>(1, data.bars->laneCount())) : 1);
    }

protected:
    void drawLegendIcon(QCPPainter *, const QRectF &) const override { }

    void draw(QCPPainter *painter) override;

private:
public:
    timelinepaint::LaneRows rows; // empty lanes hidden (TimelinePlot::setHideEmptyLanes)

private:
    // The pixel `frac` of the way down lane `lane` (0: its top, 1: its bottom).
    double laneY(std::size_t lane, double frac) const
    {
        return valueAxis()->coordToPixel(timelinepaint::rowOf(rows, lane) + frac);
    }

    QRectF groupRect(const roofline::verrocchio::BarGroup &g) const
    {
        const auto [x0, x1] = timelinepaint::groupPixels(keyAxis(), g);
        const double y0 = laneY(g.lane, timelinepaint::kBarTop);
        const double y1 = laneY(g.lane, 1 - timelinepaint::kBarTop);
        return QRectF(QPointF(x0, std::min(y0, y1)), QPointF(x1, std::max(y0, y1)));
    }

    QColor groupColor(const roofline::verrocchio::BarGroup &g) const { return timelinepaint::groupColorOf(data, g); }

    // The lanes (timelinelanes.cpp).
    void drawLaneSeparators(QCPPainter *painter, const QRect &clip, std::size_t lanes);
    void drawHatching(QCPPainter *painter, const QRectF &rect);
    bool drawLabel(QCPPainter *painter, const QRectF &rect, const roofline::verrocchio::Bar &bar, const QColor &fill);
    void drawSelection(QCPPainter *painter, InstructionRef ref);
    // The annotations over them (timelineannotations.cpp).
    void drawContention(QCPPainter *painter);
    void drawContentionLabels(QCPPainter *painter);
    void drawCriticalPath(QCPPainter *painter, const std::vector<roofline::verrocchio::BarGroup> &visible);
    QPointF flagPoint(std::uint32_t core, std::uint32_t instruction) const;
    // An arrow from the set_flag that released a wait to the wait's end.
    void drawArrow(QCPPainter *painter, std::uint32_t core, std::uint32_t wait);
    void drawAllArrows(QCPPainter *painter, const std::vector<roofline::verrocchio::BarGroup> &visible);

    bool m_compact;
    mutable int m_premergedUses = 0;
    mutable int m_merges = 0;
    std::vector<std::pair<QRectF, QString>> pendingLabels;
    // Where a contention label of `box` goes (empty: it does not fit), in the
    // font contentionLabelFont() makes of the plot's.
    static QFont contentionLabelFont(const QFont &base);
    static QRectF contentionLabelRect(const QRectF &box, const QString &text, const QFont &small);
};

// Paints a snapshot's result faded in a thin band at the bottom of each lane,
// and a dashed line where it ends. Work only: its stalls would be noise there.
class TimelineGhostPlottable : public QCPAbstractPlottable {
public:
    TimelineGhostPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis)
        : QCPAbstractPlottable(keyAxis, valueAxis)
    {
        setAntialiased(false);
    }

    TimelineData data;
    QString name;
    // The current result's premerged groups (TimelineData::premerged): the
    // worker merges the compared snapshot's bars for the timeline's view too.
    std::shared_ptr<const std::vector<PremergedGroups>> premerged;
    std::size_t lanes = 0; // of the current result: lanes beyond it are not drawn
    bool laneStrips = true; // as TimelineBarsPlottable's
    timelinepaint::LaneRows rows; // the current result's rows: lanes hidden there are not drawn

    std::vector<roofline::verrocchio::BarGroup> groups() const;
    // How often groups() merged the snapshot's bars (tests: not again for the same view).
    int merges() const { return m_merges; }
    // How often they came from the worker instead (tests).
    int premergedUses() const { return m_premergedUses; }

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain) const override
    {
        foundRange = data.result != nullptr;
        return QCPRange(0, data.result ? std::max(data.result->totalNs, 1e-3) : 1);
    }
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const override
    {
        foundRange = false;
        return QCPRange(0, 1);
    }

protected:
    void drawLegendIcon(QCPPainter *, const QRectF &) const override { }

    void draw(QCPPainter *painter) override;

private:
    // The snapshot's bars merged for the last view asked (mergeBars() walks every
    // bar of the range: 2.6 M instructions at 10⁵ instructions, redone on each
    // redraw although the snapshot does not change while a slider moves).
    struct Merged {
        std::shared_ptr<const roofline::verrocchio::TimelineBars> bars;
        double lower = 0, upper = 0, nsPerPixel = 0;
        std::vector<roofline::verrocchio::BarGroup> groups;
    };
    mutable Merged m_merged;
    mutable int m_merges = 0;
    mutable int m_premergedUses = 0;
};

} // namespace studio
