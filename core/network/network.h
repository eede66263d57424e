// The network model every view reads (AMAIX, Brouwer, nn-Meter): a DNN as a
// DAG of layers listed in topological order, each naming the layers (or
// network inputs) it consumes (seed 000, section 2; shared/reference/models.md
// 2.1; docs/file-formats-network.md).
//
// Shapes are N×C×H×W (batch, channels, height, width); the batch is 1 unless an
// imported file says otherwise, and every per-sample formula (AMAIX's bytes
// and operations) reads C×H×W. A vector of F features is F×1×1; a token
// sequence is hidden×1×tokens, so a per-token dense layer is a 1×1 convolution
// and attention is written with matmul layers. Imported tensors of other ranks
// are projected onto that form (see toShape()); the file's own dimensions are
// kept beside it in Layer::dims.
#pragma once

#include "../common/diagnostics.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::network {

enum class LayerType : std::uint8_t {
    Convolution,    // incl. grouped and depthwise (groups = input channels)
    FullyConnected, // flattens its whole input
    Bias,           // per-channel addition; also emitted for conv/fc with "bias": true
    BatchNorm,      // per-channel scale and shift at inference
    Activation,
    Pooling,
    Lrn,
    EltwiseAdd,
    Concat,  // along channels (or Layer::axis); never executed (producers write in place)
    Softmax, // along channels
    Flatten, // never executed (a view)
    MatMul,  // product of two tensors (attention)
    LayerNorm,
    // Added with the importers (issue 10); the file format names are in kTypeNames.
    Deconvolution, // transposed convolution (ONNX ConvTranspose, Caffe Deconvolution)
    EltwiseMul,    // element-wise with broadcasting (the squeeze-and-excitation scale)
    EltwiseSub,
    EltwiseDiv,
    Reshape,   // Reshape, Squeeze, Unsqueeze: never executed (a view)
    Transpose, // a permutation of the axes: moves every element
    Slice,     // Slice, Split (one layer per part), Gather
    Pad,
    Resize,    // nearest/linear up- or down-sampling
    Reduce,    // ReduceMean, ReduceSum, ... over some axes
    Other,     // an operator we do not model: kept with its shapes, bytes and source operator
};
inline constexpr int kLayerTypeCount = 24;

const char *layerTypeName(LayerType type); // "convolution", "fully_connected", ...
std::optional<LayerType> layerTypeFromName(std::string_view name);
// Concat, flatten and reshape cost nothing on any accelerator: they only relabel memory.
inline bool isFree(LayerType type)
{
    return type == LayerType::Concat || type == LayerType::Flatten || type == LayerType::Reshape;
}
// Element-wise binary operators (eltwise_add, _mul, _sub, _div).
bool isElementwise(LayerType type);
// Types whose output shape cannot be derived from our attributes: it is stated ("output").
bool needsStatedOutput(LayerType type);

struct Shape
{
    std::int64_t c = 0;
    std::int64_t h = 1;
    std::int64_t w = 1;
    std::int64_t n = 1; // batch

    // All elements, batch included (what a tensor occupies in memory).
    std::int64_t elements() const { return n * c * h * w; }
    // Elements of one sample (C·H·W).
    std::int64_t perItem() const { return c * h * w; }
    std::string toString() const; // "96x55x55", with the batch first when it is not 1: "8x96x55x55"
    bool operator==(const Shape &) const = default;
};

// Projects a tensor's dimensions onto N×C×H×W: rank 4 is NCHW; rank 3
// [N, tokens, hidden] is hidden×1×tokens; rank 2 [N, F] is F×1×1; rank 1 [F]
// is F×1×1; rank 0 is 1×1×1; rank > 4 folds the leading dimensions into N.
Shape toShape(const std::vector<std::int64_t> &dims);

enum class PoolMode : std::uint8_t { Max, Average };
enum class Rounding : std::uint8_t { Floor, Ceil }; // Caffe rounds pooling output sizes up

// Parameters and multiply-accumulates of a layer as written (grouped
// convolutions counted as grouped), the figures papers publish.
struct LayerCounts
{
    std::int64_t weights = 0; // incl. batch-norm and layer-norm scale and shift
    std::int64_t biases = 0;
    std::int64_t macs = 0;
    std::int64_t parameters() const { return weights + biases; }
    bool operator==(const LayerCounts &) const = default;
};

struct Layer
{
    std::string name;
    LayerType type = LayerType::Convolution;
    // Producers: >= 0 is a layer index (earlier in the list), < 0 is network
    // input -(i+1). Every layer but the element-wise ones, concat and matmul has
    // exactly one. An imported element-wise layer may have one: its other
    // operand is a constant of the file (counted in `counts`).
    std::vector<int> inputs;

    // convolution, deconvolution, fully_connected, pooling
    std::int64_t outChannels = 0; // convolution, deconvolution, fully_connected
    int kernelH = 1, kernelW = 1;
    int strideH = 1, strideW = 1;
    int padH = 0, padW = 0; // symmetric, rows/columns on each side
    int dilationH = 1, dilationW = 1;
    int groups = 1;
    bool hasBias = true;    // convolution, fully_connected: adds o_c parameters (run as a bias stage)
    PoolMode poolMode = PoolMode::Max;
    bool globalPool = false;
    Rounding rounding = Rounding::Floor;
    int lrnSize = 5;
    std::string function = "relu"; // activation; reduce ("mean", "sum", ...)
    int heads = 1;                  // matmul: independent products side by side in C
    bool transposeB = false;        // matmul: contract over B's positions instead of its channels
    int axis = 0;                   // concat: 0 channels, 1 height, 2 width

    // Where an imported layer came from: the source operator ("Conv",
    // "NonMaxSuppression", Caffe "Convolution"), its attributes as text, and
    // its output tensor's dimensions as the file states them. Empty for layers
    // written by hand.
    std::string op;
    std::map<std::string, std::string> attributes;
    std::vector<std::int64_t> dims;
    // Counts stated by an importer, from the file's own tensors (initializer
    // sizes, batched matrix products); without them countLayer() derives the
    // counts from the shapes.
    std::optional<LayerCounts> counts;

    std::optional<Shape> statedOutput; // "output" in the file; checked against the inferred one
    Shape output;                      // inferred by inferShapes()

    // An imported layer (dims known) keeps the shape its file's shape inference gave.
    bool imported() const { return !dims.empty(); }
    bool operator==(const Layer &) const = default;
};

struct NetworkInput
{
    std::string name;
    Shape shape;
    std::vector<std::int64_t> dims{}; // as the file states them (imported networks)
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
// a stated output. Imported layers (Layer::imported()) and the types of
// needsStatedOutput() take their stated output. Returns false on any error.
// Layers before `first` are taken as already inferred.
bool inferShapes(Network &network, Diagnostics &diagnostics, std::size_t first = 0);

// The DAG: for each layer, the layers that read its output (in order).
std::vector<std::vector<int>> consumers(const Network &network);
// True when every producer comes before its consumer (the order layers run in).
bool isTopologicallyOrdered(const Network &network);

LayerCounts countLayer(const Network &network, std::size_t index);
LayerCounts countNetwork(const Network &network);

// Layers of type `other`, grouped by source operator, in first-seen order:
// {"Resize", 2}, {"NonMaxSuppression", 1}.
std::vector<std::pair<std::string, int>> unmodelledOperators(const Network &network);
// "3 operators not modelled: Resize ×2, NonMaxSuppression"; empty when there are none.
std::string unmodelledSummary(const Network &network);

} // namespace roofline::network
