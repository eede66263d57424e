// The Brouwer part of a session file, read in the core (core/brouwer/session.h;
// fuzz_brouwer_session): a good part gives every field, the measurement rows
// and the snapshots; each bad one is refused naming the session file, the
// JSON pointer and the reason, and gives no part.
#include "brouwer/io.h"
#include "brouwer/session.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace roofline;
using namespace roofline::brouwer;
using nlohmann::json;

namespace {

std::string fileText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

const char *kCsv = "network,layer,load_ns,exec_ns,memory_bytes\n"
                   "LeNet,conv1,1000,2000,\n"
                   "LeNet,ip1,3000,4000,33554432\n";

// A part as the studio writes it: LeNet (our JSON), our EdgeCaffe fit, one CSV, one snapshot.
json goodState()
{
    json s;
    s["network_name"] = "LeNet";
    s["network_path"] = "/x/lenet.json";
    s["network"] = fileText(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/lenet.json"));
    s["device_path"] = "/x/edgecaffe-fe.json";
    s["device"] = fileText(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/brouwer/edgecaffe-fe.json"));
    s["available_bytes"] = 48.0 * 1024 * 1024;
    s["bytes_per_element"] = 2;
    s["smeared"] = true;
    s["measurements"] = json::array({{{"path", "/x/m.csv"}, {"text", kCsv}}});
    json part = s;
    json pinned = s;
    pinned.erase("measurements");
    pinned["available_bytes"] = 1024.0 * 1024 * 1024;
    part["snapshots"] = json::array({{{"name", " 1 GiB "}, {"state", pinned}}});
    part["compared"] = 0;
    part["modified"] = true;
    part["view"] = {{"tab", 1}, {"table_tab", "nonsense"}}; // the studio's; not checked here
    return part;
}

} // namespace

class TestBrouwerSession : public QObject
{
    Q_OBJECT
private slots:
    void goodPart()
    {
        const SessionPartLoad load = parseSessionPart(goodState(), "s.json");
        QVERIFY2(load.part, load.diagnostics.toString().c_str());
        const SessionPart &p = *load.part;
        QCOMPARE(p.current.networkName, std::string("LeNet"));
        QCOMPARE(p.current.networkPath, std::string("/x/lenet.json"));
        QVERIFY(!p.current.network.layers.empty());
        QCOMPARE(p.current.devicePath, std::string("/x/edgecaffe-fe.json"));
        QCOMPARE(p.current.device, *loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/brouwer/edgecaffe-fe.json").device);
        QCOMPARE(p.current.params.availableBytes, 48.0 * 1024 * 1024);
        QCOMPARE(p.current.params.bytesPerElement, 2.0);
        QVERIFY(p.current.smeared);
        QCOMPARE(p.current.measuredFiles.size(), std::size_t(1));
        QCOMPARE(p.current.measuredFiles[0].path, std::string("/x/m.csv"));
        QCOMPARE(p.current.measuredFiles[0].text, std::string(kCsv));
        QCOMPARE(p.current.measuredRows.size(), std::size_t(2));
        QCOMPARE(p.current.measuredRows[1].memoryBytes, 33554432.0);
        QCOMPARE(p.snapshots.size(), std::size_t(1));
        QCOMPARE(p.snapshots[0].name, std::string("1 GiB"));
        QCOMPARE(p.snapshots[0].state.params.availableBytes, 1024.0 * 1024 * 1024);
        QVERIFY(p.snapshots[0].state.measuredFiles.empty());
        QCOMPARE(p.compared, 0);
        QVERIFY(p.modified);
        // Through text, as the studio hands it over: the same.
        const SessionPartLoad text = parseSessionPartText(goodState().dump(), "s.json");
        QVERIFY2(text.part, text.diagnostics.toString().c_str());
        QCOMPARE(text.part->current.params, p.current.params);
        // Without a name the network's own; the optional fields may be left out.
        json minimal = goodState();
        for (const char *key : {"network_name", "network_path", "device_path", "smeared", "measurements", "snapshots",
                                "compared", "modified", "view"})
            minimal.erase(key);
        const SessionPartLoad m = parseSessionPart(minimal, "s.json");
        QVERIFY2(m.part, m.diagnostics.toString().c_str());
        QCOMPARE(m.part->current.networkName, m.part->current.network.name);
        QVERIFY(!m.part->current.smeared && m.part->current.measuredFiles.empty() && m.part->compared == -1);
    }

    // Each row changes the good part at a JSON pointer (relative to the part)
    // and names what the message must contain.
    void badPart_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); // JSON; empty: remove the key
        QTest::addColumn<QString>("message");
        auto row = [](const char *name, const char *pointer, const char *value, const char *message) {
            QTest::newRow(name) << pointer << value << message;
        };
        row("network missing", "/network", "", "s.json: /views/brouwer/network: required network (our JSON, as a string) is missing");
        row("network empty", "/network", "\"\"", "/views/brouwer/network: required network");
        row("network a number", "/network", "3", "/views/brouwer/network: expected a string (our JSON, as a string), got a number");
        row("network not JSON", "/network", "\"{\"", "s.json: /views/brouwer/network: line 1, column 2");
        row("network no layers", "/network",
            "\"{\\\"format\\\":\\\"roofline-studio/amaix-network\\\",\\\"version\\\":1,\\\"name\\\":\\\"n\\\",\\\"input\\\":[1,1,1],\\\"layers\\\":[]}\"",
            "/views/brouwer/network");
        row("device missing", "/device", "", "s.json: /views/brouwer/device: required device (a brouwer device file, as a string) is missing");
        row("device not a device", "/device", "\"{}\"", "s.json: /views/brouwer/device: /format");
        row("memory below 16 MiB", "/available_bytes", "1", "s.json: /views/brouwer/available_bytes: must be a number of bytes from 16 MiB to 16 GiB");
        row("memory 1e308", "/available_bytes", "1e308", "/views/brouwer/available_bytes: must be");
        row("memory a string", "/available_bytes", "\"256MB\"", "/views/brouwer/available_bytes: must be");
        row("memory missing", "/available_bytes", "", "/views/brouwer/available_bytes: must be");
        row("bytes per element 0", "/bytes_per_element", "0", "s.json: /views/brouwer/bytes_per_element: must be a number from 0.125 to 64");
        row("bytes per element null", "/bytes_per_element", "null", "/views/brouwer/bytes_per_element: must be");
        row("smeared a number", "/smeared", "1", "s.json: /views/brouwer/smeared: expected true or false, got a number");
        row("measurements an object", "/measurements", "{}", "s.json: /views/brouwer/measurements: expected an array of {path, text}");
        row("measurement not an object", "/measurements/0", "7", "s.json: /views/brouwer/measurements/0: expected an object, got a number");
        row("measurement text missing", "/measurements/0/text", "", "s.json: /views/brouwer/measurements/0/text: required field is missing");
        row("measurement text a number", "/measurements/0/text", "5", "/views/brouwer/measurements/0/text: expected a string, got a number");
        row("measurement denormal", "/measurements/0/text",
            "\"network,layer,load_ns,exec_ns,memory_bytes\\nLeNet,conv1,1e-320,2000,\\n\"",
            "s.json: /views/brouwer/measurements/0 (/x/m.csv): line 2");
        row("measurement unknown key", "/measurements/0/size", "3", "s.json: /views/brouwer/measurements/0/size: unknown key \"size\"");
        row("unknown key", "/colour", "\"red\"", "s.json: /views/brouwer/colour: unknown key \"colour\"");
        row("unknown key with a slash", "/a~1b", "1", "s.json: /views/brouwer/a~1b: unknown key \"a/b\"");
        row("snapshots an object", "/snapshots", "{}", "s.json: /views/brouwer/snapshots: expected an array, got an object");
        row("snapshot not an object", "/snapshots/0", "[]", "s.json: /views/brouwer/snapshots/0: expected an object, got an array");
        row("snapshot name blank", "/snapshots/0/name", "\" \"", "s.json: /views/brouwer/snapshots/0/name: expected a non-empty name");
        row("snapshot name missing", "/snapshots/0/name", "", "s.json: /views/brouwer/snapshots/0/name: required field is missing");
        row("snapshot state missing", "/snapshots/0/state", "", "s.json: /views/brouwer/snapshots/0/state: required field is missing");
        row("snapshot state a string", "/snapshots/0/state", "\"x\"", "s.json: /views/brouwer/snapshots/0/state: expected an object, got a string");
        row("snapshot memory 1e308", "/snapshots/0/state/available_bytes", "1e308",
            "s.json: /views/brouwer/snapshots/0/state/available_bytes: must be a number of bytes");
        row("snapshot compared in its state", "/snapshots/0/state/compared", "0",
            "s.json: /views/brouwer/snapshots/0/state/compared: unknown key");
        row("compared past the end", "/compared", "1", "s.json: /views/brouwer/compared: expected -1 or a snapshot index below 1");
        row("compared -2", "/compared", "-2", "/views/brouwer/compared: expected -1 or a snapshot index below 1");
        row("compared 0.5", "/compared", "0.5", "/views/brouwer/compared: expected -1");
        row("compared a string", "/compared", "\"0\"", "/views/brouwer/compared: expected -1");
        row("modified a string", "/modified", "\"yes\"", "s.json: /views/brouwer/modified: expected true or false, got a string");
    }
    void badPart()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, message);
        json state = goodState();
        const json::json_pointer at(pointer.toStdString());
        if (value.isEmpty())
            state[at.parent_pointer()].erase(at.back());
        else
            state[at] = json::parse(value.toStdString());
        const SessionPartLoad load = parseSessionPart(state, "s.json");
        QVERIFY(!load.part);
        const QString all = QString::fromStdString(load.diagnostics.toString());
        QVERIFY2(all.contains(message), qPrintable(all));
        // Through text the same.
        const SessionPartLoad text = parseSessionPartText(state.dump(), "s.json");
        QVERIFY(!text.part);
        QCOMPARE(text.diagnostics.toString(), load.diagnostics.toString());
    }

    // The fuzz seeds are good parts (so fuzzing starts from what the studio writes).
    void fuzzSeedsLoad()
    {
        const QDir seeds(QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/fuzz/seeds/brouwer-session"));
        const QStringList files = seeds.entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const QString &name : files) {
            const SessionPartLoad load = parseSessionPartText(fileText(seeds.filePath(name)), name.toStdString());
            QVERIFY2(load.part, load.diagnostics.toString().c_str());
        }
    }

    void notAnObjectOrNotJson()
    {
        const SessionPartLoad a = parseSessionPart(json::array(), "s.json");
        QVERIFY(!a.part);
        QCOMPARE(a.diagnostics.toString(), std::string("s.json: /views/brouwer: expected an object, got an array\n"));
        const SessionPartLoad t = parseSessionPartText("{\"network\": ", "s.json");
        QVERIFY(!t.part);
        QVERIFY2(QString::fromStdString(t.diagnostics.toString()).startsWith("s.json: line 1"),
                 t.diagnostics.toString().c_str());
        // 10^5 deep under a key: refused at 256 levels, at its place in the session.
        const std::string deep = "{\"device\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
        const SessionPartLoad d = parseSessionPartText(deep, "s.json");
        QVERIFY(!d.part);
        QVERIFY2(QString::fromStdString(d.diagnostics.toString()).contains("s.json: /views/brouwer/device/0/0"),
                 d.diagnostics.toString().c_str());
        QVERIFY2(QString::fromStdString(d.diagnostics.toString()).contains("nested more than 256 levels deep"),
                 d.diagnostics.toString().c_str());
    }
};

QTEST_MAIN(TestBrouwerSession)
#include "tst_brouwer_session.moc"
