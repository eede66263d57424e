// Per-layer summaries of AMAIX results (core/amaix/layersummary.h): what the
// studio's roofline scatter and layer table show.
#include "amaix/layersummary.h"
#include "amaixtestutils.h"
#include "testutils.h"

#include <QTest>

using namespace roofline::amaix;

class TestAmaixLayers : public QObject
{
    Q_OBJECT
private slots:
    void sumsMatchTheResult_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<bool>("refine");
        for (const char *n : {"lenet", "alexnet", "resnet18", "resnet50", "mobilenetv2", "bert_base_layer"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 on nv_full").arg(QLatin1String(n)))) << QString::fromLatin1(n) << false;
            QTest::newRow(qPrintable(QStringLiteral("%1 on nv_full, refined").arg(QLatin1String(n))))
                << QString::fromLatin1(n) << true;
        }
    }
    void sumsMatchTheResult()
    {
        QFETCH(QString, network);
        QFETCH(bool, refine);
        const Network net = amaixtest::network(network.toStdString() + ".json");
        const Accelerator acc = amaixtest::accelerator("nv_full.json");
        Options options;
        options.refine = refine;
        const Result r = evaluate(net, acc, options);
        QVERIFY2(r.ok(), r.error.c_str());
        const auto layers = summarizeLayers(net, r);
        double ops = 0, bytes = 0, time = 0;
        for (const Stage &s : r.stages) {
            ops += s.ops;
            bytes += s.dTotal();
        }
        int previous = -1;
        for (const LayerSummary &l : layers) {
            QVERIFY(l.layer > previous); // network order, one row per layer
            previous = l.layer;
            QVERIFY(l.stageCount >= l.tiles);
            time += l.timeNs;
            // A layer either sets a pipe's time, runs hidden in one, or runs on the host.
            QVERIFY(l.onHost || l.pipelined || l.timeNs > 0 || l.ops == 0);
            if (l.pipelined)
                QCOMPARE(l.timeNs, 0.0);
        }
        const SummaryTotals t = summarizeTotals(layers, r);
        ROOFLINE_COMPARE_REL(t.ops, ops, 1e-12);
        ROOFLINE_COMPARE_REL(t.dIfmap + t.dWeight + t.dOfmap, bytes, 1e-12);
        ROOFLINE_COMPARE_REL(time, r.totalNs, 1e-9);
        QCOMPARE(t.timeNs, r.totalNs);
        QVERIFY(t.computeBoundLayers <= t.timedLayers);
    }

    void alexNetLayers()
    {
        const Network net = amaixtest::network("alexnet.json");
        const Accelerator acc = amaixtest::accelerator("nv_full.json");
        const Result r = evaluate(net, acc);
        const auto layers = summarizeLayers(net, r);
        auto find = [&](const char *name) {
            for (const LayerSummary &l : layers) {
                if (l.layer == net.indexOf(name))
                    return l;
            }
            return LayerSummary{};
        };
        const LayerSummary conv1 = find("conv1");
        QCOMPARE(acc.units[std::size_t(conv1.unit)].name, std::string("CONV_CORE"));
        QVERIFY(!conv1.pipelined);
        QVERIFY(conv1.timeNs > 0);
        ROOFLINE_COMPARE_REL(conv1.performance(), conv1.ops / conv1.timeNs, 1e-12);
        QVERIFY(conv1.mode != ConvMode::None);
        // relu1 runs in conv1's pipe: no time of its own, plotted alone on its roofline.
        const LayerSummary relu1 = find("relu1");
        QVERIFY(relu1.pipelined);
        QVERIFY(relu1.standaloneNs > 0);
        ROOFLINE_COMPARE_REL(relu1.performance(), relu1.ops / relu1.standaloneNs, 1e-12);

        const auto peaks = unitPeaks(acc, {}, r);
        ROOFLINE_COMPARE_REL(peaks[std::size_t(acc.unitIndex("CONV_CORE"))], 16.0 * 64 * 1, 1e-12);
        ROOFLINE_COMPARE_REL(peaks[std::size_t(acc.unitIndex("SDP"))], 16.0, 1e-12);
    }

    void infeasibleHasNoRows()
    {
        const Network net = amaixtest::network("vgg16.json");
        const Result r = evaluate(net, amaixtest::accelerator("nv_full.json"));
        QCOMPARE(r.status, Status::Infeasible);
        QVERIFY(summarizeLayers(net, r).empty());
    }
};

QTEST_MAIN(TestAmaixLayers)
#include "tst_amaix_layers.moc"
