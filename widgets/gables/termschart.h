// A small horizontal bar chart of the Gables time terms: each IP's compute
// time C_i and link time D_i/B_i, and the memory time T_mem, largest first.
// The longest bar is the bound; the dashed line marks max T = 1/P_att.
#pragma once

#include "gables/model.h"
#include "units.h"

#include <qcustomplot.h>

namespace studio {

class TermsChart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit TermsChart(QWidget *parent = nullptr);

    // Shows at most `maxRows` rows (IPs ranked by T_i; memory always shown).
    void setModel(const roofline::gables::Soc &soc, const roofline::gables::Result &result);

    // For tests: the row labels top to bottom and the bars' values.
    QStringList rowLabels() const;
    const TimeUnit &unit() const { return m_unit; }
    QCPBars *computeBars() const { return m_compute; }
    QCPBars *linkBars() const { return m_link; }
    QCPBars *memoryBars() const { return m_memory; }

    static constexpr int maxRows = 12;

private:
    QCPBars *m_compute = nullptr;
    QCPBars *m_link = nullptr;
    QCPBars *m_memory = nullptr;
    QCPItemStraightLine *m_maxLine = nullptr;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    QStringList m_rows;
    TimeUnit m_unit;
};

} // namespace studio
