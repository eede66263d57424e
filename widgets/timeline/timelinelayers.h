// The painting layers of the timeline (internal to widgets/timeline/): the
// lanes (bars, stalls, labels, selection; timelinelanes.cpp), the annotations
// drawn over them (bus contention, critical path, set→wait arrows;
// timelineannotations.cpp) and the faded snapshot ghost. TimelinePlot
// (timelineplot.cpp) and TimelineOverview (timelineoverview.cpp) stack them.
#pragma once

#include "timelineplot.h"
#include "units.h"

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

// Rectangles collected by fill and outline and painted with one drawRects()
// per pair: the raster engine fills a batch of axis-aligned rectangles many
// times faster than the same rectangles one call and one pen change each
// (docs/performance.md). Every rectangle stays its own <rect> in SVG.
class RectBatches {
public:
    void add(const QRectF &rect, const QColor &fill, const QColor &outline = QColor());
    void paint(QCPPainter *painter);

private:
    struct Batch {
        quint64 key;
        QColor fill;
        QColor outline;
        std::vector<QRectF> rects;
    };
    std::vector<Batch> m_batches;
};

QString formatTime(double ns, const TimeUnit &unit);
double nsPerPixelOf(const QCPAxis *axis);
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

    double nsPerPixel() const { return timelinepaint::nsPerPixelOf(keyAxis()); }

    std::vector<roofline::verrocchio::BarGroup> groups() const
    {
        if (!data.bars)
            return {};
        const QCPRange r = keyAxis()->range();
        return mergeBars(*data.bars, r.lower, r.upper, nsPerPixel(), m_compact ? 2.0 : 1.0);
    }

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
    std::size_t lanes = 0; // of the current result: lanes beyond it are not drawn
    timelinepaint::LaneRows rows; // the current result's rows: lanes hidden there are not drawn

    std::vector<roofline::verrocchio::BarGroup> groups() const;
    // How often groups() merged the snapshot's bars (tests: not again for the same view).
    int merges() const { return m_merges; }

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
};

} // namespace studio
