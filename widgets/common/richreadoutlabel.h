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

#include <array>
#include <cmath>
#include <optional>
#include <utility>

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
        m_document.setUndoRedoEnabled(false);
        m_document.setDocumentMargin(0);
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // as QLabel wraps
        m_document.setDefaultTextOption(option);
        m_document.setDefaultFont(font());
        auto *copy = new QAction(tr("Copy"), this);
        connect(copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(m_document.toPlainText()); });
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
        m_document.setDocumentMargin(pixels);
        measureAgain();
    }

    // One line, never wrapped (see above); wrapped at word boundaries by default.
    void setSingleLine(bool single)
    {
        if (single == m_singleLine)
            return;
        m_singleLine = single;
        QTextOption option = m_document.defaultTextOption();
        option.setWrapMode(single ? QTextOption::NoWrap : QTextOption::WrapAtWordBoundaryOrAnywhere);
        m_document.setDefaultTextOption(option);
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

    // How often the document was laid out (tests: once per new text and width), and painted.
    int layouts() const { return m_layoutCount; }
    int paints() const { return m_paints; }
    const QTextDocument *document() const { return &m_document; }

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
        painter.translate(r.topLeft() + QPoint(0, top));
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = palette();
        context.palette.setColor(QPalette::Text, palette().color(foregroundRole()));
        context.clip = QRectF(0, 0, r.width(), r.height() - top);
        painter.setClipRect(context.clip);
        m_document.documentLayout()->draw(&painter, context);
    }
    void changeEvent(QEvent *event) override
    {
        if (event->type() == QEvent::FontChange) {
            m_document.setDefaultFont(font());
            if (textFormat() == Qt::PlainText) // setPlainText() took the old font
                m_document.setPlainText(text());
            measureAgain();
        }
        QLabel::changeEvent(event);
    }

private:
    void setContents(const QString &contents, Qt::TextFormat format)
    {
        if (contents == text() && format == textFormat())
            return;
        // The document lays the new text out at its current width itself.
        if (format == Qt::RichText)
            m_document.setHtml(contents);
        else
            m_document.setPlainText(contents);
        if (m_laidOutFor > 0)
            ++m_layoutCount;
        m_heights = {std::pair{-1, 0}, std::pair{-1, 0}};
        setTextFormat(format);
        if (!m_hintWidth && !contents.isEmpty())
            measureHints(contents);
        QLabel::setText(contents); // updateGeometry() and update()
    }
    // The padding, the wrapping or the font changed: every layout, height and hint is stale.
    void measureAgain()
    {
        m_laidOutFor = -1;
        m_heights = {std::pair{-1, 0}, std::pair{-1, 0}};
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
        for (const auto &[w, h] : m_heights) {
            if (w == width)
                return h;
        }
        if (m_laidOutFor != width) {
            m_document.setTextWidth(width);
            m_laidOutFor = width;
            ++m_layoutCount;
        }
        const int h = int(std::ceil(m_document.size().height()));
        m_heights[1] = m_heights[0];
        m_heights[0] = {width, h};
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
        const int around = m.left() + m.right() + 2 * int(std::ceil(m_document.documentMargin()));
        if (m_singleLine) {
            m_document.setTextWidth(-1);
            m_laidOutFor = -1;
            m_hintWidth = int(std::ceil(m_document.idealWidth())) + around;
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

    mutable QTextDocument m_document;
    mutable int m_laidOutFor = -1;
    mutable int m_layoutCount = 0;
    int m_paints = 0;
    mutable std::array<std::pair<int, int>, 2> m_heights{std::pair{-1, 0}, std::pair{-1, 0}}; // text width -> height
    mutable std::array<std::pair<int, int>, 2> m_tallest{std::pair{-1, 0}, std::pair{-1, 0}}; // label width -> tallest
    std::optional<int> m_hintWidth, m_minimumWidth;
    bool m_singleLine = false;
};

} // namespace studio
