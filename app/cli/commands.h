// Sub-commands of roofline-cli beyond the Gables ones in main.cpp. Each model
// adds one file in app/cli/ and one entry in extraCommands() (commands.cpp).
#pragma once

#include <string>
#include <vector>

namespace cli {

struct Command
{
    const char *name;  // "amaix", "simulate", ...
    const char *usage; // printed by --help
    int (*run)(const std::vector<std::string> &args); // args after the command name; returns the exit status
};

const std::vector<Command> &extraCommands();

} // namespace cli
