// Fuzz harness: nn-Meter fusion-rule files (core/nnmeter/io.cpp), registered
// in tests/fuzz/CMakeLists.txt. Rules that load must write back and read equal, and kernel
// detection under them must put every layer of a network with units and
// multi-inbound/outbound nodes in exactly one kernel.
#include "network/io.h"
#include "nnmeter/io.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

const roofline::network::Network &testNetwork()
{
    // conv-bn-relu, a residual add with two consumers of one node, an SE block, a view.
    static const roofline::network::Network net = [] {
        const char *text = R"({"format": "roofline-studio/amaix-network", "version": 1, "name": "f",
          "inputs": [{"name": "data", "shape": [8, 16, 16]}],
          "layers": [
            {"name": "c", "type": "convolution", "out_channels": 8, "kernel": 3, "pad": 1},
            {"name": "b", "type": "batch_norm"},
            {"name": "r", "type": "activation", "function": "relu"},
            {"name": "a", "type": "eltwise_add", "inputs": ["r", "data"]},
            {"name": "g", "type": "pooling", "mode": "average", "global": true},
            {"name": "f1", "type": "convolution", "out_channels": 2, "kernel": 1},
            {"name": "r1", "type": "activation", "function": "relu"},
            {"name": "f2", "type": "convolution", "out_channels": 8, "kernel": 1},
            {"name": "s", "type": "activation", "function": "sigmoid"},
            {"name": "m", "type": "eltwise_mul", "inputs": ["a", "s"]},
            {"name": "o", "type": "eltwise_add", "inputs": ["m", "a"]},
            {"name": "fl", "type": "flatten"},
            {"name": "fc", "type": "fully_connected", "out_channels": 4}]})";
        auto loaded = roofline::network::parseNetwork(text, "f.json");
        if (!loaded.network)
            std::abort();
        return *loaded.network;
    }();
    return net;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::nnmeter;
    const RulesLoad r = parseRules(std::string(reinterpret_cast<const char *>(data), size), "fuzz.json");
    if (r.rules.has_value() == r.diagnostics.hasErrors())
        std::abort();
    if (r.rules) {
        const RulesLoad back = parseRules(serializeRules(*r.rules), "back.json");
        if (!back.rules || !(*back.rules == *r.rules))
            std::abort();
        const Detection d = detectKernels(testNetwork(), *r.rules);
        std::vector<int> seen(testNetwork().layers.size(), 0);
        for (const Kernel &k : d.kernels)
            for (int m : k.layers)
                ++seen[std::size_t(m)];
        for (int s : seen)
            if (s != 1)
                std::abort();
    }
    return 0;
}
