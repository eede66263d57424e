// ONNX import (core/network/onnximport.cpp) on the torchvision fixtures of
// tests/data/onnx/ (made by make_fixtures.py: weights stripped to external-data
// references that do not exist, so every row also opens a model without its
// weight files) and on Debian's libonnx-testdata single-operator models.
//
// Conventions pinned here, as torchvision publishes them (the "num_params" and
// "GFLOPS" of each weights enum in torchvision's model documentation):
//  - parameters: every floating-point initializer the graph reads, except
//    batch normalization's running mean and variance (buffers in PyTorch, not
//    parameters); so the count equals sum(p.numel() for p in model.parameters()).
//  - MACs: multiply-accumulates of Conv, ConvTranspose, Gemm and MatMul only
//    (element-wise operators, pooling and normalization count none); torchvision
//    calls the same figure "GFLOPS" and gives it to two decimals.
#include "network/import.h"
#include "network/onnxfold.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <cmath>
#include <limits>
#include <fstream>

using namespace roofline;
using namespace roofline::network;

namespace {

std::string fixture(const std::string &name)
{
    return std::string(ROOFLINE_SOURCE_DIR) + "/tests/data/onnx/" + name;
}

const char *kTestData = "/usr/share/libonnx-testdata/data/node/";

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

class TestOnnxImport : public QObject
{
    Q_OBJECT
private slots:
    void torchvision_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qlonglong>("parameters"); // torchvision's published num_params
        QTest::addColumn<double>("gmacs");         // torchvision's published GFLOPS (MACs), two decimals
        QTest::addColumn<qlonglong>("macs");       // our exact count, rounding to the published figure
        QTest::newRow("AlexNet") << "alexnet.onnx" << 61100840LL << 0.71 << 714188480LL;
        QTest::newRow("VGG-16") << "vgg16.onnx" << 138357544LL << 15.47 << 15470264320LL;
        QTest::newRow("ResNet-18") << "resnet18.onnx" << 11689512LL << 1.81 << 1814073344LL;
        QTest::newRow("ResNet-50 (v1.5)") << "resnet50.onnx" << 25557032LL << 4.09 << 4089184256LL;
        QTest::newRow("MobileNetV2") << "mobilenet_v2.onnx" << 3504872LL << 0.30 << 300774272LL;
        QTest::newRow("MobileNetV3-Small") << "mobilenet_v3_small.onnx" << 2542856LL << 0.06 << 56510400LL;
        QTest::newRow("SqueezeNet 1.1") << "squeezenet1_1.onnx" << 1235496LL << 0.35 << 349151936LL;
        QTest::newRow("GoogLeNet") << "googlenet.onnx" << 6624904LL << 1.50 << 1498376192LL;
        QTest::newRow("ShuffleNetV2 x1.0") << "shufflenet_v2_x1_0.onnx" << 2278604LL << 0.14 << 144907992LL;
        QTest::newRow("EfficientNet-B0") << "efficientnet_b0.onnx" << 5288548LL << 0.39 << 385814752LL;
        QTest::newRow("ViT-B/16 (transformer encoder)") << "vit_b_16.onnx" << 86567656LL << 17.56 << 17563828224LL;
    }
    void torchvision()
    {
        QFETCH(QString, file);
        QFETCH(qlonglong, parameters);
        QFETCH(double, gmacs);
        QFETCH(qlonglong, macs);
        const NetworkLoad r = importOnnxFile(fixture(file.toStdString()));
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        QVERIFY2(r.diagnostics.warnings().empty(), r.diagnostics.toString().c_str()); // nothing unmodelled
        const LayerCounts c = countNetwork(*r.network);
        QCOMPARE(qlonglong(c.parameters()), parameters);
        QCOMPARE(qlonglong(c.macs), macs);
        QCOMPARE(std::round(double(c.macs) / 1e7) / 100, gmacs);
        QVERIFY(isTopologicallyOrdered(*r.network));
        QCOMPARE(r.network->inputs.at(0).shape, (Shape{3, 224, 224}));
    }

    // Imported -> our JSON -> read back: the same network, counts and all.
    void jsonRoundTrip_data() { torchvision_data(); }
    void jsonRoundTrip()
    {
        QFETCH(QString, file);
        const NetworkLoad a = importOnnxFile(fixture(file.toStdString()));
        QVERIFY2(a.network, a.diagnostics.toString().c_str());
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/n.json").toStdString();
        Diagnostics d;
        QVERIFY(saveNetworkFile(*a.network, path, d));
        const NetworkLoad b = loadAnyNetworkFile(path);
        QVERIFY2(b.network, b.diagnostics.toString().c_str());
        QVERIFY(*a.network == *b.network);
        QCOMPARE(countNetwork(*b.network), countNetwork(*a.network));
    }

    void resnet50Structure()
    {
        const Network n = *importOnnxFile(fixture("resnet50.onnx")).network;
        const Layer &conv1 = n.layers.at(0);
        QCOMPARE(conv1.type, LayerType::Convolution);
        QCOMPARE(conv1.op, std::string("Conv"));
        QCOMPARE(conv1.output, (Shape{64, 112, 112}));
        QCOMPARE(conv1.kernelH, 7);
        QCOMPARE(conv1.strideH, 2);
        QCOMPARE(conv1.padH, 3);
        QCOMPARE(countLayer(n, 0), (LayerCounts{64 * 3 * 7 * 7, 0, 64LL * 3 * 7 * 7 * 112 * 112}));
        QCOMPARE(n.layers.at(1).type, LayerType::BatchNorm);
        QCOMPARE(countLayer(n, 1), (LayerCounts{64, 64, 0})); // scale and B; mean and variance are buffers
        QCOMPARE(n.layers.back().type, LayerType::FullyConnected);
        QCOMPARE(n.layers.back().output, (Shape{1000, 1, 1}));
        // Residual additions read two layers.
        int adds = 0;
        for (const Layer &l : n.layers)
            adds += l.type == LayerType::EltwiseAdd && l.inputs.size() == 2;
        QCOMPARE(adds, 16);
    }

    void squeezeExcitation()
    {
        // MobileNetV3's SE block: global pool -> 1x1 convs -> hard-sigmoid -> Mul with the block's input.
        const Network n = *importOnnxFile(fixture("mobilenet_v3_small.onnx")).network;
        int scales = 0;
        for (const Layer &l : n.layers) {
            if (l.type != LayerType::EltwiseMul || l.inputs.size() != 2)
                continue;
            const Shape a = n.inputShape(l.inputs[0]), b = n.inputShape(l.inputs[1]);
            QVERIFY(a.h > 1 || b.h > 1);
            QVERIFY((b.h == 1 && b.w == 1) || (a.h == 1 && a.w == 1));
            ++scales;
        }
        QCOMPARE(scales, 9);
    }

    void transformerEncoder()
    {
        const Network n = *importOnnxFile(fixture("vit_b_16.onnx")).network;
        int attention = 0, norms = 0, dense = 0;
        for (std::size_t i = 0; i < n.layers.size(); ++i) {
            const Layer &l = n.layers[i];
            attention += l.type == LayerType::MatMul; // Q·Kᵀ and softmax·V, 12 layers
            norms += l.type == LayerType::LayerNorm;
            dense += l.op == "MatMul" && l.type == LayerType::Convolution; // per-token dense: 1x1 convolution
        }
        QCOMPARE(attention, 24);
        QCOMPARE(norms, 25);
        QVERIFY(dense > 0);
        // The token sequence is hidden x 1 x tokens: 768 x 1 x 197 after the class token.
        const int add = n.indexOf("/encoder/Add");
        QVERIFY(add >= 0);
        QCOMPARE(n.layers[std::size_t(add)].output, (Shape{768, 1, 197}));
        QCOMPARE(n.layers[std::size_t(add)].dims, (std::vector<std::int64_t>{1, 197, 768}));
    }

    void operatorZoo()
    {
        const NetworkLoad r = importOnnxFile(fixture("operator_zoo.onnx"));
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        const Network &n = *r.network;
        auto typeOf = [&](const char *op) {
            for (const Layer &l : n.layers)
                if (l.op == op)
                    return std::string(layerTypeName(l.type));
            return std::string("missing");
        };
        QCOMPARE(typeOf("Pad"), std::string("pad"));           // pads computed by a constant chain, folded
        QCOMPARE(typeOf("ConvTranspose"), std::string("deconvolution"));
        QCOMPARE(typeOf("Resize"), std::string("resize"));
        QCOMPARE(typeOf("Split"), std::string("slice"));
        QCOMPARE(typeOf("Slice"), std::string("slice"));
        QCOMPARE(typeOf("Transpose"), std::string("transpose"));
        QCOMPARE(typeOf("ReduceMean"), std::string("reduce"));
        QCOMPARE(typeOf("Erf"), std::string("activation"));
        QCOMPARE(typeOf("HardSigmoid"), std::string("activation"));
        QCOMPARE(typeOf("Clip"), std::string("activation"));
        QCOMPARE(typeOf("TopK"), std::string("other"));
        // Dilated conv on the padded input: 8x34x34 -> 16x34x34 (kernel 3, dilation 2, pad 2).
        const Layer &conv = n.layers[std::size_t(n.indexOf("/conv/Conv"))];
        QCOMPARE(conv.output, (Shape{16, 34, 34}));
        QCOMPARE(conv.dilationH, 2);
        QCOMPARE(countLayer(n, std::size_t(n.indexOf("/conv/Conv"))).macs, 16LL * 34 * 34 * 8 * 3 * 3);
        // 2x transposed convolution: every input element through C_out/g * k * k weights.
        QCOMPARE(countLayer(n, std::size_t(n.indexOf("/up/ConvTranspose"))).macs, 16LL * 34 * 34 * 8 * 4 * 4);
        QCOMPARE(r.diagnostics.warnings().size(), std::size_t(1));
        QCOMPARE(r.diagnostics.warnings()[0].message,
                 std::string("1 operator not modelled: TopK (imported as \"other\" layers)"));
        QCOMPARE(countNetwork(n).parameters(), 3528LL); // conv 1,168 + deconv 2,056 + gamma, beta 32 + linear 272
    }

    void symbolicInputs()
    {
        const NetworkLoad missing = importOnnxFile(fixture("resnet18_dynamic.onnx"));
        QVERIFY(!missing.network);
        QCOMPARE(missing.diagnostics.errors().at(0).toString(),
                 fixture("resnet18_dynamic.onnx")
                     + ": the model has symbolic input dimensions: \"input\" [batchx3xheightxwidth]; give every "
                       "size, e.g. --input-shape NAME=1x3x224x224");
        // An exporter's default graph name ("torch_jit") gives way to the file's.
        QCOMPARE(importOnnxFile(fixture("resnet18.onnx")).network->name, std::string("resnet18"));
        // What the studio's input-size dialog asks for: the fixed sizes and the named ones.
        QCOMPARE(missing.symbolicInputs.size(), std::size_t(1));
        QCOMPARE(missing.symbolicInputs[0].name, std::string("input"));
        QCOMPARE(missing.symbolicInputs[0].dims, (std::vector<std::int64_t>{-1, 3, -1, -1}));
        QCOMPARE(missing.symbolicInputs[0].dimNames, (std::vector<std::string>{"batch", "", "height", "width"}));
        ImportOptions o;
        std::string error;
        QVERIFY(parseInputShapeOption("input=2x3x320x320", o, error));
        const NetworkLoad r = importOnnxFile(fixture("resnet18_dynamic.onnx"), o);
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        QCOMPARE(r.network->inputs[0].shape, (Shape{3, 320, 320, 2}));
        QCOMPARE(r.network->layers.back().output, (Shape{1000, 1, 1, 2}));
        // Two images of 320x320: (320/224)^2 more per image for the convolutions.
        QCOMPARE(countNetwork(*r.network).parameters(), 11689512LL);
        QVERIFY(countNetwork(*r.network).macs > 2 * 1814073344LL);

        ImportOptions bad;
        QVERIFY(parseInputShapeOption("nosuch=1x3x8x8", bad, error));
        const NetworkLoad wrongName = importOnnxFile(fixture("resnet18_dynamic.onnx"), bad);
        QVERIFY(!wrongName.network);
        QVERIFY(QString::fromStdString(wrongName.diagnostics.toString()).contains("\"nosuch\", which is not an input"));
        ImportOptions rank;
        QVERIFY(parseInputShapeOption("input=3x224x224", rank, error));
        QVERIFY(QString::fromStdString(importOnnxFile(fixture("resnet18_dynamic.onnx"), rank).diagnostics.toString())
                    .contains("--input-shape gives 3 dimensions, the input has 4"));
        QVERIFY(!parseInputShapeOption("input=1x0x3", rank, error));
        QVERIFY(!parseInputShapeOption("=1x3", rank, error));
        QVERIFY(!parseInputShapeOption("input", rank, error));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        const std::string good = readAll(fixture("resnet18.onnx"));
        QTest::newRow("empty") << QByteArray() << "not an ONNX model";
        QTest::newRow("JSON") << QByteArray("{\"format\": \"roofline-studio/amaix-network\"}") << "not an ONNX model";
        QTest::newRow("truncated") << QByteArray(good.data(), int(good.size() / 2)) << "not an ONNX model";
        QByteArray flipped(good.data(), int(good.size()));
        flipped[int(flipped.size() / 3)] = char(0xff);
        flipped[int(flipped.size() / 3) + 1] = char(0xff);
        QTest::newRow("corrupt") << flipped << "";
    }
    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        const NetworkLoad r = importOnnx(bytes.toStdString(), "bad.onnx");
        QVERIFY(!r.network);
        QVERIFY(r.diagnostics.hasErrors());
        const QString text = QString::fromStdString(r.diagnostics.errors()[0].toString());
        QVERIFY2(text.startsWith("bad.onnx: "), qPrintable(text));
        QVERIFY2(text.contains(reason), qPrintable(text));
    }

    void inconsistentGraphNamesTheNode()
    {
        // A Conv whose weights disagree with its input's channels: ONNX shape inference refuses it.
        const NetworkLoad r = importOnnxFile(std::string(kTestData) + "test_conv_with_strides_padding/model.onnx");
        QVERIFY(r.network);
        std::string bytes = readAll(std::string(kTestData) + "test_conv_with_strides_padding/model.onnx");
        // The model declares x as 1x1x7x5; claim 2 channels instead (the byte after the dims' tag).
        ImportOptions o;
        o.inputShapes["x"] = {1, 2, 7, 5};
        const NetworkLoad bad = importOnnx(bytes, "conv.onnx", o);
        QVERIFY(!bad.network);
        const QString text = QString::fromStdString(bad.diagnostics.toString());
        QVERIFY2(text.contains("--input-shape gives 2 for dimension 1, the model fixes it at 1"), qPrintable(text));
    }

    void singleOperators_data()
    {
        QTest::addColumn<QString>("test");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("output"); // N x C x H x W of the first layer
        QTest::addColumn<qlonglong>("macs");
        QTest::newRow("Conv strides, padding") << "test_conv_with_strides_padding" << "convolution" << "1x4x3" << 108LL;
        QTest::newRow("Conv auto_pad SAME") << "test_conv_with_autopad_same" << "convolution" << "1x3x3" << 81LL;
        QTest::newRow("ConvTranspose") << "test_convtranspose" << "deconvolution" << "2x5x5" << 162LL;
        QTest::newRow("Gemm") << "test_gemm_default_no_bias" << "matmul" << "2x3x1x1" << 60LL;
        QTest::newRow("MatMul 2-D") << "test_matmul_2d" << "matmul" << "3x3x1x1" << 36LL;
        QTest::newRow("MaxPool ceil") << "test_maxpool_2d_ceil" << "pooling" << "1x2x2" << 0LL;
        QTest::newRow("AveragePool pads") << "test_averagepool_2d_pads" << "pooling" << "3x30x30" << 0LL;
        QTest::newRow("GlobalAveragePool") << "test_globalaveragepool" << "pooling" << "3x1x1" << 0LL;
        QTest::newRow("BatchNormalization") << "test_batchnorm_example" << "batch_norm" << "2x3x4x5" << 0LL;
        QTest::newRow("LayerNormalization") << "test_layer_normalization_4d_axis0" << "layer_norm" << "2x3x4x5" << 0LL;
        QTest::newRow("LRN") << "test_lrn" << "lrn" << "5x5x5x5" << 0LL;
        QTest::newRow("HardSwish") << "test_hardswish" << "activation" << "3x5x1x4" << 0LL;
        QTest::newRow("HardSigmoid") << "test_hardsigmoid" << "activation" << "3x5x1x4" << 0LL;
        QTest::newRow("Sigmoid") << "test_sigmoid" << "activation" << "3x5x1x4" << 0LL;
        QTest::newRow("Clip") << "test_clip" << "activation" << "3x5x1x4" << 0LL;
        QTest::newRow("Erf") << "test_erf" << "activation" << "3x32x32" << 0LL;
        QTest::newRow("Add broadcast") << "test_add_bcast" << "eltwise_add" << "3x5x1x4" << 0LL;
        QTest::newRow("Mul") << "test_mul" << "eltwise_mul" << "3x5x1x4" << 0LL;
        QTest::newRow("Sub") << "test_sub" << "eltwise_sub" << "3x5x1x4" << 0LL;
        QTest::newRow("Div") << "test_div" << "eltwise_div" << "3x5x1x4" << 0LL;
        QTest::newRow("Concat") << "test_concat_2d_axis_0" << "concat" << "4x2x1x1" << 0LL;
        QTest::newRow("Split") << "test_split_equal_parts_1d" << "slice" << "2x1x1" << 0LL;
        QTest::newRow("Slice") << "test_slice" << "slice" << "3x5x1x10" << 0LL;
        QTest::newRow("Gather") << "test_gather_0" << "slice" << "3x4x3x2" << 0LL;
        QTest::newRow("Pad") << "test_constant_pad" << "pad" << "3x7x12" << 0LL;
        QTest::newRow("Resize") << "test_resize_upsample_scales_nearest" << "resize" << "1x4x6" << 0LL;
        QTest::newRow("ReduceMean") << "test_reduce_mean_default_axes_keepdims_example" << "reduce" << "1x1x1" << 0LL;
        QTest::newRow("Softmax") << "test_softmax_axis_1" << "softmax" << "3x5x1x4" << 0LL;
        QTest::newRow("Flatten") << "test_flatten_axis1" << "flatten" << "2x60x1x1" << 0LL;
        QTest::newRow("Reshape") << "test_reshape_reordered_all_dims" << "reshape" << "4x3x1x2" << 0LL;
        QTest::newRow("Squeeze") << "test_squeeze" << "reshape" << "3x5x1x4" << 0LL;
        QTest::newRow("Unsqueeze") << "test_unsqueeze_axis_0" << "reshape" << "3x4x5" << 0LL;
        QTest::newRow("Transpose") << "test_transpose_default" << "transpose" << "4x2x1x3" << 0LL;
        QTest::newRow("NonMaxSuppression (not modelled)")
            << "test_nonmaxsuppression_center_point_box_format" << "other" << "3x3x1x1" << 0LL;
    }
    void singleOperators()
    {
        QFETCH(QString, test);
        QFETCH(QString, type);
        QFETCH(QString, output);
        QFETCH(qlonglong, macs);
        const std::string path = kTestData + test.toStdString() + "/model.onnx";
        if (!std::ifstream(path))
            QSKIP("libonnx-testdata is not installed (packaging/studio.sh installs it)");
        const NetworkLoad r = importOnnxFile(path);
        QVERIFY2(r.network, r.diagnostics.toString().c_str());
        const Layer &l = r.network->layers.at(0);
        QCOMPARE(QString::fromLatin1(layerTypeName(l.type)), type);
        QCOMPARE(QString::fromStdString(l.output.toString()), output);
        QCOMPARE(qlonglong(countLayer(*r.network, 0).macs), macs);
        QCOMPARE(r.diagnostics.warnings().size(), std::size_t(type == "other" ? 1 : 0));
        // Whatever one operator imports as, our JSON writes it and reads it back equal
        // (the fuzz_onnx invariant; a Gemm of two inputs once read back with a bias).
        const NetworkLoad back = parseNetwork(serialize(*r.network), "back.json");
        QVERIFY2(back.network, back.diagnostics.toString().c_str());
        QVERIFY(*back.network == *r.network);
    }

    // Constant folding of shape arithmetic (core/network/onnxfold.cpp) with
    // values a file may hold: a result past int64, INT64_MIN / -1, a Reshape
    // target that multiplies past 2⁶³ are not folded (UBSan found the Reshape
    // in fuzz_onnx; the others are the same arithmetic); a Slice step of ±2⁶³
    // takes one element. The same chains with small values fold.
    void foldingRefusesWhatOverflows_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QList<qlonglong>>("a");
        QTest::addColumn<QList<qlonglong>>("b");
        QTest::addColumn<bool>("folds");
        QTest::addColumn<QList<qlonglong>>("result");
        constexpr qlonglong kMax = std::numeric_limits<qlonglong>::max(), kMin = std::numeric_limits<qlonglong>::min();
        QTest::newRow("Add") << "Add" << QList<qlonglong>{2} << QList<qlonglong>{3} << true << QList<qlonglong>{5};
        QTest::newRow("Add past int64") << "Add" << QList<qlonglong>{kMax} << QList<qlonglong>{1} << false << QList<qlonglong>{};
        QTest::newRow("Sub past int64") << "Sub" << QList<qlonglong>{kMin} << QList<qlonglong>{1} << false << QList<qlonglong>{};
        QTest::newRow("Mul") << "Mul" << QList<qlonglong>{6} << QList<qlonglong>{-7} << true << QList<qlonglong>{-42};
        QTest::newRow("Mul past int64") << "Mul" << QList<qlonglong>{qlonglong(1) << 62} << QList<qlonglong>{4} << false << QList<qlonglong>{};
        QTest::newRow("Div") << "Div" << QList<qlonglong>{-9} << QList<qlonglong>{2} << true << QList<qlonglong>{-4};
        QTest::newRow("Div INT64_MIN by -1") << "Div" << QList<qlonglong>{kMin} << QList<qlonglong>{-1} << false << QList<qlonglong>{};
        // Reshape of the six values 0..5 (a below is ignored: the data is fixed).
        QTest::newRow("Reshape") << "Reshape" << QList<qlonglong>{} << QList<qlonglong>{3, -1} << true << QList<qlonglong>{0, 1, 2, 3, 4, 5};
        QTest::newRow("Reshape past 2^63") << "Reshape" << QList<qlonglong>{} << QList<qlonglong>{kMax, 2, -1} << false << QList<qlonglong>{};
        // Slice of 0..5 from a[0] towards a[1] every b[0].
        QTest::newRow("Slice step 2") << "Slice" << QList<qlonglong>{1, 6} << QList<qlonglong>{2} << true << QList<qlonglong>{1, 3, 5};
        QTest::newRow("Slice step 2^63-1") << "Slice" << QList<qlonglong>{0, 6} << QList<qlonglong>{kMax} << true << QList<qlonglong>{0};
        QTest::newRow("Slice step -2^63") << "Slice" << QList<qlonglong>{5, kMin} << QList<qlonglong>{kMin} << true << QList<qlonglong>{5};
    }
    void foldingRefusesWhatOverflows()
    {
        QFETCH(QString, op);
        QFETCH(QList<qlonglong>, a);
        QFETCH(QList<qlonglong>, b);
        QFETCH(bool, folds);
        QFETCH(QList<qlonglong>, result);
        onnx::GraphProto graph;
        const auto initializer = [&](const char *name, const QList<qlonglong> &values) {
            onnx::TensorProto *t = graph.add_initializer();
            t->set_name(name);
            t->set_data_type(onnx::TensorProto::INT64);
            t->add_dims(values.size());
            for (qlonglong v : values)
                t->add_int64_data(v);
        };
        onnx::NodeProto *node = graph.add_node();
        node->set_op_type(op.toStdString());
        node->add_output("c");
        graph.add_output()->set_name("c");
        if (op == "Reshape" || op == "Slice") {
            initializer("data", {0, 1, 2, 3, 4, 5});
            node->add_input("data");
            if (op == "Reshape") {
                initializer("shape", b);
                node->add_input("shape");
            } else {
                initializer("starts", {a[0]});
                initializer("ends", {a[1]});
                initializer("axes", {0});
                initializer("steps", b);
                for (const char *name : { "starts", "ends", "axes", "steps" })
                    node->add_input(name);
            }
        } else {
            initializer("a", a);
            initializer("b", b);
            node->add_input("a");
            node->add_input("b");
        }
        const int removed = roofline::network::onnxfold::fold(graph, {});
        QCOMPARE(removed, folds ? 1 : 0);
        if (!folds)
            return;
        const auto c = std::find_if(graph.initializer().begin(), graph.initializer().end(),
                                    [](const onnx::TensorProto &t) { return t.name() == "c"; });
        QVERIFY(c != graph.initializer().end());
        QCOMPARE(QList<qlonglong>(c->int64_data().begin(), c->int64_data().end()), result);
    }

    // Issue 14: libonnx 1.12's InferShapes segfaults on this Gemm (opset 6, a
    // scalar B, transB = 823), which passes check_model. Shape inference runs in
    // a child process, so the crash is an error, not the end of the studio.
    void shapeInferenceCrashIsAnError()
    {
        const NetworkLoad r = importOnnxFile(fixture("infershapes_crash_gemm.onnx"));
        QVERIFY(!r.network);
        const QString text = QString::fromStdString(r.diagnostics.toString());
        QVERIFY2(text.contains("infershapes_crash_gemm.onnx: ONNX shape inference crashed on this model"), qPrintable(text));
        // The importer still works after the crash it survived.
        QVERIFY(importOnnxFile(fixture("alexnet.onnx")).network.has_value());
    }

    void identityOnlyGraph()
    {
        // Dropout and Identity are views: the output is the input, no layer. A graph of nothing else is refused.
        const NetworkLoad r = importOnnxFile(std::string(kTestData) + "test_identity/model.onnx");
        if (!std::ifstream(std::string(kTestData) + "test_identity/model.onnx"))
            QSKIP("libonnx-testdata is not installed");
        QVERIFY(!r.network);
        QVERIFY(QString::fromStdString(r.diagnostics.toString()).contains("no node of the graph computes on its inputs"));
    }
};

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "tst_onnx_import.moc"
