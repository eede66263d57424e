// Fuzz harness for measured per-layer times in CSV (core/brouwer/fit.cpp:
// EdgeCaffe's format and ours), picked up by the `fuzz` preset (issue 14). Link
// with roofline_brouwer; seed corpus: tests/data/edgecaffe/measured/*.csv. Any
// input must give rows or diagnostics, never a crash or a hang, and every row's
// times must be finite and non-negative.
#include "brouwer/fit.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::brouwer;
    const std::string text(reinterpret_cast<const char *>(data), size);
    const MeasuredLoad r = parseMeasuredCsv(text, "fuzz.csv");
    if (r.diagnostics.hasErrors() != r.rows.empty())
        std::abort();
    for (const MeasuredRow &row : r.rows)
        if (!(row.loadNs >= 0) || !(row.execNs >= 0) || !(row.memoryBytes >= 0) || !std::isfinite(row.loadNs)
            || !std::isfinite(row.execNs) || !std::isfinite(row.memoryBytes))
            std::abort();
    return 0;
}
