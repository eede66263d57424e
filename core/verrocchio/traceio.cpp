// Verrocchio trace, JSON form (docs/file-formats-verrocchio.md): event-id
// expressions, loops and their expansion into the flat instruction list.
#include "io.h"

#include "../common/jsondocument.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
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
            m_error = "unexpected \"" + printableText(m_text.substr(m_pos), 40) + "\"";
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
        // Each "(" and each sign nests one level; the cap keeps the recursion
        // (and the evaluation stack) small whatever the file says.
        struct Nest
        {
            std::size_t &depth;
            explicit Nest(std::size_t &d) : depth(++d) {}
            ~Nest() { --depth; }
        } nest(m_depth);
        if (m_depth > Limits::maxExpressionDepth) {
            m_error = "nested more than " + std::to_string(Limits::maxExpressionDepth)
                + " levels deep (parentheses and signs)";
            return;
        }
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
            m_error = c == '\0' ? "expression ends too early" : "unexpected \"" + printableText(std::string(1, c)) + "\"";
        }
    }

    const std::string &m_text;
    const std::vector<std::string> &m_scope;
    std::size_t m_pos = 0;
    std::size_t m_depth = 0;
    std::string m_error;
};

// Returns an empty string, or why the expression has no value ("divides by zero").
std::string evaluate(const Expr &expr, const std::vector<long long> &values, long long &out)
{
    // Nesting is capped (Limits::maxExpressionDepth): two pending values per level at most.
    constexpr std::size_t kStack = 2 * Limits::maxExpressionDepth + 8;
    long long stack[kStack];
    std::size_t top = 0;
    for (const ExprToken &t : expr) {
        if (top >= kStack)
            return "is too complex to evaluate";
        switch (t.type) {
        case ExprToken::Type::Constant: stack[top++] = t.value; break;
        case ExprToken::Type::Variable: stack[top++] = values[static_cast<std::size_t>(t.value)]; break;
        case ExprToken::Type::Negate:
            if (top < 1 || __builtin_sub_overflow(0LL, stack[top - 1], &stack[top - 1]))
                return "overflows 64-bit integers";
            break;
        case ExprToken::Type::Operator: {
            if (top < 2)
                return "is malformed";
            const long long b = stack[--top];
            long long &a = stack[top - 1];
            bool overflow = false;
            switch (t.op) {
            case '+': overflow = __builtin_add_overflow(a, b, &a); break;
            case '-': overflow = __builtin_sub_overflow(a, b, &a); break;
            case '*': overflow = __builtin_mul_overflow(a, b, &a); break;
            case '/':
            case '%':
                if (b == 0)
                    return "divides by zero";
                if (b == -1 && a == std::numeric_limits<long long>::min())
                    overflow = true;
                else
                    a = t.op == '/' ? a / b : a % b;
                break;
            }
            if (overflow)
                return "overflows 64-bit integers";
            break;
        }
        }
    }
    out = top == 1 ? stack[0] : 0;
    return {};
}

// --- Trace items ----------------------------------------------------------------

// One item of a program as read, before loops are expanded. Kept small: a
// flat 10⁶-instruction file holds 10⁶ of them at once (issue 14: memory).
// Its JSON pointer is the trace's origin of the instruction.
struct Item
{
    struct Loop
    {
        std::string variable;
        std::uint64_t count = 0;
        std::vector<Item> body;
    };
    Instruction instruction; // kind, pipes, name, origin, size (eventId comes from `event`)
    Expr event;
    std::unique_ptr<Loop> loop; // set for a loop
};

// A core's program as read. Most items of a flat file are ready
// instructions (no loop, a constant event id in range): they go straight into
// `ready`, which becomes the core's instructions without a copy when nothing
// else is there (issue 14: a 10⁶-item file held 56 MB of Items before). The
// other items wait in `nested`, each before the ready instruction it precedes.
struct Program
{
    std::vector<Instruction> ready;
    std::vector<std::pair<std::size_t, Item>> nested; // (position in `ready`, item)

    void add(Item &&item)
    {
        if (!item.loop) {
            Instruction &in = item.instruction;
            const bool flag = in.kind == Instruction::Kind::SetFlag || in.kind == Instruction::Kind::WaitFlag;
            if (!flag) {
                ready.push_back(in);
                return;
            }
            if (item.event.size() == 1 && item.event[0].type == ExprToken::Type::Constant
                && item.event[0].value >= 0 && item.event[0].value <= kMaxEventId) {
                in.eventId = static_cast<std::uint8_t>(item.event[0].value);
                ready.push_back(in);
                return;
            }
        }
        nested.emplace_back(ready.size(), std::move(item));
    }
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

    // One item of a program, read where the file has it (`pointer`), with its
    // errors going to `diagnostics`; nullopt when it has errors.
    std::optional<Item> item(const json &value, const std::string &pointer, Diagnostics &diagnostics)
    {
        Diagnostics *const saved = m_current;
        m_current = &diagnostics;
        std::vector<std::string> scope;
        std::optional<Item> out = parseItem(value, pointer, scope);
        m_current = saved;
        return out;
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
            diags().error(pointer, "expected an array of instructions, got " + jsonTypeName(array));
            return out;
        }
        out.reserve(array.size()); // no doubling (a loop body may hold 10⁶ items)
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
            diags().error(r.pointerTo(key), "unknown pipe \"" + *name + "\"; use " + kPipeList);
        return p;
    }

    std::optional<Item> parseItem(const json &value, const std::string &pointer, std::vector<std::string> &scope)
    {
        JsonObjectReader r(value, pointer, diags());
        if (!r.isObject())
            return std::nullopt;
        const std::size_t errorsBefore = diags().errorCount();
        Item item;
        r.optionalString("comment");
        const std::string op = r.string("op").value_or("");
        Instruction &in = item.instruction;
        if (op == "loop") {
            item.loop = std::make_unique<Item::Loop>();
            Item::Loop &loop = *item.loop;
            loop.variable = r.string("var").value_or("");
            if (r.has("var") && !isIdentifier(loop.variable))
                diags().error(r.pointerTo("var"), "must be a name such as i or tile, got \"" + loop.variable + "\"");
            else if (std::find(scope.begin(), scope.end(), loop.variable) != scope.end())
                diags().error(r.pointerTo("var"), "\"" + loop.variable + "\" is already the variable of an outer loop");
            if (auto count = r.number("count", Range::closed(0, Limits::maxLoopCount))) {
                if (*count != std::floor(*count))
                    diags().error(r.pointerTo("count"), "must be a whole number, got " + formatNumber(*count));
                loop.count = static_cast<std::uint64_t>(*count);
            }
            if (scope.size() >= Limits::maxLoopDepth) {
                r.member("body", false);
                diags().error(pointer, "loops nested more than " + std::to_string(Limits::maxLoopDepth) + " deep");
            } else if (const json *body = r.member("body", true)) {
                scope.push_back(loop.variable);
                loop.body = items(*body, r.pointerTo("body"), scope);
                scope.pop_back();
            }
        } else if (op == "set_flag" || op == "wait_flag") {
            in.kind = op == "set_flag" ? Instruction::Kind::SetFlag : Instruction::Kind::WaitFlag;
            const auto src = pipe(r, "src");
            const auto dst = pipe(r, "dst");
            if (src && dst) {
                if (*src == *dst)
                    diags().error(r.pointerTo("dst"), "must differ from src (a flag orders two pipes)");
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
                        diags().error(where, "invalid event id \"" + printableText(event->get<std::string>(), 60) + "\": " + error);
                } else {
                    diags().error(where, "expected an event id (0.." + std::to_string(kMaxEventId)
                                             + ") or an expression such as \"i % 2\", got " + jsonTypeName(*event));
                }
            }
        } else if (op == "pipe_barrier") {
            in.kind = Instruction::Kind::Barrier;
            if (auto p = r.optionalString("pipe"); p && *p != "ALL" && *p != "PIPE_ALL")
                diags().error(r.pointerTo("pipe"), "only pipe_barrier(PIPE_ALL) is supported, got \"" + *p + "\"");
        } else if (!op.empty()) {
            in.kind = Instruction::Kind::Work;
            in.name = internName(op);
            std::optional<Pipe> p;
            if (r.has("pipe"))
                p = pipe(r, "pipe");
            else if (!(p = pipeOfIntrinsic(op)))
                diags().error(pointer + "/op", "unknown instruction \"" + op + "\": say which pipe runs it with \"pipe\" ("
                                                   + kPipeList + ")");
            if (!p) {
                // The pipe is unknown, so is which size key it takes: neither is "unknown".
                r.member("bytes", false);
                r.member("ops", false);
            } else {
                in.pipe = *p;
                const char *key = movesBytes(*p) ? "bytes" : "ops";
                const char *wrong = movesBytes(*p) ? "ops" : "bytes";
                if (r.has(wrong)) {
                    r.member(wrong, false);
                    diags().error(r.pointerTo(wrong), std::string(pipeName(*p)) + (movesBytes(*p) ? " moves bytes" : " executes operations")
                                                          + ": give its size as \"" + key + "\"");
                } else if (auto size = r.number(key, Range::nonNegative(Limits::maxSize))) {
                    in.size = *size;
                }
            }
        } else if (r.has("op")) {
            diags().error(pointer + "/op", "must not be empty");
        }
        r.finish();
        if (diags().errorCount() != errorsBefore)
            return std::nullopt;
        in.origin = m_trace.internOrigin(pointer);
        return item;
    }

    Diagnostics &diags() { return m_current ? *m_current : m_diags; }

    Trace &m_trace;
    Diagnostics &m_diags;
    Diagnostics *m_current = nullptr; // while item() reads a streamed item
    std::unordered_map<std::string, std::uint32_t> m_names;
};

double expandedSize(const std::vector<Item> &items)
{
    double n = 0;
    for (const Item &item : items)
        n += item.loop ? static_cast<double>(item.loop->count) * expandedSize(item.loop->body) : 1.0;
    return n;
}

double expandedSize(const Program &program)
{
    double n = static_cast<double>(program.ready.size());
    for (const auto &[position, item] : program.nested)
        n += item.loop ? static_cast<double>(item.loop->count) * expandedSize(item.loop->body) : 1.0;
    return n;
}

class Expander
{
public:
    Expander(std::vector<Instruction> &out, const Trace &trace, Diagnostics &diagnostics)
        : m_out(out)
        , m_trace(trace)
        , m_diags(diagnostics)
    {
    }

    bool expand(const Program &program)
    {
        std::size_t next = 0; // the next ready instruction
        for (const auto &[position, item] : program.nested) {
            m_out.insert(m_out.end(), program.ready.begin() + static_cast<std::ptrdiff_t>(next),
                         program.ready.begin() + static_cast<std::ptrdiff_t>(position));
            next = position;
            if (!expand(item))
                return false;
        }
        m_out.insert(m_out.end(), program.ready.begin() + static_cast<std::ptrdiff_t>(next), program.ready.end());
        return true;
    }

    bool expand(const std::vector<Item> &items)
    {
        for (const Item &item : items) {
            if (!expand(item))
                return false;
        }
        return true;
    }

private:
    bool expand(const Item &item)
    {
        if (item.loop) {
            m_names.push_back(item.loop->variable);
            m_values.push_back(0);
            for (std::uint64_t k = 0; k < item.loop->count; ++k) {
                m_values.back() = static_cast<long long>(k);
                if (!expand(item.loop->body))
                    return false;
            }
            m_names.pop_back();
            m_values.pop_back();
            return true;
        }
        Instruction in = item.instruction;
        if (in.kind == Instruction::Kind::SetFlag || in.kind == Instruction::Kind::WaitFlag) {
            long long id = 0;
            const std::string why = evaluate(item.event, m_values, id);
            if (!why.empty() || id < 0 || id > kMaxEventId) {
                m_diags.error(m_trace.origins[item.instruction.origin] + "/event",
                              (why.empty() ? "evaluates to " + std::to_string(id) : why)
                                  + iteration() + "; event ids are 0.." + std::to_string(kMaxEventId));
                return false;
            }
            in.eventId = static_cast<std::uint8_t>(id);
        }
        m_out.push_back(in);
        return true;
    }

    std::string iteration() const
    {
        std::string out;
        for (std::size_t d = 0; d < m_names.size(); ++d)
            out += (d == 0 ? " for " : ", ") + m_names[d] + " = " + std::to_string(m_values[d]);
        return out;
    }

    std::vector<Instruction> &m_out;
    const Trace &m_trace;
    Diagnostics &m_diags;
    std::vector<std::string> m_names;
    std::vector<long long> m_values;
};

} // namespace

TraceLoadResult parseTrace(const std::string &text, const std::string &fileLabel)
{
    TraceLoadResult out;
    Diagnostics &diags = out.diagnostics;
    Trace trace;
    struct Core
    {
        std::string name;
        std::size_t copies = 1;
        Program program;
        std::string pointer;
    };
    std::vector<Core> cores;
    TraceParser parser(trace, diags);
    // Each core's program is read item by item as the parser reaches it, not
    // kept in the document (a flat 10⁶-item program is some 300 MB as a
    // document, 56 B per item as Items); its errors wait in `streamed` until
    // the core is read, so they are listed where the whole document put them.
    struct Streamed
    {
        Program program;
        Diagnostics diagnostics;
    };
    std::vector<Streamed> streamed; // by core
    const JsonStream programs{{"cores", "*", "program"}, [&](const std::string &pointer, json &&element) {
                                  // pointer: /cores/<c>/program/<i>
                                  const std::size_t c = std::stoul(pointer.substr(7));
                                  if (streamed.size() <= c)
                                      streamed.resize(c + 1);
                                  Streamed &core = streamed[c];
                                  if (auto item = parser.item(element, pointer, core.diagnostics))
                                      core.program.add(std::move(*item));
                              }};
    // The rest of the document is small; it is freed before the expansion builds the trace.
    {
        JsonModelFile file(text, fileLabel, kTraceFormatId, kFormatVersion, diags, &programs);
        if (!file.isOpen())
            return out;
        JsonObjectReader &top = file.top();
        trace.name = top.optionalString("name").value_or("");
        trace.description = top.optionalString("description").value_or("");
        if (const json *coresJson = top.member("cores", true)) {
            if (!coresJson->is_array() || coresJson->empty()) {
                diags.error("/cores", "expected a non-empty array of cores, got " + jsonTypeName(*coresJson));
            } else {
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
                        if (program->is_array() && c < streamed.size()) {
                            diags.append(streamed[c].diagnostics);
                            core.program = std::move(streamed[c].program);
                            streamed[c] = Streamed();
                        } else {
                            std::vector<std::string> scope;
                            for (Item &item : parser.items(*program, r.pointerTo("program"), scope))
                                core.program.add(std::move(item));
                        }
                    }
                    r.finish();
                    cores.push_back(std::move(core));
                }
            }
        }
        top.optionalString("comment");
        top.finish();
    }
    if (diags.hasErrors())
        return out;

    double total = 0;
    std::size_t coreCount = 0;
    for (std::size_t k = 0; k < cores.size(); ++k) {
        const double size = expandedSize(cores[k].program) * static_cast<double>(cores[k].copies);
        total += size;
        coreCount += cores[k].copies;
        // Named at the core that goes over the limit (a line in the text form).
        if (total > static_cast<double>(Limits::maxInstructions)) {
            diags.error("/cores/" + std::to_string(k),
                        "this core's loops expand to " + formatNumber(size) + " instructions, the trace to at least "
                            + formatNumber(total) + "; at most " + std::to_string(Limits::maxInstructions)
                            + " are supported");
            return out;
        }
    }
    if (coreCount > static_cast<std::size_t>(Limits::maxCores)) {
        diags.error("/cores", "at most " + std::to_string(Limits::maxCores) + " cores are supported, got "
                                  + std::to_string(coreCount));
        return out;
    }
    for (Core &core : cores) {
        CoreProgram program;
        if (core.program.nested.empty()) {
            // A flat program: its instructions are ready as read.
            program.instructions = std::move(core.program.ready);
        } else {
            // Its size is known (checked against the limit above): no doubling.
            program.instructions.reserve(static_cast<std::size_t>(expandedSize(core.program)));
            Expander expander(program.instructions, trace, diags);
            if (!expander.expand(core.program))
                return out;
            core.program = Program();
        }
        for (std::size_t k = 0; k < core.copies; ++k) {
            program.name = core.name.empty() ? "core " + std::to_string(trace.cores.size())
                : core.copies > 1             ? core.name + " #" + std::to_string(k)
                                              : core.name;
            if (k + 1 == core.copies)
                trace.cores.push_back(std::move(program));
            else
                trace.cores.push_back(program);
        }
    }
    out.trace = std::move(trace);
    return out;
}

} // namespace roofline::verrocchio
