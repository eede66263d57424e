// Field readers shared by the AMAIX network and accelerator loaders
// (networkio.cpp, acceleratorio.cpp). Internal: not included by callers.
#pragma once

#include "io.h"
#include "../common/jsonreader.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace roofline::amaix {

inline const Range kRate = Range::positive(Limits::maxRate);

inline bool isInteger(double v)
{
    return std::floor(v) == v;
}

// An integer given plainly or with a source.
inline std::optional<std::int64_t> readInt(JsonObjectReader &r, const std::string &key, const Range &range,
                                           bool required, Diagnostics &diagnostics, std::string *source = nullptr)
{
    const std::optional<double> v = required ? r.number(key, range, source) : r.optionalNumber(key, range, source);
    if (!v)
        return std::nullopt;
    if (!isInteger(*v)) {
        diagnostics.error(r.pointerTo(key), "must be a whole number, got " + formatNumber(*v));
        return std::nullopt;
    }
    return std::int64_t(*v);
}

} // namespace roofline::amaix
