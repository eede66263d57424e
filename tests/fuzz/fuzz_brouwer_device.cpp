// Fuzz harness for Brouwer device files (core/brouwer/deviceio.cpp), picked up
// by the `fuzz` preset (issue 14). Link with roofline_brouwer; seed corpus:
// examples/brouwer/*.json. Any input must give a device or diagnostics, never a
// crash or a hang; a device that loads must write and read back equal, and its
// predictions must be finite.
#include "brouwer/io.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::brouwer;
    const std::string text(reinterpret_cast<const char *>(data), size);
    const DeviceLoad r = parseDevice(text, "fuzz.json");
    if (r.device.has_value() == r.diagnostics.hasErrors())
        std::abort();
    if (r.device) {
        const DeviceLoad back = parseDevice(serialize(*r.device), "fuzz.json");
        if (!back.device || !(*back.device == *r.device))
            std::abort();
        LayerFeatures l;
        l.category = Category::Conv;
        l.inputs = 1e6;
        l.parameters = 1e7;
        l.outputs = 1e6;
        l.multiplications = 1e12;
        for (double memory : {1e3, 1e12}) {
            const LayerPrediction p = predictLayer(*r.device, l, {memory, 4});
            if (!std::isfinite(p.totalMs(false)) || !std::isfinite(p.totalMs(true)))
                std::abort();
        }
    }
    return 0;
}
