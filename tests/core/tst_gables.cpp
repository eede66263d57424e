// The Gables model against the paper (seed 003, Fig. 6) and its edge cases.
#include "gables/comparison.h"
#include "gables/geometry.h"
#include "gables/model.h"
#include "gables/sensitivity.h"
#include "testutils.h"

#include <QTest>

#include <cmath>

using namespace roofline::gables;
using Kind = Bound::Kind;

Q_DECLARE_METATYPE(roofline::gables::Bound::Kind)
Q_DECLARE_METATYPE(roofline::gables::RoofKind)

namespace {

// Fig. 6 baseline: Ppeak=40 Gops/s, Bpeak=10 GB/s, A0=1, A1=5, B0=6, B1=15, I0=8, I1=0.1.
Soc fig6(double f, double bpeak = 10, double i1 = 0.1)
{
    Soc soc;
    soc.name = "fig6";
    soc.ppeakGops = 40;
    soc.bpeakGBps = bpeak;
    soc.ips = {Ip::make("CPU", 1, 6, 1 - f, 8), Ip::make("GPU", 5, 15, f, i1)};
    return soc;
}

} // namespace

class TestGables : public QObject
{
    Q_OBJECT
private slots:
    void fig6_data()
    {
        QTest::addColumn<double>("f");
        QTest::addColumn<double>("bpeak");
        QTest::addColumn<double>("i1");
        QTest::addColumn<double>("expected");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<int>("ip");
        QTest::addColumn<int>("limitingTerms");

        QTest::newRow("fig6a: f=0, CPU compute") << 0.0 << 10.0 << 0.1 << 40.0 << Kind::IpCompute << 0 << 1;
        QTest::newRow("fig6b: f=0.75, memory") << 0.75 << 10.0 << 0.1 << 1.0 / 0.753125 << Kind::Memory << -1 << 1;
        QTest::newRow("fig6c: Bpeak=30, GPU link") << 0.75 << 30.0 << 0.1 << 2.0 << Kind::IpLink << 1 << 1;
        QTest::newRow("fig6d: I1=8, Bpeak=20, balanced") << 0.75 << 20.0 << 8.0 << 160.0 << Kind::Balanced << -1 << 3;
    }
    void fig6()
    {
        QFETCH(double, f);
        QFETCH(double, bpeak);
        QFETCH(double, i1);
        QFETCH(double, expected);
        QFETCH(Kind, kind);
        QFETCH(int, ip);
        QFETCH(int, limitingTerms);

        const Soc soc = ::fig6(f, bpeak, i1);
        const Result r = evaluate(soc);
        ROOFLINE_COMPARE_REL(r.attainableGops, expected, 1e-12);
        QCOMPARE(r.bound.kind, kind);
        QCOMPARE(r.bound.ip, ip);
        QCOMPARE(int(r.bound.limiting.size()), limitingTerms);
        ROOFLINE_COMPARE_REL(r.timeNs * r.attainableGops, 1.0, 1e-15);
    }

    void fig6b_terms()
    {
        // Every term of Fig. 6b by hand: C0 = 0.25/40, D0 = 0.25/8, C1 = 0.75/200, D1 = 0.75/0.1.
        const Result r = evaluate(::fig6(0.75));
        ROOFLINE_COMPARE_REL(r.ips[0].computeNs, 0.00625, 1e-12);
        ROOFLINE_COMPARE_REL(r.ips[0].dataBytes, 0.03125, 1e-12);
        ROOFLINE_COMPARE_REL(r.ips[0].linkNs, 0.03125 / 6, 1e-12);
        ROOFLINE_COMPARE_REL(r.ips[0].timeNs, 0.00625, 1e-12);
        ROOFLINE_COMPARE_REL(r.ips[1].computeNs, 0.00375, 1e-12);
        ROOFLINE_COMPARE_REL(r.ips[1].dataBytes, 7.5, 1e-12);
        ROOFLINE_COMPARE_REL(r.ips[1].linkNs, 0.5, 1e-12);
        ROOFLINE_COMPARE_REL(r.memoryDataBytes, 7.53125, 1e-12);
        ROOFLINE_COMPARE_REL(r.memoryNs, 0.753125, 1e-12);
        // I_avg is the f-weighted harmonic mean: 1 / (0.25/8 + 0.75/0.1).
        ROOFLINE_COMPARE_REL(r.averageIntensity, 1.0 / 7.53125, 1e-12);
    }

    void fig6a_idleIpContributesNothing()
    {
        // f = 0: the GPU's terms are zero and its I_1 is ignored, even when absurd.
        Soc soc = ::fig6(0.0, 10, 1e-300);
        const Result r = evaluate(soc);
        QVERIFY(!r.ips[1].active);
        QCOMPARE(r.ips[1].timeNs, 0.0);
        QCOMPARE(r.ips[1].dataBytes, 0.0);
        QCOMPARE(r.ips[1].scaledRoofGops, 0.0);
        QCOMPARE(r.attainableGops, 40.0);
        ROOFLINE_COMPARE_REL(r.averageIntensity, 8.0, 1e-15);
        const PlotGeometry g = plotGeometry(soc, r);
        QCOMPARE(int(g.ipRoofs.size()), 1); // the idle GPU's roof is not drawn
        QCOMPARE(g.ipRoofs[0].ip, 0);
    }

    void dualFormEqualsTimeForm_data()
    {
        QTest::addColumn<double>("f");
        QTest::addColumn<double>("bpeak");
        QTest::addColumn<double>("i1");
        for (double f : {0.01, 0.25, 0.5, 0.75, 0.99}) {
            for (double i1 : {0.1, 1.0, 8.0, 64.0})
                QTest::addRow("f=%g I1=%g", f, i1) << f << 10.0 << i1;
        }
    }
    void dualFormEqualsTimeForm()
    {
        // Equations 5-8 (scaled rooflines read at I_i and I_avg) give the same P_att.
        QFETCH(double, f);
        QFETCH(double, bpeak);
        QFETCH(double, i1);
        const Soc soc = ::fig6(f, bpeak, i1);
        const Result r = evaluate(soc);
        double dual = soc.bpeakGBps * r.averageIntensity;
        for (const Ip &ip : soc.ips)
            dual = std::min(dual, std::min(ip.bandwidthGBps * ip.intensity, ip.peakGops(soc.ppeakGops)) / ip.fraction);
        ROOFLINE_COMPARE_REL(r.attainableGops, dual, 1e-12);
        const PlotGeometry g = plotGeometry(soc, r);
        ROOFLINE_COMPARE_REL(g.attainable.y, r.attainableGops, 1e-12);
    }

    void manyIps_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("3 IPs") << 3;
        QTest::newRow("16 IPs") << 16;
        QTest::newRow("64 IPs") << 64;
        QTest::newRow("256 IPs") << 256;
    }
    void manyIps()
    {
        // N identical IPs with equal shares and ample memory bandwidth: each
        // runs f = 1/N of the work at A*Ppeak, so P_att = N * A * Ppeak.
        QFETCH(int, n);
        Soc soc;
        soc.ppeakGops = 10;
        soc.bpeakGBps = 1e6;
        for (int i = 0; i < n; ++i)
            soc.ips.push_back(Ip::make("IP" + std::to_string(i), 2, 1e3, 1.0 / n, 100));
        const Result r = evaluate(soc);
        ROOFLINE_COMPARE_REL(r.attainableGops, n * 20.0, 1e-12);
        QCOMPARE(r.bound.kind, Kind::Balanced); // all N compute roofs are equal
        QCOMPARE(int(r.bound.limiting.size()), n);

        // Starve the memory: now T_mem = (1/100)/Bpeak dominates.
        soc.bpeakGBps = 0.5;
        const Result m = evaluate(soc);
        QCOMPARE(m.bound.kind, Kind::Memory);
        ROOFLINE_COMPARE_REL(m.attainableGops, 50.0, 1e-12);
    }

    void balanceTolerance()
    {
        // Two terms 0.05% apart count as balanced; 0.5% apart they do not.
        Soc soc = ::fig6(0.75, 20, 8);
        soc.bpeakGBps = 20 * (1 + 5e-4);
        QCOMPARE(evaluate(soc).bound.kind, Kind::Balanced);
        soc.bpeakGBps = 20 * 1.005;
        soc.ips[0].bandwidthGBps = 100; // only GPU link vs CPU compute remain; push the CPU below too
        soc.ips[0].acceleration = 1.01;
        QCOMPARE(evaluate(soc).bound.kind, Kind::IpLink);
    }

    void describeBound()
    {
        Soc soc = ::fig6(0.75, 30);
        QCOMPARE(describe(evaluate(soc).bound, soc), std::string("IP[1] GPU link"));
        soc = ::fig6(0.75, 20, 8);
        QCOMPARE(describe(evaluate(soc).bound, soc),
                 std::string("balanced (IP[0] CPU compute, IP[1] GPU link, memory)"));
    }

    void setFraction_data()
    {
        QTest::addColumn<QList<double>>("before");
        QTest::addColumn<QList<bool>>("locked");
        QTest::addColumn<int>("index");
        QTest::addColumn<double>("value");
        QTest::addColumn<QList<double>>("after");

        QTest::newRow("two IPs") << QList<double>{1, 0} << QList<bool>{} << 1 << 0.75 << QList<double>{0.25, 0.75};
        QTest::newRow("proportional") << QList<double>{0.5, 0.3, 0.2} << QList<bool>{} << 0 << 0.0
                                      << QList<double>{0, 0.6, 0.4};
        QTest::newRow("others all zero share equally") << QList<double>{1, 0, 0} << QList<bool>{} << 0 << 0.4
                                                       << QList<double>{0.4, 0.3, 0.3};
        QTest::newRow("locked IP keeps its share") << QList<double>{0.5, 0.3, 0.2} << QList<bool>{false, true, false}
                                                   << 0 << 0.1 << QList<double>{0.1, 0.3, 0.6};
        QTest::newRow("clamped to what locks leave") << QList<double>{0.5, 0.3, 0.2}
                                                     << QList<bool>{false, true, false} << 2 << 0.9
                                                     << QList<double>{0, 0.3, 0.7};
        QTest::newRow("all others locked: fixed") << QList<double>{0.5, 0.5} << QList<bool>{true, false} << 1 << 0.9
                                                  << QList<double>{0.5, 0.5};
        QTest::newRow("NaN is treated as 0") << QList<double>{0.5, 0.5} << QList<bool>{} << 0
                                             << std::numeric_limits<double>::quiet_NaN() << QList<double>{0, 1};
    }
    void setFraction()
    {
        QFETCH(QList<double>, before);
        QFETCH(QList<bool>, locked);
        QFETCH(int, index);
        QFETCH(double, value);
        QFETCH(QList<double>, after);
        std::vector<Ip> ips;
        for (double f : before)
            ips.push_back(Ip::make("x", 1, 1, f, 1));
        ::roofline::gables::setFraction(ips, std::size_t(index), value, std::vector<bool>(locked.begin(), locked.end()));
        for (int i = 0; i < after.size(); ++i)
            ROOFLINE_COMPARE_REL(ips[std::size_t(i)].fraction, after[i], 1e-12);
        ROOFLINE_COMPARE_REL(fractionSum(ips), 1.0, 1e-12);
    }

    void removeIpRebalances()
    {
        Soc soc = ::fig6(0.75);
        removeIp(soc, 1);
        QCOMPARE(soc.ips.size(), std::size_t(1));
        QCOMPARE(soc.ips[0].fraction, 1.0);
        QCOMPARE(uniqueIpName(soc), std::string("IP 1"));
    }

    void geometry_fig6b()
    {
        const Soc soc = ::fig6(0.75);
        const Result r = evaluate(soc);
        const PlotGeometry g = plotGeometry(soc, r);
        QCOMPARE(int(g.ipRoofs.size()), 2);
        // CPU ridge at A0 Ppeak / B0 = 40/6; GPU ridge at 200/15.
        ROOFLINE_COMPARE_REL(g.ipRoofs[0].ridge, 40.0 / 6, 1e-12);
        ROOFLINE_COMPARE_REL(g.ipRoofs[1].ridge, 200.0 / 15, 1e-12);
        // The GPU's scaled roof is flat at A1 Ppeak / f = 200/0.75 to the right of the ridge.
        ROOFLINE_COMPARE_REL(g.ipRoofs[1].points.back().y, 200 / 0.75, 1e-12);
        ROOFLINE_COMPARE_REL(roofValueAt(g.ipRoofs[1], 0.1), 15 * 0.1 / 0.75, 1e-12);
        ROOFLINE_COMPARE_REL(roofValueAt(g.memoryRoof, 3.0), 30.0, 1e-12);
        // Selections: I0, I1 on their roofs, then I_avg on the memory roof.
        QCOMPARE(int(g.selections.size()), 3);
        QCOMPARE(g.selections[2].kind, RoofKind::Memory);
        ROOFLINE_COMPARE_REL(g.attainable.x, r.averageIntensity, 1e-12);
        ROOFLINE_COMPARE_REL(g.attainable.y, 1 / 0.753125, 1e-12);
        // Ranges are whole decades and contain everything selected.
        for (const Selection &s : g.selections) {
            QVERIFY(s.selected.x > g.xRange.lower && s.selected.x < g.xRange.upper);
            QVERIFY(s.selected.y > g.yRange.lower && s.selected.y < g.yRange.upper);
        }
        const double decades = std::log10(g.xRange.lower);
        QCOMPARE(decades, std::round(decades));
    }

    // The ranges a live edit holds: covered as well, the roofs drawn across the wider range,
    // everything else (selections, the attainable point) as without them.
    void geometryCoversHeldRanges()
    {
        const Soc soc = ::fig6(0.75);
        const Result r = evaluate(soc);
        const PlotGeometry fit = plotGeometry(soc, r);
        QCOMPARE(plotGeometry(soc, r, Interval{}, Interval{}), fit); // nothing to cover
        QCOMPARE(plotGeometry(soc, r, fit.xRange, fit.yRange), fit);  // covered already
        const Interval heldX{fit.xRange.lower / 100, fit.xRange.upper};
        const Interval heldY{fit.yRange.lower, fit.yRange.upper * 1000};
        const PlotGeometry held = plotGeometry(soc, r, heldX, heldY);
        QCOMPARE(held.xRange, heldX);
        QCOMPARE(held.yRange, heldY);
        for (const Roof &roof : held.ipRoofs) {
            QCOMPARE(roof.points.front().x, heldX.lower);
            QCOMPARE(roof.points.back().x, heldX.upper);
        }
        QCOMPARE(held.memoryRoof.points.front().x, heldX.lower);
        QCOMPARE(held.selections, fit.selections);
        QCOMPARE(held.attainable, fit.attainable);
        // A held range the fit reaches past grows a decade beyond the fit on that
        // side (a drag that keeps going does not widen the axes at every decade); the
        // side that already covers the fit stays where it was held.
        const Interval inside{fit.xRange.lower * 10, fit.xRange.upper / 10};
        const Interval widened{fit.xRange.lower / 10, fit.xRange.upper * 10};
        QCOMPARE(plotGeometry(soc, r, inside, inside).xRange, widened);
        const Interval lowSide{fit.xRange.lower * 10, fit.xRange.upper * 100};
        QCOMPARE(plotGeometry(soc, r, lowSide, fit.yRange).xRange,
                 (Interval{fit.xRange.lower / 10, fit.xRange.upper * 100}));
        const Interval highSide{fit.yRange.lower / 100, fit.yRange.upper / 10};
        QCOMPARE(plotGeometry(soc, r, fit.xRange, highSide).yRange,
                 (Interval{fit.yRange.lower / 100, fit.yRange.upper * 10}));
    }

    // --- Extensions (models.md 1.4); with them off every number above is unchanged ---

    void memorySideMemory()
    {
        // Fig. 6b with a system cache catching 80% of the GPU's traffic:
        // T_mem = (0.03125 + 0.2 * 7.5) / 10 = 0.153125, below the GPU link's 0.5.
        Soc soc = ::fig6(0.75);
        soc.ips[1].missRatio = 0.2;
        QCOMPARE(evaluate(soc), evaluate(::fig6(0.75))); // miss ratios need the cache switched on
        soc.memorySideMemory = true;
        Result r = evaluate(soc);
        ROOFLINE_COMPARE_REL(r.memoryNs, 0.153125, 1e-12);
        ROOFLINE_COMPARE_REL(r.attainableGops, 2.0, 1e-12);
        QCOMPARE(r.bound.kind, Kind::IpLink);
        ROOFLINE_COMPARE_REL(r.memoryIntensity, 1 / 1.53125, 1e-12);
        ROOFLINE_COMPARE_REL(r.averageIntensity, 1 / 7.53125, 1e-12); // I_avg ignores the cache

        // The cache's own bandwidth sees all traffic: T_msm = 7.53125 / 10.
        soc.msmBandwidthGBps = 10;
        r = evaluate(soc);
        ROOFLINE_COMPARE_REL(r.msmNs, 0.753125, 1e-12);
        QCOMPARE(r.bound.kind, Kind::MemorySideMemory);
        QCOMPARE(describe(r.bound, soc), std::string("memory-side memory"));
        const PlotGeometry g = plotGeometry(soc, r);
        QCOMPARE(int(g.extraRoofs.size()), 1);
        QCOMPARE(g.extraRoofs[0].kind, RoofKind::MemorySideMemory);
        ROOFLINE_COMPARE_REL(g.attainable.y, r.attainableGops, 1e-12);
        ROOFLINE_COMPARE_REL(g.attainable.x, r.averageIntensity, 1e-12);
    }

    void buses()
    {
        // Fig. 6d with both IPs behind one 10 GB/s NoC: T_bus = 0.125 / 10 = 0.0125 ns/op.
        Soc soc = ::fig6(0.75, 20, 8);
        soc.buses = {Bus{"NoC", 10, ""}, Bus{"idle", 1, ""}};
        soc.ips[0].buses = {"NoC"};
        soc.ips[1].buses = {"NoC"};
        const Result r = evaluate(soc);
        ROOFLINE_COMPARE_REL(r.busNs[0], 0.0125, 1e-12);
        QCOMPARE(r.busNs[1], 0.0);
        ROOFLINE_COMPARE_REL(r.attainableGops, 80.0, 1e-12);
        QCOMPARE(r.bound.kind, Kind::Bus);
        QCOMPARE(r.bound.bus, 0);
        QCOMPARE(describe(r.bound, soc), std::string("bus NoC"));
        const PlotGeometry g = plotGeometry(soc, r);
        QCOMPARE(int(g.extraRoofs.size()), 1); // the idle bus is not drawn
        ROOFLINE_COMPARE_REL(g.attainable.x, 8.0, 1e-12);
        ROOFLINE_COMPARE_REL(g.attainable.y, 80.0, 1e-12);
    }

    void serializedWork()
    {
        // Fig. 6d run one IP after the other: T = max(C0, D0/B0, D0/Bpeak) + max(C1, D1/B1, D1/Bpeak)
        //                                       = 0.00625 + 0.00625 = 0.0125 ns/op.
        Soc soc = ::fig6(0.75, 20, 8);
        soc.serialized = true;
        const Result r = evaluate(soc);
        ROOFLINE_COMPARE_REL(r.timeNs, 0.0125, 1e-12);
        ROOFLINE_COMPARE_REL(r.attainableGops, 80.0, 1e-12);
        QCOMPARE(r.bound.kind, Kind::Serialized);
        QCOMPARE(int(r.bound.limiting.size()), 2);
        // Fig. 6b serialized: the GPU's memory time D1/Bpeak = 0.75 dominates its part.
        Soc b = ::fig6(0.75);
        b.serialized = true;
        const Result rb = evaluate(b);
        ROOFLINE_COMPARE_REL(rb.timeNs, 0.00625 + 0.75, 1e-12);
        QCOMPARE(rb.bound.ip, 1);
        QCOMPARE(describe(rb.bound, b), std::string("serialized (longest: IP[1] GPU)"));
        const PlotGeometry g = plotGeometry(b, rb);
        ROOFLINE_COMPARE_REL(g.attainable.y, rb.attainableGops, 1e-12);
    }

    void sensitivityFig6b()
    {
        // Fig. 6b is memory-bound: P_att = Bpeak / Σ D_i moves with Bpeak, I_1 and f.
        const std::vector<Sensitivity> rows = sensitivity(::fig6(0.75), 0.1);
        QCOMPARE(rows[0].label, std::string("Bpeak"));
        QCOMPARE(rows[0].pointer, std::string("/soc/bpeak_gbps"));
        ROOFLINE_COMPARE_REL(rows[0].lowGops, 9.0 / 7.53125, 1e-12);
        ROOFLINE_COMPARE_REL(rows[0].highGops, 11.0 / 7.53125, 1e-12);
        QCOMPARE(rows[1].label, std::string("GPU I"));
        ROOFLINE_COMPARE_REL(rows[1].lowGops, 10.0 / (0.03125 + 0.75 / 0.09), 1e-12);
        QCOMPARE(rows[2].label, std::string("GPU f"));
        ROOFLINE_COMPARE_REL(rows[2].highGops, 10.0 / (0.175 / 8 + 0.825 / 0.1), 1e-12); // CPU rebalanced to 0.175
        // Ppeak and the CPU's roofline do not bind: no swing at all.
        for (const Sensitivity &r : rows) {
            if (r.label == "Ppeak" || r.label == "CPU A" || r.label == "CPU B")
                QCOMPARE(r.swing(), 0.0);
        }
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(rows[i - 1].swing() >= rows[i].swing());
    }

    void sensitivityClampsToRanges()
    {
        // f = 1 cannot go to 1.1; an idle IP is not listed.
        const std::vector<Sensitivity> rows = sensitivity(::fig6(0.0), 0.1);
        for (const Sensitivity &r : rows) {
            QVERIFY(r.label.rfind("GPU", 0) != 0);
            if (r.label == "CPU f")
                QCOMPARE(r.highValue, 1.0);
        }
    }

    void comparisonFig6bTo6d()
    {
        const Soc b = ::fig6(0.75), d = ::fig6(0.75, 20, 8);
        const Comparison c = compare(d, evaluate(d), b, evaluate(b));
        ROOFLINE_COMPARE_REL(c.changeGops, 160 - 1 / 0.753125, 1e-12);
        ROOFLINE_COMPARE_REL(c.relativeChange, 160 * 0.753125 - 1, 1e-12);
        QVERIFY(c.boundMoved);
        QCOMPARE(summarize(c, "fig. 6b"),
                 std::string("P_att 160 Gops/s, +11950.0% vs fig. 6b (1.328 Gops/s); bound moved from memory to "
                             "balanced (IP[0] CPU compute, IP[1] GPU link, memory)"));
        const Comparison same = compare(b, evaluate(b), b, evaluate(b));
        QCOMPARE(same.changeGops, 0.0);
        QVERIFY(!same.boundMoved);
        QCOMPARE(summarize(same, "itself"), std::string("P_att 1.328 Gops/s, +0.0% vs itself (1.328 Gops/s); bound unchanged: memory"));
    }

    void geometryHasNoNaN_data()
    {
        QTest::addColumn<double>("f");
        QTest::newRow("tiny f") << 1e-12;
        QTest::newRow("f=1") << 1.0;
        QTest::newRow("f=0") << 0.0;
    }
    void geometryHasNoNaN()
    {
        QFETCH(double, f);
        const Soc soc = ::fig6(f);
        const Result r = evaluate(soc);
        const PlotGeometry g = plotGeometry(soc, r);
        auto finite = [](const Point &p) { return std::isfinite(p.x) && std::isfinite(p.y) && p.x > 0 && p.y > 0; };
        for (const Roof &roof : g.ipRoofs) {
            for (const Point &p : roof.points)
                QVERIFY(finite(p));
        }
        QVERIFY(finite(g.attainable));
        QVERIFY(std::isfinite(r.attainableGops) && r.attainableGops > 0);
        QVERIFY(g.yRange.upper / g.yRange.lower <= 1e11); // capped: tiny f must not squash the plot
    }
};

QTEST_GUILESS_MAIN(TestGables)
#include "tst_gables.moc"
