// Issue 14: the catalogue. Every numeric field of every JSON format's shipped
// example is fed 0, a negative, a denormal, a huge value, NaN-like strings,
// wrong types and null; every loader gets truncated, empty, BOM, binary, deep,
// duplicate-key and unknown-key files, a folder and a missing file. Each case
// must end in errors that name the file, a place and a reason, or in a model
// whose result is finite — never a crash, a hang or a non-finite number.
#include "amaix/io.h"
#include "amaix/model.h"
#include "common/jsonreader.h"
#include "gables/io.h"
#include "gables/model.h"
#include "network/io.h"
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

std::string readExample(const std::string &relative)
{
    std::ifstream in(std::string(ROOFLINE_EXAMPLES_DIR) + "/" + relative, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// What one load gave: errors, or a result checked for finiteness.
struct Outcome
{
    bool loaded = false;
    Diagnostics diagnostics;
    bool finite = true;     // of the evaluated result, when loaded
    std::string evaluation; // why the model refused it (a stated error is fine)
};

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

bool finiteJson(const json &j)
{
    return !nonFinitePointer(j).has_value();
}

struct Format
{
    const char *name;
    const char *example;
    Loader load;
};

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
    };
}

// Every number in the document, by JSON pointer.
void numericPointers(const json &value, const std::string &pointer, std::vector<std::string> &out)
{
    if (value.is_number()) {
        out.push_back(pointer);
    } else if (value.is_object()) {
        for (const auto &[key, member] : value.items())
            numericPointers(member, pointer + "/" + jsonPointerToken(key), out);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            numericPointers(value[i], pointer + "/" + std::to_string(i), out);
    }
}

// Whether a message shows "nan" or "inf" as a word outside double quotes (the
// file's own text, quoted back, may say "nan"). No std::regex: GCC 12 warns
// inside <regex> at -O1 with the sanitizers, and the ASan build uses -Werror.
bool printsNonFinite(const std::string &message)
{
    bool quoted = false;
    auto letter = [&](std::size_t i) { return i < message.size() && std::isalpha(static_cast<unsigned char>(message[i])); };
    for (std::size_t i = 0; i < message.size(); ++i) {
        if (message[i] == '"') {
            quoted = !quoted;
            continue;
        }
        if (quoted || (i > 0 && letter(i - 1)))
            continue;
        for (const char *word : {"nan", "inf"}) {
            if (message.compare(i, 3, word) == 0 && !letter(i + 3))
                return true;
        }
    }
    return false;
}

// The failure modes an outcome may not have.
QString checkOutcome(const Outcome &o, const std::string &label, const QString &what)
{
    if (o.loaded) {
        if (!o.finite)
            return what + ": loaded, and the result is not finite";
        if (o.diagnostics.hasErrors())
            return what + ": loaded and errors";
        return {};
    }
    if (!o.diagnostics.hasErrors())
        return what + ": refused without an error";
    for (const Diagnostic &d : o.diagnostics.errors()) {
        if (d.file != label)
            return what + ": an error names the file \"" + QString::fromStdString(d.file) + "\"";
        if (d.message.empty())
            return what + ": an error without a reason";
        if (printsNonFinite(d.message))
            return what + ": an error prints a non-finite number: " + QString::fromStdString(d.message);
    }
    return {};
}

} // namespace

class TestCatalogue : public QObject
{
    Q_OBJECT

private slots:
    // Every numeric field × every hostile value.
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
        const std::string text = readExample(f.example);
        const json doc = json::parse(text);
        const std::string label = std::string("catalogue-") + f.name + ".json";
        // The example itself loads and evaluates.
        const Outcome good = f.load(text, label);
        QVERIFY2(good.loaded && good.finite, good.diagnostics.toString().c_str());

        std::vector<std::string> pointers;
        numericPointers(doc, "", pointers);
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
        const std::string text = readExample(f.example);
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
            for (const Diagnostics *d : {&g.diagnostics, &a.diagnostics, &n.diagnostics, &t.diagnostics,
                                         &m.diagnostics, &c.diagnostics}) {
                QVERIFY2(d->hasErrors(), path.c_str());
                QCOMPARE(d->errors()[0].file, path);
            }
            QVERIFY(!g.soc && !a.accelerator && !n.network && !t.trace && !m.machine && !c.times);
        }
        QVERIFY(gables::loadSocFile(folder).diagnostics.toString().find("is a folder, not a file") != std::string::npos);
        const auto withBom = gables::loadSocFile(bom);
        QVERIFY2(withBom.soc.has_value(), withBom.diagnostics.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestCatalogue)
#include "tst_catalogue.moc"
