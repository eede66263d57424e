// The nn-Meter view's files: the device and rules selectors, bad files
// refused with file, field and reason while the current work stays, sessions
// round-tripping every edit and snapshot, routing from the main window and
// the review bundle's files.
#include "nnmeterviewtesting.h"

#include "emptystate.h"
#include "nnmeterlab.h"
#include "plotexport.h"
#include "plotstyle.h"
#include "preferences.h"

#include <QSplitter>
#include <QSplitterHandle>
#include <QTabWidget>

#include "network/io.h"

#include <cmath>

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return path;
}

} // namespace

class TestNnmeterViewFiles : public QObject
{
    Q_OBJECT
private slots:
    // A device file may name its device at any length: the chart's title shows the first 120
    // characters, broken into lines that fit, however many spaces the name has (a title fitted
    // space by space measured the whole line at each: quadratic in the name's length).
    // An export lays the chart out at its own size: the title's lines fit that width, not the
    // widget's (a view never shown, as the command line exports it, is 100 px wide: its
    // title broke after "on").
    void exportFitsTheTitleToItsOwnWidth()
    {
        NnmeterView view(new NnmeterDocument); // never shown
        view.flushPendingUpdate();
        NnmeterPlot *plot = view.plot();
        QVERIFY(plot->width() < 700);
        QStringList laidOut;
        connect(plot, &QCustomPlot::afterLayout, this, [&] { laidOut << plot->titleText(); });
        const QPixmap exported = plot->toPixmap(1000, 700);
        QVERIFY(!exported.isNull());
        QVERIFY(!laidOut.isEmpty());
        // At 1000 px: the network line and the device line, each whole.
        const QString atExport = laidOut.first();
        QCOMPARE(atExport.count(QLatin1Char('\n')), 1);
        QVERIFY2(atExport.section(QLatin1Char('\n'), 1).startsWith(QStringLiteral("on Pixel 4 CPU (Cortex-A76")),
                 qPrintable(atExport));
    }

    void longDeviceNameIsShortenedInTheTitle()
    {
        NnmeterView view(new NnmeterDocument);
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTemporaryDir dir;
        QFile::copy(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/tflite_cpu.rules.json"), dir.filePath(QStringLiteral("tflite_cpu.rules.json")));
        QString text = QString::fromUtf8([] {
            QFile f(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/cortexa76_tflite_cpu.device.json"));
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }());
        QString name;
        for (int i = 0; i < 50000; ++i)
            name += QStringLiteral("ab (");
        text.replace(QStringLiteral("\"Pixel 4 CPU (Cortex-A76, TFLite CPU)\""), QLatin1Char('"') + name + QLatin1Char('"'));
        const QString device = writeFile(dir, QStringLiteral("long.device.json"), text.toUtf8());
        QString error;
        QVERIFY2(view.openFile(device, &error, nullptr), qPrintable(error));
        view.flushPendingUpdate();
        QCoreApplication::processEvents();
        const QString title = view.plot()->titleText();
        QVERIFY2(title.size() < 400, qPrintable(QString::number(title.size())));
        QVERIFY2(title.contains(QStringLiteral("ab (ab (")) && title.contains(QChar(0x2026)), qPrintable(title));
        QVERIFY2(title.count(QLatin1Char('\n')) >= 2, qPrintable(title)); // the long line broken to fit
    }

    void deviceSelectorSwitchesDevice()
    {
        NnmeterView view(new NnmeterDocument);
        QComboBox *box = view.panel()->deviceBox();
        QCOMPARE(box->count(), 4); // the three seed devices and this machine's (the kernel lab's)
        QVERIFY(box->findData(nnExample("onednn_cpu.device.json")) >= 0);
        const int gpu = box->findData(nnExample("adreno640_tflite_gpu.device.json"));
        QVERIFY(gpu >= 0);
        box->setCurrentIndex(gpu);
        emit box->activated(gpu);
        view.flushPendingUpdate();
        const Device expected = sourceDevice("adreno640_tflite_gpu.device.json");
        QVERIFY(view.document()->device() == expected);
        QVERIFY(view.prediction() == predictNetwork(view.document()->network(), expected));
        // The GPU fuses conv-add (seed section 1): its pair box is on, the CPU's was off.
        QVERIFY(view.panel()->ruleBox("conv_add")->isChecked());
        QCOMPARE(view.undoStack()->count(), 1);
        view.undoStack()->undo();
        view.flushPendingUpdate();
        QVERIFY(view.document()->device() == sourceDevice("cortexa76_tflite_cpu.device.json"));
        QVERIFY(!view.panel()->ruleBox("conv_add")->isChecked());

        // A rule set over the device's own: the VPU rules on the CPU device.
        QComboBox *rules = view.panel()->rulesBox();
        const int vpu = rules->findData(nnExample("openvino_vpu.rules.json"));
        QVERIFY(vpu > 0);
        rules->setCurrentIndex(vpu);
        emit rules->activated(vpu);
        view.flushPendingUpdate();
        QCOMPARE(view.document()->rules().backend, sourceDevice("myriadx_openvino_vpu.device.json").rules.backend);
        QCOMPARE(view.document()->device().peakGflops, 38.72);
        QVERIFY(view.prediction() == corePrediction(view.document()));
    }

    void badFilesKeepTheWork()
    {
        NnmeterView view(new NnmeterDocument);
        view.panel()->ruleBox("conv_bn")->click(); // some work
        view.flushPendingUpdate();
        const Prediction before = view.prediction();
        QTemporaryDir dir;
        QFile::copy(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/tflite_cpu.rules.json"), dir.filePath(QStringLiteral("tflite_cpu.rules.json")));
        QString text = QString::fromUtf8([] {
            QFile f(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/cortexa76_tflite_cpu.device.json"));
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }());
        text.replace(QStringLiteral("\"peak_gflops\": 38.72"), QStringLiteral("\"peak_gflops\": -1"));
        const QString bad = writeFile(dir, QStringLiteral("bad.device.json"), text.toUtf8());
        QString error;
        QVERIFY(!view.openFile(bad, &error, nullptr));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/peak_gflops")), qPrintable(error));
        QVERIFY(view.prediction() == before);
        QVERIFY(!view.document()->rules().pairs.at("conv_bn").fuses); // the toggle stays

        // A rules file with an unknown operator: refused naming the rule.
        const QString rules = writeFile(dir, QStringLiteral("bad.rules.json"),
                                        R"({"format": "roofline-studio/nnmeter-rules", "version": 1, "backend": "x",
                                            "fusions": {"BF_conv_blah": true}})");
        QVERIFY(!view.openFile(rules, &error, nullptr));
        QVERIFY2(error.contains(rules) && error.contains(QStringLiteral("BF_conv_blah")), qPrintable(error));
        // A network that does not parse.
        const QString net = writeFile(dir, QStringLiteral("broken.onnx"), "not a model");
        QVERIFY(!view.panel()->openPath(net, &error, nullptr));
        QVERIFY2(error.contains(net), qPrintable(error));
        // A device naming a rules file that is not there.
        text.replace(QStringLiteral("\"peak_gflops\": -1"), QStringLiteral("\"peak_gflops\": 5"));
        text.replace(QStringLiteral("tflite_cpu.rules.json"), QStringLiteral("missing.rules.json"));
        const QString missing = writeFile(dir, QStringLiteral("missing.device.json"), text.toUtf8());
        QVERIFY(!view.openFile(missing, &error, nullptr));
        QVERIFY2(error.contains(QStringLiteral("/fusion_rules")) && error.contains(QStringLiteral("missing.rules.json")), qPrintable(error));
        QVERIFY(view.prediction() == before);
        QCOMPARE(view.undoStack()->count(), 1);
    }

    void sessionRoundTrips()
    {
        NnmeterView view(new NnmeterDocument);
        QString error;
        QVERIFY2(view.panel()->openPath(onnxFixture("mobilenet_v3_small"), &error, nullptr), qPrintable(error));
        view.panel()->ruleBox("conv_bn")->click();
        view.panel()->slider(QStringLiteral("/bandwidth_gbps"))->spinBox()->setValue(20);
        view.flushPendingUpdate();
        view.document()->pinSnapshot(QStringLiteral("slow memory"));
        view.panel()->unitBox("se")->click();
        view.flushPendingUpdate();
        view.selectKernel(3);
        const QJsonObject state = view.sessionState();
        QVERIFY(!state.isEmpty());
        // Through the text of a file, as a session is saved.
        const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(state).toJson()).object();

        NnmeterView other(new NnmeterDocument);
        QVERIFY2(other.restoreSessionState(reread, QStringLiteral("s.json"), &error), qPrintable(error));
        QVERIFY(other.document()->device() == view.document()->device());
        QCOMPARE(other.document()->network(), view.document()->network());
        QVERIFY(other.prediction() == view.prediction());
        QCOMPARE(other.selectedKernel(), 3);
        QCOMPARE(other.document()->snapshots().size(), std::size_t(1));
        QCOMPARE(other.document()->snapshots()[0].name, QStringLiteral("slow memory"));
        QVERIFY(other.document()->snapshots()[0].state.device == view.document()->snapshots()[0].state.device);
        QCOMPARE(other.document()->comparedSnapshot(), 0);
        QVERIFY(!other.comparisonText().isEmpty());
        QVERIFY(other.document()->openedFiles().contains(onnxFixture("mobilenet_v3_small")));

        // A bad part changes nothing and names the field.
        QJsonObject broken = reread;
        QJsonObject numbers = broken[QStringLiteral("numbers")].toObject();
        numbers[QStringLiteral("/peak_gflops")] = -4;
        broken[QStringLiteral("numbers")] = numbers;
        const Prediction kept = other.prediction();
        QVERIFY(!other.restoreSessionState(broken, QStringLiteral("s.json"), &error));
        // The key is a JSON pointer: one token of the message's pointer, escaped (RFC 6901: "/" as ~1, "~" as ~0).
        QVERIFY2(error.contains(QStringLiteral("s.json: /views/nnmeter/numbers/~1peak_gflops: ")), qPrintable(error));
        QVERIFY(other.prediction() == kept);
        numbers = reread[QStringLiteral("numbers")].toObject();
        numbers[QStringLiteral("/efficiency/conv~x")] = 0.5;
        broken[QStringLiteral("numbers")] = numbers;
        QVERIFY(!other.restoreSessionState(broken, QStringLiteral("s.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("s.json: /views/nnmeter/numbers/~1efficiency~1conv~0x: ")), qPrintable(error));
        QVERIFY(other.prediction() == kept);
    }

    void predictedVersusMeasured()
    {
        NnmeterView view(new NnmeterDocument);
        // Before any file: the panel says why it is empty, the table is off.
        QVERIFY(!view.measuredTable()->isEnabled());
        QVERIFY(view.measuredSummary()->text().contains(QStringLiteral("No measured latencies are open")));
        // Test input (not data): ResNet-50 5 % slower than its prediction, ResNet-18 50 % slower, one not open.
        const double r50 = view.prediction().kernelSumMs;
        const network::Network r18 = *network::loadNetworkFile(ROOFLINE_EXAMPLES_DIR "/amaix/resnet18.json").network;
        const double r18ms = predictNetwork(r18, view.document()->device()).kernelSumMs;
        QTemporaryDir dir;
        const QString csv = writeFile(dir, QStringLiteral("m.csv"),
                                      QStringLiteral("network,measured_ms,repetitions\nResNet-50,%1,20\nresnet18,%2,5\nNoSuchNet,3,\n")
                                          .arg(r50 * 1.05, 0, 'g', 17)
                                          .arg(r18ms * 1.5, 0, 'g', 17)
                                          .toUtf8());
        QString error;
        QVERIFY2(view.openMeasured(csv, &error), qPrintable(error));
        view.bottomTabs()->setCurrentWidget(view.measuredTab());
        QVERIFY(view.measuredTable()->isEnabled());
        QCOMPARE(view.measuredRows().size(), std::size_t(3));
        ROOFLINE_COMPARE_REL(view.measuredRows()[0].predictedMs, r50, 1e-12);
        ROOFLINE_COMPARE_REL(view.measuredRows()[1].predictedMs, r18ms, 1e-12);
        QCOMPARE(view.measuredRows()[1].matchedFile, QStringLiteral(":/examples/amaix/resnet18.json"));
        QVERIFY(view.measuredRows()[2].predictedMs < 0);
        QCOMPARE(view.measuredTable()->item(0, 4)->text(), QStringLiteral("yes"));
        QCOMPARE(view.measuredTable()->item(1, 4)->text(), QStringLiteral("no"));
        QCOMPARE(view.measuredTable()->item(2, 3)->text(), QStringLiteral("not open"));
        QVERIFY2(view.measuredSummary()->text().contains(QStringLiteral("1 of 2 networks within ±10 %")),
                 qPrintable(view.measuredSummary()->text()));
        // The totals chart gains the measured bar for the network shown.
        QCOMPARE(view.totalsChart()->plottableCount(), 2);
        // A rule toggle predicts every measured network again.
        view.panel()->ruleBox("bn_relu")->click();
        view.flushPendingUpdate();
        ROOFLINE_COMPARE_REL(view.measuredRows()[0].predictedMs, view.prediction().kernelSumMs, 1e-12);
        // A bad file keeps the measurements open.
        const QString bad = writeFile(dir, QStringLiteral("bad.csv"), "network,measured_ms\nResNet-50,-2\n");
        QVERIFY(!view.openMeasured(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("line 2")) && error.contains(QStringLiteral("measured_ms")),
                 qPrintable(error));
        QCOMPARE(view.measuredRows().size(), std::size_t(3));
        // Sessions keep them.
        NnmeterView other(new NnmeterDocument);
        QVERIFY2(other.restoreSessionState(QJsonDocument::fromJson(QJsonDocument(view.sessionState()).toJson()).object(),
                                           QStringLiteral("s.json"), &error),
                 qPrintable(error));
        QVERIFY(other.document()->measured());
        QCOMPARE(other.document()->measured()->size(), std::size_t(3));
        // Undo closes them again.
        view.undoStack()->undo(); // the rule
        view.undoStack()->undo(); // the file
        view.flushPendingUpdate();
        QVERIFY(!view.document()->measured());
    }

    // The kernel lab's kernels.csv beside the measured latencies: each kernel's time inside a
    // network run, matched to the shown kernels by first layer and member count, in the tree's
    // Measured column, as markers on the chart and in the tab's summary.
    void perKernelMeasurements()
    {
        NnmeterView view(new NnmeterDocument);
        const Prediction p = view.prediction();
        const network::Network &net = view.document()->network();
        QVERIFY(p.detection.kernels.size() > 3);
        QVERIFY(view.kernelTree()->isColumnHidden(3)); // no per-kernel timings yet
        // Test input (not data): kernel 0 measured at twice its prediction, kernel 2 at its prediction,
        // and a row naming kernel 1's first layer with one member more (another grouping: no match).
        auto row = [&](std::size_t k, double ms, int extraMembers) {
            const Kernel &kernel = p.detection.kernels[k];
            return QStringLiteral("ResNet-50,%1,%2,%3,%4,1,%5,,15,\n")
                .arg(k)
                .arg(QString::fromStdString(kernel.type), QString::fromStdString(net.layers[std::size_t(kernel.layers.front())].name))
                .arg(kernel.layers.size() + std::size_t(extraMembers))
                .arg(ms, 0, 'g', 17);
        };
        QTemporaryDir dir;
        const QString kernels = writeFile(dir, QStringLiteral("kernels.csv"),
                                          (QString::fromLatin1(kKernelLatencyHeader) + QStringLiteral("\n") + row(0, 2 * p.kernels[0].ms, 0)
                                           + row(1, 1.0, 1) + row(2, p.kernels[2].ms, 0))
                                              .toUtf8());
        const QString measured = writeFile(dir, QStringLiteral("measured.csv"),
                                           QStringLiteral("network,measured_ms\nResNet-50,%1\n").arg(p.kernelSumMs).toUtf8());
        QString error;
        QVERIFY2(view.openMeasured(measured, &error), qPrintable(error));
        QVERIFY(view.document()->kernelsMeasured());
        QCOMPARE(view.document()->state().kernelsMeasuredPath, kernels);
        const std::vector<double> &m = view.kernelMeasuredMs();
        QCOMPARE(m.size(), p.detection.kernels.size());
        QCOMPARE(m[0], 2 * p.kernels[0].ms);
        QCOMPARE(m[1], -1.0);
        QCOMPARE(m[2], p.kernels[2].ms);
        QVERIFY(!view.kernelTree()->isColumnHidden(3));
        QVERIFY(view.kernelTree()->isColumnHidden(2)); // Share gives way to Measured
        QVERIFY2(view.kernelTree()->topLevelItem(0)->text(3).contains(QStringLiteral("-50 %")),
                 qPrintable(view.kernelTree()->topLevelItem(0)->text(3)));
        QVERIFY(view.kernelTree()->topLevelItem(1)->text(3).isEmpty());
        QVERIFY2(view.kernelTree()->topLevelItem(2)->text(3).contains(QStringLiteral("+0 %")),
                 qPrintable(view.kernelTree()->topLevelItem(2)->text(3)));
        // The chart's markers: two, at the measured values in the chart's unit.
        QCPGraph *markers = view.plot()->measuredGraph();
        QCOMPARE(markers->dataCount(), 2);
        QCOMPARE(markers->data()->at(0)->key, 1.0);
        ROOFLINE_COMPARE_REL(markers->data()->at(0)->value, 2 * p.kernels[0].ms * view.plot()->unitPerMs(), 1e-12);
        QCOMPARE(markers->data()->at(1)->key, 3.0);
        // The review bundle carries the per-kernel comparison.
        bool bundled = false;
        for (const ModelView::BundleFile &f : view.bundleFiles())
            if (f.name == QLatin1String("nnmeter-kernels-measured.csv")) {
                bundled = true;
                QCOMPARE(f.content.count('\n'), 3); // header and the two matched kernels
                QVERIFY(f.content.contains(",-0.5,no\n"));
            }
        QVERIFY(bundled);
        // The view claims its CSVs by header (the main window routes them here), not others'.
        QVERIFY(view.claimsFile(measured));
        QVERIFY(view.claimsFile(kernels));
        QVERIFY(view.claimsFile(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu/measured.csv"))); // a comment line first
        QVERIFY(view.claimsFile(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/onednn_cpu/measurements.csv")));
        QVERIFY(!view.claimsFile(writeFile(dir, QStringLiteral("layers.csv"), "layer,time_us\nconv1,3\n")));
        view.bottomTabs()->setCurrentWidget(view.measuredTab());
        QVERIFY2(view.measuredSummary()->text().contains(QStringLiteral("2 of %1 kernels measured in a network run, 1 of them within ±10 %")
                                                             .arg(p.detection.kernels.size())),
                 qPrintable(view.measuredSummary()->text()));
        // Under other rules kernel 0 (conv-bn-relu) groups differently: it is no longer the measured one.
        QCOMPARE(p.detection.kernels[0].type, std::string("conv-bn-relu"));
        view.panel()->ruleBox("bn_relu")->click();
        view.flushPendingUpdate();
        QCOMPARE(view.kernelMeasuredMs()[0], -1.0);
        // Sessions keep the per-kernel timings.
        NnmeterView other(new NnmeterDocument);
        QVERIFY2(other.restoreSessionState(QJsonDocument::fromJson(QJsonDocument(view.sessionState()).toJson()).object(),
                                           QStringLiteral("s.json"), &error),
                 qPrintable(error));
        QVERIFY(other.document()->kernelsMeasured());
        QCOMPARE(other.document()->kernelsMeasured()->size(), std::size_t(3));
        // A kernels.csv that does not load keeps everything open as it was, and names the file, line and column.
        QTemporaryDir badDir;
        writeFile(badDir, QStringLiteral("kernels.csv"), (QString::fromLatin1(kKernelLatencyHeader) + QStringLiteral("\nResNet-50,0,conv,c,1,1,-3,,,\n")).toUtf8());
        const QString badMeasured = writeFile(badDir, QStringLiteral("measured.csv"), "network,measured_ms\nResNet-50,5\n");
        QVERIFY(!view.openMeasured(badMeasured, &error));
        QVERIFY2(error.contains(badDir.filePath(QStringLiteral("kernels.csv"))) && error.contains(QStringLiteral("line 2"))
                     && error.contains(QStringLiteral("measured_ms")),
                 qPrintable(error));
        QCOMPARE(view.document()->state().kernelsMeasuredPath, kernels);
        QCOMPARE(view.document()->state().measuredPath, measured);
        // kernels.csv opened alone replaces only the per-kernel timings; undo brings the old ones back.
        const QString alone = writeFile(badDir, QStringLiteral("k2.csv"), (QString::fromLatin1(kKernelLatencyHeader) + QStringLiteral("\n") + row(2, 1.0, 0)).toUtf8());
        QVERIFY2(view.openMeasured(alone, &error), qPrintable(error));
        QCOMPARE(view.document()->kernelsMeasured()->size(), std::size_t(1));
        QCOMPARE(view.document()->state().measuredPath, measured);
        view.undoStack()->undo();
        view.flushPendingUpdate();
        QCOMPARE(view.document()->kernelsMeasured()->size(), std::size_t(3));
    }

    // The readout's FLOPs line says which way the FLOPs estimate misses, for either sign.
    void flopsReadoutWordsBothSigns()
    {
        Device d;
        d.peakGflops = 100;
        Prediction p;
        p.kernelSumMs = 10;
        p.operatorSumMs = 12;
        p.flops = 8e8;
        p.flopsMs = 8;
        QString text = flopsReadout(p, d);
        QVERIFY2(text.contains(QStringLiteral("Fusion saves 2 ms")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("come to 2 ms less than the kernel sum")), qPrintable(text));
        p.flopsMs = 13; // FLOPs above the kernel sum (e.g. learned kernels faster than the conv efficiency)
        text = flopsReadout(p, d);
        QVERIFY2(text.contains(QStringLiteral("come to 3 ms more than the kernel sum")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("miss")), qPrintable(text));
        p.flopsMs = 10.01;
        text = flopsReadout(p, d);
        QVERIFY2(text.contains(QStringLiteral("agree with the kernel sum within 0.5 %")), qPrintable(text));
        // The view shows it for what it predicts.
        NnmeterView view(new NnmeterDocument);
        QVERIFY(view.readout()->text().contains(flopsReadout(view.prediction(), view.document()->device())));
    }

    void theLabsMeasurementsOnThisMachine()
    {
        // The kernel lab's shipped record: its end-to-end rows, predicted here with the lab's own device
        // give the lab's own predicted_ms (5 digits in the file).
        NnmeterView view(new NnmeterDocument);
        QString error;
        QVERIFY2(view.openFile(nnExample("onednn_cpu.device.json"), &error, nullptr), qPrintable(error));
        QVERIFY2(view.openMeasured(nnExample("onednn_cpu/measurements.csv"), &error), qPrintable(error));
        view.bottomTabs()->setCurrentWidget(view.measuredTab());
        bool sawResnet50 = false;
        for (const NnmeterView::MeasuredRow &r : view.measuredRows()) {
            if (r.network != QLatin1String("resnet50.json"))
                continue;
            sawResnet50 = true;
            QCOMPARE(r.matchedFile, QStringLiteral(":/examples/amaix/resnet50.json"));
            QCOMPARE(r.measuredMs, 98.69);
            QVERIFY2(std::abs(r.predictedMs / 113.2 - 1) < 5e-4, qPrintable(QString::number(r.predictedMs)));
        }
        QVERIFY(sawResnet50);
        // kernels.csv beside it opens too: ResNet-50's kernels, each measured where it ran.
        QVERIFY(view.document()->kernelsMeasured());
        view.flushPendingUpdate(); // the view's network is the shipped ResNet-50 (resnet50.json)
        const auto &k = view.kernelMeasuredMs();
        QVERIFY(!k.empty());
        QVERIFY(std::all_of(k.begin(), k.end(), [](double ms) { return ms > 0; }));
        QCOMPARE(view.plot()->measuredGraph()->dataCount(), int(k.size()));
        QVERIFY2(view.measuredSummary()->text().contains(QStringLiteral("networks within ±10 %")),
                 qPrintable(view.measuredSummary()->text()));
    }

    void mainWindowRoutesAndSavesSessions()
    {
        MainWindow window;
        QString error;
        QVERIFY2(window.openFile(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/nnmeter/myriadx_openvino_vpu.device.json"), &error), qPrintable(error));
        auto *view = qobject_cast<NnmeterView *>(window.currentView());
        QVERIFY(view);
        QCOMPARE(view->document()->device().name, sourceDevice("myriadx_openvino_vpu.device.json").name);
        view->panel()->ruleBox("bn_relu")->click();
        view->flushPendingUpdate();
        const Prediction edited = view->prediction();
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("s.session.json"));
        QVERIFY2(window.saveSession(session, &error), qPrintable(error));

        MainWindow again;
        QVERIFY2(again.openSession(session, &error), qPrintable(error));
        auto *restored = again.findChild<NnmeterView *>();
        QVERIFY(restored->prediction() == edited);
        QCOMPARE(again.currentView(), restored);

        // The review bundle's files carry the kernels as the core has them.
        bool found = false;
        for (const ModelView::BundleFile &f : view->bundleFiles()) {
            if (f.name != QLatin1String("nnmeter-kernels.csv"))
                continue;
            found = true;
            QCOMPARE(f.content.count('\n'), qsizetype(edited.detection.kernels.size() + 1));
        }
        QVERIFY(found);
        QCOMPARE(view->bundlePlots().size(), 3);
    }

    // A device named on the command line that does not open: no ResNet-50 on the seed's
    // CPU pretending to be the user's, an empty state naming the failure; its example
    // buttons open here (a network example too: the main window would give a JSON network
    // to the AMAIX view), one half keeps the empty state and says what is missing.
    void emptyStateAfterFailedOpen()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("mine.device.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "roofline-studio/nnmeter-device", "version": 1, "name": "x", "rules": "none.rules.json",
                    "peak_gflops": -1, "bandwidth_gbps": 10})");
        f.close();
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        auto *view = window.findChild<NnmeterView *>();
        QVERIFY(view);
        QVERIFY(!view->showsEmptyState()); // the start-up example
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        QCOMPARE(window.showEmptyStateAfterFailedOpen(bad, error), static_cast<ModelView *>(view));
        QVERIFY(view->showsEmptyState());
        QVERIFY(view->emptyState()->isVisible());
        QVERIFY(!view->plot()->isVisible());
        QVERIFY2(view->emptyState()->note().contains(QStringLiteral("mine.device.json did not open")),
                 qPrintable(view->emptyState()->note()));
        QVERIFY(view->sessionState().isEmpty());
        QVERIFY(view->bundlePlots().isEmpty());
        QVERIFY(view->bundleFiles().isEmpty());
        if (const QString shots = qEnvironmentVariable("ROOFLINE_SCREENSHOT_DIR"); !shots.isEmpty())
            window.grab().save(shots + QStringLiteral("/nnmeter-empty-1280.png"));
        QVERIFY2(view->summary().contains(QStringLiteral("no network or device")), qPrintable(view->summary()));
        QVERIFY(!window.exportCurrentPlot(dir.filePath(QStringLiteral("x.png")), ExportOptions(), &error));
        QVERIFY2(error.contains(QStringLiteral("no model open")), qPrintable(error));
        const QStringList examples = view->emptyState()->exampleButtons();
        QVERIFY2(examples.contains(QStringLiteral("resnet50")) && examples.contains(QStringLiteral("cortexa76_tflite_cpu.device")),
                 qPrintable(examples.join(QLatin1Char(','))));
        auto button = [&](const QString &text) -> QPushButton * {
            for (QPushButton *b : view->emptyState()->findChildren<QPushButton *>())
                if (b->text() == text)
                    return b;
            return nullptr;
        };
        QVERIFY(button(QStringLiteral("mobilenetv2")));
        QTest::mouseClick(button(QStringLiteral("mobilenetv2")), Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(view->showsEmptyState());
        QCOMPARE(window.currentView(), static_cast<ModelView *>(view)); // stayed here, not routed to AMAIX
        QVERIFY2(view->emptyState()->note().contains(QStringLiteral("Open an nn-Meter device")), qPrintable(view->emptyState()->note()));
        QVERIFY(button(QStringLiteral("adreno640_tflite_gpu.device")));
        QTest::mouseClick(button(QStringLiteral("adreno640_tflite_gpu.device")), Qt::LeftButton);
        view->flushPendingUpdate();
        QVERIFY(!view->showsEmptyState());
        QVERIFY(view->plot()->isVisible());
        QVERIFY(view->plot()->plottableCount() > 0);
        QCOMPARE(view->prediction(), predictNetwork(view->document()->network(), sourceDevice("adreno640_tflite_gpu.device.json")));
        QVERIFY2(view->summary().startsWith(QStringLiteral("kernel sum ")), qPrintable(view->summary()));
        QVERIFY(!view->sessionState().isEmpty());
        // Now it holds the user's work: a later failure does not drop it.
        QVERIFY(!window.showEmptyStateAfterFailedOpen(bad, error));
        QVERIFY(!view->showsEmptyState());
    }

    // Every kernel's name whole in the tree at both window sizes: the tree kept the width of
    // the splitter's first, smaller layout ("#10 dwconv-b…" at 1280 px, also at 1920), because
    // the chart's four-entry legend row set the chart's minimum width. Now the legend wraps to
    // fewer entries a row and stays inside the chart.
    void kernelNamesFitTheTree()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *view = window.findChild<NnmeterView *>();
        QVERIFY(view);
        window.setCurrentView(view);
        QString error;
        QVERIFY2(view->panel()->openPath(onnxFixture("mobilenet_v3_small"), &error, nullptr), qPrintable(error));
        view->flushPendingUpdate();
        QTreeWidget *tree = view->kernelTree();
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080), QSize(1280, 800)}) {
            window.resize(size);
            QTest::qWait(20);
            QCoreApplication::processEvents();
            const QFontMetrics metrics(tree->font());
            const int before = tree->indentation() + tree->iconSize().width(); // branch and swatch
            int longest = 0;
            for (int i = 0; i < tree->topLevelItemCount(); ++i) {
                const QString name = tree->topLevelItem(i)->text(0);
                longest = std::max(longest, metrics.horizontalAdvance(name));
                QVERIFY2(before + metrics.horizontalAdvance(name) + 8 <= tree->columnWidth(0),
                         qPrintable(QStringLiteral("%1 at %2 px: column %3 px").arg(name).arg(size.width()).arg(tree->columnWidth(0))));
                const QString latency = tree->topLevelItem(i)->text(1);
                QVERIFY2(metrics.horizontalAdvance(latency) + 8 <= tree->columnWidth(1), qPrintable(latency));
            }
            QVERIFY(longest > metrics.horizontalAdvance(QStringLiteral("#10 dwconv-b"))); // the case that was cut
            // The chart keeps the larger part, and its legend stays inside it.
            NnmeterPlot *plot = view->plot();
            QVERIFY(plot->width() >= tree->width());
            QVERIFY2(plot->legend->outerRect().right() <= plot->width(),
                     qPrintable(QStringLiteral("legend to %1 of %2 px").arg(plot->legend->outerRect().right()).arg(plot->width())));
            QVERIFY(plot->legend->wrap() >= 1 && plot->legend->wrap() <= 4);
        }
        // With the lab's per-kernel timings the Measured column is shown: the window still
        // fits 1280 px (the tree's 400 px minimum made it 1483 px wide) and the chart keeps
        // room for its legend in two columns.
        QVERIFY2(view->openFile(nnExample("onednn_cpu.device.json"), &error, nullptr), qPrintable(error));
        QVERIFY2(view->openFile(nnExample("onednn_cpu/kernels.csv"), &error, nullptr), qPrintable(error));
        view->flushPendingUpdate();
        QTest::qWait(20);
        QVERIFY(!tree->isColumnHidden(3));
        QCOMPARE(window.width(), 1280);
        QVERIFY(view->plot()->legend->wrap() >= 2);
        QVERIFY(view->plot()->legend->outerRect().right() <= view->plot()->width());

        // A width the user chose by moving the splitter is kept.
        auto *splitter = qobject_cast<QSplitter *>(tree->parentWidget());
        QVERIFY(splitter);
        QSplitterHandle *handle = splitter->handle(1);
        const int fitted = tree->width();
        QTest::mousePress(handle, Qt::LeftButton, {}, QPoint(2, 20));
        QTest::mouseMove(handle, QPoint(-60, 20));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, QPoint(-60, 20));
        const int chosen = tree->width();
        QVERIFY2(chosen < fitted - 20, qPrintable(QStringLiteral("%1 -> %2 px").arg(fitted).arg(chosen)));
        window.resize(1400, 900); // fitted again, it would be as wide as before the drag
        QTest::qWait(20);
        QCOMPARE(tree->width(), chosen);
    }

    // Dark theme: the kernel chart, its legend and the selected kernel's outline, the
    // totals, the tree, the device note, the error line and the lab tab all read on the
    // dark window.
    void darkThemeReadable()
    {
        applyTheme(Preferences::Theme::Dark);
        {
            MainWindow window;
            window.resize(1280, 800);
            window.show();
            auto *view = window.findChild<NnmeterView *>();
            QVERIFY(view);
            window.setCurrentView(view);
            view->selectKernel(3);
            view->flushPendingUpdate();
            const int windowLightness = view->palette().color(QPalette::Window).lightness();
            QVERIFY(windowLightness < 100);
            for (QCustomPlot *plot : {static_cast<QCustomPlot *>(view->plot()), view->totalsChart()}) {
                plot->replot();
                const int background = plotBackgroundBrush(plot).color().lightness();
                QVERIFY(background < 100);
                QVERIFY(plot->xAxis->labelColor().lightness() - background > 100);
                QVERIFY(plot->xAxis->tickLabelColor().lightness() - background > 100);
                for (int i = 0; i < plot->legend->itemCount(); ++i)
                    if (QCPAbstractLegendItem *item = plot->legend->item(i))
                        QVERIFY(item->textColor().lightness() - background > 100);
                for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
                    if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->elementAt(i)))
                        QVERIFY(title->textColor().lightness() - background > 100);
            }
            // The selected kernel's outline (a near-black pen on light) stands out on dark.
            const int background = plotBackgroundBrush(view->plot()).color().lightness();
            bool outline = false;
            for (int i = 0; i < view->plot()->plottableCount(); ++i) {
                auto *bars = qobject_cast<QCPBars *>(view->plot()->plottable(i));
                if (bars && bars->brush().style() == Qt::NoBrush && bars->data()->size() > 0) {
                    outline = true;
                    QVERIFY(bars->pen().color().lightness() - background > 100);
                }
            }
            QVERIFY(outline);
            // Every kernel type's colour differs from the background (bars and tree swatches).
            for (const QString &type : view->plot()->types())
                QVERIFY(std::abs(view->plot()->colorOf(type).lightness() - background) > 40);
            const QPalette tree = view->kernelTree()->palette();
            QVERIFY(tree.color(QPalette::Text).lightness() - tree.color(QPalette::Base).lightness() > 100);
            QLabel *note = nullptr;
            for (QLabel *label : view->panel()->findChildren<QLabel *>())
                if (label->text().contains(QStringLiteral("learned predictor")))
                    note = label;
            QVERIFY(note);
            QVERIFY(note->palette().color(note->foregroundRole()).lightness() - windowLightness > 70);
            QString error;
            QVERIFY(!view->openMeasured(QStringLiteral("/nonexistent/x.csv"), &error));
            emit view->panel()->message(error);
            QVERIFY(view->messageLabel()->isVisibleTo(view));
            QVERIFY(view->messageLabel()->styleSheet().contains(QStringLiteral("#ff7b7b")));
            // The lab tab: its labels in the palette's text colour, errors in the light red.
            view->bottomTabs()->setCurrentWidget(view->labPanel());
            QVERIFY(view->labPanel()->statusLabel()->palette().color(QPalette::WindowText).lightness() - windowLightness > 100);
            view->labPanel()->showError(QStringLiteral("x"));
            QVERIFY(view->labPanel()->errorLabel()->styleSheet().contains(QStringLiteral("#ff7b7b")));
            if (const QString dir = qEnvironmentVariable("ROOFLINE_SCREENSHOT_DIR"); !dir.isEmpty()) {
                for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
                    window.resize(size);
                    QTest::qWait(50);
                    window.grab().save(QStringLiteral("%1/nnmeter-dark-lab-%2.png").arg(dir).arg(size.width()));
                }
                view->bottomTabs()->setCurrentIndex(0);
                QTest::qWait(50);
                window.grab().save(dir + QStringLiteral("/nnmeter-dark-totals-1920.png"));
            }
        }
        applyTheme(Preferences::Theme::Light);
    }
};

QTEST_MAIN(TestNnmeterViewFiles)
#include "tst_nnmeterview_files.moc"
