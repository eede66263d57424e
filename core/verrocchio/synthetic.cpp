#include "synthetic.h"

#include <algorithm>
#include <string>

namespace roofline::verrocchio {

namespace {
using Kind = Instruction::Kind;

Instruction flag(Kind kind, Pipe src, Pipe dst, std::size_t id)
{
    Instruction in;
    in.kind = kind;
    in.pipe = kind == Kind::SetFlag ? src : dst;
    in.other = kind == Kind::SetFlag ? dst : src;
    in.eventId = static_cast<std::uint8_t>(id);
    return in;
}

Instruction work(Pipe pipe, double size, std::uint32_t name)
{
    Instruction in;
    in.pipe = pipe;
    in.size = size;
    in.name = name;
    return in;
}
} // namespace

Trace syntheticVectorAdd(std::size_t instructions, int cores)
{
    cores = std::max(cores, 1);
    Trace trace;
    trace.name = "Synthetic vector add, " + std::to_string(instructions) + " instructions";
    trace.description = "Generated: the double-buffered vector add of vector-add-1core.txt, repeated.";
    const std::uint32_t load = trace.internName("copy_gm_to_ubuf");
    const std::uint32_t add = trace.internName("vadd");
    const std::uint32_t store = trace.internName("copy_ubuf_to_gm");
    const std::size_t tiles = std::max<std::size_t>(1, (instructions / std::size_t(cores)) / 12);
    for (int c = 0; c < cores; ++c) {
        CoreProgram program;
        program.name = "vector add " + std::to_string(c);
        auto &v = program.instructions;
        v.reserve(tiles * 12 + 8);
        for (std::size_t b = 0; b < 2; ++b) // both buffers of each operand start free
            v.push_back(flag(Kind::SetFlag, Pipe::V, Pipe::MTE2, b));
        for (std::size_t b = 0; b < 2; ++b)
            v.push_back(flag(Kind::SetFlag, Pipe::MTE3, Pipe::V, b));
        for (std::size_t i = 0; i < tiles; ++i) {
            const std::size_t b = i % 2;
            v.push_back(flag(Kind::WaitFlag, Pipe::V, Pipe::MTE2, b));
            v.push_back(work(Pipe::MTE2, 4096, load));
            v.push_back(work(Pipe::MTE2, 4096, load));
            v.push_back(flag(Kind::SetFlag, Pipe::MTE2, Pipe::V, b));
            v.push_back(flag(Kind::WaitFlag, Pipe::MTE2, Pipe::V, b));
            v.push_back(flag(Kind::WaitFlag, Pipe::MTE3, Pipe::V, b));
            v.push_back(work(Pipe::V, 2048, add));
            v.push_back(flag(Kind::SetFlag, Pipe::V, Pipe::MTE2, b));
            v.push_back(flag(Kind::SetFlag, Pipe::V, Pipe::MTE3, b));
            v.push_back(flag(Kind::WaitFlag, Pipe::V, Pipe::MTE3, b));
            v.push_back(work(Pipe::MTE3, 4096, store));
            v.push_back(flag(Kind::SetFlag, Pipe::MTE3, Pipe::V, b));
        }
        for (std::size_t b = 0; b < 2; ++b) // drain: every set_flag is waited for
            v.push_back(flag(Kind::WaitFlag, Pipe::V, Pipe::MTE2, b));
        for (std::size_t b = 0; b < 2; ++b)
            v.push_back(flag(Kind::WaitFlag, Pipe::MTE3, Pipe::V, b));
        trace.cores.push_back(std::move(program));
    }
    return trace;
}

} // namespace roofline::verrocchio
