// Brouwer device files ("roofline-studio/brouwer-device", version 1;
// docs/file-formats-brouwer.md) and result export.
#pragma once

#include "model.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace roofline::brouwer {

inline constexpr const char *kDeviceFormatId = "roofline-studio/brouwer-device";
inline constexpr int kDeviceFormatVersion = 1;

struct DeviceLoad
{
    std::optional<Device> device; // set when there were no errors
    Diagnostics diagnostics;
};
DeviceLoad parseDevice(const std::string &text, const std::string &fileLabel);
DeviceLoad loadDeviceFile(const std::string &path);

nlohmann::json toJson(const Device &device);
std::string serialize(const Device &device); // indented, final newline; parseDevice reads it back equal
// Through AtomicFile (core/common/atomicfile.h: temporary file beside it, sync,
// rename); false with a diagnostic naming the file and the reason.
bool saveDeviceFile(const Device &device, const std::string &path, Diagnostics &diagnostics);

// "256MB", "1.5GiB", "4G", "1e9" (bytes); nullopt for anything else or <= 0.
// Units are powers of 1024 (MB = MiB), as memory limits are usually meant.
std::optional<double> parseMemorySize(const std::string &text);
std::string formatBytes(double bytes); // "256 MiB", "1.5 GiB"

// The evaluation of a network on a device as JSON and CSV (one row per layer).
nlohmann::json resultToJson(const std::string &networkName, const Device &device, const Params &params,
                            const Result &result);
std::string resultToCsv(const Result &result);

} // namespace roofline::brouwer
