// Fitting Brouwer devices (seed 002 §3.2, §3.3, §4.3).
#include "fit.h"

#include "regression.h"
#include "../common/jsondocument.h" // readTextFile
#include "../common/jsonreader.h"   // parseFiniteNumber

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace roofline::brouwer {

namespace {

// Splits one CSV line; fields may be quoted ("a, b" and "" for a quote).
std::vector<std::string> splitCsv(const std::string &line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                out.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    for (std::string &f : out) {
        while (!f.empty() && (f.back() == ' ' || f.back() == '\t' || f.back() == '\r'))
            f.pop_back();
        std::size_t s = 0;
        while (s < f.size() && (f[s] == ' ' || f[s] == '\t'))
            ++s;
        f.erase(0, s);
    }
    return out;
}

constexpr std::size_t kMaxRows = 10'000'000;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double logIn(double base, double x) { return std::log(x) / std::log(base); }

} // namespace

MeasuredLoad parseMeasuredCsv(const std::string &text, const std::string &fileLabel)
{
    MeasuredLoad out;
    out.diagnostics.setFile(fileLabel);
    // EdgeCaffe: networkName,layerId,layerName,Loading_ns,execution_ns,policy
    // ours:      network,layer,load_ns,exec_ns,memory_bytes
    enum class Kind { EdgeCaffe, Ours } kind = Kind::Ours;
    std::size_t pos = 0;
    int lineNo = 0;
    std::size_t columns = 0;
    bool header = false;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        const std::string where = "line " + std::to_string(lineNo);
        if (line.find('\0') != std::string::npos) {
            out.diagnostics.error(where, "contains a NUL byte: not a text CSV file");
            break;
        }
        std::string trimmed = line;
        while (!trimmed.empty() && (trimmed.back() == '\r' || trimmed.back() == ' '))
            trimmed.pop_back();
        if (trimmed.empty() || trimmed[0] == '#')
            continue;
        const std::vector<std::string> f = splitCsv(trimmed);
        if (!header) {
            header = true;
            if (f.size() == 6 && f[0] == "networkName" && f[2] == "layerName" && f[3] == "Loading_ns"
                && f[4] == "execution_ns") {
                kind = Kind::EdgeCaffe;
            } else if (f.size() == 5 && f[0] == "network" && f[1] == "layer" && f[2] == "load_ns"
                       && f[3] == "exec_ns" && f[4] == "memory_bytes") {
                kind = Kind::Ours;
            } else {
                out.diagnostics.error(where,
                                      "unknown header: expected EdgeCaffe's \"networkName,layerId,layerName,"
                                      "Loading_ns,execution_ns,policy\" or \"network,layer,load_ns,exec_ns,"
                                      "memory_bytes\"");
                break;
            }
            columns = f.size();
            continue;
        }
        if (f.size() != columns) {
            out.diagnostics.error(where, "has " + std::to_string(f.size()) + " fields, the header has "
                                             + std::to_string(columns));
            if (out.diagnostics.errors().size() >= 20)
                break;
            continue;
        }
        if (out.rows.size() >= kMaxRows) {
            out.diagnostics.error(where, "more than 10,000,000 rows");
            break;
        }
        MeasuredRow r;
        r.line = lineNo;
        const char *const *names = nullptr;
        static const char *const kEdge[] = {"networkName", "layerId", "layerName", "Loading_ns", "execution_ns",
                                            "policy"};
        static const char *const kOurs[] = {"network", "layer", "load_ns", "exec_ns", "memory_bytes"};
        names = kind == Kind::EdgeCaffe ? kEdge : kOurs;
        const std::size_t iNet = 0, iLayer = kind == Kind::EdgeCaffe ? 2 : 1, iLoad = kind == Kind::EdgeCaffe ? 3 : 2,
                          iExec = kind == Kind::EdgeCaffe ? 4 : 3;
        r.network = f[iNet];
        r.layer = f[iLayer];
        bool ok = true;
        auto number = [&](std::size_t i, double &v, bool allowEmpty) {
            if (allowEmpty && f[i].empty()) {
                v = 0;
                return;
            }
            const auto x = parseFiniteNumber(f[i]);
            if (x && *x != 0 && std::fabs(*x) < Range::kSmallestMagnitude) { // a denormal: the reason is its size
                out.diagnostics.error(where + ", column " + std::to_string(i + 1) + " (" + names[i] + ")",
                                      Range::nonNegative(1e18).check(*x));
                ok = false;
            } else if (!x || *x < 0 || *x > 1e18) {
                out.diagnostics.error(where + ", column " + std::to_string(i + 1) + " (" + names[i] + ")",
                                      "must be a number >= 0 and <= 1e18, got \"" + f[i].substr(0, 40) + "\"");
                ok = false;
            } else {
                v = *x;
            }
        };
        if (r.network.empty() || r.layer.empty()) {
            out.diagnostics.error(where, std::string("empty ") + (r.network.empty() ? names[iNet] : names[iLayer]));
            ok = false;
        }
        number(iLoad, r.loadNs, false);
        number(iExec, r.execNs, false);
        if (kind == Kind::Ours)
            number(4, r.memoryBytes, true);
        if (ok)
            out.rows.push_back(std::move(r));
        if (out.diagnostics.errors().size() >= 20)
            break;
    }
    if (!header && !out.diagnostics.hasErrors())
        out.diagnostics.error("", "no header line: the file is empty");
    else if (!out.diagnostics.hasErrors() && out.rows.empty())
        out.diagnostics.error("", "no measurement rows after the header");
    if (out.diagnostics.hasErrors())
        out.rows.clear();
    return out;
}

MeasuredLoad loadMeasuredFile(const std::string &path)
{
    MeasuredLoad out;
    std::string text;
    out.diagnostics.setFile(path);
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseMeasuredCsv(text, path);
}

Predictor defaultPredictor(Category c)
{
    switch (c) {
    case Category::Load:
    case Category::Fc: return Predictor::P;
    case Category::LoadP0: return Predictor::None;
    case Category::Conv: return Predictor::M;
    default: return Predictor::I;
    }
}

Observations buildObservations(const std::vector<MeasuredRow> &rows, const std::vector<NamedNetwork> &networks,
                               double bytesPerElement)
{
    Observations out;
    // (network index, layer index, memory) -> load and exec times
    std::map<std::tuple<std::size_t, std::size_t, double>, std::pair<std::vector<double>, std::vector<double>>> groups;
    std::map<std::string, int> unmatchedNetworks, unmatchedLayers;
    int nonPositive = 0;
    for (const MeasuredRow &r : rows) {
        std::size_t ni = networks.size();
        for (std::size_t i = 0; i < networks.size() && ni == networks.size(); ++i)
            for (const std::string &n : networks[i].names)
                if (n == r.network)
                    ni = i;
        if (ni == networks.size()) {
            ++unmatchedNetworks[r.network];
            continue;
        }
        const auto &layers = networks[ni].layers;
        const auto it = std::find_if(layers.begin(), layers.end(), [&](const LayerFeatures &l) { return l.name == r.layer; });
        if (it == layers.end()) {
            ++unmatchedLayers[r.network + "/" + r.layer];
            continue;
        }
        auto &g = groups[{ni, std::size_t(it - layers.begin()), r.memoryBytes}];
        g.first.push_back(r.loadNs);
        g.second.push_back(r.execNs);
    }
    for (const auto &[key, times] : groups) {
        const auto &[ni, li, memory] = key;
        const LayerFeatures &f = networks[ni].layers[li];
        const double overflow = memory > 0 ? overflowElements(f, memory, bytesPerElement) : 0.0;
        for (int part = 0; part < 2; ++part) {
            const double t = median(part == 0 ? times.first : times.second);
            if (!(t > 0)) {
                ++nonPositive;
                continue;
            }
            Observation o;
            o.network = networks[ni].names.front();
            o.layer = f.name;
            o.submodel = part == 0 ? (f.parameters > 0 ? Category::Load : Category::LoadP0) : f.category;
            o.features = f;
            o.overflow = overflow;
            o.memoryBytes = memory;
            o.timeNs = t;
            o.runs = int(times.first.size());
            out.items.push_back(std::move(o));
        }
    }
    for (const auto &[name, count] : unmatchedNetworks)
        out.diagnostics.warning("", std::to_string(count) + " rows of network \"" + name
                                        + "\" match no given network (use --networks NAME=FILE)");
    if (!unmatchedLayers.empty()) {
        std::string list;
        int shown = 0;
        for (const auto &[name, count] : unmatchedLayers)
            if (shown++ < 6)
                list += (list.empty() ? "" : ", ") + name;
        out.diagnostics.warning("", std::to_string(unmatchedLayers.size())
                                        + " measured layers are not in their network and were left out: " + list
                                        + (unmatchedLayers.size() > 6 ? ", ..." : ""));
    }
    if (nonPositive)
        out.diagnostics.warning("", std::to_string(nonPositive)
                                        + " median times are 0 and have no logarithm: left out");
    return out;
}

namespace {

void fitFeatureEngineering(Device &d, const std::vector<Observation> &obs, const FitOptions &o, Diagnostics &diags)
{
    for (int c = 0; c < kCategoryCount; ++c) {
        if (o.cancel && o.cancel->load())
            return;
        FeSubmodel &m = d.fe[std::size_t(c)];
        m.predictor = defaultPredictor(Category(c));
        for (int swap = 0; swap < 2; ++swap) {
            std::vector<const Observation *> rows;
            for (const Observation &ob : obs)
                if (ob.submodel == Category(c) && (ob.overflow > 0) == (swap == 1))
                    rows.push_back(&ob);
            const int cols = 1 + (m.predictor != Predictor::None ? 1 : 0) + swap;
            FeRegime &r = swap ? m.swapping : m.standard;
            r = FeRegime{};
            if (int(rows.size()) < cols) {
                if (!rows.empty() || swap == 0)
                    diags.warning("", std::string(categoryLabel(Category(c))) + (swap ? " swapping" : " standard")
                                          + " regime: " + std::to_string(rows.size())
                                          + " observations, needs " + std::to_string(cols) + ": not calibrated");
                continue;
            }
            Matrix x(Eigen::Index(rows.size()), cols);
            Vector y(Eigen::Index(rows.size()));
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const Observation &ob = *rows[i];
                int k = 0;
                x(Eigen::Index(i), k++) = 1;
                if (m.predictor != Predictor::None)
                    x(Eigen::Index(i), k++) = logIn(o.logBase, std::max(1.0, predictorValue(ob.features, m.predictor)));
                if (swap)
                    x(Eigen::Index(i), k++) = logIn(o.logBase, std::max(1.0, ob.overflow));
                y(Eigen::Index(i)) = logIn(o.logBase, ob.timeNs / o.timeUnitNs);
            }
            const Vector b = olsBagged(x, y, o.bootstrap, o.seed + std::uint64_t(c * 2 + swap));
            r.calibrated = true;
            r.intercept = b(0);
            int k = 1;
            if (m.predictor != Predictor::None)
                r.slope = b(k++);
            if (swap)
                r.overflow = b(k++);
            r.rows = int(rows.size());
            const Vector residual = y - x * b;
            r.smearing = residual.unaryExpr([&](double e) { return std::pow(o.logBase, e); }).mean(); // Duan
        }
        if (o.progress)
            o.progress(c + 1, kCategoryCount);
    }
}

void fitFeatureSelection(Device &d, const std::vector<Observation> &obs, const FitOptions &o, Diagnostics &diags,
                         FitInfo &info)
{
    for (int c = 0; c < kCategoryCount; ++c) {
        if (o.cancel && o.cancel->load())
            return;
        FsSubmodel &m = d.fs[std::size_t(c)];
        m = FsSubmodel{};
        std::vector<const Observation *> rows;
        for (const Observation &ob : obs)
            if (ob.submodel == Category(c))
                rows.push_back(&ob);
        if (rows.empty()) {
            diags.warning("", std::string(categoryLabel(Category(c))) + ": no observations: not calibrated");
            if (o.progress)
                o.progress(c + 1, kCategoryCount);
            continue;
        }
        const Eigen::Index n = Eigen::Index(rows.size());
        Matrix basic(n, kBasicCount);
        Vector y(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const Observation &ob = *rows[std::size_t(i)];
            const auto z = basicFeatures(ob.features, ob.overflow, o.logBase);
            for (int b = 0; b < kBasicCount; ++b)
                basic(i, b) = z[std::size_t(b)];
            y(i) = logIn(o.logBase, ob.timeNs / o.timeUnitNs);
        }
        std::vector<std::vector<int>> powers;
        const Matrix expanded = polynomialExpand(basic, o.order, &powers);
        Vector coef = Vector::Zero(expanded.cols());
        double intercept = y.mean();
        if (n >= 3) {
            Matrix design = expanded;
            Pca pca;
            if (o.pca) {
                pca = principalComponents(expanded, 0.01);
                Matrix zs = Matrix::Zero(n, expanded.cols());
                for (Eigen::Index j = 0; j < expanded.cols(); ++j)
                    if (pca.scale(j) > 0)
                        zs.col(j) = (expanded.col(j).array() - pca.mean(j)) / pca.scale(j);
                design = zs * pca.components;
                info.components = std::max(info.components, int(pca.components.cols()));
            }
            LassoFit f;
            if (o.lambda) {
                f = lasso(design, y, *o.lambda);
            } else {
                const LassoCv cv = lassoCrossValidated(design, y, o.folds, 30, o.seed + std::uint64_t(c), o.cancel);
                if (cv.lambdas.empty())
                    return; // cancelled
                f = cv.fit;
            }
            info.lambda = std::max(info.lambda, f.lambda);
            intercept = f.intercept;
            if (o.pca) {
                // Fold the components back onto the monomials: one linear model in the expansion.
                const Vector w = pca.components * f.beta;
                for (Eigen::Index j = 0; j < expanded.cols(); ++j) {
                    if (pca.scale(j) == 0)
                        continue;
                    coef(j) = w(j) / pca.scale(j);
                    intercept -= coef(j) * pca.mean(j);
                }
            } else {
                coef = f.beta;
            }
        }
        m.calibrated = true;
        m.swappingCalibrated = std::any_of(rows.begin(), rows.end(), [](const Observation *ob) { return ob->overflow > 0; });
        m.intercept = intercept;
        m.rows = int(n);
        for (Eigen::Index j = 0; j < coef.size(); ++j) {
            if (coef(j) == 0)
                continue;
            Term t;
            for (int b = 0; b < kBasicCount; ++b)
                t.powers[std::size_t(b)] = powers[std::size_t(j)][std::size_t(b)];
            t.coefficient = coef(j);
            m.terms.push_back(t);
        }
        const Vector residual = y - ((expanded * coef).array() + intercept).matrix();
        m.smearing = residual.unaryExpr([&](double e) { return std::pow(o.logBase, e); }).mean();
        if (o.progress)
            o.progress(c + 1, kCategoryCount);
    }
}

} // namespace

FitOutcome fitDevice(const std::vector<Observation> &observations, const FitOptions &options)
{
    FitOutcome out;
    if (options.order < 1 || options.order > 6) {
        out.diagnostics.error("order", "must be 1 to 6, got " + std::to_string(options.order));
        return out;
    }
    if (!(options.logBase > 1) || !(options.timeUnitNs > 0)) {
        out.diagnostics.error("log_base", "must be > 1 with a positive time unit");
        return out;
    }
    if (observations.empty()) {
        out.diagnostics.error("", "no observations to fit: no measured row matches a layer of the given networks");
        return out;
    }
    Device d;
    d.kind = options.kind;
    d.logBase = options.logBase;
    d.timeUnitNs = options.timeUnitNs;
    FitInfo info;
    info.rows = int(observations.size());
    if (options.kind == ModelKind::FeatureEngineering) {
        info.bootstrap = options.bootstrap;
        fitFeatureEngineering(d, observations, options, out.diagnostics);
    } else {
        info.order = options.order;
        info.pca = options.pca;
        info.cvFolds = options.lambda ? 0 : options.folds;
        fitFeatureSelection(d, observations, options, out.diagnostics, info);
    }
    if (options.cancel && options.cancel->load()) {
        out.cancelled = true;
        return out;
    }
    const Metrics m = evaluateMetrics(d, observations);
    info.mapeLog = m.mapeLog;
    info.mapeLinear = m.mapeLinear;
    info.r2Log = m.r2Log;
    d.fit = info;
    out.device = std::move(d);
    return out;
}

Metrics evaluateMetrics(const Device &device, const std::vector<Observation> &observations)
{
    Metrics m;
    std::vector<double> yl, pl, yt, pt, ps;
    for (const Observation &ob : observations) {
        const PartPrediction p = predictPart(device, ob.submodel, ob.features, ob.overflow);
        if (!p.calibrated && p.ms == 0)
            continue;
        yl.push_back(logIn(device.logBase, ob.timeNs / device.timeUnitNs));
        pl.push_back(p.logTime);
        yt.push_back(ob.timeNs);
        pt.push_back(p.ms * 1e6);
        ps.push_back(p.smearedMs * 1e6);
    }
    m.rows = int(yl.size());
    auto vec = [](const std::vector<double> &v) { return Eigen::Map<const Vector>(v.data(), Eigen::Index(v.size())); };
    m.mapeLog = mape(vec(yl), vec(pl));
    m.mapeLinear = mape(vec(yt), vec(pt));
    m.mapeSmeared = mape(vec(yt), vec(ps));
    m.r2Log = rSquared(vec(yl), vec(pl));
    return m;
}

CvReport leaveOneNetworkOut(const std::vector<Observation> &observations, const FitOptions &options)
{
    CvReport report;
    std::vector<std::string> networks;
    for (const Observation &o : observations)
        if (std::find(networks.begin(), networks.end(), o.network) == networks.end())
            networks.push_back(o.network);
    std::vector<double> yl, pl, yt, pt, ps;
    int done = 0;
    for (const std::string &held : networks) {
        if (options.cancel && options.cancel->load()) {
            report.cancelled = true;
            return report;
        }
        std::vector<Observation> train, test;
        for (const Observation &o : observations)
            (o.network == held ? test : train).push_back(o);
        FitOptions fo = options;
        fo.progress = nullptr;
        const FitOutcome f = fitDevice(train, fo);
        if (f.cancelled) {
            report.cancelled = true;
            return report;
        }
        ++done;
        if (options.progress)
            options.progress(done, int(networks.size()));
        if (!f.device)
            continue;
        CvFold fold;
        fold.heldOut = held;
        fold.metrics = evaluateMetrics(*f.device, test);
        for (const Observation &o : test) {
            const PartPrediction p = predictPart(*f.device, o.submodel, o.features, o.overflow);
            fold.measuredMs += o.timeNs * 1e-6;
            fold.predictedMs += p.ms;
            fold.smearedMs += p.smearedMs;
            if (!p.calibrated && p.ms == 0)
                continue;
            yl.push_back(logIn(f.device->logBase, o.timeNs / f.device->timeUnitNs));
            pl.push_back(p.logTime);
            yt.push_back(o.timeNs);
            pt.push_back(p.ms * 1e6);
            ps.push_back(p.smearedMs * 1e6);
        }
        report.folds.push_back(fold);
    }
    auto vec = [](const std::vector<double> &v) { return Eigen::Map<const Vector>(v.data(), Eigen::Index(v.size())); };
    report.pooled.rows = int(yl.size());
    report.pooled.mapeLog = mape(vec(yl), vec(pl));
    report.pooled.mapeLinear = mape(vec(yt), vec(pt));
    report.pooled.mapeSmeared = mape(vec(yt), vec(ps));
    report.pooled.r2Log = rSquared(vec(yl), vec(pl));
    return report;
}

} // namespace roofline::brouwer
