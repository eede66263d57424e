// The AMAIX model the user is editing: a network, an accelerator, the
// evaluation options, optional measured per-layer times, and the files they
// came from. The panel, the table and the plot edit through this object and
// listen to its signals. Every edit, loading a file included, is an undoable
// step (StateHistory); a slider drag is one step. Snapshots are named copies
// of the whole state to compare against and return to.
#pragma once

#include "amaix/io.h"
#include "amaix/model.h"
#include "statehistory.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace studio {

// Everything an undo step or a snapshot restores. The network and the texts
// are shared, immutable: copying a state for each slider event stays cheap.
struct AmaixState
{
    std::shared_ptr<const roofline::amaix::Network> network;
    std::shared_ptr<const std::string> networkText; // the file as read, for sessions; null when set in code
    QString networkPath;
    roofline::amaix::Accelerator accelerator;
    roofline::amaix::Accelerator loadedAccelerator; // as in its file, for "reset"
    QString acceleratorPath;
    roofline::amaix::Options options;
    std::shared_ptr<const std::vector<roofline::amaix::MeasuredTime>> measured; // null: none loaded
    std::shared_ptr<const std::string> measuredText;
    QString measuredPath;
};

class AmaixDocument : public QObject
{
    Q_OBJECT
public:
    explicit AmaixDocument(QObject *parent = nullptr);

    const AmaixState &state() const { return m_state; }
    const roofline::amaix::Network &network() const;
    const roofline::amaix::Accelerator &accelerator() const { return m_state.accelerator; }
    const roofline::amaix::Options &options() const { return m_state.options; }
    // What to evaluate with: options(), but when they name no data type and the
    // accelerator does not offer the network's, the accelerator's default
    // (roofline::amaix::withOfferedDataType); `fellBack` says whether it did.
    roofline::amaix::Options evaluationOptions(bool *fellBack = nullptr) const
    {
        return roofline::amaix::withOfferedDataType(network(), accelerator(), m_state.options, fellBack);
    }
    const std::vector<roofline::amaix::MeasuredTime> *measured() const { return m_state.measured.get(); }
    QString networkPath() const { return m_state.networkPath; }
    QString acceleratorPath() const { return m_state.acceleratorPath; }
    QString measuredPath() const { return m_state.measuredPath; }
    // The accelerator as loaded, before any slider edit (for "reset").
    const roofline::amaix::Accelerator &loadedAccelerator() const { return m_state.loadedAccelerator; }
    bool isModified() const { return m_modified; }

    // Replace a whole part, as one undoable step; emit structureChanged.
    void setNetwork(const roofline::amaix::Network &network, const QString &path);
    void setAccelerator(const roofline::amaix::Accelerator &accelerator, const QString &path);
    void resetAccelerator(); // back to the loaded accelerator

    // Loads a file (resource paths such as ":/examples/amaix/alexnet.json" too)
    // as one undoable step. On failure the current model is kept and `error`
    // names the file, the field and the reason.
    bool loadNetwork(const QString &path, QString *error, QStringList *warnings = nullptr);
    // A network imported elsewhere (widgets/amaix/networkimport.h reads ONNX and
    // Caffe on a worker thread) as one undoable step. The session embeds it in
    // our JSON; `inputShapes` (the sizes given for symbolic inputs) are
    // remembered for the file and reused when it is opened again.
    void setImportedNetwork(const roofline::amaix::Network &network, const QString &path,
                            const std::map<std::string, std::vector<std::int64_t>> &inputShapes);
    // The input sizes last given for an imported file (empty: none asked).
    std::map<std::string, std::vector<std::int64_t>> inputShapesFor(const QString &path) const;
    // Files imported in this session, in the order first opened (the network selector lists them).
    QStringList importedFiles() const { return m_importedFiles; }
    bool loadAccelerator(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool loadMeasured(const QString &path, QString *error, QStringList *warnings = nullptr);
    // Writes the accelerator (core's serialize) atomically; the document is then unmodified.
    bool saveAccelerator(const QString &path, QString *error);

    // Value edits: emit valuesChanged. A value that is not finite, not > 0, or
    // that the accelerator's validation rejects is ignored (returns false).
    bool setParameter(const roofline::amaix::Parameter &parameter, double value);
    // Several numbers at once (a sweep point), as one step; all or nothing.
    bool setParameters(const std::vector<std::pair<roofline::amaix::Parameter, double>> &values, const QString &text);
    void setRefine(bool refine);
    // Structural edits (the panel's controls change): emit structureChanged.
    void setDataType(const QString &dataType); // empty: the network's, else the accelerator's default
    // Switching needs a MAC array unit and t_k for every data type (nvdla) or a
    // peak for every unit (general); the general model's MAC-array peak is
    // taken from T_k·T_c. Returns false with `error` set when not possible.
    bool setScaling(roofline::amaix::ScalingModel scaling, QString *error);
    // The accelerator after a --set "POINTER=VALUE" (AmaixView::applyOverride
    // applies it), as one step named after the assignment; slider ranges follow.
    void setOverridden(const roofline::amaix::Accelerator &accelerator, const QString &assignment);

    // Undo: edits of one parameter between beginDrag() and endDrag() (a slider drag) merge.
    QUndoStack *undoStack() const { return m_undoStack; }
    void beginDrag();
    void endDrag();
    // Forgets the history: the current state becomes the clean start.
    void resetHistory();
    // No network, no accelerator, no snapshots, no history (the view shows its
    // empty state): after a file named on the command line failed to open.
    void clear();
    bool hasModel() const { return m_state.network && !m_state.network->layers.empty() && !m_state.accelerator.units.empty(); }
    void setModified(bool modified); // false: the current state is the saved one

    // Snapshots.
    struct Snapshot
    {
        QString name;
        AmaixState state;
    };
    const std::vector<Snapshot> &snapshots() const { return m_snapshots; }
    int pinSnapshot(const QString &name = QString()); // returns its index; the first pin is compared at once
    void renameSnapshot(int index, const QString &name);
    void removeSnapshot(int index);
    void restoreSnapshot(int index); // an undoable step
    int comparedSnapshot() const { return m_compared; } // -1: none
    void setComparedSnapshot(int index);

    // The whole document for a session file. restoreSession parses every
    // embedded file strictly before it changes anything; messages name
    // `sessionFile`, the JSON pointer in it and the reason. It starts a new history.
    QJsonObject sessionState() const;
    bool restoreSession(const QJsonObject &state, const QString &sessionFile, QString *error);

signals:
    void importedFilesChanged();
    void valuesChanged();    // numbers changed; the set of controls did not
    void structureChanged(); // a new network or accelerator, data type or scaling model
    void filePathChanged();
    void modifiedChanged(bool modified);
    void snapshotsChanged();

private:
    void commit(const AmaixState &next, const QString &key, bool structural, const QString &text);
    void show(const AmaixState &state, bool structural);
    void updateModified();
    bool validSnapshot(int index) const { return index >= 0 && std::size_t(index) < m_snapshots.size(); }

    AmaixState m_state;
    QUndoStack *m_undoStack = nullptr;
    StateHistory<AmaixState> m_history;
    std::vector<Snapshot> m_snapshots;
    QStringList m_importedFiles;
    std::map<QString, std::map<std::string, std::vector<std::int64_t>>> m_inputShapes; // by file
    int m_compared = -1;
    bool m_modified = false;
};

} // namespace studio
