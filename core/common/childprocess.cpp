#include "childprocess.h"

#include <csignal>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace roofline {

namespace {

// In the child: run the work, write its reply whole, and leave without
// running the parent's atexit handlers or destructors (_exit).
[[noreturn]] void runChild(const std::function<std::string()> &work, int fd)
{
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        ::signal(sig, SIG_DFL);
    const std::string reply = work();
    for (std::size_t done = 0; done < reply.size();) {
        const ssize_t n = ::write(fd, reply.data() + done, reply.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            ::_exit(3);
        done += std::size_t(n);
    }
    ::_exit(0);
}

} // namespace

ChildOutcome runInChild(const std::function<std::string()> &work, int silenceMs, int attempts)
{
    ChildOutcome out;
    for (int attempt = 0; attempt < attempts; ++attempt) {
        int fds[2];
        if (::pipe(fds) != 0)
            return out; // NoFork, or Silent after an attempt that hung
        const pid_t pid = ::fork();
        if (pid < 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            return out;
        }
        if (pid == 0) {
            ::close(fds[0]);
            runChild(work, fds[1]);
        }
        ::close(fds[1]);
        ++out.attempts;
        std::string reply;
        char buffer[1 << 16];
        bool silent = false;
        for (;;) {
            pollfd ready{fds[0], POLLIN, 0};
            const int polled = ::poll(&ready, 1, silenceMs);
            if (polled < 0 && errno == EINTR)
                continue;
            if (polled == 0) {
                silent = true;
                break;
            }
            const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            reply.append(buffer, std::size_t(n));
        }
        ::close(fds[0]);
        if (silent)
            ::kill(pid, SIGKILL);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (silent) {
            out.end = ChildOutcome::End::Silent;
            continue; // stuck, not failed: once more
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            out.end = ChildOutcome::End::Replied;
            out.reply = std::move(reply);
        } else {
            out.end = ChildOutcome::End::Failed;
            out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            out.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        }
        return out;
    }
    return out;
}

} // namespace roofline
