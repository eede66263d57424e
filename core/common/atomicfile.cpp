#include "atomicfile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>

namespace roofline {

AtomicFile::AtomicFile(std::string path)
    : m_path(std::move(path))
{
    static std::atomic<unsigned> counter{0};
    m_temporary = m_path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    // Keep the permissions of a file being replaced (umask applies to a new one).
    mode_t mode = 0666;
    struct stat existing;
    if (::stat(m_path.c_str(), &existing) == 0) {
        if (S_ISDIR(existing.st_mode)) {
            m_reason = "is a folder, not a file";
            m_error = m_path + ": " + m_reason;
            return;
        }
        mode = existing.st_mode & 07777;
    }
#ifdef O_TMPFILE
    // An unnamed file in the destination's folder (Linux): a process killed
    // while writing leaves nothing behind. It gets its temporary name only in
    // commit(), just before the rename. Needs /proc to give it that name.
    if (::access("/proc/self/fd", X_OK) == 0) {
        const std::size_t slash = m_path.rfind('/');
        const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : m_path.substr(0, slash);
        m_fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
        if (m_fd >= 0) {
            m_unnamed = true;
            return;
        }
    }
#endif
    m_fd = ::open(m_temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (m_fd < 0)
        fail("cannot write the file", errno);
}

AtomicFile::~AtomicFile()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        if (!m_unnamed)
            ::unlink(m_temporary.c_str());
    } else if (m_prepared) {
        ::unlink(m_temporary.c_str());
    }
}

void AtomicFile::fail(const char *what, int errorNumber)
{
    if (m_error.empty()) {
        m_reason = std::string(what) + ": " + std::strerror(errorNumber);
        m_error = m_path + ": " + m_reason;
    }
}

bool AtomicFile::write(const char *data, std::size_t size)
{
    while (m_fd >= 0 && size > 0) {
        const ssize_t n = ::write(m_fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fail("cannot write the file", n < 0 ? errno : ENOSPC);
            ::close(m_fd);
            if (!m_unnamed)
                ::unlink(m_temporary.c_str());
            m_fd = -1;
            return false;
        }
        data += n;
        size -= std::size_t(n);
    }
    return m_fd >= 0;
}

bool AtomicFile::prepare()
{
    if (m_fd < 0) {
        if (m_error.empty()) {
            m_reason = "cannot write the file";
            m_error = m_path + ": " + m_reason;
        }
        return false;
    }
    const bool synced = ::fsync(m_fd) == 0;
    const int syncError = errno;
    bool named = !m_unnamed;
    int linkError = 0;
    if (synced && m_unnamed) {
        const std::string self = "/proc/self/fd/" + std::to_string(m_fd);
        named = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, m_temporary.c_str(), AT_SYMLINK_FOLLOW) == 0;
        linkError = errno;
    }
    const bool closed = ::close(m_fd) == 0;
    const int closeError = errno;
    m_fd = -1;
    if (!synced || !named || !closed) {
        fail("cannot write the file", !synced ? syncError : !named ? linkError : closeError);
        if (named)
            ::unlink(m_temporary.c_str());
        return false;
    }
    m_prepared = true;
    return true;
}

bool AtomicFile::publish()
{
    if (!m_prepared) {
        if (m_error.empty()) {
            m_reason = "cannot write the file";
            m_error = m_path + ": " + m_reason;
        }
        return false;
    }
    m_prepared = false;
    if (::rename(m_temporary.c_str(), m_path.c_str()) != 0) {
        fail("cannot replace the file", errno);
        ::unlink(m_temporary.c_str());
        return false;
    }
    return true;
}

std::string writeFileAtomically(const std::string &path, std::string_view bytes)
{
    AtomicFile file(path);
    if (file.write(bytes))
        file.commit();
    return file.error();
}

std::string writeFilesAtomically(const std::vector<std::pair<std::string, std::string>> &files)
{
    std::vector<std::unique_ptr<AtomicFile>> staged;
    staged.reserve(files.size());
    for (const auto &[path, bytes] : files) {
        auto file = std::make_unique<AtomicFile>(path);
        if (!file->write(bytes) || !file->prepare())
            return file->error(); // the staged ones are removed as `staged` goes
        staged.push_back(std::move(file));
    }
    // Renames only from here on: none of them writes data, so the set is
    // replaced as a whole unless the folder itself changes under us.
    for (auto &file : staged)
        if (!file->publish())
            return file->error();
    return {};
}

} // namespace roofline
