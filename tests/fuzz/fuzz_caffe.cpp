// Fuzz harness for the Caffe prototxt importer (core/network/caffeimport.cpp),
// picked up by the `fuzz` preset (issue 14). Link with roofline_import; seed
// corpus: tests/data/edgecaffe/*.prototxt. Any input must give a network or
// diagnostics, never a crash or a hang; a network that imports must write to
// our JSON and read back equal.
#include "network/import.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::network;
    const std::string text(reinterpret_cast<const char *>(data), size);
    const NetworkLoad r = importCaffe(text, "fuzz.prototxt");
    if (r.network.has_value() == r.diagnostics.hasErrors())
        std::abort();
    if (r.network) {
        const NetworkLoad back = parseNetwork(serialize(*r.network), "fuzz.json");
        if (!back.network || !(*back.network == *r.network))
            std::abort();
    }
    return 0;
}
