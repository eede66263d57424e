// An AMAIX accelerator: processing units and memories, which unit and memory
// each layer type maps to, which layer sequences run as a pipeline, and the
// scaling model that turns layer shapes into bytes and operations (seed 000,
// sections 2 and 3.3; shared/reference/models.md 2.1-2.3).
//
// Units: clock in GHz, unit peaks in operations per cycle, bandwidths in GB/s
// (= bytes per ns), so times come out in nanoseconds.
#pragma once

#include "network.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace roofline::amaix {

struct Unit
{
    std::string name;
    double opsPerCycle = 0; // ignored for the MAC array under the nvdla model (T_k·T_c)
    bool macArray = false;  // nvdla: the CONV_CORE MAC array; layers on it use the convolution formulas
    bool operator==(const Unit &) const = default;
};

struct Memory
{
    std::string name;
    double bandwidthGBps = 0;
    bool operator==(const Memory &) const = default;
};

struct Mapping
{
    bool mapped = false; // false: the file does not say; evaluating such a layer is an error
    int unit = -1;       // -1: runs on the host, outside the accelerator's time
    int memory = -1;
    bool onHost() const { return mapped && unit < 0; }
    bool operator==(const Mapping &) const = default;
};

struct DataType
{
    std::string name; // "fp16", "int8", ...
    int bytes = 1;
    int tK = 0; // nvdla: MAC atomic-K (kernels per cycle) for this type
    bool operator==(const DataType &) const = default;
};

// One step of a pipeline pattern: a set of layer types (bit i = LayerType(i)).
using TypeSet = std::uint32_t;
inline constexpr TypeSet typeBit(LayerType t) { return TypeSet(1) << unsigned(t); }

// Consecutive layers whose types follow the steps in order, each step but the
// first optional, run as one pipeline (seed 000, section 2.3).
struct PipelinePattern
{
    std::vector<TypeSet> steps;
    bool operator==(const PipelinePattern &) const = default;
};

enum class ScalingModel { General, Nvdla };

struct NvdlaParams
{
    double tC = 64;             // MAC atomic-C (channels per cycle)
    double atomNvdla = 32;      // bytes
    double atomAxi = 64;        // bytes, the bus width
    double cbufEntryBytes = 128;
    double cbufBanks = 16;
    double cbufBytes = 512 * 1024;
    bool tiling = true;         // model the compiler's convolution modes and h-tiling (models.md 2.3)
    bool groupedAsDense = true; // the compiler runs grouped convolutions dense (zero-padded weights)

    double entriesPerBank() const { return std::floor(cbufBytes / cbufBanks / cbufEntryBytes); }
    bool operator==(const NvdlaParams &) const = default;
};

struct Accelerator
{
    std::string name;
    std::string description;
    double clockGHz = 1;
    std::vector<Unit> units;
    std::vector<Memory> memories;
    std::array<Mapping, kLayerTypeCount> mapping{};
    std::vector<PipelinePattern> pipelines;
    std::vector<DataType> dataTypes;
    std::string defaultDataType;
    ScalingModel scaling = ScalingModel::General;
    NvdlaParams nvdla;
    // Free-text source of each number, keyed by its JSON pointer ("/clock_ghz").
    std::map<std::string, std::string> sources;

    const DataType *dataType(const std::string &typeName) const;
    int unitIndex(const std::string &unitName) const;
    int memoryIndex(const std::string &memoryName) const;

    bool operator==(const Accelerator &) const = default;
};

} // namespace roofline::amaix
