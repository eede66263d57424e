// Issue 14: hostile values in the parts of a session file that the newer views
// read themselves (Brouwer: network and device as text, memory, measured CSVs,
// snapshots; nn-Meter: device numbers, rules, measured latencies). The session
// reader in the core checks the file's shape; each view checks its part. Every
// case must be refused with a message naming the session file, the place and
// the reason, and leave every view's work exactly as it was.
//
// A default session does not hold measurements: the rows that attack them
// first open measured files into the view (as a user would), so the session
// saved and then spoiled holds the part under attack.
#include "brouwerview.h"
#include "common/jsonreader.h"
#include "mainwindow.h"
#include "modelview.h"
#include "nnmeterview.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <optional>

namespace {

QJsonObject statesOf(studio::MainWindow &window)
{
    QJsonObject states;
    for (studio::ModelView *v : window.views())
        if (!v->sessionKey().isEmpty())
            states[v->sessionKey()] = v->sessionState();
    return states;
}

// `node` with the value at `path` (object keys and array indices) replaced.
QJsonValue setAt(const QJsonValue &node, QStringList path, const QJsonValue &value)
{
    if (path.isEmpty())
        return value;
    const QString key = path.takeFirst();
    if (node.isArray()) {
        QJsonArray a = node.toArray();
        const int i = key.toInt();
        a[i] = setAt(a.at(i), path, value);
        return a;
    }
    QJsonObject o = node.toObject();
    o[key] = setAt(o.value(key), path, value);
    return o;
}

QJsonValue valueAt(const QJsonValue &node, const QStringList &path)
{
    QJsonValue v = node;
    for (const QString &key : path)
        v = v.isArray() ? v.toArray().at(key.toInt()) : v.toObject().value(key);
    return v;
}

// The path of the first number in a document (depth first), if any.
std::optional<QStringList> firstNumber(const QJsonValue &node, const QStringList &path = {})
{
    if (node.isDouble())
        return path;
    if (node.isObject()) {
        const QJsonObject o = node.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (auto p = firstNumber(it.value(), path + QStringList{it.key()}))
                return p;
    } else if (node.isArray()) {
        const QJsonArray a = node.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            if (auto p = firstNumber(a.at(i), path + QStringList{QString::number(i)}))
                return p;
    }
    return std::nullopt;
}

// JSON text of `document` with the value at `path` written as `literal`
// (1e-320 and 1e999 kept as written, not as Qt would print them).
QByteArray withLiteral(const QJsonObject &document, const QStringList &path, const QByteArray &literal)
{
    const QJsonValue marked = setAt(document, path, QStringLiteral("@@hostile@@"));
    QByteArray text = QJsonDocument(marked.toObject()).toJson(QJsonDocument::Compact);
    text.replace("\"@@hostile@@\"", literal);
    return text;
}

// Opens measured files into the views a row attacks, before the session is saved.
bool openMeasuredFiles(studio::MainWindow &window, const QString &what, QString *error)
{
    if (what == QLatin1String("brouwer-measured")) {
        auto *view = window.findChild<studio::BrouwerView *>();
        if (!view)
            return false;
        window.setCurrentView(view);
        return window.openFile(QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/measured/SoS-linear-1.csv"), error);
    }
    if (what == QLatin1String("nnmeter-measured")) {
        auto *view = window.findChild<studio::NnmeterView *>();
        return view && view->openMeasured(QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/fuzz/seeds/nnmeter-measured/ours.csv"), error);
    }
    return true;
}

} // namespace

class TestHostileSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void viewParts_data()
    {
        QTest::addColumn<QString>("pointer");  // inside the session, '/'-separated
        QTest::addColumn<QByteArray>("value"); // JSON text, or a word below
        QTest::addColumn<QString>("expected"); // in the message, after the session's name
        QTest::addColumn<QString>("prepare");  // measured files to open first (see openMeasuredFiles())
        auto row = [](const QString &name, const char *pointer, const QByteArray &value, const QString &expected,
                      const char *prepare = "") {
            QTest::newRow(qPrintable(name)) << QString::fromLatin1(pointer) << value << expected << QString::fromLatin1(prepare);
        };
        // Brouwer's part.
        for (const char *v : {"1e-320", "1e308", "-1", "0", "\"NaN\"", "null", "[]"}) {
            row(QStringLiteral("brouwer memory %1").arg(QLatin1String(v)), "views/brouwer/available_bytes", v,
                QStringLiteral("/views/brouwer/available_bytes"));
            row(QStringLiteral("brouwer bytes per element %1").arg(QLatin1String(v)), "views/brouwer/bytes_per_element", v,
                QStringLiteral("/views/brouwer/bytes_per_element"));
        }
        // A number of the device (a document held as text) or of the network set to a denormal.
        row("brouwer device denormal", "views/brouwer/device", "DENORMAL_IN_TEXT", "/views/brouwer/device");
        row("brouwer network denormal", "views/brouwer/network", "DENORMAL_IN_TEXT", "/views/brouwer/network");
        row("brouwer device deep", "views/brouwer/device", "DEEP_TEXT", "nested more than 256 levels deep");
        row("brouwer network deep", "views/brouwer/network", "DEEP_TEXT", "nested more than 256 levels deep");
        // The measured files a user opened, held as text in the session; the message names the file as read.
        row("brouwer measured denormal", "views/brouwer/measurements/0/text", "MEASURED_DENORMAL",
            "/views/brouwer/measurements/0 (", "brouwer-measured");
        row("brouwer measured 1e308", "views/brouwer/measurements/0/text", "MEASURED_1E308",
            "/views/brouwer/measurements/0 (", "brouwer-measured");
        row("brouwer measured replaced", "views/brouwer/measurements",
            R"([{"path":"m.csv","text":"network,layer,load_ns,exec_ns,memory_bytes\nAgeNet,conv1,1e-320,5,6\n"}])",
            "/views/brouwer/measurements/0 (m.csv)", "brouwer-measured");
        // Only the snapshot's memory is 1e308 (the view's own is a good value): the
        // message names the snapshot's state, not the view's.
        row("brouwer snapshot memory 1e308", "views/brouwer/snapshots", "SNAPSHOT_1E308",
            "/views/brouwer/snapshots/0/state/available_bytes");
        row("session 10^5 deep", "views/brouwer/smeared", "DEEP", "nested more than 256 levels deep");
        // nn-Meter's part.
        row("nnmeter measured denormal", "views/nnmeter/measured_csv", R"("network,measured_ms\nlenet,1e-320\n")",
            "measured_ms: must be 0 or at least 1e-30", "nnmeter-measured");
        row("nnmeter measured NaN", "views/nnmeter/measured_csv", R"("network,measured_ms\nlenet,NaN\n")", "measured_ms",
            "nnmeter-measured");
        row("nnmeter measured 1e308", "views/nnmeter/measured_csv", R"("network,measured_ms\nlenet,1e308\n")",
            "measured_ms", "nnmeter-measured");
        row("nnmeter rules denormal", "views/nnmeter/rules", "RULES_DENORMAL", "/views/nnmeter/rules");
        row("nnmeter network denormal", "views/nnmeter/network", "DENORMAL_IN_OBJECT", "/views/nnmeter/network");
        // Issue 14: a session's edited device numbers went through their own
        // parser, which took 1e-320 (every kernel time then infinite).
        row("nnmeter number denormal", "views/nnmeter/numbers", "NUMBER_DENORMAL", "/views/nnmeter/numbers/");
        row("nnmeter number 1e308", "views/nnmeter/numbers", "NUMBER_1E308", "/views/nnmeter/numbers/");
        row("nnmeter number string", "views/nnmeter/numbers", "NUMBER_STRING", "/views/nnmeter/numbers/");
    }
    void viewParts()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        QFETCH(QString, prepare);
        studio::MainWindow window;
        window.resize(1280, 800);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString good = dir.filePath(QStringLiteral("good.session.json"));
        QString error;
        QVERIFY2(openMeasuredFiles(window, prepare, &error), qPrintable(error));
        QVERIFY2(window.saveSession(good, &error), qPrintable(error));
        QFile in(good);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QJsonObject session = QJsonDocument::fromJson(in.readAll()).object();
        QStringList path = pointer.split(QLatin1Char('/'));
        const QJsonValue current = valueAt(session, path);
        QVERIFY2(!current.isUndefined() || value == "DEEP", qPrintable(pointer + QStringLiteral(" is not in a saved session")));

        QByteArray text;
        const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
        if (value == "DEEP") {
            text = withLiteral(session, path, deep);
        } else if (value == "DEEP_TEXT") { // the document held as text, 10^5 deep
            text = withLiteral(session, path, "\"" + deep + "\"");
        } else if (value == "DENORMAL_IN_TEXT") { // the first number of a document held as text
            const QJsonObject inner = QJsonDocument::fromJson(current.toString().toUtf8()).object();
            const auto number = firstNumber(inner);
            QVERIFY(number);
            const QByteArray changed = withLiteral(inner, *number, "1e-320");
            text = withLiteral(session, path, QJsonDocument(QJsonArray{QString::fromUtf8(changed)}).toJson(QJsonDocument::Compact).mid(1).chopped(1));
        } else if (value == "DENORMAL_IN_OBJECT" || value == "RULES_DENORMAL") {
            const auto number = firstNumber(current);
            QVERIFY2(number, qPrintable(pointer + QStringLiteral(" holds no number")));
            text = withLiteral(session, path + *number, "1e-320");
        } else if (value.startsWith("NUMBER_")) {
            const QJsonObject numbers = current.toObject();
            QVERIFY2(!numbers.isEmpty(), "the saved session has no device numbers");
            const QByteArray literal = value == "NUMBER_DENORMAL" ? "1e-320" : value == "NUMBER_1E308" ? "1e308" : "\"5\"";
            text = withLiteral(session, path + QStringList{numbers.begin().key()}, literal);
            expected += QString::fromStdString(roofline::jsonPointerToken(numbers.begin().key().toStdString())); // "~1peak_gflops"
        } else if (value.startsWith("MEASURED_")) { // the first time of the first data row
            QString csv = current.toString();
            QStringList lines = csv.split(QLatin1Char('\n'));
            QVERIFY2(lines.size() > 2, qPrintable(csv.left(200)));
            QStringList cells = lines[1].split(QLatin1Char(','));
            QVERIFY2(cells.size() > 4, qPrintable(lines[1]));
            cells[3] = value == "MEASURED_DENORMAL" ? QStringLiteral("1e-320") : QStringLiteral("1e308");
            lines[1] = cells.join(QLatin1Char(','));
            text = QJsonDocument(setAt(session, path, lines.join(QLatin1Char('\n'))).toObject()).toJson(QJsonDocument::Compact);
        } else if (value == "SNAPSHOT_1E308") {
            QJsonObject state = session.value(QStringLiteral("views")).toObject().value(QStringLiteral("brouwer")).toObject();
            state.remove(QStringLiteral("snapshots"));
            state[QStringLiteral("available_bytes")] = QStringLiteral("@@memory@@");
            const QJsonArray snapshots{QJsonObject{{QStringLiteral("name"), QStringLiteral("s")}, {QStringLiteral("state"), state}}};
            text = withLiteral(session, path, QJsonDocument(snapshots).toJson(QJsonDocument::Compact));
            QVERIFY(text.count("\"@@memory@@\"") == 1);
            text.replace("\"@@memory@@\"", "1e308");
        } else {
            text = withLiteral(session, path, value);
        }
        const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();

        const QJsonObject before = statesOf(window);
        QVERIFY2(!window.openFile(bad, &error), qPrintable(QStringLiteral("opened: ") + QString::fromUtf8(value.left(80))));
        QVERIFY2(error.contains(bad), qPrintable(error.left(600)));
        QVERIFY2(error.contains(expected), qPrintable(error.left(600)));
        static const QRegularExpression nonFinite(QStringLiteral("(?<![A-Za-z_\"])-?(nan|inf|infinity)(?![A-Za-z_\"])"),
                                                  QRegularExpression::CaseInsensitiveOption);
        QVERIFY2(!nonFinite.match(error).hasMatch(), qPrintable(error.left(600)));
        QVERIFY2(statesOf(window) == before, "a refused session changed the work open");
    }

    // Issue 14, files opened in the studio (File ▸ Open): a UTF-8 byte-order
    // mark changes nothing (a JSON trace with one was read as the text form,
    // and CSVs with one were refused with an invisible reason), and a file
    // above the size limit is refused at once by its size, before it is read,
    // whichever view it goes to.
    void openedFilesWithByteOrderMark_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("view"); // the view it must land in (sessionKey)
        const QString ex = QStringLiteral(ROOFLINE_EXAMPLES_DIR "/");
        QTest::newRow("JSON trace") << ex + "verrocchio/vector-add-1core.json" << "timeline";
        QTest::newRow("text trace") << ex + "verrocchio/vector-add-1core.txt" << "timeline";
        QTest::newRow("machine") << ex + "verrocchio/ascend310.json" << "timeline";
        QTest::newRow("Gables SoC") << ex + "gables/snapdragon835.json" << "gables";
        QTest::newRow("accelerator") << ex + "amaix/nv_small.json" << "amaix";
        QTest::newRow("network") << ex + "amaix/lenet.json" << "amaix";
        QTest::newRow("Brouwer device") << ex + "brouwer/edgecaffe-fe.json" << "brouwer";
        QTest::newRow("Brouwer measured CSV")
            << QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/measured/SoS-linear-1.csv") << "brouwer";
        QTest::newRow("nn-Meter rules") << ex + "nnmeter/tflite_cpu.rules.json" << "nnmeter";
        QTest::newRow("nn-Meter measured CSV")
            << QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/fuzz/seeds/nnmeter-measured/ours.csv") << "nnmeter";
    }
    void openedFilesWithByteOrderMark()
    {
        QFETCH(QString, file);
        QFETCH(QString, view);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        const QString path = dir.filePath(QFileInfo(file).fileName());
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("\xEF\xBB\xBF" + in.readAll());
        out.close();
        studio::MainWindow window;
        QString error;
        QVERIFY2(window.openFile(file, &error), qPrintable(error)); // without the mark: opens
        QVERIFY2(window.openFile(path, &error), qPrintable(error.left(600)));
        QCOMPARE(window.currentView()->sessionKey(), view);
    }

    void openedFileAboveTheSizeLimit_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("JSON model") << QStringLiteral("big.json");
        QTest::newRow("text trace") << QStringLiteral("big.txt");
        QTest::newRow("Brouwer measured CSV") << QStringLiteral("big.csv");
        QTest::newRow("Caffe network") << QStringLiteral("big.prototxt");
    }
    void openedFileAboveTheSizeLimit()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        {
            // A sparse file: 600 MB long, no disk used and nothing to read.
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray head = name.endsWith(QLatin1String(".csv"))
                                        ? QByteArray("network,layer,load_ns,exec_ns,memory_bytes\n")
                                        : QByteArray("{\"format\": \"roofline-studio/gables\",");
            f.write(head);
            QVERIFY(f.resize(600'000'000));
        }
        studio::MainWindow window;
        for (const QString &current : {QStringLiteral("gables"), QStringLiteral("brouwer")}) {
            for (studio::ModelView *v : window.views())
                if (v->sessionKey() == current)
                    window.setCurrentView(v);
            const QJsonObject before = statesOf(window);
            QString error;
            QVERIFY(!window.openFile(path, &error));
            QVERIFY2(error.contains(path) && error.contains(QStringLiteral("600 MB"))
                         && error.contains(QStringLiteral("at most 512 MB")),
                     qPrintable(error.left(600)));
            QVERIFY2(statesOf(window) == before, "a refused file changed the work open");
        }
    }
};

QTEST_MAIN(TestHostileSession)
#include "tst_hostile_session.moc"
