// Our JSON network format ("roofline-studio/amaix-network", version 1;
// docs/file-formats-network.md): the readable, editable form of a network.
// Every imported network (ONNX, Caffe) can be written in it and read back equal.
#pragma once

#include "network.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

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

struct NetworkLoad
{
    std::optional<Network> network; // set when there were no errors; shapes inferred
    Diagnostics diagnostics;         // errors, and warnings (e.g. unmodelled operators of an import)
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
