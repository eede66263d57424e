// nn-Meter files (docs/file-formats-nnmeter.md): fusion rules
// ("roofline-studio/nnmeter-rules"), device descriptions
// ("roofline-studio/nnmeter-device", naming a rules file and optionally one
// learned forest per kernel kind) and forests (forest.h). Loading is strict:
// every error names the file, the JSON pointer and the reason.
#pragma once

#include "predict.h"

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
