// Fuzz harness: the Brouwer view's part of a session file
// (core/brouwer/session.cpp; the studio's BrouwerDocument::restoreSession reads
// through it). Seeds: tests/fuzz/seeds/brouwer-session (parts as the studio
// writes them). Any input gives a part or errors, never both or neither; a
// part that loads holds only what the studio can show: a network with layers,
// memory and bytes per element in the slider's range, measured rows that
// came from its files, a compared snapshot that exists.
#include "brouwer/session.h"
#include "fuzzcheck.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void checkState(const roofline::brouwer::SessionState &s)
{
    using roofline::brouwer::SessionRanges;
    FUZZ_CHECK(!s.network.layers.empty());
    FUZZ_CHECK(s.params.availableBytes >= SessionRanges::minMemory * 0.999
               && s.params.availableBytes <= SessionRanges::maxMemory * 1.001);
    FUZZ_CHECK(s.params.bytesPerElement >= SessionRanges::minBytesPerElement
               && s.params.bytesPerElement <= SessionRanges::maxBytesPerElement);
    FUZZ_CHECK(s.measuredRows.empty() || !s.measuredFiles.empty());
    for (const auto &row : s.measuredRows)
        FUZZ_CHECK(std::isfinite(row.loadNs) && std::isfinite(row.execNs) && std::isfinite(row.memoryBytes));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    const roofline::brouwer::SessionPartLoad r = roofline::brouwer::parseSessionPartText(text, "fuzz.session.json");
    FUZZ_CHECK_ONE_OF(r, part);
    if (r.part) {
        checkState(r.part->current);
        for (const auto &snapshot : r.part->snapshots) {
            FUZZ_CHECK(!snapshot.name.empty());
            checkState(snapshot.state);
        }
        FUZZ_CHECK(r.part->compared >= -1 && r.part->compared < int(r.part->snapshots.size()));
    }
    return 0;
}
