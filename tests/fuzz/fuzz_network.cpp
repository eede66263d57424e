// Fuzz harness: our network JSON (core/network/networkio.cpp). A network that
// loads must write back and read equal, and count without overflow.
#include "fuzzcheck.h"
#include "network/io.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::network;
    const NetworkLoad r = parseNetwork(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    FUZZ_CHECK_ONE_OF(r, network);
    if (r.network) {
        const LayerCounts c = countNetwork(*r.network);
        FUZZ_CHECK(c.weights >= 0 && c.biases >= 0 && c.macs >= 0);
        const NetworkLoad back = parseNetwork(serialize(*r.network), "back.json");
        FUZZ_CHECK(back.network.has_value() && *back.network == *r.network);
    }
    return 0;
}
