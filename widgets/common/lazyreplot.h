// Replots a chart now if it is shown, else when it is next shown. A chart in a
// hidden tab (the nn-Meter totals while the sensitivity tab is up, any chart of
// a view the window does not show) was redrawn into its buffer on every update
// and never looked at before the next update redrew it again.
//
// Give the chart its data as before, then call replot() here instead of on the
// chart. What it shows when it appears is what an immediate replot would have
// drawn; exports render the chart's data directly and do not depend on it.
#pragma once

#include <QEvent>
#include <QObject>

#include <qcustomplot.h>

namespace studio {

class LazyReplot : public QObject
{
public:
    explicit LazyReplot(QCustomPlot *plot)
        : QObject(plot)
        , m_plot(plot)
    {
        plot->installEventFilter(this);
    }

    void replot(QCustomPlot::RefreshPriority priority = QCustomPlot::rpRefreshHint)
    {
        if (m_plot->isVisible()) {
            m_stale = false;
            m_plot->replot(priority);
        } else {
            m_stale = true;
        }
    }
    bool stale() const { return m_stale; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_plot && event->type() == QEvent::Show && m_stale) {
            m_stale = false;
            m_plot->replot();
        }
        return false;
    }

private:
    QCustomPlot *m_plot;
    bool m_stale = false;
};

} // namespace studio
