// A digest of every field of a simulation result, and the traces and machines
// the digests are taken on: shared by roofline-core-bench (`--only digest`,
// printed) and tst_verrocchio_simulation (pinned), so that a faster simulator
// is checked to give the same results to the last bit.
#pragma once

#include "verrocchio/simulation.h"
#include "verrocchio/trace.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace roofline::verrocchio {

// FNV-1a over every field of a result: equal digests before and after a
// change of the simulator mean the same timings to the last bit.
struct Digest
{
    std::uint64_t h = 1469598103934665603ull;
    template<typename T>
    void add(const T &v)
    {
        unsigned char bytes[sizeof(T)];
        std::memcpy(bytes, &v, sizeof(T));
        for (unsigned char b : bytes)
            h = (h ^ b) * 1099511628211ull;
    }
    void add(const std::string &s)
    {
        for (char c : s)
            add(c);
        add(s.size());
    }
};

inline std::uint64_t digest(const Result &r)
{
    Digest d;
    d.add(r.error.has_value());
    if (r.error) {
        d.add(int(r.error->kind));
        d.add(r.error->core);
        d.add(r.error->instruction);
        d.add(r.error->message);
    }
    d.add(r.totalNs);
    for (const CoreResult &c : r.cores) {
        for (const Timing &t : c.instructions) {
            d.add(t.executed);
            d.add(t.start);
            d.add(t.end);
            d.add(t.cause);
            d.add(t.causeKind);
            d.add(t.flag);
        }
        for (double b : c.busyNs)
            d.add(b);
        d.add(c.startNs);
        d.add(c.endNs);
    }
    for (const Stall &s : r.stalls) {
        d.add(s.core);
        d.add(s.instruction);
        d.add(s.start);
        d.add(s.end);
    }
    for (const ContentionInterval &c : r.contention) {
        d.add(c.start);
        d.add(c.end);
        d.add(c.firstShare);
        d.add(c.shareCount);
    }
    for (const Share &s : r.shares) {
        d.add(s.core);
        d.add(s.instruction);
        d.add(s.rateGBps);
    }
    d.add(r.contentionNs);
    for (const PathStep &p : r.criticalPath) {
        d.add(p.core);
        d.add(p.instruction);
        d.add(p.via);
    }
    for (const std::string &w : r.warnings)
        d.add(w);
    return d.h;
}

// Random programs: work of random sizes (some zero) on random pipes, flags
// mostly in set-then-wait pairs but some unmatched or out of order, and
// barriers, so that deadlocks and flag errors are digested too.
inline Trace randomTrace(std::mt19937 &rng, std::size_t length, int cores)
{
    Trace trace;
    trace.name = "random";
    std::uniform_int_distribution<int> pipe(0, int(kPipeCount) - 1), percent(0, 99), event(0, 1);
    std::uniform_real_distribution<double> size(0, 8192);
    for (int c = 0; c < cores; ++c) {
        CoreProgram program;
        std::vector<Instruction> pendingWaits;
        while (program.instructions.size() < length) {
            Instruction in;
            const int roll = percent(rng);
            if (roll < 55) {
                in.pipe = kAllPipes[std::size_t(pipe(rng))];
                in.size = percent(rng) < 5 ? 0 : std::floor(size(rng));
            } else if (roll < 80) {
                in.kind = Instruction::Kind::SetFlag;
                in.pipe = kAllPipes[std::size_t(pipe(rng))];
                in.other = kAllPipes[std::size_t(pipe(rng))];
                in.eventId = std::uint8_t(event(rng));
                Instruction wait = in;
                wait.kind = Instruction::Kind::WaitFlag;
                std::swap(wait.pipe, wait.other);
                if (percent(rng) < 97)
                    pendingWaits.push_back(wait);
            } else if (roll < 95 && !pendingWaits.empty()) {
                const std::size_t k = percent(rng) < 90 ? 0 : pendingWaits.size() - 1;
                in = pendingWaits[k];
                pendingWaits.erase(pendingWaits.begin() + std::ptrdiff_t(k));
            } else if (roll < 98) {
                in.kind = Instruction::Kind::Barrier;
            } else {
                continue;
            }
            program.instructions.push_back(in);
        }
        for (const Instruction &wait : pendingWaits)
            program.instructions.push_back(wait);
        trace.cores.push_back(std::move(program));
    }
    return trace;
}

// Half duplex and separate buses, with and without Init, skewed cores, a slow
// bus (contention everywhere).
inline std::vector<std::pair<std::string, Machine>> digestMachines()
{
    std::vector<std::pair<std::string, Machine>> machines;
    machines.emplace_back("ascend310", ascend310());
    Machine m = ascend310();
    m.busMode = BusMode::Separate;
    m.readGBps = 40;
    m.writeGBps = 25;
    machines.emplace_back("separate", m);
    m = ascend310();
    m.pipe(Pipe::MTE2).initNs = 0;
    m.pipe(Pipe::MTE3).initNs = 0;
    m.skewNs = 0;
    machines.emplace_back("no-init", m);
    m = ascend310();
    m.busGBps = 7.5;
    m.skewNs = 33.3;
    machines.emplace_back("slow-bus", m);
    return machines;
}

// The random traces both the bench (2000 of them) and the test (the first 500)
// digest: one to three cores, 10 to 250 instructions a core, the digest
// machines in turn; simulated with and without a plan, and with a recycled result.
struct RandomTraceDigest
{
    std::uint64_t digest = 1469598103934665603ull; // of every result, in order
    std::size_t errors = 0; // results that stopped on an error (deadlock, flag)
    std::size_t planDiffers = 0; // results that differ when simulated with a plan
    // ... or with a plan and the arrays of the result before (another trace's,
    // of another length or core count, often stopped on an error) recycled
    std::size_t recycledDiffers = 0;
};

inline RandomTraceDigest digestRandomTraces(int count)
{
    const std::vector<std::pair<std::string, Machine>> machines = digestMachines();
    std::mt19937 rng(15);
    RandomTraceDigest out;
    Result recycled;
    for (int k = 0; k < count; ++k) {
        const int cores = 1 + k % 3;
        const Trace trace = randomTrace(rng, 10 + std::size_t(k % 7) * 40, cores);
        Machine machine = machines[std::size_t(k) % machines.size()].second;
        machine.coreCount = std::max(machine.coreCount, cores);
        const Result r = simulate(trace, machine);
        out.errors += r.ok() ? 0 : 1;
        out.digest = (out.digest ^ digest(r)) * 1099511628211ull;
        const SimulationPlan plan(trace);
        out.planDiffers += simulate(trace, plan, machine) == r ? 0 : 1;
        recycled = simulate(trace, plan, machine, {}, std::move(recycled));
        out.recycledDiffers += recycled == r ? 0 : 1;
    }
    return out;
}

} // namespace roofline::verrocchio
