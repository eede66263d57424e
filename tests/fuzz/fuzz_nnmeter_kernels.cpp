// Fuzz harness: per-kernel latencies measured in network runs (the kernel lab's
// kernels.csv; core/nnmeter/measured.cpp), registered in tests/fuzz/CMakeLists.txt.
// A file either loads or has errors, never both; what loads has a name, a first
// layer, at least one member and latencies from 0, and writes back to the same rows.
#include "nnmeter/measured.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::nnmeter;
    const KernelLatencyLoad k = parseKernelLatencies(std::string(reinterpret_cast<const char *>(data), size), "fuzz.csv");
    if (k.rows.has_value() == k.diagnostics.hasErrors())
        std::abort();
    if (k.rows) {
        for (const KernelLatency &r : *k.rows)
            if (r.network.empty() || r.firstLayer.empty() || r.type.empty() || r.operators < 1 || r.kernel < 0
                || !(r.measuredMs >= 0))
                std::abort();
        const KernelLatencyLoad back = parseKernelLatencies(serializeKernelLatencies(*k.rows), "back.csv");
        if (!back.rows || *back.rows != *k.rows)
            std::abort();
    }
    return 0;
}
