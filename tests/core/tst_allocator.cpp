// core/common/allocator.h: warmFreedMemory() maps a thread's pages ahead of
// its next allocations (the timeline's worker does it once per trace opened,
// so that the first slider step after opening does not pay for fresh pages).
#include "common/allocator.h"
#include "testutils.h"

#include <QTest>

#include <barrier>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace {

long threadMinorFaults()
{
    rusage usage {};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

// Page faults of the calling thread while it allocates `blocks` blocks of
// `blockBytes` and writes every page of them: what a simulation's result
// vectors cost when they land on fresh pages.
long faultsOfAllocating(std::size_t blocks, std::size_t blockBytes)
{
    const long before = threadMinorFaults();
    std::vector<void *> held;
    for (std::size_t b = 0; b < blocks; ++b) {
        void *block = std::malloc(blockBytes);
        std::memset(block, 1, blockBytes);
        held.push_back(block);
    }
    const long faults = threadMinorFaults() - before;
    for (void *block : held)
        std::free(block);
    return faults;
}

} // namespace

class TestAllocator : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        roofline::keepFreedMemory(); // as every front end's main() does
    }

    // Two threads at once (so each has a fresh heap of its own): one warms
    // 32 MB and then allocates 24 MB in three blocks, the other allocates the
    // same without warming. The first must fault on few pages, the second on
    // nearly all of them (which also shows the count would see the difference).
    void warmedPagesAreReusedByTheSameThread()
    {
#if !defined(__GLIBC__)
        QSKIP("warmFreedMemory() does something only with glibc's allocator");
#endif
        if (testutils::kSanitizerAllocator)
            QSKIP("a sanitizer's allocator serves malloc in this build");
        constexpr std::size_t kBlocks = 3, kBlockBytes = std::size_t(8) << 20;
        constexpr long kPages = long(kBlocks * kBlockBytes / 4096);
        long warmed = -1, cold = -1;
        std::barrier bothDone(2); // neither thread ends (and hands its heap on) before the other measured
        std::thread warmedThread([&] {
            roofline::warmFreedMemory(std::size_t(32) << 20);
            warmed = faultsOfAllocating(kBlocks, kBlockBytes);
            bothDone.arrive_and_wait();
        });
        std::thread coldThread([&] {
            cold = faultsOfAllocating(kBlocks, kBlockBytes);
            bothDone.arrive_and_wait();
        });
        warmedThread.join();
        coldThread.join();
        qInfo("minor page faults allocating %ld pages: %ld warmed, %ld cold", kPages, warmed, cold);
        QVERIFY2(cold > kPages / 2, "the cold thread's pages were already mapped: the comparison shows nothing");
        QVERIFY(warmed < kPages / 10);
    }

    void nothingToWarm()
    {
        roofline::warmFreedMemory(0); // no allocation, no crash
        QVERIFY(true);
    }
};

QTEST_GUILESS_MAIN(TestAllocator)
#include "tst_allocator.moc"
