#include "termschart.h"

#include "plotstyle.h"
#include "units.h"

#include <algorithm>
#include <numeric>

namespace studio {

using namespace roofline::gables;

TermsChart::TermsChart(QWidget *parent)
    : QCustomPlot(parent)
    , m_ticker(QSharedPointer<QCPAxisTickerText>::create())
{
    setUpBarChart(this, m_ticker);
    m_compute = addHorizontalBars(this, QStringLiteral("compute Cᵢ"), QColor(0x4c78a8), 0.38);
    m_link = addHorizontalBars(this, QStringLiteral("link Dᵢ/Bᵢ"), QColor(0xf58518), 0.38);
    m_memory = addHorizontalBars(this, QStringLiteral("shared: memory, cache, bus"), QColor(0x545454), 0.6);
    auto *group = new QCPBarsGroup(this);
    m_compute->setBarsGroup(group);
    m_link->setBarsGroup(group);

    m_maxLine = new QCPItemStraightLine(this);
    m_maxLine->setPen(QPen(Qt::black, 1, Qt::DashLine));
}

void TermsChart::setModel(const Soc &soc, const Result &result)
{
    // One row per active IP (compute and link bars) and one per shared
    // resource (DRAM, memory-side memory, each bus), ranked by time.
    struct Row
    {
        QString label;
        double compute = 0, link = 0, shared = 0;
        bool isIp = false;
        double time() const { return std::max({compute, link, shared}); }
    };
    std::vector<Row> rows;
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        if (result.ips[i].active)
            rows.push_back({QString::fromStdString(soc.ips[i].name), result.ips[i].computeNs, result.ips[i].linkNs, 0, true});
    }
    rows.push_back({QStringLiteral("memory"), 0, 0, result.memoryNs, false});
    if (soc.msmBandwidthGBps > 0)
        rows.push_back({QStringLiteral("mem-side mem."), 0, 0, result.msmNs, false});
    for (std::size_t j = 0; j < soc.buses.size(); ++j)
        rows.push_back({QStringLiteral("bus ") + QString::fromStdString(soc.buses[j].name), 0, 0, result.busNs[j], false});
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.time() > b.time(); });
    const int hidden = std::max(0, int(rows.size()) - maxRows);
    rows.resize(std::min<std::size_t>(rows.size(), maxRows));

    // Show times in a unit that keeps the numbers short (ns, ps, fs, ...).
    const double maxNs = soc.serialized ? std::max_element(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
                                              return a.time() < b.time();
                                          })->time()
                                        : result.timeNs;
    m_unit = timeUnitFor(maxNs);
    QVector<double> ipKeys, compute, link, sharedKeys, shared;
    m_ticker->clear();
    m_rows.clear();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const double key = double(r + 1);
        if (rows[r].isIp) {
            ipKeys << key;
            compute << rows[r].compute * m_unit.perNs;
            link << rows[r].link * m_unit.perNs;
        } else {
            sharedKeys << key;
            shared << rows[r].shared * m_unit.perNs;
        }
        m_rows << rows[r].label;
        m_ticker->addTick(key, rows[r].label);
    }
    double lastKey = double(rows.size());
    if (hidden > 0)
        m_ticker->addTick(++lastKey, QStringLiteral("(+%1 more)").arg(hidden));

    const double maxT = maxNs * m_unit.perNs;
    xAxis->setLabel(soc.serialized
                        ? QStringLiteral("Time per op of use-case work (%1/op); serialized: the IPs' times add up").arg(m_unit.name)
                        : QStringLiteral("Time per op of use-case work (%1/op); dashed: max T = 1/Pₐₜₜ").arg(m_unit.name));
    m_compute->setData(ipKeys, compute, true);
    m_link->setData(ipKeys, link, true);
    m_memory->setData(sharedKeys, shared, true);
    m_maxLine->point1->setCoords(maxT, 0);
    m_maxLine->point2->setCoords(maxT, 1);
    m_maxLine->setVisible(maxT > 0 && !soc.serialized);

    yAxis->setRange(0.4, lastKey + 0.6);
    xAxis->setRange(0, maxT > 0 ? maxT * 1.18 : 1);
}

QStringList TermsChart::rowLabels() const
{
    return m_rows;
}

} // namespace studio
