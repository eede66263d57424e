// A tornado chart: a view's headline result (Gables: P_att; AMAIX: inference
// time; timeline: total time) when each parameter alone moves by −step and
// +step, the parameters that matter most on top. The numbers come from the
// model (roofline::gables::sensitivity() and its AMAIX and Verrocchio
// counterparts), never from the screen: each view turns its model's rows
// into Rows.
#pragma once

#include <QString>

#include <qcustomplot.h>

#include <vector>

namespace studio {

class SensitivityChart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit SensitivityChart(QWidget *parent = nullptr);

    struct Row
    {
        QString label; // the parameter: "Bpeak", "MTE2 bandwidth"
        double low = 0;  // the headline result with the parameter at (1 − step)
        double high = 0; // at (1 + step)
    };
    // Shows the first maxRows rows (sorted by the caller, largest swing first).
    // `quantity` and `unit` name the result on the axis: "P_att", "Gops/s".
    void setRows(const std::vector<Row> &rows, double baseline, double relativeStep, const QString &quantity,
                 const QString &unit);
    const std::vector<Row> &shownRows() const { return m_shown; }

    static constexpr int maxRows = 8;

private:
    QCPBars *m_low = nullptr;
    QCPBars *m_high = nullptr;
    QCPItemStraightLine *m_baseline = nullptr;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    std::vector<Row> m_shown;
};

} // namespace studio
