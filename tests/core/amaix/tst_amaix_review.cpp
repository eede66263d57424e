// The AMAIX design-review pieces of the core: the accelerator writer
// round-trips through the strict reader, the sensitivity rows are the model's
// own numbers (pinned on shipped examples), and the snapshot comparison.
#include "amaix/comparison.h"
#include "amaix/io.h"
#include "amaix/layersummary.h"
#include "amaix/sensitivity.h"
#include "amaixtestutils.h"
#include "testutils.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace roofline;
using namespace roofline::amaix;

namespace {

Accelerator withOverride(Accelerator acc, const std::string &assignment)
{
    Diagnostics d;
    if (!applyOverride(acc, assignment, d))
        qFatal("%s", d.toString().c_str());
    return acc;
}

const Sensitivity *row(const std::vector<Sensitivity> &rows, const std::string &pointer)
{
    for (const Sensitivity &r : rows) {
        if (r.pointer == pointer)
            return &r;
    }
    return nullptr;
}

Accelerator roundTrip(const Accelerator &acc)
{
    const AcceleratorLoad back = parseAccelerator(serialize(acc), "written.json");
    if (!back.accelerator)
        qFatal("%s", back.diagnostics.toString().c_str());
    return *back.accelerator;
}

} // namespace

class TestAmaixReview : public QObject {
    Q_OBJECT
private slots:
    void writerRoundTripsEveryShippedAccelerator_data()
    {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix"));
        int accelerators = 0;
        for (const QString &name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            std::ifstream in(dir.filePath(name).toStdString());
            std::stringstream text;
            text << in.rdbuf();
            if (text.str().find("\"roofline-studio/amaix-accelerator\"") == std::string::npos)
                continue;
            QTest::newRow(qPrintable(name)) << name;
            ++accelerators;
        }
        QVERIFY(accelerators >= 4); // nv_full, nv_large, nv_small, generic DLA
    }
    void writerRoundTripsEveryShippedAccelerator()
    {
        QFETCH(QString, file);
        const Accelerator original = amaixtest::accelerator(file.toStdString());
        const std::string written = serialize(original);
        const AcceleratorLoad back = parseAccelerator(written, "written.json");
        QVERIFY2(back.accelerator, back.diagnostics.toString().c_str());
        QVERIFY(back.diagnostics.warnings().empty());
        QVERIFY(*back.accelerator == original); // every field, mapping, pipeline...
        QCOMPARE(back.accelerator->sources, original.sources); // ...and every number's source
        QVERIFY(!original.sources.empty());
        // Writing again gives the same text: the writer is deterministic.
        QCOMPARE(serialize(*back.accelerator), written);
    }

    void writerKeepsEdits()
    {
        // Slider edits, a general-model switch and a source-less number survive a round trip.
        Accelerator acc = amaixtest::accelerator("generic_dla.json");
        acc = withOverride(acc, "/memories/DRAM/bandwidth_gbps=51.2");
        acc = withOverride(acc, "/clock_ghz=1.25");
        acc.sources.erase("/clock_ghz");
        acc.description.clear();
        QVERIFY(roundTrip(acc) == acc);
        const nlohmann::json j = toJson(acc);
        QCOMPARE(j["clock_ghz"].get<double>(), 1.25); // plain number: no source known
        QCOMPARE(j["memories"]["DRAM"]["bandwidth_gbps"]["value"].get<double>(), 51.2);
        QVERIFY(!j.contains("description"));

        Accelerator nv = amaixtest::accelerator("nv_small.json");
        nv = withOverride(nv, "/scaling/cbuf_bytes=65536");
        nv.nvdla.tiling = false;
        QVERIFY(roundTrip(nv) == nv);
    }

    void settableParametersMatchOverrides()
    {
        // Everything listed is what --set accepts, and nothing --set accepts for the panel is missing.
        const Accelerator nv = amaixtest::accelerator("nv_full.json");
        const auto list = settableParameters(nv, "fp16");
        QStringList pointers;
        for (const SettableParameter &p : list)
            pointers << QString::fromStdString(p.pointer);
        QCOMPARE(pointers,
            QStringList({ "/clock_ghz", "/data_types/fp16/t_k", "/scaling/t_c", "/units/CDP/ops_per_cycle",
                "/units/PDP/ops_per_cycle", "/units/SDP/ops_per_cycle", "/units/SDP_EW/ops_per_cycle",
                "/memories/DRAM/bandwidth_gbps", "/data_types/fp16/bytes", "/scaling/cbuf_bytes", "/scaling/cbuf_banks",
                "/scaling/cbuf_entry_bytes", "/scaling/atom_axi_bytes", "/scaling/atom_nvdla_bytes" }));
        for (const SettableParameter &p : list) {
            QVERIFY(!p.unit.empty() && !p.description.empty() && !p.label.empty());
            Diagnostics d;
            QVERIFY2(resolveParameter(nv, p.pointer, d), p.pointer.c_str());
        }
        // The general model: every unit has a peak, no NVDLA parameters.
        const auto general = settableParameters(amaixtest::accelerator("generic_dla.json"), "int8");
        QCOMPARE(general.size(), std::size_t(6)); // clock, 3 units, DRAM, element width
        // Names are escaped as JSON pointer tokens, so every pointer resolves.
        Accelerator odd = amaixtest::accelerator("generic_dla.json");
        odd.units[std::size_t(odd.unitIndex("VECTOR"))].name = "VEC/TOR~1";
        const auto escaped = settableParameters(odd, "int8");
        QVERIFY(std::any_of(escaped.begin(), escaped.end(),
            [](const SettableParameter &p) { return p.pointer == "/units/VEC~1TOR~01/ops_per_cycle"; }));
        QCOMPARE(escaped.size(), std::size_t(6));
        QCOMPARE(activeDataType(amaixtest::network("lenet.json"), nv, Options {}), std::string("fp16"));
        QCOMPARE(activeDataType(amaixtest::network("lenet.json"), nv, Options { "int8", false }), std::string("int8"));
    }

    void sensitivityOfAMemoryBoundDesign()
    {
        // Generic DLA with compute roofs 10^4 times higher: every pipe of LeNet is
        // memory-bound, so the time is Σ bytes / B and scales exactly as 1/B:
        // +10 % bandwidth gives time / 1.1, −10 % gives time / 0.9. The clock and
        // the unit peaks then change nothing, and under the general model the
        // element width is no factor (one byte per element; 1 ± 10 % rounds to 1).
        const Network net = amaixtest::network("lenet.json");
        Accelerator acc = amaixtest::accelerator("generic_dla.json");
        for (const char *unit : { "MAC_ARRAY", "VECTOR", "POOL" })
            acc = withOverride(acc, std::string("/units/") + unit + "/ops_per_cycle=1e7");
        const Result base = evaluate(net, acc);
        QVERIFY(base.ok());
        for (const Pipe &p : base.pipes)
            QVERIFY(p.onHost || p.bound == Bound::Memory);

        const auto rows = sensitivity(net, acc, Options {}, 0.1);
        QCOMPARE(rows.size(), std::size_t(6));
        QCOMPARE(rows[0].pointer, std::string("/memories/DRAM/bandwidth_gbps"));
        QCOMPARE(rows[0].label, std::string("DRAM bandwidth"));
        QCOMPARE(rows[0].lowValue, 25.6 * 0.9);
        QCOMPARE(rows[0].highValue, 25.6 * 1.1);
        ROOFLINE_COMPARE_REL(rows[0].highNs, base.totalNs / 1.1, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].lowNs, base.totalNs / 0.9, 1e-12);
        for (std::size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].swing(), 0.0);
            QCOMPARE(rows[i].lowNs, base.totalNs);
        }
        const Sensitivity *width = row(rows, "/data_types/fp16/bytes");
        QVERIFY(width);
        QCOMPARE(width->lowValue, 2.0); // 2 B ± 10 % rounds back to 2 B
        QCOMPARE(width->highValue, 2.0);

        // A 25 % step: 0.75 and 1.25 of the bandwidth.
        const auto quarter = sensitivity(net, acc, Options {}, 0.25);
        ROOFLINE_COMPARE_REL(quarter[0].highNs, base.totalNs / 1.25, 1e-12);
    }

    void sensitivityOfAlexNetOnNvFull()
    {
        // Every row is the model evaluated with that one number moved, exactly as --set moves it.
        const Network net = amaixtest::network("alexnet.json");
        const Accelerator acc = amaixtest::accelerator("nv_full.json");
        const Options options { "", true };
        const auto rows = sensitivity(net, acc, options, 0.1);
        QCOMPARE(rows.size(), std::size_t(14));
        for (const Sensitivity &r : rows) {
            for (const auto &[value, ns, feasible] :
                { std::tuple(r.lowValue, r.lowNs, r.lowFeasible), std::tuple(r.highValue, r.highNs, r.highFeasible) }) {
                if (!feasible)
                    continue;
                const Accelerator moved = withOverride(acc, r.pointer + "=" + formatNumber(value, 17));
                const Result expected = evaluate(net, moved, options);
                QVERIFY(expected.ok());
                QCOMPARE(ns, expected.totalNs);
            }
        }
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(rows[i - 1].swing() >= rows[i].swing());
        // Integral numbers round: T_k 16 → 14.4 → 14 and 17.6 → 18; the CBUF 512 KiB ± 10 % to whole bytes.
        const Sensitivity *tk = row(rows, "/data_types/fp16/t_k");
        QVERIFY(tk);
        QCOMPARE(tk->lowValue, 14.0);
        QCOMPARE(tk->highValue, 18.0);
        const Sensitivity *cbuf = row(rows, "/scaling/cbuf_bytes");
        QVERIFY(cbuf);
        QCOMPARE(cbuf->lowValue, 471859.0);
        QCOMPARE(cbuf->highValue, 576717.0);
        // Pinned (refined, 5.405438 ms): the clock matters most, then the MAC array's T_k, then DRAM
        // bandwidth; the element width (2 B ± 10 % rounds to 2 B) and the SDPs (hidden in the
        // convolutions' pipes) not at all.
        ROOFLINE_COMPARE_REL(evaluate(net, acc, options).totalNs, 5405438.0, 1e-12);
        QCOMPARE(rows[0].pointer, std::string("/clock_ghz"));
        ROOFLINE_COMPARE_REL(rows[0].lowNs, 5797068.0, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].highNs, 5085013.4545454551, 1e-12);
        QCOMPARE(rows[1].pointer, std::string("/data_types/fp16/t_k"));
        QCOMPARE(rows[2].pointer, std::string("/memories/DRAM/bandwidth_gbps"));
        ROOFLINE_COMPARE_REL(rows[2].highNs, 5234459.0909090918, 1e-12);
        QCOMPARE(rows.back().pointer, std::string("/data_types/fp16/bytes"));
        QCOMPARE(rows.back().swing(), 0.0);
        // A CBUF entry below the 32-B atom is refused by validate(): flagged, current time kept.
        Accelerator tight = withOverride(acc, "/scaling/cbuf_entry_bytes=32");
        const auto tightRows = sensitivity(net, tight, options, 0.1);
        const Sensitivity *entry = row(tightRows, "/scaling/cbuf_entry_bytes");
        QVERIFY(entry);
        QVERIFY(!entry->lowFeasible);
        QCOMPARE(entry->lowNs, evaluate(net, tight, options).totalNs);
        // An infeasible configuration has no sensitivity.
        QVERIFY(sensitivity(amaixtest::network("vgg16.json"), acc, options, 0.1).empty());
        // Shared among threads (the view's live tornado): the same rows, in the same order,
        // whatever the count, the tight accelerator's flags too.
        for (unsigned threads : { 2u, 3u, 4u, 14u, 64u }) {
            QVERIFY(sensitivity(net, acc, options, 0.1, threads) == rows);
            QVERIFY(sensitivity(net, tight, options, 0.1, threads) == tightRows);
        }
        QVERIFY(sensitivity(amaixtest::network("vgg16.json"), acc, options, 0.1, 2).empty());
    }

    void comparison()
    {
        const Network net = amaixtest::network("lenet.json");
        Accelerator acc = amaixtest::accelerator("generic_dla.json");
        for (const char *unit : { "MAC_ARRAY", "VECTOR", "POOL" })
            acc = withOverride(acc, std::string("/units/") + unit + "/ops_per_cycle=1e7");
        const Accelerator faster = withOverride(acc, "/memories/DRAM/bandwidth_gbps=" + formatNumber(25.6 * 1.25, 17));
        const Result base = evaluate(net, acc), now = evaluate(net, faster);
        const SummaryTotals baseTotals = summarizeTotals(summarizeLayers(net, base), base);
        const SummaryTotals nowTotals = summarizeTotals(summarizeLayers(net, now), now);
        const SnapshotComparison c = compareSnapshot(now, nowTotals, base, baseTotals);
        QVERIFY(c.currentOk && c.baselineOk);
        ROOFLINE_COMPARE_REL(c.relativeChange, 1 / 1.25 - 1, 1e-12); // memory-bound: time × 0.8
        ROOFLINE_COMPARE_REL(c.changeNs, now.totalNs - base.totalNs, 1e-12);
        QCOMPARE(c.currentFps, now.fps);
        QCOMPARE(c.baselineComputeBound, 0);
        QCOMPARE(c.currentTimed, nowTotals.timedLayers);
        const std::string text = summarize(c, "baseline");
        QVERIFY2(text.find("\u221220.0% (") != std::string::npos, text.c_str());
        QVERIFY2(text.find(" vs baseline (") != std::string::npos, text.c_str());
        QVERIFY2(text.find("compute-bound layers 0 \u2192 0") != std::string::npos, text.c_str());
        QVERIFY2(text.rfind("Inference " + formatNumber(now.totalNs * 1e-3, 4) + " \u00b5s (", 0) == 0, text.c_str());

        // Same configuration: no change, with a plus sign; an infeasible baseline says why.
        QVERIFY(summarize(compareSnapshot(base, baseTotals, base, baseTotals), "b").find("+0.0% (+0 ")
            != std::string::npos);
        const Network vgg = amaixtest::network("vgg16.json");
        const Accelerator nv = amaixtest::accelerator("nv_full.json");
        const Result bad = evaluate(vgg, nv);
        QVERIFY(!bad.ok());
        const SnapshotComparison c2 = compareSnapshot(now, nowTotals, bad, SummaryTotals {});
        QVERIFY(!c2.baselineOk);
        QCOMPARE(c2.relativeChange, 0.0);
        QVERIFY(summarize(c2, "old").find("old does not evaluate: ") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestAmaixReview)
#include "tst_amaix_review.moc"
