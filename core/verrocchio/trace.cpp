#include "trace.h"

#include "../common/diagnostics.h"

namespace roofline::verrocchio {

namespace {
constexpr std::array<const char *, kPipeCount> kPipeNames = {"S", "MTE1", "MTE2", "MTE3", "M", "V"};

struct Intrinsic
{
    std::string_view name;
    Pipe pipe;
};

// hardware.md, "Instruction names (CCE intrinsics)".
constexpr Intrinsic kIntrinsics[] = {
    {"copy_gm_to_cbuf", Pipe::MTE2},   {"copy_gm_to_ubuf", Pipe::MTE2},    {"copy_ubuf_to_gm", Pipe::MTE3},
    {"load_cbuf_to_ca", Pipe::MTE1},   {"load_cbuf_to_cb", Pipe::MTE1},    {"mad", Pipe::M},
    {"copy_matrix_cc_to_ubuf", Pipe::V}, {"vadd", Pipe::V},                {"vsub", Pipe::V},
    {"vmul", Pipe::V},                 {"vmax", Pipe::V},                  {"vmin", Pipe::V},
    {"vmuls", Pipe::V},                {"vadds", Pipe::V},                 {"vexp", Pipe::V},
    {"vrelu", Pipe::V},                {"vconv", Pipe::V},                 {"vector_dup", Pipe::V},
    {"copy_ubuf_to_ubuf", Pipe::V},    {"scalar", Pipe::S},
};
} // namespace

const char *pipeName(Pipe pipe)
{
    return kPipeNames[pipeIndex(pipe)];
}

std::optional<Pipe> pipeFromName(std::string_view name)
{
    if (name.substr(0, 5) == "PIPE_")
        name.remove_prefix(5);
    for (Pipe p : kAllPipes) {
        if (name == kPipeNames[pipeIndex(p)])
            return p;
    }
    return std::nullopt;
}

std::optional<Pipe> pipeOfIntrinsic(std::string_view name)
{
    for (const Intrinsic &i : kIntrinsics) {
        if (i.name == name)
            return i.pipe;
    }
    return std::nullopt;
}

std::uint32_t Trace::internName(const std::string &text)
{
    // Traces use a handful of names; a linear search over them is cheap and
    // keeps Trace a plain value type.
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == text)
            return static_cast<std::uint32_t>(i);
    }
    names.push_back(text);
    return static_cast<std::uint32_t>(names.size() - 1);
}

OriginTable::Entry OriginTable::encode(std::string_view text)
{
    // Split off a trailing decimal number that reads back the same (no leading
    // zero, fits below kNoNumber); anything else is all prefix.
    std::size_t digits = 0;
    while (digits < text.size() && digits < 9 && text[text.size() - 1 - digits] >= '0'
           && text[text.size() - 1 - digits] <= '9')
        ++digits;
    const bool tooLong = digits == 9 && digits < text.size() && text[text.size() - 10] >= '0'
        && text[text.size() - 10] <= '9';
    const bool leadingZero = digits > 1 && text[text.size() - digits] == '0';
    Entry e;
    std::string_view prefix = text;
    if (digits > 0 && !tooLong && !leadingZero) {
        prefix = text.substr(0, text.size() - digits);
        std::uint32_t n = 0;
        for (char c : text.substr(text.size() - digits))
            n = n * 10 + static_cast<std::uint32_t>(c - '0');
        e.number = n;
    }
    if (m_lastPrefix < m_prefixes.size() && m_prefixes[m_lastPrefix] == prefix) {
        e.prefix = m_lastPrefix;
        return e;
    }
    auto [it, added] = m_prefixIds.try_emplace(std::string(prefix), static_cast<std::uint32_t>(m_prefixes.size()));
    if (added)
        m_prefixes.emplace_back(prefix);
    e.prefix = m_lastPrefix = it->second;
    return e;
}

std::uint32_t OriginTable::add(std::string_view text)
{
    // Called once per item of the file, not per expanded instruction.
    m_entries.push_back(encode(text));
    return static_cast<std::uint32_t>(m_entries.size() - 1);
}

void OriginTable::set(std::size_t index, std::string_view text)
{
    m_entries.at(index) = encode(text);
}

std::string OriginTable::operator[](std::size_t index) const
{
    const Entry &e = m_entries.at(index);
    std::string out = m_prefixes[e.prefix];
    if (e.number != kNoNumber)
        out += std::to_string(e.number);
    return out;
}

bool OriginTable::empty(std::size_t index) const
{
    const Entry &e = m_entries.at(index);
    return e.number == kNoNumber && m_prefixes[e.prefix].empty();
}

std::size_t OriginTable::heapBytes() const
{
    std::size_t bytes = m_entries.capacity() * sizeof(Entry);
    for (const std::string &s : m_prefixes)
        bytes += sizeof(s) + s.capacity() + 32; // + the map's node
    return bytes;
}

bool OriginTable::operator==(const OriginTable &other) const
{
    if (size() != other.size())
        return false;
    for (std::size_t i = 0; i < size(); ++i) {
        if ((*this)[i] != other[i])
            return false;
    }
    return true;
}

std::size_t Trace::instructionCount() const
{
    std::size_t n = 0;
    for (const CoreProgram &c : cores)
        n += c.instructions.size();
    return n;
}

std::string describe(const Trace &trace, const Instruction &in)
{
    auto flag = [&](const char *what) {
        return std::string(what) + "(" + pipeName(in.flagSource()) + ", " + pipeName(in.flagDestination()) + ", "
            + std::to_string(in.eventId) + ")";
    };
    switch (in.kind) {
    case Instruction::Kind::SetFlag: return flag("set_flag");
    case Instruction::Kind::WaitFlag: return flag("wait_flag");
    case Instruction::Kind::Barrier: return "pipe_barrier(ALL)";
    case Instruction::Kind::Work: break;
    }
    const std::string &name = in.name < trace.names.size() ? trace.names[in.name] : std::string();
    return (name.empty() ? std::string("work") : name) + " (" + pipeName(in.pipe) + ", " + formatNumber(in.size)
        + (movesBytes(in.pipe) ? " B)" : " ops)");
}

std::string describeAt(const Trace &trace, std::size_t core, std::size_t index)
{
    const Instruction &in = trace.cores[core].instructions[index];
    std::string out = "core " + std::to_string(core) + ", pipe "
        + (in.kind == Instruction::Kind::Barrier ? std::string("ALL") : std::string(pipeName(in.pipe)))
        + ", instruction " + std::to_string(index) + ": " + describe(trace, in);
    if (in.origin < trace.origins.size() && !trace.origins.empty(in.origin))
        out += " (" + trace.origins[in.origin] + ")";
    return out;
}

Machine ascend310()
{
    // hardware.md: 680 MHz; bytes/cycle DDR read 67, DDR write 64, L1->L0A 512;
    // cube 16x16x16 fp16 MACs per cycle; 2 cores. Seed 001 section 3.5: δt = 61 ns.
    constexpr double clockGHz = 0.68;
    const std::string fixture = "CANN platform fixture for the 310 (hardware.md): ";
    const std::string estimate = "estimate, not measured (the paper's Th_u and Init values are not public)";
    Machine m;
    m.name = "Ascend 310 (estimates)";
    m.description = "Two DaVinci cores at 680 MHz. Path widths from CANN's platform test fixtures; Init values, "
                    "the vector and scalar rates are estimates. Edit them when you have measurements.";
    auto set = [&](Pipe p, double throughput, const std::string &tSource, double init, const std::string &iSource) {
        m.pipe(p) = {throughput, init};
        const std::string base = std::string("/pipes/") + pipeName(p) + "/";
        m.sources[base + (movesBytes(p) ? "bandwidth_gbps" : "throughput_gops")] = tSource;
        m.sources[base + "init_ns"] = iSource;
    };
    set(Pipe::S, 1 * clockGHz, "one scalar op per cycle at 680 MHz: " + estimate, 0, estimate);
    set(Pipe::MTE1, 512 * clockGHz, fixture + "L1->L0A 512 B/cycle x 680 MHz", 30, estimate);
    set(Pipe::MTE2, 67 * clockGHz, fixture + "DDR read 67 B/cycle x 680 MHz", 150, estimate);
    set(Pipe::MTE3, 64 * clockGHz, fixture + "DDR write 64 B/cycle x 680 MHz", 150, estimate);
    set(Pipe::M, 4096 * clockGHz,
        "16x16x16 fp16 MACs per cycle (hardware.md) x 680 MHz; one op = one MAC", 20, estimate);
    set(Pipe::V, 128 * clockGHz, "128 fp16 lanes per cycle x 680 MHz: " + estimate, 20, estimate);
    m.busMode = BusMode::HalfDuplex;
    m.busGBps = 67 * clockGHz;
    m.readGBps = 67 * clockGHz;
    m.writeGBps = 64 * clockGHz;
    m.sources["/bus/bandwidth_gbps"] = fixture + "DDR read 67 B/cycle x 680 MHz, taken as the shared interconnect";
    m.sources["/bus/read_gbps"] = fixture + "DDR read 67 B/cycle x 680 MHz";
    m.sources["/bus/write_gbps"] = fixture + "DDR write 64 B/cycle x 680 MHz";
    m.coreCount = 2;
    m.skewNs = 61;
    m.sources["/cores/count"] = "Huawei: 2 DaVinci AI cores";
    m.sources["/cores/skew_ns"] = "seed 001 section 3.5: delta_t = 61 ns, measured";
    return m;
}

} // namespace roofline::verrocchio
