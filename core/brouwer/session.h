// The Brouwer view's part of a session file ("views": {"brouwer": {...}},
// docs/file-formats.md): the network (our JSON, as a string), the device (a
// device file, as a string), the memory and bytes per element, smearing, the
// measurement files as read, and the snapshots. Read here, in the core, so it
// goes through the hardened loaders and can be fuzzed (fuzz_brouwer_session,
// issue 14); the studio's BrouwerDocument turns the result into its state.
// Every error names the session file, the JSON pointer and the reason.
#pragma once

#include "fit.h"
#include "model.h"
#include "network/network.h"
#include "../common/diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace roofline::brouwer {

// What a session (and the studio's sliders) may set: 16 MiB – 16 GiB of
// memory, 0.125 – 64 bytes per element.
struct SessionRanges
{
    static constexpr double minMemory = 16.0 * 1024 * 1024;
    static constexpr double maxMemory = 16.0 * 1024 * 1024 * 1024;
    static constexpr double minBytesPerElement = 0.125;
    static constexpr double maxBytesPerElement = 64;
};

// One state of the view: the current one or a snapshot's.
struct SessionState
{
    std::string networkName; // as shown in the selector; the network's own name when the file gives none
    std::string networkPath; // where the network came from (may be empty)
    network::Network network; // at least one layer
    std::string devicePath;  // empty: a fit not saved yet
    Device device;
    Params params;
    bool smeared = false;
    struct MeasuredFile
    {
        std::string path;
        std::string text; // as read; its rows are in measuredRows
    };
    std::vector<MeasuredFile> measuredFiles; // empty: no measurements
    std::vector<MeasuredRow> measuredRows;
};

struct SessionSnapshot
{
    std::string name; // not empty, trimmed
    SessionState state;
};

struct SessionPart
{
    SessionState current;
    std::vector<SessionSnapshot> snapshots;
    int compared = -1; // the snapshot compared against, -1 for none
    bool modified = false;
};

struct SessionPartLoad
{
    std::optional<SessionPart> part; // set when there were no errors
    Diagnostics diagnostics;
};

// `state` is the object at `where` ("/views/brouwer") of `sessionFile`. An
// unknown key is an error; "view" (the tabs shown) is the studio's and not
// checked here.
SessionPartLoad parseSessionPart(const nlohmann::json &state, const std::string &sessionFile,
                                 const std::string &where = "/views/brouwer");
// The same from JSON text (the studio hands over its copy; the fuzz harness
// its input), through the one hardened JSON path (depth and size limits).
SessionPartLoad parseSessionPartText(const std::string &text, const std::string &sessionFile,
                                     const std::string &where = "/views/brouwer");

} // namespace roofline::brouwer
