// Shared by the fuzz harnesses (issue 14, docs/reliability.md): an invariant
// that does not hold stops the run with a message libFuzzer reports as a crash.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                       \
    do {                                                                                            \
        if (!(condition)) {                                                                         \
            std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition);  \
            std::abort();                                                                           \
        }                                                                                           \
    } while (false)

// A loader gives exactly one of: a value, or errors.
#define FUZZ_CHECK_ONE_OF(load, member) FUZZ_CHECK((load).member.has_value() != (load).diagnostics.hasErrors())
