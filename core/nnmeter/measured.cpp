#include "measured.h"

#include "../common/jsondocument.h"
#include "../common/jsonreader.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace roofline::nnmeter {

namespace {

std::string trim(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Splits one CSV line; fields may be quoted ("a, b", "say ""x"""). False on an unterminated quote.
bool splitCsv(const std::string &line, std::vector<std::string> &fields)
{
    fields.clear();
    std::string field;
    bool quoted = false, wasQuoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && trim(field).empty()) {
            quoted = wasQuoted = true;
            field.clear();
        } else if (c == ',') {
            fields.push_back(wasQuoted ? field : trim(field));
            field.clear();
            wasQuoted = false;
        } else {
            field += c;
        }
    }
    if (quoted)
        return false;
    fields.push_back(wasQuoted ? field : trim(field));
    return true;
}

std::string quote(const std::string &s)
{
    // A first field starting with '#' unquoted would read back as a comment line.
    if (s.find_first_of(",\"") == std::string::npos && trim(s) == s && (s.empty() || s[0] != '#'))
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string number(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

} // namespace

MeasuredLoad parseMeasuredLatencies(const std::string &text, const std::string &fileLabel)
{
    MeasuredLoad out;
    Diagnostics &d = out.diagnostics;
    d.setFile(fileLabel);
    if (const auto bad = invalidUtf8At(text)) {
        d.error("", "not UTF-8 text (byte " + std::to_string(*bad) + ")");
        return out;
    }
    std::vector<MeasuredLatency> rows;
    std::set<std::pair<std::string, std::string>> seen; // (network, device) of the rows so far
    std::vector<std::string> header, fields;
    bool lab = false; // the kernel lab's measurements.csv
    std::istringstream in(text);
    int lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        const std::string where = "line " + std::to_string(lineNo);
        line = trim(line);
        if (line.empty() || line[0] == '#')
            continue;
        if (!splitCsv(line, fields)) {
            d.error(where, "a quoted field does not end");
            return out;
        }
        if (header.empty()) {
            if (!fields.empty() && fields[0] == "stage") {
                // The kernel lab's measurements.csv: its end-to-end rows ("network" stage).
                for (const char *need : {"name", "median_ms"})
                    if (std::find(fields.begin(), fields.end(), need) == fields.end()) {
                        d.error(where, std::string("the kernel lab's header has no \"") + need + "\" column");
                        return out;
                    }
                lab = true;
                header = fields;
                continue;
            }
            if (fields.size() < 2 || fields[0] != "network" || fields[1] != "measured_ms") {
                d.error(where, "expected the header \"network,measured_ms\" (then device, repetitions, noise_percent, "
                               "source in any order), or the kernel lab's \"stage,name,...,median_ms,...\", got \""
                                   + printableText(line, 80) + "\"");
                return out;
            }
            for (std::size_t c = 2; c < fields.size(); ++c) {
                const std::string &name = fields[c];
                if (name != "device" && name != "repetitions" && name != "noise_percent" && name != "source") {
                    d.error(where, "column " + std::to_string(c + 1) + ": unknown column \"" + printableText(name, 40)
                                       + "\" (network, measured_ms, device, repetitions, noise_percent, source)");
                    return out;
                }
                for (std::size_t b = 0; b < c; ++b)
                    if (fields[b] == name) {
                        d.error(where, "column " + std::to_string(c + 1) + ": \"" + name + "\" appears twice");
                        return out;
                    }
            }
            header = fields;
            continue;
        }
        if (lab) {
            if (fields.empty() || fields[0] != "network")
                continue; // pair and sample rows: the lab's record, not end-to-end latencies
            if (fields.size() != header.size()) {
                d.error(where, "expected " + std::to_string(header.size()) + " fields as the header has, got "
                                   + std::to_string(fields.size()));
                continue;
            }
            std::vector<std::string> mapped{"", "", "", "", "", "kernel lab (measurements.csv)"};
            for (std::size_t c = 0; c < header.size(); ++c) {
                if (header[c] == "name")
                    mapped[0] = fields[c];
                else if (header[c] == "median_ms")
                    mapped[1] = fields[c];
                else if (header[c] == "reps")
                    mapped[3] = fields[c];
                else if (header[c] == "iqr_ms")
                    mapped[4] = fields[c]; // turned into a percentage below
            }
            fields = mapped;
        }
        static const std::vector<std::string> labHeader{"network", "measured_ms", "device", "repetitions", "iqr_ms", "source"};
        static const std::vector<std::string> labShown{"name", "median_ms", "device", "reps", "iqr_ms", "source"};
        const std::vector<std::string> &columns = lab ? labHeader : header;
        if (!lab && fields.size() != header.size()) {
            d.error(where, "expected " + std::to_string(header.size()) + " fields as the header has, got "
                               + std::to_string(fields.size()));
            continue;
        }
        if (rows.size() >= kMaxMeasuredRows) {
            d.error(where, "more than " + std::to_string(kMaxMeasuredRows) + " rows");
            return out;
        }
        MeasuredLatency row;
        bool ok = true;
        for (std::size_t c = 0; c < fields.size() && ok; ++c) {
            const std::string &name = columns[c];
            const std::string &shown = lab ? labShown[c] : name; // the column as the file names it
            const std::string &v = fields[c];
            auto fail = [&](const std::string &reason) {
                d.error(where, shown + ": " + reason + ", got \"" + printableText(v, 40) + "\"");
                ok = false;
            };
            // A finite number in `range` (denormals refused, as in every format), or an error naming the column.
            auto number = [&](const Range &range, const std::string &expected) -> std::optional<double> {
                const auto x = parseFiniteNumber(v);
                if (x && *x != 0 && std::fabs(*x) < Range::kSmallestMagnitude) { // 1e-320: the reason is its size
                    d.error(where, shown + ": " + range.check(*x));
                    ok = false;
                    return std::nullopt;
                }
                if (!x || !range.contains(*x)) {
                    fail(expected);
                    return std::nullopt;
                }
                return x;
            };
            if (name == "network") {
                if (v.empty())
                    fail("expected the network's name");
                row.network = v;
            } else if (name == "measured_ms") {
                if (const auto x = number(Range::positive(1e9), "expected a latency in ms above 0 and at most 1e9"))
                    row.measuredMs = *x;
            } else if (name == "device" || name == "source") {
                (name == "device" ? row.device : row.source) = v;
            } else if (name == "repetitions") {
                if (v.empty())
                    continue;
                const auto x = number(Range::closed(1, 1e9), "expected a whole number of runs from 1");
                if (x && *x != std::floor(*x))
                    fail("expected a whole number of runs from 1");
                else if (x)
                    row.repetitions = int(*x);
            } else if (name == "iqr_ms") { // the lab's spread of whole runs, as a share of the latency
                if (v.empty())
                    continue;
                const auto x = number(Range::nonNegative(1e9), "expected a spread in ms from 0");
                if (x && row.measuredMs > 0) {
                    row.noisePercent = 100 * *x / row.measuredMs;
                    // As noise_percent, it must read back (at most 1e6 %).
                    if (!(row.noisePercent <= 1e6)) {
                        d.error(where, shown + ": the spread is more than 10,000 times the median (" + formatNumber(*x)
                                           + " ms against " + formatNumber(row.measuredMs) + " ms)");
                        ok = false;
                    }
                }
            } else if (name == "noise_percent") {
                if (v.empty())
                    continue;
                if (const auto x = number(Range::nonNegative(1e6), "expected a percentage from 0"))
                    row.noisePercent = *x;
            }
        }
        // A set, not a scan of the rows so far: 10^5 rows took quadratic time.
        if (ok && !seen.insert({row.network, row.device}).second) {
            d.error(where, "network: \"" + printableText(row.network, 40) + "\" is measured twice on the same device");
            ok = false;
        }
        if (ok)
            rows.push_back(std::move(row));
    }
    if (header.empty())
        d.error("", "no header: expected \"network,measured_ms\"");
    else if (rows.empty() && !d.hasErrors())
        d.error("", lab ? "no network measured end to end (no row of stage \"network\")" : "no measured network after the header");
    if (!d.hasErrors())
        out.rows = std::move(rows);
    return out;
}

std::string serializeMeasuredLatencies(const std::vector<MeasuredLatency> &rows)
{
    std::string out = "network,measured_ms,device,repetitions,noise_percent,source\n";
    for (const MeasuredLatency &r : rows)
        out += quote(r.network) + "," + number(r.measuredMs) + "," + quote(r.device) + ","
               + (r.repetitions > 0 ? std::to_string(r.repetitions) : std::string()) + ","
               + (r.noisePercent >= 0 ? number(r.noisePercent) : std::string()) + "," + quote(r.source) + "\n";
    return out;
}

} // namespace roofline::nnmeter
