#include "sensitivity.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace roofline::brouwer {

std::vector<CoefficientSensitivity> coefficientSensitivity(const Device &device,
                                                           const std::vector<LayerFeatures> &layers,
                                                           const Params &params, double relativeStep, bool smeared)
{
    std::vector<CoefficientSensitivity> out;
    if (!(relativeStep > 0) || !std::isfinite(relativeStep))
        return out;
    // The parts each submodel predicts: a layer's loading (LOAD or LOAD P0) and its execution.
    struct Use
    {
        const LayerFeatures *layer;
        double overflow;
    };
    std::array<std::vector<Use>, kCategoryCount> uses;
    for (const LayerFeatures &l : layers) {
        const double f = overflowElements(l, params.availableBytes, params.bytesPerElement);
        uses[std::size_t(l.parameters > 0 ? Category::Load : Category::LoadP0)].push_back({&l, f});
        uses[std::size_t(l.category)].push_back({&l, f});
    }
    Device d = device; // one coefficient at a time is moved and put back
    auto partsMs = [&](Category c) {
        double t = 0;
        for (const Use &u : uses[std::size_t(c)]) {
            const PartPrediction p = predictPart(d, c, *u.layer, u.overflow);
            t += smeared ? p.smearedMs : p.ms;
        }
        return t;
    };
    std::array<double, kCategoryCount> baseParts{};
    double base = 0;
    for (int c = 0; c < kCategoryCount; ++c) {
        baseParts[std::size_t(c)] = partsMs(Category(c));
        base += baseParts[std::size_t(c)];
    }
    auto probe = [&](double &coefficient, std::string label, Category c) {
        if (uses[std::size_t(c)].empty() || coefficient == 0)
            return;
        const double v = coefficient;
        coefficient = v * (1 - relativeStep);
        const double lo = partsMs(c);
        coefficient = v * (1 + relativeStep);
        const double hi = partsMs(c);
        coefficient = v;
        const double was = baseParts[std::size_t(c)];
        if (lo == was && hi == was)
            return; // no layer uses it at these parameters (e.g. a swapping regime when nothing swaps)
        out.push_back({std::move(label), c, base + (lo - was), base + (hi - was)});
    };
    for (int ci = 0; ci < kCategoryCount; ++ci) {
        const Category c = Category(ci);
        const std::string cat = categoryLabel(c);
        if (d.kind == ModelKind::FeatureEngineering) {
            FeSubmodel &m = d.fe[std::size_t(ci)];
            const std::string x = predictorName(m.predictor);
            for (const bool swapping : {false, true}) {
                FeRegime &r = swapping ? m.swapping : m.standard;
                if (!r.calibrated)
                    continue;
                const std::string regime = cat + (swapping ? " swap " : " std ");
                probe(r.intercept, regime + "a", c);
                if (m.predictor != Predictor::None)
                    probe(r.slope, regime + "b\u00b7log " + x, c);
                if (swapping)
                    probe(r.overflow, regime + "c\u00b7log F", c);
            }
        } else {
            FsSubmodel &m = d.fs[std::size_t(ci)];
            if (!m.calibrated)
                continue;
            probe(m.intercept, cat + " intercept", c);
            for (Term &t : m.terms)
                probe(t.coefficient, cat + " " + t.toString(), c);
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const CoefficientSensitivity &a, const CoefficientSensitivity &b) {
        return std::abs(a.highMs - a.lowMs) > std::abs(b.highMs - b.lowMs);
    });
    return out;
}

} // namespace roofline::brouwer
