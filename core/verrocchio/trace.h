// Traces and machines of the Verrocchio model (Tang & Wang, JPDC 2023; seed 001,
// section 3; restated in shared/reference/models.md section 3).
//
// A trace is, per core, the instructions in program order as the scalar unit
// dispatches them. Loops of the file format are already expanded here, so a
// Trace is flat and the simulation never interprets anything.
//
// Units: time in ns; MTE pipes move bytes at GB/s (= bytes/ns); S, M and V do
// operations at Gops/s (= ops/ns).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace roofline::verrocchio {

// The six in-order queues of a DaVinci core (models.md 3.1).
enum class Pipe : std::uint8_t { S, MTE1, MTE2, MTE3, M, V };
inline constexpr std::size_t kPipeCount = 6;
inline constexpr std::array<Pipe, kPipeCount> kAllPipes = {Pipe::S, Pipe::MTE1, Pipe::MTE2,
                                                           Pipe::MTE3, Pipe::M, Pipe::V};

const char *pipeName(Pipe pipe); // "S", "MTE1", ...
// Accepts "MTE2" and the CCE spelling "PIPE_MTE2".
std::optional<Pipe> pipeFromName(std::string_view name);
inline std::size_t pipeIndex(Pipe pipe) { return static_cast<std::size_t>(pipe); }
// MTE pipes move bytes, the others execute operations.
inline bool movesBytes(Pipe pipe) { return pipe == Pipe::MTE1 || pipe == Pipe::MTE2 || pipe == Pipe::MTE3; }
// Pipes whose transfers cross the off-core interconnect: MTE2 reads and MTE3
// writes global memory, and contend with every such transfer of every core.
inline bool usesBus(Pipe pipe) { return pipe == Pipe::MTE2 || pipe == Pipe::MTE3; }

// The pipe a CCE intrinsic runs on (hardware.md), or nullopt for unknown names.
std::optional<Pipe> pipeOfIntrinsic(std::string_view name);

// Event ids a flag may use (0–3 on the Ascend 310, 0–7 on newer parts).
inline constexpr int kMaxEventId = 7;

struct Instruction
{
    enum class Kind : std::uint8_t { Work, SetFlag, WaitFlag, Barrier };
    Kind kind = Kind::Work;
    // Work: the pipe that executes it. SetFlag: the source pipe it is queued on.
    // WaitFlag: the destination pipe it is queued on. Barrier: S (it is issued by
    // the scalar unit but occupies no pipe).
    Pipe pipe = Pipe::S;
    Pipe other = Pipe::S;      // SetFlag: destination; WaitFlag: source
    std::uint8_t eventId = 0;  // flags only
    std::uint32_t name = 0;    // index into Trace::names (0 is "")
    std::uint32_t origin = 0;  // index into Trace::origins: where the file wrote it
    double size = 0;           // Work: bytes (MTE pipes) or ops (S, M, V)

    // The semaphore of a flag: (src, dst, id).
    Pipe flagSource() const { return kind == Kind::SetFlag ? pipe : other; }
    Pipe flagDestination() const { return kind == Kind::SetFlag ? other : pipe; }

    bool operator==(const Instruction &) const = default;
};

// Where the file wrote each item: a JSON pointer ("/cores/0/program/12") or,
// for the text form, a line ("line 19"). Kept compact (issue 14: memory): a
// flat 10⁶-item trace has 10⁶ of them, and as strings they were some 64 MB.
// Each entry is its text up to a trailing decimal number (interned; a program's
// items share it) and that number; the text is built only when a message needs it.
class OriginTable
{
public:
    OriginTable() { add(""); } // entry 0 is "" (an instruction with no origin)

    std::uint32_t add(std::string_view text);
    // Replaces entry `index` (the text form turns pointers into lines).
    void set(std::size_t index, std::string_view text);
    std::string operator[](std::size_t index) const;
    std::size_t size() const { return m_entries.size(); }
    bool empty(std::size_t index) const;
    // Heap bytes held (capacities), for the benchmark's memory figures.
    std::size_t heapBytes() const;

    bool operator==(const OriginTable &other) const;

private:
    struct Entry
    {
        std::uint32_t prefix = 0;
        std::uint32_t number = kNoNumber;
    };
    static constexpr std::uint32_t kNoNumber = 0xffffffffu;
    Entry encode(std::string_view text);

    std::vector<Entry> m_entries;
    std::vector<std::string> m_prefixes;
    std::unordered_map<std::string, std::uint32_t> m_prefixIds;
    std::uint32_t m_lastPrefix = 0; // consecutive items mostly share their prefix
};

struct CoreProgram
{
    std::string name;
    std::vector<Instruction> instructions;

    bool operator==(const CoreProgram &) const = default;
};

struct Trace
{
    std::string name;
    std::string description;
    std::vector<CoreProgram> cores;
    std::vector<std::string> names = {""};   // instruction names, interned
    OriginTable origins; // where the file wrote the items that produced instructions

    std::uint32_t internName(const std::string &name);
    std::uint32_t internOrigin(std::string_view pointer) { return origins.add(pointer); }
    std::size_t instructionCount() const;

    bool operator==(const Trace &) const = default;
};

// "set_flag(MTE2, V, 1)", "copy_gm_to_ubuf (MTE2, 2048 B)", "pipe_barrier(ALL)".
std::string describe(const Trace &trace, const Instruction &instruction);
// "core 0, pipe V, instruction 12: wait_flag(MTE2, V, 1) (/cores/0/program/3/body/1)".
std::string describeAt(const Trace &trace, std::size_t core, std::size_t index);

// --- Machine ---------------------------------------------------------------

struct PipeParams
{
    double throughput = 1; // Th_u: GB/s for MTE pipes, Gops/s for S, M, V
    double initNs = 0;     // Init_u: fixed start overhead of every instruction

    bool operator==(const PipeParams &) const = default;
};

enum class BusMode {
    HalfDuplex, // reads and writes share bandwidthGBps (the seed's finding)
    Separate    // reads share readGBps, writes share writeGBps
};

struct Machine
{
    std::string name;
    std::string description;
    std::array<PipeParams, kPipeCount> pipes;
    BusMode busMode = BusMode::HalfDuplex;
    double busGBps = 1;   // B_bus, half duplex
    double readGBps = 1;  // separate mode
    double writeGBps = 1; // separate mode
    int coreCount = 1;    // N
    double skewNs = 0;    // δt: core c starts at c·δt
    // Free-text source of each number, keyed by its JSON pointer in the
    // machine file ("/pipes/MTE2/bandwidth_gbps", "/bus/bandwidth_gbps", ...).
    std::map<std::string, std::string> sources;

    const PipeParams &pipe(Pipe p) const { return pipes[pipeIndex(p)]; }
    PipeParams &pipe(Pipe p) { return pipes[pipeIndex(p)]; }

    bool operator==(const Machine &) const = default;
};

// The Ascend 310 defaults of examples/verrocchio/ascend310.json: clock and
// path widths from CANN's platform fixtures (hardware.md); Init values, the
// vector and scalar rates are estimates (the paper's measured values are not public).
Machine ascend310();

} // namespace roofline::verrocchio
