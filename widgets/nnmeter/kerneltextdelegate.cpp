#include "kerneltextdelegate.h"
#include "fasttextdelegate.h"

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
    m_cache.beginRepaint();
}

KernelTextDelegate::Entry &KernelTextDelegate::entryOf(const QString &text, const QFont &font) const
{
    return m_cache.get(text, font, [](const QString &t, const QFont &f) {
        Entry entry;
        entry.text = FastTextDelegate::laidOut(t, f);
        return entry;
    });
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
    if (FastTextDelegate::styleDrawsSomething(opt))
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
