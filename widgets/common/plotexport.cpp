#include "plotexport.h"

#include "common/atomicfile.h"
#include "plotstyle.h"
#include "svgexport.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QBuffer>
#include <QFile>
#include <QPixmap>

namespace studio {

bool formatFromSuffix(const QString &path, ExportFormat *format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg"))
        *format = ExportFormat::Svg;
    else if (suffix == QLatin1String("pdf"))
        *format = ExportFormat::Pdf;
    else if (suffix == QLatin1String("png"))
        *format = ExportFormat::Png;
    else
        return false;
    return true;
}

bool exportPlot(QCustomPlot *plot, const QString &path, ExportFormat format, const ExportOptions &options,
                QString *error)
{
    auto fail = [&](const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, reason);
        return false;
    };
    QString why; // the reason when rendering fails
    if (options.width <= 0 || options.height <= 0 || options.width > 20000 || options.height > 20000)
        return fail(QStringLiteral("export size must be between 1 and 20000 pixels, got %1×%2")
                        .arg(options.width)
                        .arg(options.height));

    applyPlotTheme(plot); // exports are drawn in the chosen theme

    // Rendered into memory, then written through saveFileAtomically() (the
    // core's AtomicFile: temporary file, sync, rename), so a failed export
    // never leaves a truncated file where a good one was. Not QSaveFile: Qt
    // 6.4's takes a short write on a filling disk for success.
    QByteArray bytes;
    bool ok = false;
    switch (format) {
    case ExportFormat::Svg: {
        bytes = plotToSvg(plot, options);
        ok = !bytes.isEmpty();
        break;
    }
    case ExportFormat::Png: {
        // Encoded into memory: Qt's PNG writer leaks its row buffer when the
        // device fails mid-image (a full disk), and the bytes are known whole.
        const QPixmap pixmap = plot->toPixmap(options.width, options.height, options.pngScale);
        QBuffer buffer(&bytes);
        ok = !pixmap.isNull() && buffer.open(QIODevice::WriteOnly) && pixmap.save(&buffer, "PNG");
        break;
    }
    case ExportFormat::Pdf: {
        // QCustomPlot writes a PDF only to a file name: render it to a scratch
        // file in the temporary folder and read it back. Not beside the target:
        // that wrote a file into the user's folder outside the atomic path, and
        // a read-only folder gave only "rendering failed".
        QTemporaryFile scratch(QDir::tempPath() + QStringLiteral("/roofline-export-XXXXXX.pdf"));
        if (!scratch.open()) {
            why = QStringLiteral("cannot write a scratch file in %1: %2").arg(QDir::tempPath(), scratch.errorString());
            break;
        }
        scratch.close(); // QPdfWriter opens it by name; QTemporaryFile removes it
        ok = plot->savePdf(scratch.fileName(), options.width, options.height, QCP::epNoCosmetic,
                           QStringLiteral("Roofline Studio"), options.title);
        QFile rendered(scratch.fileName());
        if (ok && rendered.open(QIODevice::ReadOnly)) {
            bytes = rendered.readAll();
            // QPrinter does not report a failed write: a PDF cut short (a full
            // disk) lacks its "%%EOF" trailer, and must not replace the old one.
            ok = bytes.startsWith("%PDF-") && bytes.trimmed().endsWith("%%EOF");
            if (!ok)
                why = QStringLiteral("cannot write the file: the PDF was cut short (is the disk full?)");
        } else {
            ok = false;
        }
        break;
    }
    }
    if (!ok)
        return fail(why.isEmpty() ? QStringLiteral("rendering failed") : why);
    return saveFileAtomically(path, bytes, error);
}

bool saveFileAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    // The core's AtomicFile rather than QSaveFile: Qt 6.4's QSaveFile takes a
    // short write (the disk filling up under a large write) for success, and
    // commit() then puts the truncated file in place of the user's file.
    roofline::AtomicFile file(QFile::encodeName(path).toStdString());
    if (!file.write(bytes.constData(), std::size_t(bytes.size())) || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(file.reason()));
        return false;
    }
    return true;
}

bool savePixmapAtomically(const QPixmap &pixmap, const QString &path, QString *error)
{
    const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (pixmap.isNull() || !buffer.open(QIODevice::WriteOnly)
        || !pixmap.save(&buffer, format.isEmpty() ? "PNG" : format.constData())) {
        if (error)
            *error = QStringLiteral("%1: cannot encode the image as \"%2\"")
                         .arg(path, QString::fromLatin1(format));
        return false;
    }
    return saveFileAtomically(path, bytes, error);
}

} // namespace studio
