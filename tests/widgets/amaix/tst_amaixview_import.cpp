// Networks imported into the AMAIX view (issue 10): ONNX and Caffe files open
// through the main window's real path (File ▸ Open, drag and drop, the
// network selector), the plot's markers are the core's figures for the
// imported network, refused files keep the current work, symbolic input sizes
// are asked once and remembered through a session, `other` layers are marked,
// and Save Network As writes our JSON that reads back equal.
#include "amaixviewtesting.h"

#include "network/import.h"
#include "networkimport.h"

#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QTimer>

namespace net = roofline::network;

namespace {

QString fixture(const char *relative)
{
    return QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/") + QLatin1String(relative);
}

// Answers every InputShapeDialog that opens from now on with `shape` (or
// cancels it when `shape` is empty), counting them in `*seen`, until the
// returned timer is deleted.
std::unique_ptr<QTimer> answerInputDialogs(const QString &shape, int *seen)
{
    auto timer = std::make_unique<QTimer>();
    timer->setInterval(5);
    QObject::connect(timer.get(), &QTimer::timeout, [shape, seen] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            auto *dialog = qobject_cast<InputShapeDialog *>(w);
            if (!dialog || !dialog->isVisible() || dialog->result() != 0 || dialog->property("answered").toBool())
                continue;
            dialog->setProperty("answered", true);
            ++*seen;
            if (shape.isEmpty()) {
                dialog->reject();
            } else {
                dialog->edit(0)->setText(shape);
                dialog->accept();
            }
        }
    });
    timer->start();
    return timer;
}

// The core's own result for `network` on the view's accelerator, and the
// markers it implies: what the plot must show.
std::vector<LayerMarker> expectedMarkers(const Network &network, const AmaixDocument &doc)
{
    const Result result = evaluate(network, doc.accelerator(), doc.evaluationOptions());
    return layerMarkers(summarizeLayers(network, result), result.totalNs, MarkerColoring::ByUnit);
}

void compareMarkers(const std::vector<LayerMarker> &shown, const std::vector<LayerMarker> &expected)
{
    QCOMPARE(shown.size(), expected.size());
    for (std::size_t i = 0; i < shown.size(); ++i) {
        QCOMPARE(shown[i].row, expected[i].row);
        ROOFLINE_COMPARE_REL(shown[i].x, expected[i].x, 1e-12);
        ROOFLINE_COMPARE_REL(shown[i].y, expected[i].y, 1e-12);
    }
}

} // namespace

class TestAmaixViewImport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    // File ▸ Open of torchvision's ResNet-50: the plot's points are the core's
    // for the imported network, pinned to torchvision's published counts.
    void opensOnnxThroughTheWindow()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        const QString path = fixture("onnx/resnet50.onnx");
        QString error;
        QStringList warnings;
        QVERIFY2(window.openFile(path, &error, &warnings), qPrintable(error));
        QCOMPARE(window.currentView(), view);
        QVERIFY(warnings.isEmpty());
        view->flushPendingUpdate();
        const Network &network = view->document()->network();
        // torchvision's figures for ResNet-50 v1.5: 25,557,032 parameters, 4.09 G MACs
        // (multiply-accumulates of conv and fc layers, grouped as written).
        QCOMPARE(net::countNetwork(network).parameters(), 25557032LL);
        QCOMPARE(net::countNetwork(network).macs, 4089184256LL);
        QCOMPARE(view->document()->networkPath(), path);
        QVERIFY(view->result().ok());

        // The same file imported by the core alone gives the same network and so the same points.
        const net::NetworkLoad alone = net::importOnnxFile(path.toStdString());
        QVERIFY(alone.network);
        QVERIFY(*alone.network == network);
        compareMarkers(view->plot()->markers(), expectedMarkers(*alone.network, *view->document()));
        QVERIFY(view->plot()->markers().size() >= 50); // 53 convolutions and the fc
        QCOMPARE(view->tableModel()->rowCount(),
                 int(summarizeLayers(network, evaluate(network, view->document()->accelerator(),
                                                       view->document()->evaluationOptions())).size()));
        // The first convolution: 7×7×3→64, stride 2, 224² → 112²: 118,013,952 MACs.
        const int conv1 = int(std::find_if(network.layers.begin(), network.layers.end(),
                                           [](const Layer &l) { return l.op == "Conv"; })
                              - network.layers.begin());
        QVERIFY(conv1 < int(network.layers.size()));
        QCOMPARE(net::countLayer(network, std::size_t(conv1)).macs, 118013952LL);
        QVERIFY(markerOfRow(view->plot(), view->tableModel()->rowOfLayer(conv1)));
        // Listed in the selector beside the shipped networks, and current there.
        QComboBox *box = view->panel()->networkBox();
        QCOMPARE(box->currentData().toString(), path);
        QVERIFY(box->findData(example("alexnet.json")) >= 0);
        QVERIFY(view->importNotice()->isHidden()); // every operator modelled
    }

    // A Caffe prototxt dropped on the window opens in the AMAIX view. (On
    // nv_full AgeNet's fc6 fits no CBUF mode; the generic DLA runs it.)
    void dropsCaffePrototxt()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY2(window.openFile(example("generic_dla.json"), &error), qPrintable(error));
        const QString path = fixture("edgecaffe/AgeNet.prototxt");
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_COMPARE(view->document()->networkPath(), path);
        view->flushPendingUpdate();
        const net::NetworkLoad alone = net::importCaffeFile(path.toStdString());
        QVERIFY(alone.network);
        QVERIFY(*alone.network == view->document()->network());
        QVERIFY(view->result().ok());
        compareMarkers(view->plot()->markers(), expectedMarkers(*alone.network, *view->document()));
        QVERIFY(view->plot()->markers().size() >= 3);
        QCOMPARE(window.currentView(), view);
    }

    void refusedFileKeepsCurrentWork_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("expected");
        QFile resnet(fixture("onnx/resnet18.onnx"));
        QVERIFY(resnet.open(QIODevice::ReadOnly));
        const QByteArray whole = resnet.readAll();
        QTest::newRow("truncated ONNX") << QStringLiteral("cut.onnx") << whole.left(whole.size() / 2)
                                        << QStringList{QStringLiteral("cut.onnx"), QStringLiteral("not an ONNX model")};
        QTest::newRow("text as ONNX") << QStringLiteral("notes.onnx") << QByteArray("just some text\n")
                                      << QStringList{QStringLiteral("notes.onnx")};
        QTest::newRow("prototxt syntax") << QStringLiteral("broken.prototxt") << QByteArray("layer { name: \"a\" type: \n")
                                         << QStringList{QStringLiteral("broken.prototxt")};
        // A layer reading a blob nobody writes: named with its type.
        QTest::newRow("prototxt unknown bottom")
            << QStringLiteral("dangling.prototxt")
            << QByteArray("name: \"d\"\ninput: \"data\"\ninput_shape { dim: 1 dim: 3 dim: 8 dim: 8 }\n"
                          "layer { name: \"c1\" type: \"Convolution\" bottom: \"nosuch\" top: \"c1\"\n"
                          "  convolution_param { num_output: 4 kernel_size: 3 } }\n")
            << QStringList{QStringLiteral("dangling.prototxt"), QStringLiteral("c1"), QStringLiteral("Convolution"),
                           QStringLiteral("nosuch")};
    }

    void refusedFileKeepsCurrentWork()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, expected);
        MainWindow window;
        AmaixView *view = amaixView(window);
        Diagnostics d;
        QVERIFY(view->document()->setParameter(*resolveParameter(view->document()->accelerator(), "/clock_ghz", d), 2.0));
        view->flushPendingUpdate();
        const AmaixState before = view->document()->state();
        const int steps = view->document()->undoStack()->count();
        const auto markers = view->plot()->markers();
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        QString error;
        QVERIFY(!window.openFile(path, &error));
        for (const QString &part : expected)
            QVERIFY2(error.contains(part), qPrintable(error));
        QCOMPARE(view->document()->state().network, before.network);
        QVERIFY(view->document()->accelerator() == before.accelerator);
        QCOMPARE(view->document()->undoStack()->count(), steps);
        QVERIFY(view->document()->isModified());
        view->flushPendingUpdate();
        compareMarkers(view->plot()->markers(), markers);
        QVERIFY(view->document()->importedFiles().isEmpty());
    }

    // Symbolic input sizes: asked in the dialog, used, remembered in the
    // session, and not asked again when the file is opened again.
    void dynamicInputSizesAreAskedAndRemembered()
    {
        const QString path = fixture("onnx/resnet18_dynamic.onnx");
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("import.session.json"));
        int seen = 0;
        {
            MainWindow window;
            AmaixView *view = amaixView(window);
            const auto before = view->document()->state().network;
            {
                // Cancelled: nothing changes.
                auto cancel = answerInputDialogs(QString(), &seen);
                QString error;
                QVERIFY(!window.openFile(path, &error));
                QVERIFY2(error.contains(QStringLiteral("input sizes were not given")), qPrintable(error));
                QCOMPARE(seen, 1);
                QCOMPARE(view->document()->state().network, before);
            }
            auto answer = answerInputDialogs(QStringLiteral("2x3x320x320"), &seen);
            QString error;
            QVERIFY2(window.openFile(path, &error), qPrintable(error));
            QCOMPARE(seen, 2);
            const Network &network = view->document()->network();
            QCOMPARE(network.inputs.at(0).shape, (net::Shape{3, 320, 320, 2}));
            QCOMPARE(network.layers.back().output, (net::Shape{1000, 1, 1, 2}));
            const auto remembered = view->document()->inputShapesFor(path);
            QCOMPARE(remembered.at("input"), (std::vector<std::int64_t>{2, 3, 320, 320}));
            view->flushPendingUpdate();
            QVERIFY(view->result().ok());
            QVERIFY2(window.saveSession(session, &error), qPrintable(error));
        }
        MainWindow again;
        AmaixView *view = amaixView(again);
        QString error;
        QVERIFY2(again.openSession(session, &error), qPrintable(error));
        QCOMPARE(view->document()->network().inputs.at(0).shape, (net::Shape{3, 320, 320, 2}));
        QCOMPARE(view->document()->inputShapesFor(path).at("input"), (std::vector<std::int64_t>{2, 3, 320, 320}));
        QVERIFY(view->panel()->networkBox()->findData(path) >= 0);
        // Opened again (from the selector): the remembered answer, no dialog.
        view->document()->loadNetwork(example("alexnet.json"), &error);
        QComboBox *box = view->panel()->networkBox();
        box->setCurrentIndex(box->findData(path));
        emit box->activated(box->currentIndex());
        QCOMPARE(seen, 2);
        QCOMPARE(view->document()->networkPath(), path);
        QCOMPARE(view->document()->network().inputs.at(0).shape, (net::Shape{3, 320, 320, 2}));
    }

    void dialogChecksWhatIsTyped()
    {
        net::SymbolicInput input{"input", {-1, 3, -1, -1}, {"batch", "", "height", "width"}};
        InputShapeDialog dialog(QStringLiteral("m.onnx"), {input}, {});
        QCOMPARE(dialog.edit(0)->text(), QStringLiteral("1x3xheightxwidth")); // the named sizes still to give
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        QCOMPARE(dialog.problem()->text(),
                 QStringLiteral("input: dimension 2 (height) must be a whole number from 1 to 999999999, got \"height\""));
        dialog.edit(0)->setText(QStringLiteral("1x4x224x224"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(dialog.problem()->text().contains(QStringLiteral("fixed at 3")));
        dialog.edit(0)->setText(QStringLiteral("1x3x224"));
        QVERIFY(!ok->isEnabled());
        dialog.edit(0)->setText(QStringLiteral("1x3x224x224"));
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.shapes().at("input"), (std::vector<std::int64_t>{1, 3, 224, 224}));
    }

    // Operators we do not model: marked in the table, listed above it, and the
    // notice says how the accelerator treats them.
    void otherLayersAreMarked()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY2(window.openFile(example("generic_dla.json"), &error), qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("argmax.prototxt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("name: \"argmax\"\ninput: \"data\"\ninput_shape { dim: 1 dim: 3 dim: 32 dim: 32 }\n"
                    "layer { name: \"conv1\" type: \"Convolution\" bottom: \"data\" top: \"conv1\"\n"
                    "  convolution_param { num_output: 8 kernel_size: 3 } }\n"
                    "layer { name: \"relu1\" type: \"ReLU\" bottom: \"conv1\" top: \"conv1\" }\n"
                    "layer { name: \"top\" type: \"ArgMax\" bottom: \"conv1\" top: \"top\" }\n");
        }
        QStringList warnings;
        QVERIFY2(window.openFile(path, &error, &warnings), qPrintable(error));
        QVERIFY2(warnings.join(QLatin1Char('\n')).contains(QStringLiteral("1 operator not modelled: ArgMax")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        view->flushPendingUpdate();
        QVERIFY2(view->result().ok(), view->result().error.c_str());
        QVERIFY(!view->importNotice()->isHidden());
        QVERIFY(view->importNotice()->text().contains(QStringLiteral("1 operator not modelled: ArgMax")));
        QVERIFY2(view->importNotice()->text().contains(QStringLiteral("host")), qPrintable(view->importNotice()->text()));
        const Network &network = view->document()->network();
        const int topk = int(std::find_if(network.layers.begin(), network.layers.end(),
                                          [](const Layer &l) { return l.type == LayerType::Other; })
                             - network.layers.begin());
        QVERIFY(topk < int(network.layers.size()));
        const int row = view->tableModel()->rowOfLayer(topk);
        QVERIFY(row >= 0);
        const QModelIndex type = view->tableModel()->index(row, AmaixTableModel::Type);
        QCOMPARE(type.data().toString(), QStringLiteral("\u26a0 other: ArgMax"));
        QVERIFY(type.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Not modelled")));
        QVERIFY(type.data(Qt::BackgroundRole).value<QColor>().isValid());
        QCOMPARE(view->tableModel()->index(row, AmaixTableModel::Unit).data().toString(), QStringLiteral("host"));

        // nv_full maps nothing to `other`: the notice says the network does not evaluate there.
        QVERIFY2(window.openFile(example("nv_full.json"), &error), qPrintable(error));
        view->flushPendingUpdate();
        QVERIFY2(view->importNotice()->text().contains(QStringLiteral("maps no unit")),
                 qPrintable(view->importNotice()->text()));
        // A shipped network has nothing to say.
        QVERIFY(view->document()->loadNetwork(example("alexnet.json"), &error));
        view->flushPendingUpdate();
        QVERIFY(view->importNotice()->isHidden());
    }

    // File ▸ Save Network As: our JSON, read back equal.
    void savesImportedNetworkAsJson()
    {
        MainWindow window;
        AmaixView *view = amaixView(window);
        QString error;
        QVERIFY2(window.openFile(fixture("onnx/mobilenet_v3_small.onnx"), &error), qPrintable(error));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("mnv3.json"));
        QVERIFY2(view->saveNetworkAs(out, &error), qPrintable(error));
        const net::NetworkLoad back = net::loadNetworkFile(out.toStdString());
        QVERIFY2(back.network, back.diagnostics.toString().c_str());
        QVERIFY(*back.network == view->document()->network());
        // The menu entry is in the window's File menu.
        QMenu *file = window.menuBar()->actions().at(0)->menu();
        QVERIFY(file->actions().contains(view->saveNetworkAction()));
        QVERIFY(!view->saveNetworkAs(dir.filePath(QStringLiteral("no/such/dir/x.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("x.json")), qPrintable(error));
        // The saved JSON opens like any network and evaluates the same.
        const double total = view->result().totalNs;
        QVERIFY2(window.openFile(out, &error), qPrintable(error));
        view->flushPendingUpdate();
        QCOMPARE(view->result().totalNs, total);
    }
};

QTEST_MAIN(TestAmaixViewImport)
#include "tst_amaixview_import.moc"
