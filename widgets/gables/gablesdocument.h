// The Gables model the user is editing: a Soc plus the per-IP fraction locks,
// the file it came from and whether it has unsaved changes. Every view and
// panel edits through this object and listens to its signals.
#pragma once

#include "gables/io.h"
#include "gables/model.h"
#include "statehistory.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <vector>


namespace studio {

class GablesDocument : public QObject
{
    Q_OBJECT
public:
    explicit GablesDocument(QObject *parent = nullptr);

    const roofline::gables::Soc &soc() const { return m_soc; }
    const std::vector<bool> &locks() const { return m_locked; }
    bool isLocked(int ip) const;
    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }

    // Replaces the whole model, as one undoable step; emits structureChanged.
    void setSoc(const roofline::gables::Soc &soc, const QString &filePath);
    // Every edit is an undoable step; edits of one parameter between
    // beginDrag() and endDrag() (a slider drag) merge into one step.
    QUndoStack *undoStack() const { return m_undoStack; }
    void beginDrag();
    void endDrag();
    // Used by undo and redo: shows `soc` without recording a step.
    void restore(const roofline::gables::Soc &soc, bool structural);
    // Loads a file; on failure the current model is kept and `error` says why.
    bool load(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool save(const QString &path, QString *error);
    // false marks the current state as saved; true marks it unsaved.
    void setModified(bool modified);

    // Value edits: emit valuesChanged. Out-of-range or non-finite values are ignored.
    void setPpeak(double gops);
    void setBpeak(double gbps);
    void setAcceleration(int ip, double value);
    void setBandwidth(int ip, double gbps);
    void setIntensity(int ip, double opsPerByte);
    // Rebalances the unlocked IPs proportionally so that Σ f_i stays 1.
    void setFraction(int ip, double fraction);
    void setLocked(int ip, bool locked);

    // Extensions (models.md 1.4).
    void setSerialized(bool serialized);                 // valuesChanged
    void setMemorySideMemory(bool enabled);              // structureChanged (adds or removes controls)
    void setMsmBandwidth(double gbps);                   // 0: the cache's bandwidth is no bound
    void setMissRatio(int ip, double missRatio);
    int addBus();                                        // structureChanged
    void removeBus(int bus);                             // structureChanged; IPs leave it
    void setBusBandwidth(int bus, double gbps);
    void setIpOnBus(int ip, int bus, bool on);

    // Structural edits: emit structureChanged.
    int addIp();
    void removeIp(int ip);
    bool renameIp(int ip, const QString &name, QString *error);
    void setColor(int ip, const QString &color);

    // Snapshots: named copies of the model to compare against and return to.
    struct Snapshot
    {
        QString name;
        roofline::gables::Soc soc;
    };
    const std::vector<Snapshot> &snapshots() const { return m_snapshots; }
    int pinSnapshot(const QString &name = QString()); // the current model; returns its index
    void renameSnapshot(int index, const QString &name);
    void removeSnapshot(int index);
    void restoreSnapshot(int index); // an undoable step
    // The snapshot drawn as a ghost and compared against; -1 for none.
    int comparedSnapshot() const { return m_compared; }
    void setComparedSnapshot(int index);

    // The whole document as JSON for a session file, and back. restoreSession
    // validates every model strictly (messages name `label` and the field)
    // and changes nothing on failure. It starts a new undo history.
    QJsonObject sessionState() const;
    bool restoreSession(const QJsonObject &state, const QString &label, QString *error);

signals:
    void snapshotsChanged();
    void valuesChanged();    // numbers changed; IP list unchanged
    void structureChanged(); // IPs added, removed, renamed, recoloured, or a new model
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    bool validIp(int ip) const { return ip >= 0 && std::size_t(ip) < m_soc.ips.size(); }
    QString ipName(int ip) const;
    void touchValues(const QString &key, const QString &text);
    // One number changed: the step names it with its values ("Bpeak 30 → 42 GB/s").
    void touchValue(const QString &key, const QString &label, double from, double to, const QString &unit);
    void touchStructure(const QString &text);
    void record(const QString &key, bool structural, const QString &text);
    void updateModified();

    roofline::gables::Soc m_soc;
    QUndoStack *m_undoStack = nullptr;
    StateHistory<roofline::gables::Soc> m_history;
    std::vector<Snapshot> m_snapshots;
    int m_compared = -1;
    std::vector<bool> m_locked;
    QString m_filePath;
    bool m_modified = false;
};

} // namespace studio
