// Fuzz harness: the measured-times CSV (core/amaix/measuredio.cpp). Every time
// that loads is finite and >= 0.
#include "amaix/io.h"
#include "fuzzcheck.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::amaix;
    const MeasuredLoad r = parseMeasuredCsv(std::string(reinterpret_cast<const char *>(data), size), "fuzz.csv");
    FUZZ_CHECK_ONE_OF(r, times);
    return 0;
}
