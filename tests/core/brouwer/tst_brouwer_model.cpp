// Brouwer's model (seed 002 §3.1–3.2): required memory and overflow of every
// AgeNet layer worked out by hand, the regime switch exactly where F crosses 0,
// equation 1, and the memory curve's knees.
#include "brouwer/goalseek.h"
#include "brouwer/io.h"
#include "brouwer/model.h"
#include "brouwer/sensitivity.h"
#include "network/import.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <map>

using namespace roofline;
using namespace roofline::brouwer;

namespace {

std::vector<LayerFeatures> ageNet()
{
    const network::NetworkLoad n =
        network::importCaffeFile(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/AgeNet.prototxt");
    if (!n.network)
        qFatal("%s", n.diagnostics.toString().c_str());
    return layerFeatures(*n.network);
}

Device seedFe()
{
    const DeviceLoad d = loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/brouwer/seed-table2-fe.json");
    if (!d.device)
        qFatal("%s", d.diagnostics.toString().c_str());
    return *d.device;
}

} // namespace

class TestBrouwerModel : public QObject
{
    Q_OBJECT
private slots:
    // AgeNet (Levi & Hassner; EdgeCaffe's prototxt): input 3x227x227, Caffe
    // rounds pooling up. I, P (weights + biases), O in elements, by hand.
    void ageNetByHand_data()
    {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("category");
        QTest::addColumn<double>("inputs");
        QTest::addColumn<double>("parameters");
        QTest::addColumn<double>("outputs");
        // conv1: 96 filters 7x7/4 on 3x227x227 -> 96x56x56; P = 96*3*49 + 96
        QTest::newRow("conv1") << "conv1" << "conv" << 154587.0 << 14208.0 << 301056.0;
        QTest::newRow("relu1") << "relu1" << "act" << 301056.0 << 0.0 << 301056.0;
        // pool1: 3x3/2, ceil((56-3)/2)+1 = 28
        QTest::newRow("pool1") << "pool1" << "pool" << 301056.0 << 0.0 << 75264.0;
        QTest::newRow("norm1") << "norm1" << "norm" << 75264.0 << 0.0 << 75264.0;
        // conv2: 256 filters 5x5 pad 2 on 96x28x28; P = 256*96*25 + 256
        QTest::newRow("conv2") << "conv2" << "conv" << 75264.0 << 614656.0 << 200704.0;
        QTest::newRow("relu2") << "relu2" << "act" << 200704.0 << 0.0 << 200704.0;
        QTest::newRow("pool2") << "pool2" << "pool" << 200704.0 << 0.0 << 50176.0;
        QTest::newRow("norm2") << "norm2" << "norm" << 50176.0 << 0.0 << 50176.0;
        // conv3: 384 filters 3x3 pad 1 on 256x14x14; P = 384*256*9 + 384
        QTest::newRow("conv3") << "conv3" << "conv" << 50176.0 << 885120.0 << 75264.0;
        QTest::newRow("relu3") << "relu3" << "act" << 75264.0 << 0.0 << 75264.0;
        QTest::newRow("pool5") << "pool5" << "pool" << 75264.0 << 0.0 << 18816.0;
        // fc6: 384*7*7 = 18816 inputs to 512; P = 18816*512 + 512
        QTest::newRow("fc6") << "fc6" << "fc" << 18816.0 << 9634304.0 << 512.0;
        QTest::newRow("relu6") << "relu6" << "act" << 512.0 << 0.0 << 512.0;
        QTest::newRow("drop6") << "drop6" << "drop" << 512.0 << 0.0 << 512.0;
        QTest::newRow("fc7") << "fc7" << "fc" << 512.0 << 262656.0 << 512.0;
        QTest::newRow("relu7") << "relu7" << "act" << 512.0 << 0.0 << 512.0;
        QTest::newRow("drop7") << "drop7" << "drop" << 512.0 << 0.0 << 512.0;
        QTest::newRow("fc8") << "fc8" << "fc" << 512.0 << 4104.0 << 8.0;
        QTest::newRow("prob (softmax)") << "prob" << "other" << 8.0 << 0.0 << 8.0;
    }
    void ageNetByHand()
    {
        QFETCH(QString, layer);
        QFETCH(QString, category);
        QFETCH(double, inputs);
        QFETCH(double, parameters);
        QFETCH(double, outputs);
        const auto layers = ageNet();
        QCOMPARE(layers.size(), std::size_t(19));
        const auto it = std::find_if(layers.begin(), layers.end(),
                                     [&](const LayerFeatures &l) { return l.name == layer.toStdString(); });
        QVERIFY(it != layers.end());
        QCOMPARE(QString(categoryName(it->category)), category);
        QCOMPARE(it->inputs, inputs);
        QCOMPARE(it->parameters, parameters);
        QCOMPARE(it->outputs, outputs);
        const double required = inputs + parameters + outputs;
        QCOMPARE(it->requiredElements(), required);
        // Under 1 MiB of fp32 (262144 elements) the overflow is what does not fit.
        QCOMPARE(overflowElements(*it, 1048576, 4), std::max(0.0, required - 262144));
        // fp16: twice the elements fit in the same bytes.
        QCOMPARE(overflowElements(*it, 1048576, 2), std::max(0.0, required - 524288));
        const LayerPrediction p = predictLayer(seedFe(), *it, {1048576, 4});
        QCOMPARE(p.requiredBytes, required * 4);
        QCOMPARE(p.swapping(), required > 262144);
    }

    // The regime switches exactly where F crosses 0: conv2 needs
    // 75264 + 614656 + 200704 = 890624 elements = 3,562,496 bytes in fp32.
    void regimeSwitchAtZeroOverflow()
    {
        const auto layers = ageNet();
        const LayerFeatures &conv2 = layers[4];
        QCOMPARE(conv2.name, std::string("conv2"));
        const Device d = seedFe();
        const LayerPrediction at = predictLayer(d, conv2, {3562496, 4});
        const LayerPrediction below = predictLayer(d, conv2, {3562495, 4});
        QCOMPARE(at.overflow, 0.0);
        QVERIFY(!at.swapping());
        QCOMPARE(below.overflow, 1.0);
        QVERIFY(below.swapping());
        QVERIFY(!at.exec.swapping && below.exec.swapping && below.load.swapping);
        // Standard regime of Table 2's CONV: log10 t = 0.288 + 0.603 log10 M.
        const double m = conv2.multiplications;
        QCOMPARE(at.exec.logTime, 0.288 + 0.603 * std::log10(m));
        // Swapping with F = 1: log10 F = 0, so only the regime's own intercept and slope.
        QCOMPARE(below.exec.logTime, 2.326 + 0.376 * std::log10(m));
        const LayerPrediction far = predictLayer(d, conv2, {1024, 4});
        QCOMPARE(far.overflow, 890624.0 - 256);
        QCOMPARE(far.exec.logTime, 2.326 + 0.376 * std::log10(m) + 0.394 * std::log10(890624.0 - 256));
        QCOMPARE(far.exec.ms, std::pow(10.0, far.exec.logTime) * 1e-6);
    }

    // Goal seek: the least memory that reaches a total time. With Table 2, AgeNet's
    // fc6 (9,653,632 elements, 38,614,528 B in fp32) costs orders of magnitude more
    // when it swaps, so any target between the all-in-memory total and the total
    // one byte below the knee needs exactly the knee.
    void goalSeekMemory()
    {
        const auto layers = ageNet();
        const Device d = seedFe();
        const Params now{64.0 * 1024 * 1024, 4};
        const double lo = 16.0 * 1024 * 1024, hi = 16.0 * 1024 * 1024 * 1024;
        const double fits = evaluate(d, layers, {1e9, 4}).totalMs(false);
        const double swaps = evaluate(d, layers, {38614527, 4}).totalMs(false);
        QVERIFY(swaps > 100 * fits);
        const GoalSeek g = seekMemory(d, layers, now, fits * 1.5, false, lo, hi);
        QVERIFY2(g.found(), g.message.c_str());
        QCOMPARE(g.relation, std::string("≥"));
        QVERIFY2(std::abs(g.value - 38614528) <= 38614528 * 1e-9, std::to_string(g.value).c_str());
        QVERIFY(g.achieved <= fits * 1.5);
        QVERIFY(evaluate(d, layers, {g.value * (1 - 1e-6), 4}).totalMs(false) > fits * 1.5);
        QVERIFY2(g.message.find("needs available memory ≥ 36.83 MiB") != std::string::npos, g.message.c_str());
        // Within the swapping range the F term moves the total: a target between the total at
        // 16 MiB and just below the knee is met strictly inside (16 MiB, knee).
        const double at20 = evaluate(d, layers, {20.0 * 1024 * 1024, 4}).totalMs(false);
        const GoalSeek inside = seekMemory(d, layers, now, at20, false, lo, hi);
        QVERIFY2(inside.found(), inside.message.c_str());
        QVERIFY2(std::abs(inside.value - 20.0 * 1024 * 1024) < 20.0 * 1024 * 1024 * 1e-6, std::to_string(inside.value).c_str());
        // Faster than every layer in memory: no memory does it.
        const GoalSeek none = seekMemory(d, layers, now, fits * 0.5, false, lo, hi);
        QCOMPARE(none.status, GoalSeek::Status::Unreachable);
        QVERIFY(std::abs(none.cap - fits) <= fits * 1e-12);
        QVERIFY2(none.message.find("no memory up to 16 GiB") != std::string::npos, none.message.c_str());
        QCOMPARE(seekMemory(d, layers, now, -1, false, lo, hi).status, GoalSeek::Status::Invalid);
    }

    // Equation 1 as printed: O_D O_H O_W (P_D P_H P_W)^2 / G + O_D.
    void equationOne()
    {
        const auto layers = ageNet();
        // conv1: output 96x56x56, filter 3x7x7, one group, bias per channel
        QCOMPARE(layers[0].multiplications, 96.0 * 56 * 56 * (3.0 * 7 * 7) * (3.0 * 7 * 7) + 96);
        QCOMPARE(layers[11].multiplications, 0.0); // fc6 is not a convolution
        // A grouped convolution (AlexNet's conv2: 2 groups of 48 input channels).
        network::Network net;
        net.inputs.push_back({"data", {96, 27, 27, 1}});
        network::Layer conv;
        conv.name = "conv2";
        conv.inputs = {-1};
        conv.outChannels = 256;
        conv.kernelH = conv.kernelW = 5;
        conv.padH = conv.padW = 2;
        conv.groups = 2;
        net.layers.push_back(conv);
        Diagnostics diags;
        QVERIFY(network::inferShapes(net, diags));
        const auto f = layerFeatures(net);
        QCOMPARE(f[0].multiplications, 256.0 * 27 * 27 * (48.0 * 25) * (48.0 * 25) / 2 + 256);
        QCOMPARE(f[0].groups, 2.0);
        QCOMPARE(f[0].padding, 2.0);
    }

    // Knees are the layers' required bytes; the total is constant above the
    // largest and steps at every knee.
    void memoryCurveKnees()
    {
        const auto layers = ageNet();
        const Device d = seedFe();
        const Curve c = memoryCurve(d, layers, 4, 16.0 * 1024 * 1024 / 1024, 16.0 * 1024 * 1024 * 1024, 64);
        QVERIFY(!c.knees.empty());
        QCOMPARE(c.knees.back().layer, std::string("fc6"));
        QCOMPARE(c.knees.back().bytes, (18816.0 + 9634304 + 512) * 4);
        for (std::size_t i = 1; i < c.points.size(); ++i)
            QVERIFY(c.points[i].bytes > c.points[i - 1].bytes);
        // Above every knee: the unconstrained total.
        const Result free = evaluate(d, layers, {1e12, 4});
        QCOMPARE(c.points.back().totalMs, free.totalMs(false));
        // One byte below fc6's knee, fc6 swaps and only fc6.
        const Result r = evaluate(d, layers, {c.knees.back().bytes - 1, 4});
        QCOMPARE(r.swappingLayers, 1);
        QVERIFY(r.layers[11].swapping());
    }

    // A device without a swapping regime falls back to the standard one, marked.
    void uncalibratedFallback()
    {
        Device d;
        d.fe[std::size_t(Category::Act)].predictor = Predictor::I;
        d.fe[std::size_t(Category::Act)].standard = {true, 1.0, 0.5, 0, 2.0, 10};
        LayerFeatures l;
        l.category = Category::Act;
        l.inputs = 10000;
        l.outputs = 10000;
        const PartPrediction std_ = predictPart(d, Category::Act, l, 0);
        const PartPrediction swap = predictPart(d, Category::Act, l, 5000);
        QVERIFY(std_.calibrated);
        QVERIFY(!swap.calibrated);
        QCOMPARE(std_.logTime, 1.0 + 0.5 * 4);
        QCOMPARE(swap.logTime, std_.logTime);
        QCOMPARE(std_.smearedMs, std_.ms * 2.0);
        const PartPrediction none = predictPart(d, Category::Conv, l, 0);
        QVERIFY(!none.calibrated);
        QCOMPARE(none.ms, 0.0);
    }

    // Sensitivity over the coefficients: every row equals the core's total with
    // that one coefficient scaled in a copy of the device (evaluated from
    // scratch here); coefficients that move nothing are absent; the labels name
    // the category, regime and term. Our FE fit, Table 2 (FE) and our LASSO
    // device, with AgeNet swapping (24 MiB) and in memory (16 GiB).
    void coefficientSensitivityMatchesBruteForce_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<double>("memory");
        for (const char *file : {"edgecaffe-fe.json", "seed-table2-fe.json", "edgecaffe-lasso.json"}) {
            QTest::addRow("%s at 24 MiB", file) << QString::fromLatin1(file) << 24.0 * 1024 * 1024;
            QTest::addRow("%s at 16 GiB", file) << QString::fromLatin1(file) << 16.0 * 1024 * 1024 * 1024;
        }
    }
    void coefficientSensitivityMatchesBruteForce()
    {
        QFETCH(QString, device);
        QFETCH(double, memory);
        const DeviceLoad load = loadDeviceFile(std::string(ROOFLINE_EXAMPLES_DIR "/brouwer/") + device.toStdString());
        QVERIFY2(load.device, load.diagnostics.toString().c_str());
        const Device &d = *load.device;
        const std::vector<LayerFeatures> layers = ageNet();
        Params params;
        params.availableBytes = memory;
        constexpr double step = 0.1;
        const std::vector<CoefficientSensitivity> rows = coefficientSensitivity(d, layers, params, step, false);
        std::map<std::string, CoefficientSensitivity> byLabel;
        for (const CoefficientSensitivity &r : rows)
            QVERIFY2(byLabel.emplace(r.label, r).second, r.label.c_str()); // labels are unique
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(std::abs(rows[i - 1].highMs - rows[i - 1].lowMs) >= std::abs(rows[i].highMs - rows[i].lowMs));
        const double base = evaluate(d, layers, params).totalMs(false);
        int probed = 0, moved = 0;
        // Brute force: scale one coefficient of a fresh copy, evaluate the whole network.
        auto check = [&](const std::string &label, const std::function<double &(Device &)> &coefficient) {
            Device lo = d, hi = d;
            coefficient(lo) *= 1 - step;
            coefficient(hi) *= 1 + step;
            const double l = evaluate(lo, layers, params).totalMs(false), h = evaluate(hi, layers, params).totalMs(false);
            ++probed;
            const auto it = byLabel.find(label);
            if (std::abs(l - base) <= 1e-12 * base && std::abs(h - base) <= 1e-12 * base) {
                // No visible move in the whole total: absent, or present with a swing lost in its rounding
                // (Table 2's 10¹⁴ ms fc6 dwarfs the ACT layers' microseconds).
                if (it != byLabel.end()) {
                    QVERIFY2(std::abs(it->second.highMs - it->second.lowMs) <= 1e-9 * base, label.c_str());
                    byLabel.erase(it);
                }
                return;
            }
            ++moved;
            QVERIFY2(it != byLabel.end(), label.c_str());
            QVERIFY2(std::abs(it->second.lowMs - l) <= 1e-9 * std::max(l, base), label.c_str());
            QVERIFY2(std::abs(it->second.highMs - h) <= 1e-9 * std::max(h, base), label.c_str());
            byLabel.erase(it);
        };
        for (int ci = 0; ci < kCategoryCount; ++ci) {
            const std::string cat = categoryLabel(Category(ci));
            if (d.kind == ModelKind::FeatureEngineering) {
                const std::string x = predictorName(d.fe[std::size_t(ci)].predictor);
                check(cat + " std a", [ci](Device &v) -> double & { return v.fe[std::size_t(ci)].standard.intercept; });
                check(cat + " swap a", [ci](Device &v) -> double & { return v.fe[std::size_t(ci)].swapping.intercept; });
                if (!x.empty()) {
                    check(cat + " std b·log " + x, [ci](Device &v) -> double & { return v.fe[std::size_t(ci)].standard.slope; });
                    check(cat + " swap b·log " + x, [ci](Device &v) -> double & { return v.fe[std::size_t(ci)].swapping.slope; });
                }
                check(cat + " swap c·log F", [ci](Device &v) -> double & { return v.fe[std::size_t(ci)].swapping.overflow; });
            } else {
                check(cat + " intercept", [ci](Device &v) -> double & { return v.fs[std::size_t(ci)].intercept; });
                for (std::size_t t = 0; t < d.fs[std::size_t(ci)].terms.size(); ++t)
                    check(cat + " " + d.fs[std::size_t(ci)].terms[t].toString(),
                          [ci, t](Device &v) -> double & { return v.fs[std::size_t(ci)].terms[t].coefficient; });
            }
        }
        QVERIFY2(byLabel.empty(), byLabel.empty() ? "" : byLabel.begin()->first.c_str()); // no row the brute force lacks
        QVERIFY(moved > 3);
        QVERIFY(probed > moved || memory > 1e9);
        if (memory < 1e9 && device.startsWith(QLatin1String("seed"))) // fc6 swaps: Table 2's F term moves the total
            QVERIFY(std::any_of(rows.begin(), rows.end(),
                                [](const CoefficientSensitivity &r) { return r.label == "FC swap c·log F"; }));
        if (memory > 1e9) // nothing swaps: no swapping coefficient moves anything
            QVERIFY(std::none_of(rows.begin(), rows.end(), [](const CoefficientSensitivity &r) {
                return r.label.find(" swap ") != std::string::npos;
            }));
        // Bad steps give nothing rather than nonsense.
        QVERIFY(coefficientSensitivity(d, layers, params, 0, false).empty());
        QVERIFY(coefficientSensitivity(d, layers, params, std::nan(""), false).empty());
    }

    void memorySizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("bytes");
        QTest::newRow("256MB") << "256MB" << 268435456.0;
        QTest::newRow("1.5GiB") << "1.5GiB" << 1610612736.0;
        QTest::newRow("4G") << "4G" << 4294967296.0;
        QTest::newRow("16 MB") << "16 MB" << 16777216.0;
        QTest::newRow("bytes") << "1e9" << 1e9;
        QTest::newRow("k") << "512k" << 524288.0;
        QTest::newRow("bad unit") << "4X" << -1.0;
        QTest::newRow("zero") << "0MB" << -1.0;
        QTest::newRow("negative") << "-4G" << -1.0;
        QTest::newRow("empty") << "" << -1.0;
        QTest::newRow("nan") << "nanMB" << -1.0;
    }
    void memorySizes()
    {
        QFETCH(QString, text);
        QFETCH(double, bytes);
        const auto v = parseMemorySize(text.toStdString());
        if (bytes < 0)
            QVERIFY(!v);
        else
            QCOMPARE(v.value_or(-1), bytes);
    }
};

QTEST_GUILESS_MAIN(TestBrouwerModel)
#include "tst_brouwer_model.moc"
