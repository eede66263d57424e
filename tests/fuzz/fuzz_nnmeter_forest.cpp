// Fuzz harness: nn-Meter forest files (learned kernel predictors,
// core/nnmeter/io.cpp). Registered in tests/fuzz/CMakeLists.txt.
// A forest that loads must write back and read equal and predict a finite,
// non-negative latency (or nothing) for any feature vector, and never loop.
#include "nnmeter/io.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::nnmeter;
    const ForestLoad r = parseForest(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    if (r.forest.has_value() == r.diagnostics.hasErrors())
        std::abort();
    if (r.forest) {
        const ForestLoad back = parseForest(serializeForest(*r.forest), "back.json");
        if (!back.forest || !(*back.forest == *r.forest))
            std::abort();
        for (double v : {0.0, 1.0, 1e9, -1.0, std::nan("")}) {
            const auto ms = r.forest->predictMs(std::vector<double>(r.forest->features.size(), v));
            if (ms && (!std::isfinite(*ms) || *ms < 0))
                std::abort();
        }
    }
    return 0;
}
