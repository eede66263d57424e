#include "commands.h"

#include <iostream>

namespace cli {

void printDiagnostics(const roofline::Diagnostics &diagnostics)
{
    // "error: FILE: POINTER: REASON" and "warning: FILE: POINTER: REASON" alike.
    for (const roofline::Diagnostic &d : diagnostics.all()) {
        roofline::Diagnostic plain = d;
        plain.severity = roofline::Severity::Error; // toString() writes no severity for errors
        std::cerr << (d.severity == roofline::Severity::Error ? "error: " : "warning: ") << plain.toString() << '\n';
    }
}

int runSimulate(const std::vector<std::string> &args); // simulate.cpp
int runAmaix(const std::vector<std::string> &args);      // amaix.cpp
int runAmaixSweep(const std::vector<std::string> &args); // amaix.cpp
int runGablesSweep(const std::vector<std::string> &args); // gables.cpp
int runGoalSeek(const std::vector<std::string> &args);    // goalseek.cpp
int runNetwork(const std::vector<std::string> &args);     // network.cpp
int runBrouwer(const std::vector<std::string> &args);     // brouwer.cpp
int runBrouwerFit(const std::vector<std::string> &args);  // brouwer.cpp
int runNnmeter(const std::vector<std::string> &args);     // nnmeter.cpp
int runKernelLab(const std::vector<std::string> &args);   // kernellab.cpp

const std::vector<Command> &extraCommands()
{
    static const std::vector<Command> commands = {
        {"simulate",
         "  simulate TRACE.json MACHINE.json [--set POINTER=VALUE]... [--events json|csv [--events-out FILE]]\n"
         "           [--chrome-trace FILE]   Verrocchio event simulation of a DaVinci-style AI core;\n"
         "                                   see roofline-cli simulate --help\n",
         runSimulate},
        {"amaix",
         "  amaix NETWORK.json ACCEL.json [--format json|csv|text] [--refine] [--measured FILE.csv]\n"
         "           AMAIX per-layer roofline of a DNN on an accelerator; see roofline-cli amaix --help\n",
         runAmaix},
        {"amaix-sweep",
         "  amaix-sweep NETWORK.json ACCEL.json --x AXIS [--y AXIS] [--shard I/N]\n"
         "           AMAIX over a grid of accelerator parameters; see roofline-cli amaix-sweep --help\n",
         runAmaixSweep},
        {"gables-sweep",
         "  gables-sweep SOC.json --x AXIS [--y AXIS] [--format csv|jsonl|json] [--shard I/N]\n"
         "           Gables over a grid of one or two parameters; see roofline-cli gables-sweep --help\n",
         runGablesSweep},
        {"goal-seek",
         "  goal-seek FILE... --target patt=V|fps=V|time=V|total=V --vary POINTER [--format json|text]\n"
         "           the value of one parameter that reaches a target, or the bound that stops it;\n"
         "           exit 4 when unreachable; see roofline-cli goal-seek --help\n",
         runGoalSeek},
        {"network",
         "  network FILE [--format text|json] [--input-shape NAME=DIMS]... [--save-network OUT.json]\n"
         "           Import a network (our JSON, ONNX, Caffe prototxt) and print its layers, shapes,\n"
         "           parameters and MACs; see roofline-cli network --help\n",
         runNetwork},
        {"brouwer",
         "  brouwer NETWORK DEVICE.json --memory SIZE [--bytes-per-element N] [--format text|json|csv]\n"
         "           Brouwer per-layer load and execution time under a memory limit;\n"
         "           see roofline-cli brouwer --help\n",
         runBrouwer},
        {"brouwer-fit",
         "  brouwer-fit MEASURED.csv... --networks [NAME=]FILE,... --model fe|lasso [--order K] --out DEVICE.json\n"
         "           fit a Brouwer device on measured per-layer times; see roofline-cli brouwer-fit --help\n",
         runBrouwerFit},
        {"nnmeter",
         "  nnmeter NETWORK DEVICE [--format text|json] [--rule BF_A_B=on|off]... [--unit NAME=on|off]...\n"
         "           nn-Meter kernels (fusion rules) and kernel-level latency on a device, beside the\n"
         "           operator sum and a FLOPs estimate; see roofline-cli nnmeter --help\n",
         runNnmeter},
        {"kernel-lab",
         "  kernel-lab --out DIR [--budget 10m] [--kernels conv,dwconv,...] [--networks FILE,...] [--quick]\n"
         "           measure this machine's CPU with oneDNN: fusion rules, learned kernel predictors,\n"
         "           end-to-end network latency; see roofline-cli kernel-lab --help\n",
         runKernelLab},
    };
    return commands;
}

} // namespace cli
