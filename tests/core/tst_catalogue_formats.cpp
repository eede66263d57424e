// Issue 14: the catalogue, field by field, for the formats that are not our
// JSON (tst_catalogue.cpp has those): the compact text trace, the AMAIX
// measured CSV, Brouwer's measured CSV in EdgeCaffe's form and ours, Caffe
// prototxt and ONNX. Every number in a shipped file is replaced, one at a
// time, by 0, a negative, a denormal, huge values, NaN-like words, garbage and
// nothing. Each case must end in errors naming the file, the place (line, or
// layer) and the reason, or in a model whose result is finite.
#include "cataloguetesting.h"

#include "amaix/io.h"
#include "amaix/model.h"
#include "brouwer/fit.h"
#include "network/import.h"
#include "network/io.h"
#include "nnmeter/measured.h"
#include "verrocchio/io.h"
#include "verrocchio/simulation.h"

#include <onnx/onnx_pb.h>

#include <QTest>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>

using namespace roofline;
using namespace catalogue;

namespace {

// What replaces a number in a text format.
const std::vector<std::string> kHostileWords = {"0",     "-1",    "-1e-320", "1e-320", "4.9e-324",
                                                "1e-30", "1e308", "-1e308",  "1e999",  "1.5",
                                                "1e15",  "99999999999999999999", "NaN", "nan", "inf",
                                                "Infinity", "abc", "",       "0x10"};

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

std::string readSource(const std::string &relative)
{
    std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/" + relative, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool isNumberStart(const std::string &text, std::size_t i)
{
    const char c = text[i];
    return std::isdigit(static_cast<unsigned char>(c))
        || (c == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])));
}

// Every number token in the text (outside comments and quoted strings) as
// [begin, end) byte ranges. `separators`: what may stand before and after one.
std::vector<std::pair<std::size_t, std::size_t>> numberTokens(const std::string &text, const std::string &separators)
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    bool quoted = false, comment = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            comment = quoted = false;
            continue;
        }
        if (comment)
            continue;
        if (c == '"') {
            quoted = !quoted;
            continue;
        }
        if (quoted)
            continue;
        if (c == '#') {
            comment = true;
            continue;
        }
        const bool startsToken = i == 0 || separators.find(text[i - 1]) != std::string::npos;
        if (!startsToken || !isNumberStart(text, i))
            continue;
        std::size_t end = i + 1;
        while (end < text.size() && separators.find(text[end]) == std::string::npos && text[end] != '\n')
            ++end;
        out.emplace_back(i, end);
        i = end - 1;
    }
    return out;
}

using TextLoader = std::function<Outcome(const std::string &text, const std::string &label)>;

// Every number token × every hostile word through `load`; the failures found.
QStringList everyNumber(const std::string &text, const std::string &separators, const std::string &label,
                        const TextLoader &load, std::size_t *casesOut, std::size_t maxTokens = 400)
{
    QStringList failures;
    const Outcome good = load(text, label);
    if (!good.loaded || !good.finite)
        return {QString::fromStdString("the shipped file itself: " + good.diagnostics.toString())};
    auto tokens = numberTokens(text, separators);
    if (tokens.size() > maxTokens) // spread over the whole file
        for (std::size_t i = 0, step = tokens.size() / maxTokens; i < maxTokens; ++i)
            tokens[i] = tokens[i * step];
    tokens.resize(std::min(tokens.size(), maxTokens));
    std::size_t cases = 0;
    for (const auto &[begin, end] : tokens) {
        const std::size_t line = std::size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(begin), '\n')) + 1;
        for (const std::string &word : kHostileWords) {
            std::string changed = text;
            changed.replace(begin, end - begin, word);
            const Outcome o = load(changed, label);
            ++cases;
            const QString what = QStringLiteral("line %1: \"%2\" -> \"%3\"")
                                     .arg(line)
                                     .arg(QString::fromStdString(text.substr(begin, end - begin)),
                                          QString::fromStdString(word));
            const QString problem = checkOutcome(o, label, what);
            if (!problem.isEmpty())
                failures << problem;
            if (!o.loaded && !o.diagnostics.errors().empty() && o.diagnostics.errors()[0].pointer.empty())
                failures << what + ": an error names no place: "
                        + QString::fromStdString(o.diagnostics.errors()[0].message);
        }
    }
    if (casesOut)
        *casesOut = cases;
    return failures;
}

Outcome evaluateNetwork(network::NetworkLoad r)
{
    Outcome o;
    o.diagnostics = r.diagnostics;
    if ((o.loaded = r.network.has_value() && !r.diagnostics.hasErrors())) {
        const auto options = amaix::withOfferedDataType(*r.network, nvSmall(), {});
        const auto result = amaix::evaluate(*r.network, nvSmall(), options);
        o.evaluation = result.error;
        o.finite = !result.ok() || finiteJson(amaix::resultToJson(*r.network, nvSmall(), result));
    }
    return o;
}

// ONNX: every integer and float of the graph's inputs, the nodes' attributes
// and the initializers' dimensions, replaced in the protobuf itself.
struct OnnxField
{
    std::string name;
    std::function<void(onnx::ModelProto &, std::int64_t)> setInt;
    std::function<void(onnx::ModelProto &, float)> setFloat;
};

std::vector<OnnxField> onnxFields(const onnx::ModelProto &model)
{
    std::vector<OnnxField> out;
    const auto &graph = model.graph();
    for (int i = 0; i < graph.input_size(); ++i) {
        const auto &shape = graph.input(i).type().tensor_type().shape();
        for (int d = 0; d < shape.dim_size(); ++d)
            out.push_back({"input " + graph.input(i).name() + " dim " + std::to_string(d),
                           [i, d](onnx::ModelProto &m, std::int64_t v) {
                               m.mutable_graph()->mutable_input(i)->mutable_type()->mutable_tensor_type()
                                   ->mutable_shape()->mutable_dim(d)->set_dim_value(v);
                           },
                           nullptr});
    }
    for (int n = 0; n < graph.node_size(); ++n) {
        const auto &node = graph.node(n);
        for (int a = 0; a < node.attribute_size(); ++a) {
            const auto &attr = node.attribute(a);
            const std::string where = "node " + node.name() + " (" + node.op_type() + ") " + attr.name();
            if (attr.type() == onnx::AttributeProto::INT)
                out.push_back({where, [n, a](onnx::ModelProto &m, std::int64_t v) {
                                   m.mutable_graph()->mutable_node(n)->mutable_attribute(a)->set_i(v);
                               },
                               nullptr});
            if (attr.type() == onnx::AttributeProto::FLOAT)
                out.push_back({where, nullptr, [n, a](onnx::ModelProto &m, float v) {
                                   m.mutable_graph()->mutable_node(n)->mutable_attribute(a)->set_f(v);
                               }});
            if (attr.type() == onnx::AttributeProto::INTS)
                for (int k = 0; k < attr.ints_size(); ++k)
                    out.push_back({where + "[" + std::to_string(k) + "]",
                                   [n, a, k](onnx::ModelProto &m, std::int64_t v) {
                                       m.mutable_graph()->mutable_node(n)->mutable_attribute(a)->set_ints(k, v);
                                   },
                                   nullptr});
        }
    }
    for (int t = 0; t < graph.initializer_size(); ++t)
        for (int d = 0; d < graph.initializer(t).dims_size(); ++d)
            out.push_back({"initializer " + graph.initializer(t).name() + " dim " + std::to_string(d),
                           [t, d](onnx::ModelProto &m, std::int64_t v) {
                               m.mutable_graph()->mutable_initializer(t)->set_dims(d, v);
                           },
                           nullptr});
    return out;
}

} // namespace

class TestCatalogueFormats : public QObject
{
    Q_OBJECT

private slots:
    void textTrace()
    {
        const std::string text = readExample("verrocchio/vector-add-1core.txt");
        std::size_t cases = 0;
        const QStringList failures = everyNumber(text, " \t", "catalogue.txt",
                                                 [](const std::string &t, const std::string &label) {
                                                     Outcome o;
                                                     auto r = verrocchio::parseTraceText(t, label);
                                                     o.diagnostics = r.diagnostics;
                                                     if ((o.loaded = r.trace.has_value())
                                                         && r.trace->instructionCount() <= 1'000'000) {
                                                         const auto result = verrocchio::simulate(*r.trace, ascend310());
                                                         o.finite = !result.ok()
                                                             || finiteJson(verrocchio::summaryToJson(*r.trace, ascend310(),
                                                                                                     result));
                                                     }
                                                     return o;
                                                 },
                                                 &cases);
        qInfo("text trace: %zu cases", cases);
        QVERIFY(cases > 300);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }

    void amaixMeasuredCsv()
    {
        const std::string text = "layer,time_us\n# a comment\nconv1,12.5\npool1,3\nfc1,0.25\n";
        std::size_t cases = 0;
        const QStringList failures = everyNumber(text, ",", "catalogue.csv",
                                                 [](const std::string &t, const std::string &label) {
                                                     Outcome o;
                                                     auto r = amaix::parseMeasuredCsv(t, label);
                                                     o.diagnostics = r.diagnostics;
                                                     if ((o.loaded = r.times.has_value()))
                                                         for (const auto &m : *r.times)
                                                             o.finite = o.finite && std::isfinite(m.timeNs);
                                                     return o;
                                                 },
                                                 &cases);
        QVERIFY(cases >= 3 * kHostileWords.size());
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }

    void brouwerMeasuredCsv_data()
    {
        QTest::addColumn<QString>("text");
        // EdgeCaffe's form: the first rows of a shipped measurement file.
        const std::string edge = readSource("tests/data/edgecaffe/measured/SoS-linear-1.csv");
        std::size_t cut = 0;
        for (int lines = 0; lines < 5 && cut != std::string::npos; ++lines)
            cut = edge.find('\n', cut + 1);
        QTest::newRow("EdgeCaffe") << QString::fromStdString(edge.substr(0, cut + 1));
        QTest::newRow("ours") << QStringLiteral("network,layer,load_ns,exec_ns,memory_bytes\n"
                                                "AgeNet,conv1,1489414,23545040,268435456\n"
                                                "AgeNet,pool1,102105,6703764,\n");
    }
    void brouwerMeasuredCsv()
    {
        QFETCH(QString, text);
        std::size_t cases = 0;
        const QStringList failures = everyNumber(text.toStdString(), ",", "catalogue.csv",
                                                 [](const std::string &t, const std::string &label) {
                                                     Outcome o;
                                                     auto r = brouwer::parseMeasuredCsv(t, label);
                                                     o.diagnostics = r.diagnostics;
                                                     if ((o.loaded = !r.rows.empty()))
                                                         for (const auto &row : r.rows)
                                                             o.finite = o.finite && std::isfinite(row.loadNs)
                                                                 && std::isfinite(row.execNs)
                                                                 && std::isfinite(row.memoryBytes);
                                                     return o;
                                                 },
                                                 &cases);
        QVERIFY(cases >= 5 * kHostileWords.size());
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }

    // nn-Meter's measured end-to-end latencies: ours, and the kernel lab's measurements.csv.
    void nnmeterMeasuredCsv_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("ours") << QStringLiteral(
            "network,measured_ms,device,repetitions,noise_percent,source\n"
            "resnet50.json,42.37,\"This machine: AMD EPYC (oneDNN 2.6.3, fp32, 1 thread)\",15,3.1,kernel lab\n"
            "lenet.json,0.0612,this machine,15,8.4,\n");
        const std::string lab = readSource("examples/nnmeter/onednn_cpu/measurements.csv");
        std::string header = lab.substr(0, lab.find('\n') + 1), rows;
        for (std::size_t at = lab.find("\nnetwork,"), n = 0; at != std::string::npos && n < 3;
             at = lab.find("\nnetwork,", at + 1), ++n)
            rows += lab.substr(at + 1, lab.find('\n', at + 1) - at);
        QTest::newRow("kernel lab") << QString::fromStdString(header + rows);
    }
    void nnmeterMeasuredCsv()
    {
        QFETCH(QString, text);
        std::size_t cases = 0;
        const QStringList failures = everyNumber(text.toStdString(), ",", "catalogue.csv",
                                                 [](const std::string &t, const std::string &label) {
                                                     Outcome o;
                                                     auto r = nnmeter::parseMeasuredLatencies(t, label);
                                                     o.diagnostics = r.diagnostics;
                                                     if ((o.loaded = r.rows.has_value()))
                                                         for (const auto &row : *r.rows) // predicted / measured stays finite
                                                             o.finite = o.finite && std::isfinite(row.measuredMs)
                                                                 && row.measuredMs >= Range::kSmallestMagnitude
                                                                 && std::isfinite(1.0 / row.measuredMs)
                                                                 && std::isfinite(row.noisePercent);
                                                     return o;
                                                 },
                                                 &cases);
        qInfo("nn-Meter measured CSV: %zu cases", cases);
        QVERIFY(cases >= 5 * kHostileWords.size());
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }

    void caffePrototxt_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("AgeNet (old syntax)") << QStringLiteral("examples/brouwer/networks/AgeNet.prototxt");
        QTest::newRow("SoS (new syntax)") << QStringLiteral("examples/brouwer/networks/SoS.prototxt");
    }
    void caffePrototxt()
    {
        QFETCH(QString, file);
        const std::string text = readSource(file.toStdString());
        QVERIFY(!text.empty());
        std::size_t cases = 0;
        const QStringList failures = everyNumber(
            text, " \t:", "catalogue.prototxt",
            [](const std::string &t, const std::string &label) { return evaluateNetwork(network::importCaffe(t, label)); },
            &cases, 60);
        qInfo("%s: %zu cases", qPrintable(file), cases);
        QVERIFY(cases > 10 * kHostileWords.size());
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }

    void onnx()
    {
        const std::string bytes = readSource("tests/data/onnx/alexnet.onnx");
        onnx::ModelProto model;
        QVERIFY(model.ParseFromString(bytes));
        const std::string label = "catalogue.onnx";
        const Outcome good = evaluateNetwork(network::importOnnx(bytes, label));
        QVERIFY2(good.loaded && good.finite, good.diagnostics.toString().c_str());
        const std::vector<OnnxField> fields = onnxFields(model);
        QVERIFY(fields.size() > 20);
        const std::vector<std::int64_t> ints = {0, -1, 3, std::int64_t(1) << 40, std::numeric_limits<std::int64_t>::max(),
                                                std::numeric_limits<std::int64_t>::min()};
        const std::vector<float> floats = {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                                           std::numeric_limits<float>::infinity(), 1e-45f, 3e38f};
        QStringList failures;
        std::size_t cases = 0;
        for (const OnnxField &field : fields) {
            const auto check = [&](const onnx::ModelProto &changed, const QString &what) {
                std::string mutated;
                changed.SerializeToString(&mutated);
                const Outcome o = evaluateNetwork(network::importOnnx(mutated, label));
                ++cases;
                const QString problem = checkOutcome(o, label, what);
                if (!problem.isEmpty())
                    failures << problem;
            };
            if (field.setInt)
                for (std::int64_t v : ints) {
                    onnx::ModelProto changed = model;
                    field.setInt(changed, v);
                    check(changed, QStringLiteral("%1 = %2").arg(QString::fromStdString(field.name)).arg(v));
                }
            if (field.setFloat)
                for (float v : floats) {
                    onnx::ModelProto changed = model;
                    field.setFloat(changed, v);
                    check(changed, QStringLiteral("%1 = %2").arg(QString::fromStdString(field.name)).arg(double(v)));
                }
        }
        qInfo("ONNX: %zu fields, %zu cases", fields.size(), cases);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 20).join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestCatalogueFormats)
#include "tst_catalogue_formats.moc"
