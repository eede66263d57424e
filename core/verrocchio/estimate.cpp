#include "estimate.h"

#include <algorithm>

namespace roofline::verrocchio {

ClosedForm coreLocalClosedForm(double dsSingle, double thSingle, int cores, double skewNs)
{
    const double n = cores;
    ClosedForm out;
    out.fullNs = (dsSingle - (n - 1) * thSingle * skewNs) / thSingle;
    if (out.fullNs > 0 || skewNs <= 0) {
        out.timeNs = 2 * (n - 1) * skewNs + out.fullNs;
        return out;
    }
    out.allOverlap = false;
    out.nMax = dsSingle / (thSingle * skewNs) + 1;
    out.timeNs = 2 * (out.nMax - 1) * skewNs;
    return out;
}

ClosedForm busClosedForm(double dsSingle, double thTotal, int cores, double skewNs)
{
    const double n = cores;
    ClosedForm out;
    out.fullNs = (n * dsSingle - 2 * (n - 1) * thTotal * skewNs) / thTotal;
    const double denominator = 2 * thTotal * skewNs - dsSingle;
    if (out.fullNs > 0 || skewNs <= 0 || denominator <= 0) {
        out.timeNs = 2 * (n - 1) * skewNs + out.fullNs;
        return out;
    }
    out.allOverlap = false;
    out.nMax = 2 * thTotal * skewNs / denominator;
    out.timeNs = 2 * (out.nMax - 1) * skewNs;
    return out;
}

TraceBounds traceBounds(const Trace &trace, const Machine &machine)
{
    TraceBounds out;
    out.pipeNs.resize(trace.cores.size());
    double readBytes = 0, writeBytes = 0;
    for (std::size_t c = 0; c < trace.cores.size(); ++c) {
        auto &ns = out.pipeNs[c];
        ns.fill(0);
        for (const Instruction &in : trace.cores[c].instructions) {
            if (in.kind != Instruction::Kind::Work)
                continue;
            const PipeParams &p = machine.pipe(in.pipe);
            ns[pipeIndex(in.pipe)] += p.initNs + in.size / p.throughput;
            if (in.pipe == Pipe::MTE2)
                readBytes += in.size;
            else if (in.pipe == Pipe::MTE3)
                writeBytes += in.size;
        }
        const double busiest = *std::max_element(ns.begin(), ns.end());
        out.lowerBoundNs = std::max(out.lowerBoundNs, static_cast<double>(c) * machine.skewNs + busiest);
    }
    out.busBytes = readBytes + writeBytes;
    out.busNs = machine.busMode == BusMode::HalfDuplex
        ? out.busBytes / machine.busGBps
        : std::max(readBytes / machine.readGBps, writeBytes / machine.writeGBps);
    out.lowerBoundNs = std::max(out.lowerBoundNs, out.busNs);
    return out;
}

} // namespace roofline::verrocchio
