// Brouwer device files and result export (docs/file-formats-brouwer.md).
#include "io.h"

#include "../common/atomicfile.h"
#include "../common/jsondocument.h"
#include "../common/jsonreader.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>

namespace roofline::brouwer {

using nlohmann::json;

namespace {

constexpr double kMaxCoefficient = 1e6;
constexpr std::size_t kMaxTerms = 20000;
constexpr int kMaxDegree = 12;

struct TimeUnit
{
    const char *name;
    double ns;
};
constexpr TimeUnit kUnits[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};

const char *unitName(double ns)
{
    for (const TimeUnit &u : kUnits)
        if (u.ns == ns)
            return u.name;
    return "ns";
}

void readRegime(const json &j, const std::string &pointer, bool swapping, bool hasPredictor, FeRegime &r,
                Diagnostics &diags)
{
    JsonObjectReader o(j, pointer, diags);
    if (!o.isObject())
        return;
    const Range coef = Range::closed(-kMaxCoefficient, kMaxCoefficient);
    r.calibrated = true;
    r.intercept = o.number("intercept", coef).value_or(0);
    if (hasPredictor)
        r.slope = o.number("slope", coef).value_or(0);
    if (swapping)
        r.overflow = o.number("overflow", coef).value_or(0);
    r.smearing = o.optionalNumber("smearing", Range::positive(kMaxCoefficient)).value_or(1);
    r.rows = int(o.optionalNumber("rows", Range::closed(0, 1e9)).value_or(0));
    o.finish();
}

void readFs(const json &j, const std::string &pointer, FsSubmodel &m, Diagnostics &diags)
{
    JsonObjectReader o(j, pointer, diags);
    if (!o.isObject())
        return;
    const Range coef = Range::closed(-kMaxCoefficient, kMaxCoefficient);
    m.calibrated = true;
    m.intercept = o.number("intercept", coef).value_or(0);
    m.smearing = o.optionalNumber("smearing", Range::positive(kMaxCoefficient)).value_or(1);
    m.rows = int(o.optionalNumber("rows", Range::closed(0, 1e9)).value_or(0));
    m.swappingCalibrated = o.optionalBool("swapping_calibrated").value_or(true);
    if (const json *terms = o.member("terms", true)) {
        const std::string tp = o.pointerTo("terms");
        if (!terms->is_array()) {
            diags.error(tp, "must be an array of terms, got " + jsonTypeName(*terms));
        } else if (terms->size() > kMaxTerms) {
            diags.error(tp, "has " + std::to_string(terms->size()) + " terms, at most 20000");
        } else {
            for (std::size_t i = 0; i < terms->size(); ++i) {
                const std::string p = tp + "/" + std::to_string(i);
                JsonObjectReader t((*terms)[i], p, diags);
                if (!t.isObject())
                    continue;
                Term term;
                term.coefficient = t.number("coefficient", coef).value_or(0);
                if (const json *powers = t.member("powers", true)) {
                    const std::string pp = t.pointerTo("powers");
                    JsonObjectReader pw(*powers, pp, diags);
                    if (pw.isObject()) {
                        for (int b = 0; b < kBasicCount; ++b) {
                            const double v =
                                pw.optionalNumber(basicName(b), Range::closed(0, kMaxDegree)).value_or(0);
                            if (v != std::floor(v))
                                diags.error(pp + "/" + basicName(b), "must be a whole number, got " + formatNumber(v));
                            term.powers[std::size_t(b)] = int(v);
                        }
                        pw.finish();
                        if (term.degree() < 1 || term.degree() > kMaxDegree)
                            diags.error(pp, "the degree of a term must be 1 to 12, got "
                                                + std::to_string(term.degree()));
                    }
                }
                t.finish();
                m.terms.push_back(term);
            }
        }
    }
    o.finish();
}

void readFit(const json &j, const std::string &pointer, FitInfo &f, Diagnostics &diags)
{
    JsonObjectReader o(j, pointer, diags);
    if (!o.isObject())
        return;
    f.rows = int(o.optionalNumber("rows", Range::closed(0, 1e9)).value_or(0));
    f.order = int(o.optionalNumber("order", Range::closed(0, 6)).value_or(0));
    f.pca = o.optionalBool("pca").value_or(false);
    f.components = int(o.optionalNumber("components", Range::closed(0, 1e6)).value_or(0));
    f.lambda = o.optionalNumber("lambda", Range::nonNegative(1e12)).value_or(0);
    f.cvFolds = int(o.optionalNumber("cv_folds", Range::closed(0, 1e6)).value_or(0));
    f.bootstrap = int(o.optionalNumber("bootstrap", Range::closed(0, 1e6)).value_or(0));
    f.mapeLog = o.optionalNumber("mape_log_percent", Range::nonNegative(1e300)).value_or(0);
    f.mapeLinear = o.optionalNumber("mape_linear_percent", Range::nonNegative(1e300)).value_or(0);
    f.r2Log = o.optionalNumber("r2_log", Range::closed(-1e300, 1)).value_or(0);
    if (const json *m = o.member("measurements", false)) {
        if (!m->is_array()) {
            diags.error(o.pointerTo("measurements"), "must be an array of file names");
        } else {
            for (std::size_t i = 0; i < m->size() && i < 100000; ++i) {
                if ((*m)[i].is_string())
                    f.measurements.push_back((*m)[i].get<std::string>());
                else
                    diags.error(o.pointerTo("measurements") + "/" + std::to_string(i), "must be a string");
            }
        }
    }
    o.finish();
}

} // namespace

DeviceLoad parseDevice(const std::string &text, const std::string &fileLabel)
{
    DeviceLoad out;
    JsonModelFile file(text, fileLabel, kDeviceFormatId, kDeviceFormatVersion, out.diagnostics);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Diagnostics &diags = out.diagnostics;
    Device d;
    d.name = top.string("name").value_or("");
    d.description = top.optionalString("description").value_or("");
    d.source = top.optionalString("source").value_or("");
    d.note = top.optionalString("note").value_or("");
    if (const auto model = top.string("model")) {
        if (*model == "feature_engineering")
            d.kind = ModelKind::FeatureEngineering;
        else if (*model == "feature_selection")
            d.kind = ModelKind::FeatureSelection;
        else
            diags.error(top.pointerTo("model"),
                        "must be \"feature_engineering\" or \"feature_selection\", got \"" + model->substr(0, 40) + "\"");
    }
    d.logBase = top.number("log_base", Range{1, 1e6, false, true}).value_or(10);
    if (const auto unit = top.string("time_unit")) {
        bool known = false;
        for (const TimeUnit &u : kUnits)
            if (*unit == u.name) {
                d.timeUnitNs = u.ns;
                known = true;
            }
        if (!known)
            diags.error(top.pointerTo("time_unit"), "must be ns, us, ms or s, got \"" + unit->substr(0, 40) + "\"");
    }
    if (const json *subs = top.member("submodels", true)) {
        JsonObjectReader s(*subs, top.pointerTo("submodels"), diags);
        if (s.isObject()) {
            for (int c = 0; c < kCategoryCount; ++c) {
                const char *key = categoryName(Category(c));
                const json *m = s.member(key, false);
                if (!m)
                    continue;
                const std::string p = s.pointerTo(key);
                if (d.kind == ModelKind::FeatureEngineering) {
                    JsonObjectReader r(*m, p, diags);
                    if (!r.isObject())
                        continue;
                    FeSubmodel &fe = d.fe[std::size_t(c)];
                    if (const auto pred = r.optionalString("predictor")) {
                        const auto v = predictorFromName(*pred);
                        if (!v)
                            diags.error(r.pointerTo("predictor"),
                                        "must be I, P, O, M or \"\" (none), got \"" + pred->substr(0, 40) + "\"");
                        else
                            fe.predictor = *v;
                    }
                    for (int swap = 0; swap < 2; ++swap) {
                        const char *regime = swap ? "swapping" : "standard";
                        if (const json *rj = r.member(regime, false))
                            readRegime(*rj, r.pointerTo(regime), swap == 1, fe.predictor != Predictor::None,
                                       swap ? fe.swapping : fe.standard, diags);
                    }
                    if (!fe.standard.calibrated && !fe.swapping.calibrated)
                        diags.error(p, "needs a \"standard\" or a \"swapping\" regime");
                    r.finish();
                } else {
                    readFs(*m, p, d.fs[std::size_t(c)], diags);
                }
            }
            s.finish();
        }
    }
    if (const json *fit = top.member("fit", false)) {
        FitInfo f;
        readFit(*fit, top.pointerTo("fit"), f, diags);
        d.fit = f;
    }
    top.finish();
    if (!diags.hasErrors())
        out.device = std::move(d);
    return out;
}

DeviceLoad loadDeviceFile(const std::string &path)
{
    DeviceLoad out;
    std::string text;
    out.diagnostics.setFile(path);
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseDevice(text, path);
}

json toJson(const Device &d)
{
    json subs = json::object();
    for (int c = 0; c < kCategoryCount; ++c) {
        if (d.kind == ModelKind::FeatureEngineering) {
            const FeSubmodel &m = d.fe[std::size_t(c)];
            if (!m.standard.calibrated && !m.swapping.calibrated)
                continue;
            json j = {{"predictor", predictorName(m.predictor)}};
            for (int swap = 0; swap < 2; ++swap) {
                const FeRegime &r = swap ? m.swapping : m.standard;
                if (!r.calibrated)
                    continue;
                json rj = {{"intercept", r.intercept}};
                if (m.predictor != Predictor::None)
                    rj["slope"] = r.slope;
                if (swap)
                    rj["overflow"] = r.overflow;
                if (r.smearing != 1)
                    rj["smearing"] = r.smearing;
                if (r.rows)
                    rj["rows"] = r.rows;
                j[swap ? "swapping" : "standard"] = rj;
            }
            subs[categoryName(Category(c))] = j;
        } else {
            const FsSubmodel &m = d.fs[std::size_t(c)];
            if (!m.calibrated)
                continue;
            json terms = json::array();
            for (const Term &t : m.terms) {
                json powers = json::object();
                for (int b = 0; b < kBasicCount; ++b)
                    if (t.powers[std::size_t(b)])
                        powers[basicName(b)] = t.powers[std::size_t(b)];
                terms.push_back({{"coefficient", t.coefficient}, {"powers", powers}});
            }
            json j = {{"intercept", m.intercept}, {"terms", terms}};
            if (m.smearing != 1)
                j["smearing"] = m.smearing;
            if (m.rows)
                j["rows"] = m.rows;
            if (!m.swappingCalibrated)
                j["swapping_calibrated"] = false;
            subs[categoryName(Category(c))] = j;
        }
    }
    json out = {{"format", kDeviceFormatId}, {"version", kDeviceFormatVersion}, {"name", d.name}};
    if (!d.description.empty())
        out["description"] = d.description;
    if (!d.source.empty())
        out["source"] = d.source;
    if (!d.note.empty())
        out["note"] = d.note;
    out["model"] = d.kind == ModelKind::FeatureEngineering ? "feature_engineering" : "feature_selection";
    out["log_base"] = d.logBase;
    out["time_unit"] = unitName(d.timeUnitNs);
    out["submodels"] = subs;
    if (d.fit) {
        const FitInfo &f = *d.fit;
        json fj = {{"rows", f.rows}};
        if (d.kind == ModelKind::FeatureSelection) {
            fj["order"] = f.order;
            fj["pca"] = f.pca;
            if (f.pca)
                fj["components"] = f.components;
            fj["lambda"] = f.lambda;
            fj["cv_folds"] = f.cvFolds;
        } else {
            fj["bootstrap"] = f.bootstrap;
        }
        fj["mape_log_percent"] = f.mapeLog;
        fj["mape_linear_percent"] = f.mapeLinear;
        fj["r2_log"] = f.r2Log;
        fj["measurements"] = f.measurements;
        out["fit"] = fj;
    }
    return out;
}

std::string serialize(const Device &device)
{
    return toJson(device).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

bool saveDeviceFile(const Device &device, const std::string &path, Diagnostics &diagnostics)
{
    diagnostics.setFile(path);
    AtomicFile file(path); // core/common/atomicfile.h: write, sync, rename; the old file survives any failure
    if (!file.write(serialize(device)) || !file.commit()) {
        diagnostics.error("", file.reason());
        return false;
    }
    return true;
}

std::optional<double> parseMemorySize(const std::string &text)
{
    std::size_t i = 0;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == 'e'
                               || text[i] == 'E' || text[i] == '+' || text[i] == '-'))
        ++i;
    // "1e9" is a number, but "4e" would eat the unit "E": back off a trailing exponent sign.
    while (i > 0 && (text[i - 1] == 'e' || text[i - 1] == 'E'))
        --i;
    const auto value = parseFiniteNumber(text.substr(0, i));
    if (!value || !(*value > 0))
        return std::nullopt;
    std::string unit = text.substr(i);
    while (!unit.empty() && unit.front() == ' ')
        unit.erase(0, 1);
    for (char &c : unit)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    double scale = 0;
    if (unit.empty() || unit == "B")
        scale = 1;
    else if (unit == "K" || unit == "KB" || unit == "KIB")
        scale = 1024.0;
    else if (unit == "M" || unit == "MB" || unit == "MIB")
        scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GIB")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "T" || unit == "TB" || unit == "TIB")
        scale = 1024.0 * 1024 * 1024 * 1024;
    if (scale == 0)
        return std::nullopt;
    const double bytes = *value * scale;
    if (!std::isfinite(bytes) || bytes > 1e18)
        return std::nullopt;
    return bytes;
}

std::string formatBytes(double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && std::abs(bytes) >= 1024) {
        bytes /= 1024;
        ++u;
    }
    return formatNumber(bytes, 4) + " " + units[u];
}

json resultToJson(const std::string &networkName, const Device &device, const Params &params, const Result &r)
{
    json layers = json::array();
    for (const LayerPrediction &l : r.layers) {
        layers.push_back({{"name", l.name},
                          {"category", categoryName(l.category)},
                          {"required_bytes", l.requiredBytes},
                          {"overflow_elements", l.overflow},
                          {"regime", l.swapping() ? "swapping" : "standard"},
                          {"load_ms", l.load.ms},
                          {"exec_ms", l.exec.ms},
                          {"load_smeared_ms", l.load.smearedMs},
                          {"exec_smeared_ms", l.exec.smearedMs},
                          {"calibrated", l.load.calibrated && l.exec.calibrated}});
    }
    return {{"network", networkName},
            {"device", device.name},
            {"model", device.kind == ModelKind::FeatureEngineering ? "feature_engineering" : "feature_selection"},
            {"available_bytes", params.availableBytes},
            {"bytes_per_element", params.bytesPerElement},
            {"total_ms", r.totalMs(false)},
            {"total_smeared_ms", r.totalMs(true)},
            {"load_ms", r.loadMs},
            {"exec_ms", r.execMs},
            {"swapping_layers", r.swappingLayers},
            {"uncalibrated_parts", r.uncalibratedParts},
            {"layers", layers}};
}

std::string resultToCsv(const Result &r)
{
    std::string out = "layer,category,required_bytes,overflow_elements,regime,load_ms,exec_ms,load_smeared_ms,"
                      "exec_smeared_ms,calibrated\n";
    auto quoted = [](const std::string &s) {
        if (s.find_first_of(",\"\n") == std::string::npos)
            return s;
        std::string q = "\"";
        for (char c : s)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    for (const LayerPrediction &l : r.layers) {
        out += quoted(l.name) + "," + categoryName(l.category) + "," + formatNumber(l.requiredBytes, 15) + ","
            + formatNumber(l.overflow, 15) + "," + (l.swapping() ? "swapping" : "standard") + ","
            + formatNumber(l.load.ms, 9) + "," + formatNumber(l.exec.ms, 9) + "," + formatNumber(l.load.smearedMs, 9)
            + "," + formatNumber(l.exec.smearedMs, 9) + "," + (l.load.calibrated && l.exec.calibrated ? "1" : "0")
            + "\n";
    }
    return out;
}

} // namespace roofline::brouwer
