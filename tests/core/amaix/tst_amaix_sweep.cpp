// Design-space sweeps (seed 000, section 3.7): grids, the constant-area
// T_k x T_c family of Fig. 13, feasibility, cancellation and speed.
#include "amaix/sweep.h"
#include "amaixtestutils.h"
#include "testutils.h"

#include <QElapsedTimer>
#include <QTest>

using namespace roofline;
using namespace roofline::amaix;

class TestAmaixSweep : public QObject
{
    Q_OBJECT
    Network m_alexnet = amaixtest::network("alexnet.json");
    Accelerator m_nvFull = amaixtest::accelerator("nv_full.json");

private slots:
    void oneAxisMatchesEvaluate()
    {
        SweepSpec spec;
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/memories/DRAM/bandwidth_gbps", 0, {32, 64, 128}});
        Diagnostics d;
        const SweepResult r = runSweep(m_alexnet, m_nvFull, spec, d);
        QVERIFY2(r.ok, d.toString().c_str());
        QCOMPARE(r.points.size(), std::size_t(3));
        QCOMPARE(r.completed, std::size_t(3));
        QCOMPARE(r.points[1].x, 64.0);
        QCOMPARE(r.points[1].status, Status::Ok);
        ROOFLINE_COMPARE_REL(r.points[1].totalNs, evaluate(m_alexnet, m_nvFull).totalNs, 1e-15);
        QVERIFY(r.points[0].totalNs > r.points[1].totalNs && r.points[1].totalNs > r.points[2].totalNs);
    }

    void twoAxesXFastest()
    {
        SweepSpec spec;
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/clock_ghz", 0, {0.5, 1}});
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/scaling/cbuf_bytes", 0, {262144, 524288, 1048576}});
        spec.options.refine = true;
        Diagnostics d;
        const SweepResult r = runSweep(m_alexnet, m_nvFull, spec, d, {nullptr, {}, 3});
        QVERIFY2(r.ok, d.toString().c_str());
        QCOMPARE(r.points.size(), std::size_t(6));
        QCOMPARE(r.points[3].x, 1.0);
        QCOMPARE(r.points[3].y, 524288.0);
        ROOFLINE_COMPARE_REL(r.points[3].totalNs, evaluate(m_alexnet, m_nvFull, spec.options).totalNs, 1e-15);
    }

    // Fig. 13: T_k x T_c = 1024 at constant area; T_k = 16 is nv_full itself. Wider
    // arrays need kernel groups of T_k kernels: fc6's no longer fits the CBUF.
    void fig13ConstantArea()
    {
        SweepSpec spec;
        SweepAxis axis;
        axis.kind = SweepAxis::Kind::ConstantArea;
        axis.macProduct = 1024;
        axis.values = {4, 8, 16, 32, 64, 3};
        spec.axes.push_back(axis);
        Diagnostics d;
        const SweepResult r = runSweep(m_alexnet, m_nvFull, spec, d);
        QVERIFY2(r.ok, d.toString().c_str());
        ROOFLINE_COMPARE_REL(r.points[2].totalNs, evaluate(m_alexnet, m_nvFull).totalNs, 1e-15);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(r.points[std::size_t(i)].status, Status::Ok);
        QVERIFY(r.points[0].totalNs > r.points[1].totalNs && r.points[1].totalNs > r.points[2].totalNs);
        QCOMPARE(r.points[3].status, Status::Infeasible);
        QCOMPARE(r.points[4].status, Status::Infeasible);
        QCOMPARE(r.points[5].status, Status::Invalid); // T_c = 1024/3 is not whole
    }

    void feasibility()
    {
        SweepSpec spec;
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/scaling/cbuf_bytes", 0, {8192, 524288, 0, 1000.5}});
        Diagnostics d;
        const SweepResult r = runSweep(m_alexnet, m_nvFull, spec, d);
        QVERIFY(r.ok);
        QCOMPARE(r.points[0].status, Status::Infeasible); // 4 entries per bank: conv1 fits in no mode
        QCOMPARE(r.points[1].status, Status::Ok);
        QCOMPARE(r.points[2].status, Status::Invalid);
        QCOMPARE(r.points[3].status, Status::Invalid);
    }

    void badSpec()
    {
        SweepSpec spec;
        Diagnostics d;
        QVERIFY(!runSweep(m_alexnet, m_nvFull, spec, d).ok);
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/scaling/t_q", 0, {1}});
        QVERIFY(!runSweep(m_alexnet, m_nvFull, spec, d).ok);
        QCOMPARE(d.errors().back().pointer, std::string("/scaling/t_q"));
    }

    void cancellation()
    {
        SweepSpec spec;
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/memories/DRAM/bandwidth_gbps", 0,
                             linearValues(1, 1000, 20000)});
        std::atomic<bool> cancel{false};
        std::size_t reports = 0;
        SweepControl control;
        control.cancel = &cancel;
        control.threads = 2;
        control.progress = [&](std::size_t done, std::size_t total) {
            QCOMPARE(total, std::size_t(20000));
            QVERIFY(done <= total);
            ++reports;
            cancel = true;
        };
        Diagnostics d;
        const SweepResult r = runSweep(m_alexnet, m_nvFull, spec, d, control);
        QVERIFY(r.ok);
        QVERIFY(r.cancelled);
        QVERIFY(r.completed < 20000);
        QVERIFY(reports >= 1);
        QCOMPARE(r.points.back().status, Status::Invalid); // never reached
    }

    void values()
    {
        QCOMPARE(linearValues(1, 3, 3), (std::vector<double>{1, 2, 3}));
        const auto log = logValues(1, 100, 3);
        ROOFLINE_COMPARE_REL(log[1], 10, 1e-12);
        QCOMPARE(linearValues(5, 9, 1), std::vector<double>{5});
    }

    // 1e5 points must finish in seconds.
    void hundredThousandPoints()
    {
        SweepSpec spec;
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/memories/DRAM/bandwidth_gbps", 0, logValues(4, 512, 400)});
        spec.axes.push_back({SweepAxis::Kind::Parameter, "/clock_ghz", 0, linearValues(0.25, 2, 250)});
        Diagnostics d;
        QElapsedTimer timer;
        timer.start();
        const SweepResult r = runSweep(m_alexnet, m_nvFull, spec, d);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        qInfo("AlexNet, 100000 points on %u threads: %.2f s", std::thread::hardware_concurrency(), seconds);
        QVERIFY(r.ok);
        QCOMPARE(r.completed, std::size_t(100000));
        QVERIFY(std::all_of(r.points.begin(), r.points.end(), [](const SweepPoint &p) { return p.status == Status::Ok; }));
        QVERIFY(seconds < 60); // generous for sanitizer builds; see the qInfo line for the real figure
    }
};

QTEST_GUILESS_MAIN(TestAmaixSweep)
#include "tst_amaix_sweep.moc"
