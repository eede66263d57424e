#include "train.h"

#include <nlohmann/json.hpp>
#include <xgboost/c_api.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <memory>

namespace roofline::nnmeter::lab {

using nlohmann::json;

namespace {

struct DMatrix
{
    DMatrixHandle h = nullptr;
    ~DMatrix()
    {
        if (h)
            XGDMatrixFree(h);
    }
};
struct Booster
{
    BoosterHandle h = nullptr;
    ~Booster()
    {
        if (h)
            XGBoosterFree(h);
    }
};

std::string lastError(const char *what)
{
    return std::string("XGBoost: ") + what + ": " + XGBGetLastError();
}

bool makeMatrix(const std::vector<std::vector<double>> &rows, std::size_t cols, DMatrix &m, std::string &error)
{
    std::vector<float> data;
    data.reserve(rows.size() * cols);
    for (const auto &r : rows) {
        if (r.size() != cols) {
            error = "a feature row has " + std::to_string(r.size()) + " values, expected " + std::to_string(cols);
            return false;
        }
        for (double v : r)
            data.push_back(float(v));
    }
    if (XGDMatrixCreateFromMat(data.data(), bst_ulong(rows.size()), bst_ulong(cols), std::nanf(""), &m.h) != 0) {
        error = lastError("creating the data matrix");
        return false;
    }
    return true;
}

double number(const json &v)
{
    // XGBoost writes some numbers as strings ("5E-1").
    return v.is_string() ? std::stod(v.get<std::string>()) : v.get<double>();
}

// XGBoost keeps thresholds and leaf values as floats: the shortest decimal that
// reads back as the same float is exact for XGBoost's comparisons and keeps the
// forest files half as long as 17-digit doubles.
double shortestFloat(double v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf - 1, float(v));
    *r.ptr = '\0';
    return std::strtod(buf, nullptr);
}

} // namespace

std::optional<Forest> forestFromXgboostJson(const std::string &text, std::string &error)
{
    try {
        const json model = json::parse(text);
        const json &learner = model.at("learner");
        Forest f;
        f.base = shortestFloat(number(learner.at("learner_model_param").at("base_score")));
        const json &trees = learner.at("gradient_booster").at("model").at("trees");
        for (const json &t : trees) {
            const auto left = t.at("left_children").get<std::vector<int>>();
            const auto right = t.at("right_children").get<std::vector<int>>();
            const auto index = t.at("split_indices").get<std::vector<int>>();
            const auto cond = t.at("split_conditions").get<std::vector<double>>();
            std::vector<int> defLeft;
            for (const json &v : t.at("default_left"))
                defLeft.push_back(v.is_boolean() ? int(v.get<bool>()) : v.get<int>());
            const std::size_t n = left.size();
            if (right.size() != n || index.size() != n || cond.size() != n || defLeft.size() != n || n == 0) {
                error = "XGBoost model: tree arrays of different lengths";
                return std::nullopt;
            }
            // Breadth-first from the root: children always get later numbers.
            ForestTree out;
            std::vector<int> newId(n, -1);
            std::deque<int> queue{0};
            std::vector<int> order;
            newId[0] = 0;
            while (!queue.empty()) {
                const int v = queue.front();
                queue.pop_front();
                order.push_back(v);
                if (left[std::size_t(v)] >= 0) {
                    for (int c : {left[std::size_t(v)], right[std::size_t(v)]}) {
                        if (c < 0 || std::size_t(c) >= n || newId[std::size_t(c)] >= 0) {
                            error = "XGBoost model: a tree is not a tree";
                            return std::nullopt;
                        }
                        newId[std::size_t(c)] = int(order.size() + queue.size());
                        queue.push_back(c);
                    }
                }
            }
            for (int v : order) {
                const bool leaf = left[std::size_t(v)] < 0;
                out.feature.push_back(leaf ? 0 : index[std::size_t(v)]);
                // XGBoost keeps a leaf's value in split_conditions (learning rate applied).
                out.threshold.push_back(leaf ? 0 : shortestFloat(cond[std::size_t(v)]));
                out.left.push_back(leaf ? -1 : newId[std::size_t(left[std::size_t(v)])]);
                out.right.push_back(leaf ? -1 : newId[std::size_t(right[std::size_t(v)])]);
                out.missingLeft.push_back(char(leaf ? 0 : defLeft[std::size_t(v)] != 0));
                out.value.push_back(leaf ? shortestFloat(cond[std::size_t(v)]) : 0);
            }
            f.trees.push_back(std::move(out));
        }
        return f;
    } catch (const std::exception &e) {
        error = std::string("XGBoost model: ") + e.what();
        return std::nullopt;
    }
}

TrainResult trainForest(const std::string &kind, const std::vector<std::string> &names,
                        const std::vector<std::vector<double>> &rows, const std::vector<double> &ms,
                        const TrainOptions &o, const std::vector<std::vector<double>> &probe)
{
    TrainResult out;
    if (rows.empty() || rows.size() != ms.size()) {
        out.error = "no samples to train on";
        return out;
    }
    std::vector<float> y;
    double mean = 0;
    for (double t : ms) {
        if (!(t > 0) || !std::isfinite(t)) {
            out.error = "a latency is not a positive number";
            return out;
        }
        y.push_back(float(std::log(t)));
        mean += std::log(t);
    }
    mean /= double(ms.size());
    DMatrix train;
    if (!makeMatrix(rows, names.size(), train, out.error))
        return out;
    if (XGDMatrixSetFloatInfo(train.h, "label", y.data(), bst_ulong(y.size())) != 0) {
        out.error = lastError("setting the labels");
        return out;
    }
    Booster b;
    if (XGBoosterCreate(&train.h, 1, &b.h) != 0) {
        out.error = lastError("creating the booster");
        return out;
    }
    const std::vector<std::pair<std::string, std::string>> params = {
        {"booster", "gbtree"},
        {"objective", "reg:squarederror"},
        {"tree_method", "exact"},
        {"num_parallel_tree", std::to_string(o.trees)},
        {"subsample", std::to_string(o.subsample)},
        {"colsample_bynode", std::to_string(o.colsampleByNode)},
        {"learning_rate", "1"},
        {"max_depth", std::to_string(o.maxDepth)},
        {"min_child_weight", std::to_string(o.minChildWeight)},
        {"lambda", std::to_string(o.lambda)},
        {"base_score", std::to_string(mean)},
        {"seed", std::to_string(o.seed)},
        {"nthread", std::to_string(std::max(o.threads, 1))},
        {"verbosity", "0"},
    };
    for (const auto &[k, v] : params) {
        if (XGBoosterSetParam(b.h, k.c_str(), v.c_str()) != 0) {
            out.error = lastError(("setting " + k).c_str());
            return out;
        }
    }
    if (XGBoosterUpdateOneIter(b.h, 0, train.h) != 0) { // one round: a random forest
        out.error = lastError("training");
        return out;
    }
    bst_ulong len = 0;
    const char *buf = nullptr;
    if (XGBoosterSaveModelToBuffer(b.h, R"({"format": "json"})", &len, &buf) != 0) {
        out.error = lastError("saving the model");
        return out;
    }
    std::optional<Forest> f = forestFromXgboostJson(std::string(buf, len), out.error);
    if (!f)
        return out;
    f->kind = kind;
    f->features = names;
    f->logTarget = true;
    f->samples = int(rows.size());
    if (!probe.empty()) {
        DMatrix pm;
        if (!makeMatrix(probe, names.size(), pm, out.error))
            return out;
        const float *res = nullptr;
        bst_ulong n = 0;
        if (XGBoosterPredict(b.h, pm.h, 0, 0, 0, &n, &res) != 0) {
            out.error = lastError("predicting");
            return out;
        }
        out.xgboostLogMs.assign(res, res + n);
    }
    out.forest = std::move(f);
    return out;
}

Accuracy accuracy(const std::vector<double> &predicted, const std::vector<double> &measured)
{
    Accuracy a;
    double sq = 0;
    int within = 0;
    for (std::size_t i = 0; i < predicted.size() && i < measured.size(); ++i) {
        if (!(measured[i] > 0))
            continue;
        const double rel = (predicted[i] - measured[i]) / measured[i];
        sq += rel * rel;
        within += std::abs(rel) <= 0.10;
        ++a.count;
    }
    if (a.count > 0) {
        a.rmsePercent = 100 * std::sqrt(sq / a.count);
        a.within10 = double(within) / a.count;
    }
    return a;
}

} // namespace roofline::nnmeter::lab
