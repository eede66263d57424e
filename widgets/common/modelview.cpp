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

bool readTextFile(const QString &path, std::string *text, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot open the file for reading: %2").arg(path, file.errorString());
        return false;
    }
    // Straight into the string: readAll() then toStdString() held the text twice
    // (readAll() also rounds its buffer up to a power of two): 35 + 64 MB for a
    // 10⁶-instruction JSON trace.
    text->clear();
    const qint64 size = file.isSequential() ? 0 : file.size();
    if (size > 0) {
        text->resize(static_cast<std::size_t>(size));
        qint64 got = 0;
        while (got < size) {
            const qint64 n = file.read(text->data() + got, size - got);
            if (n <= 0)
                break;
            got += n;
        }
        text->resize(static_cast<std::size_t>(got));
    }
    const QByteArray rest = file.readAll(); // a sequential device, or a file that grew
    text->append(rest.constData(), static_cast<std::size_t>(rest.size()));
    return true;
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
    // held 300 MB for nothing. The first 64 KiB hold it in every file the app
    // writes; the whole file is read only when they do not (reading it whole
    // for every file held a 10⁶-instruction trace's 35 MB twice, as a
    // QByteArray and a std::string, just to route it). A prefix is used only
    // when "format" is found in it, so the answer and any syntax error are
    // those of the whole file.
    std::string format;
    std::string text = file.read(64 * 1024).toStdString();
    if (!file.atEnd()) {
        roofline::Diagnostics prefixDiagnostics;
        if (roofline::readFormatId(text, format, prefixDiagnostics) && !format.empty())
            return QString::fromStdString(format);
        const QByteArray rest = file.readAll();
        text.append(rest.constData(), static_cast<std::size_t>(rest.size()));
    }
    if (!roofline::readFormatId(text, format, diagnostics)) {
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
