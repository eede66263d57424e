// The nn-Meter view's files: the device and rules selectors, bad files
// refused with file, field and reason while the current work stays, sessions
// round-tripping every edit and snapshot, routing from the main window and
// the review bundle's files.
#include "nnmeterviewtesting.h"

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
        QVERIFY2(error.contains(QStringLiteral("s.json")) && error.contains(QStringLiteral("/views/nnmeter/numbers//peak_gflops")),
                 qPrintable(error));
        QVERIFY(other.prediction() == kept);
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
};

QTEST_MAIN(TestNnmeterViewFiles)
#include "tst_nnmeterview_files.moc"
