#include "jsondocument.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace roofline {

using nlohmann::json;

namespace {

// nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: "
std::string withoutPrefix(std::string reason)
{
    if (reason.rfind("[json.exception", 0) == 0) {
        if (auto pos = reason.find(": "); pos != std::string::npos)
            return reason.substr(pos + 2);
        if (auto pos = reason.find("] "); pos != std::string::npos)
            return reason.substr(pos + 2);
    }
    return reason;
}

// Builds the document from nlohmann's SAX events, so reading is linear in the
// size of the text (nlohmann 3.11's parser with a callback rescans the parent
// container after every value: quadratic), and follows the parser through the
// document so that errors it cannot place (duplicate keys, numbers that
// overflow, nesting too deep) are named by JSON pointer.
class DocumentBuilder : public nlohmann::json_sax<json>
{
public:
    DocumentBuilder(json &root, const JsonStream *stream)
        : m_root(root)
        , m_stream(stream)
    {
        // Frames never move: a streamed element is built in its array's frame.
        m_frames.reserve(kMaxJsonDepth + 1);
    }

    bool null() override { return put(json(nullptr)); }
    bool boolean(bool v) override { return put(json(v)); }
    bool number_integer(number_integer_t v) override { return put(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
    bool number_float(number_float_t v, const string_t &) override { return put(json(v)); }
    bool string(string_t &v) override { return put(json(std::move(v))); }
    bool binary(binary_t &) override { return put(json(nullptr)); } // never produced by the text parser
    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool key(string_t &k) override
    {
        Frame &f = m_frames.back();
        if (f.value->contains(k)) {
            m_key = std::move(k);
            m_error = "key appears twice in the same object; remove one of them";
            m_errorPointer = pointer();
            return false;
        }
        m_key = std::move(k);
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t byte, const std::string &, const nlohmann::detail::exception &e) override
    {
        if (e.id == 406) { // a number that overflows: name it by pointer
            m_errorPointer = pointer();
            m_error = "invalid JSON: " + withoutPrefix(e.what());
            return false;
        }
        m_syntaxByte = byte;
        m_syntaxReason = e.what();
        return false;
    }

    // A syntax error: the 1-based byte and nlohmann's message.
    std::size_t syntaxByte() const { return m_syntaxByte; }
    const std::string &syntaxReason() const { return m_syntaxReason; }
    // An error found while building (duplicate key, too deep): where and why.
    const std::string &error() const { return m_error; }
    const std::string &errorPointer() const { return m_errorPointer; }

    // The pointer of the value being read (for numbers that overflow).
    std::string pointer() const
    {
        if (m_frames.empty())
            return {};
        return pathTo(m_frames.size() - 1) + "/" + pendingToken(m_frames.back());
    }

private:
    struct Frame
    {
        json *value = nullptr;
        std::string key;       // of the member being read (objects)
        std::size_t count = 0; // elements begun so far (arrays)
        bool streamed = false; // its elements go to the stream
        json held;             // the streamed element being built
    };

    // The reference token of the value about to be read into frame `f` (the innermost).
    std::string pendingToken(const Frame &f) const
    {
        return f.value->is_array() ? std::to_string(f.count) : jsonPointerToken(m_key);
    }
    // The pointer of the value frame `k` holds (its parents' open children).
    std::string pathTo(std::size_t k) const
    {
        std::string out;
        for (std::size_t j = 0; j < k; ++j) {
            const Frame &f = m_frames[j];
            out += "/" + (f.value->is_array() ? std::to_string(f.count - 1) : jsonPointerToken(f.key));
        }
        return out;
    }
    // Whether an array opened now, as the innermost frame's pending value, is a streamed one.
    bool streamedHere() const
    {
        if (!m_stream || m_frames.size() != m_stream->arrayPath.size())
            return false;
        for (std::size_t j = 0; j < m_frames.size(); ++j) {
            const Frame &f = m_frames[j];
            const bool innermost = j + 1 == m_frames.size();
            const std::string &want = m_stream->arrayPath[j];
            if (want == "*" ? !f.value->is_array() : f.value->is_array() || want != (innermost ? m_key : f.key))
                return false;
        }
        return true;
    }

    json *place(json &&value, bool container)
    {
        if (m_frames.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        Frame &f = m_frames.back();
        if (f.value->is_array()) {
            if (f.streamed) {
                if (!container) { // complete already
                    m_stream->take(pointer(), std::move(value));
                    ++f.count;
                    return nullptr;
                }
                ++f.count;
                f.held = std::move(value);
                return &f.held;
            }
            ++f.count;
            f.value->push_back(std::move(value));
            return &f.value->back();
        }
        f.key = std::move(m_key);
        json &slot = (*f.value)[f.key];
        slot = std::move(value);
        return &slot;
    }
    bool put(json &&value)
    {
        place(std::move(value), false);
        return true;
    }
    bool open(json &&container)
    {
        if (m_frames.size() >= kMaxJsonDepth) {
            m_errorPointer = pointer();
            m_error = "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep; this is not a model file";
            return false;
        }
        const bool streamed = container.is_array() && streamedHere();
        json *slot = place(std::move(container), true);
        m_frames.push_back(Frame{slot, {}, 0, streamed, json()});
        return true;
    }
    bool close()
    {
        const std::size_t k = m_frames.size() - 1;
        if (k >= 1 && m_frames[k - 1].streamed) { // a streamed element is complete
            const std::string at = pathTo(k);
            m_frames.pop_back();
            Frame &array = m_frames.back();
            m_stream->take(at, std::move(array.held));
            array.held = json();
            return true;
        }
        m_frames.pop_back();
        return true;
    }

    json &m_root;
    const JsonStream *m_stream = nullptr;
    std::vector<Frame> m_frames;
    std::string m_key;
    std::size_t m_syntaxByte = 0;
    std::string m_syntaxReason;
    std::string m_error;
    std::string m_errorPointer;
};

// Follows the parser only as far as the top-level "format".
class FormatFinder : public nlohmann::json_sax<json>
{
public:
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t &) override { return value(); }
    bool string(string_t &v) override
    {
        if (m_depth == 1 && m_atFormat) {
            format = std::move(v);
            found = true;
            return false; // stop: nothing more is needed
        }
        return value();
    }
    bool binary(binary_t &) override { return value(); }
    bool start_object(std::size_t) override { return open(); }
    bool start_array(std::size_t) override { return open(); }
    bool key(string_t &k) override
    {
        m_atFormat = m_depth == 1 && k == "format";
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t byte, const std::string &, const nlohmann::detail::exception &e) override
    {
        syntaxByte = byte;
        syntaxReason = e.what();
        return false;
    }

    std::string format;
    bool found = false;
    std::size_t syntaxByte = 0;
    std::string syntaxReason;

private:
    bool value()
    {
        m_atFormat = false;
        return true;
    }
    bool open()
    {
        m_atFormat = false;
        ++m_depth;
        return true;
    }
    bool close()
    {
        --m_depth;
        return true;
    }
    std::size_t m_depth = 0;
    bool m_atFormat = false;
};

// "line L, column C" of a 1-based byte of `text`.
std::string lineAndColumn(const std::string &text, std::size_t byte)
{
    std::size_t line = 1, column = 1;
    const std::size_t end = std::min<std::size_t>(byte > 0 ? byte - 1 : 0, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

} // namespace

bool readFormatId(const std::string &text, std::string &format, Diagnostics &diagnostics)
{
    format.clear();
    FormatFinder finder;
    try {
        json::sax_parse(text, &finder, json::input_format_t::json, true, false);
    } catch (const json::exception &) {
        return true; // a number that overflows, before any format: the loader names it
    }
    if (finder.found) {
        format = std::move(finder.format);
        return true;
    }
    if (!finder.syntaxReason.empty()) {
        diagnostics.error(lineAndColumn(text, finder.syntaxByte),
                          "invalid JSON: " + printableText(withoutPrefix(finder.syntaxReason), 300));
        return false;
    }
    return true;
}

std::optional<std::size_t> invalidUtf8At(const std::string &text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t code = 0;
        if ((c >> 5) == 0x6) {
            length = 2;
            code = c & 0x1F;
        } else if ((c >> 4) == 0xE) {
            length = 3;
            code = c & 0x0F;
        } else if ((c >> 3) == 0x1E) {
            length = 4;
            code = c & 0x07;
        } else {
            return i;
        }
        if (i + length > text.size())
            return i;
        for (std::size_t k = 1; k < length; ++k) {
            const auto d = static_cast<unsigned char>(text[i + k]);
            if ((d & 0xC0) != 0x80)
                return i;
            code = (code << 6) | (d & 0x3F);
        }
        // Overlong forms, surrogates and values beyond U+10FFFF are not UTF-8.
        static const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < smallest[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
            return i;
        i += length;
    }
    return std::nullopt;
}

bool parseJsonText(const std::string &text, json &out, Diagnostics &diagnostics, const JsonStream *stream)
{
    if (text.size() > kMaxModelFileBytes) {
        diagnostics.error("", "the file is " + formatNumber(static_cast<double>(text.size()) / 1e6, 4)
                                  + " MB; model files of at most " + formatNumber(kMaxModelFileBytes / 1e6, 4)
                                  + " MB are supported");
        return false;
    }
    DocumentBuilder builder(out, stream);
    bool parsed = false;
    try {
        parsed = json::sax_parse(text, &builder, json::input_format_t::json, true, false);
    } catch (const json::exception &e) {
        // e.g. out_of_range.406 "number overflow parsing '1e999'": the builder knows where.
        diagnostics.error(builder.pointer(), "invalid JSON: " + withoutPrefix(e.what()));
        out = json();
        return false;
    }
    if (parsed)
        return true;
    out = json();
    if (!builder.error().empty()) {
        diagnostics.error(builder.errorPointer().empty() ? "/" : builder.errorPointer(), builder.error());
        return false;
    }
    // A syntax error: e.byte is 1-based; turn it into line and column for people.
    diagnostics.error(lineAndColumn(text, builder.syntaxByte()),
                      "invalid JSON: " + printableText(withoutPrefix(builder.syntaxReason()), 300));
    return false;
}

bool readTextFile(const std::string &path, std::string &text, Diagnostics &diagnostics)
{
    diagnostics.setFile(path);
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        diagnostics.error("", "cannot open the file for reading: no such file");
        return false;
    }
    if (std::filesystem::is_directory(status)) {
        diagnostics.error("", "is a folder, not a file");
        return false;
    }
    if (std::filesystem::is_regular_file(status)) {
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size > kMaxModelFileBytes) {
            diagnostics.error("", "the file is " + formatNumber(static_cast<double>(size) / 1e6, 4)
                                      + " MB; files of at most " + formatNumber(kMaxModelFileBytes / 1e6, 4)
                                      + " MB are supported");
            return false;
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        diagnostics.error("", std::string("cannot open the file for reading: ") + std::strerror(errno));
        return false;
    }
    text.clear();
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxModelFileBytes) {
            diagnostics.error("", "the file is larger than " + formatNumber(kMaxModelFileBytes / 1e6, 4)
                                      + " MB, the most that is supported");
            return false;
        }
    }
    if (in.bad()) {
        diagnostics.error("", "cannot read the file");
        return false;
    }
    // A UTF-8 byte-order mark says nothing to a reader of UTF-8: drop it, so
    // every format (JSON, text trace, CSV) reads the same text with or without.
    if (text.rfind("\xEF\xBB\xBF", 0) == 0)
        text.erase(0, 3);
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
                             Diagnostics &diagnostics, const JsonStream *stream)
{
    diagnostics.setFile(fileLabel);
    if (!parseJsonText(text, m_root, diagnostics, stream))
        return;
    m_top.emplace(m_root, "", diagnostics);
    if (!readFormatHeader(*m_top, formatId, version, diagnostics))
        m_top.reset();
}

} // namespace roofline
