// Streamed exports: the Chrome Trace written piece by piece has exactly the
// content of chromeTrace(); names are escaped into valid JSON; the writer
// hands the sink bounded chunks whatever the trace's length; files are
// written atomically, and .gz files decompress to the plain export.
#include "builders.h"
#include "testutils.h"
#include "verrocchio/io.h"
#include "verrocchio/synthetic.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace roofline;
using namespace roofline::verrocchio;
using nlohmann::json;

namespace {

struct StringSink : ByteSink
{
    std::string text;
    std::size_t largestWrite = 0;
    std::size_t writes = 0;
    bool write(const char *data, std::size_t size) override
    {
        text.append(data, size);
        largestWrite = std::max(largestWrite, size);
        ++writes;
        return true;
    }
};

struct FailingSink : ByteSink
{
    int calls = 0;
    bool write(const char *, std::size_t) override
    {
        ++calls;
        return false;
    }
};

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string gunzip(const std::string &path)
{
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        return {};
    std::string out;
    char buffer[1 << 16];
    for (int n; (n = gzread(f, buffer, sizeof buffer)) > 0;)
        out.append(buffer, std::size_t(n));
    gzclose(f);
    return out;
}

Trace loadExample(const char *name)
{
    return *loadTraceFile(std::string(ROOFLINE_EXAMPLES_DIR "/verrocchio/") + name).trace;
}

} // namespace

class TestVerrocchioExport : public QObject
{
    Q_OBJECT
private slots:
    void chromeTraceStreamedEqualsDocument_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *f : {"vector-add-1core.json", "vector-add-2cores.json", "contention-during.json",
                              "matmul-fp16-tiled.json"})
            QTest::newRow(f) << QString::fromLatin1(f);
        QTest::newRow("synthetic, 3 cores") << QString();
    }
    void chromeTraceStreamedEqualsDocument()
    {
        QFETCH(QString, name);
        const Trace trace = name.isEmpty() ? syntheticVectorAdd(3000, 3) : loadExample(qPrintable(name));
        Machine m = ascend310();
        m.coreCount = 4;
        m.busGBps = 12; // contention everywhere
        const Result r = simulate(trace, m);
        QVERIFY(r.ok());
        StringSink sink;
        QVERIFY(writeChromeTrace(trace, m, r, sink));
        const json streamed = json::parse(sink.text);
        const json document = chromeTrace(trace, m, r);
        QVERIFY(!document.at("traceEvents").empty());
        QCOMPARE(streamed.at("traceEvents").size(), document.at("traceEvents").size());
        // Event by event first, so a difference names the event.
        for (std::size_t i = 0; i < document.at("traceEvents").size(); ++i) {
            QVERIFY2(streamed["traceEvents"][i] == document["traceEvents"][i],
                     (streamed["traceEvents"][i].dump() + "\n" + document["traceEvents"][i].dump()).c_str());
        }
        QVERIFY(streamed == document);
    }

    void eventsCsvIsTheStreamedForm()
    {
        const Trace trace = loadExample("contention-during.json");
        const Machine m = ascend310();
        const Result r = simulate(trace, m);
        StringSink sink;
        QVERIFY(writeEventsCsv(trace, m, r, sink));
        QCOMPARE(sink.text, eventsToCsv(trace, m, r));
        // One line per instruction and the header; numbers read back exactly.
        QCOMPARE(std::size_t(std::count(sink.text.begin(), sink.text.end(), '\n')), trace.instructionCount() + 1);
        const std::string firstRow = sink.text.substr(sink.text.find('\n') + 1);
        std::vector<std::string> fields;
        std::stringstream row(firstRow.substr(0, firstRow.find('\n')));
        for (std::string f; std::getline(row, f, ',');)
            fields.push_back(f);
        QCOMPARE(std::stod(fields[9]), r.cores[0].instructions[0].end);
    }

    // The streamed events JSON has exactly eventsToJson()'s content (the
    // form `roofline-cli simulate --events json` prints and writes).
    void eventsJsonStreamedEqualsDocument_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *f : {"vector-add-2cores.json", "contention-during.json", "matmul-fp16-tiled.json"})
            QTest::newRow(f) << QString::fromLatin1(f);
        QTest::newRow("synthetic, 3 cores") << QString();
    }
    void eventsJsonStreamedEqualsDocument()
    {
        QFETCH(QString, name);
        const Trace trace = name.isEmpty() ? syntheticVectorAdd(3000, 3) : loadExample(qPrintable(name));
        Machine m = ascend310();
        m.coreCount = 4;
        m.busGBps = 12;
        const Result r = simulate(trace, m);
        StringSink sink;
        QVERIFY(writeEventsJson(trace, m, r, sink));
        const json streamed = json::parse(sink.text);
        const json document = eventsToJson(trace, m, r);
        QVERIFY(!document.at("events").empty());
        for (const char *key : {"events", "stalls", "contention"}) {
            QCOMPARE(streamed.at(key).size(), document.at(key).size());
            for (std::size_t i = 0; i < document.at(key).size(); ++i)
                QVERIFY2(streamed[key][i] == document[key][i],
                         (streamed[key][i].dump() + "\n" + document[key][i].dump()).c_str());
        }
        QVERIFY(streamed == document);
        // One event a line: the file can be read with line tools.
        QVERIFY(std::size_t(std::count(sink.text.begin(), sink.text.end(), '\n')) >= trace.instructionCount());
        // A failing sink stops it at its first write.
        FailingSink failing;
        QVERIFY(!writeEventsJson(syntheticVectorAdd(100000, 2), m, simulate(syntheticVectorAdd(100000, 2), m), failing));
        QCOMPARE(failing.calls, 1);
    }

    void namesEscaped()
    {
        Trace trace;
        trace.name = "quote \" backslash \\ tab \t é";
        testbuild::ProgramBuilder(trace, 0).work(Pipe::V, 8, "vadd \"fast\"\n").work(Pipe::V, 8, std::string("bad \xff byte"));
        trace.cores[0].name = "core \x01";
        const Machine m = testbuild::unitMachine();
        const Result r = simulate(trace, m);
        StringSink sink;
        QVERIFY(writeChromeTrace(trace, m, r, sink));
        const json doc = json::parse(sink.text); // throws on invalid JSON or UTF-8
        QCOMPARE(doc.at("otherData").at("trace").get<std::string>(), trace.name);
        std::vector<std::string> names;
        for (const json &e : doc.at("traceEvents"))
            names.push_back(e.at("ph") == "M" ? e.at("args").at("name").get<std::string>() : e.at("name").get<std::string>());
        QVERIFY(std::find(names.begin(), names.end(), "core \x01") != names.end());
        QVERIFY(std::find(names.begin(), names.end(), "vadd \"fast\"\n") != names.end());
        QVERIFY(std::find(names.begin(), names.end(), "bad \xef\xbf\xbd byte") != names.end()); // U+FFFD

        StringSink csv;
        QVERIFY(writeEventsCsv(trace, m, r, csv));
        QVERIFY(csv.text.find(",\"vadd \"\"fast\"\"\n\",") != std::string::npos);
    }

    // 10⁵ instructions: about 16 MB of trace JSON reach the sink in chunks of
    // about 1 MB, so the writer's memory does not grow with the trace.
    void boundedChunks()
    {
        const Trace trace = syntheticVectorAdd(100000, 2);
        const Machine m = ascend310();
        const Result r = simulate(trace, m);
        StringSink sink;
        QVERIFY(writeChromeTrace(trace, m, r, sink));
        QVERIFY2(sink.text.size() > 10'000'000, std::to_string(sink.text.size()).c_str());
        QVERIFY2(sink.largestWrite < 1'100'000, std::to_string(sink.largestWrite).c_str());
        QVERIFY(sink.writes > 8);
        // A failing sink stops the writer at its first write.
        FailingSink failing;
        QVERIFY(!writeChromeTrace(trace, m, r, failing));
        QCOMPARE(failing.calls, 1);
    }

    void filesAtomicAndGzip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string base = dir.path().toStdString();
        const Trace trace = syntheticVectorAdd(5000, 2);
        const Machine m = ascend310();
        const Result r = simulate(trace, m);
        StringSink plain, csv;
        QVERIFY(writeChromeTrace(trace, m, r, plain));
        QVERIFY(writeEventsCsv(trace, m, r, csv));

        QCOMPARE(exportToFile(base + "/t.json", ExportKind::ChromeTrace, trace, m, r), std::string());
        QCOMPARE(readFile(base + "/t.json"), plain.text);
        QCOMPARE(exportToFile(base + "/t.json.gz", ExportKind::ChromeTrace, trace, m, r), std::string());
        const std::string gz = readFile(base + "/t.json.gz");
        QVERIFY(gz.size() > 2 && static_cast<unsigned char>(gz[0]) == 0x1f && static_cast<unsigned char>(gz[1]) == 0x8b);
        QVERIFY(gz.size() * 4 < plain.text.size()); // compresses
        QCOMPARE(gunzip(base + "/t.json.gz"), plain.text);
        QCOMPARE(exportToFile(base + "/e.csv.gz", ExportKind::EventsCsv, trace, m, r), std::string());
        QCOMPARE(gunzip(base + "/e.csv.gz"), csv.text);
        StringSink eventsJson;
        QVERIFY(writeEventsJson(trace, m, r, eventsJson));
        QCOMPARE(exportToFile(base + "/e.json", ExportKind::EventsJson, trace, m, r), std::string());
        QCOMPARE(readFile(base + "/e.json"), eventsJson.text);

        // Over an existing file: replaced whole; no temporary files are left.
        { std::ofstream(base + "/e.csv") << "old"; }
        QCOMPARE(exportToFile(base + "/e.csv", ExportKind::EventsCsv, trace, m, r), std::string());
        QCOMPARE(readFile(base + "/e.csv"), csv.text);
        std::size_t files = 0;
        for (const auto &f : std::filesystem::directory_iterator(base)) {
            QVERIFY2(f.path().string().find(".tmp-") == std::string::npos, f.path().c_str());
            ++files;
        }
        QCOMPARE(files, std::size_t(5));

        // A directory that does not exist: the error names the file and the reason.
        const std::string error = exportToFile(base + "/missing/t.json", ExportKind::ChromeTrace, trace, m, r);
        QVERIFY2(error.find(base + "/missing/t.json: cannot write the file: No such file or directory") == 0,
                 error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestVerrocchioExport)
#include "tst_verrocchio_export.moc"
