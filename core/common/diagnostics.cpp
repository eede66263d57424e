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

void Diagnostics::error(std::string pointer, std::string message)
{
    m_items.push_back({Severity::Error, m_file, std::move(pointer), std::move(message)});
}

void Diagnostics::warning(std::string pointer, std::string message)
{
    m_items.push_back({Severity::Warning, m_file, std::move(pointer), std::move(message)});
}

void Diagnostics::setFile(const std::string &file)
{
    m_file = file;
    for (auto &item : m_items)
        item.file = file;
}

bool Diagnostics::hasErrors() const
{
    return std::any_of(m_items.begin(), m_items.end(),
                       [](const Diagnostic &d) { return d.severity == Severity::Error; });
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

} // namespace roofline
