// The process's resident memory, for the benchmarks and the memory tests
// (no Qt: roofline-core-bench uses it too).
#pragma once

#include <cstdint>
#include <fstream>

#include <unistd.h>

namespace testutils {

// Resident bytes of this process, from /proc/self/statm; -1 where that is not available.
inline std::int64_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    if (!(statm >> pages >> resident))
        return -1;
    return std::int64_t(resident) * sysconf(_SC_PAGESIZE);
}

} // namespace testutils
