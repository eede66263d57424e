// Fuzz harness: the session file (core/common/session.cpp), with the views
// this build has. A session gives a value or errors, never both or neither.
#include "common/session.h"
#include "fuzzcheck.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::vector<std::string> views{"gables", "amaix", "timeline", "brouwer", "nnmeter"};
    const roofline::SessionLoad r
        = roofline::parseSession(std::string(reinterpret_cast<const char *>(data), size), "fuzz.session.json", views);
    FUZZ_CHECK_ONE_OF(r, session);
    return 0;
}
