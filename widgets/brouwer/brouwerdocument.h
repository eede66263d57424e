// The Brouwer model the user is editing (seed 002; docs/models/brouwer.md): a
// network, a device (calibrated coefficients), the available memory and bytes
// per element, optional measured per-layer times, and whether times are shown
// with the smearing correction. Every edit, loading a file included, is an
// undoable step (StateHistory); a memory-slider drag is one step. Snapshots are
// named copies of the whole state to compare against and return to.
#pragma once

#include "brouwer/fit.h"
#include "brouwer/io.h"
#include "brouwer/model.h"
#include "brouwer/session.h"
#include "network/network.h"
#include "statehistory.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace studio {

// A network as the Brouwer model reads it: the layers' features, and the
// network itself (kept for sessions, written as our JSON).
struct BrouwerNetwork
{
    QString name; // shown in the selector: the file's stem ("AgeNet")
    QString path; // where it came from (":/examples/brouwer/networks/AgeNet.prototxt")
    QStringList aliases; // further names measurements may use ("Salient Object Subitizing")
    roofline::network::Network network;
    std::vector<roofline::brouwer::LayerFeatures> layers;
};

// Measured per-layer times (EdgeCaffe's CSV or ours), each file kept as read for sessions.
struct BrouwerMeasurements
{
    struct File
    {
        QString path;
        std::string text;
    };
    std::vector<File> files;
    std::vector<roofline::brouwer::MeasuredRow> rows;
};

// Everything an undo step or a snapshot restores. The large parts are shared
// and immutable, so copying a state for each slider event stays cheap.
struct BrouwerState
{
    std::shared_ptr<const BrouwerNetwork> network;
    std::shared_ptr<const roofline::brouwer::Device> device;
    QString devicePath; // empty: a fit not saved yet
    roofline::brouwer::Params params;
    bool smeared = false; // show times with the smearing correction (Duan) instead of the plain back-transform
    std::shared_ptr<const BrouwerMeasurements> measured; // null: none loaded
};

class BrouwerDocument : public QObject
{
    Q_OBJECT
public:
    // The memory slider's range (16 MiB – 16 GiB) and the bytes-per-element limits.
    // The same as a session's (core/brouwer/session.h).
    static constexpr double kMinMemory = roofline::brouwer::SessionRanges::minMemory;
    static constexpr double kMaxMemory = roofline::brouwer::SessionRanges::maxMemory;
    static constexpr double kMinBytesPerElement = roofline::brouwer::SessionRanges::minBytesPerElement;
    static constexpr double kMaxBytesPerElement = roofline::brouwer::SessionRanges::maxBytesPerElement;

    explicit BrouwerDocument(QObject *parent = nullptr);

    const BrouwerState &state() const { return m_state; }
    const BrouwerNetwork *network() const { return m_state.network.get(); }
    const roofline::brouwer::Device *device() const { return m_state.device.get(); }
    const roofline::brouwer::Params &params() const { return m_state.params; }
    const BrouwerMeasurements *measured() const { return m_state.measured.get(); }
    QString devicePath() const { return m_state.devicePath; }
    bool smeared() const { return m_state.smeared; }
    bool isModified() const { return m_modified; }

    // Networks and devices the selectors offer: the shipped examples first,
    // then the files the user opened (and fits) in this session.
    const std::vector<std::shared_ptr<const BrouwerNetwork>> &networks() const { return m_networks; }
    struct DeviceEntry
    {
        QString path; // empty for an unsaved fit
        std::shared_ptr<const roofline::brouwer::Device> device;
    };
    const std::vector<DeviceEntry> &devices() const { return m_devices; }

    // Loading: the file is parsed strictly first; on failure nothing changes and
    // `error` names the file, the field and the reason. Each load is one step.
    bool loadNetwork(const QString &path, QString *error, QStringList *warnings = nullptr);
    // A network read elsewhere (the shared importer, networkfileimport.h) becomes the current one (one step).
    bool setImportedNetwork(roofline::network::Network network, const QString &path, QString *error);
    bool loadDevice(const QString &path, QString *error, QStringList *warnings = nullptr);
    // Adds measurement files (all or none) to the loaded ones.
    bool loadMeasurements(const QStringList &paths, QString *error, QStringList *warnings = nullptr);
    void clearMeasurements();
    // Selecting one of networks() / devices() (one step).
    void selectNetwork(int index);
    void selectDevice(int index);
    // A fitted device becomes the current one, unsaved (one step).
    void setFittedDevice(const roofline::brouwer::Device &device);
    // Writes the current device atomically (core's saveDeviceFile); it is then that file.
    bool saveDevice(const QString &path, QString *error);

    // Value edits; values out of range or not finite are ignored (false).
    bool setAvailableBytes(double bytes);
    bool setBytesPerElement(double bytes);
    void setSmeared(bool smeared);
    // A --set override (the memory or bytes per element) as one step.
    void setParams(const roofline::brouwer::Params &params, const QString &text);

    // The measured rows matched to the known networks (shipped and opened), as
    // observations at the current bytes per element; warnings name what matched nothing.
    roofline::brouwer::Observations observations() const;
    // The known networks as the fit reads them.
    std::vector<roofline::brouwer::NamedNetwork> namedNetworks() const;

    QUndoStack *undoStack() const { return m_undoStack; }
    void beginDrag();
    void endDrag();
    void resetHistory();
    void setModified(bool modified);

    struct Snapshot
    {
        QString name;
        BrouwerState state;
    };
    const std::vector<Snapshot> &snapshots() const { return m_snapshots; }
    int pinSnapshot(const QString &name = QString());
    void renameSnapshot(int index, const QString &name);
    void removeSnapshot(int index);
    void restoreSnapshot(int index);
    int comparedSnapshot() const { return m_compared; }
    void setComparedSnapshot(int index);

    // Sessions: the network (our JSON), the device, the measurement files as
    // read, the parameters and the snapshots. restoreSession checks everything
    // (in the core: core/brouwer/session.h) before it changes anything;
    // messages name `sessionFile`, the JSON pointer and the reason.
    QJsonObject sessionState() const;
    bool restoreSession(const QJsonObject &state, const QString &sessionFile, QString *error);

signals:
    void valuesChanged();    // memory, bytes per element, smearing
    void structureChanged(); // network, device or measurements
    void listsChanged();     // networks() or devices() grew
    void filePathChanged();
    void modifiedChanged(bool modified);
    void snapshotsChanged();

private:
    void commit(const BrouwerState &next, const QString &key, bool structural, const QString &text);
    void show(const BrouwerState &state, bool structural);
    void updateModified();
    int addNetwork(std::shared_ptr<const BrouwerNetwork> network);
    int addDevice(const QString &path, std::shared_ptr<const roofline::brouwer::Device> device);

    BrouwerState m_state;
    std::vector<std::shared_ptr<const BrouwerNetwork>> m_networks;
    std::vector<DeviceEntry> m_devices;
    QUndoStack *m_undoStack = nullptr;
    StateHistory<BrouwerState> m_history;
    std::vector<Snapshot> m_snapshots;
    int m_compared = -1;
    bool m_modified = false;
};

// True for the seed's Table 2 devices as shipped (examples/brouwer/seed-table2-*.json):
// the seed's coefficients as printed, which show the shape of the model (both
// regimes) but not calibrated times; the view labels them so
// (docs/models/brouwer.md, "The seed's Table 2, as shipped").
bool isSeedShapeDevice(const QString &path);

// Parses a network file (Caffe prototxt, ONNX or our JSON; resource paths too)
// into what the Brouwer model reads; nullptr with `error` set on failure.
std::shared_ptr<const BrouwerNetwork> readBrouwerNetwork(const QString &path, QString *error, QStringList *warnings);

} // namespace studio
