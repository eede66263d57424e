// Verrocchio trace, compact text form: translated into the JSON form, which
// checks it (traceio.cpp); errors are mapped back to line numbers.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace roofline::verrocchio {

using nlohmann::json;

// --- Compact text form -------------------------------------------------------
// Translated line by line into the JSON form, which then checks everything; its
// errors are mapped back from JSON pointers to line numbers.

namespace {

std::vector<std::string> splitWords(const std::string &line)
{
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

// The text after the first `skip` words, trimmed.
std::string restOfLine(const std::string &line, std::size_t skip)
{
    std::size_t pos = 0;
    // The same white space as splitWords() (operator>>: isspace), so the
    // words skipped here are the words counted there.
    static const char *space = " \t\n\v\f\r";
    for (std::size_t k = 0; k < skip; ++k) {
        pos = line.find_first_not_of(space, pos);
        pos = line.find_first_of(space, pos);
        if (pos == std::string::npos)
            return {};
    }
    pos = line.find_first_not_of(space, pos);
    if (pos == std::string::npos)
        return {};
    const auto end = line.find_last_not_of(space);
    return line.substr(pos, end - pos + 1);
}


} // namespace

TraceLoadResult parseTraceText(const std::string &text, const std::string &fileLabel)
{
    TraceLoadResult out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(fileLabel);
    // Names and expressions go into a JSON document: only UTF-8 text may (the
    // JSON writer throws on anything else), so refuse the rest here, by line.
    if (const auto bad = invalidUtf8At(text)) {
        const auto lineStart = text.rfind('\n', *bad == 0 ? 0 : *bad - 1);
        const std::size_t begin = lineStart == std::string::npos || *bad == 0 ? 0 : lineStart + 1;
        const int n = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*bad), '\n'));
        static const char *hex = "0123456789ABCDEF";
        const auto byte = static_cast<unsigned char>(text[*bad]);
        diags.error("line " + std::to_string(n) + ", column " + std::to_string(*bad - begin + 1),
                    std::string("byte 0x") + hex[byte >> 4] + hex[byte & 0xF]
                        + " is not UTF-8 text; a trace is a text file (is this the right file?)");
        return out;
    }
    json doc = {{"format", kTraceFormatId}, {"version", kFormatVersion}, {"cores", json::array()}};
    std::map<std::string, int> lineOf; // JSON pointer of a core or an item -> its line
    struct Open
    {
        std::string pointer; // of the array items are appended to
        int line = 0;        // of the "core" or "loop" that opened it
    };
    std::vector<Open> open;
    auto at = [&](int n) { return "line " + std::to_string(n); };
    auto append = [&](json item, int n) {
        json &array = doc.at(json::json_pointer(open.back().pointer));
        const std::string pointer = open.back().pointer + "/" + std::to_string(array.size());
        array.push_back(std::move(item));
        lineOf[pointer] = n;
        return pointer;
    };

    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (const auto hash = line.find('#'); hash != std::string::npos)
            line.erase(hash);
        const std::vector<std::string> w = splitWords(line);
        if (w.empty())
            continue;
        const std::string &kw = w[0];
        auto number = [&](std::size_t k, const char *what) -> json {
            if (k >= w.size()) {
                diags.error(at(n), std::string("missing ") + what);
                return nullptr;
            }
            if (auto v = parseFiniteNumber(w[k]))
                return *v;
            diags.error(at(n), std::string(what) + ": expected a number, got \"" + printableText(w[k], 40) + "\"");
            return nullptr;
        };
        if (kw == "name" || kw == "description") {
            doc[kw] = restOfLine(line, 1);
        } else if (kw == "core") {
            if (open.size() > 1)
                diags.error(at(n), "\"core\" inside a loop: the loop of " + at(open.back().line) + " has no \"end\"");
            json core = {{"program", json::array()}};
            if (w.size() > 1)
                core["name"] = restOfLine(line, 1);
            const std::string pointer = "/cores/" + std::to_string(doc["cores"].size());
            doc["cores"].push_back(std::move(core));
            lineOf[pointer] = n;
            open = {{pointer + "/program", n}};
        } else if (open.empty()) {
            diags.error(at(n), "\"" + printableText(kw, 40) + "\" before the first \"core\" line");
        } else if (kw == "copies") {
            if (w.size() != 2) {
                diags.error(at(n), "expected: copies COUNT");
                continue;
            }
            const std::string &program = open.front().pointer;
            doc.at(json::json_pointer(program.substr(0, program.rfind('/'))))["copies"] = number(1, "copies");
        } else if (kw == "loop") {
            if (w.size() != 3) {
                diags.error(at(n), "expected: loop VAR COUNT");
                continue;
            }
            if (open.size() > Limits::maxLoopDepth) {
                diags.error(at(n), "loops nested more than " + std::to_string(Limits::maxLoopDepth) + " deep");
                return out;
            }
            const std::string pointer = append({{"op", "loop"}, {"var", w[1]}, {"count", number(2, "count")},
                                                {"body", json::array()}},
                                               n);
            open.push_back({pointer + "/body", n});
        } else if (kw == "end") {
            if (open.size() < 2)
                diags.error(at(n), "\"end\" without a loop");
            else
                open.pop_back();
        } else if (kw == "set_flag" || kw == "wait_flag") {
            if (w.size() < 4) {
                diags.error(at(n), "expected: " + kw + " SRC DST EVENT");
                continue;
            }
            const std::string event = restOfLine(line, 3);
            if (event.empty()) {
                diags.error(at(n), "expected: " + kw + " SRC DST EVENT");
                continue;
            }
            json id = event;
            if (event.find_first_not_of("0123456789") == std::string::npos && event.size() < 10)
                id = std::stoi(event);
            append({{"op", kw}, {"src", w[1]}, {"dst", w[2]}, {"event", id}}, n);
        } else if (kw == "pipe_barrier") {
            json item = {{"op", kw}};
            if (w.size() > 2)
                diags.error(at(n), "expected: pipe_barrier [PIPE_ALL]");
            else if (w.size() == 2)
                item["pipe"] = w[1];
            append(std::move(item), n);
        } else {
            // OP SIZE (a known intrinsic) or OP PIPE SIZE.
            if (w.size() != 2 && w.size() != 3) {
                diags.error(at(n), "expected: " + kw + " [PIPE] SIZE");
                continue;
            }
            json item = {{"op", kw}};
            std::optional<Pipe> pipe = pipeOfIntrinsic(kw);
            if (w.size() == 3) {
                item["pipe"] = w[1];
                pipe = pipeFromName(w[1]);
            }
            item[pipe && !movesBytes(*pipe) ? "ops" : "bytes"] = number(w.size() - 1, "size");
            append(std::move(item), n);
        }
    }
    if (open.size() > 1)
        diags.error(at(open.back().line), "loop without \"end\"");
    if (doc["cores"].empty() && !diags.hasErrors())
        diags.error(at(1), "no \"core\" line: a trace needs at least one core");
    if (diags.hasErrors())
        return out;

    // The JSON loader checks the rest; say where each error is in the text.
    auto lineFor = [&](const std::string &pointer) {
        for (std::string p = pointer; !p.empty() && p.front() == '/'; p.erase(p.rfind('/'))) {
            if (auto it = lineOf.find(p); it != lineOf.end())
                return std::make_pair(it->second, pointer.substr(p.size()));
        }
        return std::make_pair(0, pointer);
    };
    std::string translated = doc.dump(-1, ' ', false, json::error_handler_t::replace);
    json().swap(doc); // some 300 MB at 10⁶ lines: gone before the JSON form is parsed
    TraceLoadResult checked = parseTrace(translated, fileLabel);
    std::string().swap(translated);
    diags.append(checked.diagnostics, [&](Diagnostic &d) {
        const auto [n, rest] = lineFor(d.pointer);
        const std::string field = rest.empty() ? std::string() : rest.substr(rest.rfind('/') + 1) + ": ";
        d.pointer = n > 0 ? at(n) : std::string();
        d.message = field + d.message;
    });
    if (checked.trace && !diags.hasErrors()) {
        for (std::string &origin : checked.trace->origins) {
            if (!origin.empty())
                origin = at(lineFor(origin).first);
        }
        out.trace = std::move(checked.trace);
    }
    return out;
}

TraceLoadResult loadTraceFile(const std::string &path)
{
    TraceLoadResult out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    // A JSON document starts with "{"; anything else is the text form.
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{' ? parseTrace(text, path) : parseTraceText(text, path);
}

} // namespace roofline::verrocchio
