// Issue 14: the catalogue through roofline-cli. For every input format, a
// file is generated from a shipped one with a field made wrong (JSON: a
// number set to -1, to 1e999 and to a string; text formats: a number token
// replaced), and whole files broken (cut in half, binary garbage, empty, a
// folder, missing); each run exits 1 with "error: FILE: PLACE: REASON" (or,
// for a value the model accepts, exits 0 and prints no NaN or infinity). Wrong
// usage exits 2.
#include "clitesting.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>

namespace {

using nlohmann::json;

QString source(const QString &relative)
{
    return QStringLiteral(ROOFLINE_SOURCE_DIR "/") + relative;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
}

// A format: a shipped file, how it is read ("BAD" stands for the file under
// test) and how its fields are found.
struct Format
{
    const char *name;
    QString shipped;     // relative to the source folder
    QString suffix;      // of generated files
    QStringList command; // with "BAD"
    bool json = true;    // fields by JSON pointer; otherwise number tokens
    bool fields = true;  // false: a binary format, its fields in tst_catalogue_formats
    // "RULES_DEVICE" in the command: a device file written beside the file under
    // test that names it as its fusion rules (rules are read only through a device),
    // whose error then reads "error: DEVICE: /fusion_rules: BAD: PLACE: REASON".
};

// A copy of a shipped nn-Meter device naming `rules` (absolute) as its fusion rules, in a scratch folder.
QString rulesDevice(const QString &rules)
{
    QFile in(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/cortexa76_tflite_cpu.device.json"));
    if (!in.open(QIODevice::ReadOnly))
        return {};
    json device = json::parse(in.readAll().toStdString());
    device["fusion_rules"] = QFileInfo(rules).absoluteFilePath().toStdString();
    static QTemporaryDir scratch; // never beside a shipped file
    const QString path = scratch.filePath(QStringLiteral("rules-under-test.device.json"));
    QFile out(path);
    if (out.open(QIODevice::WriteOnly))
        out.write(QByteArray::fromStdString(device.dump(1)));
    return path;
}

std::vector<Format> formats()
{
    const QString ex = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/");
    return {
        {"Gables SoC", "examples/gables/snapdragon835.json", ".json", {"evaluate", "BAD"}},
        {"AMAIX accelerator", "examples/amaix/nv_full.json", ".json", {"amaix", ex + "amaix/lenet.json", "BAD"}},
        {"network JSON", "examples/amaix/lenet.json", ".json", {"amaix", "BAD", ex + "amaix/nv_full.json"}},
        {"AMAIX measured CSV", "tests/fuzz/seeds/measured/times_us.csv", ".csv",
         {"amaix", ex + "amaix/lenet.json", ex + "amaix/nv_full.json", "--measured", "BAD"}, false},
        {"Verrocchio trace", "examples/verrocchio/vector-add-1core.json", ".json",
         {"simulate", "BAD", ex + "verrocchio/ascend310.json"}},
        {"text trace", "examples/verrocchio/vector-add-1core.txt", ".txt",
         {"simulate", "BAD", ex + "verrocchio/ascend310.json"}, false},
        {"Verrocchio machine", "examples/verrocchio/ascend310.json", ".json",
         {"simulate", ex + "verrocchio/vector-add-1core.json", "BAD"}},
        {"Caffe prototxt", "examples/brouwer/networks/AgeNet.prototxt", ".prototxt", {"network", "BAD"}, false},
        {"ONNX", "tests/data/onnx/alexnet.onnx", ".onnx", {"network", "BAD"}, false, false},
        {"Brouwer device", "examples/brouwer/edgecaffe-fe.json", ".json",
         {"brouwer", ex + "brouwer/networks/AgeNet.prototxt", "BAD", "--memory", "256MB"}},
        {"Brouwer measured CSV", "tests/data/edgecaffe/measured/SoS-linear-1.csv", ".csv",
         {"brouwer-fit", "BAD", "--networks", "Salient Object Subitizing=" + ex + "brouwer/networks/SoS.prototxt",
          "--model", "fe", "--out", "OUT"},
         false},
        {"nn-Meter device", "examples/nnmeter/cortexa76_tflite_cpu.device.json", ".device.json",
         {"nnmeter", ex + "amaix/lenet.json", "BAD"}},
        {"nn-Meter rules", "examples/nnmeter/onednn_cpu.rules.json", ".rules.json",
         {"nnmeter", ex + "amaix/resnet18.json", "RULES_DEVICE"}},
    };
}

QStringList withFile(QStringList command, const QString &bad, const QString &out)
{
    command.replaceInStrings(QRegularExpression(QStringLiteral("^BAD$")), bad);
    command.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), out);
    if (command.contains(QStringLiteral("RULES_DEVICE")))
        command.replaceInStrings(QRegularExpression(QStringLiteral("^RULES_DEVICE$")), rulesDevice(bad));
    return command;
}

// Up to `count` positions spread over the list.
template <typename T>
std::vector<T> spread(const std::vector<T> &all, std::size_t count)
{
    if (all.size() <= count)
        return all;
    std::vector<T> out;
    for (std::size_t i = 0; i < count; ++i) // "+ i": not always the same column of a table
        out.push_back(all[std::min(all.size() - 1, i * all.size() / count + i)]);
    return out;
}

void numericPointers(const json &value, const std::string &pointer, std::vector<std::string> &out)
{
    if (value.is_number()) {
        out.push_back(pointer);
    } else if (value.is_object()) {
        for (const auto &[key, member] : value.items()) {
            std::string token = key; // RFC 6901
            for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; i += 2)
                token.replace(i, 1, "~0");
            for (std::size_t i = 0; (i = token.find('/', i)) != std::string::npos; i += 2)
                token.replace(i, 1, "~1");
            numericPointers(member, pointer + "/" + token, out);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            numericPointers(value[i], pointer + "/" + std::to_string(i), out);
    }
}

// Number tokens (after a space, tab, comma or colon; outside comments and quotes).
std::vector<std::pair<int, int>> numberTokens(const QByteArray &text)
{
    std::vector<std::pair<int, int>> out;
    bool quoted = false, comment = false;
    const QByteArray separators = " \t,:";
    for (int i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            quoted = comment = false;
            continue;
        }
        if (comment || (c == '"' && (quoted = !quoted, true)) || quoted)
            continue;
        if (c == '#') {
            comment = true;
            continue;
        }
        const bool start = i == 0 || separators.contains(text[i - 1]) || text[i - 1] == '\n';
        if (!start || !(std::isdigit(static_cast<unsigned char>(c)) || (c == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))))
            continue;
        int end = i + 1;
        while (end < text.size() && !separators.contains(text[end]) && text[end] != '\n' && text[end] != '\r')
            ++end;
        out.emplace_back(i, end);
        i = end - 1;
    }
    return out;
}

// "error: FILE: PLACE: REASON" (PLACE may be absent for whole-file errors).
QString checkRefusal(const Run &r, const QString &file, bool needPlace)
{
    const QString err = QString::fromUtf8(r.err);
    if (r.exitCode == 1) {
        // "error: FILE: " or, for a file read through another (rules through a device),
        // "error: OTHER: /pointer: FILE: ".
        QString prefix = QStringLiteral("error: ") + file + QStringLiteral(": ");
        int at = err.indexOf(prefix);
        if (at < 0 && err.startsWith(QStringLiteral("error: "))) {
            prefix = QFileInfo(file).absoluteFilePath() + QStringLiteral(": ");
            at = err.indexOf(prefix);
        }
        if (at < 0)
            return QStringLiteral("exit 1 without \"%1...\": %2").arg(prefix, err.left(400));
        const QString rest = err.mid(at + prefix.size()).section(QLatin1Char('\n'), 0, 0);
        if (rest.trimmed().isEmpty())
            return QStringLiteral("no reason: ") + err.left(400);
        if (needPlace && rest.count(QStringLiteral(": ")) < 1)
            return QStringLiteral("no place (field or line): ") + err.left(400);
        return {};
    }
    return QStringLiteral("exit %1 (expected 1): %2").arg(r.exitCode).arg(err.left(400));
}

// Output of an accepted value: no NaN, no infinity.
QString checkAccepted(const Run &r)
{
    static const QRegularExpression nonFinite(QStringLiteral("(?<![A-Za-z_\"])-?(nan|inf|infinity)(?![A-Za-z_\"])"),
                                              QRegularExpression::CaseInsensitiveOption);
    const QString out = QString::fromUtf8(r.out + r.err);
    const auto m = nonFinite.match(out);
    return m.hasMatch() ? QStringLiteral("exit 0 but prints \"%1\": %2").arg(m.captured(0), out.left(300)) : QString();
}

} // namespace

class TestCliCatalogue : public QObject
{
    Q_OBJECT
private slots:
    void shippedFilesRun()
    {
        QTemporaryDir dir;
        for (const Format &f : formats()) {
            const Run r = cli(withFile(f.command, source(f.shipped), dir.filePath(QStringLiteral("out.json"))));
            QVERIFY2(r.exitCode == 0, qPrintable(QString::fromLatin1(f.name) + ": " + QString::fromUtf8(r.err)));
        }
    }

    // A field made wrong, field by field (spread over each file).
    void wrongFields_data()
    {
        QTest::addColumn<int>("format");
        const auto all = formats();
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].name) << int(i);
    }
    void wrongFields()
    {
        QFETCH(int, format);
        const Format f = formats()[std::size_t(format)];
        if (!f.fields)
            QSKIP("a binary format: its fields are changed in the protobuf by tst_catalogue_formats");
        const QByteArray shipped = readAll(source(f.shipped));
        QVERIFY(!shipped.isEmpty());
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad") + f.suffix);
        const QString out = dir.filePath(QStringLiteral("out.json"));
        QStringList failures;
        int runs = 0, refused = 0;
        const auto run = [&](const QByteArray &bytes, const QString &what) {
            writeAll(bad, bytes);
            const Run r = cli(withFile(f.command, bad, out));
            ++runs;
            const QString problem = r.exitCode == 0 ? checkAccepted(r) : checkRefusal(r, bad, true);
            refused += r.exitCode == 0 ? 0 : 1;
            if (!problem.isEmpty())
                failures << what + ": " + problem;
        };
        if (f.json) {
            const json doc = json::parse(shipped.toStdString());
            std::vector<std::string> pointers;
            numericPointers(doc, "", pointers);
            for (const std::string &p : spread(pointers, 6)) {
                for (const json &v : {json(-1), json("12"), json(nullptr)}) {
                    json changed = doc;
                    changed[json::json_pointer(p)] = v;
                    run(QByteArray::fromStdString(changed.dump(1)), QString::fromStdString(p + " = " + v.dump()));
                }
                std::string text = doc.dump(1); // a number JSON cannot hold
                json marker = doc;
                marker[json::json_pointer(p)] = "@@";
                text = marker.dump(1);
                text.replace(text.find("\"@@\""), 4, "1e999");
                run(QByteArray::fromStdString(text), QString::fromStdString(p + " = 1e999"));
            }
        } else {
            for (const auto &[begin, end] : spread(numberTokens(shipped), 6)) {
                for (const char *word : {"-1", "1e999", "abc"}) {
                    QByteArray changed = shipped;
                    changed.replace(begin, end - begin, word);
                    run(changed, QStringLiteral("byte %1: \"%2\" -> \"%3\"")
                                     .arg(begin)
                                     .arg(QString::fromUtf8(shipped.mid(begin, end - begin)), QLatin1String(word)));
                }
            }
        }
        qInfo("%s: %d runs, %d refused", f.name, runs, refused);
        QVERIFY(runs >= 6);
        QVERIFY(refused >= runs / 3);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 10).join('\n')));
    }

    // Whole files broken, for every format.
    void brokenFiles_data() { wrongFields_data(); }
    void brokenFiles()
    {
        QFETCH(int, format);
        const Format f = formats()[std::size_t(format)];
        const QByteArray shipped = readAll(source(f.shipped));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.json"));
        QStringList failures;
        const auto expectRefused = [&](const QString &path, const QString &what) {
            const Run r = cli(withFile(f.command, path, out));
            // Half a CSV or text file can be a shorter good one.
            const bool mayLoad = !f.json && what == QLatin1String("cut in half");
            const QString problem = mayLoad && r.exitCode == 0 ? checkAccepted(r) : checkRefusal(r, path, false);
            if (!problem.isEmpty())
                failures << what + ": " + problem;
        };
        const QString bad = dir.filePath(QStringLiteral("bad") + f.suffix);
        writeAll(bad, shipped.left(shipped.size() / 2));
        expectRefused(bad, QStringLiteral("cut in half"));
        writeAll(bad, QByteArray("\x00\xFF\xFE\x01\x1b[2Jgarbage\x80", 15));
        expectRefused(bad, QStringLiteral("binary garbage"));
        // Issue 14: the studio aborted on these six bytes, the CLI said "internal error" (exit 3).
        writeAll(bad, QByteArray("core \xFF", 6));
        expectRefused(bad, QStringLiteral("\"core \" and the byte 0xFF"));
        writeAll(bad, QByteArray());
        expectRefused(bad, QStringLiteral("empty"));
        // A text format: a UTF-8 byte-order mark changes nothing (issue 14), for
        // a file that loads from here without it (a device naming its rules by a
        // relative path does not).
        writeAll(bad, shipped);
        if (f.fields && cli(withFile(f.command, bad, out)).exitCode == 0) {
            writeAll(bad, "\xEF\xBB\xBF" + shipped);
            const Run r = cli(withFile(f.command, bad, out));
            if (r.exitCode != 0)
                failures << QStringLiteral("with a byte-order mark: exit %1: %2")
                                .arg(r.exitCode)
                                .arg(QString::fromUtf8(r.err.left(300)));
        }
        const QString folder = dir.filePath(QStringLiteral("folder") + f.suffix);
        QVERIFY(QDir().mkpath(folder));
        expectRefused(folder, QStringLiteral("a folder"));
        expectRefused(dir.filePath(QStringLiteral("missing") + f.suffix), QStringLiteral("missing"));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    // Wrong usage: exit 2, whatever the files.
    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString ex = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
        QTest::newRow("unknown option") << QStringList{"evaluate", ex + "gables/snapdragon835.json", "--frob"};
        QTest::newRow("evaluate without a file") << QStringList{"evaluate"};
        QTest::newRow("amaix without the accelerator") << QStringList{"amaix", ex + "amaix/lenet.json"};
        QTest::newRow("simulate without the machine") << QStringList{"simulate", ex + "verrocchio/vector-add-1core.txt"};
        QTest::newRow("network without a file") << QStringList{"network"};
        QTest::newRow("brouwer without --memory")
            << QStringList{"brouwer", ex + "brouwer/networks/AgeNet.prototxt", ex + "brouwer/edgecaffe-fe.json"};
        QTest::newRow("brouwer-fit without files") << QStringList{"brouwer-fit"};
        QTest::newRow("nnmeter without the device") << QStringList{"nnmeter", ex + "amaix/lenet.json"};
        QTest::newRow("--format with a wrong value")
            << QStringList{"evaluate", ex + "gables/snapdragon835.json", "--format", "yaml"};
        QTest::newRow("--set without a value") << QStringList{"evaluate", ex + "gables/snapdragon835.json", "--set"};
    }
    void usage()
    {
        QFETCH(QStringList, args);
        const Run r = cli(args);
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        QVERIFY2(!r.err.trimmed().isEmpty(), "no message");
    }
};

QTEST_GUILESS_MAIN(TestCliCatalogue)
#include "tst_cli_catalogue.moc"
