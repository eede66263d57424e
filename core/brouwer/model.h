// Memory-constrained inference time (Brouwer, seed 002; shared/reference/models.md §4;
// docs/models/brouwer.md).
//
// Every layer of a network needs (input + parameter + output elements) × bytes
// per element of memory (seed §3.1). When the available memory is smaller, the
// elements that do not fit are the overflow F and the layer runs in the
// swapping regime. Its time is a loading time plus an execution time, each
// predicted in log space by a per-category model calibrated for a device:
//  - feature engineering (seed §3.2, Table 2 right): log t = a + b·log x
//    (+ c·log F when swapping), x the category's predictor;
//  - feature selection (seed §3.3, Table 2 left): log t = a + Σ c_k·m_k(z),
//    m_k monomials of the basic features z (logs of volumes, F, group, stride,
//    padding, and a swapping indicator).
#pragma once

#include "network/network.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline::brouwer {

// The submodels of seed §3.2: one loading model for layers with parameters,
// one constant loading time for layers without, one execution model per type.
enum class Category : std::uint8_t { Load, LoadP0, Fc, Conv, Act, Pool, Drop, Norm, Other };
inline constexpr int kCategoryCount = 9;
const char *categoryName(Category c);   // "load", "load_p0", "fc", "conv", ...
const char *categoryLabel(Category c);  // "LOAD", "LOAD P0", "FC", "CONV", ... (the seed's Table 2)
std::optional<Category> categoryFromName(const std::string &name);

// The execution category of a network layer (seed §3.1): convolution and
// deconvolution CONV, fully connected FC, activations ACT, Caffe's Dropout
// (imported as the "dropout" activation) DROP, pooling POOL, LRN, batch and
// layer norm NORM, everything else (softmax, concat, element-wise...) OTHER.
Category executionCategory(const network::Layer &layer);

// What the models read of one layer, from the network description only.
struct LayerFeatures
{
    std::string name;
    Category category = Category::Other; // execution category
    double inputs = 0;          // I: elements of all inputs
    double parameters = 0;      // P: weights + biases
    double outputs = 0;         // O: output elements
    double multiplications = 0; // eq. 1 for CONV layers, 0 otherwise
    double groups = 1, stride = 1, padding = 0; // CONV settings (1, 1, 0 for other layers)

    // Required memory in elements: I + P + O (seed §3.1).
    double requiredElements() const { return inputs + parameters + outputs; }
    bool operator==(const LayerFeatures &) const = default;
};

// Multiplications of a convolution, seed eq. 1 as printed:
//   O_D·O_H·O_W · (P_D·P_H·P_W)² / G + O_D
// with O the output (channels, height, width), P one filter (input channels
// per group, kernel height, kernel width) and G the groups; the last term is
// the bias. Read literally: the seed squares the whole filter volume.
double convMultiplications(const network::Network &net, std::size_t index);

std::vector<LayerFeatures> layerFeatures(const network::Network &net);

// Overflow in elements: F = max(0, required − available), available =
// floor(availableBytes / bytesPerElement) (seed §3.1).
double overflowElements(const LayerFeatures &layer, double availableBytes, double bytesPerElement);

// ---- Device calibration ----

// Predictors of the feature-engineering model, named as in Table 2.
enum class Predictor : std::uint8_t { None, I, P, O, M }; // M: multiplications (eq. 1, "O·P²")
const char *predictorName(Predictor p); // "", "I", "P", "O", "M"
std::optional<Predictor> predictorFromName(const std::string &name);
double predictorValue(const LayerFeatures &layer, Predictor p);

// One regime of one feature-engineering submodel: log t = intercept + slope·log x (+ overflow·log F).
struct FeRegime
{
    bool calibrated = false;
    double intercept = 0;
    double slope = 0;    // of log x (ignored when the submodel has no predictor)
    double overflow = 0; // of log F (swapping regime only)
    double smearing = 1; // Duan's smearing factor mean(base^residual); 1 when unknown
    int rows = 0;        // observations it was fitted on (0: given)
    bool operator==(const FeRegime &) const = default;
};

struct FeSubmodel
{
    Predictor predictor = Predictor::None;
    FeRegime standard;
    FeRegime swapping;
    bool operator==(const FeSubmodel &) const = default;
};

// The basic features of the feature-selection model (seed §3.3), in this order.
enum class Basic : std::uint8_t { I, P, O, F, G, S, Pad, Swap };
inline constexpr int kBasicCount = 8;
const char *basicName(int b); // "I", "P", "O", "F", "G", "S", "Pad", "swap"
// z of the basic features: log_base(1 + x) of the counts (zero stays zero), the
// swapping indicator as 0 or 1.
std::array<double, kBasicCount> basicFeatures(const LayerFeatures &layer, double overflow, double logBase);

// A monomial Π z_b^powers[b] with its coefficient.
struct Term
{
    std::array<int, kBasicCount> powers{};
    double coefficient = 0;
    int degree() const;
    std::string toString() const; // "F^3", "I·O^2"
    bool operator==(const Term &) const = default;
};

struct FsSubmodel
{
    bool calibrated = false;
    // One model covers both regimes (the swapping indicator and F are features);
    // false when it was fitted without swapping observations, so a swapping
    // layer is an extrapolation (predicted, marked uncalibrated).
    bool swappingCalibrated = true;
    double intercept = 0;
    std::vector<Term> terms;
    double smearing = 1;
    int rows = 0;
    bool operator==(const FsSubmodel &) const = default;
};

enum class ModelKind : std::uint8_t { FeatureEngineering, FeatureSelection };

// How a device was fitted (empty for printed coefficients).
struct FitInfo
{
    int rows = 0;
    int order = 0;       // feature selection: polynomial order
    bool pca = false;    // feature selection on principal components
    int components = 0;  // principal components kept
    double lambda = 0;   // LASSO λ (chosen by cross-validation when cvFolds > 0)
    int cvFolds = 0;
    int bootstrap = 0;   // feature engineering: bagged resamples (0: plain OLS)
    double mapeLog = 0, mapeLinear = 0, r2Log = 0; // on the training data
    std::vector<std::string> measurements; // files
    bool operator==(const FitInfo &) const = default;
};

struct Device
{
    std::string name;
    std::string description;
    std::string source;
    std::string note; // what the source leaves open and how it is applied
    ModelKind kind = ModelKind::FeatureEngineering;
    double logBase = 10;     // base of the logarithms of times and features
    double timeUnitNs = 1;   // the unit of the modelled times, in ns (1: ns, 1e6: ms)
    std::array<FeSubmodel, kCategoryCount> fe{};
    std::array<FsSubmodel, kCategoryCount> fs{};
    std::optional<FitInfo> fit;
    bool operator==(const Device &) const = default;
};

// ---- Prediction ----

struct PartPrediction
{
    Category submodel = Category::Other;
    bool swapping = false;
    bool calibrated = true;  // false: the device lacks this regime (see note)
    double logTime = 0;      // model output, log_base of the time in the device's unit
    double ms = 0;           // back-transformed without correction
    double smearedMs = 0;    // × the smearing factor
    bool operator==(const PartPrediction &) const = default;
};

struct LayerPrediction
{
    std::string name;
    Category category = Category::Other;
    double requiredBytes = 0;
    double overflow = 0; // F, elements
    bool swapping() const { return overflow > 0; }
    PartPrediction load;
    PartPrediction exec;
    double totalMs(bool smeared) const
    {
        return smeared ? load.smearedMs + exec.smearedMs : load.ms + exec.ms;
    }
    bool operator==(const LayerPrediction &) const = default;
};

struct Params
{
    double availableBytes = 256.0 * 1024 * 1024;
    double bytesPerElement = 4;
    bool operator==(const Params &) const = default;
};

struct Result
{
    std::vector<LayerPrediction> layers;
    double loadMs = 0, execMs = 0;               // plain back-transform
    double smearedLoadMs = 0, smearedExecMs = 0; // with smearing
    int swappingLayers = 0;
    int uncalibratedParts = 0; // parts predicted with a fallback regime (see PartPrediction)
    double totalMs(bool smeared) const { return smeared ? smearedLoadMs + smearedExecMs : loadMs + execMs; }
    bool operator==(const Result &) const = default;
};

// One part (load or execution) of one layer. A missing swapping regime falls
// back to the standard one without the F term (and the reverse); such parts are
// marked uncalibrated. A submodel with neither regime predicts 0 ms, uncalibrated.
PartPrediction predictPart(const Device &device, Category submodel, const LayerFeatures &layer, double overflow);
LayerPrediction predictLayer(const Device &device, const LayerFeatures &layer, const Params &params);
Result evaluate(const Device &device, const std::vector<LayerFeatures> &layers, const Params &params);

// Total time against available memory. The total changes regime only where a
// layer's required bytes are crossed (its knee); between knees only the F terms move.
struct CurvePoint
{
    double bytes = 0;
    double totalMs = 0;
    double smearedMs = 0;
    bool operator==(const CurvePoint &) const = default;
};
struct Knee
{
    double bytes = 0; // the layer swaps below this memory
    std::string layer;
    bool operator==(const Knee &) const = default;
};
struct Curve
{
    std::vector<CurvePoint> points; // ascending memory, log-spaced plus both sides of every knee
    std::vector<Knee> knees;        // ascending
};
Curve memoryCurve(const Device &device, const std::vector<LayerFeatures> &layers, double bytesPerElement,
                  double minBytes, double maxBytes, int samples);

} // namespace roofline::brouwer
