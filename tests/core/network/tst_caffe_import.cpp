// Caffe prototxt import (core/network/caffeimport.cpp) on the five EdgeCaffe
// networks of tests/data/edgecaffe/ (bacox/edgecaffe, BSD-2-Clause; LICENSE
// beside them): both syntaxes, every layer type they use, and per-layer
// weights against EdgeCaffe's own `number-of-paramters` (weights without
// biases: conv1 of AgeNet is 96·3·7·7 = 14,112) in the *.description.yaml files.
#include "network/import.h"

#include <QTest>

#include <cstring>

#include <fstream>
#include <map>

using namespace roofline;
using namespace roofline::network;

namespace {

std::string data(const std::string &name)
{
    return std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/edgecaffe/" + name;
}

// name -> number-of-paramters, read line by line from EdgeCaffe's description (regular YAML).
std::map<std::string, long long> edgeCaffeParameters(const std::string &path)
{
    std::map<std::string, long long> out;
    std::ifstream in(path);
    std::string line, name;
    while (std::getline(in, line)) {
        const auto key = [&](const char *k) {
            const std::size_t p = line.find(k);
            return p == std::string::npos ? std::string() : line.substr(p + std::strlen(k));
        };
        if (line.find("  - id:") != std::string::npos)
            name.clear();
        if (const std::string v = key("    name: "); !v.empty())
            name = v;
        if (const std::string v = key("number-of-paramters: "); !v.empty() && !name.empty())
            out[name] = std::stoll(v);
    }
    return out;
}

} // namespace

class TestCaffeImport : public QObject
{
    Q_OBJECT
private slots:
    void edgeCaffe_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("input");   // C x H x W (with the batch first when the file's is not 1)
        QTest::addColumn<qlonglong>("weights"); // sum of EdgeCaffe's number-of-paramters
        QTest::addColumn<int>("layers");
        QTest::newRow("AgeNet (old syntax)") << "AgeNet" << "3x227x227" << 11413280LL << 19;
        QTest::newRow("GenderNet (old syntax, batch 10)") << "GenderNet" << "10x3x227x227" << 11410208LL << 19;
        QTest::newRow("FaceNet (new syntax, input_dim)") << "FaceNet" << "3x227x227" << 56866848LL << 23;
        QTest::newRow("SoS (old syntax)") << "SoS" << "3x227x227" << 56879136LL << 21;
    }
    void edgeCaffe()
    {
        QFETCH(QString, network);
        QFETCH(QString, input);
        QFETCH(qlonglong, weights);
        QFETCH(int, layers);
        const NetworkLoad r = importCaffeFile(data(network.toStdString() + ".prototxt"));
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        QVERIFY2(r.diagnostics.all().empty(), r.diagnostics.toString().c_str());
        const Network &n = *r.network;
        QCOMPARE(QString::fromStdString(n.inputs.at(0).shape.toString()), input);
        QCOMPARE(int(n.layers.size()), layers);
        QCOMPARE(qlonglong(countNetwork(n).weights), weights);
        // Layer by layer against EdgeCaffe's description (its "input" entry is our network input).
        const auto expected = edgeCaffeParameters(data(network.toStdString() + ".description.yaml"));
        QVERIFY(expected.size() > 10);
        for (const auto &[name, count] : expected) {
            if (name == "input")
                continue;
            const int i = n.indexOf(name);
            QVERIFY2(i >= 0, name.c_str());
            QCOMPARE(qlonglong(countLayer(n, std::size_t(i)).weights), count);
        }
    }

    void agenetShapes()
    {
        // Caffe rounds pooling up: 227 -conv 7/4-> 56 -pool 3/2-> 28 (ceil((56-3)/2)+1).
        const Network n = *importCaffeFile(data("AgeNet.prototxt")).network;
        QCOMPARE(n.layers[std::size_t(n.indexOf("conv1"))].output, (Shape{96, 56, 56}));
        QCOMPARE(n.layers[std::size_t(n.indexOf("pool1"))].output, (Shape{96, 28, 28}));
        QCOMPARE(n.layers[std::size_t(n.indexOf("norm1"))].type, LayerType::Lrn);
        QCOMPARE(n.layers[std::size_t(n.indexOf("drop6"))].function, std::string("dropout"));
        QCOMPARE(n.layers[std::size_t(n.indexOf("fc8"))].output, (Shape{8, 1, 1}));
        QCOMPARE(n.layers[std::size_t(n.indexOf("prob"))].type, LayerType::Softmax);
        QCOMPARE(n.layers[std::size_t(n.indexOf("conv1"))].op, std::string("CONVOLUTION"));
    }

    void googleNetInceptionConcat()
    {
        // The new syntax with an Input layer: inception blocks join four branches along channels.
        const NetworkLoad r = importCaffeFile(data("SoS_GoogleNet.prototxt"));
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        const Network &n = *r.network;
        QCOMPARE(n.inputs.at(0).shape, (Shape{3, 224, 224, 10}));
        const int concat = n.indexOf("inception_3a/output");
        QVERIFY(concat >= 0);
        QCOMPARE(n.layers[std::size_t(concat)].type, LayerType::Concat);
        QCOMPARE(n.layers[std::size_t(concat)].inputs.size(), std::size_t(4));
        QCOMPARE(n.layers[std::size_t(concat)].output, (Shape{256, 28, 28, 10}));
        QCOMPARE(n.layers[std::size_t(n.indexOf("conv1/7x7_s2"))].op, std::string("Convolution"));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("syntax") << "layer { name: \"a\" type: \"ReLU\" bottom: \"data\" top: \"a\" "
                                << "bad.prototxt: line 1, column";
        QTest::newRow("unknown blob") << "input: \"data\" input_dim: 1 input_dim: 3 input_dim: 8 input_dim: 8\n"
                                         "layer { name: \"r\" type: \"ReLU\" bottom: \"nope\" top: \"r\" }"
                                      << "bad.prototxt: layer 0 \"r\" (ReLU): bottom \"nope\" is not the top of an "
                                         "earlier layer or a network input";
        QTest::newRow("no num_output") << "input: \"data\" input_dim: 1 input_dim: 3 input_dim: 8 input_dim: 8\n"
                                          "layer { name: \"c\" type: \"Convolution\" bottom: \"data\" top: \"c\" "
                                          "convolution_param { kernel_size: 3 } }"
                                       << "bad.prototxt: layer 0 \"c\" (Convolution): convolution_param { num_output } "
                                          "is required";
        QTest::newRow("window too large") << "input: \"data\" input_dim: 1 input_dim: 3 input_dim: 8 input_dim: 8\n"
                                             "layer { name: \"c\" type: \"Convolution\" bottom: \"data\" top: \"c\" "
                                             "convolution_param { num_output: 4 kernel_size: 11 } }"
                                          << "bad.prototxt: layer 0 \"c\" (Convolution): layer \"c\": the window does "
                                             "not fit the input 3x8x8";
        QTest::newRow("no input") << "layer { name: \"r\" type: \"ReLU\" bottom: \"data\" top: \"r\" }"
                                  << "bad.prototxt: layer 0 \"r\" (ReLU): bottom \"data\" is not the top";
        QTest::newRow("binary") << QString::fromLatin1("\x08\x01\x12\x03", 4) << "bad.prototxt: line 1";
    }
    void errors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const NetworkLoad r = importCaffe(text.toStdString(), "bad.prototxt");
        QVERIFY(!r.network);
        const QString got = QString::fromStdString(r.diagnostics.errors().at(0).toString());
        QVERIFY2(got.startsWith(message), qPrintable(got));
    }

    void unknownLayerIsOther()
    {
        const NetworkLoad r = importCaffe("input: \"data\" input_dim: 1 input_dim: 3 input_dim: 8 input_dim: 8\n"
                                          "layer { name: \"p\" type: \"Permute\" bottom: \"data\" top: \"p\" }\n"
                                          "layer { name: \"r\" type: \"ReLU\" bottom: \"p\" top: \"r\" }",
                                          "x.prototxt");
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        QCOMPARE(r.network->layers[0].type, LayerType::Other);
        QCOMPARE(r.network->layers[0].output, (Shape{3, 8, 8}));
        QCOMPARE(r.diagnostics.warnings().back().message,
                 std::string("1 operator not modelled: Permute (imported as \"other\" layers)"));
    }
};

QTEST_GUILESS_MAIN(TestCaffeImport)
#include "tst_caffe_import.moc"
