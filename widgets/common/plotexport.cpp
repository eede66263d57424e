#include "plotexport.h"

#include "plotstyle.h"
#include "svgexport.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QBuffer>
#include <QFile>
#include <QPixmap>
#include <QSaveFile>

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
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    if (options.width <= 0 || options.height <= 0 || options.width > 20000 || options.height > 20000)
        return fail(QStringLiteral("export size must be between 1 and 20000 pixels, got %1×%2")
                        .arg(options.width)
                        .arg(options.height));

    applyPlotTheme(plot); // exports are drawn in the chosen theme

    // Write to a temporary file and move it into place, so a failed export
    // never leaves a truncated file where a good one was.
    QSaveFile target(path);
    if (!target.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot open for writing: %1").arg(target.errorString()));

    bool ok = false;
    switch (format) {
    case ExportFormat::Svg: {
        const QByteArray svg = plotToSvg(plot, options);
        ok = !svg.isEmpty() && target.write(svg) == svg.size();
        break;
    }
    case ExportFormat::Png: {
        // Rendered in memory, then written through the QSaveFile: the old
        // file is replaced only once the new one is complete and on disk.
        // Encoded into memory first: Qt's PNG writer leaks its row buffer when
        // the device fails mid-image (a full disk), and the bytes are known whole.
        const QPixmap pixmap = plot->toPixmap(options.width, options.height, options.pngScale);
        QByteArray png;
        QBuffer buffer(&png);
        ok = !pixmap.isNull() && buffer.open(QIODevice::WriteOnly) && pixmap.save(&buffer, "PNG");
        ok = ok && target.write(png) == png.size();
        break;
    }
    case ExportFormat::Pdf: {
        // QCustomPlot writes a PDF only to a file name: render it to a scratch
        // file beside the target, then copy it through the QSaveFile (written,
        // synced, renamed), so a full disk never costs the previous export.
        const QString tmp = path + QStringLiteral(".part");
        ok = plot->savePdf(tmp, options.width, options.height, QCP::epNoCosmetic, QStringLiteral("Roofline Studio"),
                           options.title);
        QFile rendered(tmp);
        if (ok && rendered.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = rendered.readAll();
            // QPrinter does not report a failed write: a PDF cut short (a full
            // disk) lacks its "%%EOF" trailer, and must not replace the old one.
            const bool complete = bytes.startsWith("%PDF-") && bytes.trimmed().endsWith("%%EOF");
            ok = complete && target.write(bytes) == bytes.size();
        } else {
            ok = false;
        }
        rendered.close();
        QFile::remove(tmp);
        break;
    }
    }
    if (!ok) {
        const QString why = target.error() != QFileDevice::NoError ? target.errorString() : QStringLiteral("rendering failed");
        target.cancelWriting();
        return fail(QStringLiteral("could not be written: %1").arg(why));
    }
    // flush() first: QSaveFile::commit() does not report an error that only
    // shows when its buffer is flushed (a full disk under a small file).
    if (!target.flush() || !target.commit())
        return fail(QStringLiteral("could not be written: %1").arg(target.errorString()));
    return true;
}

} // namespace studio
