#include "allocator.h"

#include <cstdlib> // defines __GLIBC__ on glibc

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <fstream>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
// Not under AddressSanitizer, whose allocator is not glibc's heap (and would
// poison the shadow of every reserved block).
#if defined(__GLIBC__) && defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
#include <sys/mman.h>
#include <unistd.h>
#define ROOFLINE_HUGE_PAGES 1
#endif

namespace roofline {

#if defined(__GLIBC__)
namespace {
constexpr int kMmapThreshold = 64 << 20;
constexpr int kTrimThreshold = 512 << 20;
// A reservation freed at the heap's top stays below the trim threshold.
constexpr std::size_t kMaxReservation = std::size_t(kTrimThreshold) - (std::size_t(64) << 20);
} // namespace
#endif

#if defined(ROOFLINE_HUGE_PAGES)
namespace {
// Where the heap began when the process first set up its allocator (the
// program break before main()'s first allocations of size), and the last reservation.
std::atomic<std::uintptr_t> heapStart{0};
std::atomic<std::size_t> reserved{0};
void *volatile reservedBlock = nullptr;

std::uintptr_t programBreak()
{
    return reinterpret_cast<std::uintptr_t>(sbrk(0));
}

void noteHeapStart()
{
    std::uintptr_t expected = 0;
    heapStart.compare_exchange_strong(expected, programBreak());
}
} // namespace
#endif

void keepFreedMemory()
{
#if defined(__GLIBC__)
    // Blocks up to 64 MiB come from the heap instead of their own mapping, and
    // the heap is only trimmed when 512 MiB lie free at its top.
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
#endif
#if defined(ROOFLINE_HUGE_PAGES)
    noteHeapStart();
#endif
}

void warmFreedMemory(std::size_t bytes)
{
#if defined(__GLIBC__)
    if (bytes == 0)
        return;
    void *block = std::malloc(bytes);
    if (!block)
        return; // nothing warmed; the next allocations map their own pages as before
    auto *bytePointer = static_cast<volatile unsigned char *>(block);
    constexpr std::size_t kPage = 4096; // at most the page size: a touch per page at least
    for (std::size_t offset = 0; offset < bytes; offset += kPage)
        bytePointer[offset] = 0;
    std::free(block);
#else
    (void)bytes;
#endif
}

void releaseFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0); // may shrink the heap, and with it a reservation
#endif
#if defined(ROOFLINE_HUGE_PAGES)
    if (const std::size_t bytes = reserved.load())
        reserveHugePages(bytes);
#endif
}

void shareOneHeap()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
#endif
}

void reserveHugePages(std::size_t bytes)
{
#if defined(ROOFLINE_HUGE_PAGES)
    if (bytes == 0)
        return;
    reserved.store(bytes);
    noteHeapStart();
    // One block from the heap, not a mapping of its own (the threshold
    // raised for it): the heap grows by what its free memory lacks, and only
    // the block's header and the heap's top are written. Freed, it stays in
    // the heap (below the trim threshold), untouched.
    bytes = std::min(bytes, kMaxReservation);
    mallopt(M_MMAP_THRESHOLD, static_cast<int>(bytes + (std::size_t(1) << 20)));
    void *block = std::malloc(bytes);
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    reservedBlock = block; // seen: the compiler may not leave out the allocation
    std::free(block);
    // The whole heap, in whole huge pages: the memory freed inside it too.
    constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
    const std::uintptr_t begin = (heapStart.load() + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = programBreak() & ~(kHugePage - 1);
    if (end > begin)
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE); // may fail: no huge pages then
#else
    (void)bytes;
#endif
}

bool hugePagesOffered()
{
#if defined(ROOFLINE_HUGE_PAGES)
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    std::getline(mode, modes);
    return modes.find("[madvise]") != std::string::npos || modes.find("[always]") != std::string::npos;
#else
    return false;
#endif
}

bool advisedForHugePages(const void *address)
{
#if defined(ROOFLINE_HUGE_PAGES)
    if (!hugePagesOffered())
        return false;
    // The mapping that holds `address` carries the advice as "hg" among its VmFlags.
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool holds = false;
    while (std::getline(smaps, line)) {
        // A mapping's first line starts with its range, "begin-end" in hex;
        // its other lines with a field name and a colon.
        const std::size_t dash = line.find('-');
        const std::size_t space = line.find(' ');
        if (dash != std::string::npos && dash < space && line.find(':') > space) {
            const std::uintptr_t begin = std::stoull(line.substr(0, dash), nullptr, 16);
            const std::uintptr_t end = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
            holds = begin <= at && at < end;
        } else if (holds && line.rfind("VmFlags:", 0) == 0) {
            return (line + ' ').find(" hg ") != std::string::npos;
        }
    }
    return false;
#else
    (void)address;
    return false;
#endif
}

} // namespace roofline
