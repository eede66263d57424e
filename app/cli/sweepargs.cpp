#include "sweepargs.h"

#include "common/diagnostics.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace cli {

namespace {

bool number(const std::string &s, double &v)
{
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0' && std::isfinite(v);
}

bool count(const std::string &s, std::size_t &n, std::size_t max)
{
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    n = std::size_t(std::stoul(s));
    return n >= 1 && n <= max;
}

} // namespace

std::optional<std::vector<double>> parseAxisValues(const std::string &text)
{
    std::vector<std::string> parts;
    // A list when it has a comma or is a single number, else a range.
    const char separator = text.find(':') == std::string::npos ? ',' : ':';
    std::stringstream ss(text);
    for (std::string part; std::getline(ss, part, separator);)
        parts.push_back(part);
    std::vector<double> values;
    if (separator == ':') {
        double from = 0, to = 0, n = 0;
        const bool log = parts.size() == 4 && parts[3] == "log";
        if ((parts.size() != 3 && !log) || !number(parts[0], from) || !number(parts[1], to) || !number(parts[2], n)
            || n < 1 || n > 1e7 || std::floor(n) != n || (log && (from <= 0 || to <= 0)))
            return std::nullopt;
        const auto points = std::size_t(n);
        values.assign(points, from);
        for (std::size_t i = 1; i < points; ++i) { // as amaix::linearValues() and logValues()
            values[i] = log ? from * std::pow(to / from, double(i) / double(points - 1))
                            : from + (to - from) * double(i) / double(points - 1);
        }
    } else {
        for (const std::string &p : parts) {
            double v = 0;
            if (!number(p, v))
                return std::nullopt;
            values.push_back(v);
        }
    }
    if (values.empty())
        return std::nullopt;
    return values;
}

std::size_t Shard::begin(std::size_t total) const
{
    // 128-bit free: total <= 10^14 (10^7 x 10^7) and count <= 10^6 would
    // overflow 64 bits in total * index, so divide first.
    return total / count * (index - 1) + total % count * (index - 1) / count;
}

std::size_t Shard::end(std::size_t total) const
{
    return total / count * index + total % count * index / count;
}

std::optional<Shard> parseShard(const std::string &text)
{
    const auto slash = text.find('/');
    Shard s;
    if (slash == std::string::npos || !count(text.substr(0, slash), s.index, 1'000'000)
        || !count(text.substr(slash + 1), s.count, 1'000'000) || s.index > s.count)
        return std::nullopt;
    return s;
}

std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string sweepNumber(double v)
{
    return roofline::formatNumber(v, 12);
}

} // namespace cli
