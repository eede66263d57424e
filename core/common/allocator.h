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
// With a reservation made (reserveHugePages()), renews it after the trim.
void releaseFreedMemory();

// Every thread allocates from the one heap (glibc: a single arena) instead of
// one heap per thread. The studio's timeline worker allocates each result on
// its own thread and the GUI thread the first one; in one heap the memory one
// frees serves the other, and reserveHugePages() covers both. Call at the
// start of main(), before any thread starts; the studio does, the
// command-line tool (whose sweeps allocate on both cores at once) does not.
// Does nothing on other C libraries.
void shareOneHeap();

// Prepares the heap for `bytes` more of allocations whose first touch maps a
// 2 MiB page at a time instead of 4 KiB, where Linux offers transparent huge
// pages on request (/sys/kernel/mm/transparent_hugepage/enabled "madvise" or
// "always"): grows the heap by that much without touching it (nothing becomes
// resident) and advises huge pages on the whole heap (madvise MADV_HUGEPAGE).
// On the development VM a fresh 4 KiB page costs some 11 µs, so a
// 10⁶-instruction slider step that maps 100 MB afresh spent some 280 ms in
// page faults; in 2 MiB pages the same 100 MB take 6–7 ms
// (docs/performance.md). For long traces, where keeping a second result's
// memory mapped would cost too much resident memory. The reservation holds
// until the heap is trimmed; releaseFreedMemory() renews the last one.
// Cheap when the heap is already as large (a few system calls). Does nothing
// but grow the heap where huge pages are not offered; nothing on other C
// libraries or systems.
void reserveHugePages(std::size_t bytes);

// Whether this build reserves huge pages (glibc on Linux, no AddressSanitizer)
// and the system offers them on request (tests).
bool hugePagesOffered();
// Whether the memory at `address` is advised for huge pages and they are
// offered (tests; reads /proc/self/smaps).
bool advisedForHugePages(const void *address);

} // namespace roofline
