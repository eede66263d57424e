#include "diagnostics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace roofline {

std::string Diagnostic::toString() const
{
    std::string out;
    if (!file.empty())
        out += file + ": ";
    if (!pointer.empty())
        out += pointer + ": ";
    if (severity == Severity::Warning)
        out += "warning: ";
    out += message;
    return out;
}

namespace {

// Long enough for any message we build; a hostile file's bytes are cut.
constexpr std::size_t kMaxMessageBytes = 4000;

std::string withThousands(std::size_t n)
{
    std::string digits = std::to_string(n);
    for (std::size_t i = digits.size(); i > 3; i -= 3)
        digits.insert(i - 3, ",");
    return digits;
}

} // namespace

void Diagnostics::error(std::string pointer, std::string message)
{
    add(Severity::Error, std::move(pointer), std::move(message));
}

void Diagnostics::warning(std::string pointer, std::string message)
{
    add(Severity::Warning, std::move(pointer), std::move(message));
}

void Diagnostics::add(Severity severity, std::string pointer, std::string message)
{
    const std::size_t count = ++(severity == Severity::Error ? m_errorCount : m_warningCount);
    if (count <= kMaxListed)
        m_items.push_back({severity, m_file, printableText(pointer, kMaxMessageBytes),
                           printableText(message, kMaxMessageBytes)});
    else
        updateSummary(severity);
}

void Diagnostics::updateSummary(Severity severity)
{
    const bool isError = severity == Severity::Error;
    const std::size_t count = isError ? m_errorCount : m_warningCount;
    if (count <= kMaxListed)
        return;
    std::size_t &summary = isError ? m_errorSummary : m_warningSummary;
    if (summary == std::size_t(-1)) {
        summary = m_items.size();
        m_items.push_back({severity, m_file, "", ""});
    }
    const std::size_t more = count - kMaxListed;
    const char *noun = isError ? (more == 1 ? "error" : "errors") : (more == 1 ? "warning" : "warnings");
    m_items[summary].message = "and " + withThousands(more) + " more " + noun + " (only the first "
        + std::to_string(kMaxListed) + " are listed)";
}

void Diagnostics::append(const Diagnostics &other, const std::function<void(Diagnostic &)> &rewrite)
{
    for (std::size_t i = 0; i < other.m_items.size(); ++i) {
        if (i == other.m_errorSummary || i == other.m_warningSummary)
            continue;
        Diagnostic d = other.m_items[i];
        if (rewrite)
            rewrite(d);
        add(d.severity, std::move(d.pointer), std::move(d.message));
    }
    const auto unlisted = [](std::size_t count) { return count > kMaxListed ? count - kMaxListed : 0; };
    m_errorCount += unlisted(other.m_errorCount);
    m_warningCount += unlisted(other.m_warningCount);
    updateSummary(Severity::Error);
    updateSummary(Severity::Warning);
}

void Diagnostics::setFile(const std::string &file)
{
    m_file = printableText(file, kMaxMessageBytes);
    for (auto &item : m_items)
        item.file = m_file;
}

std::vector<Diagnostic> Diagnostics::errors() const
{
    std::vector<Diagnostic> out;
    std::copy_if(m_items.begin(), m_items.end(), std::back_inserter(out),
                 [](const Diagnostic &d) { return d.severity == Severity::Error; });
    return out;
}

std::vector<Diagnostic> Diagnostics::warnings() const
{
    std::vector<Diagnostic> out;
    std::copy_if(m_items.begin(), m_items.end(), std::back_inserter(out),
                 [](const Diagnostic &d) { return d.severity == Severity::Warning; });
    return out;
}

std::string Diagnostics::toString() const
{
    std::string out;
    for (const auto &item : m_items) {
        out += item.toString();
        out += '\n';
    }
    return out;
}

std::string formatNumber(double value, int significantDigits)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", significantDigits, value);
    return buffer;
}

std::string printableText(const std::string &text, std::size_t maxBytes)
{
    std::string out;
    std::size_t i = 0;
    while (i < text.size() && out.size() < maxBytes) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool valid = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; valid && k < length; ++k)
            valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        if (valid && length == 1 && (c < 0x20 || c == 0x7F) && c != '\t') {
            static const char *hex = "0123456789ABCDEF";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        } else if (valid) {
            out.append(text, i, length);
            i += length;
            continue;
        } else {
            static const char *hex = "0123456789ABCDEF";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        }
        ++i;
    }
    if (i < text.size())
        out += "...";
    return out;
}

} // namespace roofline
