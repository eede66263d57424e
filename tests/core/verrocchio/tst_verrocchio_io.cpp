// Loading Verrocchio traces and machines strictly; overrides; result exports.
#include "builders.h"
#include "testutils.h"
#include "verrocchio/io.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace roofline;
using namespace roofline::verrocchio;
using nlohmann::json;

namespace {

json validTrace()
{
    return json::parse(R"({
      "format": "roofline-studio/verrocchio-trace", "version": 1, "name": "t",
      "cores": [{"name": "c", "program": [
        {"op": "set_flag", "src": "V", "dst": "MTE2", "event": 0},
        {"op": "set_flag", "src": "PIPE_V", "dst": "PIPE_MTE2", "event": "EVENT_ID1"},
        {"op": "loop", "var": "i", "count": 3, "comment": "ping-pong", "body": [
          {"op": "wait_flag", "src": "V", "dst": "MTE2", "event": "i % 2"},
          {"op": "copy_gm_to_ubuf", "bytes": 64},
          {"op": "set_flag", "src": "MTE2", "dst": "V", "event": "i % 2"},
          {"op": "wait_flag", "src": "MTE2", "dst": "V", "event": "(i + 2) % 2"},
          {"op": "my_vector_op", "pipe": "V", "ops": 32},
          {"op": "set_flag", "src": "V", "dst": "MTE2", "event": "i % 2"}
        ]},
        {"op": "wait_flag", "src": "V", "dst": "MTE2", "event": 1},
        {"op": "wait_flag", "src": "V", "dst": "MTE2", "event": 0},
        {"op": "pipe_barrier", "pipe": "PIPE_ALL"}
      ]}]})");
}

json validMachine()
{
    return json::parse(R"({
      "format": "roofline-studio/verrocchio-machine", "version": 1, "name": "m",
      "pipes": {"S": {"throughput_gops": 1, "init_ns": 0}, "MTE1": {"bandwidth_gbps": 2, "init_ns": 0},
                "MTE2": {"bandwidth_gbps": {"value": 4, "source": "a datasheet"}, "init_ns": 1},
                "MTE3": {"bandwidth_gbps": 4, "init_ns": 1}, "M": {"throughput_gops": 8, "init_ns": 0},
                "V": {"throughput_gops": 2, "init_ns": 0}},
      "bus": {"bandwidth_gbps": 4},
      "cores": {"count": 2, "skew_ns": 10}})");
}

// Applies a JSON Patch, or returns raw text for rows starting with RAW:.
std::string patched(const json &document, const QString &patch)
{
    if (patch.startsWith(QLatin1String("RAW:")))
        return patch.mid(4).toStdString();
    return document.patch(json::parse(patch.toStdString())).dump();
}

void expectError(const Diagnostics &diagnostics, const QString &pointer, const QString &message)
{
    bool found = false;
    QString all;
    for (const Diagnostic &d : diagnostics.errors()) {
        all += QString::fromStdString(d.toString()) + QLatin1Char('\n');
        if (QString::fromStdString(d.pointer) == pointer && QString::fromStdString(d.message).contains(message))
            found = true;
    }
    QVERIFY2(found, qPrintable(QStringLiteral("expected %1: ...%2..., got:\n%3").arg(pointer, message, all)));
}

} // namespace

class TestVerrocchioIo : public QObject
{
    Q_OBJECT
private slots:
    void loadsTraceAndExpandsLoops()
    {
        const TraceLoadResult r = parseTrace(validTrace().dump(), "t.json");
        QVERIFY2(r.trace, r.diagnostics.toString().c_str());
        const auto &program = r.trace->cores.at(0).instructions;
        QCOMPARE(program.size(), std::size_t(2 + 3 * 6 + 3));
        // Event ids follow i % 2 in every iteration.
        for (int i = 0; i < 3; ++i) {
            const Instruction &wait = program[2 + 6 * i];
            QCOMPARE(wait.kind, Instruction::Kind::WaitFlag);
            QCOMPARE(int(wait.eventId), i % 2);
            QCOMPARE(program[2 + 6 * i + 3].eventId, wait.eventId);
        }
        QCOMPARE(program[1].eventId, std::uint8_t(1));
        QCOMPARE(program[3].pipe, Pipe::MTE2); // copy_gm_to_ubuf: pipe from the intrinsic
        QCOMPARE(program[3].size, 64.0);
        QCOMPARE(program[6].pipe, Pipe::V);
        QCOMPARE(r.trace->names[program[6].name], std::string("my_vector_op"));
        QCOMPARE(r.trace->origins[program[6].origin], std::string("/cores/0/program/2/body/4"));
        QCOMPARE(program.back().kind, Instruction::Kind::Barrier);
        QVERIFY(simulate(*r.trace, testbuild::unitMachine()).ok());
        QCOMPARE(describeAt(*r.trace, 0, 8),
                 std::string("core 0, pipe MTE2, instruction 8: wait_flag(V, MTE2, 1) (/cores/0/program/2/body/0)"));
    }

    void copiesMakeIdenticalCores()
    {
        json doc = validTrace();
        doc["cores"][0]["copies"] = 3;
        const TraceLoadResult r = parseTrace(doc.dump(), "t.json");
        QVERIFY2(r.trace, r.diagnostics.toString().c_str());
        QCOMPARE(r.trace->cores.size(), std::size_t(3));
        QCOMPARE(r.trace->cores[2].name, std::string("c #2"));
        QCOMPARE(r.trace->cores[2].instructions, r.trace->cores[0].instructions);
    }

    void traceErrors_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        auto row = [](const char *name, const char *patch, const char *pointer, const char *message) {
            QTest::newRow(name) << QString::fromUtf8(patch) << QString::fromUtf8(pointer) << QString::fromUtf8(message);
        };
        row("malformed JSON", "RAW:{\"cores\": [\n  ,]}", "line 2, column 3", "invalid JSON");
        row("wrong format", R"([{"op":"replace","path":"/format","value":"roofline-studio/gables"}])", "/format", "expected \"roofline-studio/verrocchio-trace\"");
        row("unknown top-level key", R"([{"op":"add","path":"/core","value":[]}])", "/core", "unknown key");
        row("no cores", R"([{"op":"replace","path":"/cores","value":[]}])", "/cores", "non-empty array");
        row("unknown key in an instruction", R"([{"op":"add","path":"/cores/0/program/0/evnt","value":1}])", "/cores/0/program/0/evnt", "unknown key \"evnt\"");
        row("unknown pipe", R"([{"op":"replace","path":"/cores/0/program/0/src","value":"CUBE"}])", "/cores/0/program/0/src", "unknown pipe \"CUBE\"");
        row("same src and dst", R"([{"op":"replace","path":"/cores/0/program/0/dst","value":"V"}])", "/cores/0/program/0/dst", "must differ from src");
        row("unknown instruction without pipe", R"([{"op":"remove","path":"/cores/0/program/2/body/4/pipe"}])", "/cores/0/program/2/body/4/op", "unknown instruction \"my_vector_op\"");
        row("ops on an MTE pipe", R"([{"op":"add","path":"/cores/0/program/2/body/1/ops","value":3},{"op":"remove","path":"/cores/0/program/2/body/1/bytes"}])", "/cores/0/program/2/body/1/ops", "MTE2 moves bytes: give its size as \"bytes\"");
        row("missing size", R"([{"op":"remove","path":"/cores/0/program/2/body/4/ops"}])", "/cores/0/program/2/body/4/ops", "required field is missing");
        row("negative size", R"([{"op":"replace","path":"/cores/0/program/2/body/1/bytes","value":-1}])", "/cores/0/program/2/body/1/bytes", "must be >= 0");
        row("event id out of range", R"([{"op":"replace","path":"/cores/0/program/0/event","value":8}])", "/cores/0/program/0/event", "evaluates to 8; event ids are 0..7");
        row("event id out of range in a loop", R"([{"op":"replace","path":"/cores/0/program/2/body/0/event","value":"i + 6"}])", "/cores/0/program/2/body/0/event", "evaluates to 8 for i = 2");
        row("unknown variable", R"([{"op":"replace","path":"/cores/0/program/2/body/0/event","value":"j % 2"}])", "/cores/0/program/2/body/0/event", "unknown variable \"j\"");
        row("variable outside a loop", R"([{"op":"replace","path":"/cores/0/program/0/event","value":"i"}])", "/cores/0/program/0/event", "(not inside a loop)");
        row("bad expression", R"([{"op":"replace","path":"/cores/0/program/2/body/0/event","value":"i %"}])", "/cores/0/program/2/body/0/event", "expression ends too early");
        row("division by zero", R"([{"op":"replace","path":"/cores/0/program/2/body/0/event","value":"i % 0"}])", "/cores/0/program/2/body/0/event", "divides by zero");
        row("event of the wrong type", R"([{"op":"replace","path":"/cores/0/program/0/event","value":1.5}])", "/cores/0/program/0/event", "expected an event id");
        row("fractional loop count", R"([{"op":"replace","path":"/cores/0/program/2/count","value":2.5}])", "/cores/0/program/2/count", "must be a whole number");
        row("loop variable reused", R"([{"op":"replace","path":"/cores/0/program/2/body/4","value":{"op":"loop","var":"i","count":1,"body":[]}}])", "/cores/0/program/2/body/4/var", "already the variable of an outer loop");
        row("loop without body", R"([{"op":"remove","path":"/cores/0/program/2/body"}])", "/cores/0/program/2/body", "required field is missing");
        row("barrier on one pipe", R"([{"op":"replace","path":"/cores/0/program/5/pipe","value":"PIPE_V"}])", "/cores/0/program/5/pipe", "only pipe_barrier(PIPE_ALL)");
        row("too many instructions", R"([{"op":"replace","path":"/cores/0/program/2/count","value":1e8}])", "/cores/0", "at most 20000000 are supported");
        row("instruction not an object", R"([{"op":"replace","path":"/cores/0/program/1","value":3}])", "/cores/0/program/1", "expected an object");
    }
    void traceErrors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        const TraceLoadResult r = parseTrace(patched(validTrace(), patch), "bad.json");
        QVERIFY(!r.trace);
        expectError(r.diagnostics, pointer, message);
    }

    void textFormMatchesJson()
    {
        const TraceLoadResult text = loadTraceFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/vector-add-1core.txt");
        const TraceLoadResult json = loadTraceFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/vector-add-1core.json");
        QVERIFY2(text.trace, text.diagnostics.toString().c_str());
        QVERIFY(json.trace);
        QCOMPARE(text.trace->cores.size(), std::size_t(1));
        QVERIFY(text.trace->cores == json.trace->cores);
        QCOMPARE(text.trace->name, std::string("Double-buffered vector add, one core (text form)"));
        // Origins are lines of the text.
        const Instruction &vadd = text.trace->cores[0].instructions[4 + 6];
        QCOMPARE(text.trace->names[vadd.name], std::string("vadd"));
        QCOMPARE(text.trace->origins[vadd.origin], std::string("line 19"));
    }

    void textErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        const char *head = "core c\nset_flag V MTE2 0\n";
        auto row = [&](const char *name, const std::string &text, const char *where, const char *message) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(where) << QString::fromUtf8(message);
        };
        row("instruction before core", "vadd 10\n", "line 1", "\"vadd\" before the first \"core\" line");
        row("size not a number", std::string(head) + "vadd ten\n", "line 3", "size: expected a number, got \"ten\"");
        row("unknown pipe", std::string(head) + "wait_flag V CUBE 0\n", "line 3", "dst: unknown pipe \"CUBE\"");
        row("unknown instruction", std::string(head) + "frobnicate 3\n", "line 3", "op: unknown instruction \"frobnicate\"");
        row("event out of range in a loop", std::string(head) + "loop i 4\n  wait_flag V MTE2 i + 5\nend\n", "line 4",
            "event: evaluates to 8 for i = 3");
        row("loop without end", std::string(head) + "loop i 4\nvadd 1\n", "line 3", "loop without \"end\"");
        row("end without loop", std::string(head) + "end\n", "line 3", "\"end\" without a loop");
        row("wrong operand count", std::string(head) + "set_flag V MTE2\n", "line 3", "expected: set_flag SRC DST EVENT");
        row("negative size", std::string(head) + "mad -4\n", "line 3", "ops: must be >= 0");
        row("empty", "# nothing\n", "line 1", "no \"core\" line");
    }
    void textErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, message);
        const TraceLoadResult r = parseTraceText(text.toStdString(), "t.txt");
        QVERIFY(!r.trace);
        expectError(r.diagnostics, where, message);
    }

    // Issue 14 (memory): programs are read item by item as the JSON parser
    // reaches them, not kept in the document. Their errors are still listed
    // where the document has them (between each core's own fields), with the
    // same pointers, and the origins are the items' pointers in file order.
    void streamedProgramsKeepTheirPlace()
    {
        const std::string text = R"({"format": "roofline-studio/verrocchio-trace", "version": 1,
          "cores": [
            {"name": "a", "copies": 1.5, "program": [{"op": "vadd", "ops": 1}, {"op": "vadd", "ops": -2}], "bogus": 1},
            {"program": [{"op": "mystery"}, 7, {"op": "loop", "var": "i", "count": 2, "body": [{"op": "vadd", "bytes": 3}]}]}
          ]})";
        const TraceLoadResult r = parseTrace(text, "t.json");
        QVERIFY(!r.trace);
        std::vector<std::string> pointers;
        for (const Diagnostic &d : r.diagnostics.errors())
            pointers.push_back(d.pointer);
        const std::vector<std::string> expected{"/cores/0/copies", "/cores/0/program/1/ops", "/cores/0/bogus",
                                                "/cores/1/program/0/op", "/cores/1/program/1",
                                                "/cores/1/program/2/body/0/bytes"};
        QVERIFY2(pointers == expected, r.diagnostics.toString().c_str());

        const TraceLoadResult good = parseTrace(R"({"format": "roofline-studio/verrocchio-trace", "version": 1,
          "cores": [{"program": [{"op": "vadd", "ops": 1}]}, {"program": [{"op": "mad", "ops": 2},
            {"op": "loop", "var": "i", "count": 2, "body": [{"op": "vadd", "ops": 3}]}]}]})",
                                                "t.json");
        QVERIFY2(good.trace, good.diagnostics.toString().c_str());
        QCOMPARE(good.trace->instructionCount(), std::size_t(4));
        const auto &second = good.trace->cores[1].instructions;
        QCOMPARE(good.trace->origins[good.trace->cores[0].instructions[0].origin], std::string("/cores/0/program/0"));
        QCOMPARE(good.trace->origins[second[0].origin], std::string("/cores/1/program/0"));
        QCOMPARE(good.trace->origins[second[2].origin], std::string("/cores/1/program/1/body/0"));
        // The text form reads through the same stream; its origins and errors are lines.
        const TraceLoadResult lines = parseTraceText("core a\nvadd 1\ncore b\nmad 2\nloop i 2\n  vadd 3\nend\n", "t.txt");
        QVERIFY2(lines.trace, lines.diagnostics.toString().c_str());
        QCOMPARE(lines.trace->origins[lines.trace->cores[1].instructions[2].origin], std::string("line 6"));
        const TraceLoadResult bad = parseTraceText("core a\ncopies 0\nvadd 1\nloop i 2\n  vadd V -3\nend\n", "t.txt");
        QVERIFY(!bad.trace);
        QCOMPARE(bad.diagnostics.errors().size(), std::size_t(2));
        QCOMPARE(bad.diagnostics.errors()[0].pointer, std::string("line 1"));
        QVERIFY(bad.diagnostics.errors()[0].message.rfind("copies: ", 0) == 0);
        QCOMPARE(bad.diagnostics.errors()[1].pointer, std::string("line 5"));
        QVERIFY(bad.diagnostics.errors()[1].message.rfind("ops: ", 0) == 0);
    }

    // Issue 15 (memory): the text form's line tree keeps only cores and loops
    // as nodes, other items as a line each. Items after, between and inside
    // nested loops keep their own lines, as origins and in errors.
    void lineTreeNamesNestedItems()
    {
        const std::string program = "core a\n"     // 1
                                    "vadd 1\n"     // 2
                                    "loop i 2\n"   // 3
                                    "  mad 2\n"    // 4
                                    "  loop j 2\n" // 5
                                    "    vadd 3\n" // 6
                                    "  end\n"      // 7
                                    "  vadd 4\n"   // 8
                                    "end\n"        // 9
                                    "loop k 1\n"   // 10
                                    "  mad 5\n"    // 11
                                    "end\n"        // 12
                                    "vadd 6\n"     // 13
                                    "core b\n"     // 14
                                    "loop m 1\n"   // 15
                                    "  vadd 7\n"   // 16
                                    "end\n";
        const TraceLoadResult r = parseTraceText(program, "t.txt");
        QVERIFY2(r.trace, r.diagnostics.toString().c_str());
        std::vector<std::string> origins;
        for (const CoreProgram &core : r.trace->cores)
            for (const Instruction &in : core.instructions)
                origins.push_back(r.trace->origins[in.origin]);
        const std::vector<std::string> expected{"line 2", "line 4", "line 6", "line 6", "line 8", "line 4",
                                                "line 6", "line 6", "line 8", "line 11", "line 13", "line 16"};
        QVERIFY(origins == expected);

        std::string bad = program;
        bad.replace(bad.find("  vadd 4\n"), 9, "  vadd V -4\n");
        bad.replace(bad.find("  mad 5\n"), 8, "  mad M -5\n");
        bad.replace(bad.find("  vadd 7\n"), 9, "  vadd V -7\n");
        const TraceLoadResult wrong = parseTraceText(bad, "t.txt");
        QVERIFY(!wrong.trace);
        std::vector<std::string> where;
        for (const Diagnostic &d : wrong.diagnostics.errors())
            where.push_back(d.pointer);
        QVERIFY2((where == std::vector<std::string>{"line 8", "line 11", "line 16"}), wrong.diagnostics.toString().c_str());
    }

    // Issue 14 (memory): origins are stored as an interned prefix and a
    // trailing number; every text must read back exactly as it went in.
    void originTableRoundTrips()
    {
        const std::vector<std::string> texts{"", "/cores/0/program/12", "/cores/0/program/13", "line 19", "/a/007",
                                             "/x/0", "/b/12345678901", "abc", "/cores/1/program/1/body/0", "9",
                                             "/k/999999999", "/k/1000000000", "0", "/cores/0/program/12"};
        OriginTable table;
        std::vector<std::uint32_t> ids;
        for (const std::string &t : texts)
            ids.push_back(table.add(t));
        QCOMPARE(table.size(), texts.size() + 1); // entry 0 is ""
        QCOMPARE(table[0], std::string());
        QVERIFY(table.empty(0));
        for (std::size_t k = 0; k < texts.size(); ++k) {
            QCOMPARE(table[ids[k]], texts[k]);
            QCOMPARE(table.empty(ids[k]), texts[k].empty());
        }
        // Equal texts compare equal whatever the history of the tables.
        OriginTable other;
        other.add("line 4");
        other.set(1, texts[0]);
        for (std::size_t k = 1; k < texts.size(); ++k)
            other.add(texts[k]);
        QVERIFY(other == table);
        other.set(3, "line 20");
        QCOMPARE(other[3], std::string("line 20"));
        QVERIFY(!(other == table));
    }

    // Items that are ready instructions (no loop, a constant event id) skip
    // the item list; mixed with loops and event expressions they must still
    // come out in program order, exactly as when every item goes through it.
    void readyItemsKeepProgramOrder()
    {
        const json items = json::parse(R"([
          {"op": "set_flag", "src": "V", "dst": "MTE2", "event": 0},
          {"op": "loop", "var": "i", "count": 2, "body": [
            {"op": "wait_flag", "src": "V", "dst": "MTE2", "event": "i"},
            {"op": "copy_gm_to_ubuf", "bytes": 64},
            {"op": "set_flag", "src": "V", "dst": "MTE2", "event": "i + 1"}]},
          {"op": "vadd", "ops": 8},
          {"op": "wait_flag", "src": "V", "dst": "MTE2", "event": "EVENT_ID2"},
          {"op": "set_flag", "src": "MTE2", "dst": "V", "event": "3 - 1"},
          {"op": "pipe_barrier"},
          {"op": "loop", "var": "j", "count": 0, "body": [{"op": "vadd", "ops": 1}]},
          {"op": "wait_flag", "src": "MTE2", "dst": "V", "event": 2},
          {"op": "mad", "ops": 4096}
        ])");
        auto traceOf = [](const json &program) {
            json t = {{"format", "roofline-studio/verrocchio-trace"}, {"version", 1},
                      {"cores", json::array({json{{"program", program}}, json{{"copies", 2}, {"program", program}}})}};
            return parseTrace(t.dump(), "t.json");
        };
        // The reference: each item alone in a one-pass loop, so none is ready as read.
        json wrapped = json::array();
        for (const json &item : items)
            wrapped.push_back({{"op", "loop"}, {"var", "w"}, {"count", 1}, {"body", json::array({item})}});
        const TraceLoadResult direct = traceOf(items);
        const TraceLoadResult reference = traceOf(wrapped);
        QVERIFY2(direct.trace, direct.diagnostics.toString().c_str());
        QVERIFY2(reference.trace, reference.diagnostics.toString().c_str());
        QCOMPARE(direct.trace->cores.size(), std::size_t(3));
        for (std::size_t c = 0; c < 3; ++c) {
            const auto &a = direct.trace->cores[c].instructions;
            const auto &b = reference.trace->cores[c].instructions;
            QCOMPARE(a.size(), std::size_t(13));
            QCOMPARE(a.size(), b.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                Instruction x = a[i], y = b[i];
                // The same pointer, less the wrapping loop's "/body/0".
                std::string wrappedPointer = reference.trace->origins[y.origin];
                wrappedPointer.erase(wrappedPointer.find("/body/0"), 7);
                QCOMPARE(direct.trace->origins[x.origin], wrappedPointer);
                x.origin = y.origin = 0;
                x.name = y.name = 0;
                QVERIFY2(x == y, (std::to_string(c) + ":" + std::to_string(i)).c_str());
                QCOMPARE(direct.trace->names[a[i].name], reference.trace->names[b[i].name]);
            }
        }
        QCOMPARE(direct.trace->cores[0].instructions[8].eventId, std::uint8_t(2));
        QCOMPARE(direct.trace->origins[direct.trace->cores[1].instructions[12].origin], std::string("/cores/1/program/8"));
    }

    void loadsMachine()
    {
        const MachineLoadResult r = parseMachine(validMachine().dump(), "m.json");
        QVERIFY2(r.machine, r.diagnostics.toString().c_str());
        QCOMPARE(r.machine->pipe(Pipe::MTE2).throughput, 4.0);
        QCOMPARE(r.machine->pipe(Pipe::MTE2).initNs, 1.0);
        QCOMPARE(r.machine->sources.at("/pipes/MTE2/bandwidth_gbps"), std::string("a datasheet"));
        QCOMPARE(r.machine->busMode, BusMode::HalfDuplex);
        QCOMPARE(r.machine->readGBps, 4.0); // defaults to the half-duplex bandwidth
        QCOMPARE(r.machine->coreCount, 2);
        QCOMPARE(r.machine->skewNs, 10.0);
        const MachineLoadResult again = parseMachine(serialize(*r.machine), "saved.json");
        QVERIFY2(again.machine, again.diagnostics.toString().c_str());
        QVERIFY(*again.machine == *r.machine);
    }

    void ascend310ExampleIsTheDefault()
    {
        const MachineLoadResult r = loadMachineFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/ascend310.json");
        QVERIFY2(r.machine, r.diagnostics.toString().c_str());
        QVERIFY(r.machine->name == ascend310().name);
        QVERIFY(*r.machine == ascend310());
        // Every number says where it came from.
        QCOMPARE(r.machine->sources.size(), std::size_t(2 * kPipeCount + 3 + 2));
    }

    void machineErrors_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        auto row = [](const char *name, const char *patch, const char *pointer, const char *message) {
            QTest::newRow(name) << QString::fromUtf8(patch) << QString::fromUtf8(pointer) << QString::fromUtf8(message);
        };
        row("missing pipe", R"([{"op":"remove","path":"/pipes/V"}])", "/pipes/V", "required field is missing");
        row("unknown pipe", R"([{"op":"add","path":"/pipes/FIXP","value":{}}])", "/pipes/FIXP", "unknown key");
        row("bandwidth on a compute pipe", R"([{"op":"add","path":"/pipes/M/bandwidth_gbps","value":1}])", "/pipes/M/bandwidth_gbps", "unknown key");
        row("zero throughput", R"([{"op":"replace","path":"/pipes/M/throughput_gops","value":0}])", "/pipes/M/throughput_gops", "must be > 0");
        row("negative Init", R"([{"op":"replace","path":"/pipes/S/init_ns","value":-1}])", "/pipes/S/init_ns", "must be >= 0");
        row("bad bus mode", R"([{"op":"add","path":"/bus/mode","value":"full"}])", "/bus/mode", "expected \"half_duplex\" or \"separate\"");
        row("separate needs read", R"([{"op":"add","path":"/bus/mode","value":"separate"},{"op":"add","path":"/bus/write_gbps","value":1}])", "/bus/read_gbps", "required field is missing");
        row("fractional core count", R"([{"op":"replace","path":"/cores/count","value":1.5}])", "/cores/count", "must be a whole number");
        row("no cores", R"([{"op":"replace","path":"/cores/count","value":0}])", "/cores/count", "must be >= 1");
        row("missing bus", R"([{"op":"remove","path":"/bus"}])", "/bus", "required field is missing");
    }
    void machineErrors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        const MachineLoadResult r = parseMachine(patched(validMachine(), patch), "bad.json");
        QVERIFY(!r.machine);
        expectError(r.diagnostics, pointer, message);
    }

    void missingFiles()
    {
        QCOMPARE(loadTraceFile("/nonexistent/t.json").diagnostics.errors().at(0).toString(),
                 std::string("/nonexistent/t.json: cannot open the file for reading: no such file"));
        QVERIFY(!loadMachineFile("/nonexistent/m.json").machine);
    }

    void overrides_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message");
        QTest::newRow("bus bandwidth") << "/bus/bandwidth_gbps=30" << true << "";
        QTest::newRow("no leading slash") << "cores/skew_ns=0" << true << "";
        QTest::newRow("pipe throughput") << "/pipes/M/throughput_gops=2" << true << "";
        QTest::newRow("pipe Init") << "/pipes/MTE2/init_ns=0" << true << "";
        QTest::newRow("bus mode") << "/bus/mode=separate" << true << "";
        QTest::newRow("core count") << "/cores/count=1" << true << "";
        QTest::newRow("wrong unit for the pipe") << "/pipes/M/bandwidth_gbps=2" << false << "unknown parameter";
        QTest::newRow("unknown pipe") << "/pipes/X/init_ns=2" << false << "unknown parameter";
        QTest::newRow("fractional core count") << "/cores/count=1.5" << false << "whole number";
        QTest::newRow("zero bandwidth") << "/bus/bandwidth_gbps=0" << false << "must be > 0";
        QTest::newRow("not a number") << "/bus/bandwidth_gbps=fast" << false << "expected a finite number";
        QTest::newRow("bad mode") << "/bus/mode=full" << false << "expected half_duplex or separate";
        QTest::newRow("no equals sign") << "/bus/bandwidth_gbps" << false << "expected POINTER=VALUE";
    }
    void overrides()
    {
        QFETCH(QString, assignment);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        Machine m = ascend310();
        const Machine before = m;
        Diagnostics diagnostics;
        QCOMPARE(applyOverride(m, assignment.toStdString(), diagnostics), ok);
        if (ok) {
            QVERIFY(!(m == before));
        } else {
            QVERIFY(m == before);
            QVERIFY2(QString::fromStdString(diagnostics.toString()).contains(message), diagnostics.toString().c_str());
        }
    }

    void exports()
    {
        using testbuild::ProgramBuilder;
        Trace trace;
        ProgramBuilder(trace, 0).work(Pipe::MTE2, 3, "copy_gm_to_cbuf").work(Pipe::M, 1, "mad")
            .set(Pipe::M, Pipe::MTE3).wait(Pipe::M, Pipe::MTE3).work(Pipe::MTE3, 2, "copy_ubuf_to_gm").barrier();
        const Machine m = testbuild::unitMachine();
        const Result r = simulate(trace, m);
        QVERIFY(r.ok());

        const json chrome = chromeTrace(trace, m, r);
        int complete = 0;
        for (const json &e : chrome.at("traceEvents")) {
            if (e.at("ph") == "X" && e.at("cat") == "work") {
                ++complete;
                QVERIFY(e.at("args").contains("size"));
            }
            if (e.value("name", "") == "copy_gm_to_cbuf") {
                QCOMPARE(e.at("pid").get<int>(), 0);
                QCOMPARE(e.at("tid").get<int>(), int(pipeIndex(Pipe::MTE2)));
                QCOMPARE(e.at("ts").get<double>(), 0.0);
                QCOMPARE(e.at("dur").get<double>(), 0.005); // 5 ns in µs
                QCOMPARE(e.at("args").at("bandwidth_gbps").get<double>(), 0.6); // 3 B in 5 ns
            }
        }
        QCOMPARE(complete, 3);
        QCOMPARE(chrome.at("displayTimeUnit").get<std::string>(), std::string("ns"));

        const json events = eventsToJson(trace, m, r);
        QCOMPARE(events.at("events").size(), std::size_t(6));
        QCOMPARE(events.at("events")[4].at("end_ns").get<double>(), 5.0);
        QCOMPARE(events.at("contention").size(), std::size_t(1));
        QCOMPARE(events.at("contention")[0].at("shares")[1].at("rate_gbps").get<double>(), 0.5);

        const std::string csv = eventsToCsv(trace, m, r);
        QVERIFY(csv.rfind("core,index,pipe,kind,name,size,unit,event_id,start_ns,end_ns,rate,executed\n", 0) == 0);
        QVERIFY(csv.find("0,4,MTE3,work,copy_ubuf_to_gm,2,B,,1,5,0.5,1\n") != std::string::npos);
        QVERIFY(csv.find("0,2,M,set_flag,\"set_flag(M, MTE3, 0)\",,,0,1,1,,1\n") != std::string::npos);

        const json summary = summaryToJson(trace, m, r);
        QCOMPARE(summary.at("total_ns").get<double>(), 5.0);
        QCOMPARE(summary.at("ok").get<bool>(), true);
        QCOMPARE(summary.at("contention").at("time_ns").get<double>(), 4.0);
        // Read and write both end at t = 5; the path ends at the first of them in program order.
        QCOMPARE(summary.at("critical_path").at("steps").back().at("what").get<std::string>(),
                 std::string("copy_gm_to_cbuf (MTE2, 3 B)"));
    }
};

QTEST_GUILESS_MAIN(TestVerrocchioIo)
#include "tst_verrocchio_io.moc"
