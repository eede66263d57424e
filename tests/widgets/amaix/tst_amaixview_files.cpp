// The AMAIX view's files: every example network, bad files, exports, saving, sessions.
// Helpers and the suite as a whole: amaixviewtesting.h.
#include "amaixviewtesting.h"

class TestAmaixViewFiles : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(!resources::exampleFiles(QStringLiteral("amaix")).isEmpty());
    }

    void everyExampleNetworkOpensWithNvFull_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : resources::exampleFiles(QStringLiteral("amaix"))) {
            QString error;
            if (readFormatId(path, &error) == QLatin1String(kNetworkFormatId))
                QTest::newRow(qPrintable(QFileInfo(path).completeBaseName())) << path;
        }
    }

    void everyExampleNetworkOpensWithNvFull()
    {
        QFETCH(QString, path);
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        QCOMPARE(window.currentView(), view);
        QCOMPARE(view->document()->accelerator().name, std::string("nv_full"));
        if (path.endsWith(QLatin1String("vgg16.json"))) {
            // docs/models/amaix.md: one kernel group of fc6 needs more than the 512 KiB CBUF, in every mode.
            QCOMPARE(view->result().status, Status::Infeasible);
            QVERIFY(view->plot()->markers().empty());
            QVERIFY(view->totalsLabel()->text().contains(QStringLiteral("fc6")));
            QVERIFY(view->summary().startsWith(QStringLiteral("infeasible")));
            return;
        }
        QVERIFY2(view->result().ok(), view->result().error.c_str());
        QVERIFY(view->result().totalNs > 0);
        QVERIFY(!view->plot()->markers().empty());
        for (const LayerMarker &m : view->plot()->markers())
            QVERIFY(std::isfinite(m.x) && std::isfinite(m.y) && m.x > 0 && m.y > 0);
        QVERIFY(!view->summary().contains(QStringLiteral("nan")));
    }

    // Every shipped network on every shipped accelerator, as a user would pick
    // them in the panel: the plot is drawn; where the accelerator does not
    // offer the network's data type (fp16 networks on the int8-only nv_small,
    // nv_large, generic_dla) its default is used and the readout says so.
    void everyShippedPairDraws_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("accelerator");
        QStringList networks, accelerators;
        for (const QString &path : resources::exampleFiles(QStringLiteral("amaix"))) {
            QString error;
            const QString format = readFormatId(path, &error);
            if (format == QLatin1String(kNetworkFormatId))
                networks << path;
            else if (format == QLatin1String(kAcceleratorFormatId))
                accelerators << path;
        }
        QVERIFY(networks.size() >= 7 && accelerators.size() >= 4);
        for (const QString &n : networks)
            for (const QString &a : accelerators)
                QTest::newRow(qPrintable(QFileInfo(n).completeBaseName() + QStringLiteral(" on ")
                                         + QFileInfo(a).completeBaseName()))
                    << n << a;
    }

    void everyShippedPairDraws()
    {
        QFETCH(QString, network);
        QFETCH(QString, accelerator);
        MainWindow window;
        window.resize(1280, 800);
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY2(window.openFile(accelerator, &error), qPrintable(error));
        QVERIFY2(window.openFile(network, &error), qPrintable(error));
        view->flushPendingUpdate();
        const AmaixDocument &doc = *view->document();
        const Network &net = doc.network();
        const Accelerator &acc = doc.accelerator();
        QVERIFY(!net.layers.empty());
        const bool offered = net.dataType.empty() || acc.dataType(net.dataType);
        const std::string used = offered && !net.dataType.empty() ? net.dataType : acc.defaultDataType;
        const QString readout = view->panel()->readout()->text();
        QVERIFY2(view->result().status != Status::Invalid, view->result().error.c_str());
        QVERIFY(view->panel()->dataTypeBox()->currentText().contains(QString::fromStdString(used)));
        if (view->result().status == Status::Infeasible) {
            // docs/models/amaix.md: VGG-16's fc6 fits no CBUF mode of the NVDLA
            // configurations; the plot and the readout say which layer.
            QVERIFY(network.endsWith(QLatin1String("vgg16.json")));
            QCOMPARE(acc.scaling, ScalingModel::Nvdla);
            QVERIFY(readout.contains(QStringLiteral("fc6")));
            QVERIFY(view->plot()->markers().empty());
            return;
        }
        QVERIFY(view->plot()->memoryRoof(0) && !view->plot()->memoryRoof(0)->data()->isEmpty());
        QVERIFY2(view->result().ok(), view->result().error.c_str());
        QCOMPARE(view->result().dataType, used);
        QVERIFY(view->result().totalNs > 0);
        QVERIFY(!view->plot()->markers().empty());
        for (const LayerMarker &m : view->plot()->markers())
            QVERIFY(std::isfinite(m.x) && std::isfinite(m.y) && m.x > 0 && m.y > 0);
        QCOMPARE(readout.contains(QStringLiteral("is not offered by")), !offered);
        if (!offered)
            QVERIFY(readout.contains(QStringLiteral("The network's %1 is not offered by %2: its default %3 is used.")
                                         .arg(QString::fromStdString(net.dataType), QString::fromStdString(acc.name),
                                              QString::fromStdString(used))));
        // The same numbers as the core with the accelerator's default chosen by hand.
        Options byHand = doc.options();
        byHand.dataType = used;
        QCOMPARE(view->result().totalNs, evaluate(net, acc, byHand).totalNs);
    }

    void badFileKeepsCurrentWork_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("network: negative kernel")
            << QByteArray(R"({"format": "roofline-studio/amaix-network", "version": 1, "name": "bad",
                  "inputs": [{"name": "data", "shape": [3, 8, 8]}],
                  "layers": [{"name": "c", "type": "convolution", "out_channels": 4, "kernel": -3}]})")
            << QStringLiteral("/layers/0/kernel") << QStringLiteral("got -3");
        QTest::newRow("accelerator: zero bandwidth")
            << QByteArray(R"({"format": "roofline-studio/amaix-accelerator", "version": 1, "name": "bad",
                  "clock_ghz": 1, "default_data_type": "int8", "data_types": {"int8": {"bytes": 1}},
                  "units": {"U": {"ops_per_cycle": 4}}, "memories": {"DRAM": {"bandwidth_gbps": 0}},
                  "mapping": {"convolution": {"unit": "U", "memory": "DRAM"}}})")
            << QStringLiteral("/memories/DRAM/bandwidth_gbps") << QStringLiteral("got 0");
    }

    void badFileKeepsCurrentWork()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        MainWindow window;
        AmaixView *view = amaixView(window);
        const Network network = view->document()->network();
        const Accelerator accelerator = view->document()->accelerator();
        const double total = view->result().totalNs;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        }
        QString error;
        QVERIFY(!window.openFile(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(field), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        QVERIFY(view->document()->network() == network);
        QVERIFY(view->document()->accelerator() == accelerator);
        QCOMPARE(view->result().totalNs, total);
    }

    void exportsPlotAndCsv()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY(window.openFile(example("nv_full.json"), &error));
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("amaix.svg"));
        QVERIFY2(window.exportCurrentPlot(svg, ExportOptions{}, &error), qPrintable(error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString content = QString::fromUtf8(f.readAll());
        for (const char *expected : {"Operational intensity I (ops/byte)", "Attained performance P (Gops/s)",
                                     "CONV_CORE roof: 1024 Gops/s", "DRAM roof: 64 GB/s", "AlexNet on nv_full"})
            QVERIFY2(content.contains(QLatin1String(expected)), expected);
        QVERIFY(!content.contains(QStringLiteral("nan")));
        for (const char *name : {"amaix.png", "amaix.pdf"}) {
            QVERIFY2(window.exportCurrentPlot(dir.filePath(QLatin1String(name)), ExportOptions{}, &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 1000);
        }
        // The sweep's plot is exported when its tab is shown.
        view->tabs()->setCurrentWidget(view->sweep());
        QCOMPARE(view->exportPlot(), view->sweep()->plot());
        view->tabs()->setCurrentIndex(0);

        const QString csv = dir.filePath(QStringLiteral("amaix.csv"));
        QVERIFY2(view->exportCsv(csv, &error), qPrintable(error));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QByteArray header = c.readLine();
        QVERIFY2(header.startsWith("stage,layer"), header.constData());
        QVERIFY(c.readAll().contains("conv1"));
        QVERIFY(!view->exportCsv(QStringLiteral("/nonexistent-dir/x.csv"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/x.csv")));
    }

    // --- Design review: undo, snapshots, sensitivity, sessions, save, keyboard ---

    void saveWritesTheAccelerator()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        AmaixDocument *doc = view->document();
        QVERIFY(view->canSave());
        QCOMPARE(view->filePath(), example("nv_full.json"));
        view->panel()->slider(QStringLiteral("/scaling/t_c"))->spinBox()->setValue(32);
        QVERIFY(view->isModified());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nv_half.json"));
        QString error;
        QVERIFY2(view->saveFile(path, &error), qPrintable(error));
        QVERIFY(!view->isModified());
        QCOMPARE(view->filePath(), path);
        const AcceleratorLoad back = loadAcceleratorFile(path.toStdString());
        QVERIFY2(back.accelerator, back.diagnostics.toString().c_str());
        QVERIFY(*back.accelerator == doc->accelerator());
        QCOMPARE(back.accelerator->nvdla.tC, 32.0);
        QVERIFY(!view->panel()->resetButton()->isEnabled()); // the saved file is what Reset returns to
        doc->undoStack()->undo();
        QVERIFY(view->isModified());
        QVERIFY(!view->saveFile(QStringLiteral("/nonexistent-dir/a.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/a.json")), qPrintable(error));
    }

    void sessionRoundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.session.json"));
        const QString csv = dir.filePath(QStringLiteral("alexnet.csv"));
        {
            QFile f(csv);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("layer,time_us\nconv1,400\ntotal,6000\n");
        }
        MainWindow a;
        AmaixView *va = amaixView(a);
        AmaixDocument *da = va->document();
        QString error;
        QVERIFY(a.openFile(QStringLiteral(":/examples/gables/gables-fig6b.json"), &error)); // the other views' part
        QVERIFY2(a.openFile(csv, &error), qPrintable(error));
        da->setRefine(true);
        da->setDataType(QStringLiteral("int8"));
        da->pinSnapshot(QStringLiteral("int8 refined"));
        // A trip through the general model: the general snapshot keeps nvdla's numbers for a
        // switch back, and back under nvdla the MAC array keeps the peak it had (neither is in
        // an accelerator file: the session carries them beside it).
        Diagnostics d;
        da->setParameter(*resolveParameter(da->accelerator(), "/scaling/t_c", d), 32);
        QVERIFY(da->setScaling(ScalingModel::General, &error));
        da->pinSnapshot(QStringLiteral("general"));
        QVERIFY(da->setScaling(ScalingModel::Nvdla, &error));
        QCOMPARE(da->accelerator().units[std::size_t(da->accelerator().unitIndex("CONV_CORE"))].opsPerCycle, 512.0);
        da->setParameter(*resolveParameter(da->accelerator(), "/memories/DRAM/bandwidth_gbps", d), 96);
        da->pinSnapshot(QStringLiteral("96 GB/s"));
        da->setComparedSnapshot(2);
        da->setParameter(*resolveParameter(da->accelerator(), "/clock_ghz", d), 1.25);
        va->flushPendingUpdate();
        va->panel()->coloringBox()->setCurrentIndex(1);
        va->tabs()->setCurrentWidget(va->sensitivityChart());
        va->plot()->xAxis->setRange(0.5, 500);
        va->plot()->yAxis->setRange(1, 5000);
        QVERIFY(va->isModified());
        QVERIFY2(a.saveSession(path, &error), qPrintable(error));

        MainWindow b;
        QVERIFY2(b.openFile(path, &error), qPrintable(error)); // routed by its "format"
        AmaixView *vb = amaixView(b);
        AmaixDocument *db = vb->document();
        QVERIFY(db->network() == da->network());
        QVERIFY(db->accelerator() == da->accelerator());
        QVERIFY(db->loadedAccelerator() == da->loadedAccelerator());
        QVERIFY(db->options() == da->options());
        QCOMPARE(db->networkPath(), da->networkPath());
        QCOMPARE(db->acceleratorPath(), da->acceleratorPath());
        QCOMPARE(db->measuredPath(), csv);
        QVERIFY(db->measured() && *db->measured() == *da->measured());
        QCOMPARE(db->snapshots().size(), std::size_t(3));
        QCOMPARE(db->snapshots()[1].state.accelerator.scaling, ScalingModel::General);
        QCOMPARE(db->snapshots()[1].state.accelerator.nvdla.tC, 32.0); // the file's default would be 64
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(db->snapshots()[i].name, da->snapshots()[i].name);
            QVERIFY(db->snapshots()[i].state.accelerator == da->snapshots()[i].state.accelerator);
            QVERIFY(db->snapshots()[i].state.options == da->snapshots()[i].state.options);
            QVERIFY(*db->snapshots()[i].state.network == *da->snapshots()[i].state.network);
        }
        QCOMPARE(db->comparedSnapshot(), 2);
        QVERIFY(db->isModified());
        QVERIFY(b.isWindowModified());
        QCOMPARE(db->undoStack()->count(), 0); // a new history
        QCOMPARE(vb->result().totalNs, va->result().totalNs);
        QCOMPARE(vb->comparisonText(), va->comparisonText());
        QCOMPARE(vb->plot()->ghostMarkers().size(), va->plot()->ghostMarkers().size());
        QCOMPARE(vb->plot()->coloring(), MarkerColoring::ByBound);
        QCOMPARE(vb->tabs()->currentWidget(), vb->sensitivityChart());
        QVERIFY(vb->sensitivityRows() == va->sensitivityRows());
        QCOMPARE(vb->plot()->xAxis->range().lower, 0.5);
        QCOMPARE(vb->plot()->yAxis->range().upper, 5000.0);
        QCOMPARE(vb->sessionState().value(QStringLiteral("snapshots")), va->sessionState().value(QStringLiteral("snapshots")));
        QCOMPARE(vb->panel()->slider(QStringLiteral("/clock_ghz"))->value(), 1.25);

        // A bad session is refused whole with the file, the pointer and the reason; the work stays.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        auto patched = [&](auto edit) {
            QJsonObject r = root;
            QJsonObject views = r[QStringLiteral("views")].toObject();
            QJsonObject amaix = views[QStringLiteral("amaix")].toObject();
            edit(amaix);
            views[QStringLiteral("amaix")] = amaix;
            r[QStringLiteral("views")] = views;
            const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
            QFile out(bad);
            if (!out.open(QIODevice::WriteOnly))
                qFatal("cannot write");
            out.write(QJsonDocument(r).toJson());
            return bad;
        };
        const Accelerator accBefore = db->accelerator();
        const int stepsBefore = db->undoStack()->count();
        const QString bad = patched([](QJsonObject &amaix) {
            QJsonArray snapshots = amaix[QStringLiteral("snapshots")].toArray();
            QJsonObject s1 = snapshots[2].toObject();
            QJsonObject state = s1[QStringLiteral("state")].toObject();
            QJsonObject acc = state[QStringLiteral("accelerator")].toObject();
            QJsonObject memories = acc[QStringLiteral("memories")].toObject();
            memories[QStringLiteral("DRAM")] = QJsonObject{{QStringLiteral("bandwidth_gbps"), -3}};
            acc[QStringLiteral("memories")] = memories;
            state[QStringLiteral("accelerator")] = acc;
            s1[QStringLiteral("state")] = state;
            snapshots[2] = s1;
            amaix[QStringLiteral("snapshots")] = snapshots;
        });
        QVERIFY(!b.openSession(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/views/amaix/snapshots/2/state/accelerator"))
                     && error.contains(QStringLiteral("/memories/DRAM/bandwidth_gbps")) && error.contains(QStringLiteral("-3")),
                 qPrintable(error));
        QVERIFY(db->accelerator() == accBefore);
        QCOMPARE(db->snapshots().size(), std::size_t(3));
        QCOMPARE(db->undoStack()->count(), stepsBefore);
        QCOMPARE(vb->result().totalNs, va->result().totalNs);

        // Other kinds of damage: a measured CSV naming a layer the network lacks, a compared index out of range.
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) {
            amaix[QStringLiteral("measured_csv")] = QStringLiteral("layer,time_us\nconv99,1\n");
        }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/measured_csv")) && error.contains(QStringLiteral("conv99")),
                 qPrintable(error));
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) { amaix[QStringLiteral("compared")] = 7; }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/compared")), qPrintable(error));
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) {
            amaix[QStringLiteral("options")] = QJsonObject{{QStringLiteral("data_type"), QStringLiteral("fp64")}};
        }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/options/data_type")) && error.contains(QStringLiteral("fp64")),
                 qPrintable(error));
        QVERIFY(!b.openSession(patched([](QJsonObject &amaix) {
            amaix[QStringLiteral("accelerator_extra")] = QJsonObject{{QStringLiteral("nvdla"), QJsonArray{64, 32}}};
        }), &error));
        QVERIFY2(error.contains(QStringLiteral("/views/amaix/accelerator_extra/nvdla")), qPrintable(error));
        QCOMPARE(db->comparedSnapshot(), 2);
        QVERIFY(db->measured());
    }
};

QTEST_MAIN(TestAmaixViewFiles)

#include "tst_amaixview_files.moc"
