// A large ONNX model for the import benchmarks: a stripped fixture (weights
// as external-data references, tests/data/onnx/) with every such initializer
// filled with float32 zeros inline, as a user's exported model would be
// (ResNet-50: 25.6 M weights, about 102 MB). Empty when `path` does not parse.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <fstream>
#include <string>

inline std::string filledOnnx(const std::string &path)
{
    onnx::ModelProto model;
    std::ifstream in(path, std::ios::binary);
    if (!model.ParseFromIstream(&in))
        return {};
    for (onnx::TensorProto &t : *model.mutable_graph()->mutable_initializer()) {
        if (t.data_location() != onnx::TensorProto::EXTERNAL)
            continue;
        std::int64_t n = 1;
        for (std::int64_t d : t.dims())
            n *= d;
        t.clear_external_data();
        t.set_data_location(onnx::TensorProto::DEFAULT);
        t.set_raw_data(std::string(std::size_t(n) * 4, '\0'));
    }
    return model.SerializeAsString();
}
