// Learned kernel predictors (seed 004 section 5: random-forest regression per
// kernel type): XGBoost in its random-forest mode — one boosting round of
// `trees` parallel trees (num_parallel_tree), each on a row subsample and a
// column subsample per split, learning rate 1 — fitted on log(latency in ms).
// The trained booster is read back from XGBoost's own JSON model and written
// out tree by tree as a Forest (forest.h), which the studio evaluates without
// XGBoost. Training is the only place XGBoost is linked.
#pragma once

#include "../forest.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline::nnmeter::lab {

struct TrainOptions
{
    int trees = 40;
    int maxDepth = 8;
    double subsample = 0.8;        // rows per tree
    double colsampleByNode = 0.8;  // features per split
    int minChildWeight = 1;
    // XGBoost's L2 penalty on leaf values (lambda, default 1) shrinks a leaf of
    // n samples by n / (n + lambda): in a forest of small leaves that biases every
    // prediction toward the mean, so the lab turns it almost off.
    double lambda = 1e-3;
    unsigned seed = 1;
    int threads = 1;
};

struct TrainResult
{
    std::optional<Forest> forest;
    // XGBoost's own predictions (log ms) for `probe` rows, when given.
    std::vector<double> xgboostLogMs;
    std::string error; // empty on success
};

// rows: one feature vector per sample (featureNames(kind) columns); ms: the
// measured latencies (> 0). `probe` rows are predicted by XGBoost itself, so a
// test can check that the dumped forest evaluates to the same values.
TrainResult trainForest(const std::string &kind, const std::vector<std::string> &featureNames,
                        const std::vector<std::vector<double>> &rows, const std::vector<double> &ms,
                        const TrainOptions &options, const std::vector<std::vector<double>> &probe = {});

// Converts XGBoost's JSON model (XGBoosterSaveModelToBuffer, format json) into
// a Forest: base score and every tree renumbered in breadth-first order so
// children always follow their parent (the forest file's rule).
std::optional<Forest> forestFromXgboostJson(const std::string &modelJson, std::string &error);

// Accuracy of predictions against measurements: root mean square relative
// error in percent and the share within ±10 % (the seed's metric).
struct Accuracy
{
    double rmsePercent = 0;
    double within10 = 0;
    int count = 0;
};
Accuracy accuracy(const std::vector<double> &predicted, const std::vector<double> &measured);

} // namespace roofline::nnmeter::lab
