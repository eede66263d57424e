// The AMAIX evaluation: every network layer becomes one or more AMAIX layers
// ("stages": a convolution tile, the bias stage of a convolution, ...), stages
// that run systolically form pipes, and each pipe is a roofline task
// (seed 000, sections 2.3, 3.3-3.6; shared/reference/models.md 2.1-2.4).
//
// Units: operations, bytes, nanoseconds; rates in ops/ns (= Gops/s) and bytes/ns (= GB/s).
#pragma once

#include "accelerator.h"
#include "network.h"

#include <string>
#include <vector>

namespace roofline::amaix {

struct Options
{
    std::string dataType; // empty: the network's, else the accelerator's default
    bool refine = false;  // divide and conquer: warm-up phase and sequential one-group modes (models.md 2.4)
    bool operator==(const Options &) const = default;
};

// The studio's reading of "the network's data type, else the accelerator's
// default": when `options` names no data type and the accelerator does not
// offer the network's (AlexNet's fp16 on the int8-only nv_small), the
// accelerator's default instead, so every network opens on every accelerator.
// An explicit choice is kept as it is (evaluate() reports it if not offered),
// and roofline-cli does not use this: there a missing type stays an error.
// `fellBack` (may be null) says whether the network's type was replaced.
Options withOfferedDataType(const Network &network, const Accelerator &accelerator, Options options,
                            bool *fellBack = nullptr);

enum class Status { Ok, Infeasible, Invalid };
enum class Bound { Compute, Memory };

// NVDLA convolution modes (seed 000, section 3.4); None for other layers or the general model.
enum class ConvMode {
    None = 0,
    FullFull = 1,      // full ifmap, full weights
    FullPingPong = 2,  // full ifmap, two kernel groups as ping-pong
    FullOneGroup = 3,  // full ifmap, one kernel group: fetch and compute sequential
    TiledFull = 4,     // h-tiled ifmap, full weights
    TiledPingPong = 5, // h-tiled ifmap, kernel groups as ping-pong
    TiledOneGroup = 6, // h-tiled ifmap, one kernel group: sequential
};
inline bool isSequential(ConvMode m) { return m == ConvMode::FullOneGroup || m == ConvMode::TiledOneGroup; }

// One AMAIX layer l = (i, k, o, map, scale_*) with its derived quantities.
struct Stage
{
    int layer = -1;          // network layer index
    LayerType type = LayerType::Convolution; // Bias for the bias stage of a convolution
    bool biasOfLayer = false; // the bias stage of a convolution or fully connected layer with "bias": true
    int tile = 0;            // 0-based tile index of an h-tiled convolution
    int tileCount = 1;
    int pipe = -1;           // index into Result::pipes
    int unit = -1;           // -1: host
    int memory = -1;
    ConvMode mode = ConvMode::None;
    Shape in, out;           // of this tile
    std::int64_t kw = 0, kh = 0, kc = 0, kn = 0;

    double ops = 0;     // n_ops
    double dIfmap = 0;  // bytes
    double dWeight = 0;
    double dOfmap = 0;
    double peak = 0;    // ops/ns of the unit
    double computeNs = 0; // ops / peak
    double memoryNs = 0;  // d_total / bandwidth of its memory

    double dTotal() const { return dIfmap + dWeight + dOfmap; }
    // The scaling factors of the layer description (0 where the general count is 0).
    double scaleOps() const;
    double scaleIfmap() const;
    double scaleWeight() const;
    double scaleOfmap() const;
    double intensity() const { return dTotal() > 0 ? ops / dTotal() : 0; } // 0: no data moved
    // The stage alone on its roofline: n_ops / performance(l).
    double rooflineNs() const { return computeNs > memoryNs ? computeNs : memoryNs; }

    bool operator==(const Stage &) const = default;
};

struct Pipe
{
    int firstStage = 0;
    int stageCount = 0;
    int dominant = -1;  // stage index; the others are shown in brackets
    bool onHost = false; // layers the accelerator does not run (zero time)
    bool sequential = false; // refine: fetch and compute one after the other (mode 3 or 6)
    double bytes = 0;      // Σ d_total of its stages
    double warmupNs = 0;   // refine: t_p1
    double computeNs = 0;  // max over stages of ops/peak
    double memoryNs = 0;   // max over memories of their bytes / bandwidth
    double timeNs = 0;
    Bound bound = Bound::Compute;

    bool operator==(const Pipe &) const = default;
};

struct Result
{
    Status status = Status::Ok;
    std::string error; // why, when status is not Ok ("layer \"conv1\": ...")
    std::string dataType;
    int bytesPerElement = 1;
    std::vector<Stage> stages;
    std::vector<Pipe> pipes;
    std::vector<double> layerNs; // per network layer: the time of each pipe, given to the layer heading it
    std::vector<double> unitNs;  // per accelerator unit: the time of the pipes it dominates
    double totalNs = 0;
    double fps = 0;

    bool ok() const { return status == Status::Ok; }
    // Operational intensity and attained performance of a pipe's dominating stage (seed 000, section 2.3).
    double pipeIntensity(const Pipe &pipe) const;
    double pipePerformance(const Pipe &pipe) const; // ops/ns
    bool operator==(const Result &) const = default;
};

// Evaluates the network on the accelerator. The network must have passed
// inferShapes(). Failures (unknown data type, unmapped layer type, a
// convolution that fits the CBUF in no mode) come back in Result::status.
Result evaluate(const Network &network, const Accelerator &accelerator, const Options &options = {});
// The same, reusing `out`'s storage: no allocation once it has grown (sweeps, slider drags).
void evaluate(const Network &network, const Accelerator &accelerator, const Options &options, Result &out);

// "conv1", "conv1.bias", "conv1[2/5]", "conv1.bias[2/5]".
std::string stageName(const Network &network, const Stage &stage);
const char *boundName(Bound bound); // "compute", "memory"
const char *statusName(Status status); // "ok", "infeasible", "invalid"

// Helpers of the NVDLA scaling model, exposed for tests (models.md 2.2, 2.3).
namespace nvdla {
// pad(c, b)·b: bytes of one pixel with its channels padded to whole atoms.
double paddedPixelBytes(std::int64_t c, int bytes, double atom);
// d_ifmap or d_ofmap with padding and dark bandwidth (compact mode for 1x1);
// no dark bandwidth when atomAxi <= atom.
double featureBytes(const Shape &shape, int bytes, double atom, double atomAxi);
// CBUF entries one input row takes.
std::int64_t entriesPerRow(const Shape &in, int bytes, const NvdlaParams &p);

struct ModeChoice
{
    ConvMode mode = ConvMode::None; // None: fits in no mode
    std::int64_t dataBanks = 0;     // b4d
    std::int64_t weightBanksTotal = 0;
    std::int64_t weightBanksMin = 0;
    std::int64_t tileRows = 0;      // input rows per tile (modes 4-6)
    std::int64_t tileOutputRows = 0;
    bool operator==(const ModeChoice &) const = default;
};
// The first mode whose data fits the CBUF, in the compiler's order.
// kc is the depth of the weights as fetched (the full input depth for a grouped
// convolution run dense), kernelGroup the kernels of one group (T_k).
ModeChoice chooseMode(const Shape &in, std::int64_t kh, std::int64_t kw, std::int64_t kc, std::int64_t kn,
                      std::int64_t strideH, int bytes, int kernelGroup, const NvdlaParams &p);
} // namespace nvdla

} // namespace roofline::amaix
