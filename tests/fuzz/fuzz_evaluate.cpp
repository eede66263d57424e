// Fuzz harness: load, then evaluate or simulate (issue 14). The first byte
// picks the model; the rest is the file:
//   0: a Gables SoC, evaluated;
//   1: a Verrocchio trace (JSON or text form), simulated on examples/verrocchio/ascend310.json;
//   2: a network, evaluated by AMAIX on examples/amaix/nv_small.json and generic_dla.json.
// Whatever loads must give a finite result or a stated error, never a crash,
// a sanitizer report or a non-finite number.
#include "amaix/io.h"
#include "amaix/model.h"
#include "fuzzcheck.h"
#include "gables/io.h"
#include "gables/model.h"
#include "verrocchio/io.h"
#include "verrocchio/simulation.h"

#include <cstdint>
#include <string>

#ifndef ROOFLINE_EXAMPLES_DIR
#error "ROOFLINE_EXAMPLES_DIR must name examples/"
#endif

namespace {

const roofline::verrocchio::Machine &machine()
{
    static const auto load = roofline::verrocchio::loadMachineFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/ascend310.json");
    FUZZ_CHECK(load.machine.has_value());
    return *load.machine;
}

const roofline::amaix::Accelerator &accelerator(int which)
{
    static const auto small = roofline::amaix::loadAcceleratorFile(ROOFLINE_EXAMPLES_DIR "/amaix/nv_small.json");
    static const auto general = roofline::amaix::loadAcceleratorFile(ROOFLINE_EXAMPLES_DIR "/amaix/generic_dla.json");
    FUZZ_CHECK(small.accelerator && general.accelerator);
    return which == 0 ? *small.accelerator : *general.accelerator;
}

// Simulating is linear in the instructions; bigger traces only slow the fuzzer.
constexpr std::size_t kMaxSimulated = 200'000;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    switch (data[0] % 3) {
    case 0: {
        const auto r = roofline::gables::parseSoc(text, "fuzz.json");
        if (r.soc) {
            const auto result = roofline::gables::evaluate(*r.soc);
            FUZZ_CHECK(std::isfinite(result.timeNs) && result.timeNs >= 0 && std::isfinite(result.attainableGops));
        }
        break;
    }
    case 1: {
        using namespace roofline::verrocchio;
        const bool json = text.find('{') != std::string::npos;
        const TraceLoadResult r = json ? parseTrace(text, "fuzz.json") : parseTraceText(text, "fuzz.txt");
        if (r.trace && r.trace->instructionCount() <= kMaxSimulated) {
            const Result result = simulate(*r.trace, machine());
            FUZZ_CHECK(std::isfinite(result.totalNs) && result.totalNs >= 0);
        }
        break;
    }
    default: {
        using namespace roofline::amaix;
        const auto r = parseNetwork(text, "fuzz.json");
        if (r.network) {
            for (int which = 0; which < 2; ++which) {
                const Accelerator &a = accelerator(which);
                const Result result = evaluate(*r.network, a, withOfferedDataType(*r.network, a, {}));
                FUZZ_CHECK(!result.ok() || (std::isfinite(result.totalNs) && result.totalNs >= 0));
            }
        }
        break;
    }
    }
    return 0;
}
