// Plot text drawn from images on screen. QPainter::drawText() lays a text out and blends
// each antialiased glyph on its own every time it is drawn, and a plot redrawn on every
// slider step or rule toggle draws the same legend names and titles again and again:
// PlotTextImages draws a text from an image of it made once, and CachedLegendItem is a
// legend entry that measures its name once and draws it through a PlotTextImages.
// Exports (vector, or QCPPainter's pmNoCaching) and scaled painters draw the glyphs.
#pragma once

#include <QFont>
#include <QImage>
#include <QString>

#include <qcustomplot.h>

#include <optional>
#include <vector>

namespace studio {

// Draws a text as QPainter::drawText(rect, flags, text) does, from an image of it made once
// per text, font, colour, rect size, flags and fraction of a pixel, blended as one rectangle.
// The raster engine blends each antialiased glyph on its own (about 3 k instructions a glyph),
// and drawText() lays the text out again each time: the nn-Meter chart's legend and title took
// 1.6 M instructions per rule toggle of ResNet-50, the Gables legend 1.2 M per slider step at
// 64 IPs (callgrind). Texts change with the model (kernel counts, the limiting roof), so each
// plot keeps the last 64 texts it drew: a step back draws texts drawn before. Exports (vector
// or not cached: QCPPainter's modes) and transformed painters draw the text as before.
class PlotTextImages
{
public:
    explicit PlotTextImages(int *renders = nullptr) // renders: counts the images made (tests), or nullptr
        : m_renders(renders)
    {
    }
    static inline bool enabled = true; // off: drawn as drawText() (tests compare the pictures)

    // Returns the text's bounding rect, as drawText() gives it.
    QRect draw(QCPPainter *painter, const QRect &rect, int flags, const QString &text);

private:
    struct Entry
    {
        QString text;
        QFont font;
        QRgb color;
        QSize size;
        int flags;
        int fx, fy;
        QPainter::RenderHints hints;
        QRect bound; // of the image, relative to the rect's top left
        QImage image;
    };
    std::vector<Entry> m_entries; // the last texts drawn, oldest first
    int *m_renders;
};

// A legend entry that measures its text once per name and font. QCPLegend is a layout
// grid: every replot asks each entry for its minimum size about ten times (the grid's rows
// and columns, the plot layout asking the legend, fitLegendToWidth()), and each time
// QCPPlottableLegendItem laid its name out again: 2 M instructions per rule toggle.
class CachedLegendItem : public QCPPlottableLegendItem
{
public:
    CachedLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable, int *counter, PlotTextImages *images)
        : QCPPlottableLegendItem(legend, plottable)
        , m_counter(counter)
        , m_images(images)
    {
    }

protected:
    // As QCPPlottableLegendItem::draw(), the name from an image (PlotTextImages) and its height
    // from the size measured once per name.
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    mutable std::optional<QSize> m_size;
    mutable QString m_name;
    mutable QFont m_font;
    mutable QMargins m_margins;
    mutable QSize m_iconSize;
    mutable int m_padding = 0;
    int *m_counter; // counts the measurements (for tests), or nullptr
    PlotTextImages *m_images; // the plot's
    QString m_textName; // the name m_textRect was measured for, and its font
    QFont m_textFont;
    QRect m_textRect;
};

// A plot's own PlotTextImages, made on first use and deleted with the plot.
PlotTextImages *plotTextImages(QCustomPlot *plot);
// Puts a CachedLegendItem in the place of the plottable's entry in the plot's legend (if it has one).
void cacheLegendEntry(QCustomPlot *plot, QCPAbstractPlottable *plottable);

} // namespace studio
