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

#include <optional>

namespace studio {

class CachedLabel : public QLabel
{
public:
    using QLabel::QLabel;

    QSize sizeHint() const override
    {
        sync();
        if (!m_size)
            m_size = QLabel::sizeHint();
        return *m_size;
    }
    QSize minimumSizeHint() const override
    {
        sync();
        if (!m_minimum)
            m_minimum = QLabel::minimumSizeHint();
        return *m_minimum;
    }
    int heightForWidth(int width) const override
    {
        sync();
        if (width != m_width) {
            m_width = width;
            m_height = QLabel::heightForWidth(width);
        }
        return m_height;
    }

protected:
    void changeEvent(QEvent *event) override
    {
        m_valid = false; // font, style, palette: measure again
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
        m_width = -1;
    }

    mutable QString m_text;
    mutable bool m_valid = false;
    mutable std::optional<QSize> m_size, m_minimum;
    mutable int m_width = -1;
    mutable int m_height = 0;
};

} // namespace studio
