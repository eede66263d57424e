// An item delegate for large tables that change on every slider move: it
// draws each cell's text from a cache of laid-out strings (QStaticText), so a
// repaint shapes only the texts that changed. The default delegate lays out
// and shapes every visible cell's text on every repaint, which took about a
// millisecond per update of the timeline's instruction table; the AMAIX layer
// table uses it too
// (docs/performance.md). Backgrounds, selection and focus are the style's.
//
// The cache keeps what the last repaints drew, not every text ever drawn
// (TextGenerationCache, two generations): it holds about twice the texts of
// one repaint plus kSlack, so the number texts of every slider position are
// not kept for the session (issue 14's soak).
#pragma once

#include "textgenerationcache.h"

#include <QStaticText>
#include <QStyledItemDelegate>

namespace studio {

class FastTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    // New texts one repaint may add before the current generation is full.
    static constexpr std::size_t kSlack = TextGenerationCache<QStaticText>::kSlack;
    // A generation never holds more (a parent that is not an item view starts no repaints).
    static constexpr std::size_t kMaxGeneration = 8192;

    // With an item view as parent, each paint of its viewport starts a repaint.
    explicit FastTextDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // A repaint starts (called on each paint event of the view's viewport).
    void beginRepaint() const;
    // Whether the style's item panel is drawn for every cell (true: as
    // QStyledItemDelegate does), or only for cells with something to show
    // there (the default: a selection, a background, a check box, an icon, the
    // focus). Tests compare the two pictures.
    void setStyleDrawsEveryCell(bool on) { m_styleDrawsEveryCell = on; }
    // Laid-out texts held (both generations), and how many were laid out so far: for tests.
    std::size_t cachedTexts() const { return m_cache.size(); }
    std::size_t layouts() const { return m_layouts; }
    // How often a text too long for its cell was shortened ("…"): once per text and width.
    std::size_t elisions() const { return m_elisions; }

    // Whether the style draws something in the cell besides its text (a
    // selection, a background, a check box, an icon, the focus): a plain cell
    // is left to the view's base and alternating row colour. KernelTextDelegate too.
    static bool styleDrawsSomething(const QStyleOptionViewItem &opt);
    // `text` as plain text laid out once in `font`, for drawStaticText(). KernelTextDelegate too.
    static QStaticText laidOut(const QString &text, const QFont &font);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    const QStaticText &layoutOf(const QString &text, const QFont &font) const;

    mutable TextGenerationCache<QStaticText> m_cache{1, kMaxGeneration}; // one repaint's texts kept
    mutable std::size_t m_layouts = 0;
    mutable std::size_t m_elisions = 0;
    bool m_styleDrawsEveryCell = false;
};

} // namespace studio
