// Our JSON network format ("roofline-studio/amaix-network", version 1;
// docs/file-formats-network.md): the readable, editable form of a network.
// Every imported network (ONNX, Caffe) can be written in it and read back equal.
#pragma once

#include "network.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline::network {

// The format id predates the shared model; it stays so existing files open.
inline constexpr const char *kNetworkFormatId = "roofline-studio/amaix-network";
inline constexpr int kNetworkFormatVersion = 1;

struct NetworkLimits
{
    static constexpr std::size_t maxLayers = 100000;
    static constexpr double maxDimension = 1e7; // channels, rows, columns, batch
    static constexpr double maxKernel = 1e4;
    static constexpr double maxCount = 1e15;    // stated weights, biases, MACs
};

// An input of an imported model whose size the file leaves open (ONNX
// dim_param): what a user must give (--input-shape, the studio's dialog).
struct SymbolicInput
{
    std::string name;
    std::vector<std::int64_t> dims;     // as the file states them, -1 where symbolic; empty: no shape at all
    std::vector<std::string> dimNames;  // per dimension: the file's name ("batch", "height") or "" when fixed
};

struct NetworkLoad
{
    std::optional<Network> network; // set when there were no errors; shapes inferred
    Diagnostics diagnostics;         // errors, and warnings (e.g. unmodelled operators of an import)
    // Set when the load failed because these inputs have sizes nobody gave
    // (ImportOptions::inputShapes); the errors say so too.
    std::vector<SymbolicInput> symbolicInputs;
};

// Parses `text`; `fileLabel` names the file in messages.
NetworkLoad parseNetwork(const std::string &text, const std::string &fileLabel);
NetworkLoad loadNetworkFile(const std::string &path);

// The network as a file parseNetwork() reads back equal (shapes inferred):
// every layer with its type, producers by name, attributes that differ from
// the defaults, the stated output shape, and for imported layers their source
// operator, attributes, dimensions and counts.
nlohmann::json toJson(const Network &network);
std::string serialize(const Network &network); // toJson, indented, with a final newline
// Writes serialize(network) atomically (temporary file, sync, rename); false
// with a diagnostic naming the file when that fails.
bool saveNetworkFile(const Network &network, const std::string &path, Diagnostics &diagnostics);

} // namespace roofline::network
