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
