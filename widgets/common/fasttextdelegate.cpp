#include "fasttextdelegate.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>

namespace studio {

const QStaticText &FastTextDelegate::layoutOf(const QString &text, const QFont &font) const
{
    if (font != m_font || m_cache.size() > 20000) {
        m_cache.clear(); // a new font, or bounded: the times change with every edit
        m_font = font;
    }
    auto it = m_cache.find(text);
    if (it == m_cache.end()) {
        QStaticText laidOut(text);
        laidOut.setTextFormat(Qt::PlainText);
        laidOut.setPerformanceHint(QStaticText::AggressiveCaching);
        laidOut.prepare(QTransform(), font);
        it = m_cache.emplace(text, std::move(laidOut)).first;
    }
    return it->second;
}

void FastTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear(); // the style draws background, selection and focus; the text comes below
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;

    const QRect box = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget)
                          .adjusted(3, 0, -3, 0); // the default delegate's text margin
    const QStaticText *laidOut = &layoutOf(text, opt.font);
    if (laidOut->size().width() > box.width()) // too long: end it with "…" rather than cut a letter
        laidOut = &layoutOf(QFontMetrics(opt.font).elidedText(text, Qt::ElideRight, box.width()), opt.font);
    const QSizeF size = laidOut->size();
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
    painter->drawStaticText(QPointF(x, y), *laidOut);
    painter->restore();
}

} // namespace studio
