// Fuzz harness: measured end-to-end latencies (core/nnmeter/measured.cpp),
// registered in tests/fuzz/CMakeLists.txt. A file either loads or has errors,
// never both; what loads writes back and reads equal, every latency positive.
#include "nnmeter/measured.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::nnmeter;
    const MeasuredLoad m = parseMeasuredLatencies(std::string(reinterpret_cast<const char *>(data), size), "fuzz.csv");
    if (m.rows.has_value() == m.diagnostics.hasErrors())
        std::abort();
    if (m.rows) {
        for (const MeasuredLatency &r : *m.rows)
            if (!(r.measuredMs > 0) || r.network.empty())
                std::abort();
        const MeasuredLoad back = parseMeasuredLatencies(serializeMeasuredLatencies(*m.rows), "back.csv");
        if (!back.rows || *back.rows != *m.rows)
            std::abort();
    }
    return 0;
}
