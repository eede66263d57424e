#include "plottextimages.h"

#include <algorithm>
#include <cmath>

namespace studio {

QRect PlotTextImages::draw(QCPPainter *painter, const QRect &rect, int flags, const QString &text)
{
    const QTransform t = painter->transform();
    // Images only where one image pixel is one device pixel (not on a high-DPI buffer, not scaled):
    // an image made at 1x would be blown up and blurred there.
    const bool onePixel = t.type() <= QTransform::TxTranslate
        && painter->deviceTransform().type() <= QTransform::TxTranslate
        && (!painter->device() || painter->device()->devicePixelRatio() == 1.0);
    if (!enabled || (painter->modes() & (QCPPainter::pmVectorized | QCPPainter::pmNoCaching)) || !onePixel) {
        QRect bound;
        painter->drawText(rect, flags, text, &bound);
        return bound;
    }
    const QPointF at = t.map(QPointF(rect.topLeft()));
    const double left = std::floor(at.x()), top = std::floor(at.y());
    const int fx = int(std::lround((at.x() - left) * 64)), fy = int(std::lround((at.y() - top) * 64));
    const QFont font = painter->font();
    const QRgb color = painter->pen().color().rgba();
    const auto hints = painter->renderHints();
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry &e) {
        return e.text == text && e.color == color && e.size == rect.size() && e.flags == flags && e.fx == fx
            && e.fy == fy && e.hints == hints && e.font == font;
    });
    if (it == m_entries.end()) {
        Entry e{text, font, color, rect.size(), flags, fx, fy, hints, {}, {}};
        e.bound = QFontMetrics(font, painter->device()).boundingRect(QRect(QPoint(0, 0), rect.size()), flags, text);
        constexpr int margin = 3; // glyphs reach past the bounding rect (bearings)
        e.image = QImage(e.bound.size() + QSize(2 * margin, 2 * margin), QImage::Format_ARGB32_Premultiplied);
        e.image.fill(Qt::transparent);
        {
            QPainter p(&e.image);
            p.setRenderHints(hints);
            p.setFont(font);
            p.setPen(painter->pen());
            p.translate(margin - e.bound.left() + fx / 64.0, margin - e.bound.top() + fy / 64.0);
            p.drawText(QRect(QPoint(0, 0), rect.size()), flags, text);
        }
        e.bound.translate(-margin, -margin); // now the image's place relative to the rect
        if (m_renders)
            ++*m_renders;
        if (m_entries.size() >= 64)
            m_entries.erase(m_entries.begin());
        m_entries.push_back(std::move(e));
        it = m_entries.end() - 1;
    }
    painter->save();
    painter->resetTransform();
    painter->drawImage(QPointF(left + it->bound.left(), top + it->bound.top()), it->image);
    painter->restore();
    constexpr int margin = 3;
    return it->bound.adjusted(margin, margin, -margin, -margin).translated(rect.topLeft());
}

void CachedLegendItem::draw(QCPPainter *painter)
{
    if (!mPlottable)
        return;
    painter->setFont(getFont());
    painter->setPen(QPen(getTextColor()));
    const QSize iconSize = mParentLegend->iconSize();
    const QString name = mPlottable->name();
    if (name != m_textName || painter->font() != m_textFont) {
        m_textRect = painter->fontMetrics().boundingRect(0, 0, 0, iconSize.height(), Qt::TextDontClip, name);
        m_textName = name;
        m_textFont = painter->font();
    }
    const QRect iconRect(mRect.topLeft(), iconSize);
    const int textHeight = qMax(m_textRect.height(), iconSize.height());
    m_images->draw(painter, QRect(mRect.x() + iconSize.width() + mParentLegend->iconTextPadding(), mRect.y(), m_textRect.width(), textHeight),
                  Qt::TextDontClip, name);
    painter->save();
    painter->setClipRect(iconRect, Qt::IntersectClip);
    // drawLegendIcon() is protected (QCPPlottableLegendItem is its friend): reached through
    // a member pointer named in a subclass, it is still the plottable's own (virtual).
    struct Icon : QCPAbstractPlottable
    {
        using QCPAbstractPlottable::drawLegendIcon;
    };
    (mPlottable->*(&Icon::drawLegendIcon))(painter, iconRect);
    painter->restore();
    if (getIconBorderPen().style() != Qt::NoPen) {
        painter->setPen(getIconBorderPen());
        painter->setBrush(Qt::NoBrush);
        const int halfPen = qCeil(painter->pen().widthF() * 0.5) + 1;
        painter->setClipRect(mOuterRect.adjusted(-halfPen, -halfPen, halfPen, halfPen));
        painter->drawRect(iconRect);
    }
}

QSize CachedLegendItem::minimumOuterSizeHint() const
{
    const QString name = mPlottable->name();
    const QFont font = getFont();
    if (!m_size || name != m_name || font != m_font || mMargins != m_margins
        || mParentLegend->iconSize() != m_iconSize || mParentLegend->iconTextPadding() != m_padding) {
        m_size = QCPPlottableLegendItem::minimumOuterSizeHint();
        m_name = name;
        m_font = font;
        m_margins = mMargins;
        m_iconSize = mParentLegend->iconSize();
        m_padding = mParentLegend->iconTextPadding();
        if (m_counter)
            ++*m_counter;
    }
    return *m_size;
}

namespace {
class TextImagesHolder : public QObject
{
public:
    using QObject::QObject;
    PlotTextImages images;
};
const char *const kHolderName = "rs_plotTextImages";
} // namespace

PlotTextImages *plotTextImages(QCustomPlot *plot)
{
    auto *holder = static_cast<TextImagesHolder *>(
        plot->findChild<QObject *>(QLatin1String(kHolderName), Qt::FindDirectChildrenOnly));
    if (!holder) {
        holder = new TextImagesHolder(plot);
        holder->setObjectName(QLatin1String(kHolderName));
    }
    return &holder->images;
}

void cacheLegendEntry(QCustomPlot *plot, QCPAbstractPlottable *plottable)
{
    QCPLegend *legend = plot->legend;
    if (!legend || !legend->hasItemWithPlottable(plottable))
        return;
    const int at = [&] {
        for (int i = 0; i < legend->itemCount(); ++i) {
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)); item && item->plottable() == plottable)
                return i;
        }
        return -1;
    }();
    if (at < 0)
        return;
    // In the entry's own cell (a wrapped legend has empty cells after the last entry).
    int row = 0, column = 0;
    legend->indexToRowCol(at, row, column);
    QCPAbstractLegendItem *old = legend->item(at);
    legend->take(old);
    delete old; // as QCPLegend::removeItem()
    legend->addElement(row, column, new CachedLegendItem(legend, plottable, nullptr, plotTextImages(plot)));
}

} // namespace studio
