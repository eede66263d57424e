// roofline-cli simulate: the Verrocchio event simulation on the command line.
//
//   roofline-cli simulate TRACE.json MACHINE.json [--set POINTER=VALUE]...
//                [--events json|csv [--events-out FILE]] [--chrome-trace FILE]
#include "commands.h"
#include "common/jsonreader.h"
#include "verrocchio/io.h"
#include "verrocchio/simulation.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

namespace cli {

namespace {

using namespace roofline;



struct StdoutSink : verrocchio::ByteSink
{
    bool write(const char *data, std::size_t size) override
    {
        std::cout.write(data, std::streamsize(size));
        return bool(std::cout);
    }
};

const char *const kSimulateUsage = R"(  simulate TRACE MACHINE.json [OPTIONS]
                       TRACE is JSON or the compact text form.
                       Run the Verrocchio event simulation of a DaVinci-style
                       AI core (docs/models/verrocchio.md) and print a JSON
                       summary: total time, busy fraction per pipe, stalls,
                       bus contention, critical path.
    --set POINTER=VALUE  Override a machine parameter; may repeat:
                         /pipes/MTE2/bandwidth_gbps=40  /pipes/M/throughput_gops=2000
                         /pipes/V/init_ns=0  /bus/bandwidth_gbps=30  /bus/mode=separate
                         /cores/count=1  /cores/skew_ns=0
    --events json|csv    Print every instruction's start and end instead of the summary
    --events-out FILE    With --events: write them to FILE and still print the summary
                         (csv: gzip-compressed when FILE ends in .gz)
    --chrome-trace FILE  Write a Chrome Trace Event file (Perfetto, chrome://tracing);
                         FILE.json.gz writes it gzip-compressed (both open it directly)
)";

} // namespace

int runSimulate(const std::vector<std::string> &args)
{
    std::vector<std::string> files, overrides;
    std::string events, eventsOut, chromeOut;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto value = [&](const char *option, std::string &target) {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli simulate: " << option << " needs a value\n";
                return false;
            }
            target = args[++i];
            return true;
        };
        std::string v;
        if (a == "--set") {
            if (!value("--set", v))
                return kExitUsage;
            overrides.push_back(v);
        } else if (a == "--events") {
            if (!value("--events", events))
                return kExitUsage;
        } else if (a == "--events-out") {
            if (!value("--events-out", eventsOut))
                return kExitUsage;
        } else if (a == "--chrome-trace") {
            if (!value("--chrome-trace", chromeOut))
                return kExitUsage;
        } else if (a == "-h" || a == "--help") {
            std::cout << "Usage: roofline-cli\n" << kSimulateUsage;
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "roofline-cli simulate: unknown option \"" << a << "\"\n\n" << kSimulateUsage;
            return kExitUsage;
        } else {
            files.push_back(a);
        }
    }
    if (files.size() != 2) {
        std::cerr << "roofline-cli simulate: needs TRACE.json and MACHINE.json, got " << files.size()
                  << " file(s)\n\n" << kSimulateUsage;
        return kExitUsage;
    }
    if (!events.empty() && events != "json" && events != "csv") {
        std::cerr << "roofline-cli simulate: --events must be json or csv, got \"" << events << "\"\n";
        return kExitUsage;
    }
    if (!eventsOut.empty() && events.empty()) {
        std::cerr << "roofline-cli simulate: --events-out needs --events json|csv\n";
        return kExitUsage;
    }

    verrocchio::TraceLoadResult trace = verrocchio::loadTraceFile(files[0]);
    printDiagnostics(trace.diagnostics);
    verrocchio::MachineLoadResult machine = verrocchio::loadMachineFile(files[1]);
    printDiagnostics(machine.diagnostics);
    if (!trace.trace || !machine.machine)
        return kExitInvalidInput;
    Diagnostics overrideDiagnostics;
    overrideDiagnostics.setFile(files[1]);
    for (const std::string &o : overrides) {
        if (!verrocchio::applyOverride(*machine.machine, o, overrideDiagnostics)) {
            printDiagnostics(overrideDiagnostics);
            return kExitInvalidInput;
        }
    }

    const verrocchio::Result result = verrocchio::simulate(*trace.trace, *machine.machine);
    for (const std::string &w : result.warnings)
        std::cerr << files[0] << ": warning: " << w << '\n';
    if (result.ok()) {
        if (const auto bad = nonFinitePointer(verrocchio::summaryToJson(*trace.trace, *machine.machine, result))) {
            std::cerr << "error: " << files[0] << " on " << files[1] << ": the result " << *bad
                      << " is not a finite number: an input is too large or too small for the model to compute with\n";
            return kExitInvalidInput;
        }
    }
    // Chrome Trace and events CSV are streamed (bounded memory), written
    // atomically, and gzip-compressed when the file name ends in .gz.
    const auto exportFile = [&](const std::string &path, verrocchio::ExportKind kind) {
        const std::string error = verrocchio::exportToFile(path, kind, *trace.trace, *machine.machine, result);
        if (!error.empty())
            std::cerr << "error: " << error << '\n';
        return error.empty();
    };
    if (!chromeOut.empty() && !exportFile(chromeOut, verrocchio::ExportKind::ChromeTrace))
        return kExitInvalidInput;

    // Both event forms are streamed too: to the file atomically, or to stdout.
    const auto eventsKind = events == "json" ? verrocchio::ExportKind::EventsJson : verrocchio::ExportKind::EventsCsv;
    if (!events.empty() && !eventsOut.empty()) {
        if (!exportFile(eventsOut, eventsKind))
            return kExitInvalidInput;
    } else if (events == "csv") {
        StdoutSink out;
        verrocchio::writeEventsCsv(*trace.trace, *machine.machine, result, out);
    } else if (events == "json") {
        StdoutSink out;
        verrocchio::writeEventsJson(*trace.trace, *machine.machine, result, out);
    }
    if (!events.empty() && eventsOut.empty()) {
        // printed above
    } else {
        nlohmann::json summary = verrocchio::summaryToJson(*trace.trace, *machine.machine, result);
        summary["trace_file"] = files[0];
        summary["machine_file"] = files[1];
        std::cout << summary.dump(2) << '\n';
    }
    if (result.error) {
        std::cerr << "error: " << files[0] << ": " << result.error->message << '\n';
        return kExitInvalidInput;
    }
    return 0;
}

} // namespace cli
