// One atomic write path for every file the studio and roofline-cli write
// (issue 14): the bytes go to a temporary file beside the destination (an
// unnamed O_TMPFILE one where the system has it, so a killed process leaves
// nothing), are flushed to disk (fsync), and the temporary file is renamed
// over the destination. On any failure the temporary file is removed and the old file,
// if there was one, is left exactly as it was; the error names the path and
// the reason ("/x/out.json: cannot write the file: No space left on device").
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline {

class AtomicFile
{
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile(); // without commit(): the temporary file is removed
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;

    bool isOpen() const { return m_fd >= 0; }
    // Appends; false (and error()) on failure, after which nothing more is written.
    bool write(const char *data, std::size_t size);
    bool write(std::string_view bytes) { return write(bytes.data(), bytes.size()); }
    // Syncs, closes and renames over the destination; false with error() on failure.
    bool commit() { return prepare() && publish(); }
    // commit() in two steps, for a set of files (writeFilesAtomically):
    // prepare() syncs and closes the bytes under a temporary name beside the
    // destination, publish() renames that over the destination. A prepared
    // file that is never published is removed by the destructor.
    bool prepare();
    bool publish();
    // "PATH: why", empty while all is well.
    const std::string &error() const { return m_error; }
    // The reason alone ("cannot write the file: No space left on device").
    const std::string &reason() const { return m_reason; }
    const std::string &path() const { return m_path; }

private:
    void fail(const char *what, int errorNumber);

    std::string m_path;
    std::string m_temporary;
    int m_fd = -1;
    bool m_unnamed = false; // O_TMPFILE: named m_temporary only in prepare()
    bool m_prepared = false; // m_temporary holds the synced bytes, not yet renamed
    std::string m_error;
    std::string m_reason;
};

// Writes `bytes` to `path` through AtomicFile; returns "" or "PATH: why".
std::string writeFileAtomically(const std::string &path, std::string_view bytes);

// A set of files that belong together (the kernel lab's device, rules,
// predictors and measurements): every file is written and synced under its
// temporary name first, and only when all of them are on disk are they
// renamed over their destinations, in the given order (a file that names the
// others goes last). A write that fails anywhere (a full disk, a read-only
// folder) replaces none of them. Returns "" or the first "PATH: why".
// Unlike a single AtomicFile, a process killed between the last write and the
// renames leaves the synced temporaries ("NAME.tmp-PID-N") beside their
// destinations; the destinations themselves are still the previous set.
std::string writeFilesAtomically(const std::vector<std::pair<std::string, std::string>> &files);

} // namespace roofline
