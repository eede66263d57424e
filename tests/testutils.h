// Helpers shared by the tests: paste-ready failure messages and relative comparison.
#pragma once

#include <QTest>

#include <cmath>
#include <string>

namespace testutils {

// Whether a sanitizer's allocator, not the C library's, serves malloc in this
// build (the ASan build): tests of glibc's heap behaviour skip then.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerAllocator = true;
#else
inline constexpr bool kSanitizerAllocator = false;
#endif
#else
inline constexpr bool kSanitizerAllocator = false;
#endif

inline bool relativelyEqual(double actual, double expected, double tolerance = 1e-9)
{
    if (expected == 0)
        return std::abs(actual) <= tolerance;
    return std::abs(actual - expected) <= tolerance * std::abs(expected);
}

} // namespace testutils

// QCOMPARE for doubles with a relative tolerance; prints a paste-ready actual value.
#define ROOFLINE_COMPARE_REL(actual, expected, tolerance)                                                          \
    do {                                                                                                           \
        const double a_ = (actual);                                                                                \
        const double e_ = (expected);                                                                              \
        if (!testutils::relativelyEqual(a_, e_, (tolerance))) {                                                    \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 (relative tolerance %4); paste-ready: %2")       \
                                 .arg(QStringLiteral(#actual))                                                     \
                                 .arg(a_, 0, 'g', 17)                                                              \
                                 .arg(e_, 0, 'g', 17)                                                              \
                                 .arg(double(tolerance))));                                                        \
        }                                                                                                          \
    } while (false)
