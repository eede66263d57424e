#include "amaixdocument.h"

#include <QFile>

#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::amaix;

namespace {

QString errorsOf(const Diagnostics &diagnostics)
{
    return QString::fromStdString(diagnostics.toString()).trimmed();
}

void appendWarnings(const Diagnostics &diagnostics, QStringList *warnings)
{
    if (!warnings)
        return;
    for (const Diagnostic &d : diagnostics.warnings())
        warnings->append(QString::fromStdString(d.toString()));
}

} // namespace

bool readTextFile(const QString &path, std::string *text, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open the file for reading: %2").arg(path, file.errorString());
        return false;
    }
    *text = file.readAll().toStdString();
    return true;
}

AmaixDocument::AmaixDocument(QObject *parent)
    : QObject(parent)
{
}

void AmaixDocument::setNetwork(const Network &network, const QString &path)
{
    m_network = network;
    m_networkPath = path;
    emit filePathChanged();
    emit structureChanged();
}

void AmaixDocument::setAccelerator(const Accelerator &accelerator, const QString &path)
{
    m_accelerator = accelerator;
    m_loadedAccelerator = accelerator;
    m_acceleratorPath = path;
    if (!m_options.dataType.empty() && !m_accelerator.dataType(m_options.dataType))
        m_options.dataType.clear(); // the new accelerator does not know it
    emit filePathChanged();
    emit structureChanged();
}

void AmaixDocument::setMeasured(std::optional<std::vector<MeasuredTime>> measured, const QString &path)
{
    m_measured = std::move(measured);
    m_measuredPath = path;
    emit structureChanged();
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
    setNetwork(*loaded.network, path);
    return true;
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
    setAccelerator(*loaded.accelerator, path);
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
    // Every name must be a layer of the current network (or "total").
    for (const MeasuredTime &m : *loaded.times) {
        if (m.layer != "total" && m_network.indexOf(m.layer) < 0) {
            if (error)
                *error = QStringLiteral("%1: line %2: layer \"%3\" is not in the network \"%4\"")
                             .arg(path)
                             .arg(m.line)
                             .arg(QString::fromStdString(m.layer), QString::fromStdString(m_network.name));
            return false;
        }
    }
    appendWarnings(loaded.diagnostics, warnings);
    setMeasured(loaded.times, path);
    return true;
}

bool AmaixDocument::setParameter(const Parameter &parameter, double value)
{
    if (!std::isfinite(value) || value <= 0 || value > Limits::maxBytes)
        return false;
    if (parameter.get(m_accelerator) == value)
        return true;
    Accelerator edited = m_accelerator;
    parameter.set(edited, value);
    Diagnostics diagnostics;
    validate(edited, diagnostics);
    if (diagnostics.hasErrors())
        return false;
    m_accelerator = std::move(edited);
    emit valuesChanged();
    return true;
}

void AmaixDocument::setRefine(bool refine)
{
    if (m_options.refine == refine)
        return;
    m_options.refine = refine;
    emit valuesChanged();
}

void AmaixDocument::setDataType(const QString &dataType)
{
    const std::string type = dataType.toStdString();
    if (m_options.dataType == type || (!type.empty() && !m_accelerator.dataType(type)))
        return;
    m_options.dataType = type;
    emit structureChanged();
}

bool AmaixDocument::setScaling(ScalingModel scaling, QString *error)
{
    if (m_accelerator.scaling == scaling)
        return true;
    Accelerator edited = m_accelerator;
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
                         .arg(QString::fromStdString(m_accelerator.name),
                              scaling == ScalingModel::Nvdla ? QStringLiteral("nvdla") : QStringLiteral("general"),
                              errorsOf(diagnostics));
        return false;
    }
    m_accelerator = std::move(edited);
    emit structureChanged();
    return true;
}

bool AmaixDocument::applyOverride(const QString &assignment, QString *error)
{
    Diagnostics diagnostics;
    diagnostics.setFile(m_acceleratorPath.toStdString());
    Accelerator edited = m_accelerator;
    if (!amaix::applyOverride(edited, assignment.toStdString(), diagnostics)) {
        if (error)
            *error = errorsOf(diagnostics);
        return false;
    }
    m_accelerator = std::move(edited);
    emit structureChanged(); // slider ranges follow the new value
    return true;
}

} // namespace studio
