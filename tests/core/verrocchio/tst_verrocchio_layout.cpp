// Timeline geometry without a window: lane order, the bars of a simulated
// trace, and level-of-detail merging on data coordinates and a pixel width.
#include "builders.h"
#include "resultdigest.h"
#include "testutils.h"
#include "verrocchio/layout.h"
#include "verrocchio/simulation.h"
#include "verrocchio/synthetic.h"

#include <QTest>

#include <thread>

#include <algorithm>
#include <optional>
#include <random>

using namespace roofline::verrocchio;
using testbuild::ProgramBuilder;
using testbuild::unitMachine;

Q_DECLARE_METATYPE(std::vector<double>)

namespace {

// One lane of work bars [start, end) given as flat pairs.
TimelineBars oneLane(const std::vector<double> &spans)
{
    TimelineBars bars;
    bars.laneBegin = { 0 };
    for (std::size_t i = 0; i + 1 < spans.size(); i += 2)
        bars.bars.push_back({ spans[i], spans[i + 1], std::uint32_t(i / 2), 0, Bar::Kind::Work });
    bars.laneBegin.push_back(bars.bars.size());
    return bars;
}

// mergeBars() bar by bar, as its contract reads (the first version, kept as
// the reference for the faster loop): a narrow bar opens a group or joins the
// open one when the gap is under a pixel and the group stays within maxSpan.
std::vector<BarGroup> referenceMerge(const TimelineBars &bars, double viewStart, double viewEnd, double nsPerPixel,
    double minPixels = 1.0, double maxGroupPixels = 4.0)
{
    std::vector<BarGroup> out;
    const bool merge = std::isfinite(nsPerPixel) && nsPerPixel > 0;
    const double minWidth = merge ? minPixels * nsPerPixel : 0;
    const double maxGap = merge ? nsPerPixel : 0;
    const double maxSpan = merge ? std::max(maxGroupPixels, minPixels) * nsPerPixel : 0;
    for (std::size_t lane = 0; lane < bars.laneCount(); ++lane) {
        std::optional<BarGroup> open;
        for (std::size_t i = bars.laneBegin[lane]; i < bars.laneBegin[lane + 1]; ++i) {
            const Bar &b = bars.bars[i];
            if (b.end < viewStart || b.start > viewEnd)
                continue;
            const double length = b.end - b.start;
            const bool narrow = merge && length < minWidth;
            const bool stall = b.kind == Bar::Kind::Stall;
            if (narrow && open && b.start - open->end < maxGap && b.end - open->start <= maxSpan) {
                open->end = std::max(open->end, b.end);
                open->count += 1;
                (stall ? open->stallNs : open->busyNs) += length;
                open->stalls += stall ? 1 : 0;
                continue;
            }
            if (open)
                out.push_back(*open);
            open = BarGroup { b.start, b.end, std::uint32_t(lane), i, 1, stall ? 0 : length, stall ? length : 0,
                stall ? std::size_t(1) : std::size_t(0) };
            if (!narrow) {
                out.push_back(*open);
                open.reset();
            }
        }
        if (open)
            out.push_back(*open);
    }
    return out;
}

// timelineBars() built the plain way, as its contract reads: per lane, the
// work bars in program order and the stalls in the result's order, each run
// sorted by start (stable), then merged with work first on equal starts.
TimelineBars referenceBars(const Trace &trace, const Result &result)
{
    const std::size_t cores = std::min({ trace.cores.size(), result.cores.size(), Bar::kMaxLanes / kPipeCount });
    const std::size_t lanes = cores * kPipeCount;
    std::vector<std::vector<Bar>> work(lanes), stalls(lanes);
    const auto lane = [&](std::size_t c, std::size_t i) {
        return std::uint32_t(laneOf(c, trace.cores[c].instructions[i].pipe));
    };
    for (std::size_t c = 0; c < cores; ++c) {
        const auto &program = trace.cores[c].instructions;
        const auto &timings = result.cores[c].instructions;
        for (std::size_t i = 0; i < program.size() && i < timings.size(); ++i) {
            const Timing &t = timings[i];
            if (t.executed && program[i].kind == Instruction::Kind::Work && t.end >= t.start)
                work[lane(c, i)].push_back({ t.start, t.end, std::uint32_t(i), lane(c, i), Bar::Kind::Work });
        }
    }
    for (const Stall &s : result.stalls) {
        if (s.core < cores && s.instruction < trace.cores[s.core].instructions.size() && s.end > s.start)
            stalls[lane(s.core, s.instruction)].push_back(
                { s.start, s.end, s.instruction, lane(s.core, s.instruction), Bar::Kind::Stall });
    }
    const auto byStart = [](const Bar &a, const Bar &b) { return a.start < b.start; };
    TimelineBars out;
    out.laneBegin.push_back(0);
    for (std::size_t l = 0; l < lanes; ++l) {
        std::stable_sort(work[l].begin(), work[l].end(), byStart);
        std::stable_sort(stalls[l].begin(), stalls[l].end(), byStart);
        std::merge(work[l].begin(), work[l].end(), stalls[l].begin(), stalls[l].end(), std::back_inserter(out.bars),
            byStart);
        out.laneBegin.push_back(out.bars.size());
    }
    return out;
}

// The per-lane contention spans as plainly as they can be worked out: each
// lane's intervals in time order, joined where they touch.
LaneContention referenceContention(const Trace &trace, const Result &result)
{
    const std::size_t cores = std::min({ trace.cores.size(), result.cores.size(), Bar::kMaxLanes / kPipeCount });
    std::vector<std::vector<LaneContention::Span>> spans(cores * kPipeCount);
    for (const ContentionInterval &c : result.contention) {
        for (const Share &s : result.sharesOf(c)) {
            if (s.core >= cores || s.instruction >= trace.cores[s.core].instructions.size())
                continue;
            auto &spansOfLane = spans[laneOf(s.core, trace.cores[s.core].instructions[s.instruction].pipe)];
            if (!spansOfLane.empty() && c.start <= spansOfLane.back().end)
                spansOfLane.back().end = std::max(spansOfLane.back().end, c.end);
            else
                spansOfLane.push_back({ c.start, c.end });
        }
    }
    LaneContention out;
    out.laneBegin.push_back(0);
    for (const auto &l : spans) {
        out.spans.insert(out.spans.end(), l.begin(), l.end());
        out.laneBegin.push_back(out.spans.size());
    }
    return out;
}

// timelineBars() and laneContention(), one after the other and at once on two
// threads (as the studio runs them), each equal to the plain per-lane build.
bool everyWayMatches(const Trace &trace, const Result &r)
{
    const TimelineBars expected = referenceBars(trace, r);
    const LaneContention expectedContention = referenceContention(trace, r);
    if (!(timelineBars(trace, r) == expected && laneContention(trace, r) == expectedContention))
        return false;
    const BarsPlan plan(trace); // the trace's first pass done beforehand
    if (!(timelineBars(trace, r, plan) == expected && laneContention(trace, r, &plan) == expectedContention))
        return false;
    // Into buffers that held the previous call's spans (another trace, more
    // or fewer lanes and spans), as the studio's GUI thread reuses them.
    static LaneContention reused;
    static std::vector<std::uint32_t> shareLanes;
    for (const BarsPlan *p : { &plan, static_cast<const BarsPlan *>(nullptr) }) {
        laneContention(trace, r, p, reused, shareLanes);
        if (!(reused == expectedContention))
            return false;
    }
    LaneContention contention;
    std::thread other([&] { contention = laneContention(trace, r); });
    const TimelineBars bars = timelineBars(trace, r);
    other.join();
    return bars == expected && contention == expectedContention;
}

} // namespace

class TestVerrocchioLayout : public QObject {
    Q_OBJECT
private slots:
    void laneOrder()
    {
        QCOMPARE(lanePosition(Pipe::S), 0u);
        QCOMPARE(lanePosition(Pipe::MTE2), 1u);
        QCOMPARE(lanePosition(Pipe::MTE1), 2u);
        QCOMPARE(lanePosition(Pipe::M), 3u);
        QCOMPARE(lanePosition(Pipe::V), 4u);
        QCOMPARE(lanePosition(Pipe::MTE3), 5u);
        QCOMPARE(laneOf(1, Pipe::MTE3), 11u);
        QCOMPARE(coreOfLane(11), 1u);
        for (std::size_t lane = 0; lane < 12; ++lane)
            QCOMPARE(laneOf(coreOfLane(lane), pipeOfLane(lane)), lane);
    }

    // Load, vector op, store with flags: the V wait stalls until MTE2 ends.
    void barsOfASimulation()
    {
        Trace trace;
        ProgramBuilder(trace, 0)
            .work(Pipe::MTE2, 10, "load")
            .set(Pipe::MTE2, Pipe::V)
            .wait(Pipe::MTE2, Pipe::V)
            .work(Pipe::V, 5, "add")
            .set(Pipe::V, Pipe::MTE3)
            .wait(Pipe::V, Pipe::MTE3)
            .work(Pipe::MTE3, 4, "store");
        const Result r = simulate(trace, unitMachine());
        QVERIFY(r.ok());
        const TimelineBars bars = timelineBars(trace, r);
        QCOMPARE(bars.laneCount(), kPipeCount);
        auto lane = [&](Pipe p) {
            const std::size_t l = laneOf(0, p);
            return std::vector<Bar>(bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[l]),
                bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[l + 1]));
        };
        QCOMPARE(lane(Pipe::MTE2).size(), 1u);
        QCOMPARE(lane(Pipe::MTE2)[0].end, 10.0);
        const auto v = lane(Pipe::V);
        QCOMPARE(v.size(), 2u); // the stall, then the add
        QCOMPARE(v[0].kind, Bar::Kind::Stall);
        QCOMPARE(v[0].start, 0.0);
        QCOMPARE(v[0].end, 10.0);
        QCOMPARE(v[1].kind, Bar::Kind::Work);
        QCOMPARE(v[1].start, 10.0);
        QCOMPARE(v[1].end, 15.0);
        const auto mte3 = lane(Pipe::MTE3);
        QCOMPARE(mte3.back().start, 15.0);
        QCOMPARE(mte3.back().end, 19.0);
        QVERIFY(lane(Pipe::S).empty());
    }

    // The benchmark's workload: about the asked size, runs to its end, and
    // at 1000 px its 10^5 bars become a bounded number of groups.
    void syntheticTraceAtTenToTheFifth()
    {
        const Trace trace = syntheticVectorAdd(100000, 2);
        QCOMPARE(trace.cores.size(), 2u);
        QVERIFY(trace.instructionCount() >= 99000 && trace.instructionCount() <= 100000);
        Machine machine = unitMachine(2);
        const Result r = simulate(trace, machine);
        QVERIFY2(r.ok(), r.error ? r.error->message.c_str() : "");
        const TimelineBars bars = timelineBars(trace, r);
        const auto groups = mergeBars(bars, 0, r.totalNs, r.totalNs / 1000);
        QVERIFY2(groups.size() <= bars.laneCount() * 1000, qPrintable(QString::number(groups.size())));
        std::size_t members = 0;
        for (const BarGroup &g : groups)
            members += g.count;
        QCOMPARE(members, bars.bars.size());
    }

    // timelineBars() (one pass over the trace, lane and "is a bar" kept per
    // instruction in a byte, runs merged through one buffer) and
    // laneContention(), alone and at once on two threads, against the plain
    // per-lane build: random traces of one to three cores on four machines
    // (among them a slow bus: contention throughout; deadlocks and flag errors
    // leave instructions unexecuted), the synthetic trace on one, two and four
    // cores, and results edited to take the guard paths (stalls out of order,
    // a stall starting where a work bar starts, stalls of no instruction or no
    // core, a core's timings cut short, fewer result cores than trace cores).
    void barsMatchThePlainBuild()
    {
        const auto machines = digestMachines();
        std::mt19937 rng(27);
        std::size_t withContention = 0, withStalls = 0, failed = 0;
        for (int k = 0; k < 300; ++k) {
            const int cores = 1 + k % 3;
            const Trace trace = randomTrace(rng, 10 + std::size_t(k % 5) * 50, cores);
            Machine machine = machines[std::size_t(k) % machines.size()].second;
            machine.coreCount = std::max(machine.coreCount, cores);
            const Result r = simulate(trace, machine);
            QVERIFY(everyWayMatches(trace, r));
            withContention += r.contention.empty() ? 0 : 1;
            withStalls += r.stalls.empty() ? 0 : 1;
            failed += r.ok() ? 0 : 1;
        }
        QVERIFY(withContention > 30 && withStalls > 30 && failed > 30);
        for (int cores : { 1, 2, 4 }) {
            const Trace trace = syntheticVectorAdd(12345, cores);
            Machine machine = machines.back().second; // the slow bus
            machine.coreCount = std::max(machine.coreCount, cores);
            const Result r = simulate(trace, machine);
            QVERIFY(cores == 1 || !r.contention.empty());
            const TimelineBars bars = timelineBars(trace, r);
            QVERIFY(everyWayMatches(trace, r));
            QVERIFY(bars.bars.size() > 4000);
        }
        // Edited results.
        Trace trace = syntheticVectorAdd(600, 2);
        Machine machine = machines.back().second;
        Result r = simulate(trace, machine);
        QVERIFY(r.stalls.size() > 20);
        std::reverse(r.stalls.begin(), r.stalls.end());
        const Stall first = r.stalls.back();
        r.stalls.push_back({ first.core, first.instruction, 0, 1 }); // out of order, and before the lane's first work
        std::uint32_t work = 0;
        while (trace.cores[first.core].instructions[work].pipe != trace.cores[first.core].instructions[first.instruction].pipe
            || trace.cores[first.core].instructions[work].kind != Instruction::Kind::Work)
            ++work;
        const Timing &w = r.cores[first.core].instructions[work];
        r.stalls.push_back({ first.core, first.instruction, w.start, w.start + 1 }); // ties with a work bar
        r.stalls.push_back({ 0, 1u << 30, 0, 5 });                                   // no such instruction
        r.stalls.push_back({ 9, 0, 0, 5 });                                          // no such core
        r.stalls.push_back({ first.core, first.instruction, 3, 3 });                 // empty: not drawn
        QVERIFY(everyWayMatches(trace, r));
        {
            // Work that is no bar in a result that ran to its end (a negative
            // or NaN length): a BarsPlan counted it, the bars leave it out.
            Result edited = simulate(trace, machine);
            QVERIFY(edited.ok());
            const BarsPlan plan(trace);
            const TimelineBars before = timelineBars(trace, edited, plan);
            for (double end : { -1.0, std::nan("") }) {
                Timing &t = edited.cores[first.core].instructions[work];
                const double kept = t.end;
                t.end = end < 0 ? t.start - 1 : end;
                const TimelineBars bars = timelineBars(trace, edited, plan);
                QVERIFY(bars == referenceBars(trace, edited));
                QCOMPARE(bars.bars.size() + 1, before.bars.size());
                t.end = kept;
            }
            QVERIFY(timelineBars(trace, edited, plan) == before);
            // A plan of another trace's shape is not used.
            QVERIFY(timelineBars(trace, edited, BarsPlan(syntheticVectorAdd(300, 2))) == before);
            const BarsPlan foreign(syntheticVectorAdd(300, 2));
            QVERIFY(laneContention(trace, edited, &foreign) == referenceContention(trace, edited));
        }
        r.cores[1].instructions.resize(r.cores[1].instructions.size() / 2);
        QVERIFY(everyWayMatches(trace, r));
        r.cores.resize(1);
        const TimelineBars oneCore = timelineBars(trace, r);
        QVERIFY(everyWayMatches(trace, r));
        QCOMPARE(oneCore.laneCount(), kPipeCount);
    }

    // The per-lane contention spans are exactly the union of the contention
    // intervals in which a transfer of that lane had a share.
    void contentionSpansAreTheUnionOfTheLanesIntervals()
    {
        const Trace trace = syntheticVectorAdd(2000, 2);
        const Result r = simulate(trace, ascend310());
        QVERIFY2(r.ok(), r.error ? r.error->message.c_str() : "");
        QVERIFY(r.contention.size() > 100);
        const TimelineBars bars = timelineBars(trace, r);
        const LaneContention contention = laneContention(trace, r);
        QCOMPARE(contention.laneCount(), bars.laneCount());
        QCOMPARE(contention.laneBegin.back(), contention.spans.size());
        std::vector<std::vector<LaneContention::Span>> expected(bars.laneCount());
        for (const ContentionInterval &c : r.contention) {
            for (const Share &s : r.sharesOf(c)) {
                auto &lane = expected[laneOf(s.core, trace.cores[s.core].instructions[s.instruction].pipe)];
                if (!lane.empty() && c.start <= lane.back().end)
                    lane.back().end = std::max(lane.back().end, c.end);
                else
                    lane.push_back({ c.start, c.end });
            }
        }
        std::size_t lanesWithContention = 0;
        for (std::size_t lane = 0; lane < bars.laneCount(); ++lane) {
            const std::vector<LaneContention::Span> spans(
                contention.spans.begin() + std::ptrdiff_t(contention.laneBegin[lane]),
                contention.spans.begin() + std::ptrdiff_t(contention.laneBegin[lane + 1]));
            QVERIFY(spans == expected[lane]);
            for (std::size_t i = 1; i < spans.size(); ++i)
                QVERIFY(spans[i - 1].end < spans[i].start); // joined: disjoint and sorted
            lanesWithContention += spans.empty() ? 0 : 1;
            // Only bus pipes contend.
            QVERIFY(spans.empty() || pipeOfLane(lane) == Pipe::MTE2 || pipeOfLane(lane) == Pipe::MTE3);
        }
        QVERIFY(lanesWithContention >= 2);
        // Total contention time per lane is at most the result's.
        for (std::size_t lane = 0; lane < bars.laneCount(); ++lane) {
            double sum = 0;
            for (std::size_t i = contention.laneBegin[lane]; i < contention.laneBegin[lane + 1]; ++i)
                sum += contention.spans[i].end - contention.spans[i].start;
            QVERIFY(sum <= r.contentionNs * (1 + 1e-12));
        }
    }

    void merge_data()
    {
        QTest::addColumn<std::vector<double>>("spans");
        QTest::addColumn<double>("viewStart");
        QTest::addColumn<double>("viewEnd");
        QTest::addColumn<double>("nsPerPixel");
        QTest::addColumn<std::vector<double>>("expected"); // start, end, count per group

        QTest::newRow("wide bars stay apart") << std::vector<double> { 0, 10, 10, 20, 25, 40 } << 0.0 << 40.0 << 1.0
                                              << std::vector<double> { 0, 10, 1, 10, 20, 1, 25, 40, 1 };
        QTest::newRow("ten 0.1 ns bars in one pixel")
            << std::vector<double> { 0, .1, .1, .2, .2, .3, .3, .4, .4, .5, .5, .6, .6, .7, .7, .8, .8, .9, .9, 1 }
            << 0.0 << 100.0 << 1.0 << std::vector<double> { 0, 1, 10 };
        QTest::newRow("a gap of a pixel splits") << std::vector<double> { 0, .5, .6, 1, 2.5, 3 } << 0.0 << 10.0 << 1.0
                                                 << std::vector<double> { 0, 1, 2, 2.5, 3, 1 };
        QTest::newRow("a wide bar ends a run") << std::vector<double> { 0, .5, .5, 1, 1, 5, 5, 5.5 } << 0.0 << 10.0
                                               << 1.0 << std::vector<double> { 0, 1, 2, 1, 5, 1, 5, 5.5, 1 };
        QTest::newRow("zoomed in: nothing merges") << std::vector<double> { 0, .5, .5, 1, 1, 1.5 } << 0.0 << 2.0 << 0.01
                                                   << std::vector<double> { 0, .5, 1, .5, 1, 1, 1, 1.5, 1 };
        QTest::newRow("outside the view is skipped") << std::vector<double> { 0, 1, 2, 3, 4, 5, 6, 7 } << 2.5 << 4.5
                                                     << 0.01 << std::vector<double> { 2, 3, 1, 4, 5, 1 };
        QTest::newRow("no pixel size: no merging") << std::vector<double> { 0, .1, .1, .2 } << 0.0 << 1.0 << 0.0
                                                   << std::vector<double> { 0, .1, 1, .1, .2, 1 };
    }

    void merge()
    {
        QFETCH(std::vector<double>, spans);
        QFETCH(double, viewStart);
        QFETCH(double, viewEnd);
        QFETCH(double, nsPerPixel);
        QFETCH(std::vector<double>, expected);
        const TimelineBars bars = oneLane(spans);
        const std::vector<BarGroup> groups = mergeBars(bars, viewStart, viewEnd, nsPerPixel);
        QString actual;
        for (const BarGroup &g : groups)
            actual += QStringLiteral("%1, %2, %3, ").arg(g.start).arg(g.end).arg(g.count);
        QVERIFY2(groups.size() * 3 == expected.size(), qPrintable(QStringLiteral("actual: ") + actual));
        std::size_t covered = 0;
        for (std::size_t i = 0; i < groups.size(); ++i) {
            ROOFLINE_COMPARE_REL(groups[i].start, expected[3 * i], 1e-12);
            ROOFLINE_COMPARE_REL(groups[i].end, expected[3 * i + 1], 1e-12);
            QCOMPARE(double(groups[i].count), expected[3 * i + 2]);
            QCOMPARE(groups[i].first, covered + (i == 0 ? groups[0].first : 0));
            covered = groups[i].first + groups[i].count;
        }
    }

    // The merge equals the bar-by-bar reference exactly (every field, sums
    // included) on a simulated trace at several views and on random bars of
    // mixed widths, gaps and stalls.
    void mergeEqualsTheReference()
    {
        const Trace trace = syntheticVectorAdd(20000, 2);
        const Result r = simulate(trace, unitMachine(2));
        QVERIFY(r.ok());
        const TimelineBars simulated = timelineBars(trace, r);
        std::mt19937_64 random(15);
        std::uniform_real_distribution<double> unit(0, 1);
        TimelineBars mixed;
        mixed.laneBegin = { 0 };
        for (int lane = 0; lane < 3; ++lane) {
            double t = 0;
            for (int i = 0; i < 5000; ++i) {
                t += unit(random) < 0.3 ? 3 * unit(random) : 0.02 * unit(random); // gaps under and over a pixel
                const double length = unit(random) < 0.1 ? 5 * unit(random) : 0.3 * unit(random);
                mixed.bars.push_back({ t, t + length, std::uint32_t(i), std::uint32_t(lane),
                    unit(random) < 0.4 ? Bar::Kind::Stall : Bar::Kind::Work });
                t += length;
            }
            mixed.laneBegin.push_back(mixed.bars.size());
        }
        int compared = 0;
        for (const TimelineBars *bars : std::initializer_list<const TimelineBars *> { &simulated, &mixed }) {
            const double total = bars->bars.empty() ? 1 : std::max_element(bars->bars.begin(), bars->bars.end(),
                [](const Bar &a, const Bar &b) { return a.end < b.end; })->end;
            for (const auto &[from, to] : std::initializer_list<std::pair<double, double>> { { 0.0, 1.0 }, { 0.1, 0.2 }, { 0.5, 0.5005 }, { 0.33, 0.9 } }) {
                for (const double pixels : { 1000.0, 1400.0, 37.0 }) {
                    for (const double minPixels : { 1.0, 2.0 }) {
                        const double start = from * total, end = to * total, nsPerPixel = (end - start) / pixels;
                        const auto fast = mergeBars(*bars, start, end, nsPerPixel, minPixels);
                        const auto reference = referenceMerge(*bars, start, end, nsPerPixel, minPixels);
                        QVERIFY2(fast == reference, qPrintable(QStringLiteral("%1 vs %2 groups, view %3-%4 at %5 px")
                                                                   .arg(fast.size()).arg(reference.size())
                                                                   .arg(from).arg(to).arg(pixels)));
                        compared += fast.size() > 1 ? 1 : 0;
                    }
                }
            }
        }
        QVERIFY(compared >= 40);
    }

    // 10^5 bars of 1 ns at 1000 px: at most a few groups per pixel and the
    // members are all accounted for.
    void mergeBoundsTheOutput()
    {
        std::vector<double> spans;
        for (int i = 0; i < 100000; ++i) {
            spans.push_back(2.0 * i);
            spans.push_back(2.0 * i + 1);
        }
        const TimelineBars bars = oneLane(spans);
        const double nsPerPixel = 200000.0 / 1000;
        const auto groups = mergeBars(bars, 0, 200000, nsPerPixel);
        QVERIFY2(groups.size() <= 1000, qPrintable(QString::number(groups.size())));
        std::size_t members = 0;
        double busy = 0;
        for (const BarGroup &g : groups) {
            members += g.count;
            busy += g.busyNs;
        }
        QCOMPARE(members, std::size_t(100000));
        ROOFLINE_COMPARE_REL(busy, 100000.0, 1e-12);
        // Short stalls between short work merge too, and are counted.
        TimelineBars mixed = oneLane({ 0, .1, .1, .2, .2, .3 });
        mixed.bars[1].kind = Bar::Kind::Stall;
        const auto groupsOfMixed = mergeBars(mixed, 0, 1, 1);
        QCOMPARE(groupsOfMixed.size(), 1u);
        QCOMPARE(groupsOfMixed[0].count, 3u);
        QCOMPARE(groupsOfMixed[0].stalls, 1u);
        ROOFLINE_COMPARE_REL(groupsOfMixed[0].busyNs, 0.2, 1e-12);
        ROOFLINE_COMPARE_REL(groupsOfMixed[0].stallNs, 0.1, 1e-12);
        QVERIFY(!groupsOfMixed[0].allStalls());
    }
};

QTEST_GUILESS_MAIN(TestVerrocchioLayout)
#include "tst_verrocchio_layout.moc"
