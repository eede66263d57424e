// Every shipped Verrocchio example runs on the Ascend 310 machine file with a
// pinned total time. The contention micro-benchmarks (seed 001 section 2.2)
// are computed by hand; the kernels' totals are golden values of this model.
#include "testutils.h"
#include "verrocchio/io.h"

#include <QTest>

using namespace roofline::verrocchio;

namespace {

const Machine &ascendMachine()
{
    static const Machine machine = [] {
        const MachineLoadResult r = loadMachineFile(ROOFLINE_EXAMPLES_DIR "/verrocchio/ascend310.json");
        if (!r.machine)
            qFatal("%s", r.diagnostics.toString().c_str());
        return *r.machine;
    }();
    return machine;
}

Result run(const QString &name, Trace *traceOut = nullptr)
{
    const std::string path = ROOFLINE_EXAMPLES_DIR "/verrocchio/" + name.toStdString();
    const TraceLoadResult r = loadTraceFile(path);
    if (!r.trace)
        qFatal("%s", r.diagnostics.toString().c_str());
    if (traceOut)
        *traceOut = *r.trace;
    return simulate(*r.trace, ascendMachine());
}

// Ascend 310 parameters (examples/verrocchio/ascend310.json).
const double kRead = 67 * 0.68, kWrite = 64 * 0.68, kScalar = 0.68, kInit = 150;

} // namespace

class TestVerrocchioExamples : public QObject
{
    Q_OBJECT
private slots:
    void totals_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("totalNs");
        const double se = 65536;
        // MTE2 reads alone until MTE3 (after its nops and Init) joins, then both get B/2.
        const double ts = 400 / kScalar, joined = ts + kInit;
        const double readLeft = se - (joined - kInit) * kRead;
        const double readEnd = joined + readLeft / (kRead / 2);
        const double writeLeft = se - readLeft;
        QTest::newRow("seed 2.2: before contention (1200 nops)")
            << "contention-before.json" << 1200 / kScalar + kInit + se / kWrite;
        QTest::newRow("seed 2.2: during contention (400 nops)")
            << "contention-during.json" << readEnd + writeLeft / kWrite;
        QTest::newRow("seed 2.2: after contention (0 nops, short write)")
            << "contention-after.json" << kInit + 8192 / (kRead / 2) + (se - 8192) / kRead;
        QTest::newRow("double-buffered vector add, one core") << "vector-add-1core.json" << 17079.060579455665;
        QTest::newRow("the same, compact text form") << "vector-add-1core.txt" << 17079.060579455665;
        QTest::newRow("double-buffered vector add, two cores") << "vector-add-2cores.json" << 10017.31946131452;
        QTest::newRow("tiled fp16 matmul, double-buffered L1 and L0") << "matmul-fp16-tiled.json" << 31675.4609306409;
    }
    void totals()
    {
        QFETCH(QString, file);
        QFETCH(double, totalNs);
        const Result r = run(file);
        QVERIFY2(r.ok(), r.error ? r.error->message.c_str() : "");
        QVERIFY(r.warnings.empty());
        ROOFLINE_COMPARE_REL(r.totalNs, totalNs, 1e-9);
        QVERIFY(!r.criticalPath.empty());
    }

    // The seed's three phases: T_e (read end) against T_s (write start) and T_s + T_f (write end).
    void contentionPhases_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("phase"); // 0 before, 1 during, 2 after
        QTest::newRow("before") << "contention-before.json" << 0;
        QTest::newRow("during") << "contention-during.json" << 1;
        QTest::newRow("after") << "contention-after.json" << 2;
    }
    void contentionPhases()
    {
        QFETCH(QString, file);
        QFETCH(int, phase);
        const Result r = run(file);
        QVERIFY(r.ok());
        const auto &t = r.cores[0].instructions;
        const double te = t[0].end, ts = t[4].start, tsPlusTf = t[4].end;
        const int actual = te < ts ? 0 : te < tsPlusTf ? 1 : 2;
        QCOMPARE(actual, phase);
        QCOMPARE(r.contention.empty(), phase == 0);
        for (const ContentionInterval &ci : r.contention) {
            for (const Share &s : r.sharesOf(ci))
                ROOFLINE_COMPARE_REL(s.rateGBps, kRead / 2, 1e-12); // equal shares of B_bus
        }
    }

    // The same kernel on two cores: vector work halves, bus traffic does not.
    void oneVersusTwoCores()
    {
        Trace one, two;
        const Result r1 = run(QStringLiteral("vector-add-1core.json"), &one);
        const Result r2 = run(QStringLiteral("vector-add-2cores.json"), &two);
        QCOMPARE(two.cores.size(), std::size_t(2));
        const TraceBounds b1 = traceBounds(one, ascendMachine()), b2 = traceBounds(two, ascendMachine());
        QCOMPARE(b1.busBytes, b2.busBytes);
        QVERIFY(r2.totalNs < r1.totalNs);
        QVERIFY(r2.totalNs >= b2.lowerBoundNs);
        QVERIFY(r1.totalNs >= b1.lowerBoundNs);
        QVERIFY(r2.contentionNs > r1.contentionNs);
        ROOFLINE_COMPARE_REL(r2.cores[1].startNs, 61.0, 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestVerrocchioExamples)
#include "tst_verrocchio_examples.moc"
