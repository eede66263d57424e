// Fuzz harness: nn-Meter device files (core/nnmeter/io.cpp), resolved against
// the shipped examples/nnmeter folder so the rules and forests they name are
// read too. Registered in tests/fuzz/CMakeLists.txt. A device that loads must write back
// and read equal, and predict a finite latency for a small network.
#include "network/io.h"
#include "nnmeter/io.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#ifndef ROOFLINE_EXAMPLES_DIR
#define ROOFLINE_EXAMPLES_DIR "examples"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::nnmeter;
    const std::string dir = ROOFLINE_EXAMPLES_DIR "/nnmeter";
    const DeviceLoad r = parseDevice(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json", dir);
    if (r.device.has_value() == r.diagnostics.hasErrors())
        std::abort();
    if (r.device) {
        const DeviceLoad back = parseDevice(serializeDevice(*r.device), "back.json", dir);
        if (!back.device || !(*back.device == *r.device))
            std::abort();
        static const auto loaded = roofline::network::parseNetwork(
            R"({"format": "roofline-studio/amaix-network", "version": 1, "name": "f",
                "inputs": [{"name": "data", "shape": [8, 16, 16]}],
                "layers": [{"name": "c", "type": "convolution", "out_channels": 8, "kernel": 3, "pad": 1},
                           {"name": "b", "type": "batch_norm"}, {"name": "r", "type": "activation", "function": "relu"},
                           {"name": "fc", "type": "fully_connected", "out_channels": 4}]})",
            "f.json");
        if (!loaded.network)
            std::abort();
        const Prediction p = predictNetwork(*loaded.network, *r.device);
        if (!std::isfinite(p.kernelSumMs) || !std::isfinite(p.operatorSumMs) || !std::isfinite(p.flopsMs))
            std::abort();
    }
    return 0;
}
