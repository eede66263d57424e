#include "units.h"

#include <qcustomplot.h>

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

void updateLogTickFormat(QCPAxis *axis)
{
    const QCPRange r = axis->range();
    const bool powers = axis->scaleType() == QCPAxis::stLogarithmic && (r.upper > 1e5 || r.lower < 1e-3);
    axis->setNumberFormat(powers ? QStringLiteral("eb") : QStringLiteral("g"));
    axis->setNumberPrecision(powers ? 0 : 6);
}

TimeUnit timeUnitFor(double maxNs)
{
    struct Candidate { double perNs; const char16_t *name; };
    static const Candidate units[] = {{1e-9, u"s"}, {1e-6, u"ms"}, {1e-3, u"µs"}, {1, u"ns"},
                                      {1e3, u"ps"}, {1e6, u"fs"}, {1e9, u"as"}};
    for (const Candidate &u : units) {
        if (maxNs * u.perNs >= 1)
            return {u.perNs, QString::fromUtf16(u.name)};
    }
    return {1, QStringLiteral("ns")};
}

} // namespace studio
