// Shared by the catalogue tests (issue 14): what one load of a hostile input
// gave, and the failure modes it may not have. A refusal must name the file,
// a place (JSON pointer, "line L" or the layer) and a reason, and never print
// a non-finite number; a load must give a finite result.
#pragma once

#include "common/diagnostics.h"
#include "common/jsonreader.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <cctype>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace catalogue {

using roofline::Diagnostic;
using roofline::Diagnostics;
using nlohmann::json;

inline std::string readExample(const std::string &relative)
{
    std::ifstream in(std::string(ROOFLINE_EXAMPLES_DIR) + "/" + relative, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// What one load gave: errors, or a result checked for finiteness.
struct Outcome
{
    bool loaded = false;
    Diagnostics diagnostics;
    bool finite = true;     // of the evaluated result, when loaded
    std::string evaluation; // why the model refused it (a stated error is fine)
};

inline bool finiteJson(const json &j)
{
    return !roofline::nonFinitePointer(j).has_value();
}

// Every number (and, with `booleans`, every true/false) in the document, by JSON pointer.
inline void numericPointers(const json &value, const std::string &pointer, std::vector<std::string> &out,
                            bool booleans = false)
{
    if (value.is_number() || (booleans && value.is_boolean())) {
        out.push_back(pointer);
    } else if (value.is_object()) {
        for (const auto &[key, member] : value.items())
            numericPointers(member, pointer + "/" + roofline::jsonPointerToken(key), out, booleans);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            numericPointers(value[i], pointer + "/" + std::to_string(i), out, booleans);
    }
}

// Whether a message shows "nan" or "inf" as a word outside double quotes (the
// file's own text, quoted back, may say "nan"). No std::regex: GCC 12 warns
// inside <regex> at -O1 with the sanitizers, and the ASan build uses -Werror.
inline bool printsNonFinite(const std::string &message)
{
    bool quoted = false;
    auto letter = [&](std::size_t i) { return i < message.size() && std::isalpha(static_cast<unsigned char>(message[i])); };
    for (std::size_t i = 0; i < message.size(); ++i) {
        if (message[i] == '"') {
            quoted = !quoted;
            continue;
        }
        if (quoted || (i > 0 && letter(i - 1)))
            continue;
        for (const char *word : {"nan", "inf"}) {
            if (message.compare(i, 3, word) == 0 && !letter(i + 3))
                return true;
        }
    }
    return false;
}

// The failure modes an outcome may not have.
inline QString checkOutcome(const Outcome &o, const std::string &label, const QString &what)
{
    if (o.loaded) {
        if (!o.finite)
            return what + ": loaded, and the result is not finite";
        if (o.diagnostics.hasErrors())
            return what + ": loaded and errors";
        return {};
    }
    if (!o.diagnostics.hasErrors())
        return what + ": refused without an error";
    for (const Diagnostic &d : o.diagnostics.errors()) {
        if (d.file != label)
            return what + ": an error names the file \"" + QString::fromStdString(d.file) + "\"";
        if (d.message.empty())
            return what + ": an error without a reason";
        if (printsNonFinite(d.message))
            return what + ": an error prints a non-finite number: " + QString::fromStdString(d.message);
    }
    return {};
}

} // namespace catalogue
