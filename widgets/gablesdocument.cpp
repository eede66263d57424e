#include "gablesdocument.h"

#include <QFile>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::gables;

namespace {
bool isRate(double v) { return std::isfinite(v) && v > 0 && v <= Limits::maxRate; }
} // namespace

GablesDocument::GablesDocument(QObject *parent)
    : QObject(parent)
{
}

bool GablesDocument::isLocked(int ip) const
{
    return ip >= 0 && std::size_t(ip) < m_locked.size() && m_locked[std::size_t(ip)];
}

void GablesDocument::setSoc(const Soc &soc, const QString &filePath)
{
    m_soc = soc;
    m_locked.assign(m_soc.ips.size(), false);
    m_filePath = filePath;
    emit filePathChanged(m_filePath);
    emit structureChanged();
    setModified(false);
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
            *error = QString::fromStdString(loaded.diagnostics.toString()).trimmed();
        return false;
    }
    if (warnings) {
        for (const Diagnostic &d : loaded.diagnostics.warnings())
            warnings->append(QString::fromStdString(d.toString()));
    }
    setSoc(*loaded.soc, path);
    return true;
}

bool GablesDocument::save(const QString &path, QString *error)
{
    QSaveFile file(path); // atomic: a failed write never leaves half a file
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open for writing: %2").arg(path, file.errorString());
        return false;
    }
    const std::string text = serialize(m_soc);
    file.write(text.data(), qint64(text.size()));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: could not be written: %2").arg(path, file.errorString());
        return false;
    }
    m_filePath = path;
    emit filePathChanged(m_filePath);
    setModified(false);
    return true;
}

void GablesDocument::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void GablesDocument::touchValues()
{
    setModified(true);
    emit valuesChanged();
}

void GablesDocument::touchStructure()
{
    setModified(true);
    emit structureChanged();
}

void GablesDocument::setPpeak(double gops)
{
    if (!isRate(gops) || gops == m_soc.ppeakGops)
        return;
    m_soc.ppeakGops = gops;
    touchValues();
}

void GablesDocument::setBpeak(double gbps)
{
    if (!isRate(gbps) || gbps == m_soc.bpeakGBps)
        return;
    m_soc.bpeakGBps = gbps;
    touchValues();
}

void GablesDocument::setAcceleration(int ip, double value)
{
    if (!validIp(ip) || !std::isfinite(value) || value <= 0 || value > Limits::maxAcceleration)
        return;
    m_soc.ips[std::size_t(ip)].acceleration = value;
    touchValues();
}

void GablesDocument::setBandwidth(int ip, double gbps)
{
    if (!validIp(ip) || !isRate(gbps))
        return;
    m_soc.ips[std::size_t(ip)].bandwidthGBps = gbps;
    touchValues();
}

void GablesDocument::setIntensity(int ip, double opsPerByte)
{
    if (!validIp(ip) || !std::isfinite(opsPerByte) || opsPerByte <= 0 || opsPerByte > Limits::maxIntensity)
        return;
    m_soc.ips[std::size_t(ip)].intensity = opsPerByte;
    touchValues();
}

void GablesDocument::setFraction(int ip, double fraction)
{
    if (!validIp(ip) || !std::isfinite(fraction))
        return;
    gables::setFraction(m_soc.ips, std::size_t(ip), fraction, m_locked);
    touchValues();
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
    touchValues();
}

void GablesDocument::setMemorySideMemory(bool enabled)
{
    if (m_soc.memorySideMemory == enabled)
        return;
    m_soc.memorySideMemory = enabled;
    touchStructure();
}

void GablesDocument::setMsmBandwidth(double gbps)
{
    if (!std::isfinite(gbps) || gbps < 0 || gbps > Limits::maxRate || gbps == m_soc.msmBandwidthGBps)
        return;
    m_soc.msmBandwidthGBps = gbps;
    touchValues();
}

void GablesDocument::setMissRatio(int ip, double missRatio)
{
    if (!validIp(ip) || !std::isfinite(missRatio) || missRatio < 0 || missRatio > 1)
        return;
    m_soc.ips[std::size_t(ip)].missRatio = missRatio;
    touchValues();
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
    touchStructure();
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
    touchStructure();
}

void GablesDocument::setBusBandwidth(int bus, double gbps)
{
    if (bus < 0 || std::size_t(bus) >= m_soc.buses.size() || !isRate(gbps))
        return;
    m_soc.buses[std::size_t(bus)].bandwidthGBps = gbps;
    touchValues();
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
    touchValues();
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
    touchStructure();
    return int(m_soc.ips.size()) - 1;
}

void GablesDocument::removeIp(int ip)
{
    if (!validIp(ip) || m_soc.ips.size() <= 1)
        return; // the model needs at least one IP
    gables::removeIp(m_soc, std::size_t(ip));
    m_locked.erase(m_locked.begin() + ip);
    touchStructure();
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
    touchStructure();
    return true;
}

void GablesDocument::setColor(int ip, const QString &color)
{
    if (!validIp(ip))
        return;
    m_soc.ips[std::size_t(ip)].color = color.toStdString();
    touchStructure();
}

} // namespace studio
