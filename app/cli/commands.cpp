#include "commands.h"

namespace cli {

int runSimulate(const std::vector<std::string> &args); // simulate.cpp

const std::vector<Command> &extraCommands()
{
    static const std::vector<Command> commands = {
        {"simulate",
         "  simulate TRACE.json MACHINE.json [--set POINTER=VALUE]... [--events json|csv [--events-out FILE]]\n"
         "           [--chrome-trace FILE]   Verrocchio event simulation of a DaVinci-style AI core;\n"
         "                                   see roofline-cli simulate --help\n",
         runSimulate},
    };
    return commands;
}

} // namespace cli
