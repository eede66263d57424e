// The nn-Meter rule toggle's redraw (issue 12, 2026-11-27 night): what one
// toggle lays out and paints, counted (no timing): no layout request reaches
// the main window; the kernel tree draws its texts from cached images with the
// same picture; the chart's legend and title draw their texts laid out once.
#include "nnmeterviewtesting.h"

#include "eventcounter.h"
#include "imagecompare.h"
#include "kerneltextdelegate.h"
#include "units.h"
#include <QPainter>

#include <QApplication>
#include <QTabWidget>

namespace {

void settle()
{
    for (int i = 0; i < 10; ++i)
        QCoreApplication::processEvents();
}

} // namespace

class TestNnmeterViewToggle : public QObject
{
    Q_OBJECT
private slots:
    void toggleLaysOutNoWindow()
    {
        // A rule toggle changes the readout's, the status bar's and the chart's texts; none of
        // that may lay the main window out again (its tab widget then repaints whole). As the
        // bench: plain, a snapshot compared, the sensitivity tab shown; ResNet-50 and GoogLeNet.
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *view = window.findChild<NnmeterView *>();
        window.setCurrentView(view);
        auto *tabs = qobject_cast<QTabWidget *>(window.centralWidget());
        QVERIFY(tabs);
        for (const QString &path : {QStringLiteral(":/examples/amaix/resnet50.json"), onnxFixture("googlenet")}) {
            QString error;
            QVERIFY2(view->panel()->openPath(path, &error, nullptr), qPrintable(error));
            view->flushPendingUpdate();
            settle();
            QCheckBox *boxes[] = {view->panel()->ruleBox("bn_relu"), view->panel()->ruleBox("conv_bn")};
            if (!boxes[0])
                boxes[0] = view->panel()->ruleBox("conv_relu"); // GoogLeNet has no batch norm
            QVERIFY(boxes[0] && boxes[1]);
            for (int phase = 0; phase < 3; ++phase) {
                if (phase == 1) {
                    view->document()->pinSnapshot(QStringLiteral("before"));
                    view->flushPendingUpdate();
                } else if (phase == 2) {
                    view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
                }
                settle();
                int windowRequests = 0, tabRequests = 0;
                EventCounter atWindow(&window, QEvent::LayoutRequest, &windowRequests);
                EventCounter atTabs(tabs, QEvent::LayoutRequest, &tabRequests);
                for (int i = 0; i < 8; ++i) {
                    const quint64 updates = view->updateCount();
                    const std::size_t kernels = view->prediction().detection.kernels.size();
                    boxes[i % 2]->click();
                    QVERIFY(waitForUpdate(view, updates));
                    QCoreApplication::processEvents(); // the layout requests posted by the update, and the paint
                    QCoreApplication::processEvents();
                    QVERIFY(view->prediction().detection.kernels.size() != kernels || path.endsWith(QLatin1String("onnx")));
                }
                QVERIFY2(windowRequests == 0 && tabRequests == 0,
                         qPrintable(QStringLiteral("%1 in phase %2: %3 layout requests at the main window, %4 at its tab widget")
                                        .arg(path)
                                        .arg(phase)
                                        .arg(windowRequests)
                                        .arg(tabRequests)));
            }
            view->bottomTabs()->setCurrentIndex(0);
            view->document()->removeSnapshot(0);
            view->document()->resetRules();
            view->flushPendingUpdate();
        }
    }

    void readableAt1280WithMeasuredKernels()
    {
        // This machine's device (its long name) and the lab's per-kernel timings (the Measured
        // column) at 1280×800: every kernel name whole in the tree, the title's lines broken
        // to the chart's width rather than elided; at 1920×1080 too.
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *view = window.findChild<NnmeterView *>();
        window.setCurrentView(view);
        QString error;
        QStringList warnings;
        for (const QString &path : {QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu.device.json"),
                                    QStringLiteral(":/examples/amaix/resnet50.json"),
                                    QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu/kernels.csv")})
            QVERIFY2(view->openFile(path, &error, &warnings), qPrintable(path + QStringLiteral(": ") + error));
        view->flushPendingUpdate();
        settle();
        QVERIFY(!view->kernelTree()->isColumnHidden(3)); // the Measured column shown
        auto *delegate = qobject_cast<KernelTextDelegate *>(view->kernelTree()->itemDelegate());
        QVERIFY(delegate);
        const QString device = QString::fromStdString(view->document()->device().name);
        QVERIFY(device.size() > 40);
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            window.resize(size);
            settle();
            const std::size_t elided = delegate->elided();
            view->kernelTree()->viewport()->repaint();
            QCOMPARE(delegate->elided(), elided); // no text of the visible rows ended in "…"
            const QFontMetrics metrics(QFont(view->plot()->font().family(), 11, QFont::Bold)); // the title's font
            const QString title = view->plot()->titleText();
            for (const QString &line : title.split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) <= view->plot()->width() - 16,
                         qPrintable(QStringLiteral("%1 px: \"%2\" in %3 px").arg(size.width()).arg(line).arg(view->plot()->width())));
            QVERIFY2(QString(title).replace(QLatin1Char('\n'), QLatin1Char(' ')).endsWith(QStringLiteral("on ") + device), qPrintable(title));
        }
    }

    void treeTextFromImages()
    {
        // The kernel tree draws each cell's text from an image made once per text, colour and
        // fraction of a pixel: a rule state shown before draws no new image, and the picture is
        // the one glyph-by-glyph drawing gives, up to one level of rounding in a few pixels.
        NnmeterView view(new NnmeterDocument);
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto *delegate = qobject_cast<KernelTextDelegate *>(view.kernelTree()->itemDelegate());
        QVERIFY(delegate);
        QCheckBox *boxes[] = {view.panel()->ruleBox("bn_relu"), view.panel()->ruleBox("conv_bn")};
        QVERIFY(boxes[0] && boxes[1]);
        const auto toggle = [&](QCheckBox *box) {
            const quint64 updates = view.updateCount();
            box->click();
            const bool ok = waitForUpdate(&view, updates);
            QCoreApplication::processEvents(); // the paint
            return ok;
        };
        for (const QString &path : {QString(), onnxFixture("googlenet")}) { // ResNet-50 (the default), GoogLeNet
            if (!path.isEmpty()) {
                QString error;
                QVERIFY2(view.panel()->openPath(path, &error, nullptr), qPrintable(error));
                view.flushPendingUpdate();
                QCoreApplication::processEvents();
                boxes[0] = view.panel()->ruleBox("bn_relu");
                boxes[1] = view.panel()->ruleBox("conv_bn");
                QVERIFY(boxes[0] && boxes[1]);
            }
            for (int i = 0; i < 4; ++i) // the four states of the two rules, each shown once
                QVERIFY(toggle(boxes[i % 2]));
            const std::size_t renders = delegate->renders();
            QVERIFY(renders > 0);
            for (int i = 0; i < 8; ++i)
                QVERIFY(toggle(boxes[i % 2]));
            // Every text of those states drawn from its image (GoogLeNet's four states have
            // about 400 texts: with two repaints' texts kept, most were drawn anew).
            QVERIFY2(delegate->renders() == renders,
                     qPrintable(QStringLiteral("%1: %2 texts drawn anew").arg(path).arg(delegate->renders() - renders)));
            QVERIFY(delegate->cachedImages() < 10 * 200);
        }

        // The chart's title and legend names the same way (TextImages in nnmeterplot.cpp).
        NnmeterPlot *plot = view.plot();
        const int textRenders = plot->textRenders();
        QVERIFY(textRenders > 0);
        for (int i = 0; i < 4; ++i)
            QVERIFY(toggle(boxes[i % 2]));
        QCOMPARE(plot->textRenders(), textRenders);
        {
            view.document()->pinSnapshot(QStringLiteral("before")); // the snapshot's legend entry too
            QVERIFY(toggle(boxes[0]));
            plot->replot();
            const QImage chartFromImages = plot->grab().toImage();
            NnmeterPlot::setTextImages(false);
            plot->replot();
            const QImage chartFromText = plot->grab().toImage();
            NnmeterPlot::setTextImages(true);
            int worst = 0;
            const int differ = testutils::differingPixels(chartFromImages, chartFromText, 1, &worst);
            QVERIFY2(differ >= 0 && differ < chartFromImages.width() * chartFromImages.height() / 1000,
                     qPrintable(QStringLiteral("chart: %1 pixels differ, by up to %2 levels").arg(differ).arg(worst)));
        }

        // A selected row (its text in the highlight colour) among the rows shown.
        view.selectKernel(2);
        QCoreApplication::processEvents();
        QWidget *viewport = view.kernelTree()->viewport();
        const QImage fromImages = viewport->grab().toImage();
        delegate->setImageCache(false);
        const QImage fromGlyphs = viewport->grab().toImage();
        delegate->setImageCache(true);
        int worst = 0;
        const int differ = testutils::differingPixels(fromImages, fromGlyphs, 1, &worst);
        QVERIFY2(differ >= 0 && differ < fromImages.width() * fromImages.height() / 1000,
                 qPrintable(QStringLiteral("%1 pixels differ, by up to %2 levels").arg(differ).arg(worst)));
        // Not a blank picture: the text is there (the two ways agree on many dark pixels).
        int dark = 0;
        const QImage rgb = fromImages.convertToFormat(QImage::Format_RGB32);
        for (int r = 0; r < rgb.height(); ++r)
            for (int c = 0; c < rgb.width(); ++c)
                dark += qGray(rgb.pixel(c, r)) < 100;
        QVERIFY2(dark > 1000, qPrintable(QString::number(dark)));

        // On a high-DPI screen (device pixel ratio 2) an image made at 1x would be blown up
        // and blurred: there the tree and the chart draw new texts glyph by glyph.
        {
            // A new font: every text of the tree is new to the delegate's cache.
            QFont larger = view.kernelTree()->font();
            larger.setPointSizeF(larger.pointSizeF() + 1);
            view.kernelTree()->setFont(larger);
            const auto renderAt = [&](qreal ratio) {
                QImage image(viewport->size() * ratio, QImage::Format_ARGB32_Premultiplied);
                image.setDevicePixelRatio(ratio);
                image.fill(Qt::white);
                viewport->render(&image);
                int dark = 0;
                for (int r = 0; r < image.height(); ++r)
                    for (int c = 0; c < image.width(); ++c)
                        dark += qGray(image.pixel(c, r)) < 100;
                return dark;
            };
            const std::size_t before = delegate->renders();
            const int darkAt2 = renderAt(2);
            QVERIFY2(darkAt2 > 1000, qPrintable(QString::number(darkAt2))); // the texts are there...
            QCOMPARE(delegate->renders(), before); // ...drawn as glyphs, no image made
            QVERIFY(renderAt(1) > 1000);
            QVERIFY(delegate->renders() > before); // at 1x, from images
            // The chart: a new legend font makes every legend name a new text.
            const int chartBefore = plot->textRenders();
            QFont legendFont = plot->legend->font();
            legendFont.setPointSizeF(legendFont.pointSizeF() + 1);
            plot->legend->setFont(legendFont);
            plot->setBufferDevicePixelRatio(2);
            plot->replot();
            QCOMPARE(plot->textRenders(), chartBefore); // glyphs at 2x
            plot->setBufferDevicePixelRatio(1);
            plot->replot();
            QVERIFY(plot->textRenders() > chartBefore); // images at 1x
        }
    }
    void treeFormatsOnlyRowsShown()
    {
        // A toggle gives every kernel row new numbers and many operator rows other layers; the
        // texts are formatted when a row is shown (painted) or asked for, not for all ~100–160
        // kernels and ~175 operators of ResNet-50 in every rebuild. What is asked for is right.
        NnmeterView view(new NnmeterDocument);
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTreeWidget *tree = view.kernelTree();
        QCheckBox *boxes[] = {view.panel()->ruleBox("bn_relu"), view.panel()->ruleBox("conv_bn")};
        QVERIFY(boxes[0] && boxes[1]);
        const int rowsShown = tree->viewport()->height() / tree->sizeHintForRow(0) + 1;
        QVERIFY(rowsShown < 60);
        for (int i = 0; i < 4; ++i) {
            const quint64 updates = view.updateCount();
            const quint64 before = NnmeterView::treeTextsFormatted();
            boxes[i % 2]->click();
            QVERIFY(waitForUpdate(&view, updates));
            QCoreApplication::processEvents(); // the paint
            const int kernels = tree->topLevelItemCount();
            QVERIFY(kernels > 2 * rowsShown);
            const quint64 formatted = NnmeterView::treeTextsFormatted() - before;
            // Three numbers per kernel row shown; formatted eagerly, three per kernel and one per operator moved.
            QVERIFY2(formatted <= quint64(3 * rowsShown),
                     qPrintable(QStringLiteral("%1 texts formatted for %2 rows shown of %3").arg(formatted).arg(rowsShown).arg(kernels)));
        }
        // A row below the fold and an operator row, asked for: the current prediction's texts.
        const Prediction &p = view.prediction();
        const roofline::network::Network &net = view.document()->network();
        const int last = tree->topLevelItemCount() - 1;
        QTreeWidgetItem *row = tree->topLevelItem(last);
        QCOMPARE(row->text(1), formatQuantity(p.kernels[std::size_t(last)].ms * 1e-3, QStringLiteral("s")));
        QVERIFY(row->text(2).endsWith(QStringLiteral(" %")));
        QCOMPARE(tree->topLevelItem(0)->text(1), formatQuantity(p.kernels[0].ms * 1e-3, QStringLiteral("s")));
        for (int k : {0, last / 2, last}) {
            const Kernel &kernel = p.detection.kernels[std::size_t(k)];
            QTreeWidgetItem *item = tree->topLevelItem(k);
            QCOMPARE(item->childCount(), int(kernel.layers.size()));
            for (int c = 0; c < item->childCount(); ++c) {
                const std::string &name = net.layers[std::size_t(kernel.layers[std::size_t(c)])].name;
                QCOMPARE(item->child(c)->toolTip(0), QString::fromStdString(name));
                QVERIFY(item->child(c)->text(0).startsWith(QString::fromStdString(name) + QStringLiteral(" (")));
            }
        }
    }
    void readoutComesBackFromImages()
    {
        // Toggling two rules goes through four states; from the third round on, the readout
        // shows each state's text from its kept layout and image: nothing parsed, laid out or
        // drawn glyph by glyph, and the picture is the glyph-by-glyph one.
        NnmeterView view(new NnmeterDocument);
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.document()->pinSnapshot(QStringLiteral("before")); // the comparison line too
        view.flushPendingUpdate();
        QCoreApplication::processEvents();
        QCheckBox *boxes[] = {view.panel()->ruleBox("bn_relu"), view.panel()->ruleBox("conv_bn")};
        QVERIFY(boxes[0] && boxes[1]);
        RichReadoutLabel *readout = view.readout();
        const auto round = [&] {
            for (int i = 0; i < 4; ++i) {
                const quint64 updates = view.updateCount();
                boxes[i % 2]->click();
                if (!waitForUpdate(&view, updates))
                    return false;
                QCoreApplication::processEvents(); // the paint
            }
            return true;
        };
        QVERIFY(round());
        QVERIFY(round());
        const int layouts = readout->layouts(), draws = readout->textDraws(), paints = readout->paints();
        QVERIFY(round());
        QVERIFY(round());
        QVERIFY(readout->paints() >= paints + 8);
        QCOMPARE(readout->layouts(), layouts);
        QCOMPARE(readout->textDraws(), draws);
        const QImage fromImage = readout->grab().toImage();
        readout->setImageCache(false);
        const QImage drawn = readout->grab().toImage();
        readout->setImageCache(true);
        int worst = 0;
        const int differ = testutils::differingPixels(fromImage, drawn, 1, &worst);
        QVERIFY2(differ >= 0, qPrintable(QStringLiteral("%1 pixels differ, by up to %2 levels").arg(-differ - 1).arg(worst)));
        QVERIFY(readout->text().contains(QStringLiteral("before")));
    }
};

QTEST_MAIN(TestNnmeterViewToggle)
#include "tst_nnmeterview_toggle.moc"
