// Calibrating a Brouwer device on measured per-layer times (seed 002 §3.2, §3.3, §4.3):
// measurements matched to network layers become observations (one loading and
// one execution time per layer and memory limit, the median of repeated runs,
// as the seed does), which fit either model in log space.
#pragma once

#include "model.h"
#include "../common/diagnostics.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline::brouwer {

// One measured layer run: EdgeCaffe's CSV or ours (docs/file-formats-brouwer.md).
struct MeasuredRow
{
    std::string network;
    std::string layer;
    double loadNs = 0;
    double execNs = 0;
    double memoryBytes = 0; // the memory limit of the run; 0: unlimited
    int line = 0;
    bool operator==(const MeasuredRow &) const = default;
};

struct MeasuredLoad
{
    std::vector<MeasuredRow> rows; // empty when there were errors
    Diagnostics diagnostics;
};
MeasuredLoad parseMeasuredCsv(const std::string &text, const std::string &fileLabel);
MeasuredLoad loadMeasuredFile(const std::string &path);

// A network the measurements name: `names` are the networkName values that mean it.
struct NamedNetwork
{
    std::vector<std::string> names;
    std::vector<LayerFeatures> layers;
};

struct Observation
{
    std::string network;
    std::string layer;
    Category submodel = Category::Other;
    LayerFeatures features;
    double overflow = 0;
    double memoryBytes = 0; // 0: unlimited
    double timeNs = 0;      // median of the runs
    int runs = 0;
};

struct Observations
{
    std::vector<Observation> items;
    Diagnostics diagnostics; // warnings: rows that match no layer, non-positive times
};
// Rows grouped by (network, layer, memory limit); each group gives a loading
// and an execution observation with the median time.
Observations buildObservations(const std::vector<MeasuredRow> &rows, const std::vector<NamedNetwork> &networks,
                               double bytesPerElement);

struct FitOptions
{
    ModelKind kind = ModelKind::FeatureEngineering;
    double logBase = 10;
    double timeUnitNs = 1; // fit log of times in this unit
    int bootstrap = 0;     // feature engineering: bagged resamples
    int order = 3;         // feature selection: polynomial order 1..6
    bool pca = false;      // feature selection on principal components (> 1 % variance)
    std::optional<double> lambda; // feature selection: fixed λ; unset: k-fold cross-validation
    int folds = 5;
    std::uint64_t seed = 1;
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(int done, int total)> progress; // per submodel
};

struct FitOutcome
{
    std::optional<Device> device; // unset when cancelled or nothing could be fitted
    Diagnostics diagnostics;      // warnings: submodels without data
    bool cancelled = false;
};
FitOutcome fitDevice(const std::vector<Observation> &observations, const FitOptions &options);

struct Metrics
{
    int rows = 0;
    double mapeLog = 0;    // % on log_base of the time in the device's unit (the seed's metric)
    double mapeLinear = 0; // % on the back-transformed times
    double mapeSmeared = 0; // % with the smearing correction
    double r2Log = 0;
};
Metrics evaluateMetrics(const Device &device, const std::vector<Observation> &observations);

// Leave-one-network-out cross-validation (seed §4.3 with k = number of networks).
struct CvFold
{
    std::string heldOut;
    Metrics metrics;
    double measuredMs = 0;  // sum of the held-out observations (one memory limit: the network's time)
    double predictedMs = 0;
    double smearedMs = 0;
};
struct CvReport
{
    std::vector<CvFold> folds;
    Metrics pooled; // over all held-out observations
    bool cancelled = false; // options.cancel was set: folds and pooled are incomplete
};
// options.progress, when set, is called after each fold with (folds done,
// networks); options.cancel is polled between folds and inside each fit.
CvReport leaveOneNetworkOut(const std::vector<Observation> &observations, const FitOptions &options);

// The predictor our fits use per submodel: LOAD and FC P, CONV the multiplications, the rest I.
Predictor defaultPredictor(Category c);

} // namespace roofline::brouwer
