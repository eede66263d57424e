// The status bar's one-line summary of the current view, new on every update.
//
// In a ReadoutHost (readouthost.h) a new text posts no layout request up the
// window; but the host still asked the label for its size hints to see
// whether they changed, and a QLabel measures its text for that (0.6 M
// instructions per update in every view, docs/performance.md). The width is
// ignored (the summary is cut at the right, never widens the window) and the
// height is fixed to one line, so the host asks nothing and no text is
// measured. The height follows font and style changes.
#pragma once

#include <QEvent>
#include <QLabel>

namespace studio {

class StatusReadout : public QLabel
{
public:
    explicit StatusReadout(QWidget *parent = nullptr)
        : QLabel(parent)
    {
        setTextFormat(Qt::PlainText);
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        fixHeight();
    }

    // How often a layout (or the host) asked for a size hint (tests: never on a new text).
    int sizeQueries() const { return m_sizeQueries; }

    QSize sizeHint() const override
    {
        ++m_sizeQueries;
        return QLabel::sizeHint();
    }
    QSize minimumSizeHint() const override
    {
        ++m_sizeQueries;
        return QLabel::minimumSizeHint();
    }

protected:
    void changeEvent(QEvent *event) override
    {
        QLabel::changeEvent(event);
        if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
            fixHeight();
    }

private:
    // One line of this font, as a plain QLabel measures it.
    void fixHeight()
    {
        QLabel line(QStringLiteral("Xg"));
        line.setFont(font());
        line.setStyle(style());
        setFixedHeight(line.sizeHint().height());
    }

    mutable int m_sizeQueries = 0;
};

} // namespace studio
