// Small helpers to write Verrocchio traces and machines in tests.
#pragma once

#include "verrocchio/trace.h"

namespace testbuild {

using namespace roofline::verrocchio;

// A machine whose every rate is 1 (GB/s or Gops/s), no Init, one half-duplex
// bus of 1 GB/s: times come out in whole nanoseconds, as in models.md 3.2.
inline Machine unitMachine(int cores = 1, double skewNs = 0)
{
    Machine m;
    m.name = "unit";
    for (PipeParams &p : m.pipes)
        p = {1, 0};
    m.busGBps = m.readGBps = m.writeGBps = 1;
    m.coreCount = cores;
    m.skewNs = skewNs;
    return m;
}

class ProgramBuilder
{
public:
    ProgramBuilder(Trace &trace, std::size_t core)
        : m_trace(trace)
        , m_core(core)
    {
        if (m_trace.cores.size() <= core)
            m_trace.cores.resize(core + 1);
    }

    ProgramBuilder &work(Pipe pipe, double size, const std::string &name = {})
    {
        Instruction in;
        in.kind = Instruction::Kind::Work;
        in.pipe = pipe;
        in.size = size;
        in.name = m_trace.internName(name);
        return add(in);
    }
    ProgramBuilder &set(Pipe src, Pipe dst, int id = 0) { return flag(Instruction::Kind::SetFlag, src, dst, id); }
    ProgramBuilder &wait(Pipe src, Pipe dst, int id = 0) { return flag(Instruction::Kind::WaitFlag, src, dst, id); }
    ProgramBuilder &barrier()
    {
        Instruction in;
        in.kind = Instruction::Kind::Barrier;
        return add(in);
    }

private:
    ProgramBuilder &flag(Instruction::Kind kind, Pipe src, Pipe dst, int id)
    {
        Instruction in;
        in.kind = kind;
        in.pipe = kind == Instruction::Kind::SetFlag ? src : dst;
        in.other = kind == Instruction::Kind::SetFlag ? dst : src;
        in.eventId = static_cast<std::uint8_t>(id);
        return add(in);
    }
    ProgramBuilder &add(const Instruction &in)
    {
        m_trace.cores[m_core].instructions.push_back(in);
        return *this;
    }

    Trace &m_trace;
    std::size_t m_core;
};

} // namespace testbuild
