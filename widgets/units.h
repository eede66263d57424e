// Number formatting for readouts, labels and tooltips.
#pragma once

#include <QString>

namespace studio {

// Significant digits without needless exponents: 40, 1.328, 0.00625, 2.5e+07.
QString formatValue(double value, int significantDigits = 4);

} // namespace studio
