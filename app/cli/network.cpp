// roofline-cli network: import a network and print what the studio will use,
// so a user can check an import before trusting it.
//
//   roofline-cli network FILE [--format text|json] [--input-shape NAME=DIMS]...
//                [--save-network OUT.json]
//
// Exit status: 0 success, 1 invalid input, 2 wrong usage.
#include "commands.h"
#include "network/import.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace cli {

namespace {

using namespace roofline;
using namespace roofline::network;

const char *kUsage = R"(Usage: roofline-cli network FILE [OPTIONS]
  Import a network and print its layers (name, type, source operator, producers,
  output shape N x C x H x W, weights, biases, MACs), the totals and the operators
  imported as "other" (not modelled). FILE is our JSON network, an ONNX model
  (.onnx) or a Caffe prototxt (.prototxt, both syntaxes).
  --format text|json        text (default): a table; json: layers, totals, unmodelled
                            operators and the network in our JSON format
  --input-shape NAME=DIMS   sizes of a symbolic input, e.g. input=1x3x640x640 (repeatable)
  --save-network OUT.json   also write the network in our JSON format (atomically)
)";

std::string producerName(const Network &net, int p)
{
    return p >= 0 ? net.layers[std::size_t(p)].name : net.inputs[std::size_t(-p - 1)].name;
}

std::string grouped(std::int64_t v)
{
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return (v < 0 ? "-" : "") + out;
}

void printText(const Network &net)
{
    std::cout << "network: " << net.name << '\n';
    if (!net.source.empty())
        std::cout << "source:  " << net.source << '\n';
    for (const NetworkInput &in : net.inputs)
        std::cout << "input:   " << in.name << "  " << in.shape.toString() << '\n';
    std::cout << '\n';
    std::printf("%5s  %-32s %-16s %-18s %-16s %14s %10s %16s\n", "#", "layer", "type", "operator", "output", "weights",
                "biases", "MACs");
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const Layer &l = net.layers[i];
        const LayerCounts c = countLayer(net, i);
        std::string name = l.name.size() > 32 ? "..." + l.name.substr(l.name.size() - 29) : l.name;
        std::string type = std::string(layerTypeName(l.type)) + (l.type == LayerType::Other ? " *" : "");
        std::printf("%5zu  %-32s %-16s %-18s %-16s %14s %10s %16s\n", i, name.c_str(), type.c_str(),
                    l.op.substr(0, 18).c_str(), l.output.toString().c_str(), grouped(c.weights).c_str(),
                    grouped(c.biases).c_str(), grouped(c.macs).c_str());
    }
    const LayerCounts t = countNetwork(net);
    std::cout << '\n'
              << "layers:     " << net.layers.size() << '\n'
              << "parameters: " << grouped(t.parameters()) << " (weights " << grouped(t.weights) << ", biases "
              << grouped(t.biases) << ")\n"
              << "MACs:       " << grouped(t.macs) << " (" << formatNumber(double(t.macs) / 1e9, 4) << " G)\n";
    const std::string summary = unmodelledSummary(net);
    std::cout << "unmodelled: " << (summary.empty() ? std::string("none") : summary + " (marked *, type other)")
              << '\n';
}

void printJson(const Network &net, const Diagnostics &diagnostics)
{
    nlohmann::json layers = nlohmann::json::array();
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const Layer &l = net.layers[i];
        const LayerCounts c = countLayer(net, i);
        nlohmann::json inputs = nlohmann::json::array();
        for (int p : l.inputs)
            inputs.push_back(producerName(net, p));
        layers.push_back({{"name", l.name},
                          {"type", layerTypeName(l.type)},
                          {"operator", l.op},
                          {"modelled", l.type != LayerType::Other},
                          {"inputs", inputs},
                          {"output", {l.output.n, l.output.c, l.output.h, l.output.w}},
                          {"weights", c.weights},
                          {"biases", c.biases},
                          {"macs", c.macs}});
    }
    const LayerCounts t = countNetwork(net);
    nlohmann::json unmodelled = nlohmann::json::array();
    for (const auto &[op, count] : unmodelledOperators(net))
        unmodelled.push_back({{"operator", op}, {"count", count}});
    nlohmann::json warnings = nlohmann::json::array();
    for (const Diagnostic &d : diagnostics.warnings())
        warnings.push_back(d.toString());
    const nlohmann::json out = {
        {"name", net.name},
        {"source", net.source},
        {"layers", layers},
        {"totals",
         {{"layers", net.layers.size()},
          {"parameters", t.parameters()},
          {"weights", t.weights},
          {"biases", t.biases},
          {"macs", t.macs}}},
        {"unmodelled", unmodelled},
        {"warnings", warnings},
        {"network", toJson(net)},
    };
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

} // namespace

int runNetwork(const std::vector<std::string> &args)
{
    std::string file, format = "text", saveTo;
    ImportOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            return 0;
        }
        if (a == "--format" || a == "--input-shape" || a == "--save-network") {
            if (i + 1 >= args.size()) {
                std::cerr << "roofline-cli network: " << a << " needs a value\n";
                return kExitUsage;
            }
            const std::string &v = args[++i];
            if (a == "--format") {
                if (v != "text" && v != "json") {
                    std::cerr << "roofline-cli network: --format must be text or json, got \"" << v << "\"\n";
                    return kExitUsage;
                }
                format = v;
            } else if (a == "--save-network") {
                saveTo = v;
            } else {
                std::string error;
                if (!parseInputShapeOption(v, options, error)) {
                    std::cerr << "roofline-cli network: --input-shape: " << error << '\n';
                    return kExitUsage;
                }
            }
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "roofline-cli network: unknown option \"" << a << "\"\n";
            return kExitUsage;
        } else if (file.empty()) {
            file = a;
        } else {
            std::cerr << "roofline-cli network: takes one FILE, got \"" << file << "\" and \"" << a << "\"\n";
            return kExitUsage;
        }
    }
    if (file.empty()) {
        std::cerr << "roofline-cli network: needs a FILE\n\n" << kUsage;
        return kExitUsage;
    }
    NetworkLoad loaded = loadAnyNetworkFile(file, options);
    if (!loaded.network) {
        printDiagnostics(loaded.diagnostics);
        return kExitInvalidInput;
    }
    for (const Diagnostic &d : loaded.diagnostics.warnings())
        std::cerr << "warning: " << d.toString() << '\n';
    if (format == "json")
        printJson(*loaded.network, loaded.diagnostics);
    else
        printText(*loaded.network);
    if (!saveTo.empty()) {
        Diagnostics d;
        if (!saveNetworkFile(*loaded.network, saveTo, d)) {
            printDiagnostics(d);
            return kExitInvalidInput;
        }
    }
    return 0;
}

} // namespace cli
