// Verrocchio files (see docs/file-formats-verrocchio.md):
//  - traces, "roofline-studio/verrocchio-trace" version 1: per core a program
//    of instructions, flags, barriers and loops whose index may appear in event
//    ids; in JSON or in a compact text form;
//  - machines, "roofline-studio/verrocchio-machine" version 1;
// and the JSON, CSV and Chrome Trace Event forms of results.
#pragma once

#include "estimate.h"
#include "simulation.h"
#include "trace.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace roofline::verrocchio {

inline constexpr const char *kTraceFormatId = "roofline-studio/verrocchio-trace";
inline constexpr const char *kMachineFormatId = "roofline-studio/verrocchio-machine";
inline constexpr int kFormatVersion = 1;

struct Limits
{
    static constexpr double maxRate = 1e9;       // GB/s or Gops/s
    static constexpr double maxInitNs = 1e9;     // 1 s
    static constexpr double maxSize = 1e15;      // bytes or ops of one instruction
    static constexpr double maxSkewNs = 1e9;
    static constexpr int maxCores = 1024;
    static constexpr double maxLoopCount = 1e8;
    // Loops are expanded when loading; this keeps a typo in a count from eating all memory.
    static constexpr std::size_t maxInstructions = 20'000'000;
    static constexpr std::size_t maxLoopDepth = 32;       // loops nested in loops
    static constexpr std::size_t maxExpressionDepth = 32; // parentheses and signs nested in an event id
};

struct TraceLoadResult
{
    std::optional<Trace> trace; // set when there were no errors
    Diagnostics diagnostics;
};

struct MachineLoadResult
{
    std::optional<Machine> machine;
    Diagnostics diagnostics;
};

TraceLoadResult parseTrace(const std::string &text, const std::string &fileLabel);
// The compact text form (docs/file-formats-verrocchio.md): one instruction per
// line, "loop VAR COUNT" ... "end"; errors are named by line. Origins of the
// instructions are "line N".
TraceLoadResult parseTraceText(const std::string &text, const std::string &fileLabel);
// JSON when the file starts with "{", the text form otherwise.
TraceLoadResult loadTraceFile(const std::string &path);

MachineLoadResult parseMachine(const std::string &text, const std::string &fileLabel);
MachineLoadResult loadMachineFile(const std::string &path);
// Ranges of every number; errors named by JSON pointer as in the file.
void validate(const Machine &machine, Diagnostics &diagnostics);
nlohmann::json toJson(const Machine &machine);
std::string serialize(const Machine &machine); // pretty-printed, newline-terminated

// Applies "POINTER=VALUE" to a machine: /pipes/MTE2/bandwidth_gbps=40,
// /pipes/M/init_ns=0, /bus/bandwidth_gbps=30, /bus/mode=separate,
// /cores/count=1, /cores/skew_ns=0 (leading slash optional). On error the
// machine is unchanged.
bool applyOverride(Machine &machine, const std::string &assignment, Diagnostics &diagnostics);

// The summary roofline-cli simulate prints: total time, per-pipe busy
// fractions, contention, stalls, the critical path, bounds, warnings or the error.
nlohmann::json summaryToJson(const Trace &trace, const Machine &machine, const Result &result);
// One row per instruction: core, index, pipe, kind, name, size, start, end, ...
nlohmann::json eventsToJson(const Trace &trace, const Machine &machine, const Result &result);
std::string eventsToCsv(const Trace &trace, const Machine &machine, const Result &result);
// Chrome Trace Event JSON ("ph":"X"; pid = core, tid = pipe; ts and dur in µs;
// args with size and bandwidth), for Perfetto or chrome://tracing.
nlohmann::json chromeTrace(const Trace &trace, const Machine &machine, const Result &result);

// --- Streamed exports (exportstream.cpp) -----------------------------------
// The events CSV and JSON and the Chrome Trace written piece by piece, in bounded
// memory (a buffer of about 1 MB, whatever the trace's length): 10⁶
// instructions in well under a second. The Chrome Trace has the content of
// chromeTrace() (the same events, names and args); eventsToCsv() is
// writeEventsCsv() into a string.

// Where a streamed export goes: chunks of bytes in order. write() returns
// false on failure, and the writer stops.
class ByteSink
{
public:
    virtual ~ByteSink() = default;
    virtual bool write(const char *data, std::size_t size) = 0;
};

bool writeEventsCsv(const Trace &trace, const Machine &machine, const Result &result, ByteSink &sink);
bool writeChromeTrace(const Trace &trace, const Machine &machine, const Result &result, ByteSink &sink);
// The content of eventsToJson() (the same keys and values; one event a line).
bool writeEventsJson(const Trace &trace, const Machine &machine, const Result &result, ByteSink &sink);

enum class ExportKind { EventsCsv, EventsJson, ChromeTrace };

// Writes the export to `path` atomically (a temporary file beside it,
// flushed to disk, then renamed over `path`, so a failed or interrupted
// export leaves any old file as it was), gzip-compressed when `path` ends in
// ".gz" (Perfetto and chrome://tracing open a .json.gz trace directly).
// Returns an empty string, or why it failed, naming the file.
std::string exportToFile(const std::string &path, ExportKind kind, const Trace &trace, const Machine &machine,
                         const Result &result);

} // namespace roofline::verrocchio
