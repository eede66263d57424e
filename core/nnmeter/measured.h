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

// Per-kernel latencies measured inside whole-network runs (the kernel lab's
// DIR/onednn_cpu/kernels.csv; docs/file-formats-nnmeter.md "Per-kernel
// latencies"): each kernel of a network timed where it runs in the sequence.
//
//   network,kernel,type,first_layer,operators,primitives,measured_ms,iqr_ms,repetitions,predicted_ms
//   resnet50.json,0,conv-bn-relu,conv1,3,1,0.91,0.02,15,0.88
//
// The columns are fixed, in this order; iqr_ms, repetitions and predicted_ms
// may be empty. A kernel is named by its first member's layer name and its
// member count, so the view matches it to a kernel it detects whatever the
// index under other rules; `kernel` is its index under the lab's rules.
struct KernelLatency
{
    std::string network;
    int kernel = 0;           // index under the lab's rules, from 0
    std::string type;         // "conv-bn-relu"
    std::string firstLayer;   // its first member's layer name
    int operators = 1;        // its member layers
    int primitives = 0;       // oneDNN primitives it ran as (0: none, e.g. every member skipped)
    double measuredMs = 0;    // median over the runs, >= 0
    double iqrMs = -1;        // < 0: not given
    int repetitions = 0;      // 0: not given
    double predictedMs = -1;  // on the lab's device when it ran; < 0: not given
    bool operator==(const KernelLatency &) const = default;
};

struct KernelLatencyLoad
{
    std::optional<std::vector<KernelLatency>> rows;
    Diagnostics diagnostics;
};

inline constexpr const char *kKernelLatencyHeader =
    "network,kernel,type,first_layer,operators,primitives,measured_ms,iqr_ms,repetitions,predicted_ms";

KernelLatencyLoad parseKernelLatencies(const std::string &text, const std::string &fileLabel);
// The rows as the file format, header first (reads back equal).
std::string serializeKernelLatencies(const std::vector<KernelLatency> &rows);
// True when `text`'s first line that is not blank or a comment is the per-kernel header.
bool looksLikeKernelLatencies(const std::string &text);

// The seed's accuracy metric: |predicted / measured − 1| ≤ 10 %.
inline bool withinTenPercent(double predictedMs, double measuredMs)
{
    return measuredMs > 0 && predictedMs / measuredMs - 1 <= 0.1 + 1e-12 && predictedMs / measuredMs - 1 >= -0.1 - 1e-12;
}

} // namespace roofline::nnmeter
