// A tornado chart: P_att when each parameter moves by −step and +step, the
// parameters that matter most on top. The numbers come from
// roofline::gables::sensitivity(), i.e. from the model.
#pragma once

#include "gables/sensitivity.h"

#include <qcustomplot.h>

namespace studio {

class SensitivityChart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit SensitivityChart(QWidget *parent = nullptr);

    void setModel(const roofline::gables::Soc &soc, double baselineGops, double relativeStep = 0.1);
    const std::vector<roofline::gables::Sensitivity> &rows() const { return m_rows; } // all, largest swing first

    static constexpr int maxRows = 8;

private:
    QCPBars *m_low = nullptr;
    QCPBars *m_high = nullptr;
    QCPItemStraightLine *m_baseline = nullptr;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    std::vector<roofline::gables::Sensitivity> m_rows;
};

} // namespace studio
