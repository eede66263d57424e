// The status bar's one-line summary of the current view, new on every update.
//
// In a ReadoutHost (readouthost.h) a new text posts no layout request up the
// window; but the host still asks the label for its size hints to see
// whether they changed, and a QLabel measures its text for that (0.6 M
// instructions per update in every view, docs/performance.md). The width is
// ignored (the summary is cut at the right, never widens the window) and the
// height is one line's whatever the text, so the hints are that line's,
// measured once per font and style: a new text measures nothing, and the
// label is laid out exactly as the QLabel it was.
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
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        measureLine();
    }

    // How often a text was measured for a size hint (tests: once per font, never per text).
    int measurements() const { return m_measurements; }

    QSize sizeHint() const override { return m_line; }
    QSize minimumSizeHint() const override { return m_line; }

protected:
    void changeEvent(QEvent *event) override
    {
        QLabel::changeEvent(event);
        if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
            measureLine();
            updateGeometry();
        }
    }

private:
    // One line of this font, as a plain QLabel measures it (its width is ignored).
    void measureLine()
    {
        QLabel line(QStringLiteral("Xg"));
        line.setFont(font());
        line.setStyle(style());
        line.setMargin(margin());
        m_line = QSize(0, line.sizeHint().height());
        ++m_measurements;
    }

    QSize m_line;
    int m_measurements = 0;
};

} // namespace studio
