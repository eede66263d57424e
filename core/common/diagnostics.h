// Diagnostics: what loaders and validators report to the user.
// Every message names the file, the JSON pointer (or line) and the reason, so
// the command line can print it as is and the GUI can show it in a dialog.
#pragma once

#include <cstddef>
#include <functional>
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

// Every message, pointer and file name is stored through printableText():
// bytes from a hostile file (control bytes, a terminal's escape sequences,
// bytes that are not UTF-8) never reach a terminal or a dialog raw, whichever
// loader built the message. A file wrong on every line does not flood the
// user (or memory): the first kMaxListed errors and kMaxListed warnings are
// kept, then one last entry says how many more there were
// ("and 249,900 more errors (only the first 100 are listed)").
class Diagnostics
{
public:
    static constexpr std::size_t kMaxListed = 100;

    void error(std::string pointer, std::string message);
    void warning(std::string pointer, std::string message);
    void setFile(const std::string &file);

    bool hasErrors() const { return m_errorCount > 0; }
    // Every error reported, the unlisted ones included: grows by one with each error().
    std::size_t errorCount() const { return m_errorCount; }
    std::size_t warningCount() const { return m_warningCount; }
    const std::vector<Diagnostic> &all() const { return m_items; }
    std::vector<Diagnostic> errors() const;
    std::vector<Diagnostic> warnings() const;
    // All messages, one per line.
    std::string toString() const;

    // Adds every entry of `other`, each passed through `rewrite` first (to say
    // where it is in another form of the file); what `other` did not list is
    // counted here as not listed, so "and K more" stays true.
    void append(const Diagnostics &other, const std::function<void(Diagnostic &)> &rewrite = {});

private:
    void add(Severity severity, std::string pointer, std::string message);
    void updateSummary(Severity severity);

    std::string m_file;
    std::vector<Diagnostic> m_items;
    std::size_t m_errorCount = 0;
    std::size_t m_warningCount = 0;
    std::size_t m_errorSummary = std::size_t(-1);   // index of "and K more errors" in m_items
    std::size_t m_warningSummary = std::size_t(-1); // index of "and K more warnings"
};

// `text` safe to print in a message: control bytes (but tab) and bytes that
// are not UTF-8 as \xNN, cut after about `maxBytes` bytes with "...".
// Idempotent: printing printed text changes nothing.
std::string printableText(const std::string &text, std::size_t maxBytes = 200);

// Formats a double compactly and exactly enough for messages: 40, 1.3278, 1e+12.
std::string formatNumber(double value, int significantDigits = 6);

} // namespace roofline
