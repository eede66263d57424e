#include "jsonreader.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace roofline {

using nlohmann::json;

bool Range::contains(double v) const
{
    if (!std::isfinite(v) || (v != 0 && std::fabs(v) < kSmallestMagnitude))
        return false;
    const bool aboveMin = minInclusive ? v >= min : v > min;
    const bool belowMax = maxInclusive ? v <= max : v < max;
    return aboveMin && belowMax;
}

std::string Range::describe() const
{
    return std::string(minInclusive ? ">= " : "> ") + formatNumber(min) + " and "
        + (maxInclusive ? "<= " : "< ") + formatNumber(max);
}

std::string Range::check(double v) const
{
    if (!std::isfinite(v))
        return "must be a finite number";
    if (v != 0 && std::fabs(v) < kSmallestMagnitude)
        return "must be 0 or at least " + formatNumber(kSmallestMagnitude) + " in size (too small to compute with), got "
            + formatNumber(v);
    if (!contains(v))
        return "must be " + describe() + ", got " + formatNumber(v);
    return {};
}

std::string jsonPointerToken(const std::string &key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string jsonTypeName(const json &value)
{
    switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "an unsupported value";
    }
}

JsonObjectReader::JsonObjectReader(const json &object, std::string pointer, Diagnostics &diagnostics)
    : m_pointer(std::move(pointer))
    , m_diagnostics(diagnostics)
{
    if (object.is_object())
        m_object = &object;
    else
        m_diagnostics.error(m_pointer.empty() ? "/" : m_pointer, "expected an object, got " + jsonTypeName(object));
}

bool JsonObjectReader::has(const std::string &key) const
{
    return m_object && m_object->contains(key);
}

std::string JsonObjectReader::pointerTo(const std::string &key) const
{
    return m_pointer + "/" + jsonPointerToken(key);
}

const json *JsonObjectReader::member(const std::string &key, bool required)
{
    if (!m_object)
        return nullptr;
    m_read.insert(key);
    auto it = m_object->find(key);
    if (it == m_object->end()) {
        if (required)
            m_diagnostics.error(pointerTo(key), "required field is missing");
        return nullptr;
    }
    return &*it;
}

std::optional<double> JsonObjectReader::readNumber(const std::string &key, const Range &range, std::string *source,
                                                   bool required)
{
    const json *value = member(key, required);
    if (!value)
        return std::nullopt;
    const std::string where = pointerTo(key);
    const json *number = value;
    if (value->is_object()) {
        JsonObjectReader sourced(*value, where, m_diagnostics);
        number = sourced.member("value", true);
        if (auto text = sourced.optionalString("source"); text && source)
            *source = *text;
        sourced.finish();
        if (!number)
            return std::nullopt;
    }
    const std::string numberWhere = number == value ? where : where + "/value";
    if (!number->is_number()) {
        m_diagnostics.error(numberWhere, "expected a number, got " + jsonTypeName(*number));
        return std::nullopt;
    }
    const double v = number->get<double>();
    if (const std::string why = range.check(v); !why.empty()) {
        m_diagnostics.error(numberWhere, why);
        return std::nullopt;
    }
    return v;
}

std::optional<double> JsonObjectReader::number(const std::string &key, const Range &range, std::string *source)
{
    return readNumber(key, range, source, true);
}

std::optional<double> JsonObjectReader::optionalNumber(const std::string &key, const Range &range, std::string *source)
{
    return readNumber(key, range, source, false);
}

std::optional<std::string> JsonObjectReader::string(const std::string &key)
{
    const json *value = member(key, true);
    if (!value)
        return std::nullopt;
    if (!value->is_string()) {
        m_diagnostics.error(pointerTo(key), "expected a string, got " + jsonTypeName(*value));
        return std::nullopt;
    }
    return value->get<std::string>();
}

std::optional<std::string> JsonObjectReader::optionalString(const std::string &key)
{
    if (!has(key)) {
        m_read.insert(key);
        return std::nullopt;
    }
    return string(key);
}

std::optional<bool> JsonObjectReader::optionalBool(const std::string &key)
{
    const json *value = member(key, false);
    if (!value)
        return std::nullopt;
    if (!value->is_boolean()) {
        m_diagnostics.error(pointerTo(key), "expected true or false, got " + jsonTypeName(*value));
        return std::nullopt;
    }
    return value->get<bool>();
}

void JsonObjectReader::finish()
{
    if (!m_object)
        return;
    for (const auto &item : m_object->items()) {
        if (!m_read.count(item.key()))
            m_diagnostics.error(pointerTo(item.key()), "unknown key \"" + item.key() + "\"");
    }
}

std::optional<double> parseFiniteNumber(const std::string &text)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
        return std::nullopt;
    errno = 0;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    // An underflow (1e-320, 1e-400) is a number: the range says why it cannot be used.
    const bool overflow = errno == ERANGE && std::fabs(value) >= 1;
    if (end != text.c_str() + text.size() || overflow || !std::isfinite(value))
        return std::nullopt;
    return value;
}

bool isWholeNumber(double value)
{
    return std::isfinite(value) && std::floor(value) == value;
}

std::optional<std::int64_t> JsonObjectReader::wholeNumber(const std::string &key, std::optional<double> value)
{
    if (!value)
        return std::nullopt;
    if (!isWholeNumber(*value)) {
        m_diagnostics.error(pointerTo(key), "must be a whole number, got " + formatNumber(*value));
        return std::nullopt;
    }
    return std::int64_t(*value);
}

std::optional<std::int64_t> JsonObjectReader::integer(const std::string &key, const Range &range, std::string *source)
{
    return wholeNumber(key, number(key, range, source));
}

std::optional<std::int64_t> JsonObjectReader::optionalInteger(const std::string &key, const Range &range,
                                                              std::string *source)
{
    return wholeNumber(key, optionalNumber(key, range, source));
}

std::optional<std::string> nonFinitePointer(const json &value)
{
    if (value.is_number_float())
        return std::isfinite(value.get<double>()) ? std::nullopt : std::optional<std::string>("");
    if (value.is_object()) {
        for (const auto &[key, member] : value.items()) {
            if (auto inner = nonFinitePointer(member))
                return "/" + jsonPointerToken(key) + *inner;
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (auto inner = nonFinitePointer(value[i]))
                return "/" + std::to_string(i) + *inner;
        }
    }
    return std::nullopt;
}

} // namespace roofline
