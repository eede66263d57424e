#include "sensitivitychart.h"

#include "plotstyle.h"
#include "units.h"

#include <algorithm>
#include <cmath>

namespace studio {

SensitivityChart::SensitivityChart(QWidget *parent)
    : QCustomPlot(parent)
    , m_ticker(QSharedPointer<QCPAxisTickerText>::create())
{
    setUpBarChart(this, m_ticker);
    // Nothing is drawn on the overlay layer: in the main paint buffer it costs no second
    // full-size buffer to clear and blend on every paint.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    m_low = addHorizontalBars(this, QStringLiteral("parameter −"), QColor(0xe45756), 0.6);
    m_high = addHorizontalBars(this, QStringLiteral("parameter +"), QColor(0x54a24b), 0.6);
    m_baseline = new QCPItemStraightLine(this);
    m_baseline->setPen(QPen(Qt::black, 1, Qt::DashLine));
}

void SensitivityChart::setRows(const std::vector<Row> &rows, double baseline, double relativeStep,
                               const QString &quantity, const QString &unit)
{
    m_shown.assign(rows.begin(), rows.begin() + std::min<std::ptrdiff_t>(maxRows, std::ptrdiff_t(rows.size())));
    const int shown = int(m_shown.size());
    QVector<double> keys, low, high;
    m_ticker->clear();
    double lo = baseline, hi = baseline;
    for (int r = 0; r < shown; ++r) {
        const Row &s = m_shown[std::size_t(r)];
        keys << r + 1;
        // QCPBars draw from the base value by the bar's value: store the change.
        low << s.low - baseline;
        high << s.high - baseline;
        lo = std::min({lo, s.low, s.high});
        hi = std::max({hi, s.low, s.high});
        m_ticker->addTick(r + 1, s.label);
    }
    m_low->setBaseValue(baseline);
    m_high->setBaseValue(baseline);
    m_low->setData(keys, low, true);
    m_high->setData(keys, high, true);
    const QString pct = QString::number(relativeStep * 100, 'g', 3);
    m_low->setName(QStringLiteral("parameter −%1%").arg(pct));
    m_high->setName(QStringLiteral("parameter +%1%").arg(pct));
    m_baseline->point1->setCoords(baseline, 0);
    m_baseline->point2->setCoords(baseline, 1);
    const double margin = std::max((hi - lo) * 0.08, std::abs(baseline) * 0.01);
    xAxis->setRange(lo - margin, hi + margin > lo - margin ? hi + margin : lo + 1);
    yAxis->setRange(0.4, std::max(shown, 1) + 0.6);
    xAxis->setLabel(QStringLiteral("%1 (%2) when one parameter moves ±%3%; dashed: now (%4 %2)")
                        .arg(quantity, unit, pct, formatValue(baseline)));
}

} // namespace studio
