// The Verrocchio model the timeline view shows: a trace and a machine, the
// files they came from, snapshots of both, and an undo history. The machine
// panel edits through this object; the view listens to its signals.
//
// Every change (a slider, a spin box, the bus mode, opening a trace or a
// machine, restoring a snapshot) is an undoable step over the whole state
// (StateHistory<TimelineState>); the trace is shared and immutable, so a step
// copies a pointer and a Machine, never the trace. Steps of one parameter
// between beginDrag() and endDrag() (one slider drag) merge into one.
// isModified() follows the undo stack's clean state.
#pragma once

#include "statehistory.h"
#include "verrocchio/trace.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QUndoStack;

namespace studio {

// A trace and the text it was read from: sessions embed the text verbatim
// (there is no trace writer). Immutable once shared.
struct TraceSource {
    roofline::verrocchio::Trace trace;
    QString path;
    // The file's text, kept for sessions (which embed it) and nothing else, so
    // it is held zlib-compressed (qCompress, level 1): a 10⁶-instruction trace's
    // 35 MB of JSON keep as 0.3 MB, for 0.08 s when it is read. Empty when the
    // trace was not read from a file (generated).
    QByteArray compressedText;
    bool json = true; // the JSON form, or the compact text form

    bool hasText() const { return !compressedText.isEmpty(); }
    QByteArray text() const; // the text as read
    void setText(const char *data, qsizetype size);
};

struct TimelineState {
    std::shared_ptr<const TraceSource> trace;
    roofline::verrocchio::Machine machine;
    QString machinePath;
};

class TimelineDocument : public QObject {
    Q_OBJECT
public:
    explicit TimelineDocument(QObject *parent = nullptr);

    const roofline::verrocchio::Trace &trace() const;
    // The same trace, shared: workers hold it without copying.
    std::shared_ptr<const roofline::verrocchio::Trace> sharedTrace() const;
    const std::shared_ptr<const TraceSource> &traceSource() const { return m_state.trace; }
    const roofline::verrocchio::Machine &machine() const { return m_state.machine; }
    const TimelineState &state() const { return m_state; }
    QString tracePath() const { return m_state.trace ? m_state.trace->path : QString(); }
    QString machinePath() const { return m_state.machinePath; }
    bool isModified() const { return m_modified; }

    // Replace the trace or the machine: one undoable step each, structureChanged.
    void setTrace(const roofline::verrocchio::Trace &trace, const QString &path);
    void setTraceSource(std::shared_ptr<const TraceSource> source);
    void setMachine(const roofline::verrocchio::Machine &machine, const QString &path);
    // Loads a trace (JSON or the text form) or a machine, by the file's
    // "format" or, for non-JSON files, as a text trace. On failure nothing
    // changes and `error` names the file, the field and the reason. A loaded
    // machine is saved (clean); a trace keeps the machine's saved state.
    bool load(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool saveMachine(const QString &path, QString *error);
    // No trace, no snapshots, no history (the view shows its empty state); the
    // machine stays. After a file named on the command line failed to open.
    void clearTrace();
    bool hasTrace() const { return !trace().cores.empty(); }
    // false marks the current state as saved; true marks it unsaved.
    void setModified(bool modified);

    QUndoStack *undoStack() const { return m_undoStack; }
    void beginDrag();
    void endDrag();

    // Machine edits: valuesChanged. Out-of-range or non-finite values are ignored.
    void setThroughput(roofline::verrocchio::Pipe pipe, double rate);
    void setInitNs(roofline::verrocchio::Pipe pipe, double ns);
    void setBusBandwidth(double gbps);
    void setReadBandwidth(double gbps);
    void setWriteBandwidth(double gbps);
    void setBusMode(roofline::verrocchio::BusMode mode);
    void setCoreCount(int cores);
    void setSkewNs(double ns);

    // Snapshots: named copies of the trace and machine to compare against and
    // return to. `id` is unique for the document's life (results are cached by it).
    struct Snapshot {
        QString name;
        TimelineState state;
        quint64 id = 0;
    };
    const std::vector<Snapshot> &snapshots() const { return m_snapshots; }
    int pinSnapshot(const QString &name = QString()); // the current state; returns its index
    void renameSnapshot(int index, const QString &name);
    void removeSnapshot(int index);
    void restoreSnapshot(int index); // an undoable step
    // The snapshot drawn as a ghost and compared against; -1 for none.
    int comparedSnapshot() const { return m_compared; }
    const Snapshot *compared() const;
    void setComparedSnapshot(int index);

    // The whole document as JSON for a session file (the trace files' text
    // embedded), and back. restoreSession checks everything first (messages
    // name `label`, the JSON pointer and the reason) and changes nothing on
    // failure; it starts a new undo history.
    QJsonObject sessionState() const;
    bool restoreSession(const QJsonObject &state, const QString &label, QString *error);

signals:
    void valuesChanged(); // machine numbers changed
    void structureChanged(); // a new trace or machine
    void restored(); // undo, redo or a session showed another state: controls must follow
    void snapshotsChanged(); // pinned, renamed, removed, or another one compared
    void modifiedChanged(bool modified);
    void filePathChanged();
    void dragFinished(); // a slider's thumb was released (endDrag())

private:
    void touchValues(const QString &key, const QString &text);
    // One number changed: the step names it with its values ("MTE2 Th 30 → 42 GB/s").
    void touchValue(const QString &key, const QString &label, double from, double to, const QString &unit);
    void replace(TimelineState state, const QString &text, bool keepClean);
    void restore(const TimelineState &state, bool structural);
    void updateModified();

    TimelineState m_state;
    QUndoStack *m_undoStack = nullptr;
    StateHistory<TimelineState> m_history;
    std::vector<Snapshot> m_snapshots;
    int m_compared = -1;
    quint64 m_nextSnapshotId = 1;
    bool m_modified = false;
};

} // namespace studio
