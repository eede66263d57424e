// Issue 14: what a hostile file can put in front of the user. Messages quote
// the file's own text (keys, names, tokens); control bytes, terminal escape
// sequences and bytes that are not UTF-8 must never reach a terminal or a
// dialog raw, whichever loader built the message: Diagnostics stores every
// message, pointer and file name through printableText(). And a file wrong
// the same way on every line (a converter's bug over 10⁶ lines) gives the
// first Diagnostics::kMaxListed errors and "and K more", not 10⁶ lines.
#include "amaix/io.h"
#include "brouwer/fit.h"
#include "common/diagnostics.h"
#include "common/jsondocument.h"
#include "gables/io.h"
#include "network/import.h"
#include "nnmeter/io.h"
#include "verrocchio/io.h"

#include <QTest>

#include <fstream>
#include <iterator>

using namespace roofline;

namespace {

std::string readExample(const std::string &relative)
{
    std::ifstream in(std::string(ROOFLINE_EXAMPLES_DIR) + "/" + relative, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// What a terminal would receive: no control byte but the newline between
// messages (and tab), no DEL, nothing that is not UTF-8.
QString rawBytesIn(const std::string &shown)
{
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const auto c = static_cast<unsigned char>(shown[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
            return QStringLiteral("raw byte 0x%1 at %2").arg(int(c), 2, 16, QLatin1Char('0')).arg(i);
    }
    if (const auto at = invalidUtf8At(shown))
        return QStringLiteral("a byte that is not UTF-8 at %1").arg(*at);
    return {};
}

constexpr const char *kEscape = "\x1b[2J\x1b]0;pwned\x07"; // clear the screen, set the title

} // namespace

class TestMessages : public QObject
{
    Q_OBJECT

private slots:
    void diagnosticsStorePrintableText()
    {
        Diagnostics d;
        d.setFile("evil\x1b.json");
        d.error("/ips/0/\x01key", std::string("unknown key \"") + kEscape + "\xff\"");
        d.warning("line 3", "tab\tand UTF-8 kept: 2 µs ≥ 1 µs × 2");
        QCOMPARE(d.toString(), std::string("evil\\x1B.json: /ips/0/\\x01key: unknown key "
                                           "\"\\x1B[2J\\x1B]0;pwned\\x07\\xFF\"\n"
                                           "evil\\x1B.json: line 3: warning: tab\tand UTF-8 kept: 2 µs ≥ 1 µs × 2\n"));
        // Printing printed text changes nothing.
        QCOMPARE(printableText(d.all()[0].message), d.all()[0].message);
    }

    // Each loader, given a file whose text reaches its messages.
    void loadersNeverEchoRawBytes_data()
    {
        QTest::addColumn<QString>("shown");
        const std::string esc = kEscape;
        auto add = [](const char *name, const Diagnostics &d) {
            QTest::newRow(name) << QString::fromStdString(d.toString());
        };
        std::string gables = readExample("gables/snapdragon835.json");
        gables.insert(gables.find('{') + 1, "\"\\u001b[2Jevil\\u0007\": 1, ");
        add("JSON unknown key (\\u001b in the key)", gables::parseSoc(gables, "soc.json").diagnostics);
        std::string badUtf8 = readExample("gables/snapdragon835.json");
        badUtf8.insert(badUtf8.find('{') + 1, "\"name\xff\xfe\x1b\": 1, ");
        add("JSON key that is not UTF-8", gables::parseSoc(badUtf8, "soc.json").diagnostics);
        add("JSON syntax error at a control byte", gables::parseSoc("{\"format\": \x1b[2J}", "soc.json").diagnostics);
        add("text trace core \\xFF", verrocchio::parseTraceText("core \xff", "trace.txt").diagnostics);
        add("text trace unknown instruction",
            verrocchio::parseTraceText("core a\n" + esc + "frob 1\nvadd " + esc + "\n", "trace.txt").diagnostics);
        add("AMAIX measured CSV", amaix::parseMeasuredCsv("layer,time_us\nconv1," + esc + "\n" + esc + ",x\n",
                                                          "times.csv").diagnostics);
        add("AMAIX measured CSV header", amaix::parseMeasuredCsv(esc + ",time_us\n", "times.csv").diagnostics);
        add("Brouwer measured CSV",
            brouwer::parseMeasuredCsv("networkName,layerId,layerName,Loading_ns,execution_ns,policy\n" + esc
                                          + ",0,in" + esc + "," + esc + ",1,linear\n",
                                      "measured.csv")
                .diagnostics);
        add("Caffe prototxt layer type",
            network::importCaffe("name: \"n\"\ninput: \"data\"\ninput_dim: 1\ninput_dim: 3\ninput_dim: 8\ninput_dim: 8\n"
                                 "layer { name: \"" + esc + "\" type: \"Evil\\x07" + esc + "\" bottom: \"data\" top: \"y\" }\n",
                                 "net.prototxt")
                .diagnostics);
        add("Caffe prototxt syntax", network::importCaffe("layer { name: " + esc + "\xff }", "net.prototxt").diagnostics);
        add("ONNX garbage", network::importOnnx("\x08\x07" + esc + "\xff\xfe", "net.onnx").diagnostics);
        add("nn-Meter rules", nnmeter::parseRules("{\"format\": \"" + esc + "\"}", "x.rules.json").diagnostics);
        add("nn-Meter device", nnmeter::parseDevice("{\"" + esc + "\": 1}", "x.device.json", "").diagnostics);
    }
    void loadersNeverEchoRawBytes()
    {
        QFETCH(QString, shown);
        const std::string text = shown.toStdString();
        QVERIFY2(!text.empty(), "the loader gave no message");
        const QString raw = rawBytesIn(text);
        QVERIFY2(raw.isEmpty(), qPrintable(raw + ": " + shown.toUtf8().toPercentEncoding(" :/\"\\,.=")));
    }

    // 100,000 lines wrong the same way: the first 100 errors, then one line
    // with how many more; every error still counts.
    void repeatedLineErrorsAreCapped_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("text trace") << 0;
        QTest::newRow("AMAIX measured CSV") << 1;
        QTest::newRow("Brouwer measured CSV") << 2;
    }
    void repeatedLineErrorsAreCapped()
    {
        QFETCH(int, kind);
        constexpr int kLines = 100000;
        std::string text;
        Diagnostics d;
        if (kind == 0) {
            text = "core a\n";
            for (int i = 0; i < kLines; ++i)
                text += "frobnicate 1\n";
            d = verrocchio::parseTraceText(text, "big.txt").diagnostics;
        } else if (kind == 1) {
            text = "layer,time_us\n";
            for (int i = 0; i < kLines; ++i)
                text += "conv" + std::to_string(i) + ",abc\n";
            d = amaix::parseMeasuredCsv(text, "big.csv").diagnostics;
        } else {
            text = "networkName,layerId,layerName,Loading_ns,execution_ns,policy\n";
            for (int i = 0; i < kLines; ++i)
                text += "n," + std::to_string(i) + ",conv,abc,1,linear\n";
            d = brouwer::parseMeasuredCsv(text, "big.csv").diagnostics;
        }
        QVERIFY(d.hasErrors());
        const std::vector<Diagnostic> errors = d.errors();
        QVERIFY2(errors.size() <= Diagnostics::kMaxListed + 1, d.toString().substr(0, 2000).c_str());
        if (d.errorCount() > Diagnostics::kMaxListed) {
            QCOMPARE(errors.size(), Diagnostics::kMaxListed + 1);
            const std::string last = errors.back().message;
            const std::string expected = "more errors (only the first 100 are listed)";
            QVERIFY2(last.rfind("and ", 0) == 0 && last.find(expected) != std::string::npos, last.c_str());
            std::string more = std::to_string(d.errorCount() - Diagnostics::kMaxListed);
            for (std::size_t i = more.size(); i > 3; i -= 3)
                more.insert(i - 3, ",");
            QVERIFY2(last == "and " + more + " " + expected, last.c_str());
            QCOMPARE(errors.back().file, errors.front().file);
        }
        // The listed ones name their line.
        QVERIFY2(errors.front().pointer.rfind("line ", 0) == 0, errors.front().pointer.c_str());
    }

    // Warnings never crowd out an error: each has its own cap.
    void warningsDoNotHideErrors()
    {
        Diagnostics d;
        for (int i = 0; i < 250; ++i)
            d.warning("line " + std::to_string(i + 1), "odd but allowed");
        QVERIFY(!d.hasErrors());
        d.error("line 251", "wrong");
        QVERIFY(d.hasErrors());
        QCOMPARE(d.errorCount(), std::size_t(1));
        QCOMPARE(d.warningCount(), std::size_t(250));
        QCOMPARE(d.errors().size(), std::size_t(1));
        QCOMPARE(d.errors()[0].message, std::string("wrong"));
        QCOMPARE(d.warnings().size(), std::size_t(101));
        QCOMPARE(d.warnings().back().message, std::string("and 150 more warnings (only the first 100 are listed)"));
        for (int i = 0; i < 1100; ++i)
            d.error("", "again");
        QCOMPARE(d.errors().back().message, std::string("and 1,001 more errors (only the first 100 are listed)"));
        QCOMPARE(d.all().size(), std::size_t(100 + 1 + 100 + 1));
    }
};

QTEST_GUILESS_MAIN(TestMessages)
#include "tst_messages.moc"
