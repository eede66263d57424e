// PlotTextImages and CachedLegendItem (widgets/common/plottextimages.h): a text drawn from
// its image looks as drawText() draws it, is made once per text and place, and is not used
// where an image would be wrong (exports, scaled or high-DPI painters); bar charts' legend
// entries are cached ones, in their order. Counted, not timed.
#include "plotstyle.h"
#include "plottextimages.h"

#include "imagecompare.h"

#include <QApplication>
#include <QTest>

using namespace studio;

namespace {

QImage blank(QSize size = QSize(240, 60), qreal ratio = 1)
{
    QImage image(size * ratio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::white);
    return image;
}

// Draws `text` at `at` through `images`, or with drawText() when `images` is null.
QImage drawn(PlotTextImages *images, const QString &text, QPointF at, QCPPainter::PainterModes modes = {},
             qreal ratio = 1)
{
    QImage image = blank(QSize(240, 60), ratio);
    QCPPainter painter(&image);
    painter.setModes(modes);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setPen(QColor(20, 40, 160));
    QFont font = QApplication::font();
    font.setPointSize(10);
    painter.setFont(font);
    painter.translate(at);
    const QRect rect(0, 0, 200, 30);
    if (images)
        images->draw(&painter, rect, Qt::AlignLeft | Qt::AlignTop, text);
    else
        painter.drawText(rect, Qt::AlignLeft | Qt::AlignTop, text);
    return image;
}

int darkPixels(const QImage &image)
{
    int dark = 0;
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y)
        for (int x = 0; x < rgb.width(); ++x)
            dark += qGray(rgb.pixel(x, y)) < 160;
    return dark;
}

} // namespace

class TestPlotTextImages : public QObject
{
    Q_OBJECT
private slots:
    void drawsAsDrawTextOncePerTextAndPlace()
    {
        int renders = 0;
        PlotTextImages images(&renders);
        const QString text = QStringLiteral("Memory roof Bpeak·I (Bpeak = 30 GB/s)");
        for (const QPointF at : {QPointF(5, 7), QPointF(5.25, 7.5), QPointF(12, 20)}) {
            const QImage fromImage = drawn(&images, text, at);
            const QImage fromGlyphs = drawn(nullptr, text, at);
            int worst = 0;
            const int differ = testutils::differingPixels(fromImage, fromGlyphs, 1, &worst);
            QVERIFY2(differ >= 0, qPrintable(QStringLiteral("%1 pixels differ by up to %2 levels").arg(-differ - 1).arg(worst)));
            QVERIFY(darkPixels(fromImage) > 50); // the text is there
        }
        QCOMPARE(renders, 2); // (12, 20) has (5, 7)'s fraction of a pixel: the same image
        drawn(&images, text, QPointF(5, 7));
        QCOMPARE(renders, 2);
        drawn(&images, text + QLatin1Char('!'), QPointF(5, 7));
        QCOMPARE(renders, 3);
    }

    void noImagesWhereTheyWouldBeWrong()
    {
        int renders = 0;
        PlotTextImages images(&renders);
        const QString text = QStringLiteral("stalled wait");
        drawn(&images, text, QPointF(3, 3), QCPPainter::pmVectorized); // SVG, PDF
        drawn(&images, text, QPointF(3, 3), QCPPainter::pmNoCaching);  // PNG exports
        const QImage sharp = drawn(&images, text, QPointF(3, 3), {}, 2.0); // a high-DPI buffer
        QCOMPARE(renders, 0);
        QVERIFY(darkPixels(sharp) > 100);
        PlotTextImages::enabled = false;
        drawn(&images, text, QPointF(3, 3));
        PlotTextImages::enabled = true;
        QCOMPARE(renders, 0);
    }

    // addHorizontalBars() entries are cached ones, in the order the bars were added, and
    // the plot's images are its own.
    void barChartLegendEntriesAreCached()
    {
        QCustomPlot plot;
        plot.resize(500, 300);
        setUpBarChart(&plot, QSharedPointer<QCPAxisTickerText>::create());
        QCPBars *a = addHorizontalBars(&plot, QStringLiteral("compute"), QColor(0x4c78a8), 0.4);
        QCPBars *b = addHorizontalBars(&plot, QStringLiteral("link"), QColor(0xf58518), 0.4);
        QCOMPARE(plot.legend->itemCount(), 2);
        for (int i = 0; i < 2; ++i) {
            auto *item = dynamic_cast<CachedLegendItem *>(plot.legend->item(i));
            QVERIFY(item);
            QCOMPARE(item->plottable(), i == 0 ? static_cast<QCPAbstractPlottable *>(a) : b);
        }
        QCOMPARE(plotTextImages(&plot), plotTextImages(&plot));
        QCustomPlot other;
        QVERIFY(plotTextImages(&other) != plotTextImages(&plot));
        // An entry that is not the last one keeps its place; a plottable without one gets none.
        cacheLegendEntry(&plot, a);
        QCOMPARE(plot.legend->itemCount(), 2);
        QCOMPARE(qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(0))->plottable(), static_cast<QCPAbstractPlottable *>(a));
        QVERIFY(dynamic_cast<CachedLegendItem *>(plot.legend->item(0)));
        b->removeFromLegend();
        cacheLegendEntry(&plot, b);
        QCOMPARE(plot.legend->itemCount(), 1);
        plot.replot(); // draws through the images
        QVERIFY(plot.legend->hasItemWithPlottable(a));
    }
};

QTEST_MAIN(TestPlotTextImages)
#include "tst_plottextimages.moc"
