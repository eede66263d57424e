#include "units.h"

#include <cmath>

namespace studio {

QString formatValue(double value, int significantDigits)
{
    if (!std::isfinite(value))
        return QStringLiteral("—"); // never show NaN or inf to a person
    if (value != 0 && (std::abs(value) >= 1e7 || std::abs(value) < 1e-4))
        return QString::number(value, 'g', significantDigits);
    return QString::number(value, 'g', std::max(significantDigits, 1 + int(std::floor(std::log10(std::max(std::abs(value), 1.0))))));
}

} // namespace studio
