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

namespace {
// The prefix `symbol` names, or nullptr (views of static strings: no allocation;
// a rule toggle of the nn-Meter view formats ~150 quantities, and building a
// QString per candidate prefix and base was 80 % of formatQuantity's cost).
const Prefix *prefixNamed(QStringView symbol)
{
    for (const Prefix &p : kPrefixes) {
        if (symbol == QStringView(p.symbol))
            return &p;
    }
    return nullptr;
}

const Prefix *prefixOfExponent(int exponent)
{
    for (const Prefix &p : kPrefixes) {
        if (p.exponent == exponent)
            return &p;
    }
    return nullptr;
}

// The base `unit` ends in (longest first), or an empty view.
QStringView baseOf(QStringView unit)
{
    for (const char16_t *base : kBases) {
        if (unit.endsWith(QStringView(base)))
            return QStringView(base);
    }
    return {};
}
} // namespace

QString formatQuantity(double value, const QString &unit, int significantDigits)
{
    const auto plain = [&] { return formatValue(value, significantDigits) + QLatin1Char(' ') + unit; };
    if (!s_automaticPrefixes || !std::isfinite(value) || value == 0)
        return plain();
    const QStringView b = baseOf(unit);
    if (b.isEmpty())
        return plain();
    const Prefix *from = prefixNamed(QStringView(unit).left(unit.size() - b.size()));
    if (!from)
        return plain();
    // Bytes and operations are never fractional: no milli-bytes.
    const int lowest = b == u"s" ? -15 : 0;
    int exponent = from->exponent + 3 * int(std::floor(std::log10(std::abs(value)) / 3));
    exponent = std::clamp(exponent, std::max(lowest, -15), 18);
    const Prefix *to = prefixOfExponent(exponent);
    if (!to)
        return plain();
    const double scaled = value * std::pow(10.0, from->exponent - exponent);
    QString out = formatValue(scaled, significantDigits);
    out += QLatin1Char(' ');
    out += QStringView(to->symbol);
    out += b;
    return out;
}

PrefixedUnit prefixedUnit(double value, const QString &unit)
{
    // formatQuantity(value, unit) is "NUMBER UNIT"; the factor is NUMBER / value
    // up to rounding, so take it from the prefixes' exponents instead.
    const QString written = formatQuantity(value, unit, 17);
    const QString shown = written.section(QLatin1Char(' '), 1);
    if (shown == unit || shown.isEmpty())
        return {unit, 1};
    const QStringView b = baseOf(unit);
    if (b.isEmpty() || !shown.endsWith(b))
        return {unit, 1};
    const auto exponentOf = [&](QStringView u) {
        const Prefix *p = prefixNamed(u.left(u.size() - b.size()));
        return p ? p->exponent : 0;
    };
    return {shown, std::pow(10.0, exponentOf(unit) - exponentOf(shown))};
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
