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

// The data lines of a CSV text, in order: blank lines and '#' comments skipped, each line
// trimmed and split into fields. Shared by the measured-latency and per-kernel loaders, so both
// count lines, report an unterminated quote and check a row's field count the same way.
class CsvLines
{
public:
    CsvLines(const std::string &text, Diagnostics &d)
        : m_text(text)
        , m_d(d)
    {
    }

    // The next data line's fields; false at the end, or on an unterminated quote or a NUL byte (reported).
    bool next(std::vector<std::string> &fields)
    {
        while (m_pos < m_text.size()) {
            const std::size_t end = std::min(m_text.find('\n', m_pos), m_text.size());
            m_line = trim(m_text.substr(m_pos, end - m_pos));
            m_pos = end + 1;
            ++m_lineNo;
            if (m_line.empty() || m_line[0] == '#')
                continue;
            m_where = "line " + std::to_string(m_lineNo);
            // A NUL byte is never CSV text: a binary file, or one saved as UTF-16
            // ("Unicode text"), whose every other byte is NUL. Say so, instead of
            // "got 1 field" for a row that is one unreadable field.
            if (const std::size_t nul = m_line.find('\0'); nul != std::string::npos) {
                m_d.error(m_where, "a NUL byte at column " + std::to_string(nul + 1)
                                       + ": not a text CSV file (binary, or saved as UTF-16? save it as UTF-8)");
                m_failed = true;
                return false;
            }
            if (!splitCsv(m_line, fields)) {
                m_d.error(m_where, "a quoted field does not end");
                m_failed = true;
                return false;
            }
            return true;
        }
        return false;
    }

    bool failed() const { return m_failed; }              // stopped at an unterminated quote or a NUL byte
    const std::string &line() const { return m_line; }   // the current line, trimmed
    const std::string &where() const { return m_where; } // "line N", for messages

    // True when a data row has as many fields as the header; otherwise reported (the row is skipped).
    bool fieldCountMatches(std::size_t got, std::size_t header)
    {
        if (got == header)
            return true;
        m_d.error(m_where, "expected " + std::to_string(header) + " fields as the header has, got " + std::to_string(got));
        return false;
    }

    // True when another row may be read; reported once the file holds more than kMaxMeasuredRows.
    bool roomForRow(std::size_t rowsSoFar)
    {
        if (rowsSoFar < kMaxMeasuredRows)
            return true;
        m_d.error(m_where, "more than " + std::to_string(kMaxMeasuredRows) + " rows");
        return false;
    }

private:
    const std::string &m_text;
    Diagnostics &m_d;
    std::size_t m_pos = 0;
    int m_lineNo = 0;
    bool m_failed = false;
    std::string m_line, m_where;
};

// One field of a data row, read as its column expects: errors name the column and quote the
// value ("measured_ms: expected ..., got \"-1\""), and clear the row's `ok`.
class CsvField
{
public:
    CsvField(Diagnostics &d, const std::string &where, const std::string &column, const std::string &value, bool &ok)
        : m_d(d)
        , m_where(where)
        , m_column(column)
        , m_value(value)
        , m_ok(ok)
    {
    }

    void fail(const std::string &reason)
    {
        m_d.error(m_where, m_column + ": " + reason + ", got \"" + printableText(m_value, 40) + "\"");
        m_ok = false;
    }

    // A finite number in `range` (denormals refused with their own reason, as in every format).
    std::optional<double> number(const Range &range, const std::string &expected)
    {
        const auto x = parseFiniteNumber(m_value);
        if (x && *x != 0 && std::fabs(*x) < Range::kSmallestMagnitude) { // 1e-320: the reason is its size
            m_d.error(m_where, m_column + ": " + range.check(*x));
            m_ok = false;
            return std::nullopt;
        }
        if (!x || !range.contains(*x)) {
            fail(expected);
            return std::nullopt;
        }
        return x;
    }

    // A whole number from lo to hi.
    std::optional<int> whole(double lo, double hi, const std::string &expected)
    {
        const auto x = number(Range::closed(lo, hi), expected);
        if (x && *x != std::floor(*x)) {
            fail(expected);
            return std::nullopt;
        }
        return x ? std::optional<int>(int(*x)) : std::nullopt;
    }

private:
    Diagnostics &m_d;
    const std::string &m_where, &m_column, &m_value;
    bool &m_ok;
};

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
    CsvLines lines(text, d);
    while (lines.next(fields)) {
        const std::string &where = lines.where();
        const std::string &line = lines.line();
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
            if (!lines.fieldCountMatches(fields.size(), header.size()))
                continue;
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
        if (!lab && !lines.fieldCountMatches(fields.size(), header.size()))
            continue;
        if (!lines.roomForRow(rows.size()))
            return out;
        MeasuredLatency row;
        bool ok = true;
        for (std::size_t c = 0; c < fields.size() && ok; ++c) {
            const std::string &name = columns[c];
            const std::string &v = fields[c];
            CsvField field(d, where, lab ? labShown[c] : name, v, ok); // the column as the file names it
            if (name == "network") {
                if (v.empty())
                    field.fail("expected the network's name");
                row.network = v;
            } else if (name == "measured_ms") {
                if (const auto x = field.number(Range::positive(1e9), "expected a latency in ms above 0 and at most 1e9"))
                    row.measuredMs = *x;
            } else if (name == "device" || name == "source") {
                (name == "device" ? row.device : row.source) = v;
            } else if (name == "repetitions") {
                if (v.empty())
                    continue;
                if (const auto x = field.whole(1, 1e9, "expected a whole number of runs from 1"))
                    row.repetitions = *x;
            } else if (name == "iqr_ms") { // the lab's spread of whole runs, as a share of the latency
                if (v.empty())
                    continue;
                const auto x = field.number(Range::nonNegative(1e9), "expected a spread in ms from 0");
                if (x && row.measuredMs > 0) {
                    row.noisePercent = 100 * *x / row.measuredMs;
                    // As noise_percent, it must read back (at most 1e6 %).
                    if (!(row.noisePercent <= 1e6)) {
                        d.error(where, std::string(lab ? labShown[c] : name) + ": the spread is more than 10,000 times the median (" + formatNumber(*x)
                                           + " ms against " + formatNumber(row.measuredMs) + " ms)");
                        ok = false;
                    }
                }
            } else if (name == "noise_percent") {
                if (v.empty())
                    continue;
                if (const auto x = field.number(Range::nonNegative(1e6), "expected a percentage from 0"))
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
    if (lines.failed())
        return out;
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

namespace {

// The columns of the per-kernel format, in order.
const std::vector<std::string> &kernelColumns()
{
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> c;
        std::stringstream ss(kKernelLatencyHeader);
        for (std::string name; std::getline(ss, name, ',');)
            c.push_back(name);
        return c;
    }();
    return columns;
}

// The first line that is neither blank nor a comment, trimmed ("" when none).
std::string firstDataLine(const std::string &text)
{
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        line = trim(line);
        if (!line.empty() && line[0] != '#')
            return line;
    }
    return {};
}

} // namespace

bool looksLikeKernelLatencies(const std::string &text)
{
    const std::string line = firstDataLine(text);
    std::vector<std::string> fields;
    return splitCsv(line, fields) && fields.size() >= 2 && fields[0] == "network" && fields[1] == "kernel";
}

KernelLatencyLoad parseKernelLatencies(const std::string &text, const std::string &fileLabel)
{
    KernelLatencyLoad out;
    Diagnostics &d = out.diagnostics;
    d.setFile(fileLabel);
    if (const auto bad = invalidUtf8At(text)) {
        d.error("", "not UTF-8 text (byte " + std::to_string(*bad) + ")");
        return out;
    }
    const std::vector<std::string> &columns = kernelColumns();
    std::vector<KernelLatency> rows;
    std::set<std::pair<std::string, int>> seen;                       // (network, kernel)
    std::set<std::pair<std::string, std::string>> firstLayers;        // (network, first_layer)
    std::vector<std::string> fields;
    bool header = false;
    CsvLines lines(text, d);
    while (lines.next(fields)) {
        const std::string &where = lines.where();
        const std::string &line = lines.line();
        if (!header) {
            if (fields != columns) {
                d.error(where, std::string("expected the header \"") + kKernelLatencyHeader + "\", got \""
                                   + printableText(line, 80) + "\"");
                return out;
            }
            header = true;
            continue;
        }
        if (!lines.fieldCountMatches(fields.size(), columns.size()))
            continue;
        if (!lines.roomForRow(rows.size()))
            return out;
        KernelLatency row;
        bool ok = true;
        for (std::size_t c = 0; c < fields.size() && ok; ++c) {
            const std::string &name = columns[c];
            const std::string &v = fields[c];
            CsvField field(d, where, name, v, ok);
            const bool optional = name == "iqr_ms" || name == "repetitions" || name == "predicted_ms";
            if (optional && v.empty())
                continue;
            if (name == "network" || name == "type" || name == "first_layer") {
                if (v.empty())
                    field.fail(name == "network" ? "expected the network's name"
                               : name == "type"  ? "expected the kernel's type"
                                                 : "expected a layer name");
                (name == "network" ? row.network : name == "type" ? row.type : row.firstLayer) = v;
            } else if (name == "kernel") {
                if (const auto x = field.whole(0, 1e7, "expected the kernel's index, a whole number from 0"))
                    row.kernel = *x;
            } else if (name == "operators") {
                if (const auto x = field.whole(1, 1e7, "expected its member layers, a whole number from 1"))
                    row.operators = *x;
            } else if (name == "primitives") {
                if (const auto x = field.whole(0, 1e7, "expected the oneDNN primitives it ran as, a whole number from 0"))
                    row.primitives = *x;
            } else if (name == "measured_ms") {
                if (const auto x = field.number(Range::nonNegative(1e9), "expected a latency in ms from 0 to 1e9"))
                    row.measuredMs = *x;
            } else if (name == "iqr_ms") {
                if (const auto x = field.number(Range::nonNegative(1e9), "expected a spread in ms from 0 to 1e9"))
                    row.iqrMs = *x;
            } else if (name == "repetitions") {
                if (const auto x = field.whole(1, 1e9, "expected a whole number of runs from 1"))
                    row.repetitions = *x;
            } else if (name == "predicted_ms") {
                if (const auto x = field.number(Range::nonNegative(1e9), "expected a latency in ms from 0 to 1e9"))
                    row.predictedMs = *x;
            }
        }
        if (ok && !seen.insert({row.network, row.kernel}).second) {
            d.error(where, "kernel: network \"" + printableText(row.network, 40) + "\" has kernel "
                               + std::to_string(row.kernel) + " twice");
            ok = false;
        }
        if (ok && !firstLayers.insert({row.network, row.firstLayer}).second) {
            d.error(where, "first_layer: network \"" + printableText(row.network, 40) + "\" has two kernels starting at \""
                               + printableText(row.firstLayer, 40) + "\"");
            ok = false;
        }
        if (ok)
            rows.push_back(std::move(row));
    }
    if (lines.failed())
        return out;
    if (!header)
        d.error("", std::string("no header: expected \"") + kKernelLatencyHeader + "\"");
    else if (rows.empty() && !d.hasErrors())
        d.error("", "no kernel after the header");
    if (!d.hasErrors())
        out.rows = std::move(rows);
    return out;
}

std::string serializeKernelLatencies(const std::vector<KernelLatency> &rows)
{
    std::string out = std::string(kKernelLatencyHeader) + "\n";
    for (const KernelLatency &r : rows)
        out += quote(r.network) + "," + std::to_string(r.kernel) + "," + quote(r.type) + "," + quote(r.firstLayer) + ","
               + std::to_string(r.operators) + "," + std::to_string(r.primitives) + "," + number(r.measuredMs) + ","
               + (r.iqrMs >= 0 ? number(r.iqrMs) : std::string()) + ","
               + (r.repetitions > 0 ? std::to_string(r.repetitions) : std::string()) + ","
               + (r.predictedMs >= 0 ? number(r.predictedMs) : std::string()) + "\n";
    return out;
}

} // namespace roofline::nnmeter
