// QCustomPlot's size hints, remembered.
//
// QCustomPlot::sizeHint() and minimumSizeHint() measure the text of every
// legend item, the title and the tick labels, without caching, every time a
// layout asks. Whenever a label's new text made the window lay itself out
// again (every slider step), that was 28 % of an AMAIX update with a snapshot
// compared (docs/performance.md). The hint is the plot's minimum size (plots
// expand), so it is measured again only when the legend gains or loses items
// or layout elements come or go, not when a tick label changes.
#pragma once

#include <qcustomplot.h>

#include <QSize>

namespace studio {

class PlotHintCache
{
public:
    template<typename Measure>
    QSize get(const QCustomPlot *plot, Measure &&measure) const
    {
        const int legendItems = plot->legend ? plot->legend->itemCount() : -1;
        const int elements = plot->plotLayout() ? plot->plotLayout()->elementCount() : -1;
        if (!m_valid || legendItems != m_legendItems || elements != m_elements) {
            m_hint = measure();
            m_legendItems = legendItems;
            m_elements = elements;
            m_valid = true;
        }
        return m_hint;
    }

private:
    mutable QSize m_hint;
    mutable int m_legendItems = -1;
    mutable int m_elements = -1;
    mutable bool m_valid = false;
};

} // namespace studio

