#include "amaixdocument.h"

#include "amaix/sensitivity.h"
#include "diagnosticstext.h"
#include "modelview.h"
#include "snapshotlist.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include "plotexport.h"
#include <QUndoStack>

#include <cmath>
#include <map>
#include <tuple>

namespace studio {

using namespace roofline;
using namespace roofline::amaix;

namespace {

// Measured times whose every layer is in `network` (or is "total"); an error names the line.
bool checkMeasured(const std::vector<MeasuredTime> &times, const Network &network, const QString &label, QString *error)
{
    for (const MeasuredTime &m : times) {
        if (m.layer != "total" && network.indexOf(m.layer) < 0) {
            if (error)
                *error = QStringLiteral("%1: line %2: layer \"%3\" is not in the network \"%4\"")
                             .arg(label)
                             .arg(m.line)
                             .arg(QString::fromStdString(m.layer), QString::fromStdString(network.name));
            return false;
        }
    }
    return true;
}

QString fileName(const QString &path)
{
    return QFileInfo(path).fileName();
}

} // namespace

AmaixDocument::AmaixDocument(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
    , m_history(m_undoStack, [this](const AmaixState &state, bool structural) { show(state, structural); })
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &AmaixDocument::updateModified);
}

const Network &AmaixDocument::network() const
{
    static const Network none;
    return m_state.network ? *m_state.network : none;
}

void AmaixDocument::commit(const AmaixState &next, const QString &key, bool structural, const QString &text)
{
    const bool pathsChanged = next.networkPath != m_state.networkPath || next.acceleratorPath != m_state.acceleratorPath;
    m_state = next;
    m_history.record(m_state, key, structural, text);
    if (pathsChanged)
        emit filePathChanged();
    if (structural)
        emit structureChanged();
    else
        emit valuesChanged();
}

void AmaixDocument::show(const AmaixState &state, bool structural)
{
    // Undo and redo: the same controls unless the network, the data type or the
    // scaling model differ (then the panel rebuilds).
    const bool pathsChanged = state.networkPath != m_state.networkPath || state.acceleratorPath != m_state.acceleratorPath;
    structural = structural || state.network != m_state.network || state.options.dataType != m_state.options.dataType
        || state.accelerator.scaling != m_state.accelerator.scaling || state.measured != m_state.measured;
    m_state = state;
    m_history.setCommitted(state);
    if (pathsChanged)
        emit filePathChanged();
    if (structural)
        emit structureChanged();
    else
        emit valuesChanged();
}

void AmaixDocument::setNetwork(const Network &network, const QString &path)
{
    AmaixState next = m_state;
    next.network = std::make_shared<const Network>(network);
    next.networkText.reset();
    next.networkPath = path;
    next.measured.reset(); // measured times belong to the old network's layers
    next.measuredText.reset();
    next.measuredPath.clear();
    commit(next, QString(), true, tr("Replace the network"));
}

void AmaixDocument::setAccelerator(const Accelerator &accelerator, const QString &path)
{
    AmaixState next = m_state;
    next.accelerator = accelerator;
    next.loadedAccelerator = accelerator;
    next.acceleratorPath = path;
    if (!next.options.dataType.empty() && !accelerator.dataType(next.options.dataType))
        next.options.dataType.clear(); // the new accelerator does not know it
    commit(next, QString(), true, tr("Replace the accelerator"));
}

void AmaixDocument::resetAccelerator()
{
    if (m_state.accelerator == m_state.loadedAccelerator)
        return;
    AmaixState next = m_state;
    next.accelerator = next.loadedAccelerator;
    if (!next.options.dataType.empty() && !next.accelerator.dataType(next.options.dataType))
        next.options.dataType.clear();
    commit(next, QString(), true, tr("Reset the accelerator"));
}

bool AmaixDocument::loadNetwork(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    if (!readTextFile(path, &text, error))
        return false;
    const NetworkLoad loaded = parseNetwork(text, path.toStdString());
    if (!loaded.network) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    const bool wasClean = m_undoStack->isClean();
    AmaixState next = m_state;
    next.network = std::make_shared<const Network>(*loaded.network);
    next.networkText = std::make_shared<const std::string>(std::move(text));
    next.networkPath = path;
    if (next.measured && !checkMeasured(*next.measured, *next.network, next.measuredPath, nullptr)) {
        next.measured.reset(); // measured on another network
        next.measuredText.reset();
        next.measuredPath.clear();
    }
    commit(next, QString(), true, tr("Open network %1").arg(fileName(path)));
    if (wasClean)
        m_undoStack->setClean(); // the accelerator still matches its file
    return true;
}

void AmaixDocument::setImportedNetwork(const Network &network, const QString &path,
                                       const std::map<std::string, std::vector<std::int64_t>> &inputShapes)
{
    if (!m_importedFiles.contains(path)) {
        m_importedFiles.append(path);
        emit importedFilesChanged();
    }
    if (inputShapes.empty())
        m_inputShapes.erase(path);
    else
        m_inputShapes[path] = inputShapes;
    const bool wasClean = m_undoStack->isClean();
    AmaixState next = m_state;
    next.network = std::make_shared<const Network>(network);
    next.networkText = std::make_shared<const std::string>(roofline::network::serialize(network)); // our JSON
    next.networkPath = path;
    if (next.measured && !checkMeasured(*next.measured, *next.network, next.measuredPath, nullptr)) {
        next.measured.reset();
        next.measuredText.reset();
        next.measuredPath.clear();
    }
    commit(next, QString(), true, tr("Import network %1").arg(fileName(path)));
    if (wasClean)
        m_undoStack->setClean(); // the accelerator still matches its file
}

std::map<std::string, std::vector<std::int64_t>> AmaixDocument::inputShapesFor(const QString &path) const
{
    const auto it = m_inputShapes.find(path);
    return it == m_inputShapes.end() ? std::map<std::string, std::vector<std::int64_t>>{} : it->second;
}

bool AmaixDocument::loadAccelerator(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    if (!readTextFile(path, &text, error))
        return false;
    const AcceleratorLoad loaded = parseAccelerator(text, path.toStdString());
    if (!loaded.accelerator) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    AmaixState next = m_state;
    next.accelerator = *loaded.accelerator;
    next.loadedAccelerator = *loaded.accelerator;
    next.acceleratorPath = path;
    if (!next.options.dataType.empty() && !next.accelerator.dataType(next.options.dataType))
        next.options.dataType.clear();
    commit(next, QString(), true, tr("Open accelerator %1").arg(fileName(path)));
    m_undoStack->setClean(); // what is shown is the file
    return true;
}

bool AmaixDocument::loadMeasured(const QString &path, QString *error, QStringList *warnings)
{
    std::string text;
    if (!readTextFile(path, &text, error))
        return false;
    const MeasuredLoad loaded = parseMeasuredCsv(text, path.toStdString());
    if (!loaded.times) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    if (!checkMeasured(*loaded.times, network(), path, error))
        return false;
    appendWarnings(loaded.diagnostics, warnings);
    const bool wasClean = m_undoStack->isClean();
    AmaixState next = m_state;
    next.measured = std::make_shared<const std::vector<MeasuredTime>>(*loaded.times);
    next.measuredText = std::make_shared<const std::string>(std::move(text));
    next.measuredPath = path;
    commit(next, QString(), true, tr("Open measured times %1").arg(fileName(path)));
    if (wasClean)
        m_undoStack->setClean();
    return true;
}

bool AmaixDocument::saveAccelerator(const QString &path, QString *error)
{
    // Atomic (plotexport.h): a failed write never leaves half a file.
    if (!saveFileAtomically(path, QByteArray::fromStdString(serialize(m_state.accelerator)), error))
        return false;
    const bool pathChanged = m_state.acceleratorPath != path;
    // What is on disk now is the loaded accelerator; no undo step.
    m_state.acceleratorPath = path;
    m_state.loadedAccelerator = m_state.accelerator;
    m_history.setCommitted(m_state);
    setModified(false);
    if (pathChanged)
        emit filePathChanged();
    emit valuesChanged(); // the reset button
    return true;
}

bool AmaixDocument::setParameter(const Parameter &parameter, double value)
{
    if (!std::isfinite(value) || value <= 0 || value > Limits::maxBytes)
        return false;
    if (parameter.get(m_state.accelerator) == value)
        return true;
    AmaixState next = m_state;
    parameter.set(next.accelerator, value);
    Diagnostics diagnostics;
    validate(next.accelerator, diagnostics);
    if (diagnostics.hasErrors())
        return false;
    // The step names the number in words with its values: "Clock 1 → 1.5 GHz".
    QString label = QString::fromStdString(parameter.pointer);
    QString unit;
    for (const SettableParameter &info : settableParameters(m_state.accelerator, activeDataType(network(), m_state.accelerator, m_state.options))) {
        if (info.pointer == parameter.pointer) {
            label = QString::fromStdString(info.label);
            unit = QString::fromStdString(info.unit);
        }
    }
    const double from = parameter.get(m_state.accelerator);
    m_state = next;
    m_history.recordValue(m_state, QString::fromStdString(parameter.pointer), label, from, value, unit);
    emit valuesChanged();
    return true;
}

bool AmaixDocument::setParameters(const std::vector<std::pair<Parameter, double>> &values, const QString &text)
{
    AmaixState next = m_state;
    for (const auto &[parameter, value] : values) {
        if (!std::isfinite(value) || value <= 0 || value > Limits::maxBytes)
            return false;
        parameter.set(next.accelerator, value);
    }
    Diagnostics diagnostics;
    validate(next.accelerator, diagnostics);
    if (diagnostics.hasErrors())
        return false;
    if (!(next.accelerator == m_state.accelerator))
        commit(next, QString(), false, text);
    return true;
}

void AmaixDocument::setRefine(bool refine)
{
    if (m_state.options.refine == refine)
        return;
    AmaixState next = m_state;
    next.options.refine = refine;
    commit(next, QString(), false, refine ? tr("Divide and conquer on") : tr("Divide and conquer off"));
}

void AmaixDocument::setDataType(const QString &dataType)
{
    const std::string type = dataType.toStdString();
    if (m_state.options.dataType == type || (!type.empty() && !m_state.accelerator.dataType(type)))
        return;
    AmaixState next = m_state;
    next.options.dataType = type;
    commit(next, QString(), true, tr("Data type %1").arg(dataType.isEmpty() ? tr("default") : dataType));
}

bool AmaixDocument::setScaling(ScalingModel scaling, QString *error)
{
    if (m_state.accelerator.scaling == scaling)
        return true;
    Accelerator edited = m_state.accelerator;
    edited.scaling = scaling;
    if (scaling == ScalingModel::General) {
        // The MAC array keeps its peak: T_k·T_c of the default data type.
        const DataType *dt = edited.dataType(edited.defaultDataType);
        for (Unit &u : edited.units) {
            if (u.macArray && u.opsPerCycle <= 0 && dt)
                u.opsPerCycle = dt->tK * edited.nvdla.tC;
        }
    }
    Diagnostics diagnostics;
    validate(edited, diagnostics);
    if (scaling == ScalingModel::Nvdla) {
        bool hasMacArray = false;
        for (const Unit &u : edited.units)
            hasMacArray |= u.macArray;
        if (!hasMacArray)
            diagnostics.error("/units", "the nvdla model needs a unit with \"mac_array\": true");
        for (const DataType &dt : edited.dataTypes) {
            if (dt.tK <= 0)
                diagnostics.error("/data_types/" + dt.name + "/t_k", "the nvdla model needs t_k for every data type");
        }
    }
    if (diagnostics.hasErrors()) {
        if (error)
            *error = QStringLiteral("%1: cannot switch to the %2 model: %3")
                         .arg(QString::fromStdString(m_state.accelerator.name),
                              scaling == ScalingModel::Nvdla ? QStringLiteral("nvdla") : QStringLiteral("general"),
                              errorsOf(diagnostics));
        return false;
    }
    AmaixState next = m_state;
    next.accelerator = std::move(edited);
    commit(next, QString(), true,
           scaling == ScalingModel::Nvdla ? tr("Scaling model nvdla") : tr("Scaling model general"));
    return true;
}

void AmaixDocument::setOverridden(const amaix::Accelerator &accelerator, const QString &assignment)
{
    AmaixState next = m_state;
    next.accelerator = accelerator;
    commit(next, QString(), true, tr("Set %1").arg(assignment)); // slider ranges follow the new value
}

void AmaixDocument::beginDrag()
{
    m_history.beginDrag();
}

void AmaixDocument::endDrag()
{
    m_history.endDrag();
}

void AmaixDocument::resetHistory()
{
    m_history.reset(m_state);
    setModified(false);
}

void AmaixDocument::clear()
{
    m_state = AmaixState{};
    m_snapshots.clear();
    m_compared = -1;
    m_history.reset(m_state);
    setModified(false);
    emit snapshotsChanged();
    emit filePathChanged();
    emit structureChanged();
}

void AmaixDocument::setModified(bool modified)
{
    if (!modified)
        m_undoStack->setClean();
    else if (m_undoStack->isClean())
        m_undoStack->resetClean(); // no undo step leads back to the saved state
    updateModified();
}

void AmaixDocument::updateModified()
{
    const bool modified = !m_undoStack->isClean();
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

// --- Snapshots ---------------------------------------------------------------

int AmaixDocument::pinSnapshot(const QString &name)
{
    const int index = snapshots::pin(m_snapshots, {snapshots::newName(name, m_snapshots.size()), m_state}, m_compared);
    emit snapshotsChanged();
    emit valuesChanged();
    return index;
}

void AmaixDocument::renameSnapshot(int index, const QString &name)
{
    if (!snapshots::rename(m_snapshots, index, name))
        return;
    emit snapshotsChanged();
    emit valuesChanged();
}

void AmaixDocument::removeSnapshot(int index)
{
    if (!snapshots::remove(m_snapshots, index, m_compared))
        return;
    emit snapshotsChanged();
    emit valuesChanged();
}

void AmaixDocument::restoreSnapshot(int index)
{
    if (!validSnapshot(index))
        return;
    const Snapshot &snapshot = m_snapshots[std::size_t(index)];
    commit(snapshot.state, QString(), true, tr("Restore snapshot %1").arg(snapshot.name));
}

void AmaixDocument::setComparedSnapshot(int index)
{
    if (index == m_compared || index < -1 || index >= int(m_snapshots.size()))
        return;
    m_compared = index;
    emit snapshotsChanged();
    emit valuesChanged();
}

// --- Sessions ------------------------------------------------------------------

namespace {

QJsonObject accelToQt(const Accelerator &accelerator)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(serialize(accelerator))).object();
}

// What an accelerator file cannot say but an edited accelerator may hold: under
// the general model the NVDLA parameters (kept for a switch back), under nvdla
// a MAC array's ops/cycle from an earlier general model, and the sources of
// numbers the file does not write. Empty when the file alone restores the
// accelerator exactly (always for a loaded file).
QJsonObject acceleratorExtra(const Accelerator &a)
{
    const AcceleratorLoad back = parseAccelerator(serialize(a), std::string());
    if (back.accelerator && *back.accelerator == a)
        return {};
    QJsonObject sources;
    for (const auto &[pointer, source] : a.sources)
        sources[QString::fromStdString(pointer)] = QString::fromStdString(source);
    QJsonObject mac;
    for (const Unit &u : a.units) {
        if (u.macArray)
            mac[QString::fromStdString(u.name)] = u.opsPerCycle;
    }
    const NvdlaParams &n = a.nvdla;
    return {{QStringLiteral("sources"), sources},
            {QStringLiteral("mac_ops_per_cycle"), mac},
            {QStringLiteral("nvdla"), QJsonArray{n.tC, n.atomNvdla, n.atomAxi, n.cbufEntryBytes, n.cbufBanks, n.cbufBytes,
                                                 n.tiling, n.groupedAsDense}}};
}

// Applies acceleratorExtra(); a reason naming the field inside it, or empty.
QString applyAcceleratorExtra(const QJsonObject &extra, Accelerator &a)
{
    const QJsonObject sources = extra.value(QStringLiteral("sources")).toObject();
    std::map<std::string, std::string> kept;
    for (auto it = sources.begin(); it != sources.end(); ++it) {
        if (!it.value().isString())
            return QStringLiteral("sources/%1: expected a string").arg(it.key());
        kept[it.key().toStdString()] = it.value().toString().toStdString();
    }
    const QJsonObject mac = extra.value(QStringLiteral("mac_ops_per_cycle")).toObject();
    for (auto it = mac.begin(); it != mac.end(); ++it) {
        const int unit = a.unitIndex(it.key().toStdString());
        const double v = it.value().toDouble(-1);
        if (unit < 0 || !a.units[std::size_t(unit)].macArray)
            return QStringLiteral("mac_ops_per_cycle/%1: no MAC array unit of that name").arg(it.key());
        if (!std::isfinite(v) || v < 0 || v > Limits::maxRate)
            return QStringLiteral("mac_ops_per_cycle/%1: expected a number >= 0 and <= 1e+09").arg(it.key());
        if (a.scaling == ScalingModel::Nvdla) // under general the file has it
            a.units[std::size_t(unit)].opsPerCycle = v;
    }
    const QJsonArray n = extra.value(QStringLiteral("nvdla")).toArray();
    if (n.size() != 8)
        return QStringLiteral("nvdla: expected 6 numbers and 2 booleans");
    double values[6];
    for (qsizetype i = 0; i < 6; ++i) {
        values[i] = n[i].toDouble(-1);
        if (!std::isfinite(values[i]) || values[i] < 1 || values[i] > Limits::maxBytes)
            return QStringLiteral("nvdla/%1: expected a number >= 1").arg(i);
    }
    if (!n[6].isBool() || !n[7].isBool())
        return QStringLiteral("nvdla/6: expected true or false");
    if (a.scaling == ScalingModel::General) { // under nvdla the file has them
        NvdlaParams &p = a.nvdla;
        std::tie(p.tC, p.atomNvdla, p.atomAxi, p.cbufEntryBytes, p.cbufBanks, p.cbufBytes) =
            std::tie(values[0], values[1], values[2], values[3], values[4], values[5]);
        p.tiling = n[6].toBool();
        p.groupedAsDense = n[7].toBool();
    }
    a.sources = std::move(kept);
    return {};
}

// One state as JSON: the accelerator through the writer, the network and the
// measured CSV as their files' text (parsed JSON for the network).
QJsonObject stateToQt(const AmaixState &s)
{
    QJsonObject o;
    if (s.networkText)
        o[QStringLiteral("network")] = QJsonDocument::fromJson(QByteArray::fromStdString(*s.networkText)).object();
    o[QStringLiteral("network_file")] = s.networkPath;
    o[QStringLiteral("accelerator")] = accelToQt(s.accelerator);
    if (const QJsonObject extra = acceleratorExtra(s.accelerator); !extra.isEmpty())
        o[QStringLiteral("accelerator_extra")] = extra;
    if (!(s.loadedAccelerator == s.accelerator)) {
        o[QStringLiteral("loaded_accelerator")] = accelToQt(s.loadedAccelerator);
        if (const QJsonObject extra = acceleratorExtra(s.loadedAccelerator); !extra.isEmpty())
            o[QStringLiteral("loaded_accelerator_extra")] = extra;
    }
    o[QStringLiteral("accelerator_file")] = s.acceleratorPath;
    o[QStringLiteral("options")] = QJsonObject{{QStringLiteral("data_type"), QString::fromStdString(s.options.dataType)},
                                               {QStringLiteral("refine"), s.options.refine}};
    if (s.measuredText) {
        o[QStringLiteral("measured_csv")] = QString::fromStdString(*s.measuredText);
        o[QStringLiteral("measured_file")] = s.measuredPath;
    }
    return o;
}

// Parses one state strictly; `where` is its JSON pointer in the session file.
std::optional<AmaixState> stateFromQt(const QJsonObject &o, const QString &file, const QString &where, QString *error)
{
    auto fail = [&](const QString &pointer, const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: %2/%3: %4").arg(file, where, pointer, reason);
        return std::nullopt;
    };
    auto label = [&](const QString &pointer) {
        return QStringLiteral("%1 (%2/%3)").arg(file, where, pointer).toStdString();
    };
    AmaixState s;
    const QJsonValue networkValue = o.value(QStringLiteral("network"));
    if (networkValue.isObject()) {
        auto text = std::make_shared<const std::string>(QJsonDocument(networkValue.toObject()).toJson().toStdString());
        NetworkLoad loaded = parseNetwork(*text, label(QStringLiteral("network")));
        if (!loaded.network) {
            if (error)
                *error = errorsOf(loaded.diagnostics);
            return std::nullopt;
        }
        s.network = std::make_shared<const Network>(std::move(*loaded.network));
        s.networkText = std::move(text);
    } else if (!networkValue.isUndefined()) {
        return fail(QStringLiteral("network"), QStringLiteral("expected the network file's object"));
    }
    s.networkPath = o.value(QStringLiteral("network_file")).toString();
    if (!s.network) {
        // Not embedded (a network set in code): read it from its file.
        std::string text;
        QString readError;
        if (s.networkPath.isEmpty() || !readTextFile(s.networkPath, &text, &readError))
            return fail(QStringLiteral("network"), QStringLiteral("required object is missing"));
        NetworkLoad loaded = parseNetwork(text, s.networkPath.toStdString());
        if (!loaded.network) {
            if (error)
                *error = errorsOf(loaded.diagnostics);
            return std::nullopt;
        }
        s.network = std::make_shared<const Network>(std::move(*loaded.network));
        s.networkText = std::make_shared<const std::string>(std::move(text));
    }
    for (const char *key : {"accelerator", "loaded_accelerator"}) {
        const QString name = QString::fromLatin1(key);
        const QJsonValue value = o.value(name);
        if (value.isUndefined() && name == QLatin1String("loaded_accelerator")) {
            s.loadedAccelerator = s.accelerator;
            continue;
        }
        if (!value.isObject())
            return fail(name, QStringLiteral("required object is missing"));
        const AcceleratorLoad loaded = parseAccelerator(QJsonDocument(value.toObject()).toJson().toStdString(), label(name));
        if (!loaded.accelerator) {
            if (error)
                *error = errorsOf(loaded.diagnostics);
            return std::nullopt;
        }
        Accelerator &target = name == QLatin1String("accelerator") ? s.accelerator : s.loadedAccelerator;
        target = *loaded.accelerator;
        const QString extraKey = name + QStringLiteral("_extra");
        const QJsonValue extra = o.value(extraKey);
        if (extra.isUndefined())
            continue;
        if (!extra.isObject())
            return fail(extraKey, QStringLiteral("expected an object"));
        if (const QString reason = applyAcceleratorExtra(extra.toObject(), target); !reason.isEmpty())
            return fail(extraKey + QLatin1Char('/') + reason.section(QStringLiteral(": "), 0, 0),
                        reason.section(QStringLiteral(": "), 1));
    }
    s.acceleratorPath = o.value(QStringLiteral("accelerator_file")).toString();
    const QJsonValue optionsValue = o.value(QStringLiteral("options"));
    if (!optionsValue.isUndefined() && !optionsValue.isObject())
        return fail(QStringLiteral("options"), QStringLiteral("expected an object"));
    const QJsonObject options = optionsValue.toObject();
    const QJsonValue dataType = options.value(QStringLiteral("data_type"));
    if (!dataType.isUndefined() && !dataType.isString())
        return fail(QStringLiteral("options/data_type"), QStringLiteral("expected a string"));
    s.options.dataType = dataType.toString().toStdString();
    if (!s.options.dataType.empty() && !s.accelerator.dataType(s.options.dataType))
        return fail(QStringLiteral("options/data_type"),
                    QStringLiteral("the accelerator has no data type \"%1\"").arg(dataType.toString()));
    const QJsonValue refine = options.value(QStringLiteral("refine"));
    if (!refine.isUndefined() && !refine.isBool())
        return fail(QStringLiteral("options/refine"), QStringLiteral("expected true or false"));
    s.options.refine = refine.toBool();
    const QJsonValue csv = o.value(QStringLiteral("measured_csv"));
    if (csv.isString()) {
        auto text = std::make_shared<const std::string>(csv.toString().toStdString());
        const MeasuredLoad loaded = parseMeasuredCsv(*text, label(QStringLiteral("measured_csv")));
        if (!loaded.times) {
            if (error)
                *error = errorsOf(loaded.diagnostics);
            return std::nullopt;
        }
        if (!checkMeasured(*loaded.times, *s.network, QString::fromStdString(label(QStringLiteral("measured_csv"))), error))
            return std::nullopt;
        s.measured = std::make_shared<const std::vector<MeasuredTime>>(*loaded.times);
        s.measuredText = std::move(text);
        s.measuredPath = o.value(QStringLiteral("measured_file")).toString();
    } else if (!csv.isUndefined()) {
        return fail(QStringLiteral("measured_csv"), QStringLiteral("expected the CSV file's text"));
    }
    return s;
}

} // namespace

QJsonObject AmaixDocument::sessionState() const
{
    QJsonObject state = stateToQt(m_state);
    QJsonArray snapshots;
    for (const Snapshot &snapshot : m_snapshots)
        snapshots.append(QJsonObject{{QStringLiteral("name"), snapshot.name}, {QStringLiteral("state"), stateToQt(snapshot.state)}});
    state[QStringLiteral("snapshots")] = snapshots;
    QJsonArray imports; // files imported, with the input sizes given for them
    for (const QString &file : m_importedFiles) {
        QJsonObject shapes;
        for (const auto &[name, dims] : inputShapesFor(file)) {
            QJsonArray values;
            for (std::int64_t d : dims)
                values.append(qint64(d));
            shapes[QString::fromStdString(name)] = values;
        }
        imports.append(QJsonObject{{QStringLiteral("file"), file}, {QStringLiteral("input_shapes"), shapes}});
    }
    state[QStringLiteral("imports")] = imports;
    state[QStringLiteral("compared")] = m_compared;
    state[QStringLiteral("modified")] = m_modified;
    return state;
}

bool AmaixDocument::restoreSession(const QJsonObject &state, const QString &sessionFile, QString *error)
{
    const QString where = QStringLiteral("/views/amaix");
    const std::optional<AmaixState> current = stateFromQt(state, sessionFile, where, error);
    if (!current)
        return false;
    std::vector<Snapshot> snapshots;
    const QJsonValue list = state.value(QStringLiteral("snapshots"));
    if (!list.isUndefined() && !list.isArray()) {
        if (error)
            *error = tr("%1: %2/snapshots: expected an array").arg(sessionFile, where);
        return false;
    }
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = QStringLiteral("%1/snapshots/%2").arg(where).arg(i);
        const QJsonObject entry = array[i].toObject();
        const QString name = entry.value(QStringLiteral("name")).toString().trimmed();
        if (name.isEmpty()) {
            if (error)
                *error = tr("%1: %2/name: expected a non-empty name").arg(sessionFile, at);
            return false;
        }
        if (!entry.value(QStringLiteral("state")).isObject()) {
            if (error)
                *error = tr("%1: %2/state: required object is missing").arg(sessionFile, at);
            return false;
        }
        const std::optional<AmaixState> pinned =
            stateFromQt(entry.value(QStringLiteral("state")).toObject(), sessionFile, at + QStringLiteral("/state"), error);
        if (!pinned)
            return false;
        snapshots.push_back({name, *pinned});
    }
    const QJsonValue comparedValue = state.value(QStringLiteral("compared"));
    const int compared = comparedValue.toInt(-1);
    if (!comparedValue.isUndefined() && (!comparedValue.isDouble() || compared < -1 || compared >= int(snapshots.size()))) {
        if (error)
            *error = tr("%1: %2/compared: expected -1 or a snapshot index below %3").arg(sessionFile, where).arg(snapshots.size());
        return false;
    }

    QStringList importedFiles;
    std::map<QString, std::map<std::string, std::vector<std::int64_t>>> inputShapes;
    const QJsonValue importsValue = state.value(QStringLiteral("imports"));
    if (!importsValue.isUndefined() && !importsValue.isArray()) {
        if (error)
            *error = tr("%1: %2/imports: expected an array").arg(sessionFile, where);
        return false;
    }
    const QJsonArray imports = importsValue.toArray();
    for (qsizetype i = 0; i < imports.size(); ++i) {
        const QString at = QStringLiteral("%1/imports/%2").arg(where).arg(i);
        const QJsonObject entry = imports[i].toObject();
        const QString file = entry.value(QStringLiteral("file")).toString();
        if (file.isEmpty()) {
            if (error)
                *error = tr("%1: %2/file: expected the imported file's path").arg(sessionFile, at);
            return false;
        }
        const QJsonObject shapes = entry.value(QStringLiteral("input_shapes")).toObject();
        for (auto it = shapes.begin(); it != shapes.end(); ++it) {
            const QJsonArray values = it.value().toArray();
            std::vector<std::int64_t> dims;
            for (const QJsonValue &v : values) {
                const double d = v.toDouble(-1);
                if (!(d >= 1 && d <= 999999999) || d != std::floor(d)) {
                    if (error)
                        *error = tr("%1: %2/input_shapes/%3: expected whole numbers from 1 to 999999999")
                                     .arg(sessionFile, at, it.key());
                    return false;
                }
                dims.push_back(std::int64_t(d));
            }
            if (dims.empty() || dims.size() > 8) {
                if (error)
                    *error = tr("%1: %2/input_shapes/%3: expected 1 to 8 dimensions").arg(sessionFile, at, it.key());
                return false;
            }
            inputShapes[file][it.key().toStdString()] = std::move(dims);
        }
        if (!importedFiles.contains(file))
            importedFiles.append(file);
    }

    // Everything parsed: now change the document.
    m_importedFiles = std::move(importedFiles);
    m_inputShapes = std::move(inputShapes);
    emit importedFilesChanged();
    m_state = *current;
    m_snapshots = std::move(snapshots);
    m_compared = compared;
    m_history.reset(m_state);
    setModified(state.value(QStringLiteral("modified")).toBool());
    emit filePathChanged();
    emit snapshotsChanged();
    emit structureChanged();
    return true;
}

} // namespace studio
