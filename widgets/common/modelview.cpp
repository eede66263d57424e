#include "modelview.h"

#include "common/jsondocument.h"
#include "diagnosticstext.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QRegularExpression>

namespace studio {

bool ModelView::saveFile(const QString &path, QString *error)
{
    if (error)
        *error = tr("%1: this view has nothing to save").arg(path);
    return false;
}

QList<ModelView::BundlePlot> ModelView::bundlePlots()
{
    QString stem = title().toLower();
    stem.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    flushPendingUpdate();
    return {{stem, title(), exportPlot()}};
}

bool ModelView::restoreSessionState(const QJsonObject &, const QString &, QString *)
{
    return true;
}

bool ModelView::applyOverride(const QString &assignment, QString *error)
{
    if (error)
        *error = tr("--set %1: the %2 view takes no overrides").arg(assignment, title());
    return false;
}

QString readFormatId(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QObject::tr("%1: cannot open the file for reading: %2").arg(path, file.errorString());
        return {};
    }
    roofline::Diagnostics diagnostics;
    diagnostics.setFile(path.toStdString());
    // Read only as far as "format": the loader of the format reads the rest
    // (and names any error in it); a 10⁶-instruction trace parsed whole here
    // held 300 MB for nothing.
    std::string format;
    if (!roofline::readFormatId(file.readAll().toStdString(), format, diagnostics)) {
        if (error)
            *error = errorsOf(diagnostics);
        return {};
    }
    if (format.empty()) {
        if (error)
            *error = QObject::tr("%1: /format: required field is missing; it names the kind of model in the "
                                 "file, e.g. \"roofline-studio/gables\"")
                         .arg(path);
        return {};
    }
    return QString::fromStdString(format);
}

} // namespace studio
