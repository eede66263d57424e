// The Gables sensitivity at the view's largest size: the rows are what moving
// each parameter on a copy of the SoC and evaluating it gives, bit for bit,
// whatever the number of threads, and computing them no longer builds a
// Result per evaluation (counted as heap allocations).
#include "gables/model.h"
#include "gables/sensitivity.h"

#include <QTest>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {
// Heap allocations of this program while counting (the sensitivity's cost that
// grows with its evaluations: evaluate() allocated its term lists each time).
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
} // namespace

namespace {
void *counted(std::size_t size) noexcept
{
    if (g_counting.load(std::memory_order_relaxed))
        g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
} // namespace

// Every unaligned form, so that each new pairs with its delete (ASan checks it).
void *operator new(std::size_t size)
{
    if (void *p = counted(size))
        return p;
    throw std::bad_alloc();
}
void *operator new[](std::size_t size)
{
    if (void *p = counted(size))
        return p;
    throw std::bad_alloc();
}
void *operator new(std::size_t size, const std::nothrow_t &) noexcept { return counted(size); }
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept { return counted(size); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

using namespace roofline::gables;

namespace {

// The benchmark's SoC (tests/bench/roofline_bench.cpp makeSoc), with the extensions on request.
Soc manyIps(int n, bool extensions, bool serialized = false)
{
    Soc soc;
    soc.name = std::to_string(n) + "-IP SoC";
    soc.ppeakGops = 50;
    soc.bpeakGBps = 60;
    for (int i = 0; i < n; ++i) {
        Ip ip = Ip::make("IP" + std::to_string(i), 1 + (i % 7) * 3.5, 5 + (i % 5) * 4, 1.0 / n, 0.25 * (1 + i % 9));
        if (extensions) {
            ip.missRatio = 0.2 + 0.1 * (i % 7);
            ip.buses = { i % 2 ? "NoC" : "AXI" };
            if (i % 5 == 0)
                ip.buses.push_back("DDRC");
        }
        soc.ips.push_back(ip);
    }
    if (n > 2)
        setFraction(soc.ips, 2, 0); // an idle IP: not probed, not evaluated
    if (extensions) {
        soc.memorySideMemory = true;
        soc.msmBandwidthGBps = 90;
        soc.buses = { { "AXI", 40, "" }, { "NoC", 25, "" }, { "DDRC", 70, "" } };
    }
    soc.serialized = serialized;
    return soc;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestGablesSensitivity : public QObject
{
    Q_OBJECT
private slots:
    void rows_data()
    {
        QTest::addColumn<int>("ips");
        QTest::addColumn<bool>("extensions");
        QTest::addColumn<bool>("serialized");
        QTest::newRow("1 IP") << 1 << false << false;
        QTest::newRow("2 IPs") << 2 << false << false;
        QTest::newRow("64 IPs (the benchmark's)") << 64 << false << false;
        QTest::newRow("64 IPs, cache and buses") << 64 << true << false;
        QTest::newRow("16 IPs, serialized") << 16 << true << true;
    }
    // Each row is the P_att evaluate() gives with its parameter moved on a copy of the SoC:
    // the same doubles, whatever the number of threads, in the same order.
    void rows()
    {
        QFETCH(int, ips);
        QFETCH(bool, extensions);
        QFETCH(bool, serialized);
        const Soc soc = manyIps(ips, extensions, serialized);
        const std::vector<Sensitivity> rows = sensitivity(soc, 0.1);
        std::size_t expected = 2 + (extensions ? 1 + soc.buses.size() : 0);
        for (const Ip &ip : soc.ips)
            expected += ip.isActive() ? 3 + (ips > 1) + extensions : 0;
        QCOMPARE(rows.size(), expected);
        for (const Sensitivity &row : rows) {
            const auto at = [&](double value) {
                // A whole copy moved by the row's pointer, as the probes did before they shared one.
                Soc moved = soc;
                const std::string name = row.pointer.substr(row.pointer.rfind('/') + 1);
                const auto ipIndex = [&] {
                    for (std::size_t i = 0; i < moved.ips.size(); ++i)
                        if (row.pointer.find("/" + moved.ips[i].name + "/") != std::string::npos)
                            return i;
                    return moved.ips.size();
                };
                if (row.pointer == "/soc/ppeak_gops")
                    moved.ppeakGops = value;
                else if (row.pointer == "/soc/bpeak_gbps")
                    moved.bpeakGBps = value;
                else if (row.pointer == "/soc/memory_side_memory/bandwidth_gbps")
                    moved.msmBandwidthGBps = value;
                else if (row.pointer.rfind("/soc/buses/", 0) == 0) {
                    for (Bus &bus : moved.buses)
                        if (row.pointer == "/soc/buses/" + bus.name + "/bandwidth_gbps")
                            bus.bandwidthGBps = value;
                } else if (name == "acceleration")
                    moved.ips[ipIndex()].acceleration = value;
                else if (name == "bandwidth_gbps")
                    moved.ips[ipIndex()].bandwidthGBps = value;
                else if (name == "intensity_ops_per_byte")
                    moved.ips[ipIndex()].intensity = value;
                else if (name == "fraction")
                    setFraction(moved.ips, ipIndex(), value);
                else if (name == "miss_ratio")
                    moved.ips[ipIndex()].missRatio = value;
                else
                    qFatal("unknown row %s", row.pointer.c_str());
                return evaluate(moved).attainableGops;
            };
            QVERIFY2(sameBits(row.lowGops, at(row.lowValue)), row.label.c_str());
            QVERIFY2(sameBits(row.highGops, at(row.highValue)), row.label.c_str());
        }
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(rows[i - 1].swing() >= rows[i].swing());
        // Shared among threads (the view's live tornado): the same rows in the same order.
        for (unsigned threads : { 2u, 3u, 4u, 14u, 64u, 1000u })
            QVERIFY(sensitivity(soc, 0.1, threads) == rows);
    }

    // attainableGops() is evaluate()'s P_att, bit for bit, without allocating.
    void attainableGopsIsEvaluates()
    {
        std::vector<Soc> socs;
        for (int n : { 1, 2, 3, 17, 64 }) {
            for (bool extensions : { false, true }) {
                socs.push_back(manyIps(n, extensions));
                socs.push_back(manyIps(n, extensions, true));
            }
        }
        // Every kind of term in turn the largest: compute, link, memory, cache, a bus.
        Soc soc = manyIps(8, true);
        for (double ppeak : { 1e-3, 50.0 })
            for (double bpeak : { 1e-3, 60.0 })
                for (double msm : { 0.0, 1e-3, 90.0 })
                    for (double bus : { 1e-3, 40.0 }) {
                        soc.ppeakGops = ppeak;
                        soc.bpeakGBps = bpeak;
                        soc.msmBandwidthGBps = msm;
                        soc.buses[1].bandwidthGBps = bus;
                        socs.push_back(soc);
                    }
        Soc allIdle = manyIps(3, false);
        for (Ip &ip : allIdle.ips)
            ip.fraction = 0;
        socs.push_back(allIdle);
        for (const Soc &s : socs) {
            const double expected = evaluate(s).attainableGops;
            g_allocations = 0;
            g_counting = true;
            const double lean = attainableGops(s);
            g_counting = false;
            QVERIFY2(sameBits(lean, expected), qPrintable(QString::number(lean, 'g', 17)));
            QCOMPARE(g_allocations.load(), 0L);
        }
    }

    // The sensitivity's allocations are its rows' names, not its evaluations: at 64 IPs
    // (63 active: 254 rows, 508 evaluations) evaluate() made at least three per evaluation.
    void sensitivityDoesNotAllocatePerEvaluation()
    {
        const Soc soc = manyIps(64, false);
        g_allocations = 0;
        g_counting = true;
        const std::vector<Sensitivity> rows = sensitivity(soc, 0.1);
        g_counting = false;
        QCOMPARE(rows.size(), std::size_t(2 + 63 * 4));
        qInfo("%ld allocations for %zu rows", g_allocations.load(), rows.size());
        QVERIFY(g_allocations.load() < long(2 * rows.size()));
    }
};

QTEST_GUILESS_MAIN(TestGablesSensitivity)
#include "tst_gables_sensitivity.moc"
