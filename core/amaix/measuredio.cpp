// AMAIX measured per-layer times (CSV).
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>
#include <string>

namespace roofline::amaix {

using nlohmann::json;

// --- Measured times ---------------------------------------------------------------

namespace {
// A layer's time in the file's unit; 1e9 ms is eleven days, far beyond any layer.
const Range kTimeRange = Range::nonNegative(1e9);
} // namespace

MeasuredLoad parseMeasuredCsv(const std::string &text, const std::string &fileLabel)
{
    MeasuredLoad out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(fileLabel);
    std::vector<MeasuredTime> times;
    std::istringstream in(text);
    double scale = 0; // ns per unit of the time column
    int lineNo = 0;
    auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t\r");
        const auto e = s.find_last_not_of(" \t\r");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        line = trim(line);
        if (line.empty() || line[0] == '#')
            continue;
        const std::string where = "line " + std::to_string(lineNo);
        const auto comma = line.find(',');
        if (comma == std::string::npos || line.find(',', comma + 1) != std::string::npos) {
            if (scale == 0) { // the first line is not a header: no row can be read (it said "the file is empty" too)
                diags.error(where, "expected the header \"layer,time_us\" (or time_ns, time_ms), got \""
                                       + printableText(line, 80) + "\"");
                return out;
            }
            diags.error(where, "expected two fields: layer,time");
            continue;
        }
        const std::string first = trim(line.substr(0, comma));
        const std::string second = trim(line.substr(comma + 1));
        if (scale == 0) {
            if (first != "layer" || (second != "time_us" && second != "time_ns" && second != "time_ms")) {
                diags.error(where, "expected the header \"layer,time_us\" (or time_ns, time_ms), got \"" + printableText(line, 80) + "\"");
                return out;
            }
            scale = second == "time_ns" ? 1 : second == "time_us" ? 1e3 : 1e6;
            continue;
        }
        const auto parsed = parseFiniteNumber(second);
        if (!parsed) {
            diags.error(where, "time: expected a number, got \"" + printableText(second, 40) + "\"");
            continue;
        }
        const double v = *parsed;
        if (const std::string why = kTimeRange.check(v); !why.empty()) {
            diags.error(where, "time " + why);
            continue;
        }
        if (first.empty()) {
            diags.error(where, "layer name is empty");
            continue;
        }
        times.push_back({first, v * scale, lineNo});
    }
    if (scale == 0)
        diags.error("line 1", "expected the header \"layer,time_us\"; the file is empty");
    if (!diags.hasErrors())
        out.times = std::move(times);
    return out;
}

MeasuredLoad loadMeasuredFile(const std::string &path)
{
    MeasuredLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseMeasuredCsv(text, path);
}

} // namespace roofline::amaix
