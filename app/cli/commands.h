// Sub-commands of roofline-cli beyond the Gables ones in main.cpp. Each model
// adds one file in app/cli/ and one entry in extraCommands() (commands.cpp).
#pragma once

#include "common/diagnostics.h"

#include <string>
#include <vector>

namespace cli {

// Exit status of every command: 0 success, 1 invalid input, 2 wrong usage.
inline constexpr int kExitInvalidInput = 1;
inline constexpr int kExitUsage = 2;

// Prints diagnostics to stderr, errors prefixed "error: ", one per line.
void printDiagnostics(const roofline::Diagnostics &diagnostics);

struct Command
{
    const char *name;  // "amaix", "simulate", ...
    const char *usage; // printed by --help
    int (*run)(const std::vector<std::string> &args); // args after the command name; returns the exit status
};

const std::vector<Command> &extraCommands();

} // namespace cli
