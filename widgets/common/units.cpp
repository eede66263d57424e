#include "units.h"

#include <qcustomplot.h>

#include <algorithm>
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

namespace {
bool s_automaticPrefixes = true;

struct Prefix
{
    int exponent;
    const char16_t *symbol;
};
constexpr Prefix kPrefixes[] = {{-15, u"f"}, {-12, u"p"}, {-9, u"n"}, {-6, u"µ"}, {-3, u"m"}, {0, u""},
                                {3, u"k"},   {6, u"M"},   {9, u"G"},   {12, u"T"}, {15, u"P"}, {18, u"E"}};
// Units whose prefix may change; longest first so "ops/s" wins over "s".
const char16_t *const kBases[] = {u"ops/s", u"FLOP/s", u"MAC/s", u"B/s", u"ops", u"B", u"s"};
} // namespace

void setAutomaticPrefixes(bool automatic)
{
    s_automaticPrefixes = automatic;
}

bool automaticPrefixes()
{
    return s_automaticPrefixes;
}

QString formatQuantity(double value, const QString &unit, int significantDigits)
{
    const auto plain = [&] { return formatValue(value, significantDigits) + QLatin1Char(' ') + unit; };
    if (!s_automaticPrefixes || !std::isfinite(value) || value == 0)
        return plain();
    for (const char16_t *base : kBases) {
        const QString b = QString::fromUtf16(base);
        if (!unit.endsWith(b))
            continue;
        const QString prefix = unit.left(unit.size() - b.size());
        const Prefix *from = nullptr;
        for (const Prefix &p : kPrefixes) {
            if (prefix == QString::fromUtf16(p.symbol))
                from = &p;
        }
        if (!from)
            return plain();
        // Bytes and operations are never fractional: no milli-bytes.
        const int lowest = b == QLatin1String("s") ? -15 : 0;
        int exponent = from->exponent + 3 * int(std::floor(std::log10(std::abs(value)) / 3));
        exponent = std::clamp(exponent, std::max(lowest, -15), 18);
        for (const Prefix &p : kPrefixes) {
            if (p.exponent == exponent) {
                const double scaled = value * std::pow(10.0, from->exponent - exponent);
                return formatValue(scaled, significantDigits) + QLatin1Char(' ') + QString::fromUtf16(p.symbol) + b;
            }
        }
        return plain();
    }
    return plain();
}

PrefixedUnit prefixedUnit(double value, const QString &unit)
{
    // formatQuantity(value, unit) is "NUMBER UNIT"; the factor is NUMBER / value
    // up to rounding, so take it from the prefixes' exponents instead.
    const QString written = formatQuantity(value, unit, 17);
    const QString shown = written.section(QLatin1Char(' '), 1);
    if (shown == unit || shown.isEmpty())
        return {unit, 1};
    auto exponentOf = [](const QString &u, const QString &base) {
        const QString prefix = u.left(u.size() - base.size());
        for (const Prefix &p : kPrefixes) {
            if (prefix == QString::fromUtf16(p.symbol))
                return p.exponent;
        }
        return 0;
    };
    for (const char16_t *base : kBases) {
        const QString b = QString::fromUtf16(base);
        if (unit.endsWith(b) && shown.endsWith(b))
            return {shown, std::pow(10.0, exponentOf(unit, b) - exponentOf(shown, b))};
    }
    return {unit, 1};
}

namespace {
class ScaledLogTicker : public QCPAxisTickerLog
{
public:
    double factor = 1;

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        return QCPAxisTickerLog::getTickLabel(tick * factor, locale, formatChar, precision);
    }
};
} // namespace

void setLogAxisScale(QCPAxis *axis, double factor)
{
    auto ticker = axis->ticker().dynamicCast<ScaledLogTicker>();
    if (!ticker) {
        ticker = QSharedPointer<ScaledLogTicker>::create();
        ticker->setLogBase(10);
        ticker->setSubTickCount(8);
        axis->setTicker(ticker);
    }
    ticker->factor = factor;
}

void updateLogTickFormat(QCPAxis *axis)
{
    QCPRange r = axis->range();
    if (auto scaled = axis->ticker().dynamicCast<ScaledLogTicker>()) // the labels' numbers, not the coordinates
        r = QCPRange(r.lower * scaled->factor, r.upper * scaled->factor);
    const bool powers = axis->scaleType() == QCPAxis::stLogarithmic && (r.upper > 1e5 || r.lower < 1e-3);
    axis->setNumberFormat(powers ? QStringLiteral("eb") : QStringLiteral("g"));
    axis->setNumberPrecision(powers ? 0 : 6);
}

TimeUnit timeUnitFor(double maxNs)
{
    struct Candidate { double perNs; const char16_t *name; };
    static const Candidate units[] = {{1e-9, u"s"}, {1e-6, u"ms"}, {1e-3, u"µs"}, {1, u"ns"},
                                      {1e3, u"ps"}, {1e6, u"fs"}, {1e9, u"as"}};
    if (!s_automaticPrefixes)
        return {1, QStringLiteral("ns")};
    for (const Candidate &u : units) {
        if (maxNs * u.perNs >= 1)
            return {u.perNs, QString::fromUtf16(u.name)};
    }
    return {1, QStringLiteral("ns")};
}

} // namespace studio
