// A folder nothing may be written into, for the tests of saves and exports
// (issue 14: "full-disk and read-only tests for every save and export").
// While a ReadOnlyFolder lives, the folder is mode 0555. Root ignores that
// (CAP_DAC_OVERRIDE), and CI runs as root, so when the process is root the
// calling thread's file-system user id is also set to nobody's: changing it
// from 0 clears the file-access capabilities from the thread's effective set
// (capabilities(7), "Effect of user ID changes on capabilities"), so opening a
// file for writing in the folder fails with EACCES as it does for any user.
// The destructor gives both back. ok() is true only when a write into the
// folder was seen to fail; a test skips otherwise.
//
// A child process (the CLI, the headless studio) does not inherit the
// file-system user id (exec sets it to the effective one): pass
// ReadOnlyFolder::dropRootInChild as QProcess's child process modifier.
#pragma once

#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fcntl.h>
#include <string>

class ReadOnlyFolder
{
public:
    static constexpr uid_t kNobody = 65534;

    explicit ReadOnlyFolder(const std::string &folder)
        : m_folder(folder)
    {
        struct stat st{};
        if (::stat(folder.c_str(), &st) != 0)
            return;
        m_savedMode = st.st_mode & 07777;
        if (::chmod(folder.c_str(), 0555) != 0)
            return;
        m_chmodded = true;
        if (::geteuid() == 0) {
            ::setfsgid(kNobody);
            ::setfsuid(kNobody);
            m_fsuidChanged = static_cast<uid_t>(::setfsuid(static_cast<uid_t>(-1))) == kNobody;
        }
        // Seen to fail, or no test can rely on it.
        const std::string probe = folder + "/.read-only-probe";
        const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            ::close(fd);
            ::unlink(probe.c_str());
        } else {
            m_ok = errno == EACCES || errno == EPERM || errno == EROFS;
        }
    }
    ~ReadOnlyFolder()
    {
        if (m_fsuidChanged) {
            ::setfsuid(0);
            ::setfsgid(0);
        }
        if (m_chmodded)
            ::chmod(m_folder.c_str(), m_savedMode);
    }
    ReadOnlyFolder(const ReadOnlyFolder &) = delete;
    ReadOnlyFolder &operator=(const ReadOnlyFolder &) = delete;
    bool ok() const { return m_ok; }

    // For QProcess::setChildProcessModifier: a child of root runs as nobody
    // (it must be able to read its binary and inputs: world-readable here).
    static void dropRootInChild()
    {
        if (::geteuid() == 0) {
            if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)
                ::_exit(126);
        }
    }

    // Whether a child dropped to nobody can run `program` at all: not when the
    // tree sits under a folder only root may enter (a clone in `mktemp -d`,
    // mode 0700). A test skips its read-only rows then, rather than fail.
    static bool childCanRun(const std::string &program)
    {
        if (::geteuid() != 0)
            return true;
        const pid_t child = ::fork();
        if (child < 0)
            return false;
        if (child == 0) {
            if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0)
                ::_exit(2);
            ::_exit(::access(program.c_str(), X_OK) == 0 ? 0 : 1);
        }
        int status = 0;
        return ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }

private:
    std::string m_folder;
    mode_t m_savedMode = 0700;
    bool m_chmodded = false;
    bool m_fsuidChanged = false;
    bool m_ok = false;
};
