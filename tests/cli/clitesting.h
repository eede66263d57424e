// Running roofline-cli from a CLI test: exit code, standard output and error.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

struct Run
{
    int exitCode = -1; // -1: did not finish within a minute
    QByteArray out;
    QByteArray err;
};

inline Run cli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(ROOFLINE_CLI), args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}
