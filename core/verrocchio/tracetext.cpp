// Verrocchio trace, compact text form: translated into the JSON form, which
// checks it (traceio.cpp, reading the programs as a stream); errors are mapped
// back to line numbers.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
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
    // The JSON form is written as text, item by item, and read by the JSON
    // loader as a stream (a document of 10⁶ items would be some 300 MB); a
    // tree of line numbers, one int per item, says where each JSON pointer was.
    // Only cores and loops are nodes; any other item is its line in its
    // node's `items` (a node per item, 32 B each, was 32 MB at 10⁶ lines).
    struct LineNode
    {
        int line = 0;                    // the core's or loop's own line
        std::vector<int> items;          // the line of each of its items
        std::vector<std::size_t> loopAt; // which of its items are loops, ascending
        std::vector<LineNode> bodies;    // their bodies, in the same order
        // The body of item i when it is a loop, else null.
        const LineNode *body(std::size_t i) const
        {
            const auto it = std::lower_bound(loopAt.begin(), loopAt.end(), i);
            return it != loopAt.end() && *it == i ? &bodies[static_cast<std::size_t>(it - loopAt.begin())] : nullptr;
        }
        // A new item at `n`; a loop (or a core) gets a body, returned.
        LineNode *add(int n, bool loop)
        {
            items.push_back(n);
            if (!loop)
                return nullptr;
            loopAt.push_back(items.size() - 1);
            bodies.push_back({n, {}, {}, {}});
            return &bodies.back();
        }
    };
    LineNode root; // items: the cores
    struct Open
    {
        LineNode *node = nullptr; // the core or loop whose items are being written
        bool empty = true;        // nothing written into its array yet
    };
    std::vector<Open> open;
    std::string translated = std::string("{\"format\":") + json(kTraceFormatId).dump() + ",\"version\":"
        + std::to_string(kFormatVersion) + ",\"cores\":[";
    json name, description, coreName, coreCopies; // the last one given counts
    bool copiesGiven = false;
    auto dump = [](const json &value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); };
    auto closeCore = [&] {
        if (root.items.empty())
            return;
        for (std::size_t k = open.size(); k-- > 1;)
            translated += "]}"; // loops left open (already an error)
        translated += "]";
        if (!coreName.is_null())
            translated += ",\"name\":" + dump(coreName);
        if (copiesGiven)
            translated += ",\"copies\":" + dump(coreCopies);
        translated += "}";
    };
    auto at = [&](int n) { return "line " + std::to_string(n); };
    // Writes an item into the innermost open array; a loop's body is then the innermost.
    auto append = [&](const json &item, int n, bool loop = false) {
        Open &o = open.back();
        LineNode *body = o.node->add(n, loop);
        translated += o.empty ? "" : ",";
        o.empty = false;
        if (loop) {
            std::string head = dump(item);
            head.pop_back(); // {"op":"loop",...} without its "}": the body follows
            translated += head + ",\"body\":[";
            open.push_back({body, true});
        } else {
            translated += dump(item);
        }
    };

    // Line by line as std::getline() would (a last line without a newline
    // counts), without copying the text into a stream first.
    std::string line;
    std::size_t next = 0;
    auto getLine = [&] {
        if (next >= text.size())
            return false;
        const std::size_t end = std::min(text.find('\n', next), text.size());
        line.assign(text, next, end - next);
        next = end + 1;
        return true;
    };
    for (int n = 1; getLine(); ++n) {
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
        if (kw == "name") {
            name = restOfLine(line, 1);
        } else if (kw == "description") {
            description = restOfLine(line, 1);
        } else if (kw == "core") {
            if (open.size() > 1)
                diags.error(at(n), "\"core\" inside a loop: the loop of " + at(open.back().node->line) + " has no \"end\"");
            closeCore();
            translated += root.items.empty() ? "{\"program\":[" : ",{\"program\":[";
            open = {{root.add(n, true), true}};
            coreName = w.size() > 1 ? json(restOfLine(line, 1)) : json();
            coreCopies = json();
            copiesGiven = false;
        } else if (open.empty()) {
            diags.error(at(n), "\"" + printableText(kw, 40) + "\" before the first \"core\" line");
        } else if (kw == "copies") {
            if (w.size() != 2) {
                diags.error(at(n), "expected: copies COUNT");
                continue;
            }
            coreCopies = number(1, "copies");
            copiesGiven = true;
        } else if (kw == "loop") {
            if (w.size() != 3) {
                diags.error(at(n), "expected: loop VAR COUNT");
                continue;
            }
            if (open.size() > Limits::maxLoopDepth) {
                diags.error(at(n), "loops nested more than " + std::to_string(Limits::maxLoopDepth) + " deep");
                return out;
            }
            append({{"op", "loop"}, {"var", w[1]}, {"count", number(2, "count")}}, n, true);
        } else if (kw == "end") {
            if (open.size() < 2) {
                diags.error(at(n), "\"end\" without a loop");
            } else {
                translated += "]}";
                open.pop_back();
            }
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
            append(item, n);
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
            append(item, n);
        }
    }
    if (open.size() > 1)
        diags.error(at(open.back().node->line), "loop without \"end\"");
    if (root.items.empty() && !diags.hasErrors())
        diags.error(at(1), "no \"core\" line: a trace needs at least one core");
    if (diags.hasErrors())
        return out;
    closeCore();
    translated += "]";
    if (!name.is_null())
        translated += ",\"name\":" + dump(name);
    if (!description.is_null())
        translated += ",\"description\":" + dump(description);
    translated += "}";

    // The JSON loader checks the rest; say where each error is in the text.
    // A pointer /cores/C/program/I/body/J/... is followed down the tree as far
    // as it names cores and items; what is left names the field.
    auto lineFor = [&](const std::string &pointer) -> std::pair<int, std::string> {
        const LineNode *node = &root;
        int found = 0;
        std::size_t used = 0; // characters of `pointer` matched
        std::size_t pos = 0;
        auto token = [&](std::size_t from) {
            if (from >= pointer.size() || pointer[from] != '/')
                return std::string_view();
            const std::size_t end = pointer.find('/', from + 1);
            return std::string_view(pointer).substr(from + 1, (end == std::string::npos ? pointer.size() : end) - from - 1);
        };
        auto index = [](std::string_view t) -> std::optional<std::size_t> {
            if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string_view::npos)
                return std::nullopt;
            return std::stoul(std::string(t));
        };
        // /cores/C
        if (token(pos) == "cores") {
            pos += 6;
            if (auto c = index(token(pos)); c && *c < node->items.size()) {
                pos += 1 + token(pos).size();
                node = node->body(*c);
                found = node->line;
                used = pos;
                // then program/I, then body/J as deep as it goes
                for (std::string_view key = "program"; token(pos) == key; key = "body") {
                    const std::size_t next = pos + 1 + key.size();
                    const auto i = index(token(next));
                    if (!i || *i >= node->items.size())
                        break;
                    pos = next + 1 + token(next).size();
                    found = node->items[*i];
                    used = pos;
                    node = node->body(*i);
                    if (!node)
                        break; // not a loop: nothing below it has a line of its own
                }
            }
        }
        return {found, pointer.substr(used)};
    };
    TraceLoadResult checked = parseTrace(translated, fileLabel);
    std::string().swap(translated);
    diags.append(checked.diagnostics, [&](Diagnostic &d) {
        const auto [n, rest] = lineFor(d.pointer);
        const std::string field = rest.empty() ? std::string() : rest.substr(rest.rfind('/') + 1) + ": ";
        d.pointer = n > 0 ? at(n) : std::string();
        d.message = field + d.message;
    });
    if (checked.trace && !diags.hasErrors()) {
        OriginTable &origins = checked.trace->origins;
        for (std::size_t i = 0; i < origins.size(); ++i) {
            if (!origins.empty(i))
                origins.set(i, at(lineFor(origins[i]).first));
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
