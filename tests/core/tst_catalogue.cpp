// Issue 14: the catalogue. Every numeric field of every JSON format's shipped
// example is fed 0, a negative, a denormal, a huge value, NaN-like strings,
// wrong types and null; every loader gets truncated, empty, BOM, binary, deep,
// duplicate-key and unknown-key files, a folder and a missing file. Each case
// must end in errors that name the file, a place and a reason, or in a model
// whose result is finite — never a crash, a hang or a non-finite number.
#include "cataloguetesting.h"

#include "amaix/io.h"
#include "amaix/model.h"
#include "brouwer/fit.h"
#include "brouwer/io.h"
#include "common/jsonreader.h"
#include "gables/io.h"
#include "gables/model.h"
#include "network/io.h"
#include "nnmeter/io.h"
#include "nnmeter/predict.h"
#include "verrocchio/io.h"
#include "verrocchio/simulation.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <functional>
#include <cctype>
#include <iterator>

using namespace roofline;
using nlohmann::json;

namespace {

using namespace catalogue;

using Loader = std::function<Outcome(const std::string &text, const std::string &label)>;

const verrocchio::Machine &ascend310()
{
    static const auto m = verrocchio::loadMachineFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/ascend310.json");
    return *m.machine;
}
const amaix::Accelerator &nvSmall()
{
    static const auto a = amaix::loadAcceleratorFile(ROOFLINE_EXAMPLES_DIR "/amaix/nv_small.json");
    return *a.accelerator;
}
const network::Network &lenet()
{
    static const auto n = network::loadNetworkFile(ROOFLINE_EXAMPLES_DIR "/amaix/lenet.json");
    return *n.network;
}
const verrocchio::Trace &vectorAdd()
{
    static const auto t = verrocchio::loadTraceFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/vector-add-1core.json");
    return *t.trace;
}

struct Format
{
    const char *name;
    const char *example;
    Loader load;
    // Cuts a large example down (every field of it is tried 19 times); null: as shipped.
    std::function<std::string(const std::string &)> trim = nullptr;
};

// The first two trees of a learned forest: every kind of field, 1/10 of the cases.
std::string firstTwoTrees(const std::string &text)
{
    json doc = json::parse(text);
    doc["trees"].erase(doc["trees"].begin() + 2, doc["trees"].end());
    return doc.dump(1);
}

// Our LASSO fit with two terms per submodel and one measured file named:
// every kind of field (swapping_calibrated among them), a fraction of the cases.
std::string lassoTwoTerms(const std::string &text)
{
    json doc = json::parse(text);
    for (auto &[name, submodel] : doc["submodels"].items()) {
        (void)name;
        if (submodel.contains("terms") && submodel["terms"].size() > 2)
            submodel["terms"].erase(submodel["terms"].begin() + 2, submodel["terms"].end());
    }
    doc["fit"]["measurements"].erase(doc["fit"]["measurements"].begin() + 1, doc["fit"]["measurements"].end());
    return doc.dump(1);
}

// The kernel lab's rules (measured times) cut to four pairs, each with the
// multi-shape test's shapes_tested/shapes_fused as the lab writes them.
std::string labRulesWithShapes(const std::string &text)
{
    json doc = json::parse(text);
    json fusions = json::object();
    int n = 0;
    for (auto &[name, rule] : doc["fusions"].items()) {
        if (n++ == 4)
            break;
        rule["shapes_tested"] = 3;
        rule["shapes_fused"] = rule["fuses"].get<bool>() ? 2 : 1;
        fusions[name] = rule;
    }
    doc["fusions"] = fusions;
    return doc.dump(1);
}

std::string exampleText(const Format &f)
{
    const std::string text = readExample(f.example);
    return f.trim ? f.trim(text) : text;
}

std::vector<Format> formats()
{
    return {
        {"gables", "gables/snapdragon835.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = gables::parseSoc(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.soc.has_value()))
                 o.finite = finiteJson(gables::resultToJson(*r.soc, gables::evaluate(*r.soc)));
             return o;
         }},
        {"accelerator", "amaix/nv_small.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = amaix::parseAccelerator(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.accelerator.has_value())) {
                 const auto options = amaix::withOfferedDataType(lenet(), *r.accelerator, {});
                 const auto result = amaix::evaluate(lenet(), *r.accelerator, options);
                 o.evaluation = result.error;
                 o.finite = !result.ok() || finiteJson(amaix::resultToJson(lenet(), *r.accelerator, result));
             }
             return o;
         }},
        {"network", "amaix/lenet.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = network::parseNetwork(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.network.has_value())) {
                 const auto options = amaix::withOfferedDataType(*r.network, nvSmall(), {});
                 const auto result = amaix::evaluate(*r.network, nvSmall(), options);
                 o.evaluation = result.error;
                 o.finite = !result.ok() || finiteJson(amaix::resultToJson(*r.network, nvSmall(), result));
             }
             return o;
         }},
        {"machine", "verrocchio/ascend310.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = verrocchio::parseMachine(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.machine.has_value())) {
                 const auto result = verrocchio::simulate(vectorAdd(), *r.machine);
                 o.finite = !result.ok() || finiteJson(verrocchio::summaryToJson(vectorAdd(), *r.machine, result));
             }
             return o;
         }},
        {"trace", "verrocchio/contention-during.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = verrocchio::parseTrace(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.trace.has_value()) && r.trace->instructionCount() <= 1'000'000) {
                 const auto result = verrocchio::simulate(*r.trace, ascend310());
                 o.finite = !result.ok() || finiteJson(verrocchio::summaryToJson(*r.trace, ascend310(), result));
             }
             return o;
         }},
        {"brouwer-device", "brouwer/edgecaffe-fe.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = brouwer::parseDevice(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.device.has_value())) {
                 const auto layers = brouwer::layerFeatures(lenet());
                 for (double memory : {1e3, 256e6, 1e12}) {
                     const auto result = brouwer::evaluate(*r.device, layers, {memory, 4});
                     o.finite = o.finite && finiteJson(brouwer::resultToJson("lenet", *r.device, {memory, 4}, result));
                 }
             }
             return o;
         }},
        // Issue 14: the fields added by the Brouwer LASSO fit (swapping_calibrated).
        {"brouwer-device-lasso", "brouwer/edgecaffe-lasso.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = brouwer::parseDevice(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.device.has_value())) {
                 const auto layers = brouwer::layerFeatures(lenet());
                 for (double memory : {1e3, 256e6, 1e12}) {
                     const auto result = brouwer::evaluate(*r.device, layers, {memory, 4});
                     o.finite = o.finite && finiteJson(brouwer::resultToJson("lenet", *r.device, {memory, 4}, result));
                 }
             }
             return o;
         },
         lassoTwoTerms},
        {"nnmeter-device", "nnmeter/cortexa76_tflite_cpu.device.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = nnmeter::parseDevice(text, label, ROOFLINE_EXAMPLES_DIR "/nnmeter");
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.device.has_value())) {
                 const auto p = nnmeter::predictNetwork(lenet(), *r.device);
                 o.finite = std::isfinite(p.kernelSumMs) && std::isfinite(p.operatorSumMs) && std::isfinite(p.flopsMs);
             }
             return o;
         }},
        {"nnmeter-rules", "nnmeter/tflite_gpu.rules.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = nnmeter::parseRules(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.rules.has_value())) {
                 static const auto device =
                     nnmeter::loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/adreno640_tflite_gpu.device.json");
                 const auto p = nnmeter::predictNetwork(lenet(), *device.device, *r.rules);
                 o.finite = std::isfinite(p.kernelSumMs) && std::isfinite(p.operatorSumMs) && std::isfinite(p.flopsMs);
             }
             return o;
         }},
        // Issue 14: the kernel lab's rules with the multi-shape fields (shapes_tested, shapes_fused).
        {"nnmeter-rules-lab", "nnmeter/onednn_cpu.rules.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = nnmeter::parseRules(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.rules.has_value())) {
                 static const auto device = nnmeter::loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu.device.json");
                 const auto p = nnmeter::predictNetwork(lenet(), *device.device, *r.rules);
                 o.finite = std::isfinite(p.kernelSumMs) && std::isfinite(p.operatorSumMs) && std::isfinite(p.flopsMs);
             }
             return o;
         },
         labRulesWithShapes},
        {"nnmeter-forest", "nnmeter/onednn_cpu/avgpool.forest.json",
         [](const std::string &text, const std::string &label) {
             Outcome o;
             auto r = nnmeter::parseForest(text, label);
             o.diagnostics = r.diagnostics;
             if ((o.loaded = r.forest.has_value())) {
                 // A prediction is finite and not negative, or none (the kernel then falls back).
                 for (double v : {0.0, 1.0, 56.0, 1e9}) {
                     const auto ms = r.forest->predictMs(std::vector<double>(r.forest->features.size(), v));
                     o.finite = o.finite && (!ms || (std::isfinite(*ms) && *ms >= 0));
                 }
             }
             return o;
         },
         firstTwoTrees},
    };
}

} // namespace

class TestCatalogue : public QObject
{
    Q_OBJECT

private slots:
    // Every numeric (and boolean) field × every hostile value.
    void everyNumericField_data()
    {
        QTest::addColumn<int>("format");
        const auto all = formats();
        for (std::size_t f = 0; f < all.size(); ++f)
            QTest::newRow(all[f].name) << int(f);
    }
    void everyNumericField()
    {
        QFETCH(int, format);
        const Format f = formats()[std::size_t(format)];
        const std::string text = exampleText(f);
        const json doc = json::parse(text);
        const std::string label = std::string("catalogue-") + f.name + ".json";
        // The example itself loads and evaluates.
        const Outcome good = f.load(text, label);
        QVERIFY2(good.loaded && good.finite, good.diagnostics.toString().c_str());

        std::vector<std::string> pointers;
        numericPointers(doc, "", pointers, true); // and every true/false
        QVERIFY(pointers.size() >= 5);
        const std::vector<json> values = {0,        -1,   -1e-320, 1e-320, 4.9e-324, 1e-30, 1e308, -1e308,
                                          1.5,      1e15, "NaN",   "nan",  "Infinity", "1e999", "",  true,
                                          nullptr,  json::array(), json::object()};
        QStringList failures;
        std::size_t refused = 0, cases = 0;
        for (const std::string &p : pointers) {
            for (const json &v : values) {
                json changed = doc;
                changed[json::json_pointer(p)] = v;
                const Outcome o = f.load(changed.dump(), label);
                ++cases;
                refused += o.loaded ? 0 : 1;
                const QString problem = checkOutcome(o, label, QString::fromStdString(p + " = " + v.dump()));
                if (!problem.isEmpty())
                    failures << problem;
                // A refusal names the field it was about (or one that depends on it).
                if (!o.loaded && !o.diagnostics.errors().empty() && o.diagnostics.errors()[0].pointer.empty())
                    failures << QString::fromStdString(p + " = " + v.dump() + ": an error names no place: "
                                                       + o.diagnostics.errors()[0].message);
            }
        }
        qInfo("%s: %zu fields, %zu cases, %zu refused", f.name, pointers.size(), cases, refused);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }

    // Whole-file failures, for every loader.
    void brokenFiles_data()
    {
        QTest::addColumn<int>("format");
        const auto all = formats();
        for (std::size_t f = 0; f < all.size(); ++f)
            QTest::newRow(all[f].name) << int(f);
    }
    void brokenFiles()
    {
        QFETCH(int, format);
        const Format f = formats()[std::size_t(format)];
        const std::string text = exampleText(f);
        const std::string label = std::string("catalogue-") + f.name + ".json";
        QStringList failures;
        auto expectRefused = [&](const std::string &bytes, const QString &what) {
            const Outcome o = f.load(bytes, label);
            const QString problem = checkOutcome(o, label, what);
            if (!problem.isEmpty())
                failures << problem;
            if (o.loaded)
                failures << what + ": loaded";
        };
        for (std::size_t cut : {std::size_t(0), std::size_t(1), text.size() / 3, text.size() / 2, text.size() - 2})
            expectRefused(text.substr(0, cut), QStringLiteral("truncated at %1").arg(cut));
        expectRefused(std::string("\x00\xFF\xFE\x01garbage\x80", 12), QStringLiteral("binary"));
        expectRefused(std::string(100000, '[') + std::string(100000, ']'), QStringLiteral("deep arrays"));
        expectRefused(std::string(50000, '{') , QStringLiteral("deep unclosed objects"));
        json doc = json::parse(text);
        doc["surely_unknown_key"] = 1;
        expectRefused(doc.dump(), QStringLiteral("unknown key"));
        std::string duplicate = text;
        duplicate.insert(duplicate.find('{') + 1, "\"version\": 1, ");
        expectRefused(duplicate, QStringLiteral("duplicate key"));
        // A byte-order mark is accepted by every format (through readTextFile).
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    // Files: folder, missing, BOM, empty, through each loader's file entry point.
    void files()
    {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        const std::string missing = folder + "/missing.json";
        const std::string bom = folder + "/bom.json";
        const std::string empty = folder + "/empty.json";
        std::ofstream(bom, std::ios::binary) << "\xEF\xBB\xBF" << readExample("gables/snapdragon835.json");
        std::ofstream(empty, std::ios::binary) << "";
        for (const std::string &path : {folder, missing, empty}) {
            const auto g = gables::loadSocFile(path);
            const auto a = amaix::loadAcceleratorFile(path);
            const auto n = network::loadNetworkFile(path);
            const auto t = verrocchio::loadTraceFile(path);
            const auto m = verrocchio::loadMachineFile(path);
            const auto c = amaix::loadMeasuredFile(path);
            const auto bd = brouwer::loadDeviceFile(path);
            const auto bm = brouwer::loadMeasuredFile(path);
            const auto nd = nnmeter::loadDeviceFile(path);
            const auto nr = nnmeter::loadRulesFile(path);
            const auto nf = nnmeter::loadForestFile(path);
            for (const Diagnostics *d : {&g.diagnostics, &a.diagnostics, &n.diagnostics, &t.diagnostics,
                                         &m.diagnostics, &c.diagnostics, &bd.diagnostics, &bm.diagnostics,
                                         &nd.diagnostics, &nr.diagnostics, &nf.diagnostics}) {
                QVERIFY2(d->hasErrors(), path.c_str());
                QCOMPARE(d->errors()[0].file, path);
            }
            QVERIFY(!g.soc && !a.accelerator && !n.network && !t.trace && !m.machine && !c.times);
            QVERIFY(!bd.device && bm.diagnostics.hasErrors() && !nd.device && !nr.rules && !nf.forest);
        }
        QVERIFY(gables::loadSocFile(folder).diagnostics.toString().find("is a folder, not a file") != std::string::npos);
        const auto withBom = gables::loadSocFile(bom);
        QVERIFY2(withBom.soc.has_value(), withBom.diagnostics.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestCatalogue)
#include "tst_catalogue.moc"
