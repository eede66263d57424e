// The Verrocchio model the timeline view shows: a trace and a machine, the
// files they came from, and whether the machine has unsaved edits. The
// machine panel edits through this object; the view listens to its signals.
#pragma once

#include "verrocchio/trace.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace studio {

class TimelineDocument : public QObject {
    Q_OBJECT
public:
    explicit TimelineDocument(QObject *parent = nullptr);

    const roofline::verrocchio::Trace &trace() const { return m_trace; }
    const roofline::verrocchio::Machine &machine() const { return m_machine; }
    QString tracePath() const { return m_tracePath; }
    QString machinePath() const { return m_machinePath; }
    bool isModified() const { return m_modified; }

    // Replace the trace or the machine (after loading a file): structureChanged.
    void setTrace(const roofline::verrocchio::Trace &trace, const QString &path);
    void setMachine(const roofline::verrocchio::Machine &machine, const QString &path);
    // Loads a trace (JSON or the text form) or a machine, by the file's
    // "format" or, for non-JSON files, as a text trace. On failure nothing
    // changes and `error` names the file, the field and the reason.
    bool load(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool saveMachine(const QString &path, QString *error);
    void setModified(bool modified);

    // Machine edits: valuesChanged. Out-of-range or non-finite values are ignored.
    void setThroughput(roofline::verrocchio::Pipe pipe, double rate);
    void setInitNs(roofline::verrocchio::Pipe pipe, double ns);
    void setBusBandwidth(double gbps);
    void setReadBandwidth(double gbps);
    void setWriteBandwidth(double gbps);
    void setBusMode(roofline::verrocchio::BusMode mode);
    void setCoreCount(int cores);
    void setSkewNs(double ns);

signals:
    void valuesChanged(); // machine numbers changed
    void structureChanged(); // a new trace or machine
    void modifiedChanged(bool modified);
    void filePathChanged();

private:
    void touchValues();

    roofline::verrocchio::Trace m_trace;
    roofline::verrocchio::Machine m_machine;
    QString m_tracePath;
    QString m_machinePath;
    bool m_modified = false;
};

} // namespace studio
