#include "timelinedocument.h"

#include "diagnosticstext.h"
#include "snapshotlist.h"

#include "common/allocator.h"
#include "common/jsondocument.h"
#include "modelview.h"
#include "verrocchio/io.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include "plotexport.h"
#include <QUndoStack>

#include <cmath>
#include <optional>

namespace studio {

using namespace roofline;
using namespace roofline::verrocchio;

namespace {
bool isRate(double v)
{
    return std::isfinite(v) && v > 0 && v <= Limits::maxRate;
}

// JSON when the text starts with "{", the compact text form otherwise.
bool looksLikeJson(const std::string &text)
{
    for (char c : text) {
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return c == '{';
    }
    return false;
}

TraceLoadResult parseTraceSource(const std::string &text, bool json, const std::string &label)
{
    return json ? parseTrace(text, label) : parseTraceText(text, label);
}

const Trace &emptyTrace()
{
    static const Trace empty;
    return empty;
}
} // namespace

QByteArray TraceSource::text() const
{
    return compressedText.isEmpty() ? QByteArray() : qUncompress(compressedText);
}

void TraceSource::setText(const char *data, qsizetype size)
{
    // Level 1: 35 MB of a 10⁶-instruction JSON trace in 0.08 s to 0.3 MB
    // (level 6: 0.3 s for 0.14 MB).
    compressedText = size > 0 ? qCompress(reinterpret_cast<const uchar *>(data), size, 1) : QByteArray();
}

TimelineDocument::TimelineDocument(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
    , m_history(m_undoStack, [this](const TimelineState &state, bool structural) { restore(state, structural); })
{
    m_state.machine = ascend310();
    m_state.trace = std::make_shared<const TraceSource>();
    m_history.reset(m_state);
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &TimelineDocument::updateModified);
}

void TimelineDocument::clearTrace()
{
    m_state.trace = std::make_shared<const TraceSource>();
    m_snapshots.clear();
    m_compared = -1;
    m_history.reset(m_state);
    setModified(false);
    emit snapshotsChanged();
    emit filePathChanged();
    emit structureChanged();
}

const Trace &TimelineDocument::trace() const
{
    return m_state.trace ? m_state.trace->trace : emptyTrace();
}

std::shared_ptr<const Trace> TimelineDocument::sharedTrace() const
{
    if (!m_state.trace)
        return std::make_shared<const Trace>();
    return std::shared_ptr<const Trace>(m_state.trace, &m_state.trace->trace); // aliasing: no copy
}

void TimelineDocument::replace(TimelineState state, const QString &text, bool keepClean)
{
    const bool wasClean = m_undoStack->isClean();
    const bool pathsChanged = state.machinePath != m_state.machinePath || state.trace != m_state.trace;
    m_state = std::move(state);
    m_history.record(m_state, QString(), true, text);
    if (keepClean && wasClean)
        m_undoStack->setClean(); // a new trace does not touch the saved machine
    if (pathsChanged)
        emit filePathChanged();
    emit structureChanged();
}

void TimelineDocument::setTrace(const Trace &trace, const QString &path)
{
    auto source = std::make_shared<TraceSource>();
    source->trace = trace;
    source->path = path;
    setTraceSource(std::move(source));
}

void TimelineDocument::setTraceSource(std::shared_ptr<const TraceSource> source)
{
    if (!source)
        return;
    TimelineState state = m_state;
    const QString name = QFileInfo(source->path).fileName();
    state.trace = std::move(source);
    replace(std::move(state), name.isEmpty() ? tr("Replace the trace") : tr("Open %1").arg(name), true);
}

void TimelineDocument::setMachine(const Machine &machine, const QString &path)
{
    TimelineState state = m_state;
    state.machine = machine;
    state.machinePath = path;
    replace(std::move(state), tr("Replace the machine"), false);
}

bool TimelineDocument::load(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    if (!readTextFile(path, &text, error))
        return false;
    const std::string label = path.toStdString();
    const bool json = looksLikeJson(text);
    if (json) {
        // Routed by the text in hand (reading the file again for it held a
        // second copy of the whole file).
        std::string format;
        Diagnostics ignored; // the trace's loader names any syntax error
        roofline::readFormatId(text, format, ignored);
        if (format == kMachineFormatId) {
            const MachineLoadResult loaded = parseMachine(text, label);
            if (!loaded.machine) {
                if (error)
                    *error = errorsOf(loaded.diagnostics);
                return false;
            }
            appendWarnings(loaded.diagnostics, warnings);
            TimelineState state = m_state;
            state.machine = *loaded.machine;
            state.machinePath = path;
            replace(std::move(state), tr("Open %1").arg(QFileInfo(path).fileName()), false);
            m_undoStack->setClean(); // the machine is the file's
            return true;
        }
    }
    // Anything else is read as a trace, whose parser names a wrong "format".
    // Not const: the trace is moved out of it below (from a const result,
    // std::move copied the whole trace).
    TraceLoadResult loaded = parseTraceSource(text, json, label);
    if (!loaded.trace) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    auto source = std::make_shared<TraceSource>();
    source->trace = std::move(*loaded.trace);
    loaded.trace.reset();
    source->path = path;
    source->setText(text.data(), static_cast<qsizetype>(text.size()));
    std::string().swap(text); // freed before the first simulation (assigning an empty string keeps the buffer)
    source->json = json;
    // The text and the parser's buffers are freed now; give their pages back
    // rather than keep a peak of loading resident (keepFreedMemory() keeps
    // freed memory for the simulation's updates, which this is not).
    releaseFreedMemory();
    setTraceSource(std::move(source));
    return true;
}

bool TimelineDocument::saveMachine(const QString &path, QString *error)
{
    // Atomic (plotexport.h): a failed write never leaves half a file.
    if (!saveFileAtomically(path, QByteArray::fromStdString(serialize(m_state.machine)), error))
        return false;
    if (m_state.machinePath != path) {
        m_state.machinePath = path;
        m_history.setCommitted(m_state);
        emit filePathChanged();
    }
    setModified(false);
    return true;
}

void TimelineDocument::setModified(bool modified)
{
    if (!modified)
        m_undoStack->setClean();
    else if (m_undoStack->isClean())
        m_undoStack->resetClean(); // no undo step leads back to the saved state
    updateModified();
}

void TimelineDocument::updateModified()
{
    const bool modified = !m_undoStack->isClean();
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void TimelineDocument::restore(const TimelineState &target, bool structural)
{
    TimelineState state = target;
    if (!structural)
        state.machinePath = m_state.machinePath; // undoing an edit after Save As keeps the new file
    const bool pathsChanged = state.machinePath != m_state.machinePath || state.trace != m_state.trace;
    const bool traceChanged = state.trace != m_state.trace;
    m_state = state;
    m_history.setCommitted(state);
    if (pathsChanged)
        emit filePathChanged();
    emit restored();
    if (structural || traceChanged)
        emit structureChanged();
    else
        emit valuesChanged();
}

void TimelineDocument::beginDrag()
{
    m_history.beginDrag();
}

void TimelineDocument::endDrag()
{
    m_history.endDrag();
    emit dragFinished();
}

void TimelineDocument::touchValues(const QString &key, const QString &text)
{
    m_history.record(m_state, key, false, text);
    emit valuesChanged();
}

void TimelineDocument::touchValue(const QString &key, const QString &label, double from, double to, const QString &unit)
{
    m_history.recordValue(m_state, key, label, from, to, unit);
    emit valuesChanged();
}

void TimelineDocument::setThroughput(Pipe pipe, double rate)
{
    if (!isRate(rate) || rate == m_state.machine.pipe(pipe).throughput)
        return;
    const double from = m_state.machine.pipe(pipe).throughput;
    m_state.machine.pipe(pipe).throughput = rate;
    const QString name = QString::fromLatin1(pipeName(pipe));
    const bool mte = pipe == Pipe::MTE1 || pipe == Pipe::MTE2 || pipe == Pipe::MTE3;
    touchValue(QStringLiteral("th/") + name, tr("%1 Th").arg(name), from, rate,
               mte ? QStringLiteral("GB/s") : QStringLiteral("Gops/s"));
}

void TimelineDocument::setInitNs(Pipe pipe, double ns)
{
    if (!std::isfinite(ns) || ns < 0 || ns > Limits::maxInitNs || ns == m_state.machine.pipe(pipe).initNs)
        return;
    const double from = m_state.machine.pipe(pipe).initNs;
    m_state.machine.pipe(pipe).initNs = ns;
    const QString name = QString::fromLatin1(pipeName(pipe));
    touchValue(QStringLiteral("init/") + name, tr("%1 Init").arg(name), from, ns, QStringLiteral("ns"));
}

void TimelineDocument::setBusBandwidth(double gbps)
{
    if (!isRate(gbps) || gbps == m_state.machine.busGBps)
        return;
    const double from = m_state.machine.busGBps;
    m_state.machine.busGBps = gbps;
    touchValue(QStringLiteral("bus"), tr("Bus bandwidth"), from, gbps, QStringLiteral("GB/s"));
}

void TimelineDocument::setReadBandwidth(double gbps)
{
    if (!isRate(gbps) || gbps == m_state.machine.readGBps)
        return;
    const double from = m_state.machine.readGBps;
    m_state.machine.readGBps = gbps;
    touchValue(QStringLiteral("read"), tr("Read bandwidth"), from, gbps, QStringLiteral("GB/s"));
}

void TimelineDocument::setWriteBandwidth(double gbps)
{
    if (!isRate(gbps) || gbps == m_state.machine.writeGBps)
        return;
    const double from = m_state.machine.writeGBps;
    m_state.machine.writeGBps = gbps;
    touchValue(QStringLiteral("write"), tr("Write bandwidth"), from, gbps, QStringLiteral("GB/s"));
}

void TimelineDocument::setBusMode(BusMode mode)
{
    if (mode == m_state.machine.busMode)
        return;
    m_state.machine.busMode = mode;
    touchValues(QString(), tr("Set the bus mode"));
}

void TimelineDocument::setCoreCount(int cores)
{
    if (cores < 1 || cores > Limits::maxCores || cores == m_state.machine.coreCount)
        return;
    const int from = m_state.machine.coreCount;
    m_state.machine.coreCount = cores;
    touchValue(QStringLiteral("cores"), tr("Cores"), from, cores, QString());
}

void TimelineDocument::setSkewNs(double ns)
{
    if (!std::isfinite(ns) || ns < 0 || ns > Limits::maxSkewNs || ns == m_state.machine.skewNs)
        return;
    const double from = m_state.machine.skewNs;
    m_state.machine.skewNs = ns;
    touchValue(QStringLiteral("skew"), tr("Skew δt"), from, ns, QStringLiteral("ns"));
}

// --- Snapshots ----------------------------------------------------------------

int TimelineDocument::pinSnapshot(const QString &name)
{
    const int index = snapshots::pin(m_snapshots, { snapshots::newName(name, m_snapshots.size()), m_state, m_nextSnapshotId++ },
        m_compared);
    emit snapshotsChanged();
    return index;
}

void TimelineDocument::renameSnapshot(int index, const QString &name)
{
    if (!snapshots::rename(m_snapshots, index, name))
        return;
    emit snapshotsChanged();
}

void TimelineDocument::removeSnapshot(int index)
{
    if (!snapshots::remove(m_snapshots, index, m_compared))
        return;
    emit snapshotsChanged();
}

void TimelineDocument::restoreSnapshot(int index)
{
    if (index < 0 || std::size_t(index) >= m_snapshots.size())
        return;
    const Snapshot &snapshot = m_snapshots[std::size_t(index)];
    replace(snapshot.state, tr("Restore snapshot %1").arg(snapshot.name), false);
}

const TimelineDocument::Snapshot *TimelineDocument::compared() const
{
    return m_compared >= 0 && std::size_t(m_compared) < m_snapshots.size() ? &m_snapshots[std::size_t(m_compared)]
                                                                            : nullptr;
}

void TimelineDocument::setComparedSnapshot(int index)
{
    if (index >= int(m_snapshots.size()) || index < -1 || index == m_compared)
        return;
    m_compared = index;
    emit snapshotsChanged();
}

// --- Sessions -----------------------------------------------------------------
//
// "traces": every distinct trace once, its file's text verbatim; the current
// state and each snapshot name theirs by index.

namespace {

QJsonObject machineToQt(const Machine &machine)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(serialize(machine))).object();
}

class SessionReader {
public:
    SessionReader(QString label, QString *error)
        : m_label(std::move(label))
        , m_error(error)
    {
    }

    bool fail(const QString &pointer, const QString &reason)
    {
        if (m_error)
            *m_error = QStringLiteral("%1: /views/timeline%2: %3").arg(m_label, pointer, reason);
        return false;
    }

    std::optional<Machine> machine(const QJsonValue &value, const QString &pointer)
    {
        if (!value.isObject()) {
            fail(pointer, QStringLiteral("expected an object (a machine file)"));
            return std::nullopt;
        }
        const std::string where = QStringLiteral("%1 (/views/timeline%2)").arg(m_label, pointer).toStdString();
        const MachineLoadResult loaded = parseMachine(QJsonDocument(value.toObject()).toJson().toStdString(), where);
        if (!loaded.machine && m_error)
            *m_error = errorsOf(loaded.diagnostics);
        return loaded.machine;
    }

    std::shared_ptr<const TraceSource> trace(const QJsonValue &value, const QString &pointer)
    {
        if (!value.isObject()) {
            fail(pointer, QStringLiteral("expected an object with \"file\", \"form\" and \"text\""));
            return nullptr;
        }
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() != QLatin1String("file") && it.key() != QLatin1String("form")
                && it.key() != QLatin1String("text")) {
                fail(pointer + QLatin1Char('/') + it.key(), QStringLiteral("unknown key"));
                return nullptr;
            }
        }
        if (!o.value(QStringLiteral("file")).isString()) {
            fail(pointer + QStringLiteral("/file"), QStringLiteral("expected a string (the trace file's path)"));
            return nullptr;
        }
        const QString form = o.value(QStringLiteral("form")).toString();
        if (form == QLatin1String("generated")) {
            fail(pointer + QStringLiteral("/form"),
                QStringLiteral("the trace was generated, not read from a file, so the session holds no text to restore"));
            return nullptr;
        }
        if (form != QLatin1String("json") && form != QLatin1String("text")) {
            fail(pointer + QStringLiteral("/form"), QStringLiteral("expected \"json\" or \"text\""));
            return nullptr;
        }
        if (!o.value(QStringLiteral("text")).isString()) {
            fail(pointer + QStringLiteral("/text"), QStringLiteral("expected a string (the trace file's text)"));
            return nullptr;
        }
        auto source = std::make_shared<TraceSource>();
        source->path = o.value(QStringLiteral("file")).toString();
        const std::string text = o.value(QStringLiteral("text")).toString().toStdString();
        source->setText(text.data(), static_cast<qsizetype>(text.size()));
        source->json = form == QLatin1String("json");
        const std::string where
            = QStringLiteral("%1 (/views/timeline%2/text)").arg(m_label, pointer).toStdString();
        TraceLoadResult loaded = parseTraceSource(text, source->json, where);
        if (!loaded.trace) {
            if (m_error)
                *m_error = errorsOf(loaded.diagnostics);
            return nullptr;
        }
        source->trace = std::move(*loaded.trace);
        return source;
    }

    // An index into `count` items at `pointer`.
    std::optional<int> index(const QJsonValue &value, const QString &pointer, int count, bool allowNone)
    {
        const double v = value.toDouble(std::nan(""));
        if (!value.isDouble() || v != std::floor(v) || v < (allowNone ? -1 : 0) || v >= count) {
            fail(pointer, allowNone ? QStringLiteral("expected -1 or an index below %1").arg(count)
                                    : QStringLiteral("expected an index below %1").arg(count));
            return std::nullopt;
        }
        return int(v);
    }

private:
    QString m_label;
    QString *m_error;
};

} // namespace

QJsonObject TimelineDocument::sessionState() const
{
    std::vector<std::shared_ptr<const TraceSource>> traces;
    auto traceIndex = [&](const std::shared_ptr<const TraceSource> &source) {
        for (std::size_t i = 0; i < traces.size(); ++i) {
            if (traces[i] == source
                || (traces[i]->compressedText == source->compressedText && traces[i]->path == source->path
                    && traces[i]->json == source->json))
                return int(i);
        }
        traces.push_back(source);
        return int(traces.size()) - 1;
    };
    QJsonObject state;
    state[QStringLiteral("trace")] = traceIndex(m_state.trace);
    state[QStringLiteral("machine")] = machineToQt(m_state.machine);
    state[QStringLiteral("machine_file")] = m_state.machinePath;
    QJsonArray snapshots;
    for (const Snapshot &s : m_snapshots) {
        snapshots.append(QJsonObject { { QStringLiteral("name"), s.name },
            { QStringLiteral("trace"), traceIndex(s.state.trace) },
            { QStringLiteral("machine"), machineToQt(s.state.machine) },
            { QStringLiteral("machine_file"), s.state.machinePath } });
    }
    QJsonArray list;
    for (const auto &source : traces) {
        QJsonObject t;
        t[QStringLiteral("file")] = source->path;
        // A generated trace has no text; it is written as such and refused when read back.
        t[QStringLiteral("form")] = !source->hasText() ? QStringLiteral("generated")
                                    : source->json        ? QStringLiteral("json")
                                                          : QStringLiteral("text");
        t[QStringLiteral("text")] = QString::fromUtf8(source->text());
        list.append(t);
    }
    state[QStringLiteral("traces")] = list;
    state[QStringLiteral("snapshots")] = snapshots;
    state[QStringLiteral("compared")] = m_compared;
    state[QStringLiteral("modified")] = m_modified;
    return state;
}

bool TimelineDocument::restoreSession(const QJsonObject &state, const QString &label, QString *error)
{
    SessionReader read(label, error);
    // Every trace, machine and snapshot is parsed before anything changes.
    if (!state.value(QStringLiteral("traces")).isArray())
        return read.fail(QStringLiteral("/traces"), QStringLiteral("required array is missing"));
    const QJsonArray traceList = state.value(QStringLiteral("traces")).toArray();
    std::vector<std::shared_ptr<const TraceSource>> traces;
    for (qsizetype i = 0; i < traceList.size(); ++i) {
        auto source = read.trace(traceList[i], QStringLiteral("/traces/%1").arg(i));
        if (!source)
            return false;
        traces.push_back(std::move(source));
    }
    if (traces.empty())
        return read.fail(QStringLiteral("/traces"), QStringLiteral("at least one trace is needed"));
    const auto current = read.index(state.value(QStringLiteral("trace")), QStringLiteral("/trace"), int(traces.size()), false);
    if (!current)
        return false;
    const auto machine = read.machine(state.value(QStringLiteral("machine")), QStringLiteral("/machine"));
    if (!machine)
        return false;
    const QJsonValue machineFile = state.value(QStringLiteral("machine_file"));
    if (!machineFile.isUndefined() && !machineFile.isString())
        return read.fail(QStringLiteral("/machine_file"), QStringLiteral("expected a string"));

    std::vector<Snapshot> snapshots;
    const QJsonValue snapshotValue = state.value(QStringLiteral("snapshots"));
    if (!snapshotValue.isUndefined() && !snapshotValue.isArray())
        return read.fail(QStringLiteral("/snapshots"), QStringLiteral("expected an array"));
    const QJsonArray snapshotList = snapshotValue.toArray();
    for (qsizetype i = 0; i < snapshotList.size(); ++i) {
        const QString at = QStringLiteral("/snapshots/%1").arg(i);
        if (!snapshotList[i].isObject())
            return read.fail(at, QStringLiteral("expected an object"));
        const QJsonObject entry = snapshotList[i].toObject();
        const QString name = entry.value(QStringLiteral("name")).toString().trimmed();
        if (name.isEmpty())
            return read.fail(at + QStringLiteral("/name"), QStringLiteral("expected a non-empty string"));
        const auto trace = read.index(entry.value(QStringLiteral("trace")), at + QStringLiteral("/trace"), int(traces.size()), false);
        if (!trace)
            return false;
        const auto pinned = read.machine(entry.value(QStringLiteral("machine")), at + QStringLiteral("/machine"));
        if (!pinned)
            return false;
        const QJsonValue file = entry.value(QStringLiteral("machine_file"));
        if (!file.isUndefined() && !file.isString())
            return read.fail(at + QStringLiteral("/machine_file"), QStringLiteral("expected a string"));
        snapshots.push_back({ name, TimelineState { traces[std::size_t(*trace)], *pinned, file.toString() }, 0 });
    }
    const QJsonValue comparedValue = state.value(QStringLiteral("compared"));
    int compared = -1;
    if (!comparedValue.isUndefined()) {
        const auto index = read.index(comparedValue, QStringLiteral("/compared"), int(snapshots.size()), true);
        if (!index)
            return false;
        compared = *index;
    }
    const QJsonValue modified = state.value(QStringLiteral("modified"));
    if (!modified.isUndefined() && !modified.isBool())
        return read.fail(QStringLiteral("/modified"), QStringLiteral("expected true or false"));

    // Everything parsed: now change the document.
    m_state = TimelineState { traces[std::size_t(*current)], *machine, machineFile.toString() };
    for (Snapshot &s : snapshots)
        s.id = m_nextSnapshotId++;
    m_snapshots = std::move(snapshots);
    m_compared = compared;
    m_history.reset(m_state);
    setModified(modified.toBool(false));
    emit filePathChanged();
    emit snapshotsChanged();
    emit restored();
    emit structureChanged();
    return true;
}

} // namespace studio
