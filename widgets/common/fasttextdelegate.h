// An item delegate for large tables that change on every slider move: it
// draws each cell's text from a cache of laid-out strings (QStaticText), so a
// repaint shapes only the texts that changed. The default delegate lays out
// and shapes every visible cell's text on every repaint, which took about a
// millisecond per update of the timeline's instruction table; the AMAIX layer
// table uses it too
// (docs/performance.md). Backgrounds, selection and focus are the style's.
#pragma once

#include <QStaticText>
#include <QStyledItemDelegate>

#include <unordered_map>

namespace studio {

class FastTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    const QStaticText &layoutOf(const QString &text, const QFont &font) const;

    mutable std::unordered_map<QString, QStaticText> m_cache;
    mutable QFont m_font;
};

} // namespace studio
