// Fitting Brouwer devices (seed 002 §3.2, §3.3, §4.3): recovery of known
// coefficients from synthetic data, LASSO dropping features without signal,
// the polynomial expansion, and leave-one-network-out cross-validation on the
// real EdgeCaffe measurements (tests/data/edgecaffe/measured, BSD-2-Clause).
#include "brouwer/fit.h"
#include "brouwer/io.h"
#include "brouwer/regression.h"
#include "network/import.h"

#include <QTest>

#include <cmath>
#include <filesystem>
#include <random>

using namespace roofline;
using namespace roofline::brouwer;

namespace {

// Known feature-engineering coefficients per category: standard (a, b), swapping (a, b, c).
struct Known
{
    double a, b, a2, b2, c2;
};
constexpr Known kKnown[kCategoryCount] = {
    {1.2, 0.9, 1.8, 0.95, 0.3},  {5.0, 0, 5.3, 0, 0.2},    {0.5, 1.1, 0.1, 1.3, 0.6},
    {0.3, 0.6, 2.3, 0.4, 0.4},   {1.9, 0.8, 2.0, 0.8, 0.05}, {4.1, 0.5, 2.9, 0.7, 0.1},
    {2.5, 0.6, 4.4, 0.5, 0.35},  {3.7, 0.6, 3.2, 0.8, 0.2},  {4.4, 0.15, 0.4, 0.2, 1.6},
};

// Observations whose log10 times follow kKnown exactly (noise = 0) or with
// Gaussian noise of `sigma` in log space.
std::vector<Observation> synthetic(double sigma, int perRegime, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> logx(2, 8), logf(1, 7);
    std::normal_distribution<double> noise(0, sigma);
    std::vector<Observation> out;
    for (int c = 0; c < kCategoryCount; ++c) {
        const Category cat = Category(c);
        const Predictor pred = defaultPredictor(cat);
        for (int swap = 0; swap < 2; ++swap) {
            for (int i = 0; i < perRegime; ++i) {
                Observation o;
                o.network = "net" + std::to_string(i % 3);
                o.submodel = cat;
                o.features.category = cat == Category::Load || cat == Category::LoadP0 ? Category::Conv : cat;
                const double x = std::pow(10.0, logx(rng));
                o.features.inputs = x;
                o.features.parameters = cat == Category::LoadP0 ? 0 : x;
                o.features.multiplications = x;
                o.features.outputs = x / 2;
                o.overflow = swap ? std::pow(10.0, logf(rng)) : 0;
                const Known &k = kKnown[c];
                double y = swap ? k.a2 : k.a;
                if (pred != Predictor::None)
                    y += (swap ? k.b2 : k.b) * std::log10(x);
                if (swap)
                    y += k.c2 * std::log10(o.overflow);
                if (sigma > 0)
                    y += noise(rng);
                o.timeNs = std::pow(10.0, y);
                out.push_back(o);
            }
        }
    }
    return out;
}

struct EdgeCaffe
{
    std::vector<Observation> observations;
    int unmatchedWarnings = 0;
};

EdgeCaffe edgeCaffe()
{
    const std::string dir = ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/";
    std::vector<NamedNetwork> networks;
    const std::vector<std::pair<std::string, std::string>> files = {{"AgeNet", "AgeNet.prototxt"},
                                                                    {"GenderNet", "GenderNet.prototxt"},
                                                                    {"FaceNet", "FaceNet.prototxt"},
                                                                    {"Salient Object Subitizing", "SoS.prototxt"}};
    for (const auto &[name, file] : files) {
        const network::NetworkLoad n = network::importCaffeFile(dir + file);
        if (!n.network)
            qFatal("%s", n.diagnostics.toString().c_str());
        networks.push_back({{name}, layerFeatures(*n.network)});
    }
    std::vector<MeasuredRow> rows;
    for (const auto &entry : std::filesystem::directory_iterator(dir + "measured")) {
        if (entry.path().filename().string().find("linear-") == std::string::npos)
            continue;
        const MeasuredLoad m = loadMeasuredFile(entry.path().string());
        if (m.diagnostics.hasErrors())
            qFatal("%s", m.diagnostics.toString().c_str());
        rows.insert(rows.end(), m.rows.begin(), m.rows.end());
    }
    Observations o = buildObservations(rows, networks, 4);
    return {o.items, int(o.diagnostics.warnings().size())};
}

} // namespace

class TestBrouwerFit : public QObject
{
    Q_OBJECT
private slots:
    void olsExact()
    {
        // y = 3 - 2 x1 + 0.5 x2, exactly.
        Matrix x(6, 3);
        Vector y(6);
        for (int i = 0; i < 6; ++i) {
            x(i, 0) = 1;
            x(i, 1) = i;
            x(i, 2) = i * i;
            y(i) = 3 - 2 * i + 0.5 * i * i;
        }
        const Vector b = ols(x, y);
        QVERIFY(std::abs(b(0) - 3) < 1e-12 && std::abs(b(1) + 2) < 1e-12 && std::abs(b(2) - 0.5) < 1e-12);
        // Bagging exact data gives the same coefficients (every resample is exact).
        const Vector bb = olsBagged(x, y, 50, 7);
        QVERIFY((bb - b).cwiseAbs().maxCoeff() < 1e-9);
    }

    // A fit on data generated from known coefficients recovers them: to 1e-9
    // without noise, within the expected spread with noise.
    void syntheticRecovery_data()
    {
        QTest::addColumn<double>("sigma");
        QTest::addColumn<int>("bootstrap");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("no noise, OLS") << 0.0 << 0 << 1e-9;
        QTest::newRow("no noise, bagged 30") << 0.0 << 30 << 1e-9;
        // sigma 0.05 over 400 points with log x spread ~1.7: slope SE ~ 0.0015; 0.02 is > 10 SE.
        QTest::newRow("sigma 0.05, OLS") << 0.05 << 0 << 0.02;
        QTest::newRow("sigma 0.05, bagged 30") << 0.05 << 30 << 0.02;
    }
    void syntheticRecovery()
    {
        QFETCH(double, sigma);
        QFETCH(int, bootstrap);
        QFETCH(double, tolerance);
        const auto obs = synthetic(sigma, sigma > 0 ? 400 : 12, 42);
        FitOptions o;
        o.bootstrap = bootstrap;
        const FitOutcome f = fitDevice(obs, o);
        QVERIFY(f.device);
        // The intercept's spread is larger (x is far from 0 in log space): 10x the slope's.
        for (int c = 0; c < kCategoryCount; ++c) {
            const FeSubmodel &m = f.device->fe[std::size_t(c)];
            const Known &k = kKnown[c];
            QVERIFY(m.standard.calibrated && m.swapping.calibrated);
            const double ti = sigma > 0 ? tolerance * 10 : tolerance;
            if (std::abs(m.standard.intercept - k.a) > ti || std::abs(m.swapping.intercept - k.a2) > ti
                || std::abs(m.swapping.overflow - k.c2) > tolerance
                || (m.predictor != Predictor::None
                    && (std::abs(m.standard.slope - k.b) > tolerance || std::abs(m.swapping.slope - k.b2) > tolerance)))
                QFAIL(qPrintable(QStringLiteral("%1: got %2 %3 | %4 %5 %6")
                                     .arg(categoryLabel(Category(c)))
                                     .arg(m.standard.intercept, 0, 'g', 12)
                                     .arg(m.standard.slope, 0, 'g', 12)
                                     .arg(m.swapping.intercept, 0, 'g', 12)
                                     .arg(m.swapping.slope, 0, 'g', 12)
                                     .arg(m.swapping.overflow, 0, 'g', 12)));
            if (sigma == 0)
                QVERIFY(std::abs(m.standard.smearing - 1) < 1e-9); // no residuals: no correction
        }
        if (sigma == 0)
            QVERIFY(f.device->fit->mapeLog < 1e-9);
    }

    // LASSO zeroes features that carry no signal.
    void lassoZeroesNoise()
    {
        std::mt19937_64 rng(3);
        std::normal_distribution<double> g(0, 1), e(0, 0.01);
        const int n = 200, p = 12;
        Matrix x(n, p);
        Vector y(n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < p; ++j)
                x(i, j) = g(rng) * (j + 1); // different scales: standardisation must handle them
            y(i) = 2 + 3 * x(i, 0) - 0.5 * x(i, 3) + e(rng);
        }
        const LassoFit f = lasso(x, y, 0.05);
        QVERIFY(f.beta(0) > 2.5 && f.beta(3) < -0.4);
        for (int j = 0; j < p; ++j)
            if (j != 0 && j != 3)
                QCOMPARE(f.beta(j), 0.0);
        // Above lambda_max every coefficient is zero; the intercept is the mean.
        const LassoFit none = lasso(x, y, lassoLambdaMax(x, y) * 1.0001);
        QCOMPARE(none.beta.cwiseAbs().maxCoeff(), 0.0);
        QVERIFY(std::abs(none.intercept - y.mean()) < 1e-12);
        // Cross-validated lambda keeps the signal.
        const LassoCv cv = lassoCrossValidated(x, y, 5, 30, 1);
        QCOMPARE(cv.lambdas.size(), std::size_t(30));
        QVERIFY(std::abs(cv.fit.beta(0) - 3) < 0.05 && std::abs(cv.fit.beta(3) + 0.5) < 0.05);
        // Constant columns (swap indicator with no swapping data) get 0.
        Matrix xc = x;
        xc.col(5).setConstant(1.0);
        QCOMPARE(lasso(xc, y, 0.001).beta(5), 0.0);
    }

    // Through fitDevice: times that depend only on I keep only I-terms.
    void featureSelectionKeepsSignal()
    {
        std::vector<Observation> obs;
        std::mt19937_64 rng(9);
        std::uniform_real_distribution<double> lx(2, 7);
        for (int i = 0; i < 60; ++i) {
            Observation o;
            o.network = "n";
            o.submodel = Category::Act;
            o.features.category = Category::Act;
            o.features.inputs = std::pow(10.0, lx(rng));
            o.features.outputs = std::pow(10.0, lx(rng)); // unrelated to the time
            o.timeNs = std::pow(10.0, 2 + 0.8 * std::log10(1 + o.features.inputs));
            obs.push_back(o);
        }
        FitOptions fo;
        fo.kind = ModelKind::FeatureSelection;
        fo.order = 1;
        fo.lambda = 0.01;
        const FitOutcome f = fitDevice(obs, fo);
        QVERIFY(f.device);
        const FsSubmodel &m = f.device->fs[std::size_t(Category::Act)];
        QCOMPARE(int(m.terms.size()), 1);
        QCOMPARE(m.terms[0].toString(), std::string("I"));
        QVERIFY(std::abs(m.terms[0].coefficient - 0.8) < 0.01);
        // With PCA the components fold back onto the monomials.
        fo.pca = true;
        fo.order = 2;
        fo.lambda.reset();
        const FitOutcome g = fitDevice(obs, fo);
        QVERIFY(g.device && g.device->fit->pca);
        QVERIFY(g.device->fit->components >= 1);
        QVERIFY2(g.device->fit->r2Log > 0.9, qPrintable(QString::number(g.device->fit->r2Log)));
    }

    void polynomialExpansion()
    {
        QCOMPARE(monomialCount(8, 1), 8L);
        QCOMPARE(monomialCount(8, 3), 164L);
        QCOMPARE(monomialCount(8, 6), 3002L);
        Matrix b(1, 3);
        b << 2, 3, 5;
        std::vector<std::vector<int>> powers;
        const Matrix e = polynomialExpand(b, 2, &powers);
        QCOMPARE(e.cols(), Eigen::Index(9));
        // degree 1: x0 x1 x2; degree 2: x0² x0x1 x0x2 x1² x1x2 x2²
        const double want[] = {2, 3, 5, 4, 6, 10, 9, 15, 25};
        for (int i = 0; i < 9; ++i)
            QCOMPARE(e(0, i), want[i]);
        QCOMPARE(powers[4], (std::vector<int>{1, 1, 0}));
    }

    void metrics()
    {
        Vector a(4), p(4);
        a << 1, 2, 4, 8;
        p << 1.1, 1.8, 4, 8;
        QVERIFY(std::abs(mape(a, p) - 100.0 * (0.1 + 0.1) / 4) < 1e-12);
        QCOMPARE(rSquared(a, a), 1.0);
    }

    // EdgeCaffe's measurements (34 files, 4 networks, no memory limit): the
    // training fit and leave-one-network-out cross-validation. The figures are
    // those in docs/models/brouwer.md; they are pinned so a change shows.
    void edgeCaffeCrossValidation()
    {
        const EdgeCaffe data = edgeCaffe();
        // 19 + 19 + 23 + 21 layers with a time, each a load and an exec observation.
        QCOMPARE(int(data.observations.size()), 164);
        FitOptions o;
        const FitOutcome fe = fitDevice(data.observations, o);
        QVERIFY(fe.device);
        qInfo("FE training: MAPE log %.4f %%, linear %.4f %%, R2 log %.4f", fe.device->fit->mapeLog,
              fe.device->fit->mapeLinear, fe.device->fit->r2Log);
        QVERIFY(std::abs(fe.device->fit->mapeLog - 5.2795) < 1e-3);
        QVERIFY(std::abs(fe.device->fit->r2Log - 0.8520) < 1e-3);
        // No memory limit in the data: no swapping regime can be fitted.
        for (const FeSubmodel &m : fe.device->fe)
            QVERIFY(!m.swapping.calibrated);
        std::vector<std::pair<int, int>> reported;
        o.progress = [&](int done, int total) { reported.emplace_back(done, total); };
        const CvReport cv = leaveOneNetworkOut(data.observations, o);
        o.progress = nullptr;
        QVERIFY(!cv.cancelled);
        QCOMPARE(reported, (std::vector<std::pair<int, int>>{{1, 4}, {2, 4}, {3, 4}, {4, 4}})); // one per fold
        QCOMPARE(int(cv.folds.size()), 4);
        for (const CvFold &f : cv.folds) {
            qInfo("held out %-26s MAPE log %7.3f %%  linear %10.4g %%  measured %8.1f ms  predicted %10.4g ms",
                  f.heldOut.c_str(), f.metrics.mapeLog, f.metrics.mapeLinear, f.measuredMs, f.predictedMs);
            QVERIFY(std::isfinite(f.metrics.mapeLog) && f.metrics.rows > 0);
        }
        QCOMPARE(cv.pooled.rows, 164);
        QVERIFY(std::abs(cv.pooled.mapeLog - 15.38) < 0.01);
        // Cancelled: said so, and no fold is reported as if it were the whole.
        std::atomic<bool> cancel{true};
        o.cancel = &cancel;
        const CvReport stopped = leaveOneNetworkOut(data.observations, o);
        o.cancel = nullptr;
        QVERIFY(stopped.cancelled);
        QVERIFY(stopped.folds.empty());
        QCOMPARE(stopped.pooled.rows, 0);

        FitOptions ls;
        ls.kind = ModelKind::FeatureSelection;
        ls.order = 3;
        ls.pca = true;
        const FitOutcome fs = fitDevice(data.observations, ls);
        QVERIFY(fs.device);
        qInfo("LASSO cubic PCA training: MAPE log %.4f %%, R2 log %.4f", fs.device->fit->mapeLog, fs.device->fit->r2Log);
        QVERIFY(fs.device->fit->mapeLog < 10);
        // No memory limit in the data: LASSO's one model per category has seen no swapping,
        // so a swapping layer is predicted (the F and indicator terms are 0) but marked uncalibrated.
        for (const FsSubmodel &m : fs.device->fs)
            QVERIFY(!m.calibrated || !m.swappingCalibrated);
        const Observation &first = data.observations.front();
        const PartPrediction fits = predictPart(*fs.device, first.submodel, first.features, 0);
        const PartPrediction swaps = predictPart(*fs.device, first.submodel, first.features, 1e6);
        QVERIFY(fits.calibrated);
        QVERIFY(!swaps.calibrated);
        QVERIFY(swaps.ms > 0);
        const DeviceLoad back = parseDevice(serialize(*fs.device), "fs.json");
        QVERIFY(back.device);
        QCOMPARE(back.device->fs, fs.device->fs); // the flag survives the file
        // The shipped LASSO device says so too.
        const DeviceLoad shipped = loadDeviceFile(ROOFLINE_SOURCE_DIR "/examples/brouwer/edgecaffe-lasso.json");
        QVERIFY(shipped.device);
        for (const FsSubmodel &m : shipped.device->fs)
            QVERIFY(!m.calibrated || !m.swappingCalibrated);
        const CvReport cvl = leaveOneNetworkOut(data.observations, ls);
        qInfo("LASSO cubic PCA LONO pooled: MAPE log %.4f %%, linear %.4g %%", cvl.pooled.mapeLog,
              cvl.pooled.mapeLinear);
        QCOMPARE(int(cvl.folds.size()), 4);
    }

    // A fitted device survives its file.
    void fittedDeviceRoundTrip()
    {
        const auto obs = synthetic(0.1, 20, 5);
        for (ModelKind kind : {ModelKind::FeatureEngineering, ModelKind::FeatureSelection}) {
            FitOptions o;
            o.kind = kind;
            o.bootstrap = 5;
            FitOutcome f = fitDevice(obs, o);
            QVERIFY(f.device);
            if (kind == ModelKind::FeatureSelection) // the synthetic data swap: both regimes seen
                for (const FsSubmodel &m : f.device->fs)
                    QVERIFY(!m.calibrated || m.swappingCalibrated);
            f.device->name = "round trip";
            const DeviceLoad back = parseDevice(serialize(*f.device), "mem.json");
            QVERIFY2(back.device, back.diagnostics.toString().c_str());
            QVERIFY(*back.device == *f.device);
        }
    }

    void cancel()
    {
        const auto obs = synthetic(0.1, 20, 5);
        std::atomic<bool> stop{true};
        FitOptions o;
        o.kind = ModelKind::FeatureSelection;
        o.cancel = &stop;
        const FitOutcome f = fitDevice(obs, o);
        QVERIFY(f.cancelled);
        QVERIFY(!f.device);
    }
};

QTEST_GUILESS_MAIN(TestBrouwerFit)
#include "tst_brouwer_fit.moc"
