#include "brouwerformat.h"

#include "units.h"

#include <algorithm>
#include <cmath>

namespace studio {

namespace {

// `value` rounded to `digits` significant digits (so 999.6 at 3 digits is 1000).
double rounded(double value, int digits)
{
    return QString::number(value, 'g', digits).toDouble();
}

} // namespace

QString brouwerNumberText(double value, int significantDigits)
{
    significantDigits = std::clamp(significantDigits, 1, 15);
    if (!std::isfinite(value))
        return QStringLiteral("—");
    const double r = rounded(value, significantDigits), a = std::abs(r);
    if (a == 0)
        return QStringLiteral("0");
    const int exponent = int(std::floor(std::log10(a)));
    if (a >= 1e-3 && a < 1e6) {
        // Like 'g' without its exponent: 40, 1.5, 0.00625, 123457.
        QString text = QString::number(r, 'f', std::max(0, significantDigits - 1 - exponent));
        if (text.contains(QLatin1Char('.'))) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(QLatin1Char('.')))
                text.chop(1);
        }
        return text;
    }
    static const QString digits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString power;
    for (const QChar c : QString::number(exponent))
        power += c == QLatin1Char('-') ? QStringLiteral("⁻") : QString(digits[c.digitValue()]);
    return QString::number(r / std::pow(10.0, exponent), 'f', significantDigits - 1) + QStringLiteral(" × 10")
        + power;
}

QString brouwerTimeText(double ms, int significantDigits)
{
    if (!std::isfinite(ms))
        return QStringLiteral("—");
    const double ns = rounded(ms * 1e6, std::clamp(significantDigits, 1, 15));
    if (!automaticPrefixes())
        return brouwerNumberText(ns, significantDigits) + QStringLiteral(" ns");
    const double a = std::abs(ns);
    if (a < 1e3)
        return brouwerNumberText(ns, significantDigits) + QStringLiteral(" ns");
    if (a < 1e6)
        return brouwerNumberText(ns / 1e3, significantDigits) + QStringLiteral(" µs");
    if (a < 1e9)
        return brouwerNumberText(ns / 1e6, significantDigits) + QStringLiteral(" ms");
    // Seconds from there on, as a power of ten beyond 10⁶ s: never ks, Ms or Gs.
    return brouwerNumberText(ns / 1e9, significantDigits) + QStringLiteral(" s");
}

} // namespace studio
