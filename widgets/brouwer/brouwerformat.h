// Number and time text for the Brouwer view (readout, layer table, tooltips,
// fit panel): scaled time units (ns … ms, s) and, where the seed's Table 2
// predicts absurd times, powers of ten a person reads ("1.19 × 10¹¹ s"),
// never e-notation ("1.191e+11").
#pragma once

#include <QString>

namespace studio {

// `significantDigits` digits; from 10⁶ on (and below 10⁻³ but not 0) as
// "m × 10ⁿ" with superscript digits: 1.19 × 10¹¹, 4.6 × 10⁻⁷.
QString brouwerNumberText(double value, int significantDigits = 3);

// A time given in ms: with automatic prefixes (Edit ▸ Preferences) in the
// unit that keeps it between 1 and 1000 (ns, µs, ms, s), beyond 1000 s in
// seconds (from 10⁶ s on as a power of ten); with base units always in ns.
QString brouwerTimeText(double ms, int significantDigits = 3);

} // namespace studio
