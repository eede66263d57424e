#include "kerneltextdelegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

#include <cmath>

namespace studio {

KernelTextDelegate::KernelTextDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
    if (auto *view = qobject_cast<QAbstractItemView *>(parent))
        view->viewport()->installEventFilter(this);
}

bool KernelTextDelegate::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint)
        beginRepaint();
    return QStyledItemDelegate::eventFilter(watched, event);
}

void KernelTextDelegate::beginRepaint() const
{
    if (m_asked > 0)
        m_lastAsked = m_asked;
    m_asked = 0;
    // The current generation holds the texts of about four repaints before it becomes the
    // previous one: toggling two rules goes through four sets of texts, and with room for
    // two (FastTextDelegate's) GoogLeNet's rows drew most of their texts into new images again.
    if (m_current.size() > kRepaintsKept * m_lastAsked + kSlack) {
        m_previous = std::move(m_current);
        m_current.clear();
    }
}

KernelTextDelegate::Entry &KernelTextDelegate::entryOf(const QString &text, const QFont &font) const
{
    if (font != m_font) {
        m_current.clear();
        m_previous.clear();
        m_font = font;
    }
    ++m_asked;
    auto it = m_current.find(text);
    if (it != m_current.end())
        return it->second;
    if (auto node = m_previous.extract(text))
        return m_current.insert(std::move(node)).position->second;
    if (m_current.size() >= kMaxGeneration) {
        m_previous = std::move(m_current);
        m_current.clear();
    }
    Entry entry;
    entry.text = QStaticText(text);
    entry.text.setTextFormat(Qt::PlainText);
    entry.text.setPerformanceHint(QStaticText::AggressiveCaching);
    entry.text.prepare(QTransform(), font);
    return m_current.emplace(text, std::move(entry)).first->second;
}

namespace {
constexpr int kMargin = 3; // glyphs reach past the text's advance box (bearings, descenders)
}

const QImage &KernelTextDelegate::imageOf(Entry &entry, QRgb color, int fx, int fy, const QFont &font) const
{
    for (const Image &i : entry.images)
        if (i.color == color && i.fx == fx && i.fy == fy)
            return i.image;
    const QSizeF size = entry.text.size();
    QImage image(int(std::ceil(size.width())) + 2 * kMargin + 1, int(std::ceil(size.height())) + 2 * kMargin + 1,
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setFont(font);
        p.setPen(QColor::fromRgba(color));
        p.drawStaticText(QPointF(kMargin + fx / 64.0, kMargin + fy / 64.0), entry.text);
    }
    ++m_renders;
    if (entry.images.size() >= 4) // a text seldom shows in more colours or places than that
        entry.images.erase(entry.images.begin());
    entry.images.push_back({color, fx, fy, std::move(image)});
    return entry.images.back().image;
}

void KernelTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear(); // the style draws background, selection and focus; the text comes below
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    // As FastTextDelegate: the style only for cells with something to draw there.
    constexpr QStyle::State drawn = QStyle::State_Selected | QStyle::State_HasFocus | QStyle::State_MouseOver;
    if ((opt.state & drawn) || opt.backgroundBrush.style() != Qt::NoBrush
        || (opt.features & (QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::HasDecoration))
        || !opt.icon.isNull())
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (text.isEmpty())
        return;

    const QRect box = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget)
                          .adjusted(3, 0, -3, 0); // the default delegate's text margin
    Entry *entry = &entryOf(text, opt.font);
    if (entry->text.size().width() > box.width()) { // too long: end it with "…" rather than cut a letter
        ++m_elided;
        entry = &entryOf(QFontMetrics(opt.font).elidedText(text, Qt::ElideRight, box.width()), opt.font);
    }
    const QSizeF size = entry->text.size();
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
    const QColor color = opt.palette.color(group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text);
    painter->save();
    painter->setClipRect(box);
    // Images only where one image pixel is one device pixel: on a high-DPI screen (a device pixel
    // ratio above 1) or under a scale, an image made at 1x would be blown up and blurred.
    const bool onePixel = painter->deviceTransform().type() <= QTransform::TxTranslate
        && (!painter->device() || painter->device()->devicePixelRatio() == 1.0);
    if (m_useImages && onePixel) {
        // The whole pixels of the place, and its fraction kept in the image.
        const double left = std::floor(x), top = std::floor(y);
        const int fx = int(std::lround((x - left) * 64)), fy = int(std::lround((y - top) * 64));
        const QImage &image = imageOf(*entry, color.rgba(), fx, fy, opt.font);
        painter->drawImage(QPointF(left - kMargin, top - kMargin), image);
    } else {
        painter->setFont(opt.font);
        painter->setPen(color);
        painter->drawStaticText(QPointF(x, y), entry->text);
    }
    painter->restore();
}

} // namespace studio
