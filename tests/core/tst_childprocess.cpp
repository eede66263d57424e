// runInChild(): work that may crash or hang runs in a forked child; the
// parent gets its reply, or how it ended, and is never left waiting on a
// silent child (common/childprocess.h; used by the ONNX importer).
#include "common/childprocess.h"

#include <QElapsedTimer>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using roofline::ChildOutcome;
using roofline::runInChild;

class TestChildProcess : public QObject
{
    Q_OBJECT
private slots:
    void replyComesBackWhole()
    {
        // Larger than a pipe's buffer: read while the child still writes.
        std::string big(3 << 20, 'x');
        big.front() = 'M';
        big.back() = '!';
        const ChildOutcome out = runInChild([&] { return big; }, 5000);
        QCOMPARE(out.end, ChildOutcome::End::Replied);
        QCOMPARE(out.attempts, 1);
        QVERIFY(out.reply == big);
        const ChildOutcome empty = runInChild([] { return std::string(); }, 5000);
        QCOMPARE(empty.end, ChildOutcome::End::Replied);
        QVERIFY(empty.reply.empty());
    }

    // The work ran in another process: what it changes stays there.
    void workRunsInAnotherProcess()
    {
        const pid_t parent = ::getpid();
        int touched = 0;
        const ChildOutcome out = runInChild([&] {
            touched = 1;
            return std::to_string(::getpid());
        }, 5000);
        QCOMPARE(out.end, ChildOutcome::End::Replied);
        QVERIFY(std::stol(out.reply) != long(parent));
        QCOMPARE(touched, 0);
    }

    // A crash ends the child only; it is reported with its signal, and not run again.
    void crashIsReportedNotRetried()
    {
        const ChildOutcome out = runInChild([]() -> std::string {
            std::raise(SIGSEGV);
            return "unreachable";
        }, 5000);
        QCOMPARE(out.end, ChildOutcome::End::Failed);
        QCOMPARE(out.signal, SIGSEGV);
        QCOMPARE(out.attempts, 1);
        const ChildOutcome exited = runInChild([]() -> std::string { ::_exit(7); }, 5000);
        QCOMPARE(exited.end, ChildOutcome::End::Failed);
        QCOMPARE(exited.signal, 0);
        QCOMPARE(exited.exitStatus, 7);
    }

    // A child that stops sending (here: sleeps; in the field, a lock held at
    // the fork) is killed after the silence and forked again; the second
    // silence ends it, and no child is left behind.
    void silentChildIsKilledAndRetriedOnce()
    {
        QElapsedTimer clock;
        clock.start();
        const ChildOutcome out = runInChild([]() -> std::string {
            for (;;)
                ::pause();
        }, 300);
        const qint64 ms = clock.elapsed();
        QCOMPARE(out.end, ChildOutcome::End::Silent);
        QCOMPARE(out.attempts, 2);
        QVERIFY2(ms >= 600 && ms < 10000, qPrintable(QString::number(ms)));
        QCOMPARE(::waitpid(-1, nullptr, WNOHANG), -1); // no child left (ECHILD)
        // A single attempt allowed: one silence.
        const ChildOutcome once = runInChild([]() -> std::string {
            for (;;)
                ::pause();
        }, 200, 1);
        QCOMPARE(once.end, ChildOutcome::End::Silent);
        QCOMPARE(once.attempts, 1);
    }
};

QTEST_GUILESS_MAIN(TestChildProcess)
#include "tst_childprocess.moc"
