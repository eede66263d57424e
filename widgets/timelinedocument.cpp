#include "timelinedocument.h"

#include "modelview.h"
#include "verrocchio/io.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::verrocchio;

namespace {
bool isRate(double v)
{
    return std::isfinite(v) && v > 0 && v <= Limits::maxRate;
}

template<typename Loaded> void collectWarnings(const Loaded &loaded, QStringList *warnings)
{
    if (!warnings)
        return;
    for (const Diagnostic &d : loaded.diagnostics.warnings())
        warnings->append(QString::fromStdString(d.toString()));
}
} // namespace

TimelineDocument::TimelineDocument(QObject *parent)
    : QObject(parent)
    , m_machine(ascend310())
{
}

void TimelineDocument::setTrace(const Trace &trace, const QString &path)
{
    m_trace = trace;
    m_tracePath = path;
    emit filePathChanged();
    emit structureChanged();
}

void TimelineDocument::setMachine(const Machine &machine, const QString &path)
{
    m_machine = machine;
    m_machinePath = path;
    emit filePathChanged();
    emit structureChanged();
    setModified(false);
}

bool TimelineDocument::load(const QString &path, QString *error, QStringList *warnings)
{
    // Read through Qt so resource paths (":/examples/...") work too.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open the file for reading: %2").arg(path, file.errorString());
        return false;
    }
    const std::string text = file.readAll().toStdString();
    const std::string label = path.toStdString();
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] != '{') {
        const TraceLoadResult loaded = parseTraceText(text, label);
        if (!loaded.trace) {
            if (error)
                *error = QString::fromStdString(loaded.diagnostics.toString()).trimmed();
            return false;
        }
        collectWarnings(loaded, warnings);
        setTrace(*loaded.trace, path);
        return true;
    }
    QString formatError;
    const QString format = readFormatId(path, &formatError);
    if (format == QLatin1String(kMachineFormatId)) {
        const MachineLoadResult loaded = parseMachine(text, label);
        if (!loaded.machine) {
            if (error)
                *error = QString::fromStdString(loaded.diagnostics.toString()).trimmed();
            return false;
        }
        collectWarnings(loaded, warnings);
        setMachine(*loaded.machine, path);
        return true;
    }
    // Anything else is read as a trace, whose parser names a wrong "format".
    const TraceLoadResult loaded = parseTrace(text, label);
    if (!loaded.trace) {
        if (error)
            *error = QString::fromStdString(loaded.diagnostics.toString()).trimmed();
        return false;
    }
    collectWarnings(loaded, warnings);
    setTrace(*loaded.trace, path);
    return true;
}

bool TimelineDocument::saveMachine(const QString &path, QString *error)
{
    QSaveFile file(path); // atomic: a failed write never leaves half a file
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open for writing: %2").arg(path, file.errorString());
        return false;
    }
    const std::string text = serialize(m_machine);
    file.write(text.data(), qint64(text.size()));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: could not be written: %2").arg(path, file.errorString());
        return false;
    }
    m_machinePath = path;
    emit filePathChanged();
    setModified(false);
    return true;
}

void TimelineDocument::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void TimelineDocument::touchValues()
{
    setModified(true);
    emit valuesChanged();
}

void TimelineDocument::setThroughput(Pipe pipe, double rate)
{
    if (!isRate(rate) || rate == m_machine.pipe(pipe).throughput)
        return;
    m_machine.pipe(pipe).throughput = rate;
    touchValues();
}

void TimelineDocument::setInitNs(Pipe pipe, double ns)
{
    if (!std::isfinite(ns) || ns < 0 || ns > Limits::maxInitNs || ns == m_machine.pipe(pipe).initNs)
        return;
    m_machine.pipe(pipe).initNs = ns;
    touchValues();
}

void TimelineDocument::setBusBandwidth(double gbps)
{
    if (!isRate(gbps) || gbps == m_machine.busGBps)
        return;
    m_machine.busGBps = gbps;
    touchValues();
}

void TimelineDocument::setReadBandwidth(double gbps)
{
    if (!isRate(gbps) || gbps == m_machine.readGBps)
        return;
    m_machine.readGBps = gbps;
    touchValues();
}

void TimelineDocument::setWriteBandwidth(double gbps)
{
    if (!isRate(gbps) || gbps == m_machine.writeGBps)
        return;
    m_machine.writeGBps = gbps;
    touchValues();
}

void TimelineDocument::setBusMode(BusMode mode)
{
    if (mode == m_machine.busMode)
        return;
    m_machine.busMode = mode;
    touchValues();
}

void TimelineDocument::setCoreCount(int cores)
{
    if (cores < 1 || cores > Limits::maxCores || cores == m_machine.coreCount)
        return;
    m_machine.coreCount = cores;
    touchValues();
}

void TimelineDocument::setSkewNs(double ns)
{
    if (!std::isfinite(ns) || ns < 0 || ns > Limits::maxSkewNs || ns == m_machine.skewNs)
        return;
    m_machine.skewNs = ns;
    touchValues();
}

} // namespace studio
