#include "jsondocument.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace roofline {

using nlohmann::json;

namespace {

// Follows the parser through the document so that errors it cannot place
// (duplicate keys, numbers that overflow) can still be named by JSON pointer.
class PointerTracker
{
public:
    // Returns false to report a duplicate key; the caller records the error.
    bool event(json::parse_event_t event, const json &parsed)
    {
        switch (event) {
        case json::parse_event_t::object_start:
            m_frames.push_back(Frame{false, 0, {}, {}});
            break;
        case json::parse_event_t::array_start:
            m_frames.push_back(Frame{true, 0, {}, {}});
            break;
        case json::parse_event_t::key: {
            Frame &f = m_frames.back();
            f.key = parsed.get<std::string>();
            if (!f.keys.insert(f.key).second && m_duplicate.empty())
                m_duplicate = pointer();
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            m_frames.pop_back();
            advance();
            break;
        case json::parse_event_t::value:
            advance();
            break;
        }
        return true;
    }

    std::string pointer() const
    {
        std::string out;
        for (const Frame &f : m_frames)
            out += "/" + (f.array ? std::to_string(f.index) : jsonPointerToken(f.key));
        return out;
    }
    const std::string &duplicate() const { return m_duplicate; }

private:
    struct Frame
    {
        bool array = false;
        std::size_t index = 0;
        std::string key;
        std::set<std::string> keys;
    };
    void advance()
    {
        if (!m_frames.empty() && m_frames.back().array)
            ++m_frames.back().index;
    }

    std::vector<Frame> m_frames;
    std::string m_duplicate;
};

} // namespace

bool parseJsonText(const std::string &text, json &out, Diagnostics &diagnostics)
{
    PointerTracker tracker;
    try {
        out = json::parse(text, [&tracker](int, json::parse_event_t event, json &parsed) {
            return tracker.event(event, parsed);
        });
    } catch (const json::parse_error &e) {
        // e.byte is 1-based; turn it into line and column for people.
        std::size_t line = 1, column = 1;
        const std::size_t end = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        for (std::size_t i = 0; i < end; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        std::string reason = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: "
        if (auto pos = reason.find(": "); pos != std::string::npos && reason.rfind("[json.exception", 0) == 0)
            reason = reason.substr(pos + 2);
        diagnostics.error("line " + std::to_string(line) + ", column " + std::to_string(column),
                          "invalid JSON: " + reason);
        return false;
    } catch (const json::exception &e) {
        // e.g. out_of_range.406 "number overflow parsing '1e999'": the tracker knows where.
        std::string reason = e.what();
        if (auto pos = reason.find("] "); pos != std::string::npos)
            reason = reason.substr(pos + 2);
        diagnostics.error(tracker.pointer(), "invalid JSON: " + reason);
        return false;
    }
    if (!tracker.duplicate().empty()) {
        diagnostics.error(tracker.duplicate(), "key appears twice in the same object; remove one of them");
        return false;
    }
    return true;
}

bool readTextFile(const std::string &path, std::string &text, Diagnostics &diagnostics)
{
    diagnostics.setFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diagnostics.error("", "cannot open the file for reading");
        return false;
    }
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return true;
}

namespace {

// Checks "format" and "version" at the top of a model file. Returns false
// when the document is not an object (nothing else can be read then).
bool readFormatHeader(JsonObjectReader &top, const char *formatId, int version, Diagnostics &diagnostics)
{
    if (!top.isObject())
        return false;
    if (auto format = top.string("format"); format && *format != formatId)
        diagnostics.error("/format", "expected \"" + std::string(formatId) + "\", got \"" + *format + "\"");
    if (auto v = top.number("version", Range::closed(1, 1e9)); v && *v != version)
        diagnostics.error("/version", "this build reads version " + std::to_string(version) + ", got " + formatNumber(*v));
    return true;
}

} // namespace

JsonModelFile::JsonModelFile(const std::string &text, const std::string &fileLabel, const char *formatId, int version,
                             Diagnostics &diagnostics)
{
    diagnostics.setFile(fileLabel);
    if (!parseJsonText(text, m_root, diagnostics))
        return;
    m_top.emplace(m_root, "", diagnostics);
    if (!readFormatHeader(*m_top, formatId, version, diagnostics))
        m_top.reset();
}

} // namespace roofline
