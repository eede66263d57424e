// Holds a label whose text changes on every update (a readout) so that a new
// text relays out the window only when the label's size needs change.
//
// QLabel::setText() always calls updateGeometry(), which invalidates every
// layout from the label up to the window. A QTabWidget that receives the
// resulting layout request repaints itself whole (QTabWidget::setUpLayout),
// so one new number in a view's readout repainted the entire main window
// (1400×860 pixels: every plot, panel and table) on every slider step, and
// re-asked every widget on the way for its size hints: about half of a Gables
// update (docs/performance.md, `roofline-bench --paints`). In a host the
// label's layout request stops here; the host passes it on only when what a
// layout reads (size hints, the height for the current width, the size
// limits) changed. The label itself repaints as before.
//
// Wrap a label after setting its word wrap, margins, size policy and fixed
// sizes; add the host to the layout instead of the label. Hiding or showing
// the label hides or shows the host.
#pragma once

#include <QEvent>
#include <QLabel>
#include <QResizeEvent>
#include <QWidget>

#include <tuple>

namespace studio {

class ReadoutHost : public QWidget
{
public:
    explicit ReadoutHost(QLabel *label, QWidget *parent = nullptr)
        : QWidget(parent)
        , m_label(label)
    {
        const bool hidden = label->isHidden() && label->testAttribute(Qt::WA_WState_ExplicitShowHide);
        label->setParent(this); // shown with the host unless hidden explicitly
        if (hidden)
            setVisible(false);
        adoptLimits();
        label->installEventFilter(this);
        m_hints = hints();
    }

    QLabel *label() const { return m_label; }

    QSize sizeHint() const override { return m_label->sizeHint(); }
    QSize minimumSizeHint() const override { return m_label->minimumSizeHint(); }
    bool hasHeightForWidth() const override { return m_label->hasHeightForWidth(); }
    int heightForWidth(int width) const override { return m_label->heightForWidth(width); }

protected:
    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::LayoutRequest) { // the label's updateGeometry()
            passOnIfChanged();
            return true;
        }
        if (event->type() == QEvent::Show) // a hidden label's new text posts no request
            passOnIfChanged();
        return QWidget::event(event);
    }
    void resizeEvent(QResizeEvent *event) override
    {
        m_label->setGeometry(QRect(QPoint(0, 0), event->size()));
    }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_label && (event->type() == QEvent::ShowToParent || event->type() == QEvent::HideToParent))
            setVisible(event->type() == QEvent::ShowToParent);
        return false;
    }

private:
    void passOnIfChanged()
    {
        const Hints now = hints();
        if (now == m_hints)
            return;
        m_hints = now;
        adoptLimits();
        updateGeometry(); // its size needs changed: lay the window out again
    }
    void adoptLimits()
    {
        setSizePolicy(m_label->sizePolicy());
        setMinimumSize(m_label->minimumSize());
        setMaximumSize(m_label->maximumSize());
    }
    // What a layout reads from the host: the size hints, less what the size
    // policy and the limits make it ignore (the width of a label whose width
    // the layout ignores, the height of one of fixed height), and the height
    // for the current width. A label of fixed height whose width the layout
    // ignores never changes it, and no text is measured.
    using Hints = std::tuple<QSize, QSize, int, QSizePolicy, QSize, QSize>;
    Hints hints() const
    {
        const QSizePolicy policy = m_label->sizePolicy();
        const bool ignoreWidth = policy.horizontalPolicy() == QSizePolicy::Ignored
            || m_label->minimumWidth() == m_label->maximumWidth();
        const bool ignoreHeight = policy.verticalPolicy() == QSizePolicy::Ignored
            || m_label->minimumHeight() == m_label->maximumHeight();
        QSize hint, minimum;
        int forWidth = -1;
        if (!ignoreWidth || !ignoreHeight) {
            hint = m_label->sizeHint();
            minimum = m_label->minimumSizeHint();
            if (!ignoreHeight && m_label->hasHeightForWidth())
                forWidth = m_label->heightForWidth(width());
            if (ignoreWidth) {
                hint.setWidth(0);
                minimum.setWidth(0);
            }
            if (ignoreHeight) {
                hint.setHeight(0);
                minimum.setHeight(0);
            }
        }
        return {hint, minimum, forWidth, policy, m_label->minimumSize(), m_label->maximumSize()};
    }

    QLabel *m_label;
    Hints m_hints;
};

} // namespace studio
