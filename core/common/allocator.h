// Keeps freed memory in the process for the next model evaluation.
//
// A live timeline update at 10^5 instructions allocates and frees some 10 MB
// (timings, bars, contention records). With glibc's defaults those blocks are
// mapped fresh and given back to the system on every update, and touching the
// new pages costs about a millisecond per update in page faults; keeping them
// makes the next update reuse warm memory (docs/performance.md). Call once at
// the start of main(); does nothing on other C libraries.
#pragma once

namespace roofline {

void keepFreedMemory();

} // namespace roofline
