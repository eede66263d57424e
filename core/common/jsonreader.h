// Strict reading of JSON objects: required and optional fields, ranges,
// unknown-key reporting, and errors that carry the JSON pointer of the field.
//
//   JsonObjectReader soc(root, "", diags);
//   auto ppeak = soc.number("ppeak_gops", Range::positive(1e9));
//   soc.finish(); // reports every key that was not read as unknown
#pragma once

#include "diagnostics.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace roofline {

struct Range
{
    double min = 0;
    double max = 0;
    bool minInclusive = true;
    bool maxInclusive = true;

    static Range positive(double max) { return {0, max, false, true}; }
    static Range nonNegative(double max) { return {0, max, true, true}; }
    static Range closed(double min, double max) { return {min, max, true, true}; }

    // Nothing between 0 and this in size is accepted anywhere: a denormal
    // such as 1e-320 turns every quotient into infinity.
    static constexpr double kSmallestMagnitude = 1e-30;

    bool contains(double v) const;
    // Empty when contains(v); otherwise the reason ("must be > 0 and <= 1e+09, got -3").
    std::string check(double v) const;
    std::string describe() const; // "> 0 and <= 1e+09"
};

// Escapes one reference token of a JSON pointer (RFC 6901: '~' -> "~0", '/' -> "~1").
std::string jsonPointerToken(const std::string &key);

class JsonObjectReader
{
public:
    // Reports an error if `object` is not an object; all reads then return nullopt.
    JsonObjectReader(const nlohmann::json &object, std::string pointer, Diagnostics &diagnostics);

    bool isObject() const { return m_object != nullptr; }
    bool has(const std::string &key) const;
    std::string pointerTo(const std::string &key) const;
    const std::string &pointer() const { return m_pointer; }

    // A number given either plainly (40) or with its source
    // ({"value": 40, "source": "datasheet p. 3"}). NaN and infinity cannot be
    // written in JSON; values that overflow to infinity are rejected.
    std::optional<double> number(const std::string &key, const Range &range, std::string *source = nullptr);
    std::optional<double> optionalNumber(const std::string &key, const Range &range, std::string *source = nullptr);
    // A whole number in the same two forms; "must be a whole number" otherwise.
    std::optional<std::int64_t> integer(const std::string &key, const Range &range, std::string *source = nullptr);
    std::optional<std::int64_t> optionalInteger(const std::string &key, const Range &range,
                                                std::string *source = nullptr);
    std::optional<std::string> string(const std::string &key);
    std::optional<std::string> optionalString(const std::string &key);
    std::optional<bool> optionalBool(const std::string &key);
    // Returns the member (marked as read) or nullptr; reports missing when required.
    const nlohmann::json *member(const std::string &key, bool required);

    // Reports every key that no read asked for as an unknown key.
    void finish();

private:
    std::optional<std::int64_t> wholeNumber(const std::string &key, std::optional<double> value);
    std::optional<double> readNumber(const std::string &key, const Range &range, std::string *source, bool required);

    const nlohmann::json *m_object = nullptr;
    std::string m_pointer;
    Diagnostics &m_diagnostics;
    std::set<std::string> m_read;
};

// True for a finite value without a fractional part.
bool isWholeNumber(double value);

// Name of the JSON type for messages: "string", "number", "array", ...
std::string jsonTypeName(const nlohmann::json &value);

// The JSON pointer of the first number in `value` that is not finite (inf
// or NaN, which nlohmann writes as null), if any. Results are checked with
// it before they are printed: a non-finite result is an error naming the
// input, never a silent null (issue 14).
std::optional<std::string> nonFinitePointer(const nlohmann::json &value);

// The whole of `text` as a finite number ("30", "1e-3"); nullopt for "",
// "3x", "nan", "inf" or a value that overflows. One parser for every text
// format; ranges are then checked with Range::check, as in JSON.
std::optional<double> parseFiniteNumber(const std::string &text);

} // namespace roofline
