// RichReadoutLabel: a rich-text readout laid out once per text and width,
// as high as its text needs (and never shorter while the text changes, until
// resetHeight()), with QLabel's frame and margin as a frame shape and a
// padding, and a Copy action instead of mouse selection.
#include "richreadoutlabel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QImage>
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
