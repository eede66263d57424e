// Exporting a QCustomPlot as SVG (svgexport.h: with title and description,
// clipped, renders alike everywhere), PDF or PNG. Used by the File menu and the headless command line.
#pragma once

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

// Writes the plot; on failure returns false and sets `error` (naming the file).
bool exportPlot(QCustomPlot *plot, const QString &path, ExportFormat format, const ExportOptions &options,
                QString *error);

} // namespace studio
