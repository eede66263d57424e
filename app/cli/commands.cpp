#include "commands.h"

namespace cli {

const std::vector<Command> &extraCommands()
{
    static const std::vector<Command> commands = {
    };
    return commands;
}

} // namespace cli
