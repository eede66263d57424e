// Fuzz harness: the Verrocchio machine description (core/verrocchio/machineio.cpp).
// A machine that loads must write back to a file that loads.
#include "fuzzcheck.h"
#include "verrocchio/io.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::verrocchio;
    const MachineLoadResult r = parseMachine(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    FUZZ_CHECK_ONE_OF(r, machine);
    if (r.machine) {
        const MachineLoadResult back = parseMachine(serialize(*r.machine), "back.json");
        FUZZ_CHECK(back.machine.has_value());
    }
    return 0;
}
