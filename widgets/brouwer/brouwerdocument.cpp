#include "brouwerdocument.h"

#include "network/import.h"
#include "network/io.h"
#include "resources.h"
#include "diagnosticstext.h"
#include "modelview.h"
#include "snapshotlist.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::brouwer;

namespace {

// Through the views' reader (widgets/common/modelview.h): the size limit, and
// a byte-order mark dropped.
bool readBytes(const QString &path, std::string *text, QString *error)
{
    return studio::readTextFile(path, text, error);
}

QString stemOf(const QString &path)
{
    return QFileInfo(path).completeBaseName();
}

// The names EdgeCaffe's measurements give the shipped networks (the prototxts all say "CaffeNet").
QStringList aliasesFor(const QString &stem)
{
    if (stem == QLatin1String("SoS"))
        return {QStringLiteral("Salient Object Subitizing")};
    if (stem == QLatin1String("SoS_GoogleNet"))
        return {QStringLiteral("SoS GoogleNet")};
    return {};
}

std::shared_ptr<const BrouwerNetwork> fromNetwork(network::Network net, const QString &name, const QString &path)
{
    auto out = std::make_shared<BrouwerNetwork>();
    out->name = name;
    out->path = path;
    out->aliases = aliasesFor(name);
    out->layers = layerFeatures(net);
    out->network = std::move(net);
    return out;
}

} // namespace

bool isSeedShapeDevice(const QString &path)
{
    return QFileInfo(path).fileName().startsWith(QLatin1String("seed-table2-"));
}

std::shared_ptr<const BrouwerNetwork> readBrouwerNetwork(const QString &path, QString *error, QStringList *warnings)
{
    std::string bytes;
    if (!readBytes(path, &bytes, error))
        return nullptr;
    const std::string label = path.toStdString();
    network::NetworkLoad load;
    switch (network::networkFileKind(label)) {
    case network::NetworkFileKind::Onnx: load = network::importOnnx(bytes, label); break;
    case network::NetworkFileKind::Caffe: load = network::importCaffe(bytes, label); break;
    case network::NetworkFileKind::Json: load = network::parseNetwork(bytes, label); break;
    }
    if (!load.network) {
        if (error)
            *error = errorsOf(load.diagnostics);
        return nullptr;
    }
    if (load.network->layers.empty()) {
        if (error)
            *error = QStringLiteral("%1: /layers: the network has no layers").arg(path);
        return nullptr;
    }
    appendWarnings(load.diagnostics, warnings);
    return fromNetwork(std::move(*load.network), stemOf(path), path);
}

BrouwerDocument::BrouwerDocument(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
    , m_history(m_undoStack, [this](const BrouwerState &state, bool structural) { show(state, structural); })
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &BrouwerDocument::updateModified);
    // The shipped networks and devices (examples/brouwer/), in the selectors from the start.
    for (const QString &stem : {QStringLiteral("AgeNet"), QStringLiteral("GenderNet"), QStringLiteral("FaceNet"),
                                QStringLiteral("SoS"), QStringLiteral("SoS_GoogleNet")}) {
        const QString path = QStringLiteral(":/examples/brouwer/networks/%1.prototxt").arg(stem);
        if (auto net = readBrouwerNetwork(path, nullptr, nullptr))
            m_networks.push_back(std::move(net));
    }
    for (const QString &path : resources::exampleFiles(QStringLiteral("brouwer"))) {
        std::string text;
        if (!path.endsWith(QLatin1String(".json")) || !readBytes(path, &text, nullptr))
            continue;
        DeviceLoad load = parseDevice(text, path.toStdString());
        if (load.device)
            m_devices.push_back({path, std::make_shared<const Device>(std::move(*load.device))});
    }
    // Start with AgeNet on our EdgeCaffe fit at 256 MiB (AgeNet's fc6 swaps below 37 MiB).
    if (!m_networks.empty())
        m_state.network = m_networks.front();
    for (const DeviceEntry &d : m_devices) {
        if (d.path.endsWith(QLatin1String("edgecaffe-fe.json"))) {
            m_state.device = d.device;
            m_state.devicePath = d.path;
        }
    }
    if (!m_state.device && !m_devices.empty()) {
        m_state.device = m_devices.front().device;
        m_state.devicePath = m_devices.front().path;
    }
    m_history.reset(m_state);
}

void BrouwerDocument::commit(const BrouwerState &next, const QString &key, bool structural, const QString &text)
{
    const bool pathChanged = next.devicePath != m_state.devicePath;
    m_state = next;
    m_history.record(m_state, key, structural, text);
    if (pathChanged)
        emit filePathChanged();
    if (structural)
        emit structureChanged();
    else
        emit valuesChanged();
}

void BrouwerDocument::show(const BrouwerState &state, bool structural)
{
    const bool pathChanged = state.devicePath != m_state.devicePath;
    structural = structural || state.network != m_state.network || state.device != m_state.device
        || state.measured != m_state.measured || state.params.bytesPerElement != m_state.params.bytesPerElement
        || state.smeared != m_state.smeared;
    m_state = state;
    m_history.setCommitted(state);
    if (pathChanged)
        emit filePathChanged();
    if (structural)
        emit structureChanged();
    else
        emit valuesChanged();
}

int BrouwerDocument::addNetwork(std::shared_ptr<const BrouwerNetwork> network)
{
    for (std::size_t i = 0; i < m_networks.size(); ++i) {
        if (m_networks[i]->path == network->path) {
            m_networks[i] = std::move(network); // opened again: the file may have changed
            emit listsChanged();
            return int(i);
        }
    }
    m_networks.push_back(std::move(network));
    emit listsChanged();
    return int(m_networks.size()) - 1;
}

int BrouwerDocument::addDevice(const QString &path, std::shared_ptr<const Device> device)
{
    for (std::size_t i = 0; i < m_devices.size(); ++i) {
        if (!path.isEmpty() && m_devices[i].path == path) {
            m_devices[i].device = std::move(device);
            emit listsChanged();
            return int(i);
        }
    }
    m_devices.push_back({path, std::move(device)});
    emit listsChanged();
    return int(m_devices.size()) - 1;
}

bool BrouwerDocument::loadNetwork(const QString &path, QString *error, QStringList *warnings)
{
    std::shared_ptr<const BrouwerNetwork> net = readBrouwerNetwork(path, error, warnings);
    if (!net)
        return false;
    addNetwork(net);
    BrouwerState next = m_state;
    next.network = std::move(net);
    commit(next, QString(), true, tr("Open network %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool BrouwerDocument::setImportedNetwork(network::Network network, const QString &path, QString *error)
{
    if (network.layers.empty()) {
        if (error)
            *error = QStringLiteral("%1: /layers: the network has no layers").arg(path);
        return false;
    }
    std::shared_ptr<const BrouwerNetwork> net = fromNetwork(std::move(network), stemOf(path), path);
    addNetwork(net);
    BrouwerState next = m_state;
    next.network = std::move(net);
    commit(next, QString(), true, tr("Open network %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool BrouwerDocument::loadDevice(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    if (!readBytes(path, &text, error))
        return false;
    DeviceLoad load = parseDevice(text, path.toStdString());
    if (!load.device) {
        if (error)
            *error = errorsOf(load.diagnostics);
        return false;
    }
    appendWarnings(load.diagnostics, warnings);
    auto device = std::make_shared<const Device>(std::move(*load.device));
    addDevice(path, device);
    BrouwerState next = m_state;
    next.device = std::move(device);
    next.devicePath = path;
    commit(next, QString(), true, tr("Open device %1").arg(QFileInfo(path).fileName()));
    m_undoStack->setClean(); // what is shown is the file
    return true;
}

bool BrouwerDocument::loadMeasurements(const QStringList &paths, QString *error, QStringList *warnings)
{
    auto measured = std::make_shared<BrouwerMeasurements>();
    if (m_state.measured)
        *measured = *m_state.measured;
    std::vector<MeasuredRow> added;
    for (const QString &path : paths) {
        BrouwerMeasurements::File file{path, {}};
        if (!readBytes(path, &file.text, error))
            return false;
        MeasuredLoad load = parseMeasuredCsv(file.text, path.toStdString());
        if (load.diagnostics.hasErrors()) {
            if (error)
                *error = errorsOf(load.diagnostics);
            return false;
        }
        if (load.rows.empty()) {
            if (error)
                *error = QStringLiteral("%1: no measured rows (a header and at least one row are needed)").arg(path);
            return false;
        }
        appendWarnings(load.diagnostics, warnings);
        added.insert(added.end(), load.rows.begin(), load.rows.end());
        measured->rows.insert(measured->rows.end(), load.rows.begin(), load.rows.end());
        measured->files.push_back(std::move(file));
    }
    // Rows that match no known layer are reported (as roofline-cli brouwer-fit does), not refused.
    appendWarnings(buildObservations(added, namedNetworks(), m_state.params.bytesPerElement).diagnostics, warnings);
    BrouwerState next = m_state;
    next.measured = std::move(measured);
    const bool wasClean = m_undoStack->isClean();
    commit(next, QString(), true,
           paths.size() == 1 ? tr("Open measurements %1").arg(QFileInfo(paths.front()).fileName())
                             : tr("Open %1 measurement files").arg(paths.size()));
    if (wasClean)
        m_undoStack->setClean(); // the device still matches its file
    return true;
}

void BrouwerDocument::clearMeasurements()
{
    if (!m_state.measured)
        return;
    BrouwerState next = m_state;
    next.measured.reset();
    commit(next, QString(), true, tr("Close the measurements"));
}

void BrouwerDocument::selectNetwork(int index)
{
    if (index < 0 || std::size_t(index) >= m_networks.size() || m_networks[std::size_t(index)] == m_state.network)
        return;
    BrouwerState next = m_state;
    next.network = m_networks[std::size_t(index)];
    const bool wasClean = m_undoStack->isClean();
    commit(next, QString(), true, tr("Network %1").arg(next.network->name));
    if (wasClean)
        m_undoStack->setClean();
}

void BrouwerDocument::selectDevice(int index)
{
    if (index < 0 || std::size_t(index) >= m_devices.size() || m_devices[std::size_t(index)].device == m_state.device)
        return;
    BrouwerState next = m_state;
    next.device = m_devices[std::size_t(index)].device;
    next.devicePath = m_devices[std::size_t(index)].path;
    commit(next, QString(), true, tr("Device %1").arg(QString::fromStdString(next.device->name)));
}

void BrouwerDocument::setFittedDevice(const Device &device)
{
    auto shared = std::make_shared<const Device>(device);
    addDevice(QString(), shared);
    BrouwerState next = m_state;
    next.device = std::move(shared);
    next.devicePath.clear();
    commit(next, QString(), true, tr("Fit %1").arg(QString::fromStdString(device.name)));
}

bool BrouwerDocument::saveDevice(const QString &path, QString *error)
{
    if (!m_state.device)
        return false;
    Diagnostics diagnostics;
    if (!saveDeviceFile(*m_state.device, path.toStdString(), diagnostics)) { // atomic: temporary, sync, rename
        if (error)
            *error = errorsOf(diagnostics);
        return false;
    }
    for (DeviceEntry &d : m_devices) {
        if (d.device == m_state.device && d.path.isEmpty())
            d.path = path; // the unsaved fit is that file now
    }
    bool known = false;
    for (const DeviceEntry &d : m_devices)
        known |= d.path == path;
    if (!known)
        m_devices.push_back({path, m_state.device});
    emit listsChanged();
    const bool pathChanged = m_state.devicePath != path;
    m_state.devicePath = path;
    m_history.setCommitted(m_state);
    setModified(false);
    if (pathChanged)
        emit filePathChanged();
    return true;
}

bool BrouwerDocument::setAvailableBytes(double bytes)
{
    if (!std::isfinite(bytes) || bytes < kMinMemory * 0.999 || bytes > kMaxMemory * 1.001)
        return false;
    if (bytes == m_state.params.availableBytes)
        return true;
    BrouwerState next = m_state;
    next.params.availableBytes = bytes;
    commit(next, QStringLiteral("memory"), false, tr("Available memory %1").arg(QString::fromStdString(formatBytes(bytes))));
    return true;
}

bool BrouwerDocument::setBytesPerElement(double bytes)
{
    if (!std::isfinite(bytes) || bytes < kMinBytesPerElement || bytes > kMaxBytesPerElement)
        return false;
    if (bytes == m_state.params.bytesPerElement)
        return true;
    BrouwerState next = m_state;
    next.params.bytesPerElement = bytes;
    commit(next, QString(), true, tr("%1 bytes per element").arg(bytes));
    return true;
}

void BrouwerDocument::setSmeared(bool smeared)
{
    if (smeared == m_state.smeared)
        return;
    BrouwerState next = m_state;
    next.smeared = smeared;
    commit(next, QString(), true, smeared ? tr("Smeared times") : tr("Plain back-transformed times"));
}

void BrouwerDocument::setParams(const Params &params, const QString &text)
{
    BrouwerState next = m_state;
    next.params = params;
    commit(next, QString(), true, text);
}

std::vector<NamedNetwork> BrouwerDocument::namedNetworks() const
{
    std::vector<NamedNetwork> out;
    std::vector<const BrouwerNetwork *> all;
    for (const auto &n : m_networks)
        all.push_back(n.get());
    if (m_state.network && std::find(all.begin(), all.end(), m_state.network.get()) == all.end())
        all.push_back(m_state.network.get());
    for (const BrouwerNetwork *n : all) {
        NamedNetwork named;
        named.names.push_back(n->name.toStdString());
        for (const QString &a : n->aliases)
            named.names.push_back(a.toStdString());
        named.names.push_back(n->network.name);
        named.layers = n->layers;
        out.push_back(std::move(named));
    }
    return out;
}

Observations BrouwerDocument::observations() const
{
    if (!m_state.measured)
        return {};
    return buildObservations(m_state.measured->rows, namedNetworks(), m_state.params.bytesPerElement);
}

void BrouwerDocument::beginDrag() { m_history.beginDrag(); }
void BrouwerDocument::endDrag() { m_history.endDrag(); }

void BrouwerDocument::resetHistory()
{
    m_history.reset(m_state);
    setModified(false);
}

void BrouwerDocument::setModified(bool modified)
{
    if (!modified)
        m_undoStack->setClean();
    else if (m_undoStack->isClean())
        m_undoStack->resetClean();
    updateModified();
}

void BrouwerDocument::updateModified()
{
    const bool modified = !m_undoStack->isClean();
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

// --- Snapshots ---------------------------------------------------------------

int BrouwerDocument::pinSnapshot(const QString &name)
{
    const int index = snapshots::pin(m_snapshots, {snapshots::newName(name, m_snapshots.size()), m_state}, m_compared);
    emit snapshotsChanged();
    emit valuesChanged(); // the compared curve and bars
    return index;
}

void BrouwerDocument::renameSnapshot(int index, const QString &name)
{
    if (snapshots::rename(m_snapshots, index, name))
        emit snapshotsChanged();
}

void BrouwerDocument::removeSnapshot(int index)
{
    if (!snapshots::remove(m_snapshots, index, m_compared))
        return;
    emit snapshotsChanged();
    emit valuesChanged();
}

void BrouwerDocument::restoreSnapshot(int index)
{
    if (!snapshots::valid(m_snapshots, index))
        return;
    commit(m_snapshots[std::size_t(index)].state, QString(), true,
           tr("Restore snapshot %1").arg(m_snapshots[std::size_t(index)].name));
}

void BrouwerDocument::setComparedSnapshot(int index)
{
    const int compared = snapshots::valid(m_snapshots, index) ? index : -1;
    if (compared == m_compared)
        return;
    m_compared = compared;
    emit snapshotsChanged();
    emit valuesChanged();
}

// --- Sessions ----------------------------------------------------------------

namespace {

QJsonObject stateToQt(const BrouwerState &s)
{
    QJsonObject o;
    if (s.network) {
        o[QStringLiteral("network_name")] = s.network->name;
        o[QStringLiteral("network_path")] = s.network->path;
        o[QStringLiteral("network")] = QString::fromStdString(network::serialize(s.network->network));
    }
    if (s.device) {
        o[QStringLiteral("device_path")] = s.devicePath;
        o[QStringLiteral("device")] = QString::fromStdString(serialize(*s.device));
    }
    o[QStringLiteral("available_bytes")] = s.params.availableBytes;
    o[QStringLiteral("bytes_per_element")] = s.params.bytesPerElement;
    o[QStringLiteral("smeared")] = s.smeared;
    if (s.measured) {
        QJsonArray files;
        for (const BrouwerMeasurements::File &f : s.measured->files)
            files.append(QJsonObject{{QStringLiteral("path"), f.path}, {QStringLiteral("text"), QString::fromStdString(f.text)}});
        o[QStringLiteral("measurements")] = files;
    }
    return o;
}

BrouwerState stateFromCore(roofline::brouwer::SessionState &&s)
{
    BrouwerState out;
    out.network = fromNetwork(std::move(s.network), QString::fromStdString(s.networkName),
                              QString::fromStdString(s.networkPath));
    out.device = std::make_shared<const Device>(std::move(s.device));
    out.devicePath = QString::fromStdString(s.devicePath);
    out.params = s.params;
    out.smeared = s.smeared;
    if (!s.measuredFiles.empty()) {
        auto m = std::make_shared<BrouwerMeasurements>();
        for (auto &f : s.measuredFiles)
            m->files.push_back({QString::fromStdString(f.path), std::move(f.text)});
        m->rows = std::move(s.measuredRows);
        out.measured = std::move(m);
    }
    return out;
}

} // namespace

QJsonObject BrouwerDocument::sessionState() const
{
    QJsonObject state = stateToQt(m_state);
    QJsonArray list;
    for (const Snapshot &snapshot : m_snapshots)
        list.append(QJsonObject{{QStringLiteral("name"), snapshot.name}, {QStringLiteral("state"), stateToQt(snapshot.state)}});
    state[QStringLiteral("snapshots")] = list;
    state[QStringLiteral("compared")] = m_compared;
    state[QStringLiteral("modified")] = m_modified;
    return state;
}

bool BrouwerDocument::restoreSession(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    // Checked in the core (core/brouwer/session.h, fuzzed by fuzz_brouwer_session).
    SessionPartLoad load = parseSessionPartText(QJsonDocument(state).toJson(QJsonDocument::Compact).toStdString(),
                                                sessionFile.toStdString());
    if (!load.part) {
        if (error)
            *error = errorsOf(load.diagnostics);
        return false;
    }
    BrouwerState current = stateFromCore(std::move(load.part->current));
    std::vector<Snapshot> list;
    for (SessionSnapshot &snapshot : load.part->snapshots)
        list.push_back({QString::fromStdString(snapshot.name), stateFromCore(std::move(snapshot.state))});
    const int compared = load.part->compared;

    // Everything checked: now change.
    addNetwork(current.network);
    addDevice(current.devicePath, current.device);
    m_snapshots = std::move(list);
    m_compared = snapshots::valid(m_snapshots, compared) ? compared : -1;
    const bool pathChanged = current.devicePath != m_state.devicePath;
    m_state = std::move(current);
    m_history.reset(m_state);
    setModified(load.part->modified);
    if (pathChanged)
        emit filePathChanged();
    emit snapshotsChanged();
    emit structureChanged();
    return true;
}

} // namespace studio
