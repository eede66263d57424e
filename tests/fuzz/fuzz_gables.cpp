// Fuzz harness: the Gables SoC loader (core/gables/io.cpp), then the model.
// A file that loads must evaluate to finite times and write back to a file
// that loads equal.
#include "fuzzcheck.h"
#include "gables/io.h"
#include "gables/model.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::gables;
    const LoadResult r = parseSoc(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    FUZZ_CHECK_ONE_OF(r, soc);
    if (r.soc) {
        const Result result = evaluate(*r.soc);
        FUZZ_CHECK(std::isfinite(result.timeNs) && result.timeNs >= 0);
        FUZZ_CHECK(std::isfinite(result.attainableGops));
        const LoadResult back = parseSoc(serialize(*r.soc), "back.json");
        FUZZ_CHECK(back.soc.has_value());
    }
    return 0;
}
