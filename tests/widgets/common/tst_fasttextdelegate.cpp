// FastTextDelegate's cache of laid-out texts (issue 14, the soak): it keeps
// what the last repaints drew, not every text ever drawn. A table whose
// numbers change on every repaint (as they do with every slider move) keeps a
// bounded cache; texts that do not change are never laid out again, after a
// partial repaint either. Counted, not timed.
#include "fasttextdelegate.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QProxyStyle>
#include <QStandardItemModel>
#include <QStyleFactory>
#include <QTableWidget>
#include <QTest>

using namespace studio;

namespace {

constexpr int kRows = 10;
constexpr int kColumns = 5;
constexpr std::size_t kCells = kRows * kColumns;
// A generation is full past one repaint's texts plus the slack, and the
// repaint that finds it full adds its own: two generations at most hold this.
constexpr std::size_t kBound = 2 * (2 * kCells + FastTextDelegate::kSlack);

struct Table
{
    QTableWidget table{kRows, kColumns};
    FastTextDelegate *delegate = new FastTextDelegate(&table);
    Table()
    {
        table.setItemDelegate(delegate);
        table.resize(700, 500);
        table.show();
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kColumns; ++c)
                table.setItem(r, c, new QTableWidgetItem(QStringLiteral("layer %1.%2").arg(r).arg(c)));
    }
    void repaint() { table.viewport()->repaint(); } // a paint event now, as a slider move's update gives
    bool allCellsVisible() const
    {
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kColumns; ++c)
                if (!table.viewport()->rect().contains(table.visualItemRect(table.item(r, c))))
                    return false;
        return true;
    }
};

// Fusion, counting the item panels it is asked to draw.
class CountingStyle : public QProxyStyle
{
public:
    CountingStyle()
        : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
    {
    }
    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget) const override
    {
        if (element == CE_ItemViewItem)
            ++panels;
        QProxyStyle::drawControl(element, option, painter, widget);
    }
    mutable int panels = 0;
};

// Cells of every kind a style draws something for, between plain ones:
// alternating rows, a background colour, a check box, an icon, a foreground
// colour, a selected row and the focused current cell.
void fillVariedTable(QTableWidget &table)
{
    table.setAlternatingRowColors(true);
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kColumns; ++c)
            table.setItem(r, c, new QTableWidgetItem(QStringLiteral("%1 µs").arg(r * 13.25 + c)));
    table.item(1, 1)->setBackground(QColor(255, 244, 214));
    table.item(2, 0)->setCheckState(Qt::Checked);
    table.item(2, 1)->setCheckState(Qt::Unchecked);
    QPixmap swatch(12, 12);
    swatch.fill(Qt::darkCyan);
    table.item(3, 0)->setIcon(QIcon(swatch));
    table.item(4, 2)->setForeground(QColor(110, 110, 110));
    table.item(5, 4)->setText(QStringLiteral("a text far too long for its column, ended with an ellipsis"));
    table.selectRow(6);
    table.setCurrentCell(7, 3, QItemSelectionModel::NoUpdate); // focus there, the selection stays
    table.setFocus();
}

} // namespace

class TestFastTextDelegate : public QObject
{
    Q_OBJECT
private slots:
    // Every repaint shows 50 new numbers: 5,000 distinct texts drawn. The
    // cache held each one (up to 20,000 per table) before; now at most two
    // generations of two repaints' worth plus the slack.
    void cacheStaysBoundedWhenEveryTextChanges()
    {
        Table t;
        QVERIFY(QTest::qWaitForWindowExposed(&t.table));
        QVERIFY(t.allCellsVisible());
        for (int pass = 0; pass < 100; ++pass) {
            for (int r = 0; r < kRows; ++r)
                for (int c = 0; c < kColumns; ++c)
                    t.table.item(r, c)->setText(QString::number(1.0 + pass * 0.001 + (r * kColumns + c) * 1e-7, 'f', 7));
            t.repaint();
            QVERIFY2(t.delegate->cachedTexts() <= kBound,
                     qPrintable(QStringLiteral("pass %1: %2 texts cached").arg(pass).arg(t.delegate->cachedTexts())));
        }
        QCOMPARE(t.delegate->layouts(), kCells + 100 * kCells); // the names shown first, then each new number once
    }

    // One cell changes per repaint (the others are layer names): only that
    // text is laid out, for 200 repaints, and the cache stays bounded.
    void unchangedTextsAreLaidOutOnce()
    {
        Table t;
        QVERIFY(QTest::qWaitForWindowExposed(&t.table));
        t.repaint();
        const std::size_t first = t.delegate->layouts();
        QCOMPARE(first, kCells);
        t.repaint();
        QCOMPARE(t.delegate->layouts(), first); // nothing new
        for (int pass = 0; pass < 200; ++pass) {
            t.table.item(0, 1)->setText(QStringLiteral("%1 ms").arg(pass));
            t.repaint();
            QCOMPARE(t.delegate->layouts(), first + std::size_t(pass) + 1);
            QVERIFY(t.delegate->cachedTexts() <= kBound);
        }
        // Partial repaints (one cell, as a hover or a selection gives) between
        // full ones lose none of the full repaint's texts.
        const std::size_t before = t.delegate->layouts();
        const QRect cell = t.table.visualItemRect(t.table.item(3, 3));
        for (int k = 0; k < 5; ++k) {
            t.table.viewport()->repaint(cell);
            t.repaint();
        }
        QCOMPARE(t.delegate->layouts(), before);
    }

    // A text too long for its cell is shortened once per text and width, not
    // on every repaint, and shows as the view's own elision would.
    void longTextsAreShortenedOnce()
    {
        Table t;
        QVERIFY(QTest::qWaitForWindowExposed(&t.table));
        const QString longText = QStringLiteral("a text far too long for its column, ended with an ellipsis");
        t.table.item(2, 1)->setText(longText);
        t.table.item(4, 3)->setText(longText + QStringLiteral(" too"));
        t.repaint();
        QCOMPARE(t.delegate->elisions(), std::size_t(2));
        for (int k = 0; k < 5; ++k)
            t.repaint();
        QCOMPARE(t.delegate->elisions(), std::size_t(2));
        t.table.setColumnWidth(1, t.table.columnWidth(1) + 20); // a new width: shortened again, for it
        t.repaint();
        QCOMPARE(t.delegate->elisions(), std::size_t(3));
    }

    // Plain cells skip the style's item panel (nothing to draw there): the
    // picture is the same pixel for pixel as with the panel drawn for every
    // cell, in the light and the dark palette, and the style is asked only
    // for the cells that show something in it (fails when every cell asks).
    void plainCellsSkipTheStyleWithTheSamePicture_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light palette") << false;
        QTest::newRow("dark palette") << true;
    }
    void plainCellsSkipTheStyleWithTheSamePicture()
    {
        QFETCH(bool, dark);
        CountingStyle style;
        QTableWidget table(kRows, kColumns);
        table.setStyle(&style);
        table.viewport()->setStyle(&style);
        if (dark) {
            QPalette p = style.standardPalette();
            p.setColor(QPalette::Base, QColor(30, 30, 30));
            p.setColor(QPalette::AlternateBase, QColor(45, 45, 45));
            p.setColor(QPalette::Text, QColor(230, 230, 230));
            p.setColor(QPalette::Highlight, QColor(42, 130, 218));
            table.setPalette(p);
        }
        auto *delegate = new FastTextDelegate(&table);
        table.setItemDelegate(delegate);
        table.resize(700, 500);
        fillVariedTable(table);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));

        delegate->setStyleDrawsEveryCell(true);
        style.panels = 0;
        const QImage every = table.viewport()->grab().toImage();
        const int panelsEvery = style.panels;
        delegate->setStyleDrawsEveryCell(false);
        style.panels = 0;
        const QImage some = table.viewport()->grab().toImage();
        const int panelsSome = style.panels;

        QCOMPARE(some.size(), every.size());
        QVERIFY2(some == every, "the cells without the style's panel differ from the cells with it");
        QCOMPARE(panelsEvery, kRows * kColumns);
        // The background, the two check boxes, the icon, the selected row's
        // five cells and the current cell (focus).
        QCOMPARE(panelsSome, 1 + 2 + 1 + kColumns + 1);
    }

    // A delegate whose parent is not an item view gets no repaints: bounded all the same.
    void withoutAViewStillBounded()
    {
        FastTextDelegate delegate;
        QStandardItemModel model(1, 1);
        QImage image(200, 30, QImage::Format_ARGB32);
        QPainter painter(&image);
        QStyleOptionViewItem option;
        option.rect = image.rect();
        option.font = QApplication::font();
        option.fontMetrics = QFontMetrics(option.font);
        option.palette = QApplication::palette();
        for (int i = 0; i < 2 * int(FastTextDelegate::kMaxGeneration) + 10; ++i) {
            model.setData(model.index(0, 0), QString::number(i));
            delegate.paint(&painter, option, model.index(0, 0));
        }
        QVERIFY(delegate.layouts() >= 2 * FastTextDelegate::kMaxGeneration + 10);
        QVERIFY2(delegate.cachedTexts() <= 2 * FastTextDelegate::kMaxGeneration,
                 qPrintable(QString::number(delegate.cachedTexts())));
    }
    // The cache both delegates share (KernelTextDelegate keeps four repaints' texts,
    // FastTextDelegate one): four sets of texts shown in turn are all kept with room
    // for four repaints and made again and again with room for one; a new font drops all.
    void generationCacheKeepsItsRepaints()
    {
        const auto makesAfterWarmUp = [](std::size_t repaintsKept) {
            TextGenerationCache<int> cache(repaintsKept, 8192);
            const QFont font;
            int made = 0;
            const auto repaint = [&](int set) {
                cache.beginRepaint();
                for (int i = 0; i < 200; ++i)
                    cache.get(QStringLiteral("%1/%2").arg(set).arg(i), font, [&](const QString &, const QFont &) { return ++made; });
            };
            for (int round = 0; round < 2; ++round)
                for (int set = 0; set < 4; ++set)
                    repaint(set);
            const int warm = made;
            for (int round = 0; round < 3; ++round)
                for (int set = 0; set < 4; ++set)
                    repaint(set);
            return std::pair{made - warm, cache.size()};
        };
        const auto [madeKeeping4, held4] = makesAfterWarmUp(4);
        const auto [madeKeeping1, held1] = makesAfterWarmUp(1);
        QCOMPARE(madeKeeping4, 0);
        QCOMPARE(madeKeeping1, 3 * 4 * 200);
        QVERIFY(held4 <= 2 * (5 * 200 + TextGenerationCache<int>::kSlack)); // one repaint over the rotation bound, twice
        QVERIFY(held1 <= 2 * (2 * 200 + TextGenerationCache<int>::kSlack));
        TextGenerationCache<int> cache(4, 8192);
        QFont font;
        cache.get(QStringLiteral("a"), font, [](const QString &, const QFont &) { return 1; });
        font.setPointSize(font.pointSize() + 3);
        QCOMPARE(cache.get(QStringLiteral("a"), font, [](const QString &, const QFont &) { return 2; }), 2);
        QCOMPARE(cache.size(), std::size_t(1));
    }
};

QTEST_MAIN(TestFastTextDelegate)
#include "tst_fasttextdelegate.moc"
