// A read-only, word-wrapped rich-text readout whose text changes on every
// slider step: laid out once per new text and width, and never shorter while
// the slider moves.
//
// A rich-text QLabel keeps its text in a QWidgetTextControl and lays the
// document out again and again for one new text: for its size hints (twice
// per width asked: at that width and back), and in every paint after a size
// query (a new default text option, a new frame format, the width again).
// The Brouwer memory readout spent 9 M instructions of an 18.7 M memory move
// there (docs/performance.md). This label keeps its own QTextDocument, lays it
// out at the width it is asked for, remembers the height per width, and paints
// the document it measured. QLabel still holds the text (text() answers).
//
// Its height at a width only grows until resetHeight(): the wrapped lines of a
// readout come and go with the numbers' widths (a 3-digit MiB, a long layer
// name), and each change relaid out and repainted the whole side panel and its
// scroll area. Call resetHeight() when what the readout describes changes (a
// new network or device); the label may then shrink.
//
// Its text sits at the top of its box unless its alignment says AlignVCenter
// or AlignBottom.
//
// Not selectable (the selection would need QLabel's own document laid out);
// its context menu copies the text instead.
//
// The last few texts are kept, each with its document laid out and, once it
// has been painted twice, an image of it (kPages; about 0.4 MB per page at
// 1x for a 1000 x 90 px readout). A readout comes back to a text it showed
// (a rule toggled off again, undo, a slider moved back and forth): that text
// is neither parsed nor laid out again, and its paint blends one image
// instead of each glyph (the raster engine blends an antialiased glyph at
// about 3.3 k instructions: 1.6 M of a nn-Meter rule toggle went there,
// docs/performance.md). A text painted once, as each text of a slider drag,
// is drawn glyph by glyph as before and gets no image. The image is made at
// the painter's scale (a high-DPI screen's pixel ratio, grab(), render() at
// a scale) and used only where it falls on whole device pixels of a raster
// device; anything else (an SVG or PDF export, a rotation, a fractional
// offset) gets the text drawn as before.
//
// setSingleLine(true) makes it a one-line readout (a totals row): the text is
// never wrapped, the height is that of its line, and the label has no height
// for width. Give it an Ignored horizontal size policy so that a longer text
// does not widen the window; what does not fit is cut at the right.
#pragma once

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QTextDocument>
#include <QTextOption>

#include <QImage>
#include <QPaintEngine>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace studio {

class RichReadoutLabel : public QLabel
{
public:
    explicit RichReadoutLabel(QWidget *parent = nullptr)
        : QLabel(parent)
    {
        setTextFormat(Qt::RichText);
        setWordWrap(true); // the height-for-width size policy
        setAlignment(Qt::AlignLeft | Qt::AlignTop);
        setTextInteractionFlags(Qt::NoTextInteraction);
        m_pages.emplace_back();
        m_pages.front().document = std::make_unique<QTextDocument>();
        QTextDocument &document = *m_pages.front().document;
        document.setUndoRedoEnabled(false);
        document.setDocumentMargin(0);
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // as QLabel wraps
        document.setDefaultTextOption(option);
        document.setDefaultFont(font());
        auto *copy = new QAction(tr("Copy"), this);
        connect(copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(doc().toPlainText()); });
        addAction(copy);
        setContextMenuPolicy(Qt::ActionsContextMenu);
    }

    // The new text (HTML): QLabel::setText (text() answers; one layout request) and the document.
    void setHtml(const QString &html) { setContents(html, Qt::RichText); }
    // The same for plain text.
    void setPlainText(const QString &plain) { setContents(plain, Qt::PlainText); }

    // Space between the text and the label's edge or frame, inside the
    // contents margins (what QLabel::setMargin() gives a QLabel).
    void setPadding(int pixels)
    {
        doc().setDocumentMargin(pixels);
        measureAgain();
    }

    // One line, never wrapped (see above); wrapped at word boundaries by default.
    void setSingleLine(bool single)
    {
        if (single == m_singleLine)
            return;
        m_singleLine = single;
        QTextOption option = doc().defaultTextOption();
        option.setWrapMode(single ? QTextOption::NoWrap : QTextOption::WrapAtWordBoundaryOrAnywhere);
        doc().setDefaultTextOption(option);
        setWordWrap(!single); // the size policy's height for width
        measureAgain();
    }
    bool isSingleLine() const { return m_singleLine; }

    // Forget the tallest heights: the next layout takes the current text's height.
    void resetHeight()
    {
        m_tallest = {std::pair{-1, 0}, std::pair{-1, 0}};
        updateGeometry();
    }

    // Texts kept with their layout and image (see above).
    static constexpr std::size_t kPages = 4;

    // How often the document was laid out (tests: once per new text and width), and painted.
    int layouts() const { return m_layoutCount; }
    int paints() const { return m_paints; }
    // Paints that drew the text glyph by glyph (into the widget or into a new image), and images made: for tests.
    int textDraws() const { return m_textDraws; }
    int imagesMade() const { return m_imagesMade; }
    // Whether a text painted again is drawn from an image (the default) or glyph by glyph: tests compare the two.
    void setImageCache(bool on)
    {
        m_useImages = on;
        update();
    }
    const QTextDocument *document() const { return m_pages.front().document.get(); }

    QSize sizeHint() const override
    {
        const int w = width() > 0 ? width() : m_hintWidth.value_or(0);
        return QSize(m_hintWidth.value_or(0), heightForWidth(w));
    }
    QSize minimumSizeHint() const override
    {
        return QSize(m_minimumWidth.value_or(0), 0).expandedTo(QSize(0, heightForWidth(width() > 0 ? width() : m_hintWidth.value_or(0))));
    }
    bool hasHeightForWidth() const override { return !m_singleLine; }
    int heightForWidth(int width) const override
    {
        const QMargins m = contentsMargins();
        const int needed = documentHeight(width - m.left() - m.right()) + m.top() + m.bottom();
        for (auto &[w, h] : m_tallest) {
            if (w == width)
                return h = std::max(h, needed);
        }
        m_tallest[1] = m_tallest[0];
        m_tallest[0] = {width, needed};
        return needed;
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        ++m_paints;
        const QRect r = contentsRect();
        const int height = documentHeight(r.width());
        // At the top by default; centred or at the bottom as a QLabel of that alignment
        // (a one-line totals row beside a taller button, a fixed-height box).
        int top = 0;
        if (alignment() & Qt::AlignVCenter)
            top = std::max(0, (r.height() - height) / 2);
        else if (alignment() & Qt::AlignBottom)
            top = std::max(0, r.height() - height);
        QPainter painter(this);
        drawFrame(&painter); // a frame shape set on the label (none by default)
        const QPoint origin = r.topLeft() + QPoint(0, top);
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = palette();
        context.palette.setColor(QPalette::Text, palette().color(foregroundRole()));
        context.clip = QRectF(0, 0, r.width(), r.height() - top);
        if (context.clip.isEmpty())
            return;
        Page &page = m_pages.front();
        ++page.paints;
        const double scale = imageScale(painter, origin);
        if (scale > 0 && page.paints > 1) {
            const ImageKey key{context.clip.size().toSize(), scale, context.palette.color(QPalette::Text).rgba(),
                               palette().cacheKey(), palette().currentColorGroup()};
            if (page.image.isNull() || !(page.key == key)) {
                // Made at the device's scale: one image pixel is one device pixel (sharp at 2x).
                QImage image(int(std::ceil(key.size.width() * scale)), int(std::ceil(key.size.height() * scale)),
                             QImage::Format_ARGB32_Premultiplied);
                image.setDevicePixelRatio(scale);
                image.fill(Qt::transparent);
                QPainter imagePainter(&image);
                imagePainter.setClipRect(context.clip);
                drawText(&imagePainter, page, context);
                imagePainter.end();
                page.image = std::move(image);
                page.key = key;
                ++m_imagesMade;
            }
            painter.drawImage(origin, page.image);
            return;
        }
        painter.translate(origin);
        painter.setClipRect(context.clip);
        drawText(&painter, page, context);
    }
    void changeEvent(QEvent *event) override
    {
        if (event->type() == QEvent::FontChange) {
            doc().setDefaultFont(font());
            if (textFormat() == Qt::PlainText) // setPlainText() took the old font
                doc().setPlainText(text());
            measureAgain();
        }
        QLabel::changeEvent(event);
    }

private:
    struct ImageKey
    {
        QSize size; // the text's box, in pixels of the widget
        double scale = 0; // device pixels per pixel
        QRgb color = 0; // the text's colour
        qint64 palette = 0; // and the palette's other colours (links), in the colour group painted
        QPalette::ColorGroup group = QPalette::Active;
        bool operator==(const ImageKey &) const = default;
    };
    // A text shown recently: its document, laid out at one width, and its image once painted twice.
    struct Page
    {
        QString contents;
        Qt::TextFormat format = Qt::PlainText;
        std::unique_ptr<QTextDocument> document;
        int laidOutFor = -1;
        std::array<std::pair<int, int>, 2> heights{std::pair{-1, 0}, std::pair{-1, 0}}; // text width -> height
        int paints = 0;
        QImage image;
        ImageKey key;
    };

    QTextDocument &doc() const { return *m_pages.front().document; }

    void drawText(QPainter *painter, const Page &page, const QAbstractTextDocumentLayout::PaintContext &context) const
    {
        ++m_textDraws;
        page.document->documentLayout()->draw(painter, context);
    }

    // The scale at which an image of the text is one device pixel per image pixel, where `origin`
    // falls on a whole device pixel of a raster device; 0 where the text is to be drawn as it is.
    double imageScale(QPainter &painter, QPoint origin) const
    {
        if (!m_useImages || !painter.paintEngine() || painter.paintEngine()->type() != QPaintEngine::Raster)
            return 0; // an SVG or PDF export keeps its text as text
        const QTransform t = painter.deviceTransform();
        if (t.type() > QTransform::TxScale || t.m11() <= 0 || t.m11() != t.m22())
            return 0;
        const QPointF at = t.map(QPointF(origin));
        const auto whole = [](double v) { return std::abs(v - std::round(v)) < 1e-6; };
        return whole(at.x()) && whole(at.y()) ? t.m11() : 0;
    }

    void setContents(const QString &contents, Qt::TextFormat format)
    {
        if (contents == text() && format == textFormat())
            return;
        const auto kept = std::find_if(m_pages.begin() + 1, m_pages.end(), [&](const Page &page) {
            return page.format == format && page.contents == contents;
        });
        if (kept != m_pages.end()) {
            // Shown recently: laid out and painted already.
            std::rotate(m_pages.begin(), kept, kept + 1);
        } else {
            // The oldest page's document, or a new one set up as the current one.
            const QTextDocument &current = doc();
            if (m_pages.size() < kPages) {
                Page page;
                page.document = std::make_unique<QTextDocument>();
                page.document->setUndoRedoEnabled(false);
                page.document->setDocumentMargin(current.documentMargin());
                page.document->setDefaultTextOption(current.defaultTextOption());
                page.document->setDefaultFont(current.defaultFont());
                m_pages.push_back(std::move(page));
            }
            std::rotate(m_pages.begin(), m_pages.end() - 1, m_pages.end());
            Page &page = m_pages.front();
            // At the width the label last laid its text out for (the page before may have come
            // back from an older width and not been laid out again yet).
            const int width = m_textWidth;
            if (width > 0 && page.laidOutFor != width) { // empty first: the new text is laid out once, below
                page.document->clear();
                page.document->setTextWidth(width);
            }
            page.laidOutFor = width > 0 ? width : page.laidOutFor;
            // The document lays the new text out at its current width itself.
            if (format == Qt::RichText)
                page.document->setHtml(contents);
            else
                page.document->setPlainText(contents);
            if (page.laidOutFor > 0)
                ++m_layoutCount;
            page.contents = contents;
            page.format = format;
            page.heights = {std::pair{-1, 0}, std::pair{-1, 0}};
            page.paints = 0;
            page.image = QImage();
        }
        setTextFormat(format);
        if (!m_hintWidth && !contents.isEmpty())
            measureHints(contents);
        QLabel::setText(contents); // updateGeometry() and update()
    }
    // The padding, the wrapping or the font changed: every layout, height and hint is stale.
    void measureAgain()
    {
        m_pages.resize(1); // the texts kept were laid out for the old font, padding or wrapping
        Page &page = m_pages.front();
        page.laidOutFor = -1;
        m_textWidth = -1;
        page.heights = {std::pair{-1, 0}, std::pair{-1, 0}};
        page.image = QImage();
        m_tallest = {std::pair{-1, 0}, std::pair{-1, 0}};
        m_hintWidth.reset();
        if (!text().isEmpty())
            measureHints(text());
        updateGeometry();
    }
    // The document's height laid out at `width` (pixels of text); one layout per text and width.
    int documentHeight(int width) const
    {
        width = std::max(width, 1);
        Page &page = m_pages.front();
        m_textWidth = width;
        for (const auto &[w, h] : page.heights) {
            if (w == width)
                return h;
        }
        if (page.laidOutFor != width) {
            page.document->setTextWidth(width);
            page.laidOutFor = width;
            ++m_layoutCount;
        }
        const int h = int(std::ceil(page.document->size().height()));
        page.heights[1] = page.heights[0];
        page.heights[0] = {width, h};
        return h;
    }
    // The preferred and minimum widths, from the first text (or after a font change), as a
    // word-wrapped QLabel would give them: the layout sizes the label by its height for the
    // width it gets, so a width that followed every text would only relayout the window.
    // The padding and the contents margins (a frame's width among them) are added: the probe has neither.
    // A single line's preferred width is its (first) text's, and it can shrink to nothing (cut at the right).
    void measureHints(const QString &contents)
    {
        const QMargins m = contentsMargins();
        const int around = m.left() + m.right() + 2 * int(std::ceil(doc().documentMargin()));
        if (m_singleLine) {
            doc().setTextWidth(-1);
            m_pages.front().laidOutFor = -1;
            m_textWidth = -1;
            m_hintWidth = int(std::ceil(doc().idealWidth())) + around;
            m_minimumWidth = 0;
            return;
        }
        QLabel probe;
        probe.setFont(font());
        probe.setTextFormat(textFormat());
        probe.setWordWrap(true);
        probe.setText(contents);
        m_hintWidth = probe.sizeHint().width() + around;
        m_minimumWidth = probe.minimumSizeHint().width() + around;
    }

    mutable std::vector<Page> m_pages; // the current text first, then the ones shown before it, newest first
    mutable int m_textWidth = -1; // the text width last laid out for (a new text is laid out at it)
    mutable int m_layoutCount = 0;
    int m_paints = 0;
    mutable int m_textDraws = 0;
    int m_imagesMade = 0;
    bool m_useImages = true;
    mutable std::array<std::pair<int, int>, 2> m_tallest{std::pair{-1, 0}, std::pair{-1, 0}}; // label width -> tallest
    std::optional<int> m_hintWidth, m_minimumWidth;
    bool m_singleLine = false;
};

} // namespace studio
