// The timeline view's files: examples, bad files, Chrome Trace export, machine save, sessions, command line.
// Helpers and the suite as a whole: timelineviewtesting.h.
#include "timelineviewtesting.h"

class TestTimelineViewFiles : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
    }

    void everyExampleOpens_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/verrocchio"));
        for (const QString &name :
            dir.entryList({ QStringLiteral("*.json"), QStringLiteral("*.txt") }, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }

    void everyExampleOpens()
    {
        QFETCH(QString, path);
        MainWindow window;
        TimelineView *view = timelineOf(window);
        QString error;
        QStringList warnings;
        QVERIFY2(window.openFile(path, &error, &warnings), qPrintable(error));
        QCOMPARE(window.currentView(), view);
        const bool machine = view->document()->machinePath() == path;
        QVERIFY(machine || view->document()->tracePath() == path);
        QVERIFY2(view->result().ok(), view->result().error ? view->result().error->message.c_str() : "");
        QVERIFY(view->result().totalNs > 0);
        QVERIFY(!view->plot()->visibleGroups().empty());
        QVERIFY(!view->readout()->text().contains(QStringLiteral("nan")));
    }

    void badFileKeepsCurrentWork_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("expected"); // in the error
        QByteArray machine;
        {
            QFile f(example("ascend310.json"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            machine = f.readAll();
        }
        QByteArray badBus = machine;
        const auto at = badBus.indexOf("\"bus\"");
        const auto value = badBus.indexOf("\"value\":", at);
        const auto end = badBus.indexOf(',', value);
        badBus.replace(value, end - value, "\"value\": -3");
        QTest::newRow("machine: negative bus bandwidth")
            << QStringLiteral("machine.json") << badBus
            << QStringList { QStringLiteral("machine.json"), QStringLiteral("/bus/bandwidth_gbps"),
                   QStringLiteral("must be > 0") };
        QTest::newRow("text trace: syntax error")
            << QStringLiteral("trace.txt") << QByteArray("core a\ncopy_gm_to_ubuf 64\nvadd twelve\n")
            << QStringList { QStringLiteral("trace.txt"), QStringLiteral("line 3") };
        QTest::newRow("JSON: unknown format")
            << QStringLiteral("other.json")
            << QByteArray("{\"format\": \"roofline-studio/verrocchio-trace\", \"version\": 1, \"cores\": 3}")
            << QStringList { QStringLiteral("other.json"), QStringLiteral("/cores") };
    }

    void badFileKeepsCurrentWork()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QStringList, expected);
        MainWindow window;
        TimelineView *view = timelineOf(window);
        // Some work to keep: an edited machine.
        view->panel()->busSlider()->spinBox()->setValue(12.5);
        view->flushPendingUpdate();
        const Machine machineBefore = view->document()->machine();
        const Trace traceBefore = view->document()->trace();
        const double totalBefore = view->result().totalNs;

        QTemporaryDir dir;
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        QString error;
        QVERIFY(!window.openFile(file.fileName(), &error));
        for (const QString &part : expected)
            QVERIFY2(error.contains(part), qPrintable(QStringLiteral("\"%1\" not in: %2").arg(part, error)));
        QCOMPARE(view->document()->machine(), machineBefore);
        QVERIFY(view->document()->trace() == traceBefore);
        QCOMPARE(view->result().totalNs, totalBefore);
        QVERIFY(view->isModified());
    }

    void chromeTraceAndMachineSave()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        QTemporaryDir dir;
        QString error;
        const QString path = dir.filePath(QStringLiteral("t.trace.json"));
        QVERIFY2(view->exportChromeTrace(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject trace = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY(trace.value(QStringLiteral("traceEvents")).toArray().size() > 10);
        QVERIFY(!view->exportChromeTrace(QStringLiteral("/nonexistent-dir/t.json"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/t.json")));
        // .json.gz: the same trace, gzip-compressed (Perfetto and chrome://tracing open it).
        const QString gz = dir.filePath(QStringLiteral("t.trace.json.gz"));
        QVERIFY2(view->exportChromeTrace(gz, &error), qPrintable(error));
        QFile compressed(gz);
        QVERIFY(compressed.open(QIODevice::ReadOnly));
        const QByteArray bytes = compressed.readAll();
        QVERIFY(bytes.size() > 20 && quint8(bytes[0]) == 0x1f && quint8(bytes[1]) == 0x8b);
        QVERIFY(bytes.size() < QFileInfo(path).size());

        // The machine saves and reloads with an edit.
        view->document()->setSkewNs(123);
        const QString machinePath = dir.filePath(QStringLiteral("m.json"));
        QVERIFY2(view->saveFile(machinePath, &error), qPrintable(error));
        QVERIFY(!view->isModified());
        QCOMPARE(view->filePath(), machinePath);
        // An edit after saving, undone: saved again, and still the file it was saved to.
        view->document()->setSkewNs(7);
        QVERIFY(view->isModified());
        view->undoStack()->undo();
        QVERIFY(!view->isModified());
        QCOMPARE(view->filePath(), machinePath);
        QCOMPARE(view->document()->machine().skewNs, 123.0);
        MainWindow other;
        QVERIFY2(other.openFile(machinePath, &error), qPrintable(error));
        QCOMPARE(timelineOf(other)->document()->machine().skewNs, 123.0);
        // Overrides as on the command line.
        QVERIFY(view->applyOverride(QStringLiteral("/bus/bandwidth_gbps=30"), &error));
        QCOMPARE(view->data().machine.busGBps, 30.0);
        QVERIFY(!view->applyOverride(QStringLiteral("/bus/bandwidth_gbps=0"), &error));
        QVERIFY(error.contains(QStringLiteral("/bus/bandwidth_gbps")));
    }

    // Everything open goes into the session and comes back; a bad session changes nothing.
    void sessionRoundTripsAndBadSessionKeepsWork()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.session.json"));
        MainWindow a;
        // The Gables view takes part in sessions too; give it a model (an empty one does not restore).
        QVERIFY(a.openFile(QStringLiteral(":/examples/gables/gables-fig6b.json"), nullptr));
        QVERIFY(a.openFile(example("ascend310.json"), nullptr));
        QVERIFY(a.openFile(example("vector-add-1core.txt"), nullptr)); // the compact text form
        TimelineView *va = timelineOf(a);
        va->document()->pinSnapshot(QStringLiteral("before"));
        QVERIFY(a.openFile(example("contention-before.json"), nullptr)); // a JSON trace, another machine edit
        va->document()->setSkewNs(40);
        va->document()->pinSnapshot(QStringLiteral("skewed"));
        va->document()->setComparedSnapshot(0);
        va->document()->setBusBandwidth(11);
        va->arrowsBox()->setChecked(true);
        va->criticalPathBox()->setChecked(false);
        va->flushPendingUpdate();
        QString error;
        QVERIFY2(a.saveSession(path, &error), qPrintable(error));

        MainWindow b;
        QVERIFY2(b.openFile(path, &error), qPrintable(error));
        TimelineView *vb = timelineOf(b);
        TimelineDocument *da = va->document();
        TimelineDocument *db = vb->document();
        QVERIFY(db->trace() == da->trace());
        QCOMPARE(db->tracePath(), da->tracePath());
        QVERIFY(db->machine() == da->machine());
        QCOMPARE(db->machinePath(), da->machinePath());
        QCOMPARE(db->snapshots().size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(db->snapshots()[i].name, da->snapshots()[i].name);
            QVERIFY(db->snapshots()[i].state.machine == da->snapshots()[i].state.machine);
            QVERIFY(db->snapshots()[i].state.trace->trace == da->snapshots()[i].state.trace->trace);
            QCOMPARE(db->snapshots()[i].state.trace->json, da->snapshots()[i].state.trace->json);
        }
        QVERIFY(!db->snapshots()[0].state.trace->json); // the text form stays the text form
        QCOMPARE(db->comparedSnapshot(), 0);
        QVERIFY(vb->isModified());
        QVERIFY(vb->arrowsBox()->isChecked());
        QVERIFY(!vb->criticalPathBox()->isChecked());
        QCOMPARE(vb->result().totalNs, va->result().totalNs);
        QCOMPARE(vb->comparisonText(), va->comparisonText());
        QVERIFY(!vb->comparisonText().isEmpty());
        QCOMPARE(vb->undoStack()->count(), 0); // a new history

        // Bad sessions: each is refused whole, naming the file, the pointer and the reason.
        const Machine machineBefore = db->machine();
        const auto snapshotsBefore = db->snapshots().size();
        const double totalBefore = vb->result().totalNs;
        struct Case {
            const char *name;
            std::function<void(QJsonObject &)> edit;
            QStringList expected;
        };
        const QList<Case> cases {
            { "bad-machine",
                [](QJsonObject &t) {
                    QJsonObject m = t[QStringLiteral("machine")].toObject();
                    QJsonObject bus = m[QStringLiteral("bus")].toObject();
                    bus[QStringLiteral("bandwidth_gbps")] = -3;
                    m[QStringLiteral("bus")] = bus;
                    t[QStringLiteral("machine")] = m;
                },
                { QStringLiteral("/views/timeline/machine"), QStringLiteral("/bus/bandwidth_gbps"),
                    QStringLiteral("must be > 0") } },
            { "bad-trace-text",
                [](QJsonObject &t) {
                    QJsonArray traces = t[QStringLiteral("traces")].toArray();
                    QJsonObject first = traces[0].toObject();
                    first[QStringLiteral("text")] = QStringLiteral("copy_gm_to_ubuf twelve\n");
                    first[QStringLiteral("form")] = QStringLiteral("text");
                    traces[0] = first;
                    t[QStringLiteral("traces")] = traces;
                },
                { QStringLiteral("/views/timeline/traces/0/text"), QStringLiteral("line 1") } },
            { "bad-compared", [](QJsonObject &t) { t[QStringLiteral("compared")] = 7; },
                { QStringLiteral("/views/timeline/compared"), QStringLiteral("index below 2") } },
            { "bad-snapshot-trace",
                [](QJsonObject &t) {
                    QJsonArray list = t[QStringLiteral("snapshots")].toArray();
                    QJsonObject s = list[1].toObject();
                    s[QStringLiteral("trace")] = QStringLiteral("zero");
                    list[1] = s;
                    t[QStringLiteral("snapshots")] = list;
                },
                { QStringLiteral("/views/timeline/snapshots/1/trace") } },
            { "bad-view", [](QJsonObject &t) { t[QStringLiteral("view")] = QJsonObject { { QStringLiteral("arrows"), 3 } }; },
                { QStringLiteral("/views/timeline/view/arrows"), QStringLiteral("true or false") } },
            { "no-traces", [](QJsonObject &t) { t.remove(QStringLiteral("traces")); },
                { QStringLiteral("/views/timeline/traces"), QStringLiteral("missing") } },
        };
        for (const Case &c : cases) {
            const QString bad = editedSession(path, dir.filePath(QLatin1String(c.name) + QStringLiteral(".json")), c.edit);
            QVERIFY(!bad.isEmpty());
            error.clear();
            QVERIFY2(!b.openFile(bad, &error), c.name);
            QVERIFY2(error.contains(bad), qPrintable(error));
            for (const QString &part : c.expected)
                QVERIFY2(error.contains(part), qPrintable(c.name + QStringLiteral(": ") + error));
            QVERIFY(db->machine() == machineBefore);
            QCOMPARE(db->snapshots().size(), snapshotsBefore);
            QCOMPARE(vb->result().totalNs, totalBefore);
            QVERIFY(vb->arrowsBox()->isChecked());
        }
    }

    // The trace's file text is read once and kept compressed for sessions
    // (issue 15, memory at 10⁶ instructions): what a session writes is still
    // the file byte for byte, in both forms and from a resource path; a file
    // whose "format" lies beyond the first 64 KiB the router reads is still
    // routed by it.
    void traceTextKeptExactlyAndFormatFoundPastThePrefix()
    {
        for (const QString &path : { example("matmul-fp16-tiled.json"), example("vector-add-1core.txt"),
                 QStringLiteral(":/examples/verrocchio/vector-add-2cores.json") }) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            MainWindow window;
            TimelineView *view = timelineOf(window);
            QString error;
            QVERIFY2(window.openFile(path, &error), qPrintable(error));
            const auto &source = view->document()->traceSource();
            QVERIFY(source->hasText());
            QCOMPARE(source->text(), bytes);
            QVERIFY2(source->compressedText.size() < bytes.size(), qPrintable(path));
            QCOMPARE(source->json, path.endsWith(QStringLiteral(".json")));
            const QJsonArray traces = view->document()->sessionState().value(QStringLiteral("traces")).toArray();
            QCOMPARE(traces.size(), 1);
            QCOMPARE(traces[0].toObject().value(QStringLiteral("text")).toString().toUtf8(), bytes);
        }

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("late-format.json"));
        QFile in(example("vector-add-2cores.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject trace = QJsonDocument::fromJson(in.readAll()).object();
        QVERIFY(!trace.isEmpty());
        trace.remove(QStringLiteral("format"));
        QByteArray text = QJsonDocument(trace).toJson();
        text.insert(text.indexOf('{') + 1,
            "\n  \"comment\": \"" + QByteArray(70 * 1024, 'x') + "\",\n  \"format\": \"roofline-studio/verrocchio-trace\",");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(text), text.size());
        out.close();
        QString error;
        QCOMPARE(readFormatId(path, &error), QStringLiteral("roofline-studio/verrocchio-trace"));
        MainWindow window;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        QCOMPARE(window.currentView(), timelineOf(window));
        QCOMPARE(timelineOf(window)->document()->traceSource()->text(), text);
    }

    // Headless: the events as Chrome Trace JSON and the chart as SVG; a bad file fails naming it.
    void commandLine()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("t.json"));
        const QString svg = dir.filePath(QStringLiteral("t.svg"));
        QProcess studio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        studio.setProcessEnvironment(env);
        studio.start(QStringLiteral(ROOFLINE_STUDIO),
            { example("contention-during.json"), example("ascend310.json"), QStringLiteral("--export-chrome-trace"),
                trace, QStringLiteral("--export-svg"), svg });
        QVERIFY(studio.waitForFinished(30000));
        QCOMPARE(studio.exitCode(), 0);
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray events
            = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("traceEvents")).toArray();
        QVERIFY(!events.isEmpty());
        QVERIFY(svgRects(svg).size() > 3);

        studio.start(QStringLiteral(ROOFLINE_STUDIO),
            { QStringLiteral("/nonexistent.txt"), QStringLiteral("--export-chrome-trace"), trace });
        QVERIFY(studio.waitForFinished(30000));
        QCOMPARE(studio.exitCode(), 1);
        QVERIFY(studio.readAllStandardError().contains("/nonexistent.txt"));
    }
};

QTEST_MAIN(TestTimelineViewFiles)

#include "tst_timelineview_files.moc"
