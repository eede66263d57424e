#include "sensitivitychart.h"

#include "plotstyle.h"
#include "units.h"

#include <algorithm>

namespace studio {

using namespace roofline::gables;

SensitivityChart::SensitivityChart(QWidget *parent)
    : QCustomPlot(parent)
    , m_ticker(QSharedPointer<QCPAxisTickerText>::create())
{
    setUpBarChart(this, m_ticker);
    m_low = addHorizontalBars(this, QStringLiteral("parameter −"), QColor(0xe45756), 0.6);
    m_high = addHorizontalBars(this, QStringLiteral("parameter +"), QColor(0x54a24b), 0.6);
    m_baseline = new QCPItemStraightLine(this);
    m_baseline->setPen(QPen(Qt::black, 1, Qt::DashLine));
}

void SensitivityChart::setModel(const Soc &soc, double baselineGops, double relativeStep)
{
    m_rows = sensitivity(soc, relativeStep);
    const int shown = std::min<int>(maxRows, int(m_rows.size()));
    QVector<double> keys, low, high;
    m_ticker->clear();
    double lo = baselineGops, hi = baselineGops;
    for (int r = 0; r < shown; ++r) {
        const Sensitivity &s = m_rows[std::size_t(r)];
        keys << r + 1;
        // QCPBars draw from the base value by the bar's value: store the change.
        low << s.lowGops - baselineGops;
        high << s.highGops - baselineGops;
        lo = std::min({lo, s.lowGops, s.highGops});
        hi = std::max({hi, s.lowGops, s.highGops});
        m_ticker->addTick(r + 1, QString::fromStdString(s.label));
    }
    m_low->setBaseValue(baselineGops);
    m_high->setBaseValue(baselineGops);
    m_low->setData(keys, low, true);
    m_high->setData(keys, high, true);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    m_low->setName(QStringLiteral("parameter −%1%").arg(pct));
    m_high->setName(QStringLiteral("parameter +%1%").arg(pct));
    m_baseline->point1->setCoords(baselineGops, 0);
    m_baseline->point2->setCoords(baselineGops, 1);
    const double margin = std::max((hi - lo) * 0.08, baselineGops * 0.01);
    xAxis->setRange(lo - margin, hi + margin);
    yAxis->setRange(0.4, shown + 0.6);
    xAxis->setLabel(QStringLiteral("P_att (Gops/s) when one parameter moves ±%1%; dashed: now (%2 Gops/s)")
                        .arg(pct, formatValue(baselineGops)));
}

} // namespace studio
