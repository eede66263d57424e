// Exporting a QCustomPlot as SVG (QSvgGenerator + QCPPainter, with title and
// description), PDF or PNG. Used by the File menu and the headless command line.
#pragma once

#include <QByteArray>
#include <QString>

class QCustomPlot;

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

// The plot as an SVG document: text kept as text, plot content clipped to its
// axis rectangle (<clipPath>), fonts at the PNG export's sizes, each family
// followed by the generic sans-serif, width and height in pixels.
QByteArray plotToSvg(QCustomPlot *plot, const ExportOptions &options);

// Writes the plot; on failure returns false and sets `error` (naming the file).
bool exportPlot(QCustomPlot *plot, const QString &path, ExportFormat format, const ExportOptions &options,
                QString *error);

} // namespace studio
