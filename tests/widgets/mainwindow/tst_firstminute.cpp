// The first minute: a window with no model (nothing opened, or the file named
// on the command line failed) shows an empty state that says what to do next
// and draws no plot; its example buttons open a model.
#include "emptystate.h"
#include "gablesdocument.h"
#include "gablesplot.h"
#include "gablesview.h"
#include "mainwindow.h"
#include "modelview.h"

#include <QDialog>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTemporaryDir>
#include <QTest>

using namespace studio;

class TestFirstMinute : public QObject
{
    Q_OBJECT
private slots:
    void emptyStateAfterFailedOpen()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"roofline-studio/gables\", \"version\": 1, \"soc\": ");
        f.close();

        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        GablesView *view = window.gablesView();
        view->flushPendingUpdate();
        QVERIFY(view->showsEmptyState());
        QVERIFY(!view->plot()->isVisible()); // no legend box, no axes, no stray line
        QVERIFY(view->emptyState()->isVisible());
        const QStringList examples = view->emptyState()->exampleButtons();
        QVERIFY(examples.contains(QStringLiteral("gables-fig6b")));

        // An example button opens the model and the plot comes back.
        QPushButton *button = nullptr;
        for (QPushButton *b : view->emptyState()->findChildren<QPushButton *>()) {
            if (b->text() == QStringLiteral("gables-fig6b"))
                button = b;
        }
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(!view->showsEmptyState());
        QCOMPARE(view->document()->soc().ips.size(), std::size_t(2));
        QVERIFY(view->plot()->isVisible());
        QVERIFY(view->plot()->plottableCount() > 0);
    }

    // Help ▸ Keyboard Shortcuts lists the menus' shortcuts and the controls';
    // every view has a primer, opened from Help and from the "?" beside the tabs.
    void helpShortcutsAndPrimers()
    {
        MainWindow window;
        window.show();
        const QString shortcuts = window.shortcutsHtml();
        for (const QString &expected : {QStringLiteral("File ▸ Open…"), QStringLiteral("Ctrl+O"), QStringLiteral("Ctrl+Z"),
                                        QStringLiteral("Reset Zoom"), QStringLiteral("Shift+drag"), QStringLiteral("Ctrl+P")})
            QVERIFY2(shortcuts.contains(expected), qPrintable(expected));
        for (ModelView *view : window.views()) {
            const QString primer = window.primerHtml(view);
            QVERIFY2(primer.contains(QStringLiteral("What the plot shows")), qPrintable(view->title()));
            QVERIFY2(primer.contains(QStringLiteral("Where the equations come from")), qPrintable(view->title()));
        }
        auto *corner = qobject_cast<QToolButton *>(qobject_cast<QTabWidget *>(window.centralWidget())->cornerWidget(Qt::TopRightCorner));
        QVERIFY(corner);
        window.setCurrentView(window.views()[2]); // the Verrocchio timeline
        QTest::mouseClick(corner, Qt::LeftButton);
        QVERIFY(window.lastHelpDialog());
        QTRY_VERIFY(window.lastHelpDialog()->isVisible());
        auto *text = window.lastHelpDialog()->findChild<QTextBrowser *>();
        QVERIFY(text);
        QVERIFY(text->toPlainText().contains(QStringLiteral("Verrocchio")));
    }
};

QTEST_MAIN(TestFirstMinute)
#include "tst_firstminute.moc"
