// Issue 14: each input that crashed, hung or overflowed becomes a named row here.
// Every case must end in an error naming where and why, quickly, with no
// exception escaping and nothing for the sanitizers to report.
#include "common/jsondocument.h"
#include "common/session.h"
#include "common/jsonreader.h"
#include "gables/io.h"
#include "network/io.h"
#include "verrocchio/io.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <iterator>

using namespace roofline;
using namespace roofline::verrocchio;

namespace {

std::string repeat(const std::string &s, std::size_t n)
{
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

bool hasError(const Diagnostics &d, const std::string &pointer, const std::string &message)
{
    for (const Diagnostic &e : d.errors()) {
        if ((pointer.empty() || e.pointer == pointer) && e.message.find(message) != std::string::npos)
            return true;
    }
    return false;
}

std::string textTrace(const std::string &eventExpression)
{
    return "core c\nloop i 2\nset_flag V MTE2 " + eventExpression + "\nwait_flag V MTE2 " + eventExpression + "\nend\n";
}

} // namespace

class TestHostileInput : public QObject
{
    Q_OBJECT

private slots:
    // "core " + 0xFF: the studio aborted (invalid UTF-8 written into JSON), the CLI said "internal error".
    void textTraceWithByteFF()
    {
        const TraceLoadResult r = parseTraceText(std::string("core \xFF", 6), "t.txt");
        QVERIFY(!r.trace);
        QVERIFY2(hasError(r.diagnostics, "line 1, column 6", "byte 0xFF is not UTF-8"), r.diagnostics.toString().c_str());
    }

    // 30,000 parentheses (60 KB) or 100,000 unary minus signs overflowed the stack.
    void expressionNestedTooDeep_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::newRow("30000 parentheses") << QString::fromStdString(repeat("(", 30000) + "1" + repeat(")", 30000));
        QTest::newRow("100000 minus signs") << QString::fromStdString(repeat("-", 100000) + "1");
        // A 70-deep 1+(1+(...)) was reported as "divides by zero".
        QTest::newRow("70 deep sums") << QString::fromStdString(repeat("1+(", 70) + "1" + repeat(")", 70));
    }
    void expressionNestedTooDeep()
    {
        QFETCH(QString, expression);
        const TraceLoadResult r = parseTraceText(textTrace(expression.toStdString()), "t.txt");
        QVERIFY(!r.trace);
        QVERIFY2(hasError(r.diagnostics, "", "nested more than"), r.diagnostics.toString().c_str());
        QVERIFY(!hasError(r.diagnostics, "", "divides by zero"));
    }

    // Found by fuzz_evaluate: a carriage return after "set_flag" made the event
    // empty, and std::stoi("") threw out of the loader.
    void carriageReturnInFlagLine()
    {
        const TraceLoadResult r = parseTraceText(std::string("core c\nset_flag\r\0 V MTE2\n", 25), "t.txt");
        QVERIFY(!r.trace);
        QVERIFY(r.diagnostics.hasErrors());
    }

    // 1000000000*1000000000*1000000000 printed as a negative number (signed overflow).
    void expressionOverflow()
    {
        const TraceLoadResult r = parseTraceText(textTrace("1000000000*1000000000*1000000000"), "t.txt");
        QVERIFY(!r.trace);
        QVERIFY2(hasError(r.diagnostics, "", "overflows 64-bit integers"), r.diagnostics.toString().c_str());
    }

    // Text-form loops 10,000 deep: 12 s and 2 GB, then a stack overflow.
    void textLoopsNestedTooDeep()
    {
        QElapsedTimer timer;
        timer.start();
        const std::string text = "core c\n" + repeat("loop i 1\n", 10000) + "vadd 1\n" + repeat("end\n", 10000);
        const TraceLoadResult r = parseTraceText(text, "t.txt");
        QVERIFY(!r.trace);
        QVERIFY2(hasError(r.diagnostics, "line 34", "loops nested more than 32 deep"), r.diagnostics.toString().c_str());
        QVERIFY2(timer.elapsed() < 2000, "a deep text trace must be refused at once");
    }

    // The 20,000,000-instruction limit named no line.
    void instructionLimitNamesTheCore()
    {
        const TraceLoadResult r = parseTraceText("core a\nvadd 1\ncore b\nloop i 100000\nloop j 1000\nvadd 1\nend\nend\n", "t.txt");
        QVERIFY(!r.trace);
        QVERIFY2(hasError(r.diagnostics, "line 3", "at most 20000000 are supported"), r.diagnostics.toString().c_str());
    }

    // JSON trace loops 10,000 deep overflowed the stack (2,000 under ASan).
    void jsonLoopsNestedTooDeep()
    {
        const std::string open = R"({"op":"loop","var":"i","count":1,"body":[)";
        const std::string text = R"({"format":"roofline-studio/verrocchio-trace","version":1,"cores":[{"name":"c","program":[)"
            + repeat(open, 10000) + R"({"op":"vadd","elements":1})" + repeat("]}", 10000) + "]}]}";
        const TraceLoadResult r = parseTrace(text, "t.json");
        QVERIFY(!r.trace);
        QVERIFY2(hasError(r.diagnostics, "", "nested more than 256 levels deep"), r.diagnostics.toString().c_str());
        // Within the JSON depth, the loop depth cap names the loop.
        const std::string shallow = R"({"format":"roofline-studio/verrocchio-trace","version":1,"cores":[{"name":"c","program":[)"
            + repeat(open, 40) + R"({"op":"vadd","elements":1})" + repeat("]}", 40) + "]}]}";
        const TraceLoadResult s = parseTrace(shallow, "t.json");
        QVERIFY(!s.trace);
        QVERIFY2(hasError(s.diagnostics, "", "loops nested more than 32 deep"), s.diagnostics.toString().c_str());
    }

    // A document 100,000 arrays deep (a session file did this under any key).
    void deepJsonArray()
    {
        nlohmann::json doc;
        Diagnostics d;
        QVERIFY(!parseJsonText(repeat("[", 100000) + repeat("]", 100000), doc, d));
        QVERIFY2(hasError(d, "", "nested more than 256 levels deep"), d.toString().c_str());
        QCOMPARE(d.errors().at(0).pointer.size(), std::size_t(2 * 256)); // "/0" for each level open
    }

    // Duplicate keys and numbers that overflow are named by JSON pointer.
    void pointersOfErrorsTheParserCannotPlace()
    {
        nlohmann::json doc;
        Diagnostics d;
        QVERIFY(!parseJsonText(R"({"a":{"x":1,"b":[1,2],"b":3}})", doc, d));
        QVERIFY2(hasError(d, "/a/b", "key appears twice"), d.toString().c_str());
        Diagnostics o;
        QVERIFY(!parseJsonText(R"({"a":[0,{"q":1e999}]})", doc, o));
        QVERIFY2(hasError(o, "/a/1/q", "number overflow"), o.toString().c_str());
        Diagnostics s;
        QVERIFY(!parseJsonText("{\n  \"a\": [1,\n  2 x", doc, s));
        QVERIFY2(hasError(s, "line 3, column 5", "invalid JSON"), s.toString().c_str());
    }

    // A network input [1e7, 1e7, 1e7] then flatten: each dimension is in range,
    // the element count overflowed 64-bit integers.
    void networkShapeOverflow()
    {
        const std::string text = R"({"format":"roofline-studio/amaix-network","version":1,"name":"n","data_type":"fp16",
            "inputs":[{"name":"x","shape":[10000000,10000000,10000000]}],
            "layers":[{"name":"f","type":"flatten"},{"name":"fc","type":"fully_connected","out_channels":10}]})";
        const network::NetworkLoad r = network::parseNetwork(text, "n.json");
        QVERIFY(!r.network);
        QVERIFY2(hasError(r.diagnostics, "/layers/0", "elements"), r.diagnostics.toString().c_str());
        // A fully connected layer whose weight count overflows.
        const std::string wide = R"({"format":"roofline-studio/amaix-network","version":1,"name":"n","data_type":"fp16",
            "inputs":[{"name":"x","shape":[10000000,10000000,1]}],
            "layers":[{"name":"fc","type":"fully_connected","out_channels":10000000}]})";
        const network::NetworkLoad w = network::parseNetwork(wide, "n.json");
        QVERIFY(!w.network);
        QVERIFY2(hasError(w.diagnostics, "/layers/0", "above 1e+15"), w.diagnostics.toString().c_str());
    }

    // An unknown pipe also reported a spurious `unknown key "bytes"`.
    void unknownPipeOneError()
    {
        const std::string text = R"({"format":"roofline-studio/verrocchio-trace","version":1,"cores":[{"name":"c",
            "program":[{"op":"copy","pipe":"MTE9","bytes":64}]}]})";
        const TraceLoadResult r = parseTrace(text, "t.json");
        QVERIFY(!r.trace);
        QCOMPARE(r.diagnostics.errors().size(), std::size_t(1));
        QVERIFY2(hasError(r.diagnostics, "/cores/0/program/0/pipe", "unknown pipe \"MTE9\""), r.diagnostics.toString().c_str());
    }

    // Denormals turned every quotient into inf (exit 0, JSON null); refused with a reason now.
    void denormalRefused()
    {
        QVERIFY(!Range::positive(1e9).contains(1e-320));
        QVERIFY(Range::positive(1e9).check(1e-320).find("too small to compute with") != std::string::npos);
        QVERIFY(Range::nonNegative(1).check(0).empty());
        // One number parser: the text formats read 1e-320 as a number (the range refuses it).
        QVERIFY(parseFiniteNumber("1e-320").has_value());
        QVERIFY(!parseFiniteNumber("1e999").has_value());
        QVERIFY(!parseFiniteNumber("nan").has_value());
    }

    // 9.99989e-321 GB/s was accepted: the result was inf, printed as null with exit 0.
    void gablesDenormalBandwidth()
    {
        std::ifstream in(std::string(ROOFLINE_EXAMPLES_DIR) + "/gables/gables-fig6a.json", std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), {});
        nlohmann::json doc = nlohmann::json::parse(text);
        doc["soc"]["bpeak_gbps"]["value"] = 9.99989e-321;
        const gables::LoadResult r = gables::parseSoc(doc.dump(), "soc.json");
        QVERIFY(!r.soc);
        QVERIFY2(hasError(r.diagnostics, "", "too small to compute with"), r.diagnostics.toString().c_str());
        // And a non-finite number anywhere in a result is found by pointer.
        QCOMPARE(*nonFinitePointer(nlohmann::json{{"a", {1.0, std::nan("")}}}), std::string("/a/1"));
        QVERIFY(!nonFinitePointer(nlohmann::json{{"a", {1.0, nullptr}}}));
    }

    // 257 IPs gave one right error and 257 false "no IP named" lines.
    void gablesTooManyIpsOneError()
    {
        nlohmann::json ips = nlohmann::json::array(), work = nlohmann::json::object();
        for (int i = 0; i < 257; ++i) {
            ips.push_back({{"name", "ip" + std::to_string(i)}, {"acceleration", 1}, {"bandwidth_gbps", 1}});
            work["ip" + std::to_string(i)] = {{"fraction", 1.0 / 257}, {"intensity_ops_per_byte", 1}};
        }
        const nlohmann::json doc = {{"format", "roofline-studio/gables"}, {"version", 1},
                                    {"soc", {{"ppeak_gops", 1}, {"bpeak_gbps", 1}, {"ips", ips}}},
                                    {"use_case", {{"work", work}}}};
        const gables::LoadResult r = gables::parseSoc(doc.dump(), "soc.json");
        QVERIFY(!r.soc);
        QCOMPARE(r.diagnostics.errors().size(), std::size_t(1));
        QVERIFY2(hasError(r.diagnostics, "/soc/ips", "at most 256 IPs are supported, got 257"), r.diagnostics.toString().c_str());
    }

    // Sessions: version 1.5 and a 2,000-deep unknown key were told "/format:
    // expected ..."; unknown keys were accepted silently; 100,000 nested arrays
    // overflowed the stack.
    void sessions()
    {
        const std::vector<std::string> views{"gables", "amaix", "timeline"};
        auto load = [&](const std::string &text) { return parseSession(text, "s.json", views); };
        const std::string head = R"({"format":"roofline-studio/session","version":)";
        const SessionLoad ok = load(head + R"(1,"current":"amaix","views":{"amaix":{"x":1}}})");
        QVERIFY2(ok.session.has_value(), ok.diagnostics.toString().c_str());
        QCOMPARE(ok.session->views.size(), std::size_t(1));
        const SessionLoad v15 = load(head + R"(1.5,"views":{}})");
        QVERIFY2(hasError(v15.diagnostics, "/version", "this build reads version 1, got 1.5"), v15.diagnostics.toString().c_str());
        const SessionLoad unknown = load(head + R"(1,"views":{},"colour":"red"})");
        QVERIFY2(hasError(unknown.diagnostics, "/colour", "unknown key"), unknown.diagnostics.toString().c_str());
        const SessionLoad view = load(head + R"(1,"views":{"brouwer2":{}}})");
        QVERIFY2(hasError(view.diagnostics, "/views/brouwer2", "unknown view"), view.diagnostics.toString().c_str());
        const SessionLoad deepKey = load(head + R"(1,"views":{},"deep":)" + repeat("[", 2000) + repeat("]", 2000) + "}");
        QVERIFY2(hasError(deepKey.diagnostics, "", "nested more than 256 levels deep"), deepKey.diagnostics.toString().c_str());
        QVERIFY(!hasError(deepKey.diagnostics, "/format", ""));
        const SessionLoad deep = load(repeat("[", 100000));
        QVERIFY(!deep.session && deep.diagnostics.hasErrors());
    }

    // A folder given as the file was "unexpected end of input"; a JSON trace with
    // a byte-order mark was read as the text form.
    void filesystemCases()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const TraceLoadResult folder = loadTraceFile(dir.path().toStdString());
        QVERIFY(!folder.trace);
        QVERIFY2(hasError(folder.diagnostics, "", "is a folder, not a file"), folder.diagnostics.toString().c_str());

        std::string json;
        {
            std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/examples/verrocchio/vector-add-1core.json", std::ios::binary);
            json.assign(std::istreambuf_iterator<char>(in), {});
        }
        QVERIFY(!json.empty());
        const std::string path = dir.filePath("bom.json").toStdString();
        std::ofstream(path, std::ios::binary) << "\xEF\xBB\xBF" << json;
        const TraceLoadResult bom = loadTraceFile(path);
        QVERIFY2(bom.trace.has_value(), bom.diagnostics.toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostile_input.moc"
