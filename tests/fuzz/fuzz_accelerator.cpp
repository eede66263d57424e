// Fuzz harness: the AMAIX accelerator loader (core/amaix/acceleratorio.cpp).
// An accelerator that loads must write back to a file that loads.
#include "amaix/io.h"
#include "fuzzcheck.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::amaix;
    const AcceleratorLoad r = parseAccelerator(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    FUZZ_CHECK_ONE_OF(r, accelerator);
    if (r.accelerator) {
        const AcceleratorLoad back = parseAccelerator(serialize(*r.accelerator), "back.json");
        FUZZ_CHECK(back.accelerator.has_value());
    }
    return 0;
}
