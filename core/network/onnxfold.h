// Constant folding of small integer tensors in an ONNX graph, so that shapes
// computed by Constant/ConstantOfShape/Shape/Gather/Concat/Reshape/Slice/
// Transpose/Cast/arithmetic chains (the exporter's way of writing a Reshape
// target or a Pad's pads) become initializers ONNX shape inference can read.
// Internal to the ONNX importer.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofline::network::onnxfold {

// Folds what it can; `shapes` are the tensor shapes known so far (for Shape).
// Folded values consumed by other nodes become int64 initializers and the
// nodes that only computed them are removed. Returns the number of nodes removed.
int fold(onnx::GraphProto &graph, const std::unordered_map<std::string, std::vector<std::int64_t>> &shapes);

} // namespace roofline::network::onnxfold
