// Opening a JSON model file: the one place where model text is parsed.
//
// Every JSON loader starts the same way: text -> parsed JSON (syntax errors
// with line and column, duplicate keys and overflowing numbers with their JSON
// pointer) -> a JsonObjectReader on the top-level object -> "format" and
// "version" checked. JsonModelFile does exactly that, so a new format starts
//
//   JsonModelFile file(text, fileLabel, kFormatId, kFormatVersion, out.diagnostics);
//   if (!file.isOpen())
//       return out;                      // not JSON, or not an object: nothing more to read
//   JsonObjectReader &top = file.top();  // format and version already checked
//   ...
//   top.finish();
//
// A wrong "format" or "version" is reported but does not close the file, so
// the user sees every other error of the document in the same run.
#pragma once

#include "diagnostics.h"
#include "jsonreader.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// The elements of one kind of array, handed over as each is read instead of
// being kept in the document: a loader turns a 10⁶-item list into its own
// compact form item by item, and the parsed document (some 300 B per small
// object) never holds them all (issue 14: a trace's memory). The arrays stay
// in the document, empty.
struct JsonStream
{
    // Where the arrays are: object keys, "*" for any index of an array
    // ({"cores", "*", "program"}: every core's program).
    std::vector<std::string> arrayPath;
    // Called once per element, complete and in file order, with its JSON pointer.
    std::function<void(const std::string &pointer, nlohmann::json &&element)> take;
};

class JsonModelFile
{
public:
    // Sets the diagnostics' file to `fileLabel`, then parses and checks.
    JsonModelFile(const std::string &text, const std::string &fileLabel, const char *formatId, int version,
                  Diagnostics &diagnostics, const JsonStream *stream = nullptr);
    JsonModelFile(const JsonModelFile &) = delete;
    JsonModelFile &operator=(const JsonModelFile &) = delete;

    // False when the text is not JSON or its top level is not an object (both reported).
    bool isOpen() const { return m_top.has_value(); }
    // The reader on the top-level object; "format" and "version" are marked as read.
    JsonObjectReader &top() { return *m_top; }
    const nlohmann::json &root() const { return m_root; }

private:
    nlohmann::json m_root;
    std::optional<JsonObjectReader> m_top; // refers to m_root
};

// What the one opening refuses before reading further.
inline constexpr std::size_t kMaxJsonDepth = 256;              // arrays and objects nested
inline constexpr std::size_t kMaxModelFileBytes = 512'000'000; // bytes of one model file

// Parses text in time linear in its size; on a syntax error reports "line L, column C: <reason>" and returns false.
// With `stream`, the elements of its arrays go to stream->take, not into `out`.
bool parseJsonText(const std::string &text, nlohmann::json &out, Diagnostics &diagnostics,
                   const JsonStream *stream = nullptr);

// The top-level "format" of a model file, read only as far as it (a file is
// routed by it before its loader reads the whole; a 10⁶-item trace parsed
// whole just for this took 300 MB). Empty when the text is JSON without a
// top-level string "format" (or that ends before one); false, with a syntax
// error reported as parseJsonText() does, when the text is not JSON up to it.
bool readFormatId(const std::string &text, std::string &format, Diagnostics &diagnostics);

// The position of the first byte that is not UTF-8, if any.
std::optional<std::size_t> invalidUtf8At(const std::string &text);
// printableText() is in diagnostics.h.

// Reads a whole file; a leading UTF-8 byte-order mark is dropped; a folder,
// a missing file or one over kMaxModelFileBytes is reported,
// naming the file, and returns false.
bool readTextFile(const std::string &path, std::string &text, Diagnostics &diagnostics);

} // namespace roofline
