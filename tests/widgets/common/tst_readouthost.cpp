// ReadoutHost: a readout's new text does not lay out (and so repaint) the
// window unless the label's size needs change; when they change, the window
// follows; hiding the label hides the host. Counted with layout requests
// reaching a QTabWidget (which repaints itself whole on one), not timed.
#include "readouthost.h"

#include <QApplication>
#include <QLabel>
#include <QTabWidget>
#include <QTest>
#include <QVBoxLayout>

using namespace studio;

namespace {

class LayoutRequestCounter : public QObject
{
public:
    int count = 0;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return false;
    }
};

// A tab widget holding a page with `readout` (hosted or not) above a filler.
struct Window
{
    QTabWidget tabs;
    QWidget *page = new QWidget;
    QLabel *readout = new QLabel;
    ReadoutHost *host = nullptr;
    LayoutRequestCounter counter;

    Window(bool hosted, bool fixedHeight)
    {
        // As the views' readouts: word-wrapped, the width the layout's, a
        // first text before the first update. (A label's first text turns on
        // heightForWidth in its size policy, a change a layout reads, which
        // the host rightly passes on once.)
        readout->setWordWrap(true);
        readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        if (fixedHeight) {
            readout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
            readout->setFixedHeight(60);
        }
        readout->setText(QStringLiteral("-")); // after setSizePolicy(), which drops heightForWidth
        auto *layout = new QVBoxLayout(page);
        if (hosted)
            layout->addWidget(host = new ReadoutHost(readout));
        else
            layout->addWidget(readout);
        layout->addWidget(new QWidget, 1);
        tabs.addTab(page, QStringLiteral("page"));
        tabs.resize(400, 300);
        tabs.show();
        tabs.installEventFilter(&counter);
    }

    // A layout request climbs one widget per pass of the event loop: each
    // layout that activates posts the next request to its parent, and an
    // event posted while posted events are delivered waits for the next pass
    // (label -> host -> page -> stacked widget -> tab widget). One
    // processEvents() saw only the first step, so a bare label's request
    // never reached the tab widget and a host's never resized the host.
    static void settle()
    {
        for (int i = 0; i < 10; ++i)
            QApplication::processEvents();
    }

    int requestsAfter(const QString &text)
    {
        settle();
        counter.count = 0;
        readout->setText(text);
        settle();
        return counter.count;
    }
};

} // namespace

class TestReadoutHost : public QObject
{
    Q_OBJECT
private slots:
    // A label of fixed height: new text reaches the tab widget bare, never hosted.
    void newTextDoesNotLayOutTheWindow()
    {
        Window bare(false, true);
        QVERIFY(QTest::qWaitForWindowExposed(&bare.tabs));
        QVERIFY(bare.requestsAfter(QStringLiteral("P = 1.5 Gops/s")) >= 1); // what the host prevents

        Window hosted(true, true);
        QVERIFY(QTest::qWaitForWindowExposed(&hosted.tabs));
        for (int i = 0; i < 20; ++i)
            QCOMPARE(hosted.requestsAfter(QStringLiteral("P = %1 Gops/s").arg(1.5 + i)), 0);
        QCOMPARE(hosted.readout->text(), QStringLiteral("P = 20.5 Gops/s"));
        QCOMPARE(hosted.readout->geometry(), QRect(QPoint(0, 0), hosted.host->size())); // the label fills its host
        QCOMPARE(hosted.host->height(), 60);
    }

    // A word-wrapped label that needs another line: the window lays out again
    // and the host (and label) grow; a new text of the same height: no layout.
    void aNewHeightIsPassedOn()
    {
        Window hosted(true, false);
        QVERIFY(QTest::qWaitForWindowExposed(&hosted.tabs));
        hosted.requestsAfter(QStringLiteral("one line"));
        const int oneLine = hosted.host->height();
        QCOMPARE(hosted.requestsAfter(QStringLiteral("one line too")), 0);
        QString longText;
        for (int i = 0; i < 40; ++i)
            longText += QStringLiteral("word%1 ").arg(i);
        QVERIFY(hosted.requestsAfter(longText) >= 1);
        QVERIFY2(hosted.host->height() > oneLine, qPrintable(QStringLiteral("%1 <= %2").arg(hosted.host->height()).arg(oneLine)));
        QCOMPARE(hosted.readout->height(), hosted.host->height());
        QCOMPARE(hosted.host->height(), hosted.host->heightForWidth(hosted.host->width()));
    }

    void hidingTheLabelHidesTheHost()
    {
        Window hosted(true, true);
        QVERIFY(QTest::qWaitForWindowExposed(&hosted.tabs));
        QVERIFY(hosted.host->isVisible());
        hosted.readout->setVisible(false);
        QVERIFY(!hosted.host->isVisible());
        hosted.readout->setVisible(true);
        QVERIFY(hosted.host->isVisible() && hosted.readout->isVisible());
    }
};

QTEST_MAIN(TestReadoutHost)
#include "tst_readouthost.moc"
