// Number formatting for readouts, labels and tooltips.
#pragma once

#include <QString>

class QCPAxis;

namespace studio {

// Significant digits without needless exponents: 40, 1.328, 0.00625, 2.5e+07.
QString formatValue(double value, int significantDigits = 4);

// Unit prefixes (Edit ▸ Preferences): automatic SI prefixes that keep
// numbers between 1 and 1000 (1.6 Tops/s, 190 µs), or always the models'
// base units (Gops/s, GB/s, ns), so numbers compare directly with the papers.
void setAutomaticPrefixes(bool automatic);
bool automaticPrefixes();

// `value` in `unit` ("Gops/s", "GB/s", "ns", "B"), rescaled to the SI prefix
// that keeps it between 1 and 1000 when automatic prefixes are on:
// formatQuantity(1600, "Gops/s") == "1.6 Tops/s". Units it does not know
// (and zero, and base-unit mode) keep the unit as given.
QString formatQuantity(double value, const QString &unit, int significantDigits = 4);

// The unit formatQuantity() writes `value` in, and the factor from `unit` to
// it: prefixedUnit(1600, "Gops/s") gives "Tops/s" and 0.001. Axes use it to
// speak the readout's unit.
struct PrefixedUnit
{
    QString unit;
    double factor = 1;
};
PrefixedUnit prefixedUnit(double value, const QString &unit);

// A log axis whose tick labels show the coordinate times `factor` (ticks at
// the same places): a Gops/s axis labelled in Tops/s. Replaces the axis'
// ticker with a log ticker (8 sub-ticks) when it is not one of these yet.
void setLogAxisScale(QCPAxis *axis, double factor);

// Tick labels: plain numbers while they stay short (0.001 … 100000); on a log
// axis beyond that, powers of ten on every tick, never a mix of both.
void updateLogTickFormat(QCPAxis *axis);

// A time unit that puts `maxNs` between 1 and 1000: ns values times `perNs`
// are in `name` (e.g. 1.9e-4 ns -> 190 fs). Always ns with base units.
struct TimeUnit
{
    double perNs = 1;
    QString name;
};
TimeUnit timeUnitFor(double maxNs);

} // namespace studio
