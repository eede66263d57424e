// Goal seek on every model: targets reached within tolerance, unreachable ones
// refused with the bound that stops them named, and the Gables closed form
// equal to the bracketed search on every shipped SoC and parameter. Also the
// Gables headroom readout and the roof readings at the vertical lines.
#include "amaix/goalseek.h"
#include "amaix/io.h"
#include "gables/goalseek.h"
#include "gables/io.h"
#include "verrocchio/goalseek.h"
#include "verrocchio/io.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace roofline;
using gables::Ip;
using gables::Soc;

namespace {

std::string example(const std::string &file)
{
    return std::string(ROOFLINE_EXAMPLES_DIR) + "/" + file;
}

Soc fig6(double f, double bpeak = 10, double i1 = 0.1)
{
    Soc soc;
    soc.name = "fig6";
    soc.ppeakGops = 40;
    soc.bpeakGBps = bpeak;
    soc.ips = {Ip::make("CPU", 1, 6, 1 - f, 8), Ip::make("GPU", 5, 15, f, i1)};
    return soc;
}

Soc loadSoc(const std::string &file)
{
    gables::LoadResult r = gables::loadSocFile(example("gables/" + file));
    if (!r.soc)
        qFatal("%s", r.diagnostics.toString().c_str());
    return *r.soc;
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestGoalSeek : public QObject
{
    Q_OBJECT
private slots:
    // Fig. 6b (memory bound at 1.3278): T_mem = 7.53125/Bpeak reaches 0.5 ns/op
    // (P_att 2) at Bpeak = 15.0625, exactly where the GPU link (0.5) ties.
    void gablesBpeakFig6b()
    {
        const GoalSeek g = gables::seekAttainable(fig6(0.75), "/soc/bpeak_gbps", 2);
        QVERIFY(g.found());
        QCOMPARE(g.value, 15.0625);
        QVERIFY(near(g.achieved, 2, 1e-12));
        QCOMPARE(g.relation, std::string("≥"));
        QCOMPARE(g.message, std::string("P_att 2 Gops/s needs Bpeak ≥ 15.06 GB/s (now 10 GB/s)"));
        QCOMPARE(g.evaluations, 0);
    }
    void gablesUnreachableNamesTheBound()
    {
        const GoalSeek g = gables::seekAttainable(fig6(0.75), "/soc/bpeak_gbps", 3);
        QCOMPARE(g.status, GoalSeek::Status::Unreachable);
        QCOMPARE(g.limitedBy, std::string("IP[1] GPU link"));
        QVERIFY(near(g.cap, 2, 1e-12));
        QCOMPARE(g.message, std::string("no Bpeak reaches P_att 3 Gops/s: IP[1] GPU link caps it at 2 Gops/s"));
    }
    // The example: the Snapdragon 835 use case is CPU-compute bound at 75.
    void gablesSnapdragonCappedByCpu()
    {
        const GoalSeek g = gables::seekAttainable(loadSoc("snapdragon835.json"), "/soc/bpeak_gbps", 200);
        QCOMPARE(g.status, GoalSeek::Status::Unreachable);
        QCOMPARE(g.message, std::string("no Bpeak reaches P_att 200 Gops/s: IP[0] CPU compute caps it at 75 Gops/s"));
    }
    // I_1 enters the link (f/(B I)) and memory ((Σ_{i≠1} D_i + f/I)/Bpeak):
    // P_att 1.5 needs I_1 = 0.075 / (1/1.5 − 0.03125/10).
    void gablesIntensityClosedForm()
    {
        const GoalSeek g = gables::seekAttainable(fig6(0.75), "/use_case/work/GPU/intensity_ops_per_byte", 1.5);
        QVERIFY(g.found());
        QVERIFY(near(g.value, 0.075 / (1 / 1.5 - 0.003125), 1e-12));
        QVERIFY(near(g.achieved, 1.5, 1e-12));
    }
    // Miss ratio (memory-side memory): T_mem = (0.03125 + m·7.5)/10 ≤ 0.5 → m ≤ 0.6625.
    void gablesMissRatio()
    {
        const GoalSeek g = gables::seekAttainable(fig6(0.75), "/use_case/work/1/miss_ratio", 2);
        QVERIFY(g.found());
        QVERIFY(near(g.value, 0.6625, 1e-12));
        QCOMPARE(g.relation, std::string("≤"));
        const GoalSeek b =
            gables::seekAttainable(fig6(0.75), "/use_case/work/1/miss_ratio", 2, gables::SeekMethod::Bracketed);
        QVERIFY(near(b.value, 0.6625, 1e-9));
    }
    void gablesRefusesFractionsAndUnknowns()
    {
        const GoalSeek f = gables::seekAttainable(fig6(0.75), "/use_case/work/GPU/fraction", 2);
        QCOMPARE(f.status, GoalSeek::Status::Invalid);
        QVERIFY(f.message.find("not monotone") != std::string::npos);
        QCOMPARE(gables::seekAttainable(fig6(0.75), "/soc/nope", 2).status, GoalSeek::Status::Invalid);
        QCOMPARE(gables::seekAttainable(fig6(0.75), "/soc/bpeak_gbps", -1).status, GoalSeek::Status::Invalid);
        QCOMPARE(gables::seekAttainable(fig6(0.0), "/soc/ips/GPU/bandwidth_gbps", 2).status,
                 GoalSeek::Status::Invalid); // GPU idle
    }

    // The closed form and the bracketed search agree on every shipped SoC,
    // every parameter, and targets below, at and above what is reachable.
    void gablesClosedFormEqualsBracketed_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"gables-fig6a.json", "gables-fig6b.json", "gables-fig6c.json", "gables-fig6d.json",
                              "snapdragon835.json", "snapdragon835-cpu-gpu-i1024.json", "three-ip-camera.json",
                              "jetson-agx-orin-64gb.json", "raspberry-pi5-ai-kit.json"})
            QTest::newRow(f) << QString(f);
    }
    void gablesClosedFormEqualsBracketed()
    {
        QFETCH(QString, file);
        const Soc soc = loadSoc(file.toStdString());
        const double now = gables::evaluate(soc).attainableGops;
        std::vector<std::string> pointers = {"/soc/ppeak_gops", "/soc/bpeak_gbps"};
        for (const Ip &ip : soc.ips) {
            if (!ip.isActive())
                continue;
            pointers.push_back("/soc/ips/" + ip.name + "/acceleration");
            pointers.push_back("/soc/ips/" + ip.name + "/bandwidth_gbps");
            pointers.push_back("/use_case/work/" + ip.name + "/intensity_ops_per_byte");
            pointers.push_back("/use_case/work/" + ip.name + "/miss_ratio");
        }
        int found = 0, unreachable = 0;
        for (const std::string &p : pointers) {
            for (double factor : {0.25, 0.9, 1.0, 1.2, 2.0, 10.0}) {
                const double target = now * factor;
                const GoalSeek c = gables::seekAttainable(soc, p, target, gables::SeekMethod::ClosedForm);
                const GoalSeek b = gables::seekAttainable(soc, p, target, gables::SeekMethod::Bracketed);
                const QByteArray what = QByteArray::fromStdString(p + " target " + std::to_string(target) + ": "
                                                                  + c.message + " | " + b.message);
                QVERIFY2(c.status == b.status, what.constData());
                if (c.found()) {
                    ++found;
                    QVERIFY2(near(c.value, b.value, 1e-6), what.constData());
                    QVERIFY2(near(c.achieved, target, 1e-6), what.constData());
                    QVERIFY2(near(b.achieved, target, 1e-6), what.constData());
                } else {
                    ++unreachable;
                    QVERIFY2(near(c.cap, b.cap, 1e-6), what.constData());
                    QVERIFY2(!c.limitedBy.empty(), what.constData());
                }
            }
        }
        QVERIFY(found > 0);
        QVERIFY(unreachable > 0);
    }

    void gablesHeadroom()
    {
        const Soc b = fig6(0.75);
        gables::Headroom h = gables::headroom(b, gables::evaluate(b));
        QVERIFY(h.available);
        QCOMPARE(h.pointer, std::string("/soc/bpeak_gbps"));
        QVERIFY(near(h.factor, 0.753125 / 0.5, 1e-12));
        QCOMPARE(h.message, std::string("memory bound; 1.51× more Bpeak before IP[1] GPU link limits (at 2 Gops/s)"));
        // Raising Bpeak by exactly that factor makes the two terms tie.
        Soc raised = b;
        raised.bpeakGBps *= h.factor;
        QVERIFY(near(gables::evaluate(raised).attainableGops, h.nextGops, 1e-12));

        const Soc c = fig6(0.75, 30);
        h = gables::headroom(c, gables::evaluate(c));
        QCOMPARE(h.pointer, std::string("/soc/ips/GPU/bandwidth_gbps"));
        QVERIFY(near(h.factor, 0.5 / (7.53125 / 30), 1e-12));
        QVERIFY(h.message.rfind("IP[1] GPU link bound; 1.99× more GPU link bandwidth before memory limits", 0) == 0);

        const Soc d = fig6(0.75, 20, 8);
        h = gables::headroom(d, gables::evaluate(d));
        QCOMPARE(h.factor, 1.0);
        QVERIFY(h.message.find("no headroom") != std::string::npos);
    }

    void gablesRoofReadings()
    {
        const Soc b = fig6(0.75);
        const gables::Result r = gables::evaluate(b);
        const auto readings = gables::roofReadings(b, r, gables::plotGeometry(b, r));
        QCOMPARE(readings.size(), std::size_t(3));
        QCOMPARE(readings[0].name, std::string("IP[0] CPU"));
        QVERIFY(near(readings[0].gops, 160, 1e-12)); // 1/T_0 = 1/0.00625
        QCOMPARE(readings[0].intensity, 8.0);
        QCOMPARE(readings[1].name, std::string("IP[1] GPU"));
        QVERIFY(near(readings[1].gops, 2, 1e-12));
        QCOMPARE(readings[2].name, std::string("memory"));
        QVERIFY(near(readings[2].gops, 1 / 0.753125, 1e-12));
        QVERIFY(!readings[0].binding && !readings[1].binding && readings[2].binding);
    }

    // AMAIX: AlexNet on nv_full; the frame rate and the time per inference.
    void amaixReachesAndRefuses()
    {
        const auto net = amaix::loadNetworkFile(example("amaix/alexnet.json"));
        const auto acc = amaix::loadAcceleratorFile(example("amaix/nv_full.json"));
        QVERIFY(net.network && acc.accelerator);
        const amaix::Result now = amaix::evaluate(*net.network, *acc.accelerator);
        QVERIFY(now.ok());
        const std::string dram = "/memories/" + acc.accelerator->memories.front().name + "/bandwidth_gbps";

        const double wanted = now.fps * 1.1;
        GoalSeek g = amaix::seekInference(*net.network, *acc.accelerator, {}, dram, wanted, amaix::InferenceTarget::Fps);
        QVERIFY2(g.found(), g.message.c_str());
        QVERIFY(near(g.achieved, wanted, 1e-6));
        QVERIFY(g.value > g.from);
        QVERIFY(g.message.find("FPS needs") != std::string::npos);

        g = amaix::seekInference(*net.network, *acc.accelerator, {}, "/clock_ghz", now.totalNs * 0.8,
                                 amaix::InferenceTarget::TimeNs);
        QVERIFY2(g.found(), g.message.c_str());
        QVERIFY(near(g.achieved, now.totalNs * 0.8, 1e-6));

        // No bandwidth makes the MAC array faster: compute caps the frame rate.
        g = amaix::seekInference(*net.network, *acc.accelerator, {}, dram, now.fps * 1000, amaix::InferenceTarget::Fps);
        QCOMPARE(g.status, GoalSeek::Status::Unreachable);
        QVERIFY2(g.limitedBy.find("compute") != std::string::npos, g.message.c_str());
        QVERIFY(g.cap > now.fps && g.cap < now.fps * 1000);

        g = amaix::seekInference(*net.network, *acc.accelerator, {}, "/scaling/cbuf_bytes", 100,
                                 amaix::InferenceTarget::Fps);
        QCOMPARE(g.status, GoalSeek::Status::Invalid);
    }

    // Verrocchio: the two-core vector add on the Ascend 310 machine.
    void verrocchioReachesAndRefuses()
    {
        const auto trace = verrocchio::loadTraceFile(example("verrocchio/vector-add-2cores.json"));
        const auto machine = verrocchio::loadMachineFile(example("verrocchio/ascend310.json"));
        QVERIFY(trace.trace && machine.machine);
        const double now = verrocchio::simulate(*trace.trace, *machine.machine).totalNs;
        const std::string mte2 = "/bus/bandwidth_gbps"; // the shared bus sets this trace's pace

        // As fast as MTE2 alone can make it: the floor, named.
        GoalSeek floor = verrocchio::seekTotalTime(*trace.trace, *machine.machine, mte2, now / 1e6);
        QCOMPARE(floor.status, GoalSeek::Status::Unreachable);
        QVERIFY2(floor.limitedBy.find("pipe") != std::string::npos, floor.message.c_str());
        QVERIFY(floor.cap < now);

        const double wanted = (now + floor.cap) / 2;
        GoalSeek g = verrocchio::seekTotalTime(*trace.trace, *machine.machine, mte2, wanted);
        QVERIFY2(g.found(), g.message.c_str());
        QVERIFY(near(g.achieved, wanted, 1e-6));
        QCOMPARE(g.relation, std::string("≥"));

        // A start-up latency: slower is reached by raising it.
        g = verrocchio::seekTotalTime(*trace.trace, *machine.machine, "/pipes/MTE2/init_ns", now * 1.5);
        QVERIFY2(g.found(), g.message.c_str());
        QVERIFY(near(g.achieved, now * 1.5, 1e-6));
        QCOMPARE(g.relation, std::string("≤"));

        QCOMPARE(verrocchio::seekTotalTime(*trace.trace, *machine.machine, "/cores/count", now).status,
                 GoalSeek::Status::Invalid);
    }
};

QTEST_APPLESS_MAIN(TestGoalSeek)
#include "tst_goalseek.moc"
