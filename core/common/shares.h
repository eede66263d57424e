// Work over [0, count) split into contiguous shares, one per thread: used
// where a sweep of independent evaluations (a tornado's probes) is worth
// both cores and each share needs its own scratch state.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace roofline {

// Calls fill(begin, end) for contiguous shares of [0, count) on up to
// `threads` threads (at most count / 2 + 1; the caller's thread takes the
// first share). An exception thrown by a share (out of memory copying its
// scratch state) is rethrown here once every thread has joined, as a call
// on one thread would throw it. The shares are disjoint, so fill may write
// its own indices of a shared output without locking.
template<typename Fill>
void fillInShares(std::size_t count, unsigned threads, Fill &&fill)
{
    threads = unsigned(std::clamp<std::size_t>(threads, 1, count / 2 + 1));
    if (threads <= 1) {
        fill(std::size_t(0), count);
        return;
    }
    std::vector<std::thread> helpers;
    std::vector<std::exception_ptr> failures(threads);
    const std::size_t share = (count + threads - 1) / threads;
    for (unsigned t = 1; t < threads; ++t)
        helpers.emplace_back([&, t] {
            try {
                fill(std::min(count, t * share), std::min(count, (t + 1) * share));
            } catch (...) {
                failures[t] = std::current_exception();
            }
        });
    try {
        fill(std::size_t(0), std::min(count, share));
    } catch (...) {
        failures[0] = std::current_exception();
    }
    for (std::thread &helper : helpers)
        helper.join();
    for (const std::exception_ptr &failure : failures)
        if (failure)
            std::rethrow_exception(failure);
}

} // namespace roofline
