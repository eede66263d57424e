// roofline-cli amaix on every shipped network × accelerator pair, with the
// total inference time pinned (AMAIX model, with and without divide and
// conquer). The int8-only configurations (nv_large, nv_small) run in int8.
// VGG-16 cannot run on any NVDLA configuration: its fc6 needs more CBUF than
// one kernel group allows (docs/models/amaix.md); the CLI must say so.
#include "clitesting.h"
#include "testutils.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

namespace {

QString example(const QString &name)
{
    return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix/") + name + QStringLiteral(".json");
}

} // namespace

class TestCliAmaix : public QObject
{
    Q_OBJECT
private slots:
    void everyPair_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("accelerator");
        QTest::addColumn<bool>("refine");
        QTest::addColumn<double>("totalNs"); // -1: infeasible
        auto row = [](const char *name, const char *network, const char *accelerator, bool refine, double totalNs) {
            QTest::newRow(name) << QString::fromLatin1(network) << QString::fromLatin1(accelerator) << refine << totalNs;
        };
        row("lenet on nv_full", "lenet", "nv_full", false, 49780.0);
        row("lenet on nv_full (refine)", "lenet", "nv_full", true, 50587.0);
        row("lenet on nv_large", "lenet", "nv_large", false, 32180.0);
        row("lenet on nv_large (refine)", "lenet", "nv_large", true, 33629.0);
        row("lenet on nv_small", "lenet", "nv_small", false, 142450.0);
        row("lenet on nv_small (refine)", "lenet", "nv_small", true, 144229.0);
        row("lenet on generic_dla", "lenet", "generic_dla", false, 18895.15625);
        row("lenet on generic_dla (refine)", "lenet", "generic_dla", true, 18895.15625);
        row("alexnet on nv_full", "alexnet", "nv_full", false, 5320862.0);
        row("alexnet on nv_full (refine)", "alexnet", "nv_full", true, 5405438.0);
        row("alexnet on nv_large", "alexnet", "nv_large", false, 3675659.0);
        row("alexnet on nv_large (refine)", "alexnet", "nv_large", true, 3775001.0);
        row("alexnet on nv_small", "alexnet", "nv_small", false, 28479014.0);
        row("alexnet on nv_small (refine)", "alexnet", "nv_small", true, 29191839.0);
        row("alexnet on generic_dla", "alexnet", "generic_dla", false, 3047730.28125);
        row("alexnet on generic_dla (refine)", "alexnet", "generic_dla", true, 3047730.28125);
        row("vgg16 on nv_full", "vgg16", "nv_full", false, -1); // fc6 does not fit the CBUF
        row("vgg16 on nv_full (refine)", "vgg16", "nv_full", true, -1); // fc6 does not fit the CBUF
        row("vgg16 on nv_large", "vgg16", "nv_large", false, -1); // fc6 does not fit the CBUF
        row("vgg16 on nv_large (refine)", "vgg16", "nv_large", true, -1); // fc6 does not fit the CBUF
        row("vgg16 on nv_small", "vgg16", "nv_small", false, -1); // fc6 does not fit the CBUF
        row("vgg16 on nv_small (refine)", "vgg16", "nv_small", true, -1); // fc6 does not fit the CBUF
        row("vgg16 on generic_dla", "vgg16", "generic_dla", false, 20247790.25);
        row("vgg16 on generic_dla (refine)", "vgg16", "generic_dla", true, 20247790.25);
        row("resnet18 on nv_full", "resnet18", "nv_full", false, 4363160.0);
        row("resnet18 on nv_full (refine)", "resnet18", "nv_full", true, 4486166.0);
        row("resnet18 on nv_large", "resnet18", "nv_large", false, 2383944.0);
        row("resnet18 on nv_large (refine)", "resnet18", "nv_large", true, 2518102.0);
        row("resnet18 on nv_small", "resnet18", "nv_small", false, 34058554.0);
        row("resnet18 on nv_small (refine)", "resnet18", "nv_small", true, 34503442.0);
        row("resnet18 on generic_dla", "resnet18", "generic_dla", false, 1914250.25);
        row("resnet18 on generic_dla (refine)", "resnet18", "generic_dla", true, 1914250.25);
        row("resnet50 on nv_full", "resnet50", "nv_full", false, 7068004.0);
        row("resnet50 on nv_full (refine)", "resnet50", "nv_full", true, 7536198.0);
        row("resnet50 on nv_large", "resnet50", "nv_large", false, 4563156.0);
        row("resnet50 on nv_large (refine)", "resnet50", "nv_large", true, 4980662.0);
        row("resnet50 on nv_small", "resnet50", "nv_small", false, 71004666.0);
        row("resnet50 on nv_small (refine)", "resnet50", "nv_small", true, 73192210.0);
        row("resnet50 on generic_dla", "resnet50", "generic_dla", false, 4047123.25);
        row("resnet50 on generic_dla (refine)", "resnet50", "generic_dla", true, 4047123.25);
        row("mobilenetv2 on nv_full", "mobilenetv2", "nv_full", false, 6274856.0);
        row("mobilenetv2 on nv_full (refine)", "mobilenetv2", "nv_full", true, 7635894.0);
        row("mobilenetv2 on nv_large", "mobilenetv2", "nv_large", false, 3606519.0);
        row("mobilenetv2 on nv_large (refine)", "mobilenetv2", "nv_large", true, 4509694.0);
        row("mobilenetv2 on nv_small", "mobilenetv2", "nv_small", false, 89034802.0);
        row("mobilenetv2 on nv_small (refine)", "mobilenetv2", "nv_small", true, 94263382.0);
        row("mobilenetv2 on generic_dla", "mobilenetv2", "generic_dla", false, 693113.25);
        row("mobilenetv2 on generic_dla (refine)", "mobilenetv2", "generic_dla", true, 693113.25);
        row("bert_base_layer on nv_full", "bert_base_layer", "nv_full", false, 916248.0);
        row("bert_base_layer on nv_full (refine)", "bert_base_layer", "nv_full", true, 965400.0);
        row("bert_base_layer on nv_large", "bert_base_layer", "nv_large", false, 466944.0);
        row("bert_base_layer on nv_large (refine)", "bert_base_layer", "nv_large", true, 589848.0);
        row("bert_base_layer on nv_small", "bert_base_layer", "nv_small", false, 14552928.0);
        row("bert_base_layer on nv_small (refine)", "bert_base_layer", "nv_small", true, 14770176.0);
        row("bert_base_layer on generic_dla", "bert_base_layer", "generic_dla", false, 946296.0);
        row("bert_base_layer on generic_dla (refine)", "bert_base_layer", "generic_dla", true, 946296.0);
    }
    void everyPair()
    {
        QFETCH(QString, network);
        QFETCH(QString, accelerator);
        QFETCH(bool, refine);
        QFETCH(double, totalNs);
        QStringList args{QStringLiteral("amaix"), example(network), example(accelerator)};
        if (refine)
            args << QStringLiteral("--refine");
        if (accelerator == QLatin1String("nv_large") || accelerator == QLatin1String("nv_small"))
            args << QStringLiteral("--data-type") << QStringLiteral("int8");
        const Run r = cli(args);
        if (totalNs < 0) {
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("layer \"fc6\" does not fit the convolution buffer"), r.err.constData());
            return;
        }
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject result = QJsonDocument::fromJson(r.out).object();
        ROOFLINE_COMPARE_REL(result.value(QStringLiteral("total_ns")).toDouble(), totalNs, 1e-9);
        ROOFLINE_COMPARE_REL(result.value(QStringLiteral("fps")).toDouble(), 1e9 / totalNs, 1e-9);
    }

    // A network or accelerator added to examples/amaix needs rows above.
    void everyExampleHasRows()
    {
        const QSet<QString> covered{QStringLiteral("lenet"), QStringLiteral("alexnet"), QStringLiteral("vgg16"),
                                    QStringLiteral("resnet18"), QStringLiteral("resnet50"), QStringLiteral("mobilenetv2"),
                                    QStringLiteral("bert_base_layer"), QStringLiteral("nv_full"), QStringLiteral("nv_large"),
                                    QStringLiteral("nv_small"), QStringLiteral("generic_dla")};
        const QDir dir(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/amaix"));
        for (const QString &file : dir.entryList({QStringLiteral("*.json")}, QDir::Files))
            QVERIFY2(covered.contains(QFileInfo(file).completeBaseName()), qPrintable(file + QStringLiteral(" has no pinned rows")));
    }

    void int8OnlyAcceleratorNamesTheDataType()
    {
        const Run r = cli({QStringLiteral("amaix"), example(QStringLiteral("lenet")), example(QStringLiteral("nv_small"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no data type \"fp16\""), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliAmaix)
#include "tst_cli_amaix.moc"
