// A learned kernel latency predictor: a regression forest (seed 004 section
// 5: random-forest regressors per kernel type), trained by XGBoost in its
// random-forest mode (lab/train.h) and kept as a readable JSON file
// ("roofline-studio/nnmeter-forest", docs/file-formats-nnmeter.md) that this
// evaluator reads without XGBoost.
//
// Each tree is a binary tree over the kernel kind's feature vector
// (featureVector() in kernels.h): an inner node sends x to `left` when
// x[feature] < threshold (XGBoost's rule; a NaN feature takes `missing_left`),
// a leaf holds a value. The prediction is base + Σ leaf values, of
// log(latency in ms) when `log_target` is set.
#pragma once

#include "../common/diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline::nnmeter {

struct ForestTree
{
    // Node i: leaf when left[i] < 0 (value[i]); otherwise split on feature[i] < threshold[i].
    std::vector<int> feature;
    std::vector<double> threshold;
    std::vector<int> left;
    std::vector<int> right;
    std::vector<char> missingLeft;
    std::vector<double> value;
    bool operator==(const ForestTree &) const = default;
};

struct Forest
{
    std::string kind;                  // kernel kind it predicts ("conv", "dwconv", ...)
    std::vector<std::string> features; // column names, featureNames(kind)
    double base = 0;
    bool logTarget = true;
    std::vector<ForestTree> trees;
    // Training record: samples, held-out error, where the samples came from.
    int samples = 0;
    double rmsePercent = 0;       // held-out root mean square relative error, %
    double within10Percent = 0;   // held-out share within ±10 %, 0..1
    std::string source;

    // Latency in ms; nullopt when x has the wrong size.
    std::optional<double> predictMs(const std::vector<double> &x) const;
    bool operator==(const Forest &) const = default;
};

inline constexpr const char *kForestFormatId = "roofline-studio/nnmeter-forest";
inline constexpr int kForestFormatVersion = 1;

struct ForestLoad
{
    std::optional<Forest> forest;
    Diagnostics diagnostics;
};
ForestLoad parseForest(const std::string &text, const std::string &fileLabel);
ForestLoad loadForestFile(const std::string &path);
std::string serializeForest(const Forest &forest);

} // namespace roofline::nnmeter
