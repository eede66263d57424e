// TimelineOverview: the whole trace in a strip under the timeline.
#include "timelineplot.h"

#include "timelinelayers.h"

#include <algorithm>

namespace studio {

using namespace roofline::verrocchio;
using namespace timelinepaint;

TimelineOverview::TimelineOverview(TimelinePlot *timeline, QWidget *parent)
    : QCustomPlot(parent)
    , m_timeline(timeline)
{
    setNotAntialiasedElements(QCP::aeAll);
    setPlottingHint(QCP::phImmediateRefresh, false); // painted with the window, as the timeline is
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical); // one paint buffer, as the timeline's
    setFixedHeight(64);
    xAxis->setVisible(false);
    yAxis->setVisible(false);
    yAxis->setRangeReversed(true);
    axisRect()->setAutoMargins(QCP::msNone);
    axisRect()->setMargins(QMargins(2, 2, 2, 2));
    m_bars = new TimelineBarsPlottable(xAxis, yAxis, true);
    m_bars->removeFromLegend();
    m_window = new QCPItemRect(this);
    m_window->setPen(QPen(QColor(30, 90, 200), 1));
    m_window->setBrush(QColor(30, 90, 200, 40));
    setToolTip(tr("The whole trace. Click or drag to move the timeline's view."));
    m_windowReplot = new QueuedReplot(this);
    connect(timeline, &TimelinePlot::timeRangeChanged, this, [this](double a, double b) {
        setWindow(a, b);
        m_windowReplot->request();
    });
}

void TimelineOverview::setData(const TimelineData &data)
{
    m_bars->data = data;
    xAxis->setRange(rangeFor(data.result ? data.result->totalNs : 1));
    yAxis->setRange(0, double(data.bars ? std::max<std::size_t>(1, data.bars->laneCount()) : 1));
}

void TimelineOverview::setWindow(double startNs, double endNs)
{
    m_window->topLeft->setCoords(startNs, yAxis->range().lower);
    m_window->bottomRight->setCoords(endNs, yAxis->range().upper);
}

void TimelineOverview::setLaneStrips(bool on)
{
    m_bars->laneStrips = on;
}

std::size_t TimelineOverview::stripRects() const
{
    return m_bars->stripRects;
}

int TimelineOverview::premergedUses() const
{
    return m_bars->premergedUses();
}

int TimelineOverview::merges() const
{
    return m_bars->merges();
}

QCPRange TimelineOverview::rangeFor(double totalNs)
{
    return QCPRange(0, std::max(totalNs, 1e-3) * 1.01);
}

MergeKey TimelineOverview::mergeKey() const
{
    return m_bars->mergeKey();
}

void TimelineOverview::centreAt(double x)
{
    const QCPRange r = m_timeline->xAxis->range();
    const double t = xAxis->pixelToCoord(x);
    m_timeline->setTimeRange(t - r.size() / 2, t + r.size() / 2);
    m_timeline->replot(rpQueuedReplot);
}

void TimelineOverview::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        centreAt(event->position().x());
}

void TimelineOverview::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        centreAt(event->position().x());
}

} // namespace studio
