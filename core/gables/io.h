// Gables SoC files (JSON, format "roofline-studio/gables", version 1; see
// docs/file-formats.md) and the JSON form of results.
#pragma once

#include "model.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace roofline::gables {

inline constexpr const char *kFormatId = "roofline-studio/gables";
inline constexpr int kFormatVersion = 1;
inline constexpr std::size_t kMaxIps = 256;

// Valid ranges, shared by the loader, validate() and the GUI's controls.
struct Limits
{
    static constexpr double maxRate = 1e9;          // Gops/s and GB/s (1 Eops/s, 1 EB/s)
    static constexpr double maxAcceleration = 1e6;
    static constexpr double maxIntensity = 1e9;     // ops/byte
    static constexpr std::size_t maxNameLength = 64;
};

// Checks every range and cross-field rule (unique names, Σ f_i = 1 within 1e-6).
// Errors are named by JSON pointer as in the file format.
void validate(const Soc &soc, Diagnostics &diagnostics);

struct LoadResult
{
    std::optional<Soc> soc;  // set when there were no errors
    Diagnostics diagnostics; // errors, and warnings such as a normalised Σ f_i
};

// Parses `text`; `fileLabel` is used in messages. Σ f_i ≠ 1 is normalised with a warning.
LoadResult parseSoc(const std::string &text, const std::string &fileLabel);
LoadResult loadSocFile(const std::string &path);

nlohmann::json toJson(const Soc &soc);
std::string serialize(const Soc &soc); // pretty-printed, newline-terminated

nlohmann::json resultToJson(const Soc &soc, const Result &result);

// Applies "POINTER=VALUE" (e.g. "/use_case/work/GPU/fraction=0.75" or
// "soc/bpeak_gbps=30"); IPs may be named or indexed. Setting a fraction
// rebalances the other IPs as the GUI does. Returns false with an error on a
// bad path or value; `soc` is left unchanged then.
bool applyOverride(Soc &soc, const std::string &assignment, Diagnostics &diagnostics);

} // namespace roofline::gables
