#include "modelview.h"

#include "common/jsondocument.h"
#include "diagnosticstext.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QRegularExpression>

#include <algorithm>

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

namespace {

// The core's limit and wording (core/common/jsondocument.cpp readTextFile):
// a file above kMaxModelFileBytes is refused before it is read, and a device
// that never ends (/dev/zero, a pipe) once that much has been read.
QString tooLarge(double bytes)
{
    return QObject::tr("the file is %1 MB; files of at most %2 MB are supported")
        .arg(QString::fromStdString(roofline::formatNumber(bytes / 1e6, 4)),
             QString::fromStdString(roofline::formatNumber(roofline::kMaxModelFileBytes / 1e6, 4)));
}

QString tooLargeRead()
{
    return QObject::tr("the file is larger than %1 MB, the most that is supported")
        .arg(QString::fromStdString(roofline::formatNumber(roofline::kMaxModelFileBytes / 1e6, 4)));
}

// Appends what is left of a sequential device (or a file that grew), at most
// up to the limit; false when there was more.
bool appendRest(QFile &file, std::string &text)
{
    constexpr qint64 kChunk = 1 << 20;
    while (true) {
        const std::size_t at = text.size();
        if (at > roofline::kMaxModelFileBytes)
            return false;
        text.resize(at + kChunk);
        const qint64 n = file.read(text.data() + at, kChunk);
        text.resize(at + static_cast<std::size_t>(std::max<qint64>(n, 0)));
        if (n <= 0)
            return text.size() <= roofline::kMaxModelFileBytes;
    }
}

} // namespace

QString readWholeFile(const QString &path, std::string *text)
{
    text->clear();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QObject::tr("cannot open the file for reading: %1").arg(file.errorString());
    // Straight into the string: readAll() then toStdString() held the text twice
    // (readAll() also rounds its buffer up to a power of two): 35 + 64 MB for a
    // 10⁶-instruction JSON trace.
    const qint64 size = file.isSequential() ? 0 : file.size();
    if (size > qint64(roofline::kMaxModelFileBytes))
        return tooLarge(double(size));
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
    if (!appendRest(file, *text)) { // a sequential device, or a file that grew
        text->clear();
        text->shrink_to_fit();
        return tooLargeRead();
    }
    // A UTF-8 byte-order mark says nothing to a reader of UTF-8: dropped, as the
    // core's readTextFile does, so every format reads the same text with or
    // without it (a JSON trace with one was read as the text form, issue 14).
    if (text->rfind("\xEF\xBB\xBF", 0) == 0)
        text->erase(0, 3);
    return {};
}

bool readTextFile(const QString &path, std::string *text, QString *error)
{
    const QString reason = readWholeFile(path, text);
    if (reason.isEmpty())
        return true;
    if (error)
        *error = QStringLiteral("%1: %2").arg(path, reason);
    return false;
}

bool readTextFile(const QString &path, std::string *text, roofline::Diagnostics &diagnostics)
{
    const QString reason = readWholeFile(path, text);
    if (reason.isEmpty())
        return true;
    diagnostics.setFile(path.toStdString());
    diagnostics.error("", reason.toStdString());
    return false;
}

QByteArray csvHeaderLine(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray head = file.read(64 * 1024);
    if (head.startsWith("\xEF\xBB\xBF")) // a byte-order mark (issue 14): the reader drops it too
        head.remove(0, 3);
    for (const QByteArray &raw : head.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (!line.isEmpty() && !line.startsWith('#'))
            return line;
    }
    return {};
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
        if (!file.isSequential() && file.size() > qint64(roofline::kMaxModelFileBytes)) {
            if (error)
                *error = QStringLiteral("%1: %2").arg(path, tooLarge(double(file.size())));
            return {};
        }
        if (!appendRest(file, text)) {
            if (error)
                *error = QStringLiteral("%1: %2").arg(path, tooLargeRead());
            return {};
        }
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
