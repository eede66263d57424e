// The session file ("format": "roofline-studio/session", docs/file-formats.md):
// which views hold which models, snapshots and view state. Read here, in the
// core, so that it goes through the one hardened JSON path (linear time, depth
// and size limits, errors by JSON pointer) and can be fuzzed (issue 14); the
// studio hands each view its part.
#pragma once

#include "diagnostics.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

inline constexpr const char *kSessionFormatId = "roofline-studio/session";
inline constexpr int kSessionFormatVersion = 1;

struct Session
{
    std::string appVersion; // of the build that wrote it (informational)
    std::string current;    // the view shown, by session key; may be empty
    // Each view's state by its session key, in the file's order.
    std::vector<std::pair<std::string, nlohmann::json>> views;
};

struct SessionLoad
{
    std::optional<Session> session; // set when there were no errors
    Diagnostics diagnostics;
};

// Parses `text`; `viewKeys` are the views this build has: any other key in
// /views, an unknown top-level key, a wrong format or version are errors. Each
// view's state must be an object; what is in it is the view's to check.
SessionLoad parseSession(const std::string &text, const std::string &fileLabel, const std::vector<std::string> &viewKeys);
SessionLoad loadSessionFile(const std::string &path, const std::vector<std::string> &viewKeys);

} // namespace roofline
