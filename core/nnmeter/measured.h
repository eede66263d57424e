// Measured end-to-end latencies of whole networks (CSV), to show nn-Meter's
// prediction beside the measurement with the seed's metric: the share of
// networks whose predicted latency is within ±10 % of the measured one
// (seed 004 section 7; docs/file-formats-nnmeter.md "Measured latencies").
//
//   # comment lines and blank lines are skipped
//   network,measured_ms[,device][,repetitions][,noise_percent][,source]
//   ResNet-50,41.7,this machine (oneDNN 3.0),20,2.1,kernel lab 2026-11-25
//
// `network` is the network's name (its "name" field), its file name or the
// file's stem; columns after the first two may come in any order; unknown
// columns are refused, naming the line and the column.
//
// The kernel lab's record, DIR/onednn_cpu/measurements.csv (header
// "stage,name,...,median_ms,iqr_ms,...,reps,..."), is read too: its rows of
// stage "network" give name → network, median_ms → measured_ms, reps →
// repetitions and iqr_ms as a percentage of the median → noise_percent.
#pragma once

#include "../common/diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline::nnmeter {

struct MeasuredLatency
{
    std::string network;
    double measuredMs = 0;
    std::string device;       // empty when the file does not say
    int repetitions = 0;      // 0: not given
    double noisePercent = -1; // < 0: not given
    std::string source;
    bool operator==(const MeasuredLatency &) const = default;
};

struct MeasuredLoad
{
    std::optional<std::vector<MeasuredLatency>> rows;
    Diagnostics diagnostics;
};

inline constexpr std::size_t kMaxMeasuredRows = 100000;

MeasuredLoad parseMeasuredLatencies(const std::string &text, const std::string &fileLabel);
// The rows as the file format, header first (reads back equal).
std::string serializeMeasuredLatencies(const std::vector<MeasuredLatency> &rows);

// The seed's accuracy metric: |predicted / measured − 1| ≤ 10 %.
inline bool withinTenPercent(double predictedMs, double measuredMs)
{
    return measuredMs > 0 && predictedMs / measuredMs - 1 <= 0.1 + 1e-12 && predictedMs / measuredMs - 1 >= -0.1 - 1e-12;
}

} // namespace roofline::nnmeter
