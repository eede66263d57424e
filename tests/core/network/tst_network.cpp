// The shared network model (core/network): shapes of the types added for the
// importers, counts, the DAG helpers, and the JSON writer's round trip.
#include "network/io.h"
#include "network/network.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace roofline;
using namespace roofline::network;
using nlohmann::json;

namespace {

json net(json layers, json shape = json::array({3, 32, 32}))
{
    return {{"format", kNetworkFormatId}, {"version", 1}, {"name", "t"},
            {"inputs", json::array({{{"name", "data"}, {"shape", shape}}})}, {"layers", layers}};
}

Network parsed(const json &j)
{
    NetworkLoad r = parseNetwork(j.dump(), "t.json");
    if (!r.network)
        qFatal("%s", r.diagnostics.toString().c_str());
    return *r.network;
}

std::string firstError(const json &j)
{
    NetworkLoad r = parseNetwork(j.dump(), "t.json");
    return r.network ? std::string() : r.diagnostics.errors().at(0).toString();
}

} // namespace

class TestNetwork : public QObject
{
    Q_OBJECT
private slots:
    void typeNamesRoundTrip()
    {
        for (int t = 0; t < kLayerTypeCount; ++t)
            QCOMPARE(layerTypeFromName(layerTypeName(LayerType(t))), std::optional<LayerType>(LayerType(t)));
        QCOMPARE(std::string(layerTypeName(LayerType::Other)), std::string("other"));
    }

    void projection_data()
    {
        QTest::addColumn<QString>("dims");
        QTest::addColumn<QString>("shape");
        QTest::newRow("NCHW") << "1,64,56,56" << "64x56x56";
        QTest::newRow("batch 8") << "8,64,56,56" << "8x64x56x56";
        QTest::newRow("tokens [N, T, D] is D x 1 x T") << "1,197,768" << "768x1x197";
        QTest::newRow("features [N, F]") << "1,1000" << "1000x1x1";
        QTest::newRow("vector [F]") << "10" << "10x1x1";
        QTest::newRow("scalar") << "" << "1x1x1";
        QTest::newRow("rank 5 folds into N") << "2,3,4,5,6" << "6x4x5x6";
    }
    void projection()
    {
        QFETCH(QString, dims);
        QFETCH(QString, shape);
        std::vector<std::int64_t> d;
        for (const QString &part : dims.split(',', Qt::SkipEmptyParts))
            d.push_back(part.toLongLong());
        QCOMPARE(QString::fromStdString(toShape(d).toString()), shape);
    }

    void deconvolutionShapeAndCounts()
    {
        // 2x upsampling: (H-1)*s - 2p + k = 15*2 - 2 + 4 = 32.
        Network n = parsed(net(json::array({{{"name", "up"}, {"type", "deconvolution"}, {"out_channels", 8},
                                             {"kernel", 4}, {"stride", 2}, {"pad", 1}}}),
                               json::array({16, 16, 16})));
        QCOMPARE(n.layers[0].output, (Shape{8, 32, 32}));
        const LayerCounts c = countLayer(n, 0);
        QCOMPARE(c.weights, std::int64_t(16 * 8 * 4 * 4));
        QCOMPARE(c.biases, std::int64_t(8));
        QCOMPARE(c.macs, std::int64_t(16 * 16 * 16) * 8 * 4 * 4); // every input element times k·k·C_o
    }

    void dilatedConvolution()
    {
        // Effective kernel d·(k-1)+1 = 5: 32 - 5 + 1 = 28; MACs count the 3x3 taps only.
        Network n = parsed(net(json::array({{{"name", "c"}, {"type", "convolution"}, {"out_channels", 4},
                                             {"kernel", 3}, {"dilation", 2}}})));
        QCOMPARE(n.layers[0].output, (Shape{4, 28, 28}));
        QCOMPARE(countLayer(n, 0).macs, std::int64_t(4 * 28 * 28) * 3 * 3 * 3);
    }

    void squeezeExcitationBroadcast()
    {
        Network n = parsed(net(json::array({
            {{"name", "pool"}, {"type", "pooling"}, {"mode", "average"}, {"global", true}},
            {{"name", "scale"}, {"type", "eltwise_mul"}, {"inputs", {"data", "pool"}}},
        })));
        QCOMPARE(n.layers[1].output, (Shape{3, 32, 32}));
        const std::string e = firstError(net(json::array({
            {{"name", "pool"}, {"type", "pooling"}, {"mode", "max"}, {"kernel", 2}, {"stride", 2}},
            {{"name", "scale"}, {"type", "eltwise_mul"}, {"inputs", {"data", "pool"}}},
        })));
        QCOMPARE(e, std::string("t.json: /layers/1: layer \"scale\": input 1 is 3x16x16, input 0 is 3x32x32; each "
                                "dimension must be equal or 1 on one side"));
    }

    void concatAlongWidth()
    {
        Network n = parsed(net(json::array({
            {{"name", "a"}, {"type", "activation"}, {"function", "relu"}},
            {{"name", "cat"}, {"type", "concat"}, {"axis", 2}, {"inputs", {"data", "a"}}},
        })));
        QCOMPARE(n.layers[1].output, (Shape{3, 32, 64}));
    }

    void statedOutputTypes()
    {
        QCOMPARE(firstError(net(json::array({{{"name", "r"}, {"type", "reshape"}}}))),
                 std::string("t.json: /layers/0/output: layer \"r\": a reshape layer must state its output shape"));
        Network n = parsed(net(json::array({{{"name", "r"}, {"type", "other"}, {"op", "NonMaxSuppression"},
                                             {"output", {100, 1, 1}}}})));
        QCOMPARE(n.layers[0].output, (Shape{100, 1, 1}));
        QCOMPARE(countNetwork(n), LayerCounts{});
    }

    void unmodelledSummary_()
    {
        Network n;
        n.inputs.push_back({"x", {1, 1, 1}, {}});
        for (const char *op : {"Resize", "NonMaxSuppression", "Resize"}) {
            Layer l;
            l.type = LayerType::Other;
            l.op = op;
            n.layers.push_back(l);
        }
        QCOMPARE(unmodelledSummary(n), std::string("3 operators not modelled: Resize \u00d72, NonMaxSuppression"));
        n.layers.resize(1);
        QCOMPARE(unmodelledSummary(n), std::string("1 operator not modelled: Resize"));
        n.layers.clear();
        QCOMPARE(unmodelledSummary(n), std::string());
    }

    void dag()
    {
        Network n = parsed(net(json::array({
            {{"name", "a"}, {"type", "activation"}, {"function", "relu"}},
            {{"name", "b"}, {"type", "activation"}, {"function", "relu"}, {"input", "data"}},
            {{"name", "sum"}, {"type", "eltwise_add"}, {"inputs", {"a", "b"}}},
        })));
        const auto c = consumers(n);
        QCOMPARE(c[0], std::vector<int>{2});
        QCOMPARE(c[1], std::vector<int>{2});
        QVERIFY(c[2].empty());
        QVERIFY(isTopologicallyOrdered(n));
        std::swap(n.layers[0], n.layers[2]);
        QVERIFY(!isTopologicallyOrdered(n));
    }

    void statedCountsWin()
    {
        Network n = parsed(net(json::array({{{"name", "mm"}, {"type", "other"}, {"op", "Einsum"},
                                             {"output", {3, 32, 32}}, {"dims", {1, 3, 32, 32}},
                                             {"counts", {{"weights", 10}, {"biases", 2}, {"macs", 99}}}}})));
        QCOMPARE(countLayer(n, 0), (LayerCounts{10, 2, 99}));
    }

    // Every shipped network: parse -> write -> parse gives the same network, and writing again the same text.
    void roundTripExamples_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &f : QDir(ROOFLINE_EXAMPLES_DIR "/amaix").entryList({"*.json"})) {
            std::ifstream in((ROOFLINE_EXAMPLES_DIR "/amaix/" + f).toStdString());
            const json j = json::parse(in, nullptr, false);
            if (j.is_object() && j.value("format", "") == kNetworkFormatId)
                QTest::newRow(qPrintable(f)) << f;
        }
    }
    void roundTripExamples()
    {
        QFETCH(QString, file);
        const NetworkLoad a = loadNetworkFile((ROOFLINE_EXAMPLES_DIR "/amaix/" + file).toStdString());
        QVERIFY2(a.network, a.diagnostics.toString().c_str());
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/out.json").toStdString();
        Diagnostics d;
        QVERIFY(saveNetworkFile(*a.network, path, d));
        const NetworkLoad b = loadNetworkFile(path);
        QVERIFY2(b.network, b.diagnostics.toString().c_str());
        QVERIFY(*a.network == *b.network);
        QCOMPARE(serialize(*b.network), serialize(*a.network));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"out.json"}); // no temporary left
    }

    void saveFailsWithTheFileNamed()
    {
        Network n;
        Diagnostics d;
        QVERIFY(!saveNetworkFile(n, "/nonexistent-dir/x.json", d));
        QVERIFY(QString::fromStdString(d.toString()).startsWith("/nonexistent-dir/x.json: "));
    }
};

QTEST_GUILESS_MAIN(TestNetwork)
#include "tst_network.moc"
