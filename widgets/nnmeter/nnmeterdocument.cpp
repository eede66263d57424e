#include "nnmeterdocument.h"

#include "diagnosticstext.h"
#include "modelview.h"
#include "snapshotlist.h"

#include "network/import.h"
#include "nnmeter/parameters.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <optional>

namespace studio {

using namespace roofline;
using namespace roofline::nnmeter;

namespace {

// The views' reader (widgets/common/modelview.h) as the core's device parser takes it:
// resource paths work, the size limit, a byte-order mark dropped, the error names the file.
bool readThroughQt(const std::string &path, std::string &text, Diagnostics &diagnostics)
{
    return studio::readTextFile(QString::fromStdString(path), &text, diagnostics);
}

std::optional<FusionRules> readRules(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    Diagnostics d;
    if (!studio::readTextFile(path, &text, d)) {
        if (error)
            *error = errorLinesOf(d);
        return std::nullopt;
    }
    RulesLoad loaded = parseRules(text, path.toStdString());
    if (!loaded.rules) {
        if (error)
            *error = errorLinesOf(loaded.diagnostics);
        return std::nullopt;
    }
    appendWarnings(loaded.diagnostics, warnings);
    return loaded.rules;
}

// The device numbers a session keeps (what sliders, --set and goal seek change).
QJsonObject numbersToQt(const Device &device)
{
    QJsonObject o;
    for (const NumberParameter &p : numberParameters(device))
        o[QString::fromStdString(p.pointer)] = *numberValue(device, p.pointer);
    return o;
}

} // namespace

DeviceLoad loadDeviceThroughQt(const QString &path)
{
    std::string text;
    DeviceLoad out;
    if (!readThroughQt(path.toStdString(), text, out.diagnostics))
        return out;
    const QString directory = QFileInfo(path).path();
    return parseDevice(text, path.toStdString(), directory.toStdString(), readThroughQt);
}

NnmeterDocument::NnmeterDocument(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
    , m_history(m_undoStack, [this](const NnmeterState &state, bool structural) { show(state, structural); })
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this, [this](bool clean) { setModified(!clean); });
}

const network::Network &NnmeterDocument::network() const
{
    static const network::Network none;
    return m_state.network ? *m_state.network : none;
}

void NnmeterDocument::commit(const NnmeterState &next, const QString &key, bool structural, const QString &text)
{
    const bool pathChanged = next.networkPath != m_state.networkPath || next.devicePath != m_state.devicePath;
    m_state = next;
    m_history.record(m_state, key, structural, text);
    setModified(true);
    structural ? emit structureChanged() : emit valuesChanged();
    if (pathChanged)
        emit filePathChanged();
}

void NnmeterDocument::show(const NnmeterState &state, bool structural)
{
    const bool pathChanged = state.networkPath != m_state.networkPath || state.devicePath != m_state.devicePath;
    m_state = state;
    Q_UNUSED(structural);
    emit structureChanged(); // an undone rule toggle changes the kernels
    if (pathChanged)
        emit filePathChanged();
}

void NnmeterDocument::setModified(bool modified)
{
    if (!modified)
        m_undoStack->setClean();
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void NnmeterDocument::clear()
{
    m_state = NnmeterState{};
    m_snapshots.clear();
    m_compared = -1;
    m_history.reset(m_state);
    setModified(false);
    emit snapshotsChanged();
    emit filePathChanged();
    emit structureChanged();
}

void NnmeterDocument::remember(const QString &path)
{
    if (path.isEmpty() || m_openedFiles.contains(path))
        return;
    m_openedFiles << path;
    emit openedFilesChanged();
}

bool NnmeterDocument::loadDevice(const QString &path, QString *error, QStringList *warnings)
{
    DeviceLoad loaded = loadDeviceThroughQt(path);
    if (!loaded.device) {
        if (error)
            *error = errorLinesOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    NnmeterState next = m_state;
    next.device = *loaded.device;
    next.loadedDevice = *loaded.device;
    next.devicePath = path;
    next.rulesPath.clear();
    commit(next, QString(), true, tr("Open device %1").arg(QFileInfo(path).fileName()));
    remember(path);
    return true;
}

bool NnmeterDocument::loadRules(const QString &path, QString *error, QStringList *warnings)
{
    const std::optional<FusionRules> rules = readRules(path, error, warnings);
    if (!rules)
        return false;
    NnmeterState next = m_state;
    next.device.rules = *rules;
    next.loadedDevice.rules = *rules;
    next.rulesPath = path;
    commit(next, QString(), true, tr("Use rules %1").arg(QFileInfo(path).fileName()));
    remember(path);
    return true;
}

bool NnmeterDocument::loadNetwork(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    Diagnostics d;
    if (!studio::readTextFile(path, &text, d)) {
        if (error)
            *error = errorLinesOf(d);
        return false;
    }
    network::NetworkLoad loaded = network::parseNetwork(text, path.toStdString());
    if (!loaded.network) {
        if (error)
            *error = errorLinesOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    NnmeterState next = m_state;
    next.network = std::make_shared<const network::Network>(std::move(*loaded.network));
    next.networkPath = path;
    m_networks[path] = next.network;
    commit(next, QString(), true, tr("Open network %1").arg(QFileInfo(path).fileName()));
    remember(path);
    return true;
}

void NnmeterDocument::setImportedNetwork(const network::Network &network, const QString &path, const InputShapes &shapes)
{
    if (!shapes.empty())
        m_inputShapes[path] = shapes;
    NnmeterState next = m_state;
    next.network = std::make_shared<const network::Network>(network);
    next.networkPath = path;
    m_networks[path] = next.network;
    commit(next, QString(), true, tr("Import network %1").arg(QFileInfo(path).fileName()));
    remember(path);
}

InputShapes NnmeterDocument::inputShapesFor(const QString &path) const
{
    const auto it = m_inputShapes.find(path);
    return it == m_inputShapes.end() ? InputShapes{} : it->second;
}

namespace {

// The per-kernel timings in `path` into `state`; false and `error` (file, line, column) when they do not load.
bool readKernelsMeasured(const QString &path, NnmeterState &state, QString *error)
{
    std::string text;
    Diagnostics d;
    if (!studio::readTextFile(path, &text, d)) {
        if (error)
            *error = errorLinesOf(d);
        return false;
    }
    KernelLatencyLoad loaded = parseKernelLatencies(text, path.toStdString());
    if (!loaded.rows) {
        if (error)
            *error = errorLinesOf(loaded.diagnostics);
        return false;
    }
    state.kernelsMeasured = std::make_shared<const std::vector<KernelLatency>>(std::move(*loaded.rows));
    state.kernelsMeasuredPath = path;
    return true;
}

// The kernel lab writes kernels.csv beside measured.csv and measurements.csv: read it too when it is
// there (a file that does not load is an error: nothing opens). None beside: the previous per-kernel
// timings are closed with the measurements they belonged to.
bool readKernelsBeside(const QString &measuredPath, NnmeterState &state, QString *error)
{
    state.kernelsMeasured.reset();
    state.kernelsMeasuredPath.clear();
    const QString beside = QFileInfo(measuredPath).dir().filePath(QStringLiteral("kernels.csv"));
    if (QFileInfo(measuredPath).fileName() == QLatin1String("kernels.csv") || !QFileInfo::exists(beside))
        return true;
    return readKernelsMeasured(beside, state, error);
}

} // namespace

bool NnmeterDocument::loadMeasured(const QString &path, QString *error)
{
    std::string text;
    Diagnostics d;
    if (!studio::readTextFile(path, &text, d)) {
        if (error)
            *error = errorLinesOf(d);
        return false;
    }
    NnmeterState next = m_state;
    if (looksLikeKernelLatencies(text)) {
        if (!readKernelsMeasured(path, next, error))
            return false;
        commit(next, QString(), true, tr("Open per-kernel measurements %1").arg(QFileInfo(path).fileName()));
        return true;
    }
    MeasuredLoad loaded = parseMeasuredLatencies(text, path.toStdString());
    if (!loaded.rows) {
        if (error)
            *error = errorLinesOf(loaded.diagnostics);
        return false;
    }
    if (!readKernelsBeside(path, next, error))
        return false;
    next.measured = std::make_shared<const std::vector<MeasuredLatency>>(std::move(*loaded.rows));
    next.measuredPath = path;
    commit(next, QString(), true, tr("Open measurements %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool NnmeterDocument::loadLabRun(const QString &devicePath, const QString &measuredPath, const QString &label,
                                 QString *error, QStringList *warnings)
{
    DeviceLoad loaded = loadDeviceThroughQt(devicePath);
    if (!loaded.device) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    NnmeterState next = m_state;
    if (!measuredPath.isEmpty()) {
        std::string text;
        Diagnostics d;
        if (!readThroughQt(measuredPath.toStdString(), text, d)) {
            if (error)
                *error = errorsOf(d);
            return false;
        }
        MeasuredLoad measured = parseMeasuredLatencies(text, measuredPath.toStdString());
        if (!measured.rows) {
            if (error)
                *error = errorsOf(measured.diagnostics);
            return false;
        }
        if (!readKernelsBeside(measuredPath, next, error))
            return false;
        next.measured = std::make_shared<const std::vector<MeasuredLatency>>(std::move(*measured.rows));
        next.measuredPath = measuredPath;
    }
    appendWarnings(loaded.diagnostics, warnings);
    next.device = *loaded.device;
    next.loadedDevice = *loaded.device;
    next.devicePath = devicePath;
    next.rulesPath.clear();
    commit(next, QString(), true, tr("Use the kernel lab's predictors (%1)").arg(label));
    remember(devicePath);
    return true;
}

void NnmeterDocument::clearMeasured()
{
    if (!m_state.measured && !m_state.kernelsMeasured)
        return;
    NnmeterState next = m_state;
    next.measured.reset();
    next.measuredPath.clear();
    next.kernelsMeasured.reset();
    next.kernelsMeasuredPath.clear();
    commit(next, QString(), true, tr("Close the measurements"));
}

void NnmeterDocument::setRule(const std::string &pair, bool fuses)
{
    if (m_state.device.rules.fuses(pair.substr(0, pair.find('_')), pair.substr(pair.find('_') + 1)) == fuses
        && m_state.device.rules.pairs.count(pair))
        return;
    NnmeterState next = m_state;
    next.device.rules.pairs[pair].fuses = fuses;
    commit(next, QString(), true, tr("%1 BF_%2").arg(fuses ? tr("Fuse") : tr("Do not fuse"), QString::fromStdString(pair)));
}

void NnmeterDocument::setMultiOutbound(bool on)
{
    if (m_state.device.rules.multiOutbound == on)
        return;
    NnmeterState next = m_state;
    next.device.rules.multiOutbound = on;
    commit(next, QString(), true, on ? tr("Fuse multi-outbound nodes") : tr("Do not fuse multi-outbound nodes"));
}

void NnmeterDocument::setMultiInbound(bool on)
{
    if (m_state.device.rules.multiInbound == on)
        return;
    NnmeterState next = m_state;
    next.device.rules.multiInbound = on;
    commit(next, QString(), true, on ? tr("Fuse multi-inbound nodes") : tr("Do not fuse multi-inbound nodes"));
}

void NnmeterDocument::setUnit(const std::string &unit, bool on)
{
    if (m_state.device.rules.unit(unit) == on && m_state.device.rules.units.count(unit))
        return;
    NnmeterState next = m_state;
    next.device.rules.units[unit] = on;
    commit(next, QString(), true, tr("%1 unit %2").arg(on ? tr("Use") : tr("Drop"), QString::fromStdString(unit)));
}

void NnmeterDocument::resetRules()
{
    if (m_state.device.rules == m_state.loadedDevice.rules)
        return;
    NnmeterState next = m_state;
    next.device.rules = m_state.loadedDevice.rules;
    commit(next, QString(), true, tr("Reset the fusion rules"));
}

bool NnmeterDocument::setNumber(const std::string &pointer, double value)
{
    if (!std::isfinite(value))
        return false;
    Device device = m_state.device;
    Diagnostics d;
    if (!applyOverride(device, pointer + "=" + QString::number(value, 'g', 17).toStdString(), d))
        return false;
    if (device == m_state.device)
        return true;
    NnmeterState next = m_state;
    next.device = std::move(device);
    commit(next, QString::fromStdString(pointer), false, tr("Set %1").arg(QString::fromStdString(pointer)));
    return true;
}

void NnmeterDocument::setOverridden(const Device &device, const QString &assignment)
{
    NnmeterState next = m_state;
    const bool structural = !(device.rules == m_state.device.rules);
    next.device = device;
    commit(next, QString(), structural, tr("Set %1").arg(assignment));
}

void NnmeterDocument::beginDrag()
{
    m_history.beginDrag();
}

void NnmeterDocument::endDrag()
{
    m_history.endDrag();
}

// ---------------------------------------------------------------- snapshots

int NnmeterDocument::pinSnapshot(const QString &name)
{
    const int index = snapshots::pin(m_snapshots, Snapshot{snapshots::newName(name, m_snapshots.size()), m_state}, m_compared);
    emit snapshotsChanged();
    emit structureChanged(); // the comparison appears
    return index;
}

void NnmeterDocument::renameSnapshot(int index, const QString &name)
{
    if (snapshots::rename(m_snapshots, index, name))
        emit snapshotsChanged();
}

void NnmeterDocument::removeSnapshot(int index)
{
    if (!snapshots::remove(m_snapshots, index, m_compared))
        return;
    emit snapshotsChanged();
    emit structureChanged();
}

void NnmeterDocument::restoreSnapshot(int index)
{
    if (!snapshots::valid(m_snapshots, index))
        return;
    const Snapshot &s = m_snapshots[std::size_t(index)];
    commit(s.state, QString(), true, tr("Restore snapshot \"%1\"").arg(s.name));
}

void NnmeterDocument::setComparedSnapshot(int index)
{
    const int next = snapshots::valid(m_snapshots, index) ? index : -1;
    if (next == m_compared)
        return;
    m_compared = next;
    emit snapshotsChanged();
    emit structureChanged();
}

// ---------------------------------------------------------------- sessions

namespace {

QJsonObject stateToQt(const NnmeterState &s)
{
    QJsonObject o;
    if (s.network)
        o[QStringLiteral("network")] = QJsonDocument::fromJson(QByteArray::fromStdString(network::serialize(*s.network))).object();
    o[QStringLiteral("network_file")] = s.networkPath;
    o[QStringLiteral("device_file")] = s.devicePath;
    if (!s.rulesPath.isEmpty())
        o[QStringLiteral("rules_file")] = s.rulesPath;
    o[QStringLiteral("numbers")] = numbersToQt(s.device);
    o[QStringLiteral("rules")] = QJsonDocument::fromJson(QByteArray::fromStdString(serializeRules(s.device.rules))).object();
    if (s.measured) {
        o[QStringLiteral("measured_csv")] = QString::fromStdString(serializeMeasuredLatencies(*s.measured));
        o[QStringLiteral("measured_file")] = s.measuredPath;
    }
    if (s.kernelsMeasured) {
        o[QStringLiteral("kernels_csv")] = QString::fromStdString(serializeKernelLatencies(*s.kernelsMeasured));
        o[QStringLiteral("kernels_file")] = s.kernelsMeasuredPath;
    }
    return o;
}

std::optional<NnmeterState> stateFromQt(const QJsonObject &o, const QString &file, const QString &where, QString *error)
{
    auto fail = [&](const QString &pointer, const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: %2/%3: %4").arg(file, where, pointer, reason);
        return std::nullopt;
    };
    auto label = [&](const QString &pointer) { return QStringLiteral("%1 (%2/%3)").arg(file, where, pointer).toStdString(); };
    NnmeterState s;
    const QJsonValue net = o.value(QStringLiteral("network"));
    if (!net.isObject())
        return fail(QStringLiteral("network"), QStringLiteral("required object is missing"));
    network::NetworkLoad loaded = network::parseNetwork(QJsonDocument(net.toObject()).toJson().toStdString(), label(QStringLiteral("network")));
    if (!loaded.network) {
        if (error)
            *error = errorLinesOf(loaded.diagnostics);
        return std::nullopt;
    }
    s.network = std::make_shared<const network::Network>(std::move(*loaded.network));
    s.networkPath = o.value(QStringLiteral("network_file")).toString();

    s.devicePath = o.value(QStringLiteral("device_file")).toString();
    if (s.devicePath.isEmpty())
        return fail(QStringLiteral("device_file"), QStringLiteral("expected the device file's path"));
    DeviceLoad device = loadDeviceThroughQt(s.devicePath);
    if (!device.device)
        return fail(QStringLiteral("device_file"), errorLinesOf(device.diagnostics));
    s.loadedDevice = *device.device;
    s.rulesPath = o.value(QStringLiteral("rules_file")).toString();
    if (!s.rulesPath.isEmpty()) {
        QString reason;
        const std::optional<FusionRules> rules = readRules(s.rulesPath, &reason, nullptr);
        if (!rules)
            return fail(QStringLiteral("rules_file"), reason);
        s.loadedDevice.rules = *rules;
    }
    s.device = s.loadedDevice;
    const QJsonValue numbers = o.value(QStringLiteral("numbers"));
    if (!numbers.isUndefined() && !numbers.isObject())
        return fail(QStringLiteral("numbers"), QStringLiteral("expected an object of device numbers by JSON pointer"));
    const QJsonObject numberObject = numbers.toObject();
    for (auto it = numberObject.begin(); it != numberObject.end(); ++it) {
        Diagnostics d;
        // The key is itself a JSON pointer ("/peak_gflops"): escaped as one token of the message's pointer (RFC 6901).
        const QString at = QStringLiteral("numbers/") + QString::fromStdString(jsonPointerToken(it.key().toStdString()));
        if (!it.value().isDouble())
            return fail(at, QStringLiteral("expected a number"));
        if (!applyOverride(s.device, (it.key() + QLatin1Char('=') + QString::number(it.value().toDouble(), 'g', 17)).toStdString(), d))
            return fail(at, errorLinesOf(d));
    }
    const QJsonValue rules = o.value(QStringLiteral("rules"));
    if (rules.isObject()) {
        RulesLoad r = parseRules(QJsonDocument(rules.toObject()).toJson().toStdString(), label(QStringLiteral("rules")));
        if (!r.rules) {
            if (error)
                *error = errorLinesOf(r.diagnostics);
            return std::nullopt;
        }
        s.device.rules = *r.rules;
    } else if (!rules.isUndefined()) {
        return fail(QStringLiteral("rules"), QStringLiteral("expected a fusion-rules object"));
    }
    const QJsonValue measured = o.value(QStringLiteral("measured_csv"));
    if (measured.isString()) {
        MeasuredLoad m = parseMeasuredLatencies(measured.toString().toStdString(), label(QStringLiteral("measured_csv")));
        if (!m.rows) {
            if (error)
                *error = errorLinesOf(m.diagnostics);
            return std::nullopt;
        }
        s.measured = std::make_shared<const std::vector<MeasuredLatency>>(std::move(*m.rows));
        s.measuredPath = o.value(QStringLiteral("measured_file")).toString();
    } else if (!measured.isUndefined()) {
        return fail(QStringLiteral("measured_csv"), QStringLiteral("expected the measured latencies as CSV text"));
    }
    const QJsonValue kernels = o.value(QStringLiteral("kernels_csv"));
    if (kernels.isString()) {
        KernelLatencyLoad k = parseKernelLatencies(kernels.toString().toStdString(), label(QStringLiteral("kernels_csv")));
        if (!k.rows) {
            if (error)
                *error = errorLinesOf(k.diagnostics);
            return std::nullopt;
        }
        s.kernelsMeasured = std::make_shared<const std::vector<KernelLatency>>(std::move(*k.rows));
        s.kernelsMeasuredPath = o.value(QStringLiteral("kernels_file")).toString();
    } else if (!kernels.isUndefined()) {
        return fail(QStringLiteral("kernels_csv"), QStringLiteral("expected the per-kernel latencies as CSV text"));
    }
    return s;
}

} // namespace

QJsonObject NnmeterDocument::sessionState() const
{
    if (!hasModel())
        return {};
    QJsonObject state = stateToQt(m_state);
    QJsonArray snapshots;
    for (const Snapshot &snapshot : m_snapshots)
        snapshots.append(QJsonObject{{QStringLiteral("name"), snapshot.name}, {QStringLiteral("state"), stateToQt(snapshot.state)}});
    state[QStringLiteral("snapshots")] = snapshots;
    state[QStringLiteral("compared")] = m_compared;
    QJsonArray opened;
    for (const QString &path : m_openedFiles) {
        QJsonObject entry{{QStringLiteral("file"), path}};
        const InputShapes shapes = inputShapesFor(path);
        if (!shapes.empty()) {
            QJsonObject o;
            for (const auto &[name, dims] : shapes) {
                QJsonArray values;
                for (std::int64_t d : dims)
                    values.append(qint64(d));
                o[QString::fromStdString(name)] = values;
            }
            entry[QStringLiteral("input_shapes")] = o;
        }
        opened.append(entry);
    }
    state[QStringLiteral("opened")] = opened;
    state[QStringLiteral("modified")] = m_modified;
    return state;
}

bool NnmeterDocument::restoreSession(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    const QString where = QStringLiteral("/views/nnmeter");
    const std::optional<NnmeterState> current = stateFromQt(state, sessionFile, where, error);
    if (!current)
        return false;
    auto fail = [&](const QString &pointer, const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: %2/%3: %4").arg(sessionFile, where, pointer, reason);
        return false;
    };
    std::vector<Snapshot> snapshots;
    const QJsonValue list = state.value(QStringLiteral("snapshots"));
    if (!list.isUndefined() && !list.isArray())
        return fail(QStringLiteral("snapshots"), QStringLiteral("expected an array"));
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = QStringLiteral("snapshots/%1").arg(i);
        const QJsonObject entry = array[i].toObject();
        const QString name = entry.value(QStringLiteral("name")).toString().trimmed();
        if (name.isEmpty())
            return fail(at + QStringLiteral("/name"), QStringLiteral("expected a non-empty name"));
        if (!entry.value(QStringLiteral("state")).isObject())
            return fail(at + QStringLiteral("/state"), QStringLiteral("required object is missing"));
        const std::optional<NnmeterState> pinned =
            stateFromQt(entry.value(QStringLiteral("state")).toObject(), sessionFile, where + QLatin1Char('/') + at + QStringLiteral("/state"), error);
        if (!pinned)
            return false;
        snapshots.push_back({name, *pinned});
    }
    const QJsonValue comparedValue = state.value(QStringLiteral("compared"));
    const int compared = comparedValue.toInt(-1);
    if (!comparedValue.isUndefined() && (!comparedValue.isDouble() || compared < -1 || compared >= int(snapshots.size())))
        return fail(QStringLiteral("compared"), QStringLiteral("expected -1 or a snapshot index below %1").arg(snapshots.size()));
    QStringList opened;
    std::map<QString, InputShapes> shapes;
    const QJsonArray openedArray = state.value(QStringLiteral("opened")).toArray();
    for (qsizetype i = 0; i < openedArray.size(); ++i) {
        const QJsonObject entry = openedArray[i].toObject();
        const QString path = entry.value(QStringLiteral("file")).toString();
        if (path.isEmpty())
            return fail(QStringLiteral("opened/%1/file").arg(i), QStringLiteral("expected a file path"));
        opened << path;
        const QJsonObject given = entry.value(QStringLiteral("input_shapes")).toObject();
        for (auto it = given.begin(); it != given.end(); ++it) {
            std::vector<std::int64_t> dims;
            for (const QJsonValue &v : it.value().toArray()) {
                if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > 999999999 || v.toDouble() != std::floor(v.toDouble()))
                    return fail(QStringLiteral("opened/%1/input_shapes/%2").arg(i).arg(it.key()),
                                QStringLiteral("expected whole numbers from 1 to 999999999"));
                dims.push_back(std::int64_t(v.toDouble()));
            }
            shapes[path][it.key().toStdString()] = dims;
        }
    }

    // Everything checked: now change.
    m_state = *current;
    m_history.reset(m_state);
    m_networks.clear();
    if (m_state.network && !m_state.networkPath.isEmpty())
        m_networks[m_state.networkPath] = m_state.network;
    for (const Snapshot &snapshot : snapshots)
        if (snapshot.state.network && !snapshot.state.networkPath.isEmpty())
            m_networks.emplace(snapshot.state.networkPath, snapshot.state.network);
    m_snapshots = std::move(snapshots);
    m_compared = compared;
    m_openedFiles = opened;
    m_inputShapes = std::move(shapes);
    setModified(state.value(QStringLiteral("modified")).toBool(false));
    emit openedFilesChanged();
    emit snapshotsChanged();
    emit structureChanged();
    emit filePathChanged();
    return true;
}

} // namespace studio
