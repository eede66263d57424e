#include "gablesdocument.h"

#include "diagnosticstext.h"
#include "snapshotlist.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include "plotexport.h"
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <optional>

namespace studio {

using namespace roofline;
using namespace roofline::gables;

namespace {
bool isRate(double v) { return std::isfinite(v) && v > 0 && v <= Limits::maxRate; }
} // namespace

GablesDocument::GablesDocument(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
    , m_history(m_undoStack, [this](const Soc &soc, bool structural) { restore(soc, structural); })
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &GablesDocument::updateModified);
}

bool GablesDocument::isLocked(int ip) const
{
    return ip >= 0 && std::size_t(ip) < m_locked.size() && m_locked[std::size_t(ip)];
}

void GablesDocument::setSoc(const Soc &soc, const QString &filePath)
{
    m_soc = soc;
    m_locked.assign(m_soc.ips.size(), false);
    if (m_filePath != filePath) {
        m_filePath = filePath;
        emit filePathChanged(m_filePath);
    }
    record(QString(), true, tr("Replace the model"));
    emit structureChanged();
}

bool GablesDocument::load(const QString &path, QString *error, QStringList *warnings)
{
    // Read through Qt so resource paths (":/examples/...") work too.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open the file for reading: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    const LoadResult loaded = parseSoc(bytes.toStdString(), path.toStdString());
    if (!loaded.soc) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    // Opening is a step of its own: undo returns to the previous model.
    m_soc = *loaded.soc;
    m_locked.assign(m_soc.ips.size(), false);
    m_filePath = path;
    emit filePathChanged(m_filePath);
    record(QString(), true, tr("Open %1").arg(QFileInfo(path).fileName()));
    m_undoStack->setClean();
    emit structureChanged();
    return true;
}

bool GablesDocument::save(const QString &path, QString *error)
{
    // Atomic (plotexport.h): a failed write never leaves half a file.
    if (!saveFileAtomically(path, QByteArray::fromStdString(serialize(m_soc)), error))
        return false;
    m_filePath = path;
    emit filePathChanged(m_filePath);
    setModified(false);
    return true;
}

void GablesDocument::setModified(bool modified)
{
    if (!modified)
        m_undoStack->setClean();
    else if (m_undoStack->isClean())
        m_undoStack->resetClean(); // no undo step leads back to the saved state
    updateModified();
}

void GablesDocument::updateModified()
{
    const bool modified = !m_undoStack->isClean();
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

QString GablesDocument::ipName(int ip) const
{
    return validIp(ip) ? QString::fromStdString(m_soc.ips[std::size_t(ip)].name) : QString();
}

void GablesDocument::record(const QString &key, bool structural, const QString &text)
{
    m_history.record(m_soc, key, structural, text);
}

void GablesDocument::restore(const Soc &soc, bool structural)
{
    const bool sameIps = soc.ips.size() == m_soc.ips.size();
    m_soc = soc;
    m_history.setCommitted(soc);
    m_locked.resize(m_soc.ips.size(), false);
    if (structural || !sameIps)
        emit structureChanged();
    else
        emit valuesChanged();
}

void GablesDocument::beginDrag()
{
    m_history.beginDrag();
}

void GablesDocument::endDrag()
{
    m_history.endDrag();
}

void GablesDocument::touchValues(const QString &key, const QString &text)
{
    record(key, false, text);
    emit valuesChanged();
}

void GablesDocument::touchValue(const QString &key, const QString &label, double from, double to, const QString &unit)
{
    m_history.recordValue(m_soc, key, label, from, to, unit);
    emit valuesChanged();
}

void GablesDocument::touchStructure(const QString &text)
{
    record(QString(), true, text);
    emit structureChanged();
}

void GablesDocument::setPpeak(double gops)
{
    if (!isRate(gops) || gops == m_soc.ppeakGops)
        return;
    const double from = m_soc.ppeakGops;
    m_soc.ppeakGops = gops;
    touchValue(QStringLiteral("ppeak"), tr("Ppeak"), from, gops, QStringLiteral("Gops/s"));
}

void GablesDocument::setBpeak(double gbps)
{
    if (!isRate(gbps) || gbps == m_soc.bpeakGBps)
        return;
    const double from = m_soc.bpeakGBps;
    m_soc.bpeakGBps = gbps;
    touchValue(QStringLiteral("bpeak"), tr("Bpeak"), from, gbps, QStringLiteral("GB/s"));
}

void GablesDocument::setAcceleration(int ip, double value)
{
    if (!validIp(ip) || !std::isfinite(value) || value <= 0 || value > Limits::maxAcceleration)
        return;
    const double from = m_soc.ips[std::size_t(ip)].acceleration;
    m_soc.ips[std::size_t(ip)].acceleration = value;
    touchValue(QStringLiteral("ip/%1/A").arg(ip), tr("%1 A").arg(ipName(ip)), from, value, QString());
}

void GablesDocument::setBandwidth(int ip, double gbps)
{
    if (!validIp(ip) || !isRate(gbps))
        return;
    const double from = m_soc.ips[std::size_t(ip)].bandwidthGBps;
    m_soc.ips[std::size_t(ip)].bandwidthGBps = gbps;
    touchValue(QStringLiteral("ip/%1/B").arg(ip), tr("%1 B").arg(ipName(ip)), from, gbps, QStringLiteral("GB/s"));
}

void GablesDocument::setIntensity(int ip, double opsPerByte)
{
    if (!validIp(ip) || !std::isfinite(opsPerByte) || opsPerByte <= 0 || opsPerByte > Limits::maxIntensity)
        return;
    const double from = m_soc.ips[std::size_t(ip)].intensity;
    m_soc.ips[std::size_t(ip)].intensity = opsPerByte;
    touchValue(QStringLiteral("ip/%1/I").arg(ip), tr("%1 I").arg(ipName(ip)), from, opsPerByte, QStringLiteral("ops/byte"));
}

void GablesDocument::setFraction(int ip, double fraction)
{
    if (!validIp(ip) || !std::isfinite(fraction))
        return;
    const double from = m_soc.ips[std::size_t(ip)].fraction;
    gables::setFraction(m_soc.ips, std::size_t(ip), fraction, m_locked);
    touchValue(QStringLiteral("ip/%1/f").arg(ip), tr("%1 f").arg(ipName(ip)), from, m_soc.ips[std::size_t(ip)].fraction,
               QString());
}

void GablesDocument::setLocked(int ip, bool locked)
{
    if (!validIp(ip))
        return;
    m_locked.resize(m_soc.ips.size(), false);
    m_locked[std::size_t(ip)] = locked;
}

void GablesDocument::setSerialized(bool serialized)
{
    if (m_soc.serialized == serialized)
        return;
    m_soc.serialized = serialized;
    touchValues(QStringLiteral("serialized"), serialized ? tr("Serialize work") : tr("Run IPs concurrently"));
}

void GablesDocument::setMemorySideMemory(bool enabled)
{
    if (m_soc.memorySideMemory == enabled)
        return;
    m_soc.memorySideMemory = enabled;
    touchStructure(enabled ? tr("Add memory-side memory") : tr("Remove memory-side memory"));
}

void GablesDocument::setMsmBandwidth(double gbps)
{
    if (!std::isfinite(gbps) || gbps < 0 || gbps > Limits::maxRate || gbps == m_soc.msmBandwidthGBps)
        return;
    const double from = m_soc.msmBandwidthGBps;
    m_soc.msmBandwidthGBps = gbps;
    touchValue(QStringLiteral("msm"), tr("Memory-side memory bandwidth"), from, gbps, QStringLiteral("GB/s"));
}

void GablesDocument::setMissRatio(int ip, double missRatio)
{
    if (!validIp(ip) || !std::isfinite(missRatio) || missRatio < 0 || missRatio > 1)
        return;
    const double from = m_soc.ips[std::size_t(ip)].missRatio;
    m_soc.ips[std::size_t(ip)].missRatio = missRatio;
    touchValue(QStringLiteral("ip/%1/m").arg(ip), tr("%1 miss ratio").arg(ipName(ip)), from, missRatio, QString());
}

int GablesDocument::addBus()
{
    Bus bus;
    for (std::size_t n = m_soc.buses.size() + 1;; ++n) {
        bus.name = "Bus " + std::to_string(n);
        if (std::none_of(m_soc.buses.begin(), m_soc.buses.end(), [&](const Bus &b) { return b.name == bus.name; }))
            break;
    }
    bus.bandwidthGBps = m_soc.bpeakGBps;
    m_soc.buses.push_back(bus);
    touchStructure(tr("Add bus"));
    return int(m_soc.buses.size()) - 1;
}

void GablesDocument::removeBus(int bus)
{
    if (bus < 0 || std::size_t(bus) >= m_soc.buses.size())
        return;
    const std::string name = m_soc.buses[std::size_t(bus)].name;
    m_soc.buses.erase(m_soc.buses.begin() + bus);
    for (Ip &ip : m_soc.ips)
        ip.buses.erase(std::remove(ip.buses.begin(), ip.buses.end(), name), ip.buses.end());
    touchStructure(tr("Remove bus %1").arg(QString::fromStdString(name)));
}

void GablesDocument::setBusBandwidth(int bus, double gbps)
{
    if (bus < 0 || std::size_t(bus) >= m_soc.buses.size() || !isRate(gbps))
        return;
    const double from = m_soc.buses[std::size_t(bus)].bandwidthGBps;
    m_soc.buses[std::size_t(bus)].bandwidthGBps = gbps;
    touchValue(QStringLiteral("bus/%1").arg(bus),
               tr("Bus %1 bandwidth").arg(QString::fromStdString(m_soc.buses[std::size_t(bus)].name)), from, gbps,
               QStringLiteral("GB/s"));
}

void GablesDocument::setIpOnBus(int ip, int bus, bool on)
{
    if (!validIp(ip) || bus < 0 || std::size_t(bus) >= m_soc.buses.size())
        return;
    auto &list = m_soc.ips[std::size_t(ip)].buses;
    const std::string &name = m_soc.buses[std::size_t(bus)].name;
    const bool present = std::find(list.begin(), list.end(), name) != list.end();
    if (present == on)
        return;
    if (on)
        list.push_back(name);
    else
        list.erase(std::remove(list.begin(), list.end(), name), list.end());
    touchValues(QStringLiteral("ip/%1/bus/%2").arg(ip).arg(bus), tr("Change buses of %1").arg(ipName(ip)));
}

int GablesDocument::pinSnapshot(const QString &name)
{
    const int index = snapshots::pin(m_snapshots, {snapshots::newName(name, m_snapshots.size()), m_soc}, m_compared);
    emit snapshotsChanged();
    emit valuesChanged();
    return index;
}

void GablesDocument::renameSnapshot(int index, const QString &name)
{
    if (!snapshots::rename(m_snapshots, index, name))
        return;
    emit snapshotsChanged();
    emit valuesChanged();
}

void GablesDocument::removeSnapshot(int index)
{
    if (!snapshots::remove(m_snapshots, index, m_compared))
        return;
    emit snapshotsChanged();
    emit valuesChanged();
}

void GablesDocument::restoreSnapshot(int index)
{
    if (index < 0 || std::size_t(index) >= m_snapshots.size())
        return;
    m_soc = m_snapshots[std::size_t(index)].soc;
    m_locked.assign(m_soc.ips.size(), false);
    record(QString(), true, tr("Restore snapshot %1").arg(m_snapshots[std::size_t(index)].name));
    emit structureChanged();
}

void GablesDocument::setComparedSnapshot(int index)
{
    if (index >= int(m_snapshots.size()) || index < -1 || index == m_compared)
        return;
    m_compared = index;
    emit snapshotsChanged();
    emit valuesChanged();
}

namespace {
QJsonObject toQt(const Soc &soc)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(serialize(soc))).object();
}

// Parses one embedded model strictly; on failure `error` names label, pointer and reason.
std::optional<Soc> fromQt(const QJsonValue &value, const QString &label, const QString &where, QString *error)
{
    const LoadResult loaded = parseSoc(QJsonDocument(value.toObject()).toJson().toStdString(),
                                       (label + QStringLiteral(" ") + where).toStdString());
    if (!loaded.soc && error)
        *error = errorsOf(loaded.diagnostics);
    return loaded.soc;
}
} // namespace

QJsonObject GablesDocument::sessionState() const
{
    QJsonObject state;
    state[QStringLiteral("model")] = toQt(m_soc);
    state[QStringLiteral("file")] = m_filePath;
    state[QStringLiteral("modified")] = m_modified;
    QJsonArray locks;
    for (bool locked : m_locked)
        locks.append(locked);
    state[QStringLiteral("locks")] = locks;
    QJsonArray snapshots;
    for (const Snapshot &snapshot : m_snapshots)
        snapshots.append(QJsonObject{{QStringLiteral("name"), snapshot.name}, {QStringLiteral("model"), toQt(snapshot.soc)}});
    state[QStringLiteral("snapshots")] = snapshots;
    state[QStringLiteral("compared")] = m_compared;
    return state;
}

bool GablesDocument::restoreSession(const QJsonObject &state, const QString &label, QString *error)
{
    if (!state.value(QStringLiteral("model")).isObject()) {
        if (error)
            *error = tr("%1: /views/gables/model: required object is missing").arg(label);
        return false;
    }
    const std::optional<Soc> soc = fromQt(state.value(QStringLiteral("model")), label, QStringLiteral("(/views/gables/model)"), error);
    if (!soc)
        return false;
    std::vector<Snapshot> snapshots;
    const QJsonArray list = state.value(QStringLiteral("snapshots")).toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject entry = list[i].toObject();
        const std::optional<Soc> pinned = fromQt(entry.value(QStringLiteral("model")), label,
                                                 QStringLiteral("(/views/gables/snapshots/%1/model)").arg(i), error);
        if (!pinned)
            return false;
        snapshots.push_back({entry.value(QStringLiteral("name")).toString(tr("snapshot %1").arg(i + 1)), *pinned});
    }
    const int compared = state.value(QStringLiteral("compared")).toInt(-1);

    // Everything parsed: now change the document.
    m_soc = *soc;
    m_locked.assign(m_soc.ips.size(), false);
    const QJsonArray locks = state.value(QStringLiteral("locks")).toArray();
    for (qsizetype i = 0; i < locks.size() && std::size_t(i) < m_locked.size(); ++i)
        m_locked[std::size_t(i)] = locks[i].toBool();
    m_snapshots = std::move(snapshots);
    m_compared = compared >= 0 && compared < int(m_snapshots.size()) ? compared : -1;
    m_filePath = state.value(QStringLiteral("file")).toString();
    m_history.reset(m_soc);
    setModified(state.value(QStringLiteral("modified")).toBool());
    emit filePathChanged(m_filePath);
    emit snapshotsChanged();
    emit structureChanged();
    return true;
}

int GablesDocument::addIp()
{
    if (m_soc.ips.size() >= kMaxIps)
        return -1;
    Ip ip;
    ip.name = uniqueIpName(m_soc);
    ip.acceleration = 1;
    ip.bandwidthGBps = m_soc.bpeakGBps;
    ip.fraction = 0; // no work until the user gives it some
    ip.intensity = 1;
    m_soc.ips.push_back(ip);
    m_locked.resize(m_soc.ips.size(), false);
    touchStructure(tr("Add IP"));
    return int(m_soc.ips.size()) - 1;
}

void GablesDocument::removeIp(int ip)
{
    if (!validIp(ip) || m_soc.ips.size() <= 1)
        return; // the model needs at least one IP
    gables::removeIp(m_soc, std::size_t(ip));
    m_locked.erase(m_locked.begin() + ip);
    touchStructure(tr("Remove IP"));
}

bool GablesDocument::renameIp(int ip, const QString &name, QString *error)
{
    if (!validIp(ip))
        return false;
    const std::string trimmed = name.trimmed().toStdString();
    QString reason;
    if (trimmed.empty())
        reason = QStringLiteral("an IP name must not be empty");
    else if (trimmed.size() > Limits::maxNameLength)
        reason = QStringLiteral("an IP name must be at most %1 characters").arg(Limits::maxNameLength);
    for (std::size_t i = 0; reason.isEmpty() && i < m_soc.ips.size(); ++i) {
        if (int(i) != ip && m_soc.ips[i].name == trimmed)
            reason = QStringLiteral("another IP is already named \"%1\"").arg(name.trimmed());
    }
    if (!reason.isEmpty()) {
        if (error)
            *error = reason;
        return false;
    }
    if (m_soc.ips[std::size_t(ip)].name == trimmed)
        return true;
    m_soc.ips[std::size_t(ip)].name = trimmed;
    touchStructure(tr("Rename IP to %1").arg(name.trimmed()));
    return true;
}

void GablesDocument::setColor(int ip, const QString &color)
{
    if (!validIp(ip))
        return;
    m_soc.ips[std::size_t(ip)].color = color.toStdString();
    touchStructure(tr("Recolour %1").arg(ipName(ip)));
}

} // namespace studio
