// AMAIX files (docs/file-formats-amaix.md): networks ("roofline-studio/amaix-network"),
// accelerators ("roofline-studio/amaix-accelerator"), measured per-layer times
// (CSV), and the JSON and CSV forms of results.
#pragma once

#include "accelerator.h"
#include "baseline.h"
#include "model.h"
#include "network.h"
#include "../network/io.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace roofline::amaix {

// Networks are read by the shared model (core/network/io.h).
using network::kNetworkFormatId;
using network::loadNetworkFile;
using network::NetworkLoad;
using network::parseNetwork;
inline constexpr const char *kAcceleratorFormatId = "roofline-studio/amaix-accelerator";
inline constexpr int kFormatVersion = 1;

struct Limits
{
    static constexpr std::size_t maxLayers = 100000;
    static constexpr double maxDimension = 1e7;   // channels, rows, columns
    static constexpr double maxKernel = 1e4;
    static constexpr double maxRate = 1e9;        // GHz, ops/cycle, GB/s
    static constexpr double maxBytes = 1e12;      // buffer sizes
};

struct AcceleratorLoad
{
    std::optional<Accelerator> accelerator;
    Diagnostics diagnostics;
};

// Parses `text`; `fileLabel` names the file in messages.
AcceleratorLoad parseAccelerator(const std::string &text, const std::string &fileLabel);
AcceleratorLoad loadAcceleratorFile(const std::string &path);

// Cross-field rules of an accelerator (also after overrides): names, mapping
// targets, nvdla parameters. Errors use the file's JSON pointers.
void validate(const Accelerator &accelerator, Diagnostics &diagnostics);

// The accelerator as a file parseAccelerator() reads back equal: every number
// with its source kept ({"value", "source"} where a source is known), units,
// memories and data types keyed by name, the mapping, the pipelines and the
// scaling model. Under the general model the file has no NVDLA parameters
// (the format has none), so they come back as the defaults.
nlohmann::json toJson(const Accelerator &accelerator);
std::string serialize(const Accelerator &accelerator); // toJson, indented, with a final newline

// --- Measured times --------------------------------------------------------

struct MeasuredLoad
{
    std::optional<std::vector<MeasuredTime>> times;
    Diagnostics diagnostics;
};
// CSV with a header "layer,time_us" (or time_ns, time_ms); '#' starts a comment line.
MeasuredLoad parseMeasuredCsv(const std::string &text, const std::string &fileLabel);
MeasuredLoad loadMeasuredFile(const std::string &path);

// --- Overrides and sweeps ---------------------------------------------------

// A settable accelerator number named by its JSON pointer: "/clock_ghz",
// "/units/SDP/ops_per_cycle", "/memories/DRAM/bandwidth_gbps",
// "/data_types/fp16/t_k", "/scaling/t_c", "/scaling/cbuf_bytes", ...
struct Parameter
{
    enum class Kind { Clock, UnitOps, MemoryBandwidth, DataTypeBytes, DataTypeTk, TC, AtomNvdla, AtomAxi,
                      CbufEntry, CbufBanks, CbufBytes };
    Kind kind = Kind::Clock;
    int index = -1; // unit, memory or data type
    std::string pointer;

    double get(const Accelerator &accelerator) const;
    void set(Accelerator &accelerator, double value) const;
    bool operator==(const Parameter &) const = default;
};
// Resolves a pointer against the accelerator; reports an unknown one.
std::optional<Parameter> resolveParameter(const Accelerator &accelerator, const std::string &pointer,
                                          Diagnostics &diagnostics);
// "POINTER=VALUE"; leaves the accelerator unchanged and returns false on error.
bool applyOverride(Accelerator &accelerator, const std::string &assignment, Diagnostics &diagnostics);

// --- Results ------------------------------------------------------------------

nlohmann::json resultToJson(const Network &network, const Accelerator &accelerator, const Result &result);
// One row per stage: stage,layer,type,tile,mode,unit,pipe,dominant,ops,d_ifmap,...,time_ns.
std::string resultToCsv(const Network &network, const Accelerator &accelerator, const Result &result);

} // namespace roofline::amaix
