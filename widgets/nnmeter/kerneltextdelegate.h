// The kernel tree's delegate: FastTextDelegate's layout (the style draws
// backgrounds, selection and focus; the text is placed as there), with each
// cell's text drawn from a cached image of it instead of glyph by glyph.
//
// A rule toggle repaints every visible row of the tree (row i shows another
// kernel afterwards), and the raster engine blends each antialiased glyph
// on its own at about 3.3 k instructions: 5 M of the 6.2 M that the tree's
// paint took per toggle of ResNet-50 (callgrind, docs/performance.md). An
// image of the text, made once per text, colour and sub-pixel offset, is
// blended as one rectangle. The glyphs land on the same pixels (the image
// keeps the text's fraction of a pixel, the raster engine rounds glyph
// positions per glyph); the blend is the same up to rounding (one level per
// channel at most, tested).
//
// Only where an image pixel is a device pixel: on a high-DPI screen or under
// a scale the text is drawn glyph by glyph, as FastTextDelegate draws it.
//
// The cache keeps what the last repaints drew, in two generations as
// FastTextDelegate's (the same TextGenerationCache), each of about four
// repaints' texts (a rule toggle cycles through a few sets of texts): at most
// about 8 × 100 images of a few kB.
#pragma once

#include "textgenerationcache.h"

#include <QImage>
#include <QStaticText>
#include <QStyledItemDelegate>

#include <vector>

namespace studio {

class KernelTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    static constexpr std::size_t kRepaintsKept = 4; // repaints' texts in the current generation
    static constexpr std::size_t kMaxGeneration = 4096;

    // With an item view as parent, each paint of its viewport starts a repaint.
    explicit KernelTextDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    void beginRepaint() const;
    // Whether texts are drawn from cached images (the default) or glyph by glyph
    // (as FastTextDelegate): tests compare the two pictures.
    void setImageCache(bool on) { m_useImages = on; }
    // Texts drawn into a new image so far, and images held: for tests.
    std::size_t renders() const { return m_renders; }
    std::size_t cachedImages() const { return m_cache.size(); }
    // Texts too wide for their cell, drawn ending in "…", so far (for tests).
    std::size_t elided() const { return m_elided; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Image
    {
        QRgb color;
        int fx, fy; // the text's fraction of a pixel, in 1/64
        QImage image;
    };
    struct Entry
    {
        QStaticText text;
        std::vector<Image> images; // usually one: the text's colour at its place
    };
    Entry &entryOf(const QString &text, const QFont &font) const;
    const QImage &imageOf(Entry &entry, QRgb color, int fx, int fy, const QFont &font) const;

    // The current generation holds the texts of about four repaints before it becomes the
    // previous one: toggling two rules goes through four sets of texts, and with room for
    // two (FastTextDelegate's) GoogLeNet's rows drew most of their texts into new images again.
    mutable TextGenerationCache<Entry> m_cache{kRepaintsKept, kMaxGeneration};
    mutable std::size_t m_renders = 0;
    mutable std::size_t m_elided = 0;
    bool m_useImages = true;
};

} // namespace studio
