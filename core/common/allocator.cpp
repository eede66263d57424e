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

void releaseFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace roofline
