#include "fasttextdelegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

namespace studio {

FastTextDelegate::FastTextDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
    if (auto *view = qobject_cast<QAbstractItemView *>(parent))
        view->viewport()->installEventFilter(this);
}

bool FastTextDelegate::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint)
        beginRepaint();
    return QStyledItemDelegate::eventFilter(watched, event);
}

void FastTextDelegate::beginRepaint() const
{
    m_cache.beginRepaint();
}

const QStaticText &FastTextDelegate::layoutOf(const QString &text, const QFont &font) const
{
    return m_cache.get(text, font, [this](const QString &t, const QFont &f) {
        ++m_layouts;
        return laidOut(t, f);
    });
}

QStaticText FastTextDelegate::laidOut(const QString &text, const QFont &font)
{
    QStaticText result(text);
    result.setTextFormat(Qt::PlainText);
    result.setPerformanceHint(QStaticText::AggressiveCaching);
    result.prepare(QTransform(), font);
    return result;
}

bool FastTextDelegate::styleDrawsSomething(const QStyleOptionViewItem &opt)
{
    // What CE_ItemViewItem draws besides the text (QCommonStyle, which Fusion
    // and the platform styles on Linux use): a selection or background brush,
    // a check box, an icon, a focus frame; hover in some styles. A plain cell
    // (most cells of a table during a drag) has none of these, and the view
    // has painted its base and alternating row colour already: asking the
    // style for it cost about half of the delegate's time (docs/performance.md).
    constexpr QStyle::State drawn = QStyle::State_Selected | QStyle::State_HasFocus | QStyle::State_MouseOver;
    return (opt.state & drawn) || opt.backgroundBrush.style() != Qt::NoBrush
        || (opt.features & (QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::HasDecoration))
        || !opt.icon.isNull();
}

void FastTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear(); // the style draws background, selection and focus; the text comes below
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    if (m_styleDrawsEveryCell || styleDrawsSomething(opt))
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;

    const QRect box = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget)
                          .adjusted(3, 0, -3, 0); // the default delegate's text margin
    const QStaticText *shown = &layoutOf(text, opt.font);
    if (shown->size().width() > box.width()) {
        // Too long: end it with "…" rather than cut a letter. Kept per text and
        // width: QFontMetrics::elidedText() cost 42 k instructions a cell on
        // every repaint (the timeline's name column, docs/performance.md).
        const QString key = text + QChar(0x1f) + QString::number(box.width()); // a unit separator: in no cell text
        shown = &m_cache.get(key, opt.font, [&](const QString &, const QFont &font) {
            ++m_layouts;
            ++m_elisions;
            return laidOut(QFontMetrics(font).elidedText(text, Qt::ElideRight, box.width()), font);
        });
    }
    const QSizeF size = shown->size();
    const Qt::Alignment align = QStyle::visualAlignment(opt.direction, opt.displayAlignment);
    double x = box.left();
    if (align & Qt::AlignRight)
        x = box.right() + 1 - size.width();
    else if (align & Qt::AlignHCenter)
        x = box.left() + (box.width() - size.width()) / 2;
    const double y = box.top() + (box.height() - size.height()) / 2;
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
        : (opt.state & QStyle::State_Active)                                  ? QPalette::Normal
                                                                              : QPalette::Inactive;
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText
                                                                                   : QPalette::Text));
    painter->setClipRect(box);
    painter->drawStaticText(QPointF(x, y), *shown);
    painter->restore();
}

} // namespace studio
