#include "io.h"

#include "../common/jsonreader.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace roofline::verrocchio {

using nlohmann::json;

namespace {



const char *kPipeList = "S, MTE1, MTE2, MTE3, M or V";

// --- Event-id expressions ----------------------------------------------------
// Integers, loop variables, + - * / % and parentheses: "i % 2", "(i + 1) % 2".
// Compiled once to reverse Polish notation, evaluated per loop iteration.

struct ExprToken
{
    enum class Type : std::uint8_t { Constant, Variable, Operator, Negate };
    Type type = Type::Constant;
    char op = 0;
    long long value = 0; // constant, or the variable's depth in the loop nest
};

using Expr = std::vector<ExprToken>;

class ExprParser
{
public:
    ExprParser(const std::string &text, const std::vector<std::string> &scope)
        : m_text(text)
        , m_scope(scope)
    {
    }

    // Returns an error message, empty on success.
    std::string parse(Expr &out)
    {
        m_error.clear();
        expression(out);
        skipSpace();
        if (m_error.empty() && m_pos != m_text.size())
            m_error = "unexpected \"" + m_text.substr(m_pos) + "\"";
        return m_error;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    char peek()
    {
        skipSpace();
        return m_pos < m_text.size() ? m_text[m_pos] : '\0';
    }
    void expression(Expr &out)
    {
        term(out);
        for (char c = peek(); m_error.empty() && (c == '+' || c == '-'); c = peek()) {
            ++m_pos;
            term(out);
            out.push_back({ExprToken::Type::Operator, c, 0});
        }
    }
    void term(Expr &out)
    {
        factor(out);
        for (char c = peek(); m_error.empty() && (c == '*' || c == '/' || c == '%'); c = peek()) {
            ++m_pos;
            factor(out);
            out.push_back({ExprToken::Type::Operator, c, 0});
        }
    }
    void factor(Expr &out)
    {
        if (!m_error.empty())
            return;
        const char c = peek();
        if (c == '(') {
            ++m_pos;
            expression(out);
            if (peek() != ')') {
                if (m_error.empty())
                    m_error = "missing \")\"";
                return;
            }
            ++m_pos;
        } else if (c == '-') {
            ++m_pos;
            factor(out);
            out.push_back({ExprToken::Type::Negate, '-', 0});
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            long long v = 0;
            while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
                v = v * 10 + (m_text[m_pos++] - '0');
                if (v > 1'000'000'000) {
                    m_error = "number too large";
                    return;
                }
            }
            out.push_back({ExprToken::Type::Constant, 0, v});
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t begin = m_pos;
            while (m_pos < m_text.size()
                   && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                ++m_pos;
            const std::string name = m_text.substr(begin, m_pos - begin);
            // CCE spelling of constant ids: EVENT_ID0 ... EVENT_ID7.
            if (name.size() == 9 && name.rfind("EVENT_ID", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[8]))) {
                out.push_back({ExprToken::Type::Constant, 0, name[8] - '0'});
                return;
            }
            for (std::size_t d = m_scope.size(); d-- > 0;) {
                if (m_scope[d] == name) {
                    out.push_back({ExprToken::Type::Variable, 0, static_cast<long long>(d)});
                    return;
                }
            }
            m_error = "unknown variable \"" + name + "\"" + (m_scope.empty() ? " (not inside a loop)" : "");
        } else {
            m_error = c == '\0' ? "expression ends too early" : "unexpected \"" + std::string(1, c) + "\"";
        }
    }

    const std::string &m_text;
    const std::vector<std::string> &m_scope;
    std::size_t m_pos = 0;
    std::string m_error;
};

// Returns false on division by zero.
bool evaluate(const Expr &expr, const std::vector<long long> &values, long long &out)
{
    long long stack[64];
    std::size_t top = 0;
    for (const ExprToken &t : expr) {
        switch (t.type) {
        case ExprToken::Type::Constant: stack[top++] = t.value; break;
        case ExprToken::Type::Variable: stack[top++] = values[static_cast<std::size_t>(t.value)]; break;
        case ExprToken::Type::Negate: stack[top - 1] = -stack[top - 1]; break;
        case ExprToken::Type::Operator: {
            const long long b = stack[--top];
            long long &a = stack[top - 1];
            switch (t.op) {
            case '+': a += b; break;
            case '-': a -= b; break;
            case '*': a *= b; break;
            case '/':
            case '%':
                if (b == 0)
                    return false;
                a = t.op == '/' ? a / b : a % b;
                break;
            }
            break;
        }
        }
        if (top >= 64)
            return false;
    }
    out = top == 1 ? stack[0] : 0;
    return true;
}

// --- Trace items ----------------------------------------------------------------

struct Item
{
    bool loop = false;
    Instruction instruction; // kind, pipes, name, origin, size (eventId comes from `event`)
    Expr event;
    std::string pointer;
    std::string variable; // loops
    std::uint64_t count = 0;
    std::vector<Item> body;
};

bool isIdentifier(const std::string &s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

class TraceParser
{
public:
    TraceParser(Trace &trace, Diagnostics &diagnostics)
        : m_trace(trace)
        , m_diags(diagnostics)
    {
    }

    // Trace::internName searches linearly; a generated file may have many names.
    std::uint32_t internName(const std::string &name)
    {
        auto [it, added] = m_names.try_emplace(name, 0);
        if (added)
            it->second = m_trace.internName(name);
        return it->second;
    }

    std::vector<Item> items(const json &array, const std::string &pointer, std::vector<std::string> &scope)
    {
        std::vector<Item> out;
        if (!array.is_array()) {
            m_diags.error(pointer, "expected an array of instructions, got " + jsonTypeName(array));
            return out;
        }
        for (std::size_t i = 0; i < array.size(); ++i) {
            if (auto item = parseItem(array[i], pointer + "/" + std::to_string(i), scope))
                out.push_back(std::move(*item));
        }
        return out;
    }

private:
    std::optional<Pipe> pipe(JsonObjectReader &r, const std::string &key)
    {
        auto name = r.string(key);
        if (!name)
            return std::nullopt;
        auto p = pipeFromName(*name);
        if (!p)
            m_diags.error(r.pointerTo(key), "unknown pipe \"" + *name + "\"; use " + kPipeList);
        return p;
    }

    std::optional<Item> parseItem(const json &value, const std::string &pointer, std::vector<std::string> &scope)
    {
        JsonObjectReader r(value, pointer, m_diags);
        if (!r.isObject())
            return std::nullopt;
        const std::size_t errorsBefore = m_diags.all().size();
        Item item;
        item.pointer = pointer;
        r.optionalString("comment");
        const std::string op = r.string("op").value_or("");
        Instruction &in = item.instruction;
        if (op == "loop") {
            item.loop = true;
            item.variable = r.string("var").value_or("");
            if (r.has("var") && !isIdentifier(item.variable))
                m_diags.error(r.pointerTo("var"), "must be a name such as i or tile, got \"" + item.variable + "\"");
            else if (std::find(scope.begin(), scope.end(), item.variable) != scope.end())
                m_diags.error(r.pointerTo("var"), "\"" + item.variable + "\" is already the variable of an outer loop");
            if (auto count = r.number("count", Range::closed(0, Limits::maxLoopCount))) {
                if (*count != std::floor(*count))
                    m_diags.error(r.pointerTo("count"), "must be a whole number, got " + formatNumber(*count));
                item.count = static_cast<std::uint64_t>(*count);
            }
            if (const json *body = r.member("body", true)) {
                scope.push_back(item.variable);
                item.body = items(*body, r.pointerTo("body"), scope);
                scope.pop_back();
            }
        } else if (op == "set_flag" || op == "wait_flag") {
            in.kind = op == "set_flag" ? Instruction::Kind::SetFlag : Instruction::Kind::WaitFlag;
            const auto src = pipe(r, "src");
            const auto dst = pipe(r, "dst");
            if (src && dst) {
                if (*src == *dst)
                    m_diags.error(r.pointerTo("dst"), "must differ from src (a flag orders two pipes)");
                in.pipe = in.kind == Instruction::Kind::SetFlag ? *src : *dst;
                in.other = in.kind == Instruction::Kind::SetFlag ? *dst : *src;
            }
            if (const json *event = r.member("event", true)) {
                const std::string where = r.pointerTo("event");
                if (event->is_number_integer()) {
                    item.event.push_back({ExprToken::Type::Constant, 0, event->get<long long>()});
                } else if (event->is_string()) {
                    const std::string error = ExprParser(event->get<std::string>(), scope).parse(item.event);
                    if (!error.empty())
                        m_diags.error(where, "invalid event id \"" + event->get<std::string>() + "\": " + error);
                } else {
                    m_diags.error(where, "expected an event id (0.." + std::to_string(kMaxEventId)
                                             + ") or an expression such as \"i % 2\", got " + jsonTypeName(*event));
                }
            }
        } else if (op == "pipe_barrier") {
            in.kind = Instruction::Kind::Barrier;
            if (auto p = r.optionalString("pipe"); p && *p != "ALL" && *p != "PIPE_ALL")
                m_diags.error(r.pointerTo("pipe"), "only pipe_barrier(PIPE_ALL) is supported, got \"" + *p + "\"");
        } else if (!op.empty()) {
            in.kind = Instruction::Kind::Work;
            in.name = internName(op);
            std::optional<Pipe> p;
            if (r.has("pipe"))
                p = pipe(r, "pipe");
            else if (!(p = pipeOfIntrinsic(op)))
                m_diags.error(pointer + "/op", "unknown instruction \"" + op + "\": say which pipe runs it with \"pipe\" ("
                                                   + kPipeList + ")");
            if (p) {
                in.pipe = *p;
                const char *key = movesBytes(*p) ? "bytes" : "ops";
                const char *wrong = movesBytes(*p) ? "ops" : "bytes";
                if (r.has(wrong)) {
                    r.member(wrong, false);
                    m_diags.error(r.pointerTo(wrong), std::string(pipeName(*p)) + (movesBytes(*p) ? " moves bytes" : " executes operations")
                                                          + ": give its size as \"" + key + "\"");
                } else if (auto size = r.number(key, Range::nonNegative(Limits::maxSize))) {
                    in.size = *size;
                }
            }
        } else if (r.has("op")) {
            m_diags.error(pointer + "/op", "must not be empty");
        }
        r.finish();
        if (m_diags.all().size() != errorsBefore) // the loader reports no warnings
            return std::nullopt;
        in.origin = m_trace.internOrigin(pointer);
        return item;
    }

    Trace &m_trace;
    Diagnostics &m_diags;
    std::unordered_map<std::string, std::uint32_t> m_names;
};

double expandedSize(const std::vector<Item> &items)
{
    double n = 0;
    for (const Item &item : items)
        n += item.loop ? static_cast<double>(item.count) * expandedSize(item.body) : 1.0;
    return n;
}

class Expander
{
public:
    Expander(std::vector<Instruction> &out, Diagnostics &diagnostics)
        : m_out(out)
        , m_diags(diagnostics)
    {
    }

    bool expand(const std::vector<Item> &items)
    {
        for (const Item &item : items) {
            if (item.loop) {
                m_names.push_back(item.variable);
                m_values.push_back(0);
                for (std::uint64_t k = 0; k < item.count; ++k) {
                    m_values.back() = static_cast<long long>(k);
                    if (!expand(item.body))
                        return false;
                }
                m_names.pop_back();
                m_values.pop_back();
                continue;
            }
            Instruction in = item.instruction;
            if (in.kind == Instruction::Kind::SetFlag || in.kind == Instruction::Kind::WaitFlag) {
                long long id = 0;
                const bool ok = evaluate(item.event, m_values, id);
                if (!ok || id < 0 || id > kMaxEventId) {
                    m_diags.error(item.pointer + "/event",
                                  (ok ? "evaluates to " + std::to_string(id) : std::string("divides by zero"))
                                      + iteration() + "; event ids are 0.." + std::to_string(kMaxEventId));
                    return false;
                }
                in.eventId = static_cast<std::uint8_t>(id);
            }
            m_out.push_back(in);
        }
        return true;
    }

private:
    std::string iteration() const
    {
        std::string out;
        for (std::size_t d = 0; d < m_names.size(); ++d)
            out += (d == 0 ? " for " : ", ") + m_names[d] + " = " + std::to_string(m_values[d]);
        return out;
    }

    std::vector<Instruction> &m_out;
    Diagnostics &m_diags;
    std::vector<std::string> m_names;
    std::vector<long long> m_values;
};

} // namespace

TraceLoadResult parseTrace(const std::string &text, const std::string &fileLabel)
{
    TraceLoadResult out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(fileLabel);
    json root;
    if (!parseJsonText(text, root, diags))
        return out;
    JsonObjectReader top(root, "", diags);
    if (!top.isObject())
        return out;
    readFormatHeader(top, kTraceFormatId, kFormatVersion, diags);
    Trace trace;
    trace.name = top.optionalString("name").value_or("");
    trace.description = top.optionalString("description").value_or("");
    struct Core
    {
        std::string name;
        std::size_t copies = 1;
        std::vector<Item> items;
        std::string pointer;
    };
    std::vector<Core> cores;
    if (const json *coresJson = top.member("cores", true)) {
        if (!coresJson->is_array() || coresJson->empty()) {
            diags.error("/cores", "expected a non-empty array of cores, got " + jsonTypeName(*coresJson));
        } else {
            TraceParser parser(trace, diags);
            for (std::size_t c = 0; c < coresJson->size(); ++c) {
                Core core;
                core.pointer = "/cores/" + std::to_string(c);
                JsonObjectReader r((*coresJson)[c], core.pointer, diags);
                core.name = r.optionalString("name").value_or("");
                if (auto copies = r.optionalNumber("copies", Range::closed(1, Limits::maxCores))) {
                    if (*copies != std::floor(*copies))
                        diags.error(r.pointerTo("copies"), "must be a whole number, got " + formatNumber(*copies));
                    core.copies = static_cast<std::size_t>(*copies);
                }
                r.optionalString("comment");
                if (const json *program = r.member("program", true)) {
                    std::vector<std::string> scope;
                    core.items = parser.items(*program, r.pointerTo("program"), scope);
                }
                r.finish();
                cores.push_back(std::move(core));
            }
        }
    }
    top.optionalString("comment");
    top.finish();
    if (diags.hasErrors())
        return out;

    double total = 0;
    std::size_t coreCount = 0;
    for (const Core &core : cores) {
        total += expandedSize(core.items) * static_cast<double>(core.copies);
        coreCount += core.copies;
    }
    if (total > static_cast<double>(Limits::maxInstructions)) {
        diags.error("/cores", "the loops expand to " + formatNumber(total) + " instructions; at most "
                                  + std::to_string(Limits::maxInstructions) + " are supported");
        return out;
    }
    if (coreCount > static_cast<std::size_t>(Limits::maxCores)) {
        diags.error("/cores", "at most " + std::to_string(Limits::maxCores) + " cores are supported, got "
                                  + std::to_string(coreCount));
        return out;
    }
    for (const Core &core : cores) {
        CoreProgram program;
        Expander expander(program.instructions, diags);
        if (!expander.expand(core.items))
            return out;
        for (std::size_t k = 0; k < core.copies; ++k) {
            program.name = core.name.empty() ? "core " + std::to_string(trace.cores.size())
                : core.copies > 1             ? core.name + " #" + std::to_string(k)
                                              : core.name;
            trace.cores.push_back(program);
        }
    }
    out.trace = std::move(trace);
    return out;
}

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
    for (std::size_t k = 0; k < skip; ++k) {
        pos = line.find_first_not_of(" \t", pos);
        pos = line.find_first_of(" \t", pos);
        if (pos == std::string::npos)
            return {};
    }
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string::npos)
        return {};
    const auto end = line.find_last_not_of(" \t\r");
    return line.substr(pos, end - pos + 1);
}


} // namespace

TraceLoadResult parseTraceText(const std::string &text, const std::string &fileLabel)
{
    TraceLoadResult out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(fileLabel);
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
            diags.error(at(n), std::string(what) + ": expected a number, got \"" + w[k] + "\"");
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
            diags.error(at(n), "\"" + kw + "\" before the first \"core\" line");
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
    TraceLoadResult checked = parseTrace(doc.dump(), fileLabel);
    for (const Diagnostic &d : checked.diagnostics.all()) {
        const auto [n, rest] = lineFor(d.pointer);
        const std::string where = n > 0 ? at(n) : std::string();
        const std::string field = rest.empty() ? std::string() : rest.substr(rest.rfind('/') + 1) + ": ";
        if (d.severity == Severity::Error)
            diags.error(where, field + d.message);
        else
            diags.warning(where, field + d.message);
    }
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

// --- Machines -------------------------------------------------------------------

namespace {

const Range kRate = Range::positive(Limits::maxRate);
const Range kInit = Range::nonNegative(Limits::maxInitNs);
const Range kSkew = Range::nonNegative(Limits::maxSkewNs);
const Range kCores = Range::closed(1, Limits::maxCores);

const char *throughputKey(Pipe p)
{
    return movesBytes(p) ? "bandwidth_gbps" : "throughput_gops";
}

const char *modeName(BusMode mode)
{
    return mode == BusMode::HalfDuplex ? "half_duplex" : "separate";
}

void checkRange(double value, const Range &range, const std::string &pointer, Diagnostics &diagnostics)
{
    if (!range.contains(value))
        diagnostics.error(pointer, "must be " + range.describe() + ", got " + formatNumber(value));
}

// Reads a number and keeps its source in machine.sources under its pointer.
void sourcedNumber(JsonObjectReader &r, const std::string &key, const Range &range, double &target,
                   std::map<std::string, std::string> &sources, bool required = true)
{
    std::string source;
    auto v = required ? r.number(key, range, &source) : r.optionalNumber(key, range, &source);
    if (v)
        target = *v;
    if (!source.empty())
        sources[r.pointerTo(key)] = source;
}

} // namespace

void validate(const Machine &m, Diagnostics &diagnostics)
{
    for (Pipe p : kAllPipes) {
        const std::string base = std::string("/pipes/") + pipeName(p) + "/";
        checkRange(m.pipe(p).throughput, kRate, base + throughputKey(p), diagnostics);
        checkRange(m.pipe(p).initNs, kInit, base + "init_ns", diagnostics);
    }
    checkRange(m.busGBps, kRate, "/bus/bandwidth_gbps", diagnostics);
    checkRange(m.readGBps, kRate, "/bus/read_gbps", diagnostics);
    checkRange(m.writeGBps, kRate, "/bus/write_gbps", diagnostics);
    checkRange(m.coreCount, kCores, "/cores/count", diagnostics);
    checkRange(m.skewNs, kSkew, "/cores/skew_ns", diagnostics);
}

MachineLoadResult parseMachine(const std::string &text, const std::string &fileLabel)
{
    MachineLoadResult out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(fileLabel);
    json root;
    if (!parseJsonText(text, root, diags))
        return out;
    JsonObjectReader top(root, "", diags);
    if (!top.isObject())
        return out;
    readFormatHeader(top, kMachineFormatId, kFormatVersion, diags);
    Machine m;
    m.name = top.optionalString("name").value_or("");
    m.description = top.optionalString("description").value_or("");
    if (const json *pipes = top.member("pipes", true)) {
        JsonObjectReader pr(*pipes, "/pipes", diags);
        for (Pipe p : kAllPipes) {
            if (const json *pipe = pr.member(pipeName(p), true)) {
                JsonObjectReader r(*pipe, pr.pointerTo(pipeName(p)), diags);
                sourcedNumber(r, throughputKey(p), kRate, m.pipe(p).throughput, m.sources);
                sourcedNumber(r, "init_ns", kInit, m.pipe(p).initNs, m.sources);
                r.finish();
            }
        }
        pr.finish();
    }
    if (const json *bus = top.member("bus", true)) {
        JsonObjectReader r(*bus, "/bus", diags);
        const std::string mode = r.optionalString("mode").value_or("half_duplex");
        if (mode == "separate")
            m.busMode = BusMode::Separate;
        else if (mode != "half_duplex")
            diags.error("/bus/mode", "expected \"half_duplex\" or \"separate\", got \"" + mode + "\"");
        const bool half = m.busMode == BusMode::HalfDuplex;
        sourcedNumber(r, "bandwidth_gbps", kRate, m.busGBps, m.sources, half);
        sourcedNumber(r, "read_gbps", kRate, m.readGBps, m.sources, !half);
        sourcedNumber(r, "write_gbps", kRate, m.writeGBps, m.sources, !half);
        // One mode's numbers default to the other's, so switching modes with --set works.
        if (half && !r.has("read_gbps"))
            m.readGBps = m.busGBps;
        if (half && !r.has("write_gbps"))
            m.writeGBps = m.busGBps;
        if (!half && !r.has("bandwidth_gbps"))
            m.busGBps = std::max(m.readGBps, m.writeGBps);
        r.finish();
    }
    if (const json *cores = top.member("cores", true)) {
        JsonObjectReader r(*cores, "/cores", diags);
        double count = 1;
        sourcedNumber(r, "count", kCores, count, m.sources);
        if (count != std::floor(count))
            diags.error("/cores/count", "must be a whole number, got " + formatNumber(count));
        m.coreCount = static_cast<int>(count);
        sourcedNumber(r, "skew_ns", kSkew, m.skewNs, m.sources, false);
        r.finish();
    }
    top.optionalString("comment");
    top.finish();
    if (!diags.hasErrors())
        out.machine = std::move(m);
    return out;
}

MachineLoadResult loadMachineFile(const std::string &path)
{
    MachineLoadResult out;
    std::string text;
    return readTextFile(path, text, out.diagnostics) ? parseMachine(text, path) : out;
}

json toJson(const Machine &m)
{
    auto sourced = [&](double value, const std::string &pointer) {
        auto it = m.sources.find(pointer);
        if (it == m.sources.end() || it->second.empty())
            return json(value);
        return json{{"value", value}, {"source", it->second}};
    };
    json root = json::object();
    root["format"] = kMachineFormatId;
    root["version"] = kFormatVersion;
    if (!m.name.empty())
        root["name"] = m.name;
    if (!m.description.empty())
        root["description"] = m.description;
    json pipes = json::object();
    for (Pipe p : kAllPipes) {
        const std::string base = std::string("/pipes/") + pipeName(p) + "/";
        pipes[pipeName(p)] = json{{throughputKey(p), sourced(m.pipe(p).throughput, base + throughputKey(p))},
                                  {"init_ns", sourced(m.pipe(p).initNs, base + "init_ns")}};
    }
    root["pipes"] = std::move(pipes);
    root["bus"] = json{{"mode", modeName(m.busMode)},
                       {"bandwidth_gbps", sourced(m.busGBps, "/bus/bandwidth_gbps")},
                       {"read_gbps", sourced(m.readGBps, "/bus/read_gbps")},
                       {"write_gbps", sourced(m.writeGBps, "/bus/write_gbps")}};
    root["cores"] = json{{"count", sourced(m.coreCount, "/cores/count")},
                         {"skew_ns", sourced(m.skewNs, "/cores/skew_ns")}};
    return root;
}

std::string serialize(const Machine &machine)
{
    return toJson(machine).dump(2) + "\n";
}

bool applyOverride(Machine &machine, const std::string &assignment, Diagnostics &diagnostics)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        diagnostics.error("--set " + assignment, "expected POINTER=VALUE, e.g. /bus/bandwidth_gbps=30");
        return false;
    }
    std::string path = assignment.substr(0, eq);
    const std::string valueText = assignment.substr(eq + 1);
    if (path.front() != '/')
        path.insert(path.begin(), '/');
    Machine changed = machine;
    if (path == "/bus/mode") {
        if (valueText == "half_duplex")
            changed.busMode = BusMode::HalfDuplex;
        else if (valueText == "separate")
            changed.busMode = BusMode::Separate;
        else {
            diagnostics.error(path, "expected half_duplex or separate, got \"" + valueText + "\"");
            return false;
        }
        machine = std::move(changed);
        return true;
    }
    const auto parsed = parseFiniteNumber(valueText);
    if (!parsed) {
        diagnostics.error(path, "expected a finite number, got \"" + valueText + "\"");
        return false;
    }
    const double value = *parsed;
    double *target = nullptr;
    if (path == "/bus/bandwidth_gbps")
        target = &changed.busGBps;
    else if (path == "/bus/read_gbps")
        target = &changed.readGBps;
    else if (path == "/bus/write_gbps")
        target = &changed.writeGBps;
    else if (path == "/cores/skew_ns")
        target = &changed.skewNs;
    else if (path == "/cores/count") {
        if (value != std::floor(value) || !kCores.contains(value)) {
            diagnostics.error(path, "must be a whole number " + kCores.describe() + ", got " + valueText);
            return false;
        }
        changed.coreCount = static_cast<int>(value);
    } else if (path.rfind("/pipes/", 0) == 0) {
        const auto slash = path.find('/', 7);
        const std::string field = slash == std::string::npos ? "" : path.substr(slash + 1);
        for (Pipe p : kAllPipes) {
            if (slash == std::string::npos || path.compare(7, slash - 7, pipeName(p)) != 0)
                continue;
            if (field == "init_ns")
                target = &changed.pipe(p).initNs;
            else if (field == throughputKey(p))
                target = &changed.pipe(p).throughput;
        }
    }
    if (!target && path != "/cores/count") {
        diagnostics.error(path, "unknown parameter; use /pipes/<PIPE>/bandwidth_gbps (MTE1, MTE2, MTE3), "
                                "/pipes/<PIPE>/throughput_gops (S, M, V), /pipes/<PIPE>/init_ns, "
                                "/bus/mode, /bus/bandwidth_gbps, /bus/read_gbps, /bus/write_gbps, "
                                "/cores/count or /cores/skew_ns");
        return false;
    }
    if (target)
        *target = value;
    Diagnostics check;
    validate(changed, check);
    if (check.hasErrors()) {
        for (const Diagnostic &d : check.errors())
            diagnostics.error(d.pointer, d.message + " (after --set " + assignment + ")");
        return false;
    }
    // An override replaces the file's number, so its source no longer applies.
    changed.sources.erase(path);
    machine = std::move(changed);
    return true;
}

// --- Results ----------------------------------------------------------------

namespace {

const char *kindName(Instruction::Kind kind)
{
    switch (kind) {
    case Instruction::Kind::Work: return "work";
    case Instruction::Kind::SetFlag: return "set_flag";
    case Instruction::Kind::WaitFlag: return "wait_flag";
    case Instruction::Kind::Barrier: return "pipe_barrier";
    }
    return "?";
}

const char *errorKindName(SimulationError::Kind kind)
{
    switch (kind) {
    case SimulationError::Kind::InvalidInput: return "invalid_input";
    case SimulationError::Kind::Deadlock: return "deadlock";
    case SimulationError::Kind::FlagAlreadySet: return "flag_already_set";
    case SimulationError::Kind::Cancelled: return "cancelled";
    }
    return "?";
}

const std::string &instructionName(const Trace &trace, const Instruction &in)
{
    return trace.names[in.name < trace.names.size() ? in.name : 0];
}

// Average rate of the data phase (after Init): GB/s or Gops/s; 0 when it took no time.
double achievedRate(const Machine &machine, const Instruction &in, const Timing &t)
{
    const double data = t.end - t.start - machine.pipe(in.pipe).initNs;
    return data > 0 ? in.size / data : 0;
}

std::string laneName(const Instruction &in)
{
    return in.kind == Instruction::Kind::Barrier ? "ALL" : pipeName(in.pipe);
}

constexpr std::size_t kMaxPathSteps = 1000;

} // namespace

json summaryToJson(const Trace &trace, const Machine &machine, const Result &result)
{
    json out = json::object();
    out["trace"] = trace.name;
    out["machine"] = machine.name;
    out["ok"] = result.ok();
    if (result.error) {
        out["error"] = {{"kind", errorKindName(result.error->kind)},
                        {"core", result.error->core},
                        {"instruction", result.error->instruction},
                        {"message", result.error->message}};
    } else {
        out["error"] = nullptr;
    }
    out["total_ns"] = result.totalNs;
    out["instructions"] = trace.instructionCount();
    json cores = json::array();
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const CoreResult &core = result.cores[c];
        json busy = json::object(), busyNs = json::object();
        for (Pipe p : kAllPipes) {
            busy[pipeName(p)] = result.busyFraction(c, p);
            busyNs[pipeName(p)] = core.busyNs[pipeIndex(p)];
        }
        cores.push_back({{"index", c},
                         {"name", trace.cores[c].name},
                         {"instructions", trace.cores[c].instructions.size()},
                         {"start_ns", core.startNs},
                         {"end_ns", core.endNs},
                         {"busy_fraction", std::move(busy)},
                         {"busy_ns", std::move(busyNs)}});
    }
    out["cores"] = std::move(cores);
    double stallNs = 0;
    for (const Stall &s : result.stalls)
        stallNs += s.end - s.start;
    out["stalls"] = {{"count", result.stalls.size()}, {"time_ns", stallNs}};
    out["contention"] = {{"intervals", result.contention.size()},
                         {"time_ns", result.contentionNs},
                         {"fraction", result.totalNs > 0 ? result.contentionNs / result.totalNs : 0}};
    json path = json::object();
    json steps = json::array();
    json pathNs = json::object();
    for (Pipe p : kAllPipes)
        pathNs[pipeName(p)] = 0.0;
    const auto &cp = result.criticalPath;
    for (std::size_t k = 0; k < cp.size(); ++k) {
        const PathStep &s = cp[k];
        const Instruction &in = trace.cores[s.core].instructions[s.instruction];
        const Timing &t = result.cores[s.core].instructions[s.instruction];
        if (in.kind == Instruction::Kind::Work)
            pathNs[pipeName(in.pipe)] = pathNs[pipeName(in.pipe)].get<double>() + (t.end - t.start);
        if (cp.size() > kMaxPathSteps && k >= kMaxPathSteps / 2 && k < cp.size() - kMaxPathSteps / 2)
            continue;
        steps.push_back({{"core", s.core},
                         {"instruction", s.instruction},
                         {"pipe", laneName(in)},
                         {"what", describe(trace, in)},
                         {"via", dependencyName(s.via)},
                         {"start_ns", t.start},
                         {"end_ns", t.end}});
    }
    path["length"] = cp.size();
    path["steps_omitted"] = cp.size() > kMaxPathSteps ? cp.size() - kMaxPathSteps : 0;
    path["work_ns_by_pipe"] = std::move(pathNs);
    path["steps"] = std::move(steps);
    out["critical_path"] = std::move(path);
    const TraceBounds bounds = traceBounds(trace, machine);
    out["bounds"] = {{"lower_bound_ns", bounds.lowerBoundNs},
                     {"bus_bytes", bounds.busBytes},
                     {"bus_ns", bounds.busNs}};
    out["warnings"] = result.warnings;
    return out;
}

json eventsToJson(const Trace &trace, const Machine &machine, const Result &result)
{
    json events = json::array();
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const auto &program = trace.cores[c].instructions;
        for (std::size_t i = 0; i < program.size(); ++i) {
            const Instruction &in = program[i];
            const Timing &t = result.cores[c].instructions[i];
            json e = {{"core", c},
                      {"index", i},
                      {"pipe", laneName(in)},
                      {"kind", kindName(in.kind)},
                      {"what", describe(trace, in)},
                      {"executed", t.executed}};
            if (in.kind == Instruction::Kind::Work) {
                e["name"] = instructionName(trace, in);
                e[movesBytes(in.pipe) ? "bytes" : "ops"] = in.size;
            } else if (in.kind != Instruction::Kind::Barrier) {
                e["event_id"] = in.eventId;
                e["partner"] = t.flag >= 0 ? json(t.flag) : json(nullptr);
            }
            if (t.executed) {
                e["start_ns"] = t.start;
                e["end_ns"] = t.end;
                if (in.kind == Instruction::Kind::Work)
                    e[movesBytes(in.pipe) ? "bandwidth_gbps" : "throughput_gops"] = achievedRate(machine, in, t);
                e["cause"] = t.cause >= 0 ? json(t.cause) : json(nullptr);
                e["cause_kind"] = dependencyName(t.causeKind);
            }
            events.push_back(std::move(e));
        }
    }
    json contention = json::array();
    for (const ContentionInterval &ci : result.contention) {
        json shares = json::array();
        for (const Share &s : result.sharesOf(ci))
            shares.push_back({{"core", s.core}, {"instruction", s.instruction}, {"rate_gbps", s.rateGBps}});
        contention.push_back({{"start_ns", ci.start}, {"end_ns", ci.end}, {"shares", std::move(shares)}});
    }
    json stalls = json::array();
    for (const Stall &s : result.stalls)
        stalls.push_back({{"core", s.core}, {"instruction", s.instruction}, {"start_ns", s.start}, {"end_ns", s.end}});
    return {{"events", std::move(events)}, {"stalls", std::move(stalls)}, {"contention", std::move(contention)}};
}

std::string eventsToCsv(const Trace &trace, const Machine &machine, const Result &result)
{
    auto quoted = [](const std::string &s) {
        if (s.find_first_of(",\"\n") == std::string::npos)
            return s;
        std::string out = "\"";
        for (char c : s)
            out += c == '"' ? std::string("\"\"") : std::string(1, c);
        return out + "\"";
    };
    std::string out = "core,index,pipe,kind,name,size,unit,event_id,start_ns,end_ns,rate,executed\n";
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const auto &program = trace.cores[c].instructions;
        for (std::size_t i = 0; i < program.size(); ++i) {
            const Instruction &in = program[i];
            const Timing &t = result.cores[c].instructions[i];
            const bool work = in.kind == Instruction::Kind::Work;
            const bool flag = in.kind == Instruction::Kind::SetFlag || in.kind == Instruction::Kind::WaitFlag;
            out += std::to_string(c) + "," + std::to_string(i) + "," + laneName(in) + "," + kindName(in.kind) + ","
                + quoted(work ? instructionName(trace, in) : describe(trace, in)) + ","
                + (work ? formatNumber(in.size, 17) : "") + "," + (work ? (movesBytes(in.pipe) ? "B" : "ops") : "")
                + "," + (flag ? std::to_string(in.eventId) : "") + "," + (t.executed ? formatNumber(t.start, 17) : "")
                + "," + (t.executed ? formatNumber(t.end, 17) : "") + ","
                + (t.executed && work ? formatNumber(achievedRate(machine, in, t), 17) : "") + ","
                + (t.executed ? "1" : "0") + "\n";
        }
    }
    return out;
}

json chromeTrace(const Trace &trace, const Machine &machine, const Result &result)
{
    json events = json::array();
    const int busPid = static_cast<int>(result.cores.size());
    auto meta = [&](const char *what, int pid, int tid, const std::string &name) {
        json e = {{"ph", "M"}, {"name", what}, {"pid", pid}, {"args", {{"name", name}}}};
        if (tid >= 0)
            e["tid"] = tid;
        events.push_back(std::move(e));
    };
    constexpr int kBarrierTid = static_cast<int>(kPipeCount);
    for (std::size_t c = 0; c < result.cores.size(); ++c) {
        const int pid = static_cast<int>(c);
        meta("process_name", pid, -1, trace.cores[c].name.empty() ? "core " + std::to_string(c) : trace.cores[c].name);
        for (Pipe p : kAllPipes)
            meta("thread_name", pid, static_cast<int>(pipeIndex(p)), pipeName(p));
        meta("thread_name", pid, kBarrierTid, "barriers");
        const auto &program = trace.cores[c].instructions;
        for (std::size_t i = 0; i < program.size(); ++i) {
            const Instruction &in = program[i];
            const Timing &t = result.cores[c].instructions[i];
            if (!t.executed)
                continue;
            const int tid = in.kind == Instruction::Kind::Barrier ? kBarrierTid : static_cast<int>(pipeIndex(in.pipe));
            json e = {{"pid", pid}, {"tid", tid}, {"ts", t.start / 1000}, {"cat", kindName(in.kind)}};
            json args = {{"index", i}};
            if (in.kind == Instruction::Kind::Work) {
                const std::string &name = instructionName(trace, in);
                e["name"] = name.empty() ? std::string(pipeName(in.pipe)) : name;
                e["ph"] = "X";
                e["dur"] = (t.end - t.start) / 1000;
                args["size"] = in.size;
                args["unit"] = movesBytes(in.pipe) ? "B" : "ops";
                args[movesBytes(in.pipe) ? "bandwidth_gbps" : "throughput_gops"] = achievedRate(machine, in, t);
                args["init_ns"] = machine.pipe(in.pipe).initNs;
            } else if (in.kind == Instruction::Kind::WaitFlag && t.end > t.start) {
                e["name"] = describe(trace, in);
                e["ph"] = "X";
                e["dur"] = (t.end - t.start) / 1000;
                args["stall_ns"] = t.end - t.start;
            } else {
                e["name"] = describe(trace, in);
                e["ph"] = "i";
                e["s"] = "t";
            }
            e["args"] = std::move(args);
            events.push_back(std::move(e));
        }
    }
    if (!result.contention.empty()) {
        meta("process_name", busPid, -1, "bus contention");
        for (const ContentionInterval &ci : result.contention) {
            json shares = json::array();
            for (const Share &s : result.sharesOf(ci))
                shares.push_back({{"core", s.core}, {"instruction", s.instruction}, {"rate_gbps", s.rateGBps}});
            events.push_back({{"name", std::to_string(ci.shareCount) + " transfers"},
                              {"cat", "contention"},
                              {"ph", "X"},
                              {"pid", busPid},
                              {"tid", 0},
                              {"ts", ci.start / 1000},
                              {"dur", (ci.end - ci.start) / 1000},
                              {"args", {{"shares", std::move(shares)}}}});
        }
    }
    return {{"traceEvents", std::move(events)},
            {"displayTimeUnit", "ns"},
            {"otherData", {{"trace", trace.name}, {"machine", machine.name}, {"total_ns", result.totalNs}}}};
}

} // namespace roofline::verrocchio
