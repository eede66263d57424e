// The Verrocchio sensitivity (total time when one machine parameter moves by
// ±step) and the snapshot comparison, against hand-computed values: a single
// MTE2 transfer takes Init + bytes / min(Th, B_bus).
#include "builders.h"
#include "testutils.h"
#include "verrocchio/comparison.h"
#include "verrocchio/io.h"
#include "verrocchio/sensitivity.h"
#include "verrocchio/simulation.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <sstream>

using namespace roofline::verrocchio;
using testbuild::ProgramBuilder;
using testbuild::unitMachine;

namespace {

// One MTE2 transfer of `bytes` on a machine with MTE2 Th = th, Init = init, B_bus = bus.
Trace oneTransfer(double bytes)
{
    Trace trace;
    ProgramBuilder(trace, 0).work(Pipe::MTE2, bytes, "copy_gm_to_ubuf");
    return trace;
}

Machine transferMachine(double th, double init, double bus)
{
    Machine m = unitMachine();
    m.pipe(Pipe::MTE2) = {th, init};
    m.busGBps = bus;
    return m;
}

const Sensitivity *row(const std::vector<Sensitivity> &rows, const std::string &label)
{
    for (const Sensitivity &r : rows) {
        if (r.label == label)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestVerrocchioSensitivity : public QObject
{
    Q_OBJECT
private slots:
    // 1000 B at min(10, 100) GB/s after 50 ns of Init: 150 ns.
    void singleTransferThroughputBound()
    {
        const Trace trace = oneTransfer(1000);
        const Machine m = transferMachine(10, 50, 100);
        ROOFLINE_COMPARE_REL(simulate(trace, m).totalNs, 150.0, 1e-12);
        const auto rows = sensitivity(trace, m, 0.1);
        QCOMPARE(rows.size(), std::size_t(3)); // MTE2 Th, MTE2 Init, B_bus; nothing else runs
        QCOMPARE(rows[0].label, std::string("MTE2 Th"));
        QCOMPARE(rows[0].pointer, std::string("/pipes/MTE2/bandwidth_gbps"));
        QCOMPARE(rows[0].unit, std::string("GB/s"));
        ROOFLINE_COMPARE_REL(rows[0].value, 10.0, 1e-15);
        ROOFLINE_COMPARE_REL(rows[0].lowValue, 9.0, 1e-15);
        ROOFLINE_COMPARE_REL(rows[0].highValue, 11.0, 1e-15);
        ROOFLINE_COMPARE_REL(rows[0].lowNs, 50 + 1000 / 9.0, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].highNs, 50 + 1000 / 11.0, 1e-12);
        QCOMPARE(rows[1].label, std::string("MTE2 Init"));
        QCOMPARE(rows[1].pointer, std::string("/pipes/MTE2/init_ns"));
        ROOFLINE_COMPARE_REL(rows[1].lowNs, 145.0, 1e-12);
        ROOFLINE_COMPARE_REL(rows[1].highNs, 155.0, 1e-12);
        // The bus is ten times faster than the pipe: ±10% of it changes nothing.
        QCOMPARE(rows[2].label, std::string("B_bus"));
        QCOMPARE(rows[2].pointer, std::string("/bus/bandwidth_gbps"));
        ROOFLINE_COMPARE_REL(rows[2].lowNs, 150.0, 1e-12);
        ROOFLINE_COMPARE_REL(rows[2].highNs, 150.0, 1e-12);
        QCOMPARE(rows[2].swing(), 0.0);
    }

    // The same transfer with the bus as the bottleneck: B_bus leads, Th does nothing.
    void singleTransferBusBound()
    {
        const Trace trace = oneTransfer(1000);
        const Machine m = transferMachine(100, 50, 10);
        const auto rows = sensitivity(trace, m, 0.2);
        QCOMPARE(rows[0].label, std::string("B_bus"));
        ROOFLINE_COMPARE_REL(rows[0].lowValue, 8.0, 1e-15);
        ROOFLINE_COMPARE_REL(rows[0].lowNs, 50 + 1000 / 8.0, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].highNs, 50 + 1000 / 12.0, 1e-12);
        const Sensitivity *th = row(rows, "MTE2 Th");
        QVERIFY(th);
        ROOFLINE_COMPARE_REL(th->lowNs, 150.0, 1e-12); // 80 GB/s is still above the 10 GB/s bus
        ROOFLINE_COMPARE_REL(th->highNs, 150.0, 1e-12);
        QCOMPARE(rows.back().label, std::string("MTE2 Th"));
    }

    // Separate read and write bandwidths: only the direction the trace uses.
    void separateBusModeNamesTheDirectionUsed()
    {
        const Trace trace = oneTransfer(1000);
        Machine m = transferMachine(100, 0, 1);
        m.busMode = BusMode::Separate;
        m.readGBps = 10;
        m.writeGBps = 5;
        const auto rows = sensitivity(trace, m, 0.1);
        QVERIFY(row(rows, "Read BW"));
        QCOMPARE(row(rows, "Read BW")->pointer, std::string("/bus/read_gbps"));
        ROOFLINE_COMPARE_REL(row(rows, "Read BW")->lowNs, 1000 / 9.0, 1e-12);
        QVERIFY(!row(rows, "Write BW")); // no MTE3 transfer
        QVERIFY(!row(rows, "B_bus"));    // not used in separate mode
        QVERIFY(!row(rows, "MTE2 Init")); // Init 0 does not move under a relative step
    }

    // Two cores of 100 V ops at 1 Gops/s, core 1 starting δt = 20 ns later: total 120 ns.
    void skewAndComputePipes()
    {
        Trace trace;
        ProgramBuilder(trace, 0).work(Pipe::V, 100, "vadd");
        ProgramBuilder(trace, 1).work(Pipe::V, 100, "vadd");
        const Machine m = unitMachine(2, 20);
        ROOFLINE_COMPARE_REL(simulate(trace, m).totalNs, 120.0, 1e-12);
        const auto rows = sensitivity(trace, m, 0.1);
        QCOMPARE(rows.size(), std::size_t(2)); // V Th and the skew; no bus traffic, every Init is 0
        QCOMPARE(rows[0].label, std::string("V Th"));
        QCOMPARE(rows[0].pointer, std::string("/pipes/V/throughput_gops"));
        QCOMPARE(rows[0].unit, std::string("Gops/s"));
        ROOFLINE_COMPARE_REL(rows[0].lowNs, 20 + 100 / 0.9, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].highNs, 20 + 100 / 1.1, 1e-12);
        QCOMPARE(rows[1].label, std::string("Skew δt"));
        QCOMPARE(rows[1].pointer, std::string("/cores/skew_ns"));
        ROOFLINE_COMPARE_REL(rows[1].lowNs, 118.0, 1e-12);
        ROOFLINE_COMPARE_REL(rows[1].highNs, 122.0, 1e-12);
        // Every row is what simulate() gives with that one value moved through its --set pointer.
        for (const Sensitivity &r : rows) {
            for (auto [value, total] : {std::pair{r.lowValue, r.lowNs}, std::pair{r.highValue, r.highNs}}) {
                Machine moved = m;
                roofline::Diagnostics diagnostics;
                std::ostringstream assignment;
                assignment.precision(17);
                assignment << r.pointer << '=' << value;
                QVERIFY(applyOverride(moved, assignment.str(), diagnostics));
                QCOMPARE(simulate(trace, moved).totalNs, total);
            }
        }
    }

    void stepsAreClampedOrRefused()
    {
        const Trace trace = oneTransfer(1000);
        const Machine m = transferMachine(10, 50, 100);
        // A step of 100%: a rate stays at 1% of its value, a time goes to 0.
        const auto full = sensitivity(trace, m, 1.0);
        ROOFLINE_COMPARE_REL(row(full, "MTE2 Th")->lowValue, 0.1, 1e-12);
        ROOFLINE_COMPARE_REL(row(full, "MTE2 Th")->lowNs, 50 + 1000 / 0.1, 1e-12);
        QCOMPARE(row(full, "MTE2 Init")->lowValue, 0.0);
        ROOFLINE_COMPARE_REL(row(full, "MTE2 Init")->lowNs, 100.0, 1e-12);
        // The limit of a time parameter caps the high side.
        Machine big = m;
        big.pipe(Pipe::MTE2).initNs = Limits::maxInitNs;
        QCOMPARE(row(sensitivity(trace, big, 0.5), "MTE2 Init")->highValue, Limits::maxInitNs);
        for (double bad : {0.0, -0.1, 1.5, std::nan(""), std::numeric_limits<double>::infinity()})
            QVERIFY(sensitivity(trace, m, bad).empty());
    }

    void failingTracesAndCancelGiveNothing()
    {
        Trace deadlock;
        ProgramBuilder(deadlock, 0).wait(Pipe::MTE2, Pipe::V, 1).work(Pipe::V, 10);
        QVERIFY(!simulate(deadlock, unitMachine()).ok());
        QVERIFY(sensitivity(deadlock, unitMachine(), 0.1).empty());
        Trace twoCores;
        ProgramBuilder(twoCores, 0).work(Pipe::V, 10);
        ProgramBuilder(twoCores, 1).work(Pipe::V, 10);
        QVERIFY(sensitivity(twoCores, unitMachine(1), 0.1).empty()); // the machine has one core

        int calls = 0;
        const auto rows = sensitivity(oneTransfer(1000), transferMachine(10, 50, 100), 0.1, [&] { return ++calls > 2; });
        QVERIFY(rows.empty());
        QCOMPARE(calls, 3); // checked before every simulation, stopped at the first "true"
    }

    // Baseline: MTE2 100 B and V 200 ops run side by side; V at 4 Gops/s ends first.
    // Current: V at 1 Gops/s takes 200 ns and becomes the busiest pipe.
    void comparisonByHand()
    {
        Trace trace;
        ProgramBuilder(trace, 0).work(Pipe::MTE2, 100, "copy").work(Pipe::V, 200, "vadd");
        Machine baselineMachine = unitMachine();
        baselineMachine.pipe(Pipe::V).throughput = 4;
        const Result current = simulate(trace, unitMachine());
        const Result baseline = simulate(trace, baselineMachine);
        ROOFLINE_COMPARE_REL(current.totalNs, 200.0, 1e-12);
        ROOFLINE_COMPARE_REL(baseline.totalNs, 100.0, 1e-12);

        const Comparison c = compare(current, baseline);
        ROOFLINE_COMPARE_REL(c.changeNs, 100.0, 1e-12);
        ROOFLINE_COMPARE_REL(c.relativeChange, 1.0, 1e-12);
        QCOMPARE(c.baseline.critical, std::optional<Pipe>(Pipe::MTE2));
        QCOMPARE(c.current.critical, std::optional<Pipe>(Pipe::V));
        ROOFLINE_COMPARE_REL(c.baseline.criticalBusy, 1.0, 1e-12);
        ROOFLINE_COMPARE_REL(c.current.busy[pipeIndex(Pipe::MTE2)], 0.5, 1e-12);
        ROOFLINE_COMPARE_REL(c.baseline.busy[pipeIndex(Pipe::V)], 0.5, 1e-12);
        QVERIFY(c.resourceMoved);
        QCOMPARE(c.contentionChangeNs, 0.0);
        QCOMPARE(QString::fromStdString(summarize(c, "baseline")),
                 QStringLiteral("total 200 ns, +100.0% vs baseline (100 ns); critical resource moved from MTE2 (busy "
                                "100.0%) to V (busy 100.0%); contention 0 ns (±0)"));
        // The other way round: −50%, and the same resource reads as "was busy".
        const Comparison back = compare(baseline, current);
        ROOFLINE_COMPARE_REL(back.relativeChange, -0.5, 1e-12);
        QVERIFY(QString::fromStdString(summarize(back, "slow V")).startsWith(QStringLiteral("total 100 ns, −50.0% vs slow V (200 ns)")));
        const Comparison same = compare(current, current);
        QVERIFY(!same.resourceMoved);
        QVERIFY(QString::fromStdString(summarize(same, "s")).contains(QStringLiteral("critical resource V (busy 100.0%), was busy 100.0%")));
    }

    // Two cores read at once over a 1 GB/s bus: the contention time is the core's own number.
    void comparisonCarriesContention()
    {
        Trace trace;
        ProgramBuilder(trace, 0).work(Pipe::MTE2, 100);
        ProgramBuilder(trace, 1).work(Pipe::MTE2, 100);
        Machine m = unitMachine(2);
        const Result shared = simulate(trace, m);
        QVERIFY(shared.contentionNs > 0);
        m.busGBps = 2;
        const Result wide = simulate(trace, m);
        const Comparison c = compare(shared, wide);
        QCOMPARE(c.current.contentionNs, shared.contentionNs);
        QCOMPARE(c.baseline.contentionNs, wide.contentionNs);
        ROOFLINE_COMPARE_REL(c.contentionChangeNs, shared.contentionNs - wide.contentionNs, 1e-12);
        ROOFLINE_COMPARE_REL(c.current.totalNs, 200.0, 1e-12);
        ROOFLINE_COMPARE_REL(c.baseline.totalNs, 100.0, 1e-12);
    }

    void emptyAndFailedResults()
    {
        const Result empty;
        const Headline h = headline(empty);
        QVERIFY(!h.critical);
        QCOMPARE(h.totalNs, 0.0);
        const Comparison c = compare(empty, empty);
        QCOMPARE(c.relativeChange, 0.0); // no division by a zero baseline
        const std::string text = summarize(c, "b");
        QVERIFY(text.find("nan") == std::string::npos);
        QVERIFY(text.find("critical resource none") != std::string::npos);
    }

    void durations()
    {
        QCOMPARE(QString::fromStdString(formatDuration(12300)), QStringLiteral("12.3 µs"));
        QCOMPARE(QString::fromStdString(formatDuration(999)), QStringLiteral("999 ns"));
        QCOMPARE(QString::fromStdString(formatDuration(2.5e6)), QStringLiteral("2.5 ms"));
        QCOMPARE(QString::fromStdString(formatDuration(std::nan(""))), QStringLiteral("—"));
    }
};

QTEST_GUILESS_MAIN(TestVerrocchioSensitivity)
#include "tst_verrocchio_sensitivity.moc"
