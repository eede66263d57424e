// Running a piece of work that may crash or hang in a forked child process,
// so that the process (the studio, with the user's work) survives it.
//
// Used for ONNX shape inference: libonnx dereferences null on some models
// that pass its own checker (issue 14), and a forked child can deadlock on a
// lock another thread held at the fork (an allocator's under
// AddressSanitizer). The child sends back what `work` returns; the parent
// waits while bytes keep coming, kills a child that stays silent for
// `silenceMs`, and forks once more before giving up.
#pragma once

#include <functional>
#include <string>

namespace roofline {

struct ChildOutcome {
    enum class End {
        Replied, // exited normally after sending `reply` (possibly empty)
        Failed, // ended by a signal (`signal`) or with a non-zero exit status (`exitStatus`)
        Silent, // every attempt went `silenceMs` without a byte, and was killed
        NoFork, // pipe() or fork() failed: nothing ran; the caller may run the work itself
    };
    End end = End::NoFork;
    std::string reply;
    int signal = 0;
    int exitStatus = 0;
    int attempts = 0; // children forked
};

// Runs `work` in a forked child (each attempt a fresh fork of this process)
// and returns how it ended. In the child, the crash signals are reset to
// their default action first, so a crash there ends only the child, without
// a sanitizer's or fuzzer's report. A child silent for `silenceMs` is killed
// and forked again, at most `attempts` times in all; a child that replied or
// failed is not run again.
ChildOutcome runInChild(const std::function<std::string()> &work, int silenceMs, int attempts = 2);

} // namespace roofline
