// core/common/allocator.h: reserveHugePages() makes the heap's next
// allocations fault in 2 MiB pages without making anything resident, and
// releaseFreedMemory() keeps the reservation. Its own program: it shares one
// heap between threads (shareOneHeap()), as the studio does, from the start.
#include "common/allocator.h"
#include "residentmemory.h"
#include "testutils.h"

#include <QTest>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace {

long minorFaults()
{
    rusage usage {};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

// A counter of /proc/vmstat (-1 where there is none).
long long vmstat(const std::string &name)
{
    std::ifstream in("/proc/vmstat");
    std::string key;
    long long value = 0;
    while (in >> key >> value) {
        if (key == name)
            return value;
    }
    return -1;
}

constexpr std::size_t kMiB = std::size_t(1) << 20;

} // namespace

class TestHugePages : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // As the studio's main() does, before any thread starts.
        roofline::keepFreedMemory();
        roofline::shareOneHeap();
        if (testutils::kSanitizerAllocator)
            QSKIP("a sanitizer's allocator serves malloc in this build: nothing is reserved");
#if !defined(__GLIBC__) || !defined(__linux__)
        QSKIP("huge pages are reserved only with glibc's allocator on Linux");
#endif
    }

    // The reservation grows the heap without making it resident.
    void reservingMakesNothingResident()
    {
        const double before = double(testutils::residentBytes()) / double(kMiB);
        const auto breakBefore = reinterpret_cast<std::uintptr_t>(sbrk(0));
        roofline::reserveHugePages(256 * kMiB);
        const auto grown = double(reinterpret_cast<std::uintptr_t>(sbrk(0)) - breakBefore) / double(kMiB);
        const double after = double(testutils::residentBytes()) / double(kMiB);
        qInfo("resident %.1f MiB before reserving 256 MiB, %.1f after; the heap grew by %.1f MiB", before, after, grown);
        // The heap held some 10 MiB before: it grows by nearly all of the reservation.
        QVERIFY2(grown >= 200, "the heap did not grow: nothing was reserved");
        QVERIFY2(after - before < 8, "reserving made the reserved memory resident");
        roofline::reserveHugePages(0); // nothing to do, no crash
    }

    // 48 MiB written after a reservation: a fault per huge page, not per 4 KiB
    // page, where the system offers huge pages on request.
    void reservedHeapFaultsInHugePages()
    {
        roofline::reserveHugePages(128 * kMiB);
        constexpr std::size_t kBlocks = 3, kBlockBytes = 16 * kMiB;
        constexpr long kPages = long(kBlocks * kBlockBytes / 4096);
        std::vector<void *> blocks;
        for (std::size_t b = 0; b < kBlocks; ++b)
            blocks.push_back(std::malloc(kBlockBytes));
        const bool advised = roofline::advisedForHugePages(static_cast<char *>(blocks.front()) + kBlockBytes / 2);
        const long long fallbacksBefore = vmstat("thp_fault_fallback");
        const long faultsBefore = minorFaults();
        for (void *block : blocks)
            std::memset(block, 1, kBlockBytes);
        const long faults = minorFaults() - faultsBefore;
        const long long fallbacks = vmstat("thp_fault_fallback") - fallbacksBefore;
        for (void *block : blocks)
            std::free(block);
        qInfo("%ld page faults writing %ld pages (advised for huge pages: %s; huge page fallbacks: %lld)", faults,
              kPages, advised ? "yes" : "no", fallbacks);
        if (!roofline::hugePagesOffered())
            QSKIP("this system offers no transparent huge pages on request (madvise or always)");
        QVERIFY2(advised, "the reserved heap is not advised for huge pages");
        if (fallbacks > 0)
            QSKIP("the kernel had no free huge page for some of them (thp_fault_fallback grew)");
        // Page by page, the count would be about kPages. A few 2 MiB stretches
        // fault page by page anyway: those that held a page written before (the
        // heap's bookkeeping at the reservation's ends, the heap's start below
        // the first whole huge page).
        QVERIFY2(faults < kPages / 4, "the reserved heap faulted page by page");
    }

    // Giving free memory back (malloc_trim, which also shrinks the heap)
    // renews the last reservation: the memory freed stays advised.
    void releaseKeepsTheReservation()
    {
        roofline::reserveHugePages(64 * kMiB);
        void *block = std::malloc(32 * kMiB);
        std::memset(block, 1, 32 * kMiB);
        std::free(block);
        roofline::releaseFreedMemory();
        void *again = std::malloc(32 * kMiB);
        const bool advised = roofline::advisedForHugePages(again);
        std::free(again);
        if (!roofline::hugePagesOffered())
            QSKIP("this system offers no transparent huge pages on request (madvise or always)");
        QVERIFY2(advised, "the heap freed and trimmed lost its advice");
    }
};

QTEST_GUILESS_MAIN(TestHugePages)
#include "tst_hugepages.moc"
