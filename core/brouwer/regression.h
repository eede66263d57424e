// The regressions of seed 002 §3.2–3.3 and §4.3 on Eigen: ordinary least squares
// with optional bootstrap aggregating, LASSO by coordinate descent with λ chosen
// by k-fold cross-validation, polynomial expansion, principal components, and
// the seed's metrics. All deterministic for a given seed.
#pragma once

#include <Eigen/Dense>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace roofline::brouwer {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// Least squares: the minimum-norm solution of X·b ≈ y (complete orthogonal
// decomposition, so collinear columns do not fail). X carries its own intercept column.
Vector ols(const Matrix &x, const Vector &y);

// Bootstrap aggregating (seed §3.2): `resamples` fits on rows drawn with
// replacement, coefficients averaged. resamples <= 0 is plain OLS. A resample
// of lower rank than X is drawn again (up to 100 times).
Vector olsBagged(const Matrix &x, const Vector &y, int resamples, std::uint64_t seed);

struct LassoFit
{
    double intercept = 0;
    Vector beta; // per column of X, in X's own scale
    double lambda = 0;
    int iterations = 0;
};

// min (1/2n)·|y − a − X·b|² + λ·|b|₁ by cyclic coordinate descent on standardised
// columns (constant columns get 0), coefficients returned in X's scale.
LassoFit lasso(const Matrix &x, const Vector &y, double lambda, double tolerance = 1e-9, int maxSweeps = 10000);
// The smallest λ at which every coefficient is zero.
double lassoLambdaMax(const Matrix &x, const Vector &y);

struct LassoCv
{
    LassoFit fit;                 // on all rows at the chosen λ
    std::vector<double> lambdas;  // the path, descending
    std::vector<double> cvError;  // mean squared error over the folds, per λ
    int folds = 0;
};
// k-fold cross-validation over a log-spaced path of `pathLength` λ from
// lassoLambdaMax down to 1e-4 of it; the λ with the smallest mean error wins.
// `cancel` (may be null) stops early: the result then has an empty path.
LassoCv lassoCrossValidated(const Matrix &x, const Vector &y, int folds, int pathLength, std::uint64_t seed,
                            const std::atomic<bool> *cancel = nullptr);

// All monomials of the columns up to `order` (combinations with replacement,
// seed §3.3), degree 1 first; `powers` receives each column's exponents.
Matrix polynomialExpand(const Matrix &basic, int order, std::vector<std::vector<int>> *powers);
// Number of monomials of degree 1..order in n variables: C(n + order, order) − 1.
long monomialCount(int variables, int order);

// Principal components of standardised columns: scores = ((X − mean) / scale)·components.
struct Pca
{
    Vector mean, scale;
    Matrix components;      // columns, by decreasing variance
    Vector explained;       // fraction of variance per kept component
};
// Keeps the components explaining more than `minExplained` of the variance (seed §4.2: 1 %).
Pca principalComponents(const Matrix &x, double minExplained);

// Seed §4.3: mean absolute percentage error (in %), and R².
double mape(const Vector &actual, const Vector &predicted);
double rSquared(const Vector &actual, const Vector &predicted);

} // namespace roofline::brouwer
