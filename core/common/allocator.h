// Keeps freed memory in the process for the next model evaluation.
//
// A live timeline update at 10^5 instructions allocates and frees some 10 MB
// (timings, bars, contention records). With glibc's defaults those blocks are
// mapped fresh and given back to the system on every update, and touching the
// new pages costs about a millisecond per update in page faults; keeping them
// makes the next update reuse warm memory (docs/performance.md). Call once at
// the start of main(); does nothing on other C libraries.
#pragma once

#include <cstddef>

namespace roofline {

void keepFreedMemory();

// Maps `bytes` of heap for the calling thread ahead of its next allocations:
// allocates them, touches every page and frees them again, so that (after
// keepFreedMemory()) the thread's next allocations up to that size reuse
// pages that are already mapped. The timeline's worker does this once per
// trace opened: its first slider step after opening otherwise allocated a
// second result's worth of fresh pages (some 2 000 page faults at 10⁵
// instructions, 2–3 ms on the development VM) while the first result was
// still on screen. Does nothing on other C libraries.
void warmFreedMemory(std::size_t bytes);

// Gives the free memory inside the heap back to the system (glibc:
// malloc_trim). For after a one-off peak that later work will not reuse in the
// same shape: loading a 10⁶-instruction text trace held its text, its JSON
// translation and the parser's buffers (some 80 MB) and freed them in pieces
// the simulation's larger arrays did not fit, so the heap grew past them and
// the freed pages stayed resident (issue 15, text form: a 233 MB peak, 215 MB
// with the trim; docs/performance.md). Not for every update: the next touch of
// a released page is a page fault.
// Does nothing on other C libraries.
void releaseFreedMemory();

} // namespace roofline
