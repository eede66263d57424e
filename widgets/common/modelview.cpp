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
    nlohmann::json root;
    if (!roofline::parseJsonText(file.readAll().toStdString(), root, diagnostics)) {
        if (error)
            *error = errorsOf(diagnostics);
        return {};
    }
    const auto format = root.is_object() ? root.find("format") : root.end();
    if (!root.is_object() || format == root.end() || !format->is_string()) {
        if (error)
            *error = QObject::tr("%1: /format: required field is missing; it names the kind of model in the "
                                 "file, e.g. \"roofline-studio/gables\"")
                         .arg(path);
        return {};
    }
    return QString::fromStdString(format->get<std::string>());
}

} // namespace studio
