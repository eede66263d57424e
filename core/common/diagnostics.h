// Diagnostics: what loaders and validators report to the user.
// Every message names the file, the JSON pointer (or line) and the reason, so
// the command line can print it as is and the GUI can show it in a dialog.
#pragma once

#include <string>
#include <vector>

namespace roofline {

enum class Severity { Warning, Error };

struct Diagnostic
{
    Severity severity = Severity::Error;
    std::string file;    // path as the user named it, may be empty for in-memory data
    std::string pointer; // JSON pointer ("/ips/2/bandwidth_gbps") or "line 3, column 7"
    std::string message; // the reason, e.g. "must be > 0, got -3"

    // "soc.json: /ips/2/bandwidth_gbps: must be > 0, got -3"
    std::string toString() const;

    bool operator==(const Diagnostic &) const = default;
};

class Diagnostics
{
public:
    void error(std::string pointer, std::string message);
    void warning(std::string pointer, std::string message);
    void setFile(const std::string &file);

    bool hasErrors() const;
    const std::vector<Diagnostic> &all() const { return m_items; }
    std::vector<Diagnostic> errors() const;
    std::vector<Diagnostic> warnings() const;
    // All messages, one per line.
    std::string toString() const;

private:
    std::string m_file;
    std::vector<Diagnostic> m_items;
};

// Formats a double compactly and exactly enough for messages: 40, 1.3278, 1e+12.
std::string formatNumber(double value, int significantDigits = 6);

} // namespace roofline
