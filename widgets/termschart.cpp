#include "termschart.h"

#include "units.h"

#include <algorithm>
#include <numeric>

namespace studio {

using namespace roofline::gables;

TermsChart::TermsChart(QWidget *parent)
    : QCustomPlot(parent)
    , m_ticker(QSharedPointer<QCPAxisTickerText>::create())
{
    setMinimumHeight(150);
    setAntialiasedElements(QCP::aeAll);

    yAxis->setTicker(m_ticker);
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setTickLength(0, 0);
    xAxis->setNumberFormat(QStringLiteral("g"));
    for (QCPAxis *axis : {xAxis, yAxis}) {
        QFont f = axis->tickLabelFont();
        f.setPointSize(9);
        axis->setTickLabelFont(f);
        QFont lf = axis->labelFont();
        lf.setPointSize(9);
        axis->setLabelFont(lf);
    }

    auto makeBars = [this](const QString &name, const QColor &color) {
        auto *bars = new QCPBars(yAxis, xAxis);
        bars->setName(name);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(color);
        bars->setWidth(0.38);
        return bars;
    };
    m_compute = makeBars(QStringLiteral("compute C_i"), QColor(0x4c78a8));
    m_link = makeBars(QStringLiteral("link D_i/B_i"), QColor(0xf58518));
    m_memory = makeBars(QStringLiteral("memory T_mem"), QColor(0x545454));
    m_memory->setWidth(0.6);
    auto *group = new QCPBarsGroup(this);
    m_compute->setBarsGroup(group);
    m_link->setBarsGroup(group);

    m_maxLine = new QCPItemStraightLine(this);
    m_maxLine->setPen(QPen(Qt::black, 1, Qt::DashLine));

    legend->setVisible(true);
    QFont lf = font();
    lf.setPointSize(8);
    legend->setFont(lf);
    legend->setBrush(QColor(255, 255, 255, 220));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
}

void TermsChart::setModel(const Soc &soc, const Result &result)
{
    // Rank active IPs by their time T_i; keep the top rows.
    std::vector<int> order;
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        if (result.ips[i].active)
            order.push_back(int(i));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return result.ips[std::size_t(a)].timeNs > result.ips[std::size_t(b)].timeNs; });
    const int hidden = std::max(0, int(order.size()) - (maxRows - 1));
    order.resize(std::min<std::size_t>(order.size(), maxRows - 1));

    QVector<double> keys, compute, link;
    m_ticker->clear();
    m_rows.clear();
    double key = 1;
    // Memory goes in its rank among the IPs, so the longest bar is on top.
    bool memoryPlaced = false;
    double memoryKey = 0;
    for (int ip : order) {
        if (!memoryPlaced && result.memoryNs >= result.ips[std::size_t(ip)].timeNs) {
            memoryKey = key++;
            memoryPlaced = true;
            m_rows << QStringLiteral("memory");
        }
        keys << key;
        compute << result.ips[std::size_t(ip)].computeNs;
        link << result.ips[std::size_t(ip)].linkNs;
        m_rows << QString::fromStdString(soc.ips[std::size_t(ip)].name);
        ++key;
    }
    if (!memoryPlaced) {
        memoryKey = key++;
        m_rows << QStringLiteral("memory");
    }
    for (int i = 0; i < m_rows.size(); ++i)
        m_ticker->addTick(i + 1, m_rows[i]);
    if (hidden > 0) {
        m_ticker->addTick(key, QStringLiteral("(+%1 more)").arg(hidden));
        ++key;
    }

    // Show times in a unit that keeps the numbers short (ns, ps, fs, ...).
    m_unit = timeUnitFor(result.timeNs);
    for (double &v : compute)
        v *= m_unit.perNs;
    for (double &v : link)
        v *= m_unit.perNs;
    const double maxT = result.timeNs * m_unit.perNs;
    xAxis->setLabel(QStringLiteral("Time per op of use-case work (%1/op); dashed: max T = 1/P_att").arg(m_unit.name));
    m_compute->setData(keys, compute, true);
    m_link->setData(keys, link, true);
    m_memory->setData(QVector<double>{memoryKey}, QVector<double>{result.memoryNs * m_unit.perNs}, true);
    m_maxLine->point1->setCoords(maxT, 0);
    m_maxLine->point2->setCoords(maxT, 1);
    m_maxLine->setVisible(maxT > 0);

    yAxis->setRange(0.4, key - 0.4);
    xAxis->setRange(0, maxT > 0 ? maxT * 1.18 : 1);
}

QStringList TermsChart::rowLabels() const
{
    return m_rows;
}

} // namespace studio
