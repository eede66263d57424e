// The SVG export of a plot, written so that every renderer draws it like the
// PNG export: librsvg (rsvg-convert, GNOME, Inkscape's import, slide tools)
// and browser engines, not only Qt.
//
// QSvgGenerator (Qt 6.4) drops the painter's clip, writes fonts at 72 dpi and
// names Qt's family alias ("Sans Serif", no CSS generic). plotToSvg() draws the
// plot itself, layer by layer as QCustomPlot does, and records each
// layerable's clip rectangle; the clip is written as a <clipPath> on every
// element that layerable drew.
#pragma once

#include "plotexport.h"

#include <QByteArray>

class QCustomPlot;

namespace studio {

// The plot as an SVG document of options.width × options.height pixels: text
// kept as text, plot content clipped to its axis rectangle, fonts at the PNG
// export's pixel sizes, each family followed by the generic sans-serif. Empty
// when rendering failed.
QByteArray plotToSvg(QCustomPlot *plot, const ExportOptions &options);

} // namespace studio
