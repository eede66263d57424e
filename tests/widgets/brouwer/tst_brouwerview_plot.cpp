// The Brouwer view: the memory slider moves the bars, the curve's current point
// and the totals; the regime switches where F crosses 0; undo, snapshots, --set.
// Helpers: brouwerviewtesting.h.
#include "brouwerviewtesting.h"

#include "brouwerformat.h"
#include "eventcounter.h"
#include "goalseekpanel.h"
#include "plotstyle.h"
#include "preferences.h"
#include "units.h"

#include <QAction>
#include <QClipboard>
#include <QFontMetrics>
#include <QSet>

#include <climits>
#include <functional>

class TestBrouwerViewPlot : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The view never makes the window wider than a 1280-pixel screen.
    void fitsOnA1280Screen()
    {
        MainWindow window;
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        QApplication::processEvents();
        QVERIFY2(view->minimumSizeHint().width() <= 1200, qPrintable(QString::number(view->minimumSizeHint().width())));
        QVERIFY2(window.minimumSizeHint().width() <= 1280, qPrintable(QString::number(window.minimumSizeHint().width())));
    }

    void startsWithAgeNetOnOurFit()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        QVERIFY(view);
        BrouwerDocument *doc = view->document();
        QCOMPARE(doc->network()->name, QStringLiteral("AgeNet"));
        QVERIFY(doc->devicePath().endsWith(QStringLiteral("edgecaffe-fe.json")));
        QCOMPARE(doc->networks().size(), std::size_t(5)); // the shipped EdgeCaffe networks
        QCOMPARE(doc->devices().size(), std::size_t(4));  // Table 2 (both models) and our two fits
        const Result core = coreResult(*doc);
        QCOMPARE(view->result(), core);
        // One bar per layer in each series; load + exec stacked equal the core's layer totals.
        const int n = int(core.layers.size());
        QCOMPARE(n, 19);
        // Each layer in the series of its regime only (no bars of height 0).
        QCOMPARE(view->barsPlot()->loadStandard()->data()->size() + view->barsPlot()->loadSwapping()->data()->size(), n);
        QCOMPARE(view->barsPlot()->execStandard()->data()->size() + view->barsPlot()->execSwapping()->data()->size(), n);
        for (int i = 0; i < n; ++i) {
            const double stacked = barValue(view->barsPlot()->loadStandard(), i) + barValue(view->barsPlot()->loadSwapping(), i)
                + barValue(view->barsPlot()->execStandard(), i) + barValue(view->barsPlot()->execSwapping(), i);
            ROOFLINE_COMPARE_REL(stacked, core.layers[std::size_t(i)].totalMs(false), 1e-12);
        }
        QCOMPARE(view->layerModel()->rowCount(), n);
        QVERIFY(view->coefficientTable()->rowCount() > 0);
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("per inference")));
    }

    // Table 2 stays selectable, labelled as the seed's shape; the time axes speak
    // µs, ms or s by magnitude (the data stay in ms), never e-notation.
    void seedTable2IsTheShapeAndAxesAreScaled()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        const int table2 = deviceIndex(*doc, QStringLiteral("seed-table2-fe.json"));
        QVERIFY(table2 >= 0);
        QComboBox *devices = view->panel()->deviceBox();
        QVERIFY2(devices->itemText(table2).contains(QStringLiteral("(shape only)")), qPrintable(devices->itemText(table2)));
        QVERIFY(devices->itemData(table2, Qt::ToolTipRole).toString().contains(QStringLiteral("not calibrated times")));
        const int ours = deviceIndex(*doc, QStringLiteral("edgecaffe-fe.json"));
        QVERIFY(!devices->itemText(ours).contains(QStringLiteral("shape")));
        QVERIFY(!view->panel()->readout()->text().contains(QStringLiteral("The seed's shape")));

        // Every tick label is the coordinate (ms) in the axis' unit, plainly written.
        auto checkAxis = [](QCustomPlot *plot, QCPAxis *axis, const QString &unit, double msPerUnit) {
            plot->replot();
            QVERIFY2(axis->label().endsWith(QStringLiteral("(%1)").arg(unit)), qPrintable(axis->label()));
            const QVector<double> ticks = axis->tickVector();
            const QVector<QString> labels = axis->tickVectorLabels();
            QVERIFY(!ticks.isEmpty());
            for (int i = 0; i < ticks.size(); ++i) {
                // "2.5e+10" is drawn as 2.5·10¹⁰ when the number format asks for beautiful powers ('b').
                QVERIFY2(!labels[i].contains(QLatin1Char('e')) || axis->numberFormat().contains(QLatin1Char('b')),
                         qPrintable(labels[i]));
                bool plain = false;
                double shown = plot->locale().toDouble(labels[i], &plain);
                if (!plain)
                    plain = true, shown = labels[i].toDouble(&plain); // C-locale e-notation, drawn as a power
                QVERIFY2(plain, qPrintable(labels[i]));
                ROOFLINE_COMPARE_REL(shown, ticks[i] / msPerUnit, 1e-5);
            }
        };

        // Our fit at 24 MiB: ms per layer.
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const double ourTop = view->barsPlot()->yAxis->range().upper / 1.18;
        QVERIFY(ourTop > 1 && ourTop < 1000);
        QCOMPARE(view->barsPlot()->timeUnit(), QStringLiteral("ms"));
        checkAxis(view->barsPlot(), view->barsPlot()->yAxis, QStringLiteral("ms"), 1);
        QCOMPARE(view->barsPlot()->yAxis->label(), QStringLiteral("Time per layer (ms)"));

        // Table 2 at 24 MiB: AgeNet's fc6 takes 10^8 s and more, written in s.
        doc->selectDevice(table2);
        view->flushPendingUpdate();
        QVERIFY(view->result().totalMs(false) > 1e11);
        QCOMPARE(view->barsPlot()->timeUnit(), QStringLiteral("s"));
        checkAxis(view->barsPlot(), view->barsPlot()->yAxis, QStringLiteral("s"), 1e3);
        QCOMPARE(view->curvePlot()->timeUnit(), QStringLiteral("s"));
        checkAxis(view->curvePlot(), view->curvePlot()->yAxis, QStringLiteral("s"), 1e3);
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("The seed's shape")));
        // The bars' data stay in ms: the stacked bars equal the core's layer totals.
        const Result core = coreResult(*doc);
        const int fc6 = layerIndex(*doc, "fc6");
        ROOFLINE_COMPARE_REL(barValue(view->barsPlot()->loadSwapping(), fc6) + barValue(view->barsPlot()->execSwapping(), fc6),
                             core.layers[std::size_t(fc6)].totalMs(false), 1e-12);
    }

    // Our LASSO device was fitted without a memory limit: under one, the swapping
    // layers are predicted by extrapolation and hatched as uncalibrated.
    void lassoSwappingLayersAreHatched()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("edgecaffe-lasso.json")));
        doc->setAvailableBytes(1024.0 * 1024 * 1024);
        view->flushPendingUpdate();
        QCOMPARE(view->result().swappingLayers, 0);
        QCOMPARE(view->barsPlot()->uncalibrated()->data()->size(), 0);
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const int fc6 = layerIndex(*doc, "fc6");
        QCOMPARE(view->result().swappingLayers, 1);
        QVERIFY(view->result().layers[std::size_t(fc6)].swapping());
        QCOMPARE(view->barsPlot()->uncalibrated()->data()->size(), 1);
        QCOMPARE(int(std::lround(view->barsPlot()->uncalibrated()->data()->constBegin()->key)), fc6);
        QVERIFY(view->result().layers[std::size_t(fc6)].exec.ms > 0); // predicted all the same
        QVERIFY(view->panel()->readout()->text().contains(QStringLiteral("hatched")));
    }

    // AgeNet's fc6 by hand: I = 384·7·7 = 18,816, P = 18,816·512 + 512 = 9,634,304,
    // O = 512; required = 9,653,632 elements = 38,614,528 B at 4 B per element.
    void memorySliderSwitchesRegimeWhereOverflowCrossesZero()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json"))); // both regimes calibrated
        view->flushPendingUpdate();
        const int fc6 = layerIndex(*doc, "fc6");
        QVERIFY(fc6 >= 0);
        const LayerFeatures &f = doc->network()->layers[std::size_t(fc6)];
        QCOMPARE(f.inputs, 18816.0);
        QCOMPARE(f.parameters, 9634304.0);
        QCOMPARE(f.outputs, 512.0);
        const double required = 9653632.0 * 4;

        QSlider *slider = view->panel()->memorySlider();
        const SliderScale scale = BrouwerPanel::memoryScale();
        // Sweep the real slider from 16 MiB upwards; fc6 swaps exactly while the memory is below its requirement.
        int switched = -1;
        for (int position = 0; position <= scale.toPosition(64.0 * 1024 * 1024); position += 3) {
            const quint64 before = view->updateCount();
            slider->setValue(position);
            QVERIFY(waitForUpdate(view, before));
            const double bytes = doc->params().availableBytes;
            ROOFLINE_COMPARE_REL(bytes, scale.toValue(position), 1e-12);
            const LayerPrediction &l = view->result().layers[std::size_t(fc6)];
            const double overflow = std::max(0.0, 9653632.0 - std::floor(bytes / 4));
            QCOMPARE(l.overflow, overflow);
            QCOMPARE(l.swapping(), bytes < required);
            // What the bars show: fc6's execution in the swapping series or the standard one, never both.
            QCOMPARE(barValue(view->barsPlot()->execSwapping(), fc6) > 0, bytes < required);
            QCOMPARE(barValue(view->barsPlot()->execStandard(), fc6) > 0, bytes >= required);
            // The total is the core's, and the curve's current point sits on it.
            const Result core = coreResult(*doc);
            ROOFLINE_COMPARE_REL(view->result().totalMs(false), core.totalMs(false), 1e-12);
            QCOMPARE(view->curvePlot()->currentGraph()->data()->size(), 1);
            ROOFLINE_COMPARE_REL(view->curvePlot()->currentGraph()->data()->constBegin()->value, core.totalMs(false), 1e-12);
            ROOFLINE_COMPARE_REL(view->curvePlot()->currentGraph()->data()->constBegin()->key, bytes / 1048576.0, 1e-12);
            if (switched < 0 && !l.swapping())
                switched = position;
        }
        QVERIFY(switched > 0);
        QVERIFY(scale.toValue(switched) >= required);
        QVERIFY(scale.toValue(switched - 3) < required);

        // Exactly at the requirement: standard; one byte less: swapping (F = 1 element short, read as 1).
        QLineEdit *field = view->panel()->memoryField();
        field->setText(QString::number(required, 'f', 0));
        QMetaObject::invokeMethod(field, "editingFinished");
        view->flushPendingUpdate();
        QCOMPARE(doc->params().availableBytes, required);
        QVERIFY(!view->result().layers[std::size_t(fc6)].swapping());
        field->setText(QString::number(required - 1, 'f', 0));
        QMetaObject::invokeMethod(field, "editingFinished");
        view->flushPendingUpdate();
        QVERIFY(view->result().layers[std::size_t(fc6)].swapping());
        QCOMPARE(view->result().layers[std::size_t(fc6)].overflow, 1.0);
        // A size out of range is refused with a message; the memory stays.
        field->setText(QStringLiteral("3 TB"));
        QMetaObject::invokeMethod(field, "editingFinished");
        QCOMPARE(doc->params().availableBytes, required - 1);
        QVERIFY(view->messageLabel()->text().contains(QStringLiteral("16 MiB to 16 GiB")));
    }

    // A memory move through the real slider redraws the curve plot's current point only: its
    // layer (the buffered overlay) is replotted, the curves are neither rebuilt nor redrawn;
    // the memory readout's new width lays nothing out again. A compared snapshot (a new
    // curve) replots the whole plot.
    void memoryMoveRedrawsOnlyTheCurrentPoint()
    {
        MainWindow window;
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        view->flushPendingUpdate();
        QApplication::processEvents();
        BrouwerCurvePlot *curve = view->curvePlot();
        QCOMPARE(curve->currentGraph()->layer()->name(), QStringLiteral("overlay"));
        QCOMPARE(curve->currentGraph()->layer()->mode(), QCPLayer::lmBuffered);
        QCOMPARE(curve->currentLabel()->layer(), curve->currentGraph()->layer());
        QVERIFY(curve->curveGraph()->layer() != curve->currentGraph()->layer());
        const QVector<QCPGraphData> curveBefore(curve->curveGraph()->data()->constBegin(), curve->curveGraph()->data()->constEnd());
        QVERIFY(curveBefore.size() > 100);
        const auto *curveData = curve->curveGraph()->data().data();
        QSignalSpy curveReplots(curve, &QCustomPlot::beforeReplot);
        QSignalSpy barsReplots(view->barsPlot(), &QCustomPlot::beforeReplot);
        QWidget *readoutParent = view->panel()->memoryReadout()->parentWidget()->parentWidget(); // the group box
        int layoutRequests = 0;
        EventCounter counter(readoutParent, QEvent::LayoutRequest, &layoutRequests);
        const int whole = curve->wholeReplots(), current = curve->currentReplots();

        QSlider *slider = view->panel()->memorySlider();
        const SliderScale scale = BrouwerPanel::memoryScale();
        int moves = 0;
        // 16 MiB to 1 GiB: fc6 changes regime on the way, the readout's digits and width change.
        const int from = scale.toPosition(17.0 * 1048576), to = scale.toPosition(1024.0 * 1048576);
        for (int position = from; position < to; position += std::max(1, (to - from) / 24)) {
            const quint64 before = view->updateCount();
            slider->setValue(position);
            QVERIFY(waitForUpdate(view, before));
            QApplication::processEvents();
            ++moves;
            const double bytes = doc->params().availableBytes;
            QCOMPARE(curve->currentGraph()->data()->size(), 1);
            ROOFLINE_COMPARE_REL(curve->currentGraph()->data()->constBegin()->key, bytes / 1048576.0, 1e-12);
            ROOFLINE_COMPARE_REL(curve->currentGraph()->data()->constBegin()->value, coreResult(*doc).totalMs(false), 1e-12);
            QVERIFY(curve->currentLabel()->text().startsWith(QString::fromStdString(formatBytes(bytes))));
        }
        QVERIFY(moves > 10);
        QCOMPARE(curve->wholeReplots(), whole);
        QCOMPARE(curve->currentReplots(), current + moves);
        QCOMPARE(curveReplots.count(), 0); // a layer replot emits no beforeReplot: the curves were not redrawn
        QCOMPARE(barsReplots.count(), moves); // the bars change with the memory
        QCOMPARE(curve->curveGraph()->data().data(), curveData);
        const QVector<QCPGraphData> curveAfter(curve->curveGraph()->data()->constBegin(), curve->curveGraph()->data()->constEnd());
        QCOMPARE(curveAfter.size(), curveBefore.size());
        for (int i = 0; i < curveBefore.size(); ++i) {
            QCOMPARE(curveAfter[i].key, curveBefore[i].key);
            QCOMPARE(curveAfter[i].value, curveBefore[i].value);
        }
        QCOMPARE(layoutRequests, 0);
        // What the layer replots left on screen is what a whole replot draws.
        const QImage shown = curve->grab().toImage();
        curve->replot();
        QCOMPARE(curve->grab().toImage(), shown);

        // A snapshot compared: a second curve, the whole plot replotted.
        doc->pinSnapshot();
        view->flushPendingUpdate();
        QApplication::processEvents();
        QCOMPARE(curve->wholeReplots(), whole + 1);
        QVERIFY(curveReplots.count() >= 1);
    }

    // The rich-text readout under the memory slider (SoS_GoogleNet on Table 2, the bench's
    // case): a new text is laid out once, the readout never clips its text, and once it has
    // needed its tallest height the memory moves lay out no more of the panel, although the
    // number of wrapped lines comes and goes (a 3-digit MiB, a long layer name). A new network
    // gives the readout its own height again; its context menu copies the text.
    void memoryMoveLaysTheReadoutOutOnceAndNotThePanel()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        doc->selectNetwork(networkIndex(*doc, QStringLiteral("SoS_GoogleNet")));
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        view->flushPendingUpdate();
        const auto settle = [] {
            for (int i = 0; i < 10; ++i) // each layout that activates posts the next request
                QApplication::processEvents();
        };
        settle();
        RichReadoutLabel *readout = view->panel()->readout();
        QVERIFY(readout->isVisible());
        QSlider *slider = view->panel()->memorySlider();
        const SliderScale scale = BrouwerPanel::memoryScale();
        const int top = scale.toPosition(1024.0 * 1048576);
        const auto documentHeight = [&] { return int(std::ceil(readout->document()->size().height())); };
        int lowest = INT_MAX, highest = 0;
        const auto sweep = [&](bool grown) {
            for (int i = 0; i < 40; ++i) {
                const int position = (i * 37) % top;
                const quint64 before = view->updateCount();
                const int layouts = readout->layouts(), width = readout->width();
                slider->setValue(position == slider->value() ? position + 1 : position);
                if (!waitForUpdate(view, before))
                    return QStringLiteral("no update");
                settle();
                // The new text, at the width it has. (While it grows, the panel's layout and its scroll area
                // ask for its height at other widths too.)
                if (grown && (readout->layouts() > layouts + 1 || readout->width() != width))
                    return QStringLiteral("%1 layouts at move %2").arg(readout->layouts() - layouts).arg(i);
                if (readout->height() < documentHeight() || !readout->text().contains(QStringLiteral("per inference")))
                    return QStringLiteral("clipped: %1 px for %2 at move %3").arg(readout->height()).arg(documentHeight()).arg(i);
                lowest = std::min(lowest, documentHeight());
                highest = std::max(highest, documentHeight());
            }
            return QString();
        };
        QCOMPARE(sweep(false), QString()); // the readout grows to the tallest height these moves need
        QVERIFY2(highest > lowest, "the sweep must change the number of wrapped lines");
        int panelLayouts = 0;
        EventCounter counter(view->panel(), QEvent::LayoutRequest, &panelLayouts);
        QCOMPARE(sweep(true), QString());
        QCOMPARE(panelLayouts, 0); // with the label's own height each change relaid the panel out
        QVERIFY(readout->height() > documentHeight() || readout->height() == highest);

        // Another network: the readout takes the height its text needs.
        doc->selectNetwork(networkIndex(*doc, QStringLiteral("AgeNet")));
        view->flushPendingUpdate();
        settle();
        QCOMPARE(readout->height(), documentHeight());
        QVERIFY(readout->text().contains(QStringLiteral("per inference")));

        QCOMPARE(readout->contextMenuPolicy(), Qt::ActionsContextMenu);
        QCOMPARE(readout->actions().size(), 1);
        readout->actions().first()->trigger();
        QCOMPARE(QApplication::clipboard()->text(), readout->document()->toPlainText());
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("per inference")));
    }

    // A memory move through the real slider announces only the layer table's cells that
    // read differently (the swapping layers' overflow, regime and times), each on its own, so
    // the table repaints those cells, not its whole viewport; the table still shows the
    // core's numbers for every layer.
    void memoryMoveRepaintsOnlyTheChangedCells()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        int googlenet = -1;
        for (std::size_t i = 0; i < doc->networks().size(); ++i) {
            if (doc->networks()[i]->name == QLatin1String("SoS_GoogleNet"))
                googlenet = int(i);
        }
        QVERIFY(googlenet >= 0);
        doc->selectNetwork(googlenet);
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json"))); // both regimes
        view->flushPendingUpdate();
        QApplication::processEvents();
        BrouwerLayerModel *model = view->layerModel();
        const int rows = model->rowCount(), columns = model->columnCount();
        QVERIFY(rows > 100);
        auto cells = [&] {
            QList<QVariant> values;
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < columns; ++c)
                    values << model->data(model->index(r, c), Qt::DisplayRole)
                           << model->data(model->index(r, c), BrouwerLayerModel::SortRole)
                           << model->data(model->index(r, c), Qt::ForegroundRole);
            return values;
        };
        QSet<int> reported; // row * columns + column
        connect(model, &QAbstractItemModel::dataChanged, this, [&](const QModelIndex &from, const QModelIndex &to) {
            for (int r = from.row(); r <= to.row(); ++r)
                for (int c = from.column(); c <= to.column(); ++c)
                    reported.insert(r * columns + c);
        });
        QWidget *viewport = view->layerTable()->viewport();
        qint64 painted = 0;
        int paints = 0;
        PaintedArea area(viewport, &painted, &paints);

        QSlider *slider = view->panel()->memorySlider();
        const SliderScale scale = BrouwerPanel::memoryScale();
        const int from = scale.toPosition(17.0 * 1048576), to = scale.toPosition(1024.0 * 1048576);
        int moves = 0, cellsChanged = 0;
        QList<QVariant> before = cells();
        for (int position = from; position < to; position += std::max(1, (to - from) / 30)) {
            reported.clear();
            const quint64 count = view->updateCount();
            slider->setValue(position);
            QVERIFY(waitForUpdate(view, count));
            QApplication::processEvents();
            ++moves;
            const QList<QVariant> now = cells();
            QSet<int> changed;
            for (int i = 0; i < now.size(); ++i) {
                if (now[i] != before[i])
                    changed.insert(i / 3);
            }
            QCOMPARE(reported, changed); // every changed cell, and no other
            cellsChanged += int(changed.size());
            before = now;
            // The table reads what the core computes at this memory.
            const Result core = coreResult(*doc);
            for (int r = 0; r < rows; ++r) {
                const LayerPrediction &l = core.layers[std::size_t(r)];
                QCOMPARE(model->data(model->index(r, BrouwerLayerModel::Overflow), Qt::DisplayRole).toString(),
                         QString::number(l.overflow, 'f', 0));
                QCOMPARE(model->data(model->index(r, BrouwerLayerModel::Total), BrouwerLayerModel::SortRole).toDouble(),
                         l.totalMs(false));
            }
        }
        QVERIFY(moves > 20);
        QVERIFY(cellsChanged > 0); // layers do change regime on the way
        // Repainted: far less than the whole viewport on every move.
        const qint64 whole = qint64(viewport->width()) * viewport->height();
        QVERIFY(whole > 0);
        QVERIFY2(painted < whole * moves / 4, qPrintable(QStringLiteral("%1 px painted in %2 moves, viewport %3 px")
                                                                .arg(painted).arg(moves).arg(whole)));

        // The element size changes every layer's requirement: the whole table at once.
        reported.clear();
        view->panel()->bytesPerElementBox()->setValue(2);
        view->flushPendingUpdate();
        QCOMPARE(int(reported.size()), rows * columns);
        for (int r = 0; r < rows; ++r)
            QCOMPARE(model->data(model->index(r, BrouwerLayerModel::Required), BrouwerLayerModel::SortRole).toDouble(),
                     coreResult(*doc).layers[std::size_t(r)].requiredBytes);
    }

    void curveHasAKneeAtEachLayersRequirement()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        view->flushPendingUpdate();
        const Curve core = memoryCurve(*doc->device(), doc->network()->layers, 4, BrouwerDocument::kMinMemory,
                                       BrouwerDocument::kMaxMemory, 160);
        QCOMPARE(view->curve().knees, core.knees);
        QCOMPARE(view->curve().points.size(), core.points.size());
        QCOMPARE(view->curvePlot()->curveGraph()->data()->size(), int(core.points.size()));
        // AgeNet: only fc6 needs more than 16 MiB, so there is one knee, at 38,614,528 B.
        QCOMPARE(core.knees.size(), std::size_t(1));
        QCOMPARE(core.knees[0].layer, std::string("fc6"));
        QCOMPARE(core.knees[0].bytes, 9653632.0 * 4);
        QCOMPARE(view->curvePlot()->kneeGraph()->data()->size(), 1);
        ROOFLINE_COMPARE_REL(view->curvePlot()->kneeGraph()->data()->constBegin()->key, 9653632.0 * 4 / 1048576.0, 1e-12);
        // Below the knee the total is larger (Table 2: swapping costs), above it flat.
        QVERIFY(core.points.front().totalMs > core.points.back().totalMs);
        // The bytes per element move the knee: at 2 B it halves.
        view->panel()->bytesPerElementBox()->setValue(2);
        view->flushPendingUpdate();
        QCOMPARE(doc->params().bytesPerElement, 2.0);
        QCOMPARE(view->curve().knees.at(0).bytes, 9653632.0 * 2);
    }

    void dragIsOneUndoStep()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        const double start = doc->params().availableBytes;
        QSlider *slider = view->panel()->memorySlider();
        const int steps = doc->undoStack()->count();
        slider->setSliderDown(true); // press: the drag starts
        emit slider->sliderPressed();
        for (int p = 100; p < 400; p += 20)
            slider->setValue(p);
        slider->setSliderDown(false);
        emit slider->sliderReleased();
        view->flushPendingUpdate();
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QVERIFY(doc->params().availableBytes != start);
        doc->undoStack()->undo();
        view->flushPendingUpdate();
        QCOMPARE(doc->params().availableBytes, start);
        QCOMPARE(view->result(), coreResult(*doc));
        QCOMPARE(slider->value(), BrouwerPanel::memoryScale().toPosition(start));
    }

    void snapshotIsComparedOnBarsAndCurve()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        doc->setAvailableBytes(1024.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const double baseline = view->result().totalMs(false);
        const int pinned = doc->pinSnapshot();
        QCOMPARE(doc->comparedSnapshot(), pinned);
        doc->setAvailableBytes(20.0 * 1024 * 1024); // fc6 swaps
        view->flushPendingUpdate();
        QCOMPARE(view->barsPlot()->comparedGraph()->data()->size(), 19);
        QVERIFY(view->curvePlot()->comparedGraph()->data()->size() > 100);
        QVERIFY(view->comparisonLabel()->isVisibleTo(view));
        QVERIFY(view->comparisonText().contains(QStringLiteral("baseline")));
        QVERIFY(view->result().totalMs(false) > baseline);
        doc->restoreSnapshot(pinned);
        view->flushPendingUpdate();
        ROOFLINE_COMPARE_REL(view->result().totalMs(false), baseline, 1e-12);
    }

    // Goal seek through its tab: the least memory for a total time, applied as one step.
    void goalSeekFindsTheKnee()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        doc->setAvailableBytes(20.0 * 1024 * 1024);
        view->flushPendingUpdate();
        QVERIFY(view->result().swappingLayers == 1);
        const double fits = evaluate(*doc->device(), doc->network()->layers, {1e9, 4}).totalMs(false);
        GoalSeekPanel *panel = view->goalSeekPanel();
        panel->valueBox()->setValue(fits * 1.5);
        QTest::mouseClick(panel->seekButton(), Qt::LeftButton);
        QVERIFY2(panel->lastResult().found(), panel->lastResult().message.c_str());
        QVERIFY(std::abs(panel->lastResult().value - 9653632.0 * 4) <= 1);
        QVERIFY(panel->resultLabel()->text().contains(QStringLiteral("36.83 MiB")));
        const int steps = doc->undoStack()->count();
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        view->flushPendingUpdate();
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QCOMPARE(view->result().swappingLayers, 0);
        QVERIFY(view->result().totalMs(false) <= fits * 1.5);
    }

    void setOverrideAndSensitivity()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        QString error;
        QVERIFY2(view->applyOverride(QStringLiteral("/memory=512MB"), &error), qPrintable(error));
        QCOMPARE(view->document()->params().availableBytes, 512.0 * 1024 * 1024);
        QVERIFY(view->applyOverride(QStringLiteral("/bytes_per_element=2"), &error));
        QCOMPARE(view->document()->params().bytesPerElement, 2.0);
        QVERIFY(!view->applyOverride(QStringLiteral("/memory=lots"), &error));
        QVERIFY2(error.contains(QStringLiteral("/memory")) && error.contains(QStringLiteral("lots")), qPrintable(error));
        QVERIFY(!view->applyOverride(QStringLiteral("/clock=1"), &error));
        QCOMPARE(view->document()->params().availableBytes, 512.0 * 1024 * 1024);
        view->tabs()->setCurrentWidget(view->sensitivityChart());
        QCOMPARE(view->sensitivityChart()->shownRows().size(), std::size_t(SensitivityChart::maxRows));
        QVERIFY(view->sensitivityRows().size() > 2); // the memory, the element size and coefficients
    }

    // The sensitivity tab covers the device's coefficients (issue 11): with the
    // real memory slider moved to 24 MiB on Table 2 (fc6 swaps), each plotted
    // row equals the core's total with that coefficient alone scaled in a copy
    // of the device; moved to 16 GiB, no swapping coefficient is left.
    void sensitivityOverCoefficients()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        view->tabs()->setCurrentWidget(view->sensitivityChart());
        QSlider *slider = view->panel()->memorySlider();
        const SliderScale scale = BrouwerPanel::memoryScale();
        slider->setValue(scale.toPosition(24.0 * 1024 * 1024));
        view->flushPendingUpdate();
        const double memory = doc->params().availableBytes;
        QVERIFY(std::abs(memory / (24.0 * 1024 * 1024) - 1) < 0.01);
        const Device device = *doc->device();
        const auto &layers = doc->network()->layers;
        const double base = evaluate(device, layers, doc->params()).totalMs(false);
        const double step = view->sensitivityStep();
        auto bruteForce = [&](const std::function<double &(Device &)> &coefficient) {
            Device lo = device, hi = device;
            coefficient(lo) *= 1 - step;
            coefficient(hi) *= 1 + step;
            return std::pair(evaluate(lo, layers, doc->params()).totalMs(false),
                             evaluate(hi, layers, doc->params()).totalMs(false));
        };
        const std::vector<SensitivityChart::Row> &rows = view->sensitivityRows();
        auto row = [&](const QString &label) -> const SensitivityChart::Row * {
            for (const SensitivityChart::Row &r : rows)
                if (r.label == label)
                    return &r;
            return nullptr;
        };
        // FC's swapping F coefficient and LOAD's standard slope, against the brute force.
        const std::size_t fc = std::size_t(Category::Fc), load = std::size_t(Category::Load);
        const auto fcF = bruteForce([fc](Device &d) -> double & { return d.fe[fc].swapping.overflow; });
        const SensitivityChart::Row *fcRow = row(QStringLiteral("FC swap c·log F"));
        QVERIFY(fcRow);
        ROOFLINE_COMPARE_REL(fcRow->low, fcF.first, 1e-9);
        ROOFLINE_COMPARE_REL(fcRow->high, fcF.second, 1e-9);
        const auto loadB = bruteForce([load](Device &d) -> double & { return d.fe[load].standard.slope; });
        const SensitivityChart::Row *loadRow = row(QStringLiteral("LOAD std b·log ") + QLatin1String(predictorName(device.fe[load].predictor)));
        QVERIFY(loadRow);
        ROOFLINE_COMPARE_REL(loadRow->low, loadB.first, 1e-9);
        ROOFLINE_COMPARE_REL(loadRow->high, loadB.second, 1e-9);
        // The chart plots the first maxRows of them, in the readout's unit, bars from the baseline.
        const std::vector<SensitivityChart::Row> &shown = view->sensitivityChart()->shownRows();
        QCOMPARE(shown.size(), std::size_t(SensitivityChart::maxRows));
        const double perMs = timeUnitFor(base * 1e6).perNs * 1e6;
        QCOMPARE(view->result().totalMs(false), base);
        for (std::size_t i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].label, rows[i].label);
            ROOFLINE_COMPARE_REL(shown[i].low, rows[i].low * perMs, 1e-12);
            ROOFLINE_COMPARE_REL(shown[i].high, rows[i].high * perMs, 1e-12);
            if (i > 0)
                QVERIFY(std::abs(rows[i - 1].high - rows[i - 1].low) >= std::abs(rows[i].high - rows[i].low));
        }
        QVERIFY(view->sensitivityChart()->xAxis->label().contains(timeUnitFor(base * 1e6).name));

        // 16 GiB: nothing swaps, no swapping coefficient moves the total.
        slider->setValue(slider->maximum());
        view->flushPendingUpdate();
        QCOMPARE(view->result().swappingLayers, 0);
        QVERIFY(!view->sensitivityRows().empty());
        for (const SensitivityChart::Row &r : view->sensitivityRows())
            QVERIFY2(!r.label.contains(QStringLiteral(" swap ")), qPrintable(r.label));
        QVERIFY(!row(QStringLiteral("FC swap c·log F")));
    }

    // Times are written in scaled units, huge ones as powers of ten, never in
    // e-notation (Table 2 predicts 10¹¹ s for AgeNet at 24 MiB).
    void timesAreReadable_data()
    {
        QTest::addColumn<double>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << 0.000512 << QStringLiteral("512 ns");
        QTest::newRow("µs") << 0.0123 << QStringLiteral("12.3 µs");
        QTest::newRow("µs rounds up to ms") << 0.99996 << QStringLiteral("1 ms");
        QTest::newRow("ms") << 13.74 << QStringLiteral("13.7 ms");
        QTest::newRow("s") << 1830.0 << QStringLiteral("1.83 s");
        QTest::newRow("1000 s") << 1.5e6 << QStringLiteral("1500 s");
        QTest::newRow("Table 2") << 1.191e14 << QStringLiteral("1.19 × 10¹¹ s");
        QTest::newRow("carry") << 9.996e12 << QStringLiteral("1.00 × 10¹⁰ s");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0 ns");
    }
    void timesAreReadable()
    {
        QFETCH(double, ms);
        QFETCH(QString, text);
        QCOMPARE(brouwerTimeText(ms), text);
        QCOMPARE(brouwerNumberText(2.684e8, 4), QStringLiteral("2.684 × 10⁸"));
        QCOMPARE(brouwerNumberText(4.6e-7), QStringLiteral("4.60 × 10⁻⁷"));
        QCOMPARE(brouwerNumberText(123456, 3), QStringLiteral("123000"));
        QCOMPARE(brouwerNumberText(0.00625, 3), QStringLiteral("0.00625"));
    }

    // With Table 2 at 24 MiB the readout, the layer table, the comparison and
    // the memory readout say "× 10ⁿ s", never "e+".
    void table2TimesInViewAreReadable()
    {
        MainWindow window;
        BrouwerView *view = brouwerView(window);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        doc->pinSnapshot();
        doc->setComparedSnapshot(0);
        doc->setAvailableBytes(1024.0 * 1024 * 1024);
        view->flushPendingUpdate();
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        const double total = view->result().totalMs(false);
        QVERIFY(total > 1e13);
        const QString readout = view->panel()->readout()->text();
        QVERIFY2(readout.contains(brouwerTimeText(total)) && readout.contains(QStringLiteral(" × 10")), qPrintable(readout));
        QVERIFY2(!readout.contains(QStringLiteral("e+")), qPrintable(readout));
        QVERIFY2(!view->comparisonText().contains(QStringLiteral("e+")) && view->comparisonText().contains(QStringLiteral(" × 10")),
                 qPrintable(view->comparisonText()));
        QVERIFY2(!view->panel()->memoryReadout()->text().contains(QStringLiteral("e+")),
                 qPrintable(view->panel()->memoryReadout()->text()));
        QVERIFY2(!view->summary().contains(QStringLiteral("e+")), qPrintable(view->summary()));
        BrouwerLayerModel *model = view->layerModel();
        const int fc6 = layerIndex(*doc, "fc6");
        for (int column : {int(BrouwerLayerModel::Load), int(BrouwerLayerModel::Exec), int(BrouwerLayerModel::Total),
                           int(BrouwerLayerModel::Overflow)}) {
            for (int r = 0; r < model->rowCount(); ++r) {
                const QString cell = model->data(model->index(r, column), Qt::DisplayRole).toString();
                QVERIFY2(!cell.contains(QLatin1Char('e')), qPrintable(cell));
            }
        }
        const LayerPrediction &l = view->result().layers[std::size_t(fc6)];
        QCOMPARE(model->data(model->index(fc6, BrouwerLayerModel::Total), Qt::DisplayRole).toString(),
                 brouwerTimeText(l.totalMs(false)));
        QVERIFY(brouwerTimeText(l.totalMs(false)).endsWith(QStringLiteral(" s")));
    }

    // At 1280×800 every plot title fits its plot (it wraps, or is elided with
    // the whole title as a tooltip): "Total time against available memory" was
    // clipped on both sides. The device box shows the short "(shape only)".
    void titlesFitAt1280()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        BrouwerView *view = brouwerView(window);
        window.setCurrentView(view);
        BrouwerDocument *doc = view->document();
        doc->selectDevice(deviceIndex(*doc, QStringLiteral("seed-table2-fe.json")));
        doc->setAvailableBytes(24.0 * 1024 * 1024);
        view->flushPendingUpdate();
        QApplication::processEvents();
        const std::pair<QCustomPlot *, const BrouwerTitle *> plots[] = {
            {view->barsPlot(), view->barsPlot()->titleElement()}, {view->curvePlot(), view->curvePlot()->titleElement()}};
        for (const auto &[plot, title] : plots) {
            plot->replot();
            QVERIFY(plot->width() < 700); // narrow enough to need it
            const QFontMetrics fm(title->font());
            // The layout is no wider than the plot, and every line of the title fits in it.
            QVERIFY2(plot->plotLayout()->outerRect().width() <= plot->width(),
                     qPrintable(QStringLiteral("%1 > %2").arg(plot->plotLayout()->outerRect().width()).arg(plot->width())));
            for (const QString &line : title->text().split(QLatin1Char('\n')))
                QVERIFY2(fm.horizontalAdvance(line) <= title->rect().width(),
                         qPrintable(QStringLiteral("%1: %2 > %3").arg(line).arg(fm.horizontalAdvance(line)).arg(title->rect().width())));
            // Nothing lost unless elided, and then the tooltip has it all.
            if (!title->shortened())
                QCOMPARE(title->text().split(QLatin1Char('\n')).join(QLatin1Char(' ')), title->fullText());
        }
        QCOMPARE(view->curvePlot()->titleElement()->fullText(), QStringLiteral("Total time against available memory"));
        QVERIFY(!view->curvePlot()->titleElement()->shortened());
        // The device box names the current device whole in its tooltip.
        QComboBox *devices = view->panel()->deviceBox();
        QVERIFY(devices->toolTip().contains(QStringLiteral("Seed Table 2 FE (shape only)")));
    }

    // Dark and light theme: the current point and the uncalibrated hatch stand
    // out of the background, and the hatch darkens the bars rather than washing
    // the swapping orange out (read from the plotted items after theming).
    void markerAndHatchContrast_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void markerAndHatchContrast()
    {
        QFETCH(bool, dark);
        applyTheme(dark ? Preferences::Theme::Dark : Preferences::Theme::Light);
        {
            MainWindow window;
            window.resize(1280, 800);
            window.show();
            BrouwerView *view = brouwerView(window);
            window.setCurrentView(view);
            BrouwerDocument *doc = view->document();
            doc->selectDevice(deviceIndex(*doc, QStringLiteral("edgecaffe-lasso.json")));
            doc->setAvailableBytes(24.0 * 1024 * 1024);
            view->flushPendingUpdate();
            QCOMPARE(plotThemeDark(), dark);
            auto luminance = [](const QColor &c) {
                auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
                return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
            };
            auto contrast = [&](const QColor &a, const QColor &b) {
                const double la = luminance(a), lb = luminance(b);
                return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
            };
            BrouwerCurvePlot *curve = view->curvePlot();
            curve->replot();
            const QColor background = plotBackgroundBrush(curve).color();
            QCOMPARE(background.lightness() < 100, dark);
            const QCPScatterStyle marker = curve->currentGraph()->scatterStyle();
            QCOMPARE(marker.shape(), QCPScatterStyle::ssCircle); // filled with the brush (ssDisc takes the pen's colour)
            QVERIFY(marker.brush().style() == Qt::SolidPattern);
            QVERIFY(marker.brush().color().hslSaturation() > 150); // red, not a grey dot
            QVERIFY2(contrast(marker.brush().color(), background) >= 3,
                     qPrintable(QStringLiteral("disc %1 on %2").arg(marker.brush().color().name(), background.name())));
            QVERIFY2(contrast(marker.pen().color(), background) >= 7,
                     qPrintable(QStringLiteral("ring %1 on %2").arg(marker.pen().color().name(), background.name())));

            BrouwerBarsPlot *bars = view->barsPlot();
            bars->replot();
            QCOMPARE(bars->uncalibrated()->data()->size(), 1); // fc6
            const QColor barsBackground = plotBackgroundBrush(bars).color();
            const QColor outline = bars->uncalibrated()->pen().color();
            QVERIFY2(contrast(outline, barsBackground) >= 3,
                     qPrintable(QStringLiteral("outline %1 on %2").arg(outline.name(), barsBackground.name())));
            const QColor hatch = bars->uncalibrated()->brush().color();
            QCOMPARE(bars->uncalibrated()->brush().style(), Qt::BDiagPattern);
            for (QCPBars *under : {bars->execSwapping(), bars->loadSwapping()}) {
                const QColor orange = under->brush().color();
                QVERIFY2(orange.hslSaturation() > 150, qPrintable(orange.name())); // the swapping orange stays orange
                QVERIFY2(hatch.lightness() < orange.lightness() && contrast(hatch, orange) >= 3,
                         qPrintable(QStringLiteral("hatch %1 on %2").arg(hatch.name(), orange.name())));
            }
        }
        applyTheme(Preferences::Theme::Light);
    }
};

QTEST_MAIN(TestBrouwerViewPlot)
#include "tst_brouwerview_plot.moc"
