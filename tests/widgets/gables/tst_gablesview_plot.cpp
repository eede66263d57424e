// The Gables view: panel controls move the plot (Fig. 6c), tooltips, zoom, legend, SVG export.
// Helpers and the suite as a whole: gablesviewtesting.h.
#include "gablesviewtesting.h"

class TestGablesViewPlot : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        QVERIFY(!resources::exampleFiles().isEmpty());
    }

    void bpeakSpinBoxReproducesFig6c()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 1 / 0.753125, 1e-12);

        const quint64 before = view->updateCount();
        view->panel()->bpeakSlider()->spinBox()->setValue(30); // exact entry
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 2.0, 1e-12);
        QCOMPARE(view->result().bound.kind, Bound::Kind::IpLink);
        QVERIFY(view->readout()->text().contains(QStringLiteral("2 Gops/s")));
        QVERIFY(view->readout()->text().contains(QStringLiteral("IP[1] GPU link")));
        QVERIFY(window.statusText().contains(QStringLiteral("IP[1] GPU link")));
        // The memory roof moved: Bpeak·I at the left edge.
        const double xLeft = view->plot()->geometry().xRange.lower;
        ROOFLINE_COMPARE_REL(graphY(view->plot()->memoryGraph(), xLeft), 30 * xLeft, 1e-12);
        QVERIFY(window.isWindowModified());
    }

    void draggingIntensityMovesGpuRoofPoint()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        ParameterSlider *i1 = view->panel()->intensitySlider(1);
        QCPGraph *gpuRoof = view->plot()->roofGraph(1);
        QVERIFY(gpuRoof);
        const double pBefore = view->result().attainableGops;

        // Drag the thumb across several positions; each step is one coalesced update.
        QSlider *slider = i1->slider();
        for (int step = 1; step <= 5; ++step) {
            const quint64 before = view->updateCount();
            slider->setValue(slider->value() + 40);
            QVERIFY(waitForUpdate(view, before));
            const double intensity = view->document()->soc().ips[1].intensity;
            ROOFLINE_COMPARE_REL(intensity, i1->scale().toValue(slider->value()), 1e-12);
            // The selected point of the GPU sits on its scaled roof: min(15 I, 200)/0.75.
            const Selection &s = view->plot()->geometry().selections[1];
            ROOFLINE_COMPARE_REL(s.selected.y, std::min(15 * intensity, 200.0) / 0.75, 1e-12);
        }
        QVERIFY(view->result().attainableGops > pBefore); // more reuse, more performance
        QVERIFY(i1->spinBox()->value() > 0.1);
    }

    void fractionSliderKeepsSumOne()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        GablesDocument *doc = view->document();
        const int added = doc->addIp();
        QCOMPARE(added, 2);
        QVERIFY(waitForUpdate(view, 0)); // structure change rebuilds the panel
        QTRY_COMPARE(view->panel()->ipEditorCount(), 3);

        // Give the new IP 20% of the work with the slider: the others scale by 0.8.
        quint64 before = view->updateCount();
        view->panel()->fractionSlider(2)->slider()->setValue(200);
        QVERIFY(waitForUpdate(view, before));
        const auto &ips = doc->soc().ips;
        ROOFLINE_COMPARE_REL(ips[2].fraction, 0.2, 1e-12);
        ROOFLINE_COMPARE_REL(ips[0].fraction, 0.25 * 0.8, 1e-12);
        ROOFLINE_COMPARE_REL(ips[1].fraction, 0.75 * 0.8, 1e-12);
        ROOFLINE_COMPARE_REL(fractionSum(ips), 1.0, 1e-12);
        // The other sliders show the rebalanced values.
        QCOMPARE(view->panel()->fractionSlider(0)->spinBox()->value(), 0.2);

        // Lock the CPU: moving the GPU now only trades with the new IP.
        view->panel()->lockBox(0)->setChecked(true);
        before = view->updateCount();
        view->panel()->fractionSlider(1)->spinBox()->setValue(0.7);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(ips[0].fraction, 0.2, 1e-12);
        ROOFLINE_COMPARE_REL(ips[1].fraction, 0.7, 1e-12);
        ROOFLINE_COMPARE_REL(ips[2].fraction, 0.1, 1e-12);
        // The plot draws three scaled roofs, each over its own fraction.
        QVERIFY(view->plot()->roofGraph(2));
        ROOFLINE_COMPARE_REL(view->plot()->geometry().ipRoofs[2].points.back().y, 40 / 0.1, 1e-12);
    }

    void addRenameRemoveThroughPanel()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        GablesView *view = window.gablesView();
        quint64 before = view->updateCount();
        QTest::mouseClick(view->panel()->addButton(), Qt::LeftButton);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->panel()->ipEditorCount(), 3);
        QVERIFY(!view->plot()->roofGraph(2)); // no work yet: not drawn

        QLineEdit *name = view->panel()->nameEdit(2);
        name->setText(QStringLiteral("NPU"));
        before = view->updateCount();
        emit name->editingFinished();
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->document()->soc().ips[2].name, std::string("NPU"));

        // A duplicate name is refused and the editor shows the old name again.
        QLineEdit *gpuName = view->panel()->nameEdit(1);
        gpuName->setText(QStringLiteral("CPU"));
        emit gpuName->editingFinished();
        QCOMPARE(view->document()->soc().ips[1].name, std::string("GPU"));
        QCOMPARE(gpuName->text(), QStringLiteral("GPU"));

        before = view->updateCount();
        QTest::mouseClick(view->panel()->removeButton(1), Qt::LeftButton);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->panel()->ipEditorCount(), 2);
        const auto &ips = view->document()->soc().ips;
        QCOMPARE(ips[1].name, std::string("NPU"));
        ROOFLINE_COMPARE_REL(ips[0].fraction, 1.0, 1e-12); // the GPU's work went to the CPU
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 40.0, 1e-12);
    }

    void extensionsThroughPanel()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        GablesView *view = window.gablesView();
        GablesParamPanel *panel = view->panel();
        QVERIFY(!panel->missRatioSlider(1)); // no cache, no miss-ratio controls

        // Serialized work: 0.00625 + 0.00625 ns/op -> 80 Gops/s.
        quint64 before = view->updateCount();
        panel->serializedBox()->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 80.0, 1e-12);
        QVERIFY(view->readout()->text().contains(QStringLiteral("serialized")));
        before = view->updateCount();
        panel->serializedBox()->setChecked(false);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 160.0, 1e-12);

        // A shared 10 GB/s bus for both IPs becomes the bound: 0.125 / 10 -> 80 Gops/s.
        before = view->updateCount();
        QTest::mouseClick(panel->addBusButton(), Qt::LeftButton);
        QVERIFY(waitForUpdate(view, before));
        panel->busSlider(0)->spinBox()->setValue(10);
        panel->busBox(0, 0)->setChecked(true);
        before = view->updateCount();
        panel->busBox(1, 0)->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 80.0, 1e-12);
        QCOMPARE(view->result().bound.kind, Bound::Kind::Bus);
        QVERIFY(view->termsChart()->rowLabels().first() == QStringLiteral("bus Bus 1"));
        QCOMPARE(int(view->plot()->geometry().extraRoofs.size()), 1);

        // A cache that catches the GPU's traffic: miss ratio sliders appear and act on T_mem.
        before = view->updateCount();
        panel->msmBox()->setChecked(true);
        QVERIFY(waitForUpdate(view, before));
        QTRY_VERIFY(panel->missRatioSlider(1));
        before = view->updateCount();
        panel->missRatioSlider(1)->spinBox()->setValue(0.5);
        QVERIFY(waitForUpdate(view, before));
        ROOFLINE_COMPARE_REL(view->result().memoryNs, (0.03125 + 0.5 * 0.09375) / 20, 1e-12);
        QVERIFY(view->document()->soc().memorySideMemory);

        // Removing the bus takes it off every IP.
        before = view->updateCount();
        view->document()->removeBus(0);
        QVERIFY(waitForUpdate(view, before));
        QVERIFY(view->document()->soc().ips[0].buses.empty());
        // Memory no longer ties: CPU compute and GPU link stay balanced at 160 Gops/s.
        QCOMPARE(view->result().bound.kind, Bound::Kind::Balanced);
        QCOMPARE(int(view->result().bound.limiting.size()), 2);
        ROOFLINE_COMPARE_REL(view->result().attainableGops, 160.0, 1e-12);
    }

    // Tab runs left to right, top to bottom: the snapshot row, the tabs under
    // the plot, then the parameter panel top to bottom; every slider and spin
    // box of the panel says what it sets and in which unit.
    void keyboardOrderAndTooltips()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        GablesView *view = window.gablesView();
        window.setCurrentView(view);
        window.show(); // real geometry for the order check below
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        view->flushPendingUpdate();
        QApplication::processEvents();
        QList<QWidget *> expected = view->snapshotBar()->focusChain();
        expected << view->bottomTabs()->tabBar() << view->panel()->ppeakSlider()->slider()
                 << view->panel()->ppeakSlider()->spinBox();
        QWidget *w = expected.front();
        for (qsizetype i = 1; i < expected.size(); ++i) {
            do
                w = w->nextInFocusChain();
            while (!(w->focusPolicy() & Qt::TabFocus));
            QVERIFY2(w == expected[i], qPrintable(QStringLiteral("step %1: %2").arg(i).arg(w->metaObject()->className())));
        }
        // The panel's controls follow in their visual order: each one below or right of the one before.
        QWidget *panelWidget = view->panel()->ppeakSlider()->slider();
        QPoint last = panelWidget->mapTo(view->panel(), QPoint());
        for (int i = 0; i < 40; ++i) {
            do
                panelWidget = panelWidget->nextInFocusChain();
            while (!(panelWidget->focusPolicy() & Qt::TabFocus) || !panelWidget->isVisible());
            if (!view->panel()->isAncestorOf(panelWidget))
                break;
            const QPoint at = panelWidget->mapTo(view->panel(), QPoint());
            QVERIFY2(at.y() > last.y() - 4 || at.x() > last.x(),
                     qPrintable(QStringLiteral("%1 at (%2, %3) after (%4, %5)").arg(panelWidget->metaObject()->className())
                                    .arg(at.x()).arg(at.y()).arg(last.x()).arg(last.y())));
            last = at;
        }
        const auto sliders = view->panel()->findChildren<ParameterSlider *>();
        QVERIFY(sliders.size() >= 2 + 4 * 3);
        for (ParameterSlider *s : sliders) {
            const QString tip = s->slider()->toolTip();
            QVERIFY2(!tip.isEmpty() && tip == s->spinBox()->toolTip(), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("GB/s")) || tip.contains(QStringLiteral("Gops/s"))
                         || tip.contains(QStringLiteral("dimensionless")) || tip.contains(QStringLiteral("per byte")),
                     qPrintable(tip));
        }
    }

    void tooltipsGiveExactValues()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesPlot *plot = window.gablesView()->plot();
        plot->replot();
        const Point &a = plot->geometry().attainable;
        const QPointF pixel(plot->xAxis->coordToPixel(a.x), plot->yAxis->coordToPixel(a.y));
        const QString text = plot->tooltipAt(pixel);
        QVERIFY2(text.contains(QStringLiteral("Pₐₜₜ = 1.328 Gops/s")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("memory")));
        // On the GPU's roof, away from any point.
        const double x = 1.0;
        const QPointF onRoof(plot->xAxis->coordToPixel(x), plot->yAxis->coordToPixel(15 * x / 0.75));
        QVERIFY2(plot->tooltipAt(onRoof).contains(QStringLiteral("GPU scaled roof")), qPrintable(plot->tooltipAt(onRoof)));
    }

    // Issue 13: each roof's value where its I line meets it, the Pₐₜₜ label
    // on a leader line clear of the roofs, the axis in the readout's unit.
    void roofValuesLeaderAndAxisUnit()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *view = window.gablesView();
        view->flushPendingUpdate();
        GablesPlot *plot = view->plot();
        plot->replot();
        const Result &result = view->result();
        QStringList values;
        for (QCPItemText *label : plot->roofValueLabels()) {
            if (label->visible())
                values << label->text();
        }
        for (std::size_t ip = 0; ip < result.ips.size(); ++ip)
            QVERIFY2(values.contains(formatQuantity(result.ips[ip].scaledRoofGops, QStringLiteral("Gops/s"))),
                     qPrintable(values.join(QLatin1Char(','))));

        // The leader runs from the star to the label; the label's box covers no roof.
        QCPItemLine *leader = plot->attainableLeader();
        QVERIFY(leader->visible());
        const Point &a = plot->geometry().attainable;
        QCOMPARE(leader->start->coords(), QPointF(a.x, a.y));
        QCPItemText *label = plot->attainableLabel();
        QCOMPARE(leader->end->coords(), label->position->coords());
        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        QVERIFY(box.width() > 20 && box.height() > 10);
        QVERIFY(QRectF(plot->axisRect()->rect()).contains(box));
        std::vector<Roof> roofs = plot->geometry().ipRoofs;
        roofs.push_back(plot->geometry().memoryRoof);
        for (const Roof &roof : roofs) {
            for (std::size_t i = 1; i < roof.points.size(); ++i) {
                const QPointF p0(plot->xAxis->coordToPixel(roof.points[i - 1].x), plot->yAxis->coordToPixel(roof.points[i - 1].y));
                const QPointF p1(plot->xAxis->coordToPixel(roof.points[i].x), plot->yAxis->coordToPixel(roof.points[i].y));
                for (int k = 0; k <= 50; ++k)
                    QVERIFY2(!box.contains(p0 + (p1 - p0) * (k / 50.0)), "the label covers a roof");
            }
        }
        QVERIFY(plot->yAxis->label().contains(QStringLiteral("(Gops/s)")));
        QVERIFY2(!box.intersects(plot->legend->outerRect()), "the label is under the legend");

        // The default example at 1280x800: the star sits just below the legend's
        // corner, where the label used to be drawn behind the legend.
        QVERIFY(window.openFile(example("snapdragon835.json"), nullptr));
        view->flushPendingUpdate();
        plot->replot();
        QVERIFY(plot->legend->visible());
        label = plot->attainableLabel();
        const QRectF sdBox = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        QVERIFY(QRectF(plot->axisRect()->rect()).contains(sdBox));
        QVERIFY2(!sdBox.intersects(plot->legend->outerRect()), "the label is under the legend");
        for (QCPItemText *value : plot->roofValueLabels()) {
            if (value->visible())
                QVERIFY2(!sdBox.intersects(QRectF(value->topLeft->pixelPosition(), value->bottomRight->pixelPosition()).normalized()),
                         qPrintable(QStringLiteral("the label covers the roof value ") + value->text()));
        }

        // Pₐₜₜ in Tops/s: the axis says Tops/s and its ticks read in it.
        GablesDocument *doc = window.gablesDocument();
        doc->setPpeak(5000);
        doc->setBpeak(1e5);
        for (int ip = 0; ip < int(doc->soc().ips.size()); ++ip) {
            doc->setBandwidth(ip, 1e5);
            doc->setIntensity(ip, 1000);
        }
        view->flushPendingUpdate();
        plot->replot();
        QVERIFY(view->result().attainableGops >= 1000);
        QVERIFY2(view->readout()->text().contains(QStringLiteral("Tops/s")), qPrintable(view->readout()->text()));
        QVERIFY2(plot->yAxis->label().contains(QStringLiteral("(Tops/s)")), qPrintable(plot->yAxis->label()));
        const QVector<QString> ticks = plot->yAxis->tickVectorLabels();
        const QVector<double> at = plot->yAxis->tickVector();
        QVERIFY(!at.isEmpty());
        const bool plain = plot->yAxis->numberFormat().startsWith(QLatin1Char('g'));
        for (int i = 0; i < at.size(); ++i) {
            bool ok = false;
            const double shown = ticks[i].toDouble(&ok);
            if (plain) // each label is the tick's coordinate (Gops/s) in Tops/s
                QVERIFY2(ok && std::abs(shown - at[i] / 1000) <= 1e-9 * std::max(1.0, shown), qPrintable(ticks[i]));
            else // powers of ten: never the Gops/s value
                QVERIFY2(!ok || std::abs(shown - at[i]) > 1e-9 * at[i], qPrintable(ticks[i]));
        }
    }

    void zoomAndReset()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        GablesPlot *plot = window.gablesView()->plot();
        QVERIFY(plot->isAutoRange());
        plot->xAxis->setRange(1, 10); // as a wheel zoom would
        QVERIFY(!plot->isAutoRange());
        // An edit keeps the user's zoom.
        window.gablesDocument()->setBpeak(30);
        window.gablesView()->flushPendingUpdate();
        QCOMPARE(plot->xAxis->range().lower, 1.0);
        plot->resetView();
        QVERIFY(plot->isAutoRange());
        QCOMPARE(plot->xAxis->range().lower, plot->geometry().xRange.lower);
        QCOMPARE(plot->yAxis->range().upper, plot->geometry().yRange.upper);
    }

    void manyIpsLegendStaysReadable()
    {
        Soc soc;
        soc.ppeakGops = 10;
        soc.bpeakGBps = 1000;
        for (int i = 0; i < 64; ++i)
            soc.ips.push_back(Ip::make("IP" + std::to_string(i), 1.0 + i, 10, 1.0 / 64, 1.0 + i));
        GablesDocument doc;
        doc.setSoc(soc, QString());
        GablesView view(&doc);
        QCOMPARE(view.panel()->ipEditorCount(), 64);
        QVERIFY(view.plot()->legend->itemCount() <= 12);
        QCOMPARE(view.termsChart()->rowLabels().size(), TermsChart::maxRows);
    }

    void exportSvgHasCurvesAndLabels()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        const QString path = dir.filePath(QStringLiteral("plot.svg"));
        QString error;
        QVERIFY2(window.exportCurrentPlot(path, ExportOptions{}, &error), qPrintable(error));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QString title, desc;
        QStringList texts;
        int polylines = 0;
        double width = 0, height = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            const auto name = xml.name();
            if (name == QLatin1String("svg")) {
                width = xml.attributes().value(QLatin1String("width")).toString().remove(QStringLiteral("mm")).toDouble();
                height = xml.attributes().value(QLatin1String("height")).toString().remove(QStringLiteral("mm")).toDouble();
            } else if (name == QLatin1String("title")) {
                title = xml.readElementText();
            } else if (name == QLatin1String("desc")) {
                desc = xml.readElementText();
            } else if (name == QLatin1String("text")) {
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
            } else if (name == QLatin1String("polyline") || name == QLatin1String("path")) {
                ++polylines;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(width > 0 && height > 0);
        QVERIFY(title.contains(QStringLiteral("Gables Fig. 6b")));
        QVERIFY(desc.contains(QStringLiteral("Pₐₜₜ = 1.328 Gops/s")));
        const QString all = texts.join(QLatin1Char('|'));
        for (const char *expected : {"Operational intensity I (ops/byte)", "Attainable performance P (Gops/s)",
                                     "CPU roof / f (f = 0.25)", "GPU roof / f (f = 0.75)", "bound: memory",
                                     "I avg"})
            QVERIFY2(all.contains(QLatin1String(expected)), qPrintable(QStringLiteral("missing %1 in %2").arg(QLatin1String(expected), all)));
        // The label's number, read back, is P_att within the shown precision.
        bool found = false;
        for (const QString &t : texts) {
            if (t.startsWith(QStringLiteral("Pₐₜₜ = "))) {
                const double shown = t.section(QLatin1Char(' '), 2, 2).toDouble();
                QVERIFY(testutils::relativelyEqual(shown, 1 / 0.753125, 1e-3));
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(all));
        QVERIFY(polylines >= 3); // two IP roofs and the memory roof at least

        // PNG and PDF exports write non-empty files; a bad suffix is refused.
        for (const char *name : {"plot.png", "plot.pdf"}) {
            QVERIFY2(window.exportCurrentPlot(dir.filePath(QLatin1String(name)), ExportOptions{}, &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 1000);
        }
        QVERIFY(!window.exportCurrentPlot(dir.filePath(QStringLiteral("plot.bmpx")), ExportOptions{}, &error));
        QVERIFY(error.contains(QStringLiteral("unknown export format")));
        QVERIFY(!window.exportCurrentPlot(QStringLiteral("/nonexistent-dir/plot.svg"), ExportOptions{}, &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/plot.svg")));
    }
};

QTEST_MAIN(TestGablesViewPlot)

#include "tst_gablesview_plot.moc"
