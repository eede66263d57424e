// Number formatting for readouts, labels and tooltips.
#pragma once

#include <QString>

class QCPAxis;

namespace studio {

// Significant digits without needless exponents: 40, 1.328, 0.00625, 2.5e+07.
QString formatValue(double value, int significantDigits = 4);

// A time unit that puts `maxNs` between 1 and 1000: ns values times `perNs`
// are in `name` (e.g. 1.9e-4 ns -> 190 fs).
// Tick labels: plain numbers while they stay short (0.001 … 100000); on a log
// axis beyond that, powers of ten on every tick, never a mix of both.
void updateLogTickFormat(QCPAxis *axis);

struct TimeUnit
{
    double perNs = 1;
    QString name;
};
TimeUnit timeUnitFor(double maxNs);

} // namespace studio
