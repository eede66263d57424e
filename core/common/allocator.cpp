#include "allocator.h"

#include <cstdlib> // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace roofline {

void keepFreedMemory()
{
#if defined(__GLIBC__)
    // Blocks up to 64 MiB come from the heap instead of their own mapping, and
    // the heap is only trimmed when 512 MiB lie free at its top.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
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
    malloc_trim(0);
#endif
}

} // namespace roofline
