// RichReadoutLabel: a rich-text readout laid out once per text and width,
// as high as its text needs (and never shorter while the text changes, until
// resetHeight()), with QLabel's frame and margin as a frame shape and a
// padding, and a Copy action instead of mouse selection.
#include "richreadoutlabel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QPainter>
#include <QPicture>
#include <QTest>
#include <QTextDocument>

#include <cmath>

using namespace studio;

namespace {

const QString kLong = QStringLiteral("<b>7.068 ms</b> per inference &nbsp; 141.5 FPS<br>"
                                     "Compute-bound: 94.6 % of timed layers (98.5 % of the time)");

} // namespace

class TestRichReadoutLabel : public QObject
{
    Q_OBJECT
private slots:
    void heightFollowsTheTextAndWidth()
    {
        RichReadoutLabel label;
        label.setHtml(kLong);
        QCOMPARE(label.text(), kLong);
        const int wide = label.heightForWidth(2000);
        const int narrow = label.heightForWidth(120);
        QVERIFY2(narrow > wide, qPrintable(QStringLiteral("%1 at 120 px, %2 at 2000 px").arg(narrow).arg(wide)));
        // Two lines at a wide width: taller than one line, shorter than the narrow layout.
        RichReadoutLabel one;
        one.setHtml(QStringLiteral("<b>7.068 ms</b>"));
        QVERIFY(one.heightForWidth(2000) < wide);
    }

    // QLabel::setMargin() as a padding inside the contents margins: the
    // height grows by twice the padding, and the text starts that far in.
    void paddingAddsToTheHeight()
    {
        RichReadoutLabel plain, padded;
        plain.setHtml(kLong);
        padded.setHtml(kLong);
        padded.setPadding(6);
        QCOMPARE(padded.heightForWidth(2000), plain.heightForWidth(2000 - 12) + 12);
        padded.setContentsMargins(1, 1, 1, 1);
        QCOMPARE(padded.heightForWidth(2000), plain.heightForWidth(2000 - 14) + 14);
    }

    // A frame shape set on the label is drawn (the label paints its own
    // document, and drew no frame before): the left column of the widget
    // differs from the background only with the frame.
    void frameShapeIsDrawn()
    {
        const auto leftColumnInk = [](QFrame::Shape shape) {
            RichReadoutLabel label;
            label.setFrameShape(shape);
            label.setPadding(6);
            label.setHtml(QStringLiteral("x"));
            label.resize(200, 40);
            const QImage image = label.grab().toImage();
            const QRgb background = image.pixel(100, 38);
            int ink = 0;
            for (int y = 5; y < 35; ++y)
                ink += image.pixel(0, y) != background;
            return ink;
        };
        QCOMPARE(leftColumnInk(QFrame::NoFrame), 0);
        QVERIFY(leftColumnInk(QFrame::Box) > 20);
    }

    // Once per new text and width; the same text again costs nothing.
    void laidOutOncePerTextAndWidth()
    {
        RichReadoutLabel label;
        label.setHtml(kLong);
        label.resize(300, label.heightForWidth(300));
        label.heightForWidth(300);
        const int first = label.layouts();
        for (int i = 0; i < 3; ++i) {
            label.heightForWidth(300);
            label.sizeHint();
            label.grab();
        }
        QCOMPARE(label.layouts(), first);
        label.setHtml(kLong); // unchanged
        label.heightForWidth(300);
        QCOMPARE(label.layouts(), first);
        label.setHtml(kLong + QStringLiteral("!"));
        label.heightForWidth(300);
        label.grab();
        QCOMPARE(label.layouts(), first + 1);
    }

    // The height at a width never shrinks while the text changes, until resetHeight().
    void growsUntilReset()
    {
        RichReadoutLabel label;
        label.setHtml(kLong);
        const int tall = label.heightForWidth(150);
        label.setHtml(QStringLiteral("short"));
        QCOMPARE(label.heightForWidth(150), tall);
        label.resetHeight();
        QVERIFY(label.heightForWidth(150) < tall);
    }

    // The preferred and minimum widths include the padding and the frame:
    // the probe that measures them has neither.
    void widthHintsIncludePaddingAndFrame()
    {
        RichReadoutLabel plain, padded;
        plain.setHtml(kLong);
        padded.setFrameShape(QFrame::Box); // a 1-px frame: contents margins of 1
        padded.setHtml(kLong);
        padded.setPadding(6);
        const int around = 2 * 6 + padded.contentsMargins().left() + padded.contentsMargins().right();
        QVERIFY(around > 12);
        QCOMPARE(padded.sizeHint().width(), plain.sizeHint().width() + around);
        QCOMPARE(padded.minimumSizeHint().width(), plain.minimumSizeHint().width() + around);
    }

    // One line: never wrapped, no height for width, the height of one line at
    // any width, its preferred width its text's; what does not fit is cut.
    void singleLineNeverWraps()
    {
        RichReadoutLabel wrapped, single;
        wrapped.setHtml(kLong);
        single.setSingleLine(true);
        single.setHtml(QStringLiteral("<b>7.068 ms</b> per inference, 141.5 FPS, 94.6 % compute-bound"));
        QVERIFY(!single.hasHeightForWidth());
        QVERIFY(!single.sizePolicy().hasHeightForWidth());
        QVERIFY(!single.wordWrap());
        QTextDocument line;
        line.setDefaultFont(single.font());
        line.setDocumentMargin(0);
        line.setHtml(QStringLiteral("<b>7.068 ms</b>"));
        const int lineHeight = int(std::ceil(line.size().height()));
        QCOMPARE(single.sizeHint().height(), lineHeight);
        QCOMPARE(single.heightForWidth(60), lineHeight);
        QCOMPARE(single.sizeHint().width(), int(std::ceil(single.document()->idealWidth())));
        QCOMPARE(single.minimumSizeHint().width(), 0);
        // Cut at the right, never on a second line: ink only in the first line's rows.
        single.resize(80, 3 * lineHeight);
        const QImage image = single.grab().toImage();
        const QRgb background = image.pixel(79, 3 * lineHeight - 1);
        int inkBelow = 0, inkInLine = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                (y < lineHeight ? inkInLine : inkBelow) += image.pixel(x, y) != background;
        }
        QVERIFY(inkInLine > 0);
        QCOMPARE(inkBelow, 0);
        // The wrapped label at the same width takes several lines.
        QVERIFY(wrapped.heightForWidth(80) > 2 * lineHeight);
        // And back: wrapped again.
        single.setSingleLine(false);
        QVERIFY(single.hasHeightForWidth());
        QVERIFY(single.heightForWidth(80) > lineHeight);
    }

    // At the top by default; mid-box or at the bottom when its alignment says so.
    void verticalAlignment()
    {
        const auto inkRows = [](Qt::Alignment alignment) {
            RichReadoutLabel label;
            label.setAlignment(alignment);
            label.setHtml(QStringLiteral("<b>Total</b>: 7.068 ms"));
            label.resize(300, 100);
            const QImage image = label.grab().toImage();
            const QRgb background = image.pixel(299, 99);
            int first = -1, last = -1;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    if (image.pixel(x, y) != background) {
                        first = first < 0 ? y : first;
                        last = y;
                        break;
                    }
                }
            }
            return std::pair { first, last };
        };
        const auto [topFirst, topLast] = inkRows(Qt::AlignLeft | Qt::AlignTop);
        const auto [midFirst, midLast] = inkRows(Qt::AlignLeft | Qt::AlignVCenter);
        const auto [lowFirst, lowLast] = inkRows(Qt::AlignLeft | Qt::AlignBottom);
        QVERIFY(topFirst >= 0 && topLast < 25);
        QVERIFY2(std::abs((midFirst + midLast) / 2 - 50) <= 3, qPrintable(QStringLiteral("%1-%2").arg(midFirst).arg(midLast)));
        QVERIFY(lowLast > 85);
        QCOMPARE(midLast - midFirst, topLast - topFirst);
        QCOMPARE(lowLast - lowFirst, topLast - topFirst);
    }

    // A text painted again is blended from an image of it, made at its second paint;
    // a text painted once (each step of a slider drag) gets none. Coming back to one
    // of the last texts lays nothing out and draws no glyph.
    void textPaintedAgainFromAnImage()
    {
        RichReadoutLabel label;
        label.resize(420, 80);
        label.setHtml(kLong);
        label.grab();
        QCOMPARE(label.textDraws(), 1);
        QCOMPARE(label.imagesMade(), 0);
        label.grab(); // the second paint makes the image
        QCOMPARE(label.textDraws(), 2);
        QCOMPARE(label.imagesMade(), 1);
        for (int i = 0; i < 3; ++i)
            label.grab();
        QCOMPARE(label.textDraws(), 2);
        QCOMPARE(label.imagesMade(), 1);
        // A drag: new texts, each painted once, make no image.
        for (int i = 0; i < 10; ++i) {
            label.setHtml(QStringLiteral("<b>%1 ms</b> per inference").arg(i));
            label.grab();
        }
        QCOMPARE(label.imagesMade(), 1);
        QCOMPARE(label.textDraws(), 12);
        // Back and forth between four texts (a rule toggled on and off, undo and redo).
        QStringList texts;
        for (int i = 0; i < int(RichReadoutLabel::kPages); ++i)
            texts << kLong + QStringLiteral(" (state %1)").arg(i);
        for (const QString &t : texts) {
            label.setHtml(t);
            label.grab();
        }
        for (const QString &t : texts) { // the second showing of each: its image made
            label.setHtml(t);
            label.grab();
        }
        const int layouts = label.layouts(), draws = label.textDraws(), images = label.imagesMade();
        for (int round = 0; round < 3; ++round) {
            for (int i = 0; i < texts.size(); ++i) {
                label.setHtml(texts[i]);
                QCOMPARE(label.text(), texts[i]);
                QVERIFY(label.document()->toPlainText().endsWith(QStringLiteral("(state %1)").arg(i)));
                label.grab();
            }
        }
        QCOMPARE(label.layouts(), layouts);
        QCOMPARE(label.textDraws(), draws);
        QCOMPARE(label.imagesMade(), images);
        // What the Copy action copies is the text shown.
        label.actions().first()->trigger();
        QVERIFY(QApplication::clipboard()->text().endsWith(QStringLiteral("(state %1)").arg(RichReadoutLabel::kPages - 1)));
    }

    // The image's pixels are the glyph-by-glyph drawing's (up to one level of
    // blending), at 1x and at 2x: made at the painter's scale, never a 1x
    // image blown up (which differs from the 2x drawing in most of its ink).
    void imageEqualsTheDrawnText_data()
    {
        QTest::addColumn<double>("scale");
        QTest::newRow("1x") << 1.0;
        QTest::newRow("2x") << 2.0;
    }
    void imageEqualsTheDrawnText()
    {
        QFETCH(double, scale);
        const auto picture = [scale](bool images) {
            RichReadoutLabel label;
            label.setImageCache(images);
            label.setPadding(4);
            label.setHtml(kLong + QStringLiteral("<br><i>kernel sum 7.1 ms, +3.2 % vs before</i>"));
            label.resize(300, 110);
            QImage image(int(300 * scale), int(110 * scale), QImage::Format_ARGB32_Premultiplied);
            image.setDevicePixelRatio(scale);
            for (int i = 0; i < 3; ++i) { // the second and third paints from the image
                image.fill(Qt::white);
                label.render(&image);
            }
            return std::pair{image, label.imagesMade()};
        };
        const auto [drawn, none] = picture(false);
        const auto [fromImage, made] = picture(true);
        QCOMPARE(none, 0);
        QCOMPARE(made, 1);
        int ink = 0, differ = 0, maxLevel = 0;
        for (int y = 0; y < drawn.height(); ++y) {
            for (int x = 0; x < drawn.width(); ++x) {
                const QRgb a = drawn.pixel(x, y), b = fromImage.pixel(x, y);
                ink += a != qRgb(255, 255, 255);
                if (a != b) {
                    ++differ;
                    maxLevel = std::max({maxLevel, std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                                         std::abs(qBlue(a) - qBlue(b))});
                }
            }
        }
        QVERIFY(ink > 500);
        QVERIFY2(maxLevel <= 1, qPrintable(QStringLiteral("%1 pixels differ, by up to %2 levels").arg(differ).arg(maxLevel)));
    }

    // A vector device (a QPicture here; an SVG or PDF export alike) gets the text, not an image.
    void vectorDeviceGetsTheText()
    {
        RichReadoutLabel label;
        label.setHtml(kLong);
        label.resize(300, 80);
        label.grab();
        label.grab();
        QCOMPARE(label.imagesMade(), 1);
        const int draws = label.textDraws();
        QPicture picture;
        {
            QPainter painter(&picture);
            label.render(&painter);
        }
        QCOMPARE(label.textDraws(), draws + 1);
        QCOMPARE(label.imagesMade(), 1);
    }

    // A new palette (a theme change) makes the image again, in the new colour.
    void paletteChangeMakesANewImage()
    {
        RichReadoutLabel label;
        label.setHtml(QStringLiteral("<b>7.068 ms</b>"));
        label.resize(200, 40);
        label.grab();
        label.grab();
        QCOMPARE(label.imagesMade(), 1);
        QPalette red = label.palette();
        red.setColor(QPalette::WindowText, Qt::red);
        label.setPalette(red);
        const QImage image = label.grab().toImage();
        QCOMPARE(label.imagesMade(), 2);
        bool reddish = false;
        for (int y = 0; y < image.height() && !reddish; ++y)
            for (int x = 0; x < image.width() && !reddish; ++x)
                reddish = qRed(image.pixel(x, y)) > 200 && qGreen(image.pixel(x, y)) < 60;
        QVERIFY(reddish);
    }

    // A text kept from an older width comes back and a new one follows before any paint
    // (two results in one pass): the new text is laid out once, at the label's width now.
    void newTextLaidOutAtTheWidthNow()
    {
        RichReadoutLabel label;
        label.setHtml(kLong);
        label.resize(300, 80);
        label.heightForWidth(300);
        label.setHtml(kLong + QStringLiteral(" b"));
        label.resize(500, 80);
        label.heightForWidth(500);
        label.setHtml(kLong); // kept, laid out at 300
        const int layouts = label.layouts();
        label.setHtml(kLong + QStringLiteral(" c"));
        label.heightForWidth(500);
        label.grab();
        QCOMPARE(label.layouts() - layouts, 1);
    }

    void copyActionCopiesThePlainText()
    {
        RichReadoutLabel label;
        label.setHtml(kLong);
        QCOMPARE(label.contextMenuPolicy(), Qt::ActionsContextMenu);
        QCOMPARE(label.actions().size(), 1);
        label.actions().first()->trigger();
        QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("7.068 ms per inference")));
        QVERIFY(!QApplication::clipboard()->text().contains(QLatin1Char('<')));
    }
};

QTEST_MAIN(TestRichReadoutLabel)
#include "tst_richreadoutlabel.moc"
