// What every sweep command of roofline-cli shares: axis values, the shard of
// the grid a run computes, and CSV / JSON-lines output that concatenates.
//
//   --x POINTER=FROM:TO:COUNT[:log] | POINTER=V1,V2,...
//   --shard I/N      the I-th (1-based) of N contiguous, disjoint slices of
//                    the grid in output order (x fastest); shard 1 alone
//                    prints the CSV header, so `cat` of shards 1..N in order
//                    is byte for byte the unsharded output (docs/cli.md).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cli {

// "FROM:TO:COUNT", "FROM:TO:COUNT:log", "V1,V2,..." or "V": finite numbers, 1 <= COUNT <= 10^7.
std::optional<std::vector<double>> parseAxisValues(const std::string &text);

struct Shard
{
    std::size_t index = 1; // 1..count
    std::size_t count = 1;
    // The points [begin, end) of a grid of `total` points this shard computes.
    std::size_t begin(std::size_t total) const;
    std::size_t end(std::size_t total) const;
    bool first() const { return index == 1; }
};
// "I/N" with 1 <= I <= N <= 10^6.
std::optional<Shard> parseShard(const std::string &text);

// A CSV field: quoted (with doubled quotes) when it holds a comma, quote or newline.
std::string csvField(const std::string &text);
// A number as the sweep outputs print it: up to 12 significant digits.
std::string sweepNumber(double v);

} // namespace cli
