// A QLabel that remembers its size hints until its text, font or style
// changes.
//
// A word-wrapped rich-text label lays its text document out again for every
// sizeHint(), minimumSizeHint() and heightForWidth() a layout asks for. The
// readouts get new text on every slider step, each new text makes the window
// lay itself out again, and those layouts asked the same labels several
// times: a fifth of an AMAIX update with a snapshot compared
// (docs/performance.md). Cached, each label is laid out once per new text.
// Set margins, word wrap and alignment before the label is first shown.
#pragma once

#include <QEvent>
#include <QLabel>

#include <array>
#include <optional>
#include <utility>

namespace studio {

class CachedLabel : public QLabel
{
public:
    using QLabel::QLabel;

    // A word-wrapped label's preferred width does not follow its text: QLabel
    // finds it by laying the text out at several trial widths, for every new
    // text, although the layout then sizes the label by heightForWidth() at
    // the width it gives it. Here the width is measured once (for the first
    // text that is not empty, again after a font or style change) and the height is that of
    // the current width, which the layout asks for anyway (cached below).
    QSize sizeHint() const override
    {
        sync();
        if (!m_size) {
            if (wordWrap() && m_hintWidth > 0) {
                const int w = width() > 0 ? width() : m_hintWidth;
                m_size = QSize(m_hintWidth, heightForWidth(w));
            } else {
                m_size = QLabel::sizeHint();
                if (wordWrap() && !text().isEmpty())
                    m_hintWidth = m_size->width();
            }
        }
        return *m_size;
    }
    // The same for the minimum (QLabel's does the trial layouts too): a
    // word-wrapped label's minimum is measured with its first text; the
    // height it needs at its width comes from heightForWidth().
    QSize minimumSizeHint() const override
    {
        sync();
        if (!m_minimum) {
            if (wordWrap() && m_minimumOnce)
                m_minimum = m_minimumOnce;
            else
                m_minimum = QLabel::minimumSizeHint();
            if (wordWrap() && !text().isEmpty())
                m_minimumOnce = m_minimum;
        }
        return *m_minimum;
    }
    int heightForWidth(int width) const override
    {
        sync();
        for (const auto &[w, h] : m_heights) {
            if (w == width)
                return h;
        }
        // Two widths remembered: the one the layout tries and the one the label has.
        m_heights[1] = m_heights[0];
        m_heights[0] = { width, QLabel::heightForWidth(width) };
        return m_heights[0].second;
    }

protected:
    void changeEvent(QEvent *event) override
    {
        m_valid = false; // font, style, palette: measure again
        m_hintWidth = -1;
        m_minimumOnce.reset();
        QLabel::changeEvent(event);
    }

private:
    void sync() const
    {
        if (m_valid && text() == m_text)
            return;
        m_text = text();
        m_valid = true;
        m_size.reset();
        m_minimum.reset();
        m_heights = { std::pair { -1, 0 }, std::pair { -1, 0 } };
    }

    mutable QString m_text;
    mutable bool m_valid = false;
    mutable std::optional<QSize> m_size, m_minimum;
    mutable int m_hintWidth = -1; // a word-wrapped label's preferred width
    mutable std::optional<QSize> m_minimumOnce; // and its minimum size
    mutable std::array<std::pair<int, int>, 2> m_heights { std::pair { -1, 0 }, std::pair { -1, 0 } }; // width → height
};

} // namespace studio
