// Issue 14: hostile values in the parts of a session file that the newer views
// read themselves (Brouwer: network and device as text, memory, measured CSVs,
// snapshots; nn-Meter: device numbers, rules, measured latencies). The session
// reader in the core checks the file's shape; each view checks its part. Every
// case must be refused with a message naming the session file, the place and
// the reason, and leave every view's work exactly as it was.
#include "mainwindow.h"
#include "modelview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

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
        // Brouwer's part.
        for (const char *v : {"1e-320", "1e308", "-1", "0", "\"NaN\"", "null", "[]"}) {
            QTest::newRow(qPrintable(QStringLiteral("brouwer memory %1").arg(QLatin1String(v))))
                << "views/brouwer/available_bytes" << QByteArray(v) << "/views/brouwer/available_bytes";
            QTest::newRow(qPrintable(QStringLiteral("brouwer bytes per element %1").arg(QLatin1String(v))))
                << "views/brouwer/bytes_per_element" << QByteArray(v) << "/views/brouwer/bytes_per_element";
        }
        // A number of the device (a document held as text) or of the network set to a denormal.
        QTest::newRow("brouwer device denormal") << "views/brouwer/device" << QByteArray("DENORMAL_IN_TEXT")
                                                 << "/views/brouwer/device";
        QTest::newRow("brouwer network denormal") << "views/brouwer/network" << QByteArray("DENORMAL_IN_TEXT")
                                                  << "/views/brouwer/network";
        QTest::newRow("brouwer device deep") << "views/brouwer/device" << QByteArray("DEEP_TEXT")
                                             << "nested more than 256 levels deep";
        QTest::newRow("brouwer network deep") << "views/brouwer/network" << QByteArray("DEEP_TEXT")
                                              << "nested more than 256 levels deep";
        QTest::newRow("brouwer measured denormal")
            << "views/brouwer/measurements"
            << QByteArray(R"([{"path":"m.csv","text":"network,layer,load_ns,exec_ns,memory_bytes\nAgeNet,conv1,1e-320,5,6\n"}])")
            << "/views/brouwer/measurements/0";
        QTest::newRow("brouwer measured 1e308")
            << "views/brouwer/measurements"
            << QByteArray(R"([{"path":"m.csv","text":"network,layer,load_ns,exec_ns,memory_bytes\nAgeNet,conv1,1e308,5,6\n"}])")
            << "/views/brouwer/measurements/0";
        QTest::newRow("brouwer snapshot memory 1e308")
            << "views/brouwer/snapshots" << QByteArray("SNAPSHOT_1E308") << "/views/brouwer/snapshots/0/state/available_bytes";
        QTest::newRow("session 10^5 deep") << "views/brouwer/smeared" << QByteArray("DEEP") << "nested more than 256 levels deep";
        // nn-Meter's part.
        QTest::newRow("nnmeter measured denormal") << "views/nnmeter/measured_csv"
                                                   << QByteArray(R"("network,measured_ms\nlenet,1e-320\n")")
                                                   << "measured_ms: must be 0 or at least 1e-30";
        QTest::newRow("nnmeter measured NaN") << "views/nnmeter/measured_csv"
                                              << QByteArray(R"("network,measured_ms\nlenet,NaN\n")") << "measured_ms";
        QTest::newRow("nnmeter rules denormal") << "views/nnmeter/rules" << QByteArray("RULES_DENORMAL")
                                                << "/views/nnmeter/rules";
        QTest::newRow("nnmeter network denormal") << "views/nnmeter/network" << QByteArray("DENORMAL_IN_OBJECT")
                                                  << "/views/nnmeter/network";
        QTest::newRow("nnmeter number denormal") << "views/nnmeter/numbers" << QByteArray("NUMBER_DENORMAL")
                                                 << "/views/nnmeter/numbers/";
    }
    void viewParts()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        studio::MainWindow window;
        window.resize(1280, 800);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString good = dir.filePath(QStringLiteral("good.session.json"));
        QString error;
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
        } else if (value == "NUMBER_DENORMAL") {
            const QJsonObject numbers = current.toObject();
            QVERIFY2(!numbers.isEmpty(), "the saved session has no device numbers");
            text = withLiteral(session, path + QStringList{numbers.begin().key()}, "1e-320");
            expected += numbers.begin().key();
        } else if (value == "SNAPSHOT_1E308") {
            QJsonObject state = session.value(QStringLiteral("views")).toObject().value(QStringLiteral("brouwer")).toObject();
            state.remove(QStringLiteral("snapshots"));
            const QJsonArray snapshots{QJsonObject{{QStringLiteral("name"), QStringLiteral("s")}, {QStringLiteral("state"), state}}};
            text = withLiteral(session, path, QJsonDocument(snapshots).toJson(QJsonDocument::Compact));
            text.replace("\"available_bytes\":" + QByteArray::number(state.value(QStringLiteral("available_bytes")).toDouble(), 'g', 17),
                         "\"available_bytes\":1e308");
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
};

QTEST_MAIN(TestHostileSession)
#include "tst_hostile_session.moc"
