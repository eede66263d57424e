// Opening a network from any file a user has: our JSON, ONNX (.onnx) or a
// Caffe prototxt (.prototxt) (docs/file-formats-network.md). Every importer
// returns a NetworkLoad: the network (shapes inferred, counts stated) or errors
// naming the file, the node or layer, its operator and the reason; warnings
// list what was imported as `other`.
#pragma once

#include "io.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace roofline::network {

enum class NetworkFileKind { Json, Onnx, Caffe };
// By suffix: .onnx, .prototxt / .pbtxt (Caffe), anything else is our JSON.
NetworkFileKind networkFileKind(const std::string &path);
// True for the suffixes importers read (.onnx, .prototxt, .pbtxt).
bool isImportedNetworkFile(const std::string &path);

struct ImportOptions
{
    // Sizes of symbolic input dimensions, by input name: {"input", {1, 3, 640, 640}}.
    // A given shape replaces the input's whole shape and must have its rank.
    std::map<std::string, std::vector<std::int64_t>> inputShapes;
};

// Parses "NAME=1x3x640x640" into `options`; false with a reason in `error`.
bool parseInputShapeOption(const std::string &text, ImportOptions &options, std::string &error);

// Our JSON, ONNX or Caffe, by suffix.
NetworkLoad loadAnyNetworkFile(const std::string &path, const ImportOptions &options = {});

// ONNX: a ModelProto in `bytes`; `fileLabel` names the file in messages.
NetworkLoad importOnnx(const std::string &bytes, const std::string &fileLabel, const ImportOptions &options = {});
NetworkLoad importOnnxFile(const std::string &path, const ImportOptions &options = {});

// Caffe: a NetParameter in protobuf text format (old `layers`/`input_dim` and new `layer`/`input_shape`).
NetworkLoad importCaffe(const std::string &text, const std::string &fileLabel, const ImportOptions &options = {});
NetworkLoad importCaffeFile(const std::string &path, const ImportOptions &options = {});

// Replaces bytes that are not UTF-8 in every name and text of an imported
// network with '?', so it can be written as JSON (a file's names are bytes).
void makeTextValidUtf8(Network &network);

// The limits of our JSON format (NetworkLimits) on an imported network, so what
// imports can always be written and read back: sizes, kernel attributes, counts.
bool checkNetworkLimits(const Network &network, Diagnostics &diagnostics);

} // namespace roofline::network
