#include "plotexport.h"

#include "plotstyle.h"
#include "svgexport.h"

#include <qcustomplot.h>

#include <QFileInfo>
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
    case ExportFormat::Pdf:
    case ExportFormat::Png: {
        // QCustomPlot writes to a file name; let it write the temporary file's sibling.
        target.cancelWriting();
        const QString tmp = path + QStringLiteral(".part");
        ok = format == ExportFormat::Pdf
            ? plot->savePdf(tmp, options.width, options.height, QCP::epNoCosmetic, QStringLiteral("Roofline Studio"),
                            options.title)
            : plot->savePng(tmp, options.width, options.height, options.pngScale);
        if (ok) {
            QFile::remove(path);
            ok = QFile::rename(tmp, path);
        } else {
            QFile::remove(tmp);
        }
        if (!ok)
            return fail(QStringLiteral("could not be written"));
        return true;
    }
    }
    if (!ok) {
        target.cancelWriting();
        return fail(QStringLiteral("rendering failed"));
    }
    if (!target.commit())
        return fail(QStringLiteral("could not be written: %1").arg(target.errorString()));
    return true;
}

} // namespace studio
