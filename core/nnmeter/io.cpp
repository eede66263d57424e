#include "io.h"

#include "common/jsondocument.h"
#include "common/jsonreader.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace roofline::nnmeter {

using nlohmann::json;

namespace {

std::string dump(const json &j)
{
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string joinPath(const std::string &directory, const std::string &file)
{
    if (file.empty() || file.front() == '/' || directory.empty())
        return file;
    return directory.back() == '/' ? directory + file : directory + "/" + file;
}

std::string directoryOf(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

// Reads the rules object (shared by rules files).
void readRules(JsonObjectReader &top, FusionRules &rules, Diagnostics &d)
{
    rules.backend = top.string("backend").value_or("");
    rules.description = top.optionalString("description").value_or("");
    rules.source = top.optionalString("source").value_or("");
    rules.multiOutbound = top.optionalBool("multi_outbound").value_or(false);
    rules.multiInbound = top.optionalBool("multi_inbound").value_or(true);
    if (const json *units = top.member("units", false)) {
        JsonObjectReader u(*units, top.pointerTo("units"), d);
        for (const std::string &name : unitNames())
            if (auto v = u.optionalBool(name))
                rules.units[name] = *v;
        u.finish();
    }
    const json *fusions = top.member("fusions", true);
    if (!fusions)
        return;
    const std::string where = top.pointerTo("fusions");
    if (!fusions->is_object()) {
        d.error(where, "expected an object of \"BF_<op1>_<op2>\": true|false, got " + jsonTypeName(*fusions));
        return;
    }
    if (fusions->size() > Limits::maxPairs) {
        d.error(where, "more than " + std::to_string(Limits::maxPairs) + " rules");
        return;
    }
    for (const auto &item : fusions->items()) {
        const std::string &key = item.key();
        const std::string at = where + "/" + jsonPointerToken(key);
        const auto sep = key.find('_', 3);
        if (key.rfind("BF_", 0) != 0 || sep == std::string::npos) {
            d.error(at, "a rule is named BF_<op1>_<op2>, e.g. BF_conv_bn");
            continue;
        }
        const std::string a = key.substr(3, sep - 3), b = key.substr(sep + 1);
        if (!isOperatorName(a) || !isOperatorName(b)) {
            d.error(at, "unknown operator \"" + (isOperatorName(a) ? b : a)
                            + "\" (known: conv, dwconv, fc, bn, relu, relu6, add, ...; see docs/file-formats-nnmeter.md)");
            continue;
        }
        FusionRule rule;
        if (item.value().is_boolean()) {
            rule.fuses = item.value().get<bool>();
        } else {
            JsonObjectReader r(item.value(), at, d);
            const json *f = r.member("fuses", true);
            if (f && !f->is_boolean())
                d.error(r.pointerTo("fuses"), "expected true or false, got " + jsonTypeName(*f));
            rule.fuses = f && f->is_boolean() && f->get<bool>();
            const auto t1 = r.optionalNumber("t1_ms", Range::positive(1e6));
            const auto t2 = r.optionalNumber("t2_ms", Range::positive(1e6));
            const auto t12 = r.optionalNumber("t12_ms", Range::positive(1e6));
            if (t1 && t2 && t12) {
                rule.measured = true;
                rule.t1Ms = *t1;
                rule.t2Ms = *t2;
                rule.t12Ms = *t12;
            }
            const auto tested = r.optionalNumber("shapes_tested", Range::closed(1, 1000));
            const auto fused = r.optionalNumber("shapes_fused", Range::nonNegative(1000));
            if (tested && fused) {
                if (*tested != std::floor(*tested) || *fused != std::floor(*fused) || *fused > *tested)
                    d.error(r.pointerTo("shapes_fused"), "expected whole numbers with shapes_fused <= shapes_tested, got "
                                                             + formatNumber(*fused, 6) + " of " + formatNumber(*tested, 6));
                else
                    rule.shapesTested = int(*tested), rule.shapesFused = int(*fused);
            } else if (tested || fused) {
                d.error(r.pointerTo(tested ? "shapes_fused" : "shapes_tested"),
                        "shapes_tested and shapes_fused go together");
            }
            r.finish();
        }
        rules.pairs[a + "_" + b] = rule;
    }
}

} // namespace

RulesLoad parseRules(const std::string &text, const std::string &fileLabel)
{
    RulesLoad out;
    JsonModelFile file(text, fileLabel, kRulesFormatId, kRulesFormatVersion, out.diagnostics);
    if (!file.isOpen())
        return out;
    FusionRules rules;
    readRules(file.top(), rules, out.diagnostics);
    file.top().finish();
    if (!out.diagnostics.hasErrors())
        out.rules = std::move(rules);
    return out;
}

RulesLoad loadRulesFile(const std::string &path)
{
    RulesLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseRules(text, path);
}

std::string serializeRules(const FusionRules &rules)
{
    json units = json::object();
    for (const auto &[name, on] : rules.units)
        units[name] = on;
    json fusions = json::object();
    for (const auto &[pair, rule] : rules.pairs) {
        // An object when there is more to say than the verdict: the timings, or
        // the shapes tested without them (written as a bare verdict, those were
        // lost: found by fuzz_nnmeter_rules, issue 14).
        if (rule.measured || rule.shapesTested > 0) {
            json r = {{"fuses", rule.fuses}};
            if (rule.measured)
                r["t1_ms"] = rule.t1Ms, r["t2_ms"] = rule.t2Ms, r["t12_ms"] = rule.t12Ms;
            if (rule.shapesTested > 0)
                r["shapes_tested"] = rule.shapesTested, r["shapes_fused"] = rule.shapesFused;
            fusions["BF_" + pair] = r;
        }
        else
            fusions["BF_" + pair] = rule.fuses;
    }
    json j = {{"format", kRulesFormatId},
              {"version", kRulesFormatVersion},
              {"backend", rules.backend},
              {"description", rules.description},
              {"source", rules.source},
              {"multi_outbound", rules.multiOutbound},
              {"multi_inbound", rules.multiInbound},
              {"units", units},
              {"fusions", fusions}};
    return dump(j);
}

// ------------------------------------------------------------------ forests

ForestLoad parseForest(const std::string &text, const std::string &fileLabel)
{
    ForestLoad out;
    Diagnostics &d = out.diagnostics;
    JsonModelFile file(text, fileLabel, kForestFormatId, kForestFormatVersion, d);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Forest f;
    f.kind = top.string("kind").value_or("");
    if (!f.kind.empty() && !isOperatorName(f.kind))
        d.error("/kind", "unknown kernel kind \"" + f.kind + "\"");
    f.base = top.number("base", Range::closed(-1e6, 1e6)).value_or(0);
    f.logTarget = top.optionalBool("log_target").value_or(true);
    f.samples = int(top.optionalNumber("samples", Range::nonNegative(1e9)).value_or(0));
    f.rmsePercent = top.optionalNumber("rmse_percent", Range::nonNegative(1e9)).value_or(0);
    f.within10Percent = top.optionalNumber("within_10_percent", Range::closed(0, 1)).value_or(0);
    f.source = top.optionalString("source").value_or("");
    if (const json *features = top.member("features", true)) {
        if (!features->is_array() || features->empty() || features->size() > 64) {
            d.error("/features", "expected an array of 1 to 64 feature names");
        } else {
            for (const json &name : *features) {
                if (!name.is_string()) {
                    d.error("/features", "expected feature names (strings), got " + jsonTypeName(name));
                    break;
                }
                f.features.push_back(name.get<std::string>());
            }
        }
    }
    const json *trees = top.member("trees", true);
    if (trees && (!trees->is_array() || trees->empty() || trees->size() > Limits::maxTrees)) {
        d.error("/trees", "expected an array of 1 to " + std::to_string(Limits::maxTrees) + " trees");
        trees = nullptr;
    }
    const int nFeatures = int(f.features.size());
    for (std::size_t t = 0; trees && t < trees->size() && !d.hasErrors(); ++t) {
        const std::string at = "/trees/" + std::to_string(t);
        JsonObjectReader r((*trees)[t], at, d);
        ForestTree tree;
        auto readArray = [&](const char *key, auto &vec, bool integer) {
            const json *a = r.member(key, true);
            if (!a)
                return;
            if (!a->is_array() || a->empty() || a->size() > Limits::maxNodes) {
                d.error(r.pointerTo(key), "expected an array of 1 to " + std::to_string(Limits::maxNodes) + " numbers");
                return;
            }
            for (std::size_t i = 0; i < a->size(); ++i) {
                const json &v = (*a)[i];
                if (!v.is_number() || !std::isfinite(v.get<double>()) || (integer && !v.is_number_integer())) {
                    d.error(r.pointerTo(key) + "/" + std::to_string(i),
                            integer ? "expected an integer" : "expected a finite number");
                    return;
                }
                vec.push_back(static_cast<typename std::decay_t<decltype(vec)>::value_type>(
                    integer ? double(std::clamp<std::int64_t>(v.get<std::int64_t>(), -2, 1 << 30)) : v.get<double>()));
            }
        };
        std::vector<int> missing;
        readArray("feature", tree.feature, true);
        readArray("threshold", tree.threshold, false);
        readArray("left", tree.left, true);
        readArray("right", tree.right, true);
        readArray("missing_left", missing, true);
        readArray("value", tree.value, false);
        r.finish();
        if (d.hasErrors())
            break;
        const std::size_t n = tree.feature.size();
        if (tree.threshold.size() != n || tree.left.size() != n || tree.right.size() != n || missing.size() != n
            || tree.value.size() != n) {
            d.error(at, "feature, threshold, left, right, missing_left and value must have the same length");
            break;
        }
        tree.missingLeft.assign(missing.begin(), missing.end());
        // Children must point forward (no cycles, no dangling nodes): the evaluator then always ends.
        for (std::size_t i = 0; i < n; ++i) {
            if (tree.left[i] < 0)
                continue;
            if (tree.left[i] <= int(i) || tree.right[i] <= int(i) || tree.left[i] >= int(n) || tree.right[i] >= int(n)) {
                d.error(at + "/left/" + std::to_string(i), "children must be later nodes of the same tree");
                break;
            }
            if (tree.feature[i] < 0 || tree.feature[i] >= nFeatures) {
                d.error(at + "/feature/" + std::to_string(i),
                        "must name one of the " + std::to_string(nFeatures) + " features (0-based)");
                break;
            }
        }
        f.trees.push_back(std::move(tree));
    }
    top.finish();
    if (!d.hasErrors())
        out.forest = std::move(f);
    return out;
}

ForestLoad loadForestFile(const std::string &path)
{
    ForestLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseForest(text, path);
}

std::string serializeForest(const Forest &f)
{
    json trees = json::array();
    for (const ForestTree &t : f.trees) {
        json missing = json::array();
        for (char m : t.missingLeft)
            missing.push_back(int(m));
        // One line per array keeps a file of hundreds of trees readable by line.
        trees.push_back({{"feature", t.feature},
                         {"threshold", t.threshold},
                         {"left", t.left},
                         {"right", t.right},
                         {"missing_left", missing},
                         {"value", t.value}});
    }
    json head = {{"format", kForestFormatId},   {"version", kForestFormatVersion},   {"kind", f.kind},
                 {"features", f.features},     {"base", f.base},                    {"log_target", f.logTarget},
                 {"samples", f.samples},       {"rmse_percent", f.rmsePercent},     {"within_10_percent", f.within10Percent},
                 {"source", f.source}};
    std::string out = "{\n";
    for (auto it = head.begin(); it != head.end(); ++it)
        out += "  " + json(it.key()).dump() + ": " + it->dump(-1, ' ', false, json::error_handler_t::replace) + ",\n";
    out += "  \"trees\": [\n";
    for (std::size_t i = 0; i < trees.size(); ++i)
        out += "    " + trees[i].dump() + (i + 1 < trees.size() ? ",\n" : "\n");
    out += "  ]\n}\n";
    return out;
}

// ------------------------------------------------------------------ devices

DeviceLoad parseDevice(const std::string &text, const std::string &fileLabel, const std::string &directory)
{
    return parseDevice(text, fileLabel, directory,
                       [](const std::string &path, std::string &out, Diagnostics &d) { return readTextFile(path, out, d); });
}

DeviceLoad parseDevice(const std::string &text, const std::string &fileLabel, const std::string &directory,
                       const FileReader &reader)
{
    // The rules and forests the device names, read through `reader`.
    auto loadRules = [&](const std::string &path) {
        RulesLoad r;
        std::string t;
        return reader(path, t, r.diagnostics) ? parseRules(t, path) : r;
    };
    auto loadForest = [&](const std::string &path) {
        ForestLoad f;
        std::string t;
        return reader(path, t, f.diagnostics) ? parseForest(t, path) : f;
    };
    DeviceLoad out;
    Diagnostics &d = out.diagnostics;
    JsonModelFile file(text, fileLabel, kDeviceFormatId, kDeviceFormatVersion, d);
    if (!file.isOpen())
        return out;
    JsonObjectReader &top = file.top();
    Device dev;
    dev.name = top.string("name").value_or("");
    dev.description = top.optionalString("description").value_or("");
    dev.source = top.optionalString("source").value_or("");
    dev.peakGflops = top.number("peak_gflops", DeviceRanges::rate()).value_or(1);
    dev.bandwidthGBps = top.number("bandwidth_gbps", DeviceRanges::rate()).value_or(1);
    dev.bytesPerElement = int(top.optionalNumber("bytes_per_element", Range::closed(1, 8)).value_or(4));
    dev.kernelOverheadUs = top.optionalNumber("kernel_overhead_us", DeviceRanges::overheadUs()).value_or(0);
    if (const json *eff = top.member("efficiency", false)) {
        JsonObjectReader e(*eff, top.pointerTo("efficiency"), d);
        if (e.isObject()) {
            for (const auto &item : eff->items()) {
                if (item.key() != "default" && !isOperatorName(item.key())) {
                    e.member(item.key(), false);
                    d.error(e.pointerTo(item.key()), "unknown kernel kind \"" + item.key() + "\"");
                    continue;
                }
                const json *v = e.member(item.key(), true);
                JsonObjectReader r(*v, e.pointerTo(item.key()), d);
                Efficiency eff1;
                eff1.compute = r.number("compute", DeviceRanges::efficiency()).value_or(1);
                eff1.memory = r.number("memory", DeviceRanges::efficiency()).value_or(1);
                r.finish();
                if (item.key() == "default")
                    dev.defaultEfficiency = eff1;
                else
                    dev.efficiency[item.key()] = eff1;
            }
        }
        e.finish();
    }
    if (auto rulesFile = top.string("fusion_rules")) {
        dev.rulesFile = *rulesFile;
        RulesLoad rules = directory.empty() ? RulesLoad{} : loadRules(joinPath(directory, *rulesFile));
        if (directory.empty())
            d.error("/fusion_rules", "cannot open \"" + *rulesFile + "\" (no directory to resolve it in)");
        for (const Diagnostic &x : rules.diagnostics.all())
            x.severity == Severity::Error ? d.error("/fusion_rules", x.toString()) : d.warning("/fusion_rules", x.toString());
        if (rules.rules)
            dev.rules = *rules.rules;
    }
    if (const json *preds = top.member("predictors", false)) {
        JsonObjectReader p(*preds, top.pointerTo("predictors"), d);
        if (p.isObject() && preds->size() > Limits::maxPredictors)
            d.error(top.pointerTo("predictors"), "more than " + std::to_string(Limits::maxPredictors) + " predictors");
        else if (p.isObject()) {
            for (const auto &item : preds->items()) {
                const std::string at = p.pointerTo(item.key());
                auto name = p.string(item.key());
                if (!name)
                    continue;
                if (!isOperatorName(item.key())) {
                    d.error(at, "unknown kernel kind \"" + item.key() + "\"");
                    continue;
                }
                ForestLoad f = directory.empty() ? ForestLoad{} : loadForest(joinPath(directory, *name));
                if (directory.empty())
                    d.error(at, "cannot open \"" + *name + "\" (no directory to resolve it in)");
                for (const Diagnostic &x : f.diagnostics.all())
                    x.severity == Severity::Error ? d.error(at, x.toString()) : d.warning(at, x.toString());
                if (f.forest && f.forest->kind != item.key())
                    d.error(at, "the forest in \"" + *name + "\" predicts \"" + f.forest->kind + "\", not \"" + item.key() + "\"");
                else if (f.forest && f.forest->features != featureNames(item.key()))
                    d.error(at, "the forest in \"" + *name + "\" reads other features than a \"" + item.key() + "\" kernel has");
                else if (f.forest) {
                    dev.predictors[item.key()] = std::make_shared<const Forest>(std::move(*f.forest));
                    dev.predictorFiles[item.key()] = *name;
                }
            }
        }
        p.finish();
    }
    top.finish();
    if (!d.hasErrors())
        out.device = std::move(dev);
    return out;
}

DeviceLoad loadDeviceFile(const std::string &path)
{
    DeviceLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseDevice(text, path, directoryOf(path));
}

std::string serializeDevice(const Device &dev)
{
    json eff = {{"default", {{"compute", dev.defaultEfficiency.compute}, {"memory", dev.defaultEfficiency.memory}}}};
    for (const auto &[kind, e] : dev.efficiency)
        eff[kind] = {{"compute", e.compute}, {"memory", e.memory}};
    json j = {{"format", kDeviceFormatId},
              {"version", kDeviceFormatVersion},
              {"name", dev.name},
              {"description", dev.description},
              {"source", dev.source},
              {"fusion_rules", dev.rulesFile},
              {"peak_gflops", dev.peakGflops},
              {"bandwidth_gbps", dev.bandwidthGBps},
              {"bytes_per_element", dev.bytesPerElement},
              {"kernel_overhead_us", dev.kernelOverheadUs},
              {"efficiency", eff}};
    if (!dev.predictorFiles.empty())
        j["predictors"] = dev.predictorFiles;
    return dump(j);
}

} // namespace roofline::nnmeter
