// nn-Meter files (docs/file-formats-nnmeter.md): fusion rules
// ("roofline-studio/nnmeter-rules"), device descriptions
// ("roofline-studio/nnmeter-device", naming a rules file and optionally one
// learned forest per kernel kind) and forests (forest.h). Loading is strict:
// every error names the file, the JSON pointer and the reason.
#pragma once

#include "predict.h"
#include "../common/jsonreader.h"

#include <functional>
#include <optional>
#include <string>

namespace roofline::nnmeter {

struct Limits
{
    static constexpr std::size_t maxPairs = 10000;
    static constexpr std::size_t maxTrees = 10000;
    static constexpr std::size_t maxNodes = 1 << 20; // per tree
    static constexpr std::size_t maxPredictors = 64;
};

// The ranges of a device's numbers, one set for the device file, --set, a
// session's edited numbers and the studio's sliders (issue 14: one number
// parser and one set of ranges for every way a number comes in).
struct DeviceRanges
{
    static Range rate() { return Range::positive(1e9); }           // peak_gflops, bandwidth_gbps
    static Range overheadUs() { return Range::nonNegative(1e6); }  // kernel_overhead_us
    static Range efficiency() { return Range{0, 1, false, true}; } // efficiency/<kind>/compute|memory
};

struct RulesLoad
{
    std::optional<FusionRules> rules;
    Diagnostics diagnostics;
};
RulesLoad parseRules(const std::string &text, const std::string &fileLabel);
RulesLoad loadRulesFile(const std::string &path);
std::string serializeRules(const FusionRules &rules);

struct DeviceLoad
{
    std::optional<Device> device;
    Diagnostics diagnostics; // errors of the device file and of the files it names
};
// `directory` resolves the rules and predictor files the device names; a
// device text without a directory (fuzzing) may only name files that do not
// need reading: it then fails with "cannot open".
DeviceLoad parseDevice(const std::string &text, const std::string &fileLabel, const std::string &directory);
// Reads the file at `path` into `text`, or adds an error naming it and
// returns false. The studio passes one that also reads its embedded examples
// (Qt resource paths such as ":/examples/nnmeter"), which the file system
// cannot open.
using FileReader = std::function<bool(const std::string &path, std::string &text, Diagnostics &diagnostics)>;
// As above, reading the rules and predictor files the device names through `reader`.
DeviceLoad parseDevice(const std::string &text, const std::string &fileLabel, const std::string &directory,
                       const FileReader &reader);
DeviceLoad loadDeviceFile(const std::string &path);
std::string serializeDevice(const Device &device);

} // namespace roofline::nnmeter
