// A replot of a chart from the event loop, given up when the chart is replotted
// before the loop gets to it.
//
// QCustomPlot::replot(rpQueuedReplot) posts a replot that runs whatever happens
// meanwhile. The timeline's overview queued one on every change of the
// timeline's range; during a slider drag the range changes as the new result
// arrives, and the view replots the overview at once with the new data, so
// the queued replot redrew the same picture again: 2.3 M instructions, about
// half a millisecond of every 10⁵-instruction step (docs/performance.md).
#pragma once

#include <QObject>

#include <qcustomplot.h>

namespace studio {

class QueuedReplot : public QObject
{
public:
    explicit QueuedReplot(QCustomPlot *plot)
        : QObject(plot)
        , m_plot(plot)
    {
        connect(plot, &QCustomPlot::afterReplot, this, [this] { m_wanted = false; });
    }

    // Replot when the event loop next runs, unless the chart has been replotted by then.
    void request()
    {
        if (m_wanted)
            return; // one is on its way
        m_wanted = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!m_wanted) {
                    ++m_givenUp;
                    return;
                }
                ++m_replots;
                m_plot->replot(); // clears m_wanted (afterReplot)
                m_wanted = false;
            },
            Qt::QueuedConnection);
    }
    bool pending() const { return m_wanted; }
    // Replots it ran, and requests it gave up because the chart was replotted first: for tests.
    int replots() const { return m_replots; }
    int givenUp() const { return m_givenUp; }

private:
    QCustomPlot *m_plot;
    bool m_wanted = false;
    int m_replots = 0;
    int m_givenUp = 0;
};

} // namespace studio
