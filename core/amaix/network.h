// AMAIX networks: a DNN as a list of layers in execution order, each naming the
// tensors it consumes (seed 000, section 2; shared/reference/models.md 2.1).
//
// Tensors are C×H×W (channels, height, width). A vector of N features is N×1×1;
// a token sequence is hidden×1×tokens, so a per-token dense layer is a 1×1
// convolution and attention is written with matmul layers (see
// docs/file-formats-amaix.md).
#pragma once

#include "../common/diagnostics.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::amaix {

enum class LayerType : std::uint8_t {
    Convolution,    // incl. grouped and depthwise (groups = input channels)
    FullyConnected, // flattens its whole input
    Bias,           // per-channel addition; also emitted for conv/fc with "bias": true
    BatchNorm,      // per-channel scale and shift at inference
    Activation,
    Pooling,
    Lrn,
    EltwiseAdd,
    Concat,  // along channels; never executed (producers write in place)
    Softmax, // along channels
    Flatten, // never executed (a view)
    MatMul,  // product of two tensors (attention)
    LayerNorm,
};
inline constexpr int kLayerTypeCount = 13;

const char *layerTypeName(LayerType type); // "convolution", "fully_connected", ...
std::optional<LayerType> layerTypeFromName(std::string_view name);
// Concat and flatten cost nothing on any accelerator: they only relabel memory.
inline bool isFree(LayerType type) { return type == LayerType::Concat || type == LayerType::Flatten; }

struct Shape
{
    std::int64_t c = 0;
    std::int64_t h = 1;
    std::int64_t w = 1;

    std::int64_t elements() const { return c * h * w; }
    std::string toString() const; // "96x55x55"
    bool operator==(const Shape &) const = default;
};

enum class PoolMode : std::uint8_t { Max, Average };
enum class Rounding : std::uint8_t { Floor, Ceil }; // Caffe rounds pooling output sizes up

struct Layer
{
    std::string name;
    LayerType type = LayerType::Convolution;
    // Producers: >= 0 is a layer index (earlier in the list), < 0 is network
    // input -(i+1). Every layer but eltwise_add, concat and matmul has exactly one.
    std::vector<int> inputs;

    // convolution, fully_connected, pooling
    std::int64_t outChannels = 0; // convolution, fully_connected
    int kernelH = 1, kernelW = 1;
    int strideH = 1, strideW = 1;
    int padH = 0, padW = 0; // symmetric, rows/columns on each side
    int groups = 1;
    bool hasBias = true;    // convolution, fully_connected: adds o_c parameters (run as a bias stage)
    PoolMode poolMode = PoolMode::Max;
    bool globalPool = false;
    Rounding rounding = Rounding::Floor;
    int lrnSize = 5;
    std::string function = "relu"; // activation
    int heads = 1;                  // matmul: independent products side by side in C
    bool transposeB = false;        // matmul: contract over B's positions instead of its channels

    std::optional<Shape> statedOutput; // "output" in the file; checked against the inferred one
    Shape output;                      // inferred by inferShapes()

    bool operator==(const Layer &) const = default;
};

struct NetworkInput
{
    std::string name;
    Shape shape;
    bool operator==(const NetworkInput &) const = default;
};

struct Network
{
    std::string name;
    std::string description;
    std::string source;   // where the layer list comes from (paper, prototxt, ...)
    std::string dataType; // e.g. "fp16"; empty: the accelerator's default
    std::vector<NetworkInput> inputs;
    std::vector<Layer> layers;

    const Shape &inputShape(int producer) const
    {
        return producer >= 0 ? layers[std::size_t(producer)].output : inputs[std::size_t(-producer - 1)].shape;
    }
    // Index of the layer with this name, or -1.
    int indexOf(std::string_view layerName) const;

    bool operator==(const Network &) const = default;
};

// Infers every layer's output shape in order, writing Layer::output. Errors
// name the layer ("/layers/3: layer \"conv2\": ...") and include mismatches with
// a stated output. Returns false on any error.
bool inferShapes(Network &network, Diagnostics &diagnostics);

// Parameters and multiply-accumulates of the network as written (grouped
// convolutions counted as grouped), the figures papers publish.
struct LayerCounts
{
    std::int64_t weights = 0; // incl. batch-norm and layer-norm scale and shift
    std::int64_t biases = 0;
    std::int64_t macs = 0;
    std::int64_t parameters() const { return weights + biases; }
    bool operator==(const LayerCounts &) const = default;
};
LayerCounts countLayer(const Network &network, std::size_t index);
LayerCounts countNetwork(const Network &network);

} // namespace roofline::amaix
