// The nn-Meter model the user is editing (seed 004; core/nnmeter): a network,
// a device (its roofline numbers and the fusion rules in force, which the
// user toggles), and the files they came from. Every edit, opening a file
// included, is an undoable step (StateHistory); a slider drag is one step.
// Snapshots are named copies of the whole state to compare against.
#pragma once

#include "networkfileimport.h"
#include "nnmeter/io.h"
#include "nnmeter/measured.h"
#include "statehistory.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace studio {

// Everything an undo step or a snapshot restores. The network is shared and
// immutable, so copying a state for each toggle stays cheap.
struct NnmeterState
{
    std::shared_ptr<const roofline::network::Network> network;
    QString networkPath;
    roofline::nnmeter::Device device;       // the numbers and rules in force (device.rules: with the user's toggles)
    roofline::nnmeter::Device loadedDevice; // as in its file, for "reset"
    QString devicePath;
    QString rulesPath; // a rules file chosen over the device's own, or empty
    // Measured end-to-end latencies (core/nnmeter/measured.h), null when none is open.
    std::shared_ptr<const std::vector<roofline::nnmeter::MeasuredLatency>> measured;
    QString measuredPath;
};

class NnmeterDocument : public QObject
{
    Q_OBJECT
public:
    explicit NnmeterDocument(QObject *parent = nullptr);

    const NnmeterState &state() const { return m_state; }
    bool hasModel() const { return m_state.network && !m_state.devicePath.isEmpty(); }
    const roofline::network::Network &network() const;
    const roofline::nnmeter::Device &device() const { return m_state.device; }
    const roofline::nnmeter::FusionRules &rules() const { return m_state.device.rules; }
    QString networkPath() const { return m_state.networkPath; }
    QString devicePath() const { return m_state.devicePath; }
    QString rulesPath() const { return m_state.rulesPath; }
    bool isModified() const { return m_modified; }

    // Files (resource paths such as ":/examples/nnmeter/..." too), each one
    // undoable step. On failure nothing changes and `error` names the file,
    // the field and the reason.
    bool loadDevice(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool loadRules(const QString &path, QString *error, QStringList *warnings = nullptr); // over the device's
    // Our JSON network directly; ONNX and Caffe through importNetworkFile()
    // (the view calls it) and setImportedNetwork().
    bool loadNetwork(const QString &path, QString *error, QStringList *warnings = nullptr);
    void setImportedNetwork(const roofline::network::Network &network, const QString &path, const InputShapes &shapes);
    InputShapes inputShapesFor(const QString &path) const;
    // A kernel lab run the view started (nnmeterlab.h): its device and, when it ran
    // networks end to end, its measured latencies, opened as one undoable step named
    // after `label`. On failure nothing changes.
    bool loadLabRun(const QString &devicePath, const QString &measuredPath, const QString &label, QString *error,
                    QStringList *warnings = nullptr);
    // Measured end-to-end latencies (our CSV or the kernel lab's measurements.csv), one step.
    bool loadMeasured(const QString &path, QString *error);
    void clearMeasured();
    const std::vector<roofline::nnmeter::MeasuredLatency> *measured() const { return m_state.measured.get(); }
    // Every network opened in this session, by file (the predicted-vs-measured table predicts them).
    const std::map<QString, std::shared_ptr<const roofline::network::Network>> &openedNetworks() const { return m_networks; }
    QStringList openedFiles() const { return m_openedFiles; } // devices, rules and networks opened, first-opened order

    // Edits, each an undoable step.
    void setRule(const std::string &pair, bool fuses); // pair: "conv_bn"
    void setMultiOutbound(bool on);
    void setMultiInbound(bool on);
    void setUnit(const std::string &unit, bool on);
    void resetRules(); // back to the device's (or the chosen rules file's) rules
    // A device number by JSON pointer (/peak_gflops, ...; core/nnmeter/parameters.h).
    // Invalid values are ignored (false).
    bool setNumber(const std::string &pointer, double value);
    // The device after a --set or goal-seek "POINTER=VALUE", as one step.
    void setOverridden(const roofline::nnmeter::Device &device, const QString &assignment);

    QUndoStack *undoStack() const { return m_undoStack; }
    void beginDrag();
    void endDrag();
    void setModified(bool modified);
    // Drops everything (network, device, measurements, history, snapshots): the
    // view then shows its empty state. For a start-up example nobody edited.
    void clear();

    struct Snapshot
    {
        QString name;
        NnmeterState state;
    };
    const std::vector<Snapshot> &snapshots() const { return m_snapshots; }
    int pinSnapshot(const QString &name = QString());
    void renameSnapshot(int index, const QString &name);
    void removeSnapshot(int index);
    void restoreSnapshot(int index);
    int comparedSnapshot() const { return m_compared; }
    void setComparedSnapshot(int index);

    // Sessions: the network embedded as our JSON, the device by file with its
    // numbers and rules as edited. restoreSession checks everything before it
    // changes anything; messages name `sessionFile`, the pointer and the reason.
    QJsonObject sessionState() const;
    bool restoreSession(const QJsonObject &state, const QString &sessionFile, QString *error);

signals:
    void valuesChanged();    // device numbers
    void structureChanged(); // network, device, rules: kernels are detected again
    void filePathChanged();
    void modifiedChanged(bool modified);
    void snapshotsChanged();
    void openedFilesChanged();

private:
    void commit(const NnmeterState &next, const QString &key, bool structural, const QString &text);
    void show(const NnmeterState &state, bool structural);
    void remember(const QString &path);

    NnmeterState m_state;
    QUndoStack *m_undoStack = nullptr;
    StateHistory<NnmeterState> m_history;
    std::vector<Snapshot> m_snapshots;
    QStringList m_openedFiles;
    std::map<QString, InputShapes> m_inputShapes;
    std::map<QString, std::shared_ptr<const roofline::network::Network>> m_networks;
    int m_compared = -1;
    bool m_modified = false;
};

// Reads a device file (resource paths too: the rules and forests it names are
// read through Qt as well).
roofline::nnmeter::DeviceLoad loadDeviceThroughQt(const QString &path);

} // namespace studio
