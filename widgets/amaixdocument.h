// The AMAIX model the user is editing: a network, an accelerator, the
// evaluation options, optional measured per-layer times, and the files they
// came from. The panel, the table and the plot edit through this object and
// listen to its signals.
#pragma once

#include "amaix/io.h"
#include "amaix/model.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace studio {

class AmaixDocument : public QObject
{
    Q_OBJECT
public:
    explicit AmaixDocument(QObject *parent = nullptr);

    const roofline::amaix::Network &network() const { return m_network; }
    const roofline::amaix::Accelerator &accelerator() const { return m_accelerator; }
    const roofline::amaix::Options &options() const { return m_options; }
    const std::optional<std::vector<roofline::amaix::MeasuredTime>> &measured() const { return m_measured; }
    QString networkPath() const { return m_networkPath; }
    QString acceleratorPath() const { return m_acceleratorPath; }
    QString measuredPath() const { return m_measuredPath; }
    // The accelerator as loaded, before any slider edit (for "reset").
    const roofline::amaix::Accelerator &loadedAccelerator() const { return m_loadedAccelerator; }

    // Replace a whole part; emit structureChanged.
    void setNetwork(const roofline::amaix::Network &network, const QString &path);
    void setAccelerator(const roofline::amaix::Accelerator &accelerator, const QString &path);
    void setMeasured(std::optional<std::vector<roofline::amaix::MeasuredTime>> measured, const QString &path);

    // Loads a file (resource paths such as ":/examples/amaix/alexnet.json" too).
    // On failure the current model is kept and `error` names the file, the
    // field and the reason.
    bool loadNetwork(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool loadAccelerator(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool loadMeasured(const QString &path, QString *error, QStringList *warnings = nullptr);

    // Value edits: emit valuesChanged. A value that is not finite, not > 0, or
    // that the accelerator's validation rejects is ignored (returns false).
    bool setParameter(const roofline::amaix::Parameter &parameter, double value);
    void setRefine(bool refine);
    // Structural edits (the panel's controls change): emit structureChanged.
    void setDataType(const QString &dataType); // empty: the network's, else the accelerator's default
    // Switching needs a MAC array unit and t_k for every data type (nvdla) or a
    // peak for every unit (general); the general model's MAC-array peak is
    // taken from T_k·T_c. Returns false with `error` set when not possible.
    bool setScaling(roofline::amaix::ScalingModel scaling, QString *error);
    // Applies "POINTER=VALUE" as roofline-cli's --set does.
    bool applyOverride(const QString &assignment, QString *error);

signals:
    void valuesChanged();    // numbers changed; the set of controls did not
    void structureChanged(); // a new network or accelerator, data type or scaling model
    void filePathChanged();

private:
    roofline::amaix::Network m_network;
    roofline::amaix::Accelerator m_accelerator;
    roofline::amaix::Accelerator m_loadedAccelerator;
    roofline::amaix::Options m_options;
    std::optional<std::vector<roofline::amaix::MeasuredTime>> m_measured;
    QString m_networkPath;
    QString m_acceleratorPath;
    QString m_measuredPath;
};

// Reads a whole file through Qt (so resource paths work); false with `error` set.
bool readTextFile(const QString &path, std::string *text, QString *error);

} // namespace studio
