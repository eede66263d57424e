// Fuzz harness: the Verrocchio trace, both forms (core/verrocchio/traceio.cpp,
// tracetext.cpp): the input is read as JSON and as the text form.
#include "fuzzcheck.h"
#include "verrocchio/io.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace roofline::verrocchio;
    const std::string text(reinterpret_cast<const char *>(data), size);
    const TraceLoadResult json = parseTrace(text, "fuzz.json");
    FUZZ_CHECK_ONE_OF(json, trace);
    const TraceLoadResult plain = parseTraceText(text, "fuzz.txt");
    FUZZ_CHECK_ONE_OF(plain, trace);
    return 0;
}
