// Loading, saving and validating Gables SoC files; applying overrides.
#include "gables/io.h"
#include "testutils.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace roofline;
using namespace roofline::gables;
using nlohmann::json;

namespace {

json validDocument()
{
    return json::parse(R"({
      "format": "roofline-studio/gables", "version": 1, "name": "t",
      "soc": {"ppeak_gops": 40, "bpeak_gbps": {"value": 10, "source": "paper"},
              "ips": [{"name": "CPU", "color": "#1f77b4", "acceleration": 1, "bandwidth_gbps": 6},
                      {"name": "GPU", "acceleration": 5, "bandwidth_gbps": 15}]},
      "use_case": {"name": "u", "work": {"CPU": {"fraction": 0.25, "intensity_ops_per_byte": 8},
                                         "GPU": {"fraction": 0.75, "intensity_ops_per_byte": 0.1}}}})");
}

} // namespace

class TestGablesIo : public QObject
{
    Q_OBJECT
private slots:
    void loadsValidDocument()
    {
        const LoadResult r = parseSoc(validDocument().dump(), "t.json");
        QVERIFY2(r.soc, r.diagnostics.toString().c_str());
        QVERIFY(r.diagnostics.all().empty());
        QCOMPARE(r.soc->ips.size(), std::size_t(2));
        QCOMPARE(r.soc->ips[1].fraction, 0.75);
        QCOMPARE(r.soc->sources.at("bpeak_gbps"), std::string("paper"));
        ROOFLINE_COMPARE_REL(evaluate(*r.soc).attainableGops, 1 / 0.753125, 1e-12);
    }

    void roundTrip()
    {
        const LoadResult r = parseSoc(validDocument().dump(), "t.json");
        QVERIFY(r.soc);
        const LoadResult again = parseSoc(serialize(*r.soc), "saved.json");
        QVERIFY2(again.soc, again.diagnostics.toString().c_str());
        QVERIFY(*again.soc == *r.soc);
    }

    void extensionsRoundTrip()
    {
        json doc = validDocument();
        doc["soc"]["memory_side_memory"] = {{"bandwidth_gbps", 50}};
        doc["soc"]["buses"] = json::parse(R"([{"name": "NoC", "bandwidth_gbps": {"value": 12, "source": "guess"}}])");
        doc["soc"]["ips"][1]["buses"] = {"NoC"};
        doc["use_case"]["work"]["GPU"]["miss_ratio"] = 0.25;
        doc["use_case"]["schedule"] = "serialized";
        const LoadResult r = parseSoc(doc.dump(), "x.json");
        QVERIFY2(r.soc, r.diagnostics.toString().c_str());
        QVERIFY(r.soc->memorySideMemory);
        QCOMPARE(r.soc->msmBandwidthGBps, 50.0);
        QCOMPARE(r.soc->buses.size(), std::size_t(1));
        QCOMPARE(r.soc->buses[0].source, std::string("guess"));
        QCOMPARE(r.soc->ips[1].buses, std::vector<std::string>{"NoC"});
        QCOMPARE(r.soc->ips[1].missRatio, 0.25);
        QVERIFY(r.soc->serialized);
        const LoadResult again = parseSoc(serialize(*r.soc), "again.json");
        QVERIFY2(again.soc, again.diagnostics.toString().c_str());
        QVERIFY(*again.soc == *r.soc);
        // Without extensions nothing extra is written.
        const LoadResult plain = parseSoc(validDocument().dump(), "p.json");
        const std::string text = serialize(*plain.soc);
        QVERIFY(text.find("buses") == std::string::npos && text.find("miss_ratio") == std::string::npos
                && text.find("schedule") == std::string::npos);
    }

    void normalisesFractionsWithWarning()
    {
        json doc = validDocument();
        doc["use_case"]["work"]["CPU"]["fraction"] = 0.2;
        doc["use_case"]["work"]["GPU"]["fraction"] = 0.6;
        const LoadResult r = parseSoc(doc.dump(), "w.json");
        QVERIFY(r.soc);
        QCOMPARE(r.diagnostics.warnings().size(), std::size_t(1));
        QCOMPARE(r.diagnostics.warnings()[0].pointer, std::string("/use_case/work"));
        QVERIFY(r.diagnostics.warnings()[0].toString().find("sum to 0.8") != std::string::npos);
        ROOFLINE_COMPARE_REL(r.soc->ips[0].fraction, 0.25, 1e-15);
        ROOFLINE_COMPARE_REL(r.soc->ips[1].fraction, 0.75, 1e-15);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("patch"); // a JSON Patch applied to the valid document, or raw text
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");

        auto row = [](const char *name, const char *patch, const char *pointer, const char *message) {
            QTest::newRow(name) << QString::fromUtf8(patch) << QString::fromUtf8(pointer) << QString::fromUtf8(message);
        };
        row("malformed JSON", "RAW:{\"format\": \n  oops}", "line 2, column 3", "invalid JSON");
        row("empty file", "RAW:", "line 1, column 1", "invalid JSON");
        row("not an object", "RAW:[1, 2]", "/", "expected an object, got an array");
        row("wrong format id", R"([{"op":"replace","path":"/format","value":"other"}])", "/format", "expected \"roofline-studio/gables\"");
        row("future version", R"([{"op":"replace","path":"/version","value":2}])", "/version", "reads version 1, got 2");
        row("unknown top-level key", R"([{"op":"add","path":"/colour","value":1}])", "/colour", "unknown key \"colour\"");
        row("unknown IP key (typo)", R"([{"op":"add","path":"/soc/ips/1/bandwith_gbps","value":1}])", "/soc/ips/1/bandwith_gbps", "unknown key");
        row("missing Ppeak", R"([{"op":"remove","path":"/soc/ppeak_gops"}])", "/soc/ppeak_gops", "required field is missing");
        row("zero Ppeak", R"([{"op":"replace","path":"/soc/ppeak_gops","value":0}])", "/soc/ppeak_gops", "must be > 0 and <= 1e+09, got 0");
        row("negative bandwidth", R"([{"op":"replace","path":"/soc/ips/1/bandwidth_gbps","value":-3}])", "/soc/ips/1/bandwidth_gbps", "must be > 0 and <= 1e+09, got -3");
        row("huge bandwidth", R"([{"op":"replace","path":"/soc/ips/0/bandwidth_gbps","value":1e300}])", "/soc/ips/0/bandwidth_gbps", "got 1e+300");
        row("overflow to infinity", "RAW_REPLACE:\"bandwidth_gbps\":6|\"bandwidth_gbps\":1e999", "/soc/ips/0/bandwidth_gbps", "number overflow parsing '1e999'");
        row("duplicate key", "RAW_REPLACE:\"bpeak_gbps\":|\"bpeak_gbps\":3,\"bpeak_gbps\":", "/soc/bpeak_gbps", "key appears twice");
        row("string for a number", R"([{"op":"replace","path":"/soc/bpeak_gbps","value":"10"}])", "/soc/bpeak_gbps", "expected a number, got a string");
        row("sourced number without value", R"([{"op":"replace","path":"/soc/bpeak_gbps","value":{"source":"x"}}])", "/soc/bpeak_gbps/value", "required field is missing");
        row("unknown key in sourced number", R"([{"op":"replace","path":"/soc/bpeak_gbps","value":{"value":1,"sorce":"x"}}])", "/soc/bpeak_gbps/sorce", "unknown key");
        row("zero acceleration", R"([{"op":"replace","path":"/soc/ips/1/acceleration","value":0}])", "/soc/ips/1/acceleration", "must be > 0");
        row("fraction above 1", R"([{"op":"replace","path":"/use_case/work/GPU/fraction","value":1.5}])", "/use_case/work/GPU/fraction", "must be >= 0 and <= 1, got 1.5");
        row("negative fraction", R"([{"op":"replace","path":"/use_case/work/GPU/fraction","value":-0.1}])", "/use_case/work/GPU/fraction", "got -0.1");
        row("zero intensity", R"([{"op":"replace","path":"/use_case/work/CPU/intensity_ops_per_byte","value":0}])", "/use_case/work/CPU/intensity_ops_per_byte", "must be > 0");
        row("all fractions zero", R"([{"op":"replace","path":"/use_case/work/GPU/fraction","value":0},{"op":"replace","path":"/use_case/work/CPU/fraction","value":0}])", "/use_case/work", "at least one IP needs a fraction > 0");
        row("work for an unknown IP", R"([{"op":"add","path":"/use_case/work/NPU","value":{"fraction":0,"intensity_ops_per_byte":1}}])", "/use_case/work/NPU", "no IP named \"NPU\"");
        row("IP without work entry", R"([{"op":"remove","path":"/use_case/work/GPU"}])", "/use_case/work/GPU", "has no work entry");
        row("duplicate IP name", R"([{"op":"replace","path":"/soc/ips/1/name","value":"CPU"}])", "/soc/ips/1/name", "duplicate IP name");
        row("empty IP name", R"([{"op":"replace","path":"/soc/ips/1/name","value":""}])", "/soc/ips/1/name", "must not be empty");
        row("bad colour", R"([{"op":"replace","path":"/soc/ips/0/color","value":"blue"}])", "/soc/ips/0/color", "#rrggbb");
        row("bad colour reported with other errors", R"([{"op":"replace","path":"/soc/ips/0/color","value":"blue"},{"op":"remove","path":"/soc/ppeak_gops"}])", "/soc/ips/0/color", "#rrggbb");
        row("no IPs", R"([{"op":"replace","path":"/soc/ips","value":[]}])", "/soc/ips", "at least one IP");
        row("IPs not an array", R"([{"op":"replace","path":"/soc/ips","value":{}}])", "/soc/ips", "expected an array");
        row("bus reference unknown", R"([{"op":"add","path":"/soc/ips/1/buses","value":["NoC"]}])", "/soc/ips/1/buses/0", "no bus named \"NoC\"");
        row("duplicate bus", R"([{"op":"add","path":"/soc/buses","value":[{"name":"A","bandwidth_gbps":1},{"name":"A","bandwidth_gbps":2}]}])", "/soc/buses/1/name", "duplicate bus name");
        row("zero bus bandwidth", R"([{"op":"add","path":"/soc/buses","value":[{"name":"A","bandwidth_gbps":0}]}])", "/soc/buses/0/bandwidth_gbps", "must be > 0");
        row("miss ratio above 1", R"([{"op":"add","path":"/soc/memory_side_memory","value":{}},{"op":"add","path":"/use_case/work/GPU/miss_ratio","value":1.2}])", "/use_case/work/GPU/miss_ratio", "must be >= 0 and <= 1");
        row("miss ratio without cache", R"([{"op":"add","path":"/use_case/work/GPU/miss_ratio","value":0.5}])", "/use_case/work/GPU/miss_ratio", "a miss ratio needs a memory-side memory");
        row("unknown schedule", R"([{"op":"add","path":"/use_case/schedule","value":"parallel"}])", "/use_case/schedule", "expected \"concurrent\" or \"serialized\"");
        row("msm bandwidth zero", R"([{"op":"add","path":"/soc/memory_side_memory","value":{"bandwidth_gbps":0}}])", "/soc/memory_side_memory/bandwidth_gbps", "must be > 0");
        row("missing use case", R"([{"op":"remove","path":"/use_case"}])", "/use_case", "required field is missing");
    }
    void errors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, pointer);
        QFETCH(QString, message);

        std::string text;
        if (patch.startsWith(QLatin1String("RAW:"))) {
            text = patch.mid(4).toStdString();
        } else if (patch.startsWith(QLatin1String("RAW_REPLACE:"))) {
            const QStringList parts = patch.mid(12).split(QLatin1Char('|'));
            text = QString::fromStdString(validDocument().dump()).replace(parts[0], parts[1]).toStdString();
        } else {
            text = validDocument().patch(json::parse(patch.toStdString())).dump();
        }
        const LoadResult r = parseSoc(text, "bad.json");
        QVERIFY(!r.soc);
        const auto errors = r.diagnostics.errors();
        QVERIFY(!errors.empty());
        bool found = false;
        QString all;
        for (const Diagnostic &d : errors) {
            QCOMPARE(d.file, std::string("bad.json"));
            all += QString::fromStdString(d.toString()) + QLatin1Char('\n');
            if (QString::fromStdString(d.pointer) == pointer
                && QString::fromStdString(d.message).contains(message))
                found = true;
        }
        QVERIFY2(found, qPrintable(QStringLiteral("expected %1: ...%2..., got:\n%3").arg(pointer, message, all)));
    }

    void fractionOverrideThatCannotHold()
    {
        // With one IP the work has nowhere else to go: say so instead of silently keeping f = 1.
        json doc = validDocument();
        doc["soc"]["ips"].erase(1);
        doc["use_case"]["work"].erase("GPU");
        doc["use_case"]["work"]["CPU"]["fraction"] = 1;
        LoadResult r = parseSoc(doc.dump(), "one.json");
        QVERIFY2(r.soc, r.diagnostics.toString().c_str());
        Soc soc = *r.soc;
        Diagnostics diagnostics;
        QVERIFY(!applyOverride(soc, "/use_case/work/CPU/fraction=0", diagnostics));
        QVERIFY2(diagnostics.toString().find("no other IP can take the rest of the work") != std::string::npos,
                 diagnostics.toString().c_str());
        QVERIFY(applyOverride(soc, "/use_case/work/CPU/fraction=1", diagnostics)); // a no-op is fine
    }

    void missingFile()
    {
        const LoadResult r = loadSocFile("/nonexistent/soc.json");
        QVERIFY(!r.soc);
        QCOMPARE(r.diagnostics.errors().at(0).toString(),
                 std::string("/nonexistent/soc.json: cannot open the file for reading: no such file"));
    }

    void overrides_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("attainable");
        QTest::addColumn<QString>("message");

        QTest::newRow("fig6c via Bpeak") << "/soc/bpeak_gbps=30" << true << 2.0 << "";
        QTest::newRow("no leading slash") << "soc/bpeak_gbps=30" << true << 2.0 << "";
        QTest::newRow("IP by index") << "/use_case/work/1/intensity_ops_per_byte=8" << true << 1 / (0.25 / 8 + 0.75 / 8) * 10 << "";
        QTest::newRow("fraction rebalances") << "/use_case/work/GPU/fraction=0" << true << 40.0 << "";
        QTest::newRow("unknown parameter") << "/soc/ips/GPU/speed=3" << false << 0.0 << "unknown parameter";
        QTest::newRow("unknown IP") << "/soc/ips/NPU/acceleration=3" << false << 0.0 << "no IP named or numbered \"NPU\"";
        QTest::newRow("not a number") << "/soc/bpeak_gbps=fast" << false << 0.0 << "expected a finite number";
        QTest::newRow("NaN") << "/soc/bpeak_gbps=nan" << false << 0.0 << "expected a finite number";
        QTest::newRow("zero") << "/soc/bpeak_gbps=0" << false << 0.0 << "must be > 0";
        QTest::newRow("negative") << "/soc/ips/CPU/acceleration=-1" << false << 0.0 << "must be > 0";
        QTest::newRow("no equals sign") << "/soc/bpeak_gbps" << false << 0.0 << "expected POINTER=VALUE";
        QTest::newRow("miss ratio") << "/use_case/work/GPU/miss_ratio=0.2" << true << 2.0 << "";
        QTest::newRow("fraction out of range") << "/use_case/work/GPU/fraction=2" << false << 0.0 << "must be >= 0 and <= 1";
    }
    void overrides()
    {
        QFETCH(QString, assignment);
        QFETCH(bool, ok);
        QFETCH(double, attainable);
        QFETCH(QString, message);

        LoadResult r = parseSoc(validDocument().dump(), "t.json");
        QVERIFY(r.soc);
        Soc soc = *r.soc;
        const Soc before = soc;
        Diagnostics diagnostics;
        QCOMPARE(applyOverride(soc, assignment.toStdString(), diagnostics), ok);
        if (ok) {
            ROOFLINE_COMPARE_REL(evaluate(soc).attainableGops, attainable, 1e-12);
        } else {
            QVERIFY(soc == before); // a rejected override changes nothing
            QVERIFY2(QString::fromStdString(diagnostics.toString()).contains(message),
                     diagnostics.toString().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestGablesIo)
#include "tst_gables_io.moc"
