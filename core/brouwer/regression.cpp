// Regressions for the Brouwer model (seed 002 §3.2, §3.3, §4.3).
#include "regression.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace roofline::brouwer {

Vector ols(const Matrix &x, const Vector &y)
{
    if (x.rows() == 0 || x.cols() == 0)
        return Vector::Zero(x.cols());
    return x.completeOrthogonalDecomposition().solve(y);
}

Vector olsBagged(const Matrix &x, const Vector &y, int resamples, std::uint64_t seed)
{
    if (resamples <= 0)
        return ols(x, y);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<Eigen::Index> pick(0, x.rows() - 1);
    Vector sum = Vector::Zero(x.cols());
    Matrix xs(x.rows(), x.cols());
    Vector ys(y.size());
    // A resample that lost the rank of the whole design (too few distinct rows)
    // does not determine the coefficients: it is drawn again, up to 100 times.
    const Eigen::Index fullRank = x.completeOrthogonalDecomposition().rank();
    for (int r = 0; r < resamples; ++r) {
        for (int attempt = 0; attempt < 100; ++attempt) {
            for (Eigen::Index i = 0; i < x.rows(); ++i) {
                const Eigen::Index j = pick(rng);
                xs.row(i) = x.row(j);
                ys(i) = y(j);
            }
            if (xs.completeOrthogonalDecomposition().rank() == fullRank)
                break;
        }
        sum += ols(xs, ys);
    }
    return sum / double(resamples);
}

namespace {

struct Standardised
{
    Matrix z;
    Vector mean, scale; // scale 0: a constant column
    double yMean = 0;
    Vector yc;
};

Standardised standardise(const Matrix &x, const Vector &y)
{
    Standardised s;
    const double n = double(x.rows());
    s.mean = x.colwise().mean();
    s.scale.resize(x.cols());
    s.z.resize(x.rows(), x.cols());
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const Vector c = x.col(j).array() - s.mean(j);
        const double sd = std::sqrt(c.squaredNorm() / n);
        // Relative threshold: a column constant up to rounding carries no signal.
        const bool constant = !(sd > 1e-12 * std::max(1.0, std::abs(s.mean(j))));
        s.scale(j) = constant ? 0.0 : sd;
        s.z.col(j) = constant ? Vector::Zero(x.rows()) : Vector(c / sd);
    }
    s.yMean = y.size() ? y.mean() : 0.0;
    s.yc = y.array() - s.yMean;
    return s;
}

double softThreshold(double v, double t) { return v > t ? v - t : v < -t ? v + t : 0.0; }

// Coordinate descent on standardised columns (each of mean 0 and mean square 1),
// warm-started from `b`; `r` is the residual yc − Z·b and kept up to date.
int descend(const Matrix &z, const Vector &scale, Vector &b, Vector &r, double lambda, double tolerance, int maxSweeps)
{
    const double n = double(z.rows());
    std::vector<Eigen::Index> active;
    int sweeps = 0;
    bool full = true;
    while (sweeps < maxSweeps) {
        ++sweeps;
        double maxChange = 0;
        auto update = [&](Eigen::Index j) {
            if (scale(j) == 0)
                return;
            const double old = b(j);
            const double rho = z.col(j).dot(r) / n + old;
            const double v = softThreshold(rho, lambda);
            if (v != old) {
                r -= (v - old) * z.col(j);
                b(j) = v;
                maxChange = std::max(maxChange, std::abs(v - old));
            }
        };
        if (full) {
            for (Eigen::Index j = 0; j < z.cols(); ++j)
                update(j);
            active.clear();
            for (Eigen::Index j = 0; j < z.cols(); ++j)
                if (b(j) != 0)
                    active.push_back(j);
            if (maxChange < tolerance)
                break; // a full sweep changed nothing: converged
            full = false;
        } else {
            for (Eigen::Index j : active)
                update(j);
            if (maxChange < tolerance)
                full = true; // the active set converged: check every column once more
        }
    }
    return sweeps;
}

LassoFit toOriginalScale(const Standardised &s, const Vector &b, double lambda, int iterations)
{
    LassoFit f;
    f.lambda = lambda;
    f.iterations = iterations;
    f.beta = Vector::Zero(b.size());
    f.intercept = s.yMean;
    for (Eigen::Index j = 0; j < b.size(); ++j) {
        if (s.scale(j) == 0 || b(j) == 0)
            continue;
        f.beta(j) = b(j) / s.scale(j);
        f.intercept -= f.beta(j) * s.mean(j);
    }
    return f;
}

std::vector<double> lambdaPath(double lambdaMax, int length)
{
    std::vector<double> path;
    length = std::max(2, length);
    const double top = lambdaMax > 0 ? lambdaMax : 1e-12;
    for (int i = 0; i < length; ++i)
        path.push_back(top * std::pow(1e-4, double(i) / (length - 1)));
    return path;
}

} // namespace

double lassoLambdaMax(const Matrix &x, const Vector &y)
{
    if (x.rows() == 0)
        return 0;
    const Standardised s = standardise(x, y);
    return (s.z.transpose() * s.yc).cwiseAbs().maxCoeff() / double(x.rows());
}

LassoFit lasso(const Matrix &x, const Vector &y, double lambda, double tolerance, int maxSweeps)
{
    const Standardised s = standardise(x, y);
    Vector b = Vector::Zero(x.cols());
    Vector r = s.yc;
    const int it = x.rows() ? descend(s.z, s.scale, b, r, lambda, tolerance, maxSweeps) : 0;
    return toOriginalScale(s, b, lambda, it);
}

LassoCv lassoCrossValidated(const Matrix &x, const Vector &y, int folds, int pathLength, std::uint64_t seed,
                            const std::atomic<bool> *cancel)
{
    LassoCv out;
    const Eigen::Index n = x.rows();
    folds = int(std::clamp<Eigen::Index>(folds, 2, std::max<Eigen::Index>(2, n)));
    out.folds = folds;
    const std::vector<double> path = lambdaPath(lassoLambdaMax(x, y), pathLength);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
    std::vector<double> error(path.size(), 0.0);
    for (int k = 0; k < folds && n >= 2; ++k) {
        std::vector<Eigen::Index> train, test;
        for (Eigen::Index i = 0; i < n; ++i)
            (i % folds == k ? test : train).push_back(order[std::size_t(i)]);
        if (test.empty() || train.size() < 2)
            continue;
        const Matrix xt = x(train, Eigen::all);
        const Vector yt = y(train);
        const Matrix xv = x(test, Eigen::all);
        const Vector yv = y(test);
        const Standardised s = standardise(xt, yt);
        Vector b = Vector::Zero(x.cols());
        Vector r = s.yc;
        for (std::size_t l = 0; l < path.size(); ++l) {
            if (cancel && cancel->load())
                return LassoCv{};
            const int it = descend(s.z, s.scale, b, r, path[l], 1e-7, 2000);
            const LassoFit f = toOriginalScale(s, b, path[l], it);
            const Vector pred = (xv * f.beta).array() + f.intercept;
            error[l] += (pred - yv).squaredNorm() / double(n);
        }
    }
    std::size_t best = 0;
    for (std::size_t l = 1; l < path.size(); ++l)
        if (error[l] < error[best])
            best = l;
    out.lambdas = path;
    out.cvError = error;
    out.fit = lasso(x, y, path[best]);
    return out;
}

long monomialCount(int variables, int order)
{
    long c = 1; // C(n + k, k)
    for (int i = 1; i <= order; ++i)
        c = c * (variables + i) / i;
    return c - 1;
}

Matrix polynomialExpand(const Matrix &basic, int order, std::vector<std::vector<int>> *powers)
{
    const int n = int(basic.cols());
    std::vector<std::vector<int>> all;
    // Combinations with replacement of each degree, in lexicographic order.
    for (int degree = 1; degree <= order; ++degree) {
        std::vector<int> idx(std::size_t(degree), 0);
        while (true) {
            std::vector<int> p(std::size_t(n), 0);
            for (int i : idx)
                ++p[std::size_t(i)];
            all.push_back(std::move(p));
            int pos = degree - 1;
            while (pos >= 0 && idx[std::size_t(pos)] == n - 1)
                --pos;
            if (pos < 0)
                break;
            const int v = idx[std::size_t(pos)] + 1;
            for (int i = pos; i < degree; ++i)
                idx[std::size_t(i)] = v;
        }
    }
    Matrix out(basic.rows(), Eigen::Index(all.size()));
    for (std::size_t c = 0; c < all.size(); ++c) {
        Vector col = Vector::Ones(basic.rows());
        for (int b = 0; b < n; ++b)
            for (int k = 0; k < all[c][std::size_t(b)]; ++k)
                col.array() *= basic.col(b).array();
        out.col(Eigen::Index(c)) = col;
    }
    if (powers)
        *powers = std::move(all);
    return out;
}

Pca principalComponents(const Matrix &x, double minExplained)
{
    Pca p;
    const Standardised s = standardise(x, Vector::Zero(x.rows()));
    p.mean = s.mean;
    p.scale = s.scale;
    if (x.rows() < 2) {
        p.components = Matrix::Zero(x.cols(), 0);
        p.explained = Vector::Zero(0);
        return p;
    }
    Eigen::BDCSVD<Matrix> svd(s.z, Eigen::ComputeThinV);
    const Vector sv2 = svd.singularValues().array().square();
    const double total = sv2.sum();
    Eigen::Index keep = 0;
    while (keep < sv2.size() && total > 0 && sv2(keep) / total > minExplained)
        ++keep;
    p.components = svd.matrixV().leftCols(keep);
    p.explained = total > 0 ? Vector(sv2.head(keep) / total) : Vector::Zero(keep);
    return p;
}

double mape(const Vector &actual, const Vector &predicted)
{
    double sum = 0;
    Eigen::Index n = 0;
    for (Eigen::Index i = 0; i < actual.size(); ++i) {
        if (actual(i) == 0)
            continue;
        sum += std::abs((predicted(i) - actual(i)) / actual(i));
        ++n;
    }
    return n ? 100.0 * sum / double(n) : 0.0;
}

double rSquared(const Vector &actual, const Vector &predicted)
{
    if (actual.size() == 0)
        return 0;
    const double mean = actual.mean();
    const double ssTot = (actual.array() - mean).square().sum();
    const double ssRes = (actual - predicted).squaredNorm();
    return ssTot > 0 ? 1.0 - ssRes / ssTot : 0.0;
}

} // namespace roofline::brouwer
