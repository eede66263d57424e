// Exporting a QCustomPlot as SVG (svgexport.h: with title and description,
// clipped, renders alike everywhere), PDF or PNG. Used by the File menu and the headless command line.
#pragma once

#include <QString>

class QCustomPlot;
class QPixmap;
class QByteArray;

namespace studio {

enum class ExportFormat { Svg, Pdf, Png };

struct ExportOptions
{
    int width = 1000;  // logical pixels (points for PDF)
    int height = 700;
    double pngScale = 2.0; // device pixels per logical pixel, for slides
    QString title;
    QString description;
};

// Guesses the format from the file suffix (.svg, .pdf, .png); false if unknown.
bool formatFromSuffix(const QString &path, ExportFormat *format);

// Writes the plot; on failure returns false and sets `error` (naming the file).
bool exportPlot(QCustomPlot *plot, const QString &path, ExportFormat format, const ExportOptions &options,
                QString *error);

// The one atomic write of the studio's files: `bytes` go to `path` through
// the core's AtomicFile (core/common/atomicfile.h: a temporary file beside
// it, written, synced, renamed), so the old file survives any failure. On
// failure returns false and sets `error` to "PATH: cannot write the file: REASON".
bool saveFileAtomically(const QString &path, const QByteArray &bytes, QString *error);

// A window grab or any pixmap, encoded by the path's suffix (.png, .jpg, ...)
// in memory and written through saveFileAtomically().
bool savePixmapAtomically(const QPixmap &pixmap, const QString &path, QString *error);

} // namespace studio
