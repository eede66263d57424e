// Brouwer files: the seed's Table 2 loads exactly as printed, device files
// round-trip, measured CSVs (EdgeCaffe's and ours) parse, and bad input names
// file, field and reason.
#include "brouwer/fit.h"
#include "brouwer/io.h"

#include <QTest>

using namespace roofline;
using namespace roofline::brouwer;

namespace {

Device load(const char *name)
{
    const DeviceLoad d = loadDeviceFile(std::string(ROOFLINE_EXAMPLES_DIR "/brouwer/") + name);
    if (!d.device)
        qFatal("%s", d.diagnostics.toString().c_str());
    return *d.device;
}

const char *kMinimal = R"({"format": "roofline-studio/brouwer-device", "version": 1, "name": "x",
  "model": "feature_engineering", "log_base": 10, "time_unit": "ns",
  "submodels": {"act": {"predictor": "I", "standard": {"intercept": 1, "slope": 0.5}}}})";

} // namespace

class TestBrouwerIo : public QObject
{
    Q_OBJECT
private slots:
    // Seed 002, Table 2 (right): every printed coefficient, exactly.
    void table2FeatureEngineering_data()
    {
        QTest::addColumn<QString>("submodel");
        QTest::addColumn<QString>("predictor");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<double>("a2");
        QTest::addColumn<double>("b2");
        QTest::addColumn<double>("c2");
        QTest::newRow("LOAD: 1.777 I | 1.786 I - 0.070 F; 1.264 | 1.766")
            << "load" << "I" << 1.264 << 1.777 << 1.766 << 1.786 << -0.070;
        QTest::newRow("LOAD P0: 4.829 | 5.172") << "load_p0" << "" << 4.829 << 0.0 << 5.172 << 0.0 << 0.0;
        QTest::newRow("FC: 1.775 P | 3.183 P + 0.660 F; -0.313 | -6.461")
            << "fc" << "P" << -0.313 << 1.775 << -6.461 << 3.183 << 0.660;
        QTest::newRow("CONV: 0.603 OP2 | 0.376 OP2 + 0.394 F; 0.288 | 2.326")
            << "conv" << "M" << 0.288 << 0.603 << 2.326 << 0.376 << 0.394;
        QTest::newRow("ACT: 0.843 I | 0.825 I + 0.034 F; 1.885 | 2.068")
            << "act" << "I" << 1.885 << 0.843 << 2.068 << 0.825 << 0.034;
        QTest::newRow("POOL: 0.518 I | 0.779 I - 0.120 F; 4.173 | 2.948")
            << "pool" << "I" << 4.173 << 0.518 << 2.948 << 0.779 << -0.120;
        QTest::newRow("DROP: 0.590 I | 0.488 I - 0.372 F; 2.480 | 4.380")
            << "drop" << "I" << 2.480 << 0.590 << 4.380 << 0.488 << -0.372;
        QTest::newRow("NORM: 0.604 I | 0.785 I - 0.192 F; 3.722 | 3.166")
            << "norm" << "I" << 3.722 << 0.604 << 3.166 << 0.785 << -0.192;
        QTest::newRow("OTHER: 0.152 I | 0.220 I + 1.644 F; 4.416 | 0.395")
            << "other" << "I" << 4.416 << 0.152 << 0.395 << 0.220 << 1.644;
    }
    void table2FeatureEngineering()
    {
        QFETCH(QString, submodel);
        QFETCH(QString, predictor);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(double, a2);
        QFETCH(double, b2);
        QFETCH(double, c2);
        const Device d = load("seed-table2-fe.json");
        QCOMPARE(d.kind, ModelKind::FeatureEngineering);
        QCOMPARE(d.logBase, 10.0);
        QCOMPARE(d.timeUnitNs, 1.0);
        QVERIFY(!d.note.empty());
        const FeSubmodel &m = d.fe[std::size_t(*categoryFromName(submodel.toStdString()))];
        QCOMPARE(QString(predictorName(m.predictor)), predictor);
        QVERIFY(m.standard.calibrated && m.swapping.calibrated);
        QCOMPARE(m.standard.intercept, a);
        QCOMPARE(m.standard.slope, b);
        QCOMPARE(m.swapping.intercept, a2);
        QCOMPARE(m.swapping.slope, b2);
        QCOMPARE(m.swapping.overflow, c2);
        QCOMPARE(m.standard.smearing, 1.0);
    }

    // Table 2 (left), the cubic feature-selection example.
    void table2FeatureSelection_data()
    {
        QTest::addColumn<QString>("submodel");
        QTest::addColumn<double>("intercept");
        QTest::addColumn<QString>("terms");
        QTest::newRow("LOAD") << "load" << 3.962 << "0.013 F^3 + 0.217 P^3";
        QTest::newRow("LOAD P0") << "load_p0" << 5.391 << "0.005 F^3";
        QTest::newRow("FC") << "fc" << 3.686 << "0.03 F^3 + 0.079 I·O^2 + 0.235 O^3";
        QTest::newRow("CONV") << "conv" << 7.084 << "0.063 F^3 + 0.109 O^3";
        QTest::newRow("ACT") << "act" << 3.404 << "0.024 F^3 + 0.166 I^3";
        QTest::newRow("POOL") << "pool" << 6.593 << "0.01 F^3";
        QTest::newRow("DROP") << "drop" << 4.848 << "0.01 F^3 + 0.142 I^3";
        QTest::newRow("NORM") << "norm" << 4.790 << "0.016 F^3 + 0.036 I^3";
        QTest::newRow("OTHER") << "other" << 5.030 << "0.032 F^3 + 0.083 P^3 + 0.026 P^2·O + 0.017 P·O^2 + 0.009 O^3";
    }
    void table2FeatureSelection()
    {
        QFETCH(QString, submodel);
        QFETCH(double, intercept);
        QFETCH(QString, terms);
        const Device d = load("seed-table2-fs.json");
        QCOMPARE(d.kind, ModelKind::FeatureSelection);
        const FsSubmodel &m = d.fs[std::size_t(*categoryFromName(submodel.toStdString()))];
        QVERIFY(m.calibrated);
        QCOMPARE(m.intercept, intercept);
        QString text;
        for (const Term &t : m.terms)
            text += (text.isEmpty() ? "" : " + ") + QString::number(t.coefficient) + " "
                + QString::fromStdString(t.toString());
        QCOMPARE(text, terms);
    }

    void roundTrip()
    {
        for (const char *f : {"seed-table2-fe.json", "seed-table2-fs.json", "edgecaffe-fe.json", "edgecaffe-lasso.json"}) {
            const Device d = load(f);
            const DeviceLoad back = parseDevice(serialize(d), "mem.json");
            QVERIFY2(back.device, back.diagnostics.toString().c_str());
            QVERIFY2(*back.device == d, f);
        }
    }

    void badDevice_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString m = QString::fromLatin1(kMinimal);
        QTest::newRow("not JSON") << "{" << "dev.json: line 1";
        QTest::newRow("wrong format") << QString(m).replace("brouwer-device", "gables-soc") << "/format";
        QTest::newRow("unknown model") << QString(m).replace("feature_engineering", "tree") << "/model: must be";
        QTest::newRow("log base 1") << QString(m).replace("\"log_base\": 10", "\"log_base\": 1") << "/log_base";
        QTest::newRow("time unit") << QString(m).replace("\"ns\"", "\"h\"") << "/time_unit: must be ns, us, ms or s";
        QTest::newRow("unknown submodel") << QString(m).replace("\"act\"", "\"relu\"") << "/submodels/relu";
        QTest::newRow("bad predictor") << QString(m).replace("\"I\"", "\"Q\"") << "/submodels/act/predictor";
        QTest::newRow("missing slope") << QString(m).replace(", \"slope\": 0.5", "")
                                       << "/submodels/act/standard/slope";
        QTest::newRow("no regime") << QString(m).replace(", \"standard\": {\"intercept\": 1, \"slope\": 0.5}", "")
                                   << "/submodels/act: needs a \"standard\" or a \"swapping\" regime";
        QTest::newRow("huge coefficient") << QString(m).replace("\"intercept\": 1", "\"intercept\": 1e300")
                                          << "/submodels/act/standard/intercept";
        const QString fs = QString(m).replace("feature_engineering", "feature_selection");
        QTest::newRow("fs without terms") << fs << "/submodels/act/terms";
        QTest::newRow("fs bad power")
            << QString(fs).replace("\"predictor\": \"I\", \"standard\": {\"intercept\": 1, \"slope\": 0.5}",
                                   "\"intercept\": 1, \"terms\": [{\"coefficient\": 1, \"powers\": {\"F\": 2.5}}]")
            << "/submodels/act/terms/0/powers/F: must be a whole number";
        QTest::newRow("fs unknown feature")
            << QString(fs).replace("\"predictor\": \"I\", \"standard\": {\"intercept\": 1, \"slope\": 0.5}",
                                   "\"intercept\": 1, \"terms\": [{\"coefficient\": 1, \"powers\": {\"Z\": 2}}]")
            << "/submodels/act/terms/0/powers/Z";
    }
    void badDevice()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const DeviceLoad d = parseDevice(text.toStdString(), "dev.json");
        QVERIFY(!d.device);
        const QString all = QString::fromStdString(d.diagnostics.toString());
        QVERIFY2(all.contains(message), qPrintable(all));
        QVERIFY2(all.startsWith("dev.json: "), qPrintable(all));
    }

    void measuredCsv()
    {
        const MeasuredLoad e = parseMeasuredCsv("networkName,layerId,layerName,Loading_ns,execution_ns,policy\n"
                                                "Salient Object Subitizing,1,conv1,1489414,23545040,linear\r\n",
                                                "e.csv");
        QVERIFY(!e.diagnostics.hasErrors());
        QCOMPARE(e.rows.size(), std::size_t(1));
        QCOMPARE(e.rows[0].network, std::string("Salient Object Subitizing"));
        QCOMPARE(e.rows[0].layer, std::string("conv1"));
        QCOMPARE(e.rows[0].loadNs, 1489414.0);
        QCOMPARE(e.rows[0].execNs, 23545040.0);
        QCOMPARE(e.rows[0].memoryBytes, 0.0);
        const MeasuredLoad o = parseMeasuredCsv("# ours\nnetwork,layer,load_ns,exec_ns,memory_bytes\n"
                                                "AgeNet,fc6,406128107,14197488,268435456\n"
                                                "\"Net, quoted\",conv1,1,2,\n",
                                                "o.csv");
        QVERIFY2(!o.diagnostics.hasErrors(), o.diagnostics.toString().c_str());
        QCOMPARE(o.rows.size(), std::size_t(2));
        QCOMPARE(o.rows[0].memoryBytes, 268435456.0);
        QCOMPARE(o.rows[1].network, std::string("Net, quoted"));
        QCOMPARE(o.rows[1].memoryBytes, 0.0);
    }

    void badCsv_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "m.csv: no header line";
        QTest::newRow("header") << "a,b,c\n1,2,3\n" << "m.csv: line 1: unknown header";
        QTest::newRow("fields") << "network,layer,load_ns,exec_ns,memory_bytes\nA,b,1,2\n"
                                << "m.csv: line 2: has 4 fields, the header has 5";
        QTest::newRow("number") << "network,layer,load_ns,exec_ns,memory_bytes\nA,b,x,2,\n"
                                << "m.csv: line 2, column 3 (load_ns): must be a number >= 0";
        QTest::newRow("negative") << "networkName,layerId,layerName,Loading_ns,execution_ns,policy\nA,0,b,1,-2,linear\n"
                                  << "line 2, column 5 (execution_ns)";
        QTest::newRow("nan") << "network,layer,load_ns,exec_ns,memory_bytes\nA,b,1,2,nan\n"
                             << "column 5 (memory_bytes)";
        QTest::newRow("no rows") << "network,layer,load_ns,exec_ns,memory_bytes\n" << "no measurement rows";
        QTest::newRow("empty layer") << "network,layer,load_ns,exec_ns,memory_bytes\nA,,1,2,\n" << "empty layer";
        QTest::newRow("binary") << QString("network,layer,load_ns,exec_ns,memory_bytes\nA") + QChar(0) + "b\n"
                                << "NUL byte";
    }
    void badCsv()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QByteArray bytes = text.toUtf8();
        const MeasuredLoad m = parseMeasuredCsv(std::string(bytes.constData(), std::size_t(bytes.size())), "m.csv");
        QVERIFY(m.diagnostics.hasErrors());
        QVERIFY(m.rows.empty());
        const QString all = QString::fromStdString(m.diagnostics.toString());
        QVERIFY2(all.contains(message), qPrintable(all));
    }

    // Swapping-regime rows of our CSV become swapping observations.
    void observationsWithMemoryLimit()
    {
        NamedNetwork n;
        n.names = {"Tiny"};
        LayerFeatures l;
        l.name = "fc";
        l.category = Category::Fc;
        l.inputs = 1000;
        l.parameters = 1000000;
        l.outputs = 1000;
        n.layers = {l};
        std::vector<MeasuredRow> rows = {{"Tiny", "fc", 10, 20, 0, 2},
                                         {"Tiny", "fc", 30, 40, 0, 3},
                                         {"Tiny", "fc", 50, 60, 0, 4},
                                         {"Tiny", "fc", 500, 600, 1000000, 5},
                                         {"Tiny", "gone", 1, 1, 0, 6},
                                         {"Other", "fc", 1, 1, 0, 7}};
        const Observations o = buildObservations(rows, {n}, 4);
        QCOMPARE(o.items.size(), std::size_t(4));
        // Unlimited: medians 30 and 40 over three runs.
        QCOMPARE(o.items[0].submodel, Category::Load);
        QCOMPARE(o.items[0].timeNs, 30.0);
        QCOMPARE(o.items[0].runs, 3);
        QCOMPARE(o.items[1].submodel, Category::Fc);
        QCOMPARE(o.items[1].timeNs, 40.0);
        QCOMPARE(o.items[0].overflow, 0.0);
        // 1,000,000 bytes hold 250,000 fp32 elements of the 1,002,000 required.
        QCOMPARE(o.items[2].overflow, 752000.0);
        QCOMPARE(o.items[3].timeNs, 600.0);
        QCOMPARE(o.diagnostics.warnings().size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestBrouwerIo)
#include "tst_brouwer_io.moc"
