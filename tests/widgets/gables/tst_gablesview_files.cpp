// The Gables view's files: examples, bad files, saving, dropping, sessions, review bundles.
// Helpers and the suite as a whole: gablesviewtesting.h.
#include "gablesviewtesting.h"

class TestGablesViewFiles : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        QVERIFY(!resources::exampleFiles().isEmpty());
    }

    void droppingAFileOpensIt()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(QStringLiteral(ROOFLINE_EXAMPLES_DIR "/gables/gables-fig6d.json"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        window.gablesView()->flushPendingUpdate();
        ROOFLINE_COMPARE_REL(window.gablesView()->result().attainableGops, 160.0, 1e-12);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("gables-fig6d.json")));
    }

    void sessionRoundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("review.session.json"));
        MainWindow a;
        QVERIFY(a.openFile(example("gables-fig6b.json"), nullptr));
        GablesView *va = a.gablesView();
        a.gablesDocument()->pinSnapshot(QStringLiteral("baseline"));
        a.gablesDocument()->setBpeak(30);
        a.gablesDocument()->setLocked(1, true);
        va->flushPendingUpdate();
        va->plot()->xAxis->setRange(0.05, 50);
        va->bottomTabs()->setCurrentIndex(1);
        QString error;
        QVERIFY2(a.saveSession(path, &error), qPrintable(error));

        MainWindow b;
        QVERIFY(b.openFile(example("gables-fig6d.json"), nullptr));
        QVERIFY2(b.openFile(path, &error), qPrintable(error)); // routed by its "format"
        GablesView *vb = b.gablesView();
        QVERIFY(b.gablesDocument()->soc() == a.gablesDocument()->soc());
        QCOMPARE(b.gablesDocument()->locks(), a.gablesDocument()->locks());
        QCOMPARE(b.gablesDocument()->snapshots().size(), std::size_t(1));
        QVERIFY(b.gablesDocument()->snapshots()[0].soc == a.gablesDocument()->snapshots()[0].soc);
        QCOMPARE(b.gablesDocument()->comparedSnapshot(), 0);
        QCOMPARE(b.gablesDocument()->filePath(), a.gablesDocument()->filePath());
        QVERIFY(b.isWindowModified());
        QCOMPARE(vb->plot()->xAxis->range().lower, 0.05);
        QCOMPARE(vb->plot()->xAxis->range().upper, 50.0);
        QCOMPARE(vb->bottomTabs()->currentIndex(), 1);
        QCOMPARE(vb->comparisonText(), va->comparisonText());
        ROOFLINE_COMPARE_REL(vb->result().attainableGops, 2.0, 1e-12);

        // A session with a bad model is refused whole, naming the field; the work stays.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonObject views = root[QStringLiteral("views")].toObject();
        QJsonObject gables = views[QStringLiteral("gables")].toObject();
        QJsonObject model = gables[QStringLiteral("model")].toObject();
        QJsonObject socJson = model[QStringLiteral("soc")].toObject();
        socJson[QStringLiteral("bpeak_gbps")] = -30;
        model[QStringLiteral("soc")] = socJson;
        gables[QStringLiteral("model")] = model;
        views[QStringLiteral("gables")] = gables;
        root[QStringLiteral("views")] = views;
        const QByteArray text = QJsonDocument(root).toJson();
        const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        const Soc before = b.gablesDocument()->soc();
        QVERIFY(!b.openSession(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/soc/bpeak_gbps")), qPrintable(error));
        QVERIFY(b.gablesDocument()->soc() == before);
    }

    // Views are restored one after another: when a later view refuses its
    // part, the ones already restored go back to their work. A window with no
    // Gables model open writes a session without a Gables part.
    void badSessionPartChangesNoView()
    {
        QTemporaryDir dir;
        MainWindow a;
        QVERIFY(a.openFile(example("gables-fig6b.json"), nullptr));
        const QString good = dir.filePath(QStringLiteral("good.session.json"));
        QString error;
        QVERIFY2(a.saveSession(good, &error), qPrintable(error));

        QFile file(good);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonObject views = root[QStringLiteral("views")].toObject();
        QVERIFY(views.contains(QStringLiteral("gables")));
        QVERIFY(views.contains(QStringLiteral("timeline"))); // after Gables in the window's order
        QJsonObject timeline = views[QStringLiteral("timeline")].toObject();
        timeline[QStringLiteral("machine")] = QStringLiteral("not a machine");
        views[QStringLiteral("timeline")] = timeline;
        root[QStringLiteral("views")] = views;
        const QString bad = dir.filePath(QStringLiteral("bad.session.json"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(root).toJson());
        out.close();

        MainWindow b;
        QVERIFY(b.openFile(example("gables-fig6d.json"), nullptr));
        b.gablesDocument()->setBpeak(33);
        const Soc before = b.gablesDocument()->soc();
        QVERIFY(!b.openSession(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("timeline")), qPrintable(error));
        QVERIFY(b.gablesDocument()->soc() == before);
        QVERIFY(b.gablesDocument()->soc() != a.gablesDocument()->soc());

        MainWindow empty;
        const QString none = dir.filePath(QStringLiteral("empty.session.json"));
        QVERIFY2(empty.saveSession(none, &error), qPrintable(error));
        MainWindow c;
        QVERIFY(c.openFile(example("gables-fig6d.json"), nullptr));
        QVERIFY2(c.openSession(none, &error), qPrintable(error));
        QVERIFY(!c.gablesDocument()->soc().ips.empty()); // no Gables part: the open model stays
    }

    void reviewBundle()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        window.gablesDocument()->pinSnapshot(QStringLiteral("fig. 6b"));
        window.gablesDocument()->setBpeak(30);
        QString error;
        const QString folder = dir.filePath(QStringLiteral("bundle"));
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QDir bundle(folder);
        for (const char *name : {"index.html", "gables-roofline.svg", "gables-roofline.png", "gables-terms.svg",
                                 "gables-terms.png", "gables-sensitivity.svg", "gables-sensitivity.png",
                                 "gables-roofline.csv", "gables-terms.csv", "gables-sensitivity.csv",
                                 "gables-model.json", "gables-snapshots.csv", "gables-snapshot-1.json"})
            QVERIFY2(QFileInfo(bundle.filePath(QLatin1String(name))).size() > 0, name);

        auto read = [&](const char *name) {
            QFile f(bundle.filePath(QLatin1String(name)));
            f.open(QIODevice::ReadOnly);
            return QString::fromUtf8(f.readAll());
        };
        const QString index = read("index.html");
        QVERIFY(index.contains(QStringLiteral(ROOFLINE_VERSION)));
        QVERIFY(index.contains(QDate::currentDate().toString(Qt::ISODate)));
        QVERIFY(index.contains(QStringLiteral("gables-roofline.png")));

        // The CSV holds the plotted curves: the memory roof's points are the graph's.
        QCPGraph *memory = window.gablesView()->plot()->memoryGraph();
        int matched = 0;
        for (const QString &line : read("gables-roofline.csv").split(QLatin1Char('\n'))) {
            const QStringList cells = line.split(QLatin1Char(','));
            if (cells.size() == 3 && cells[0] == QStringLiteral("memory roof")) {
                const auto point = memory->data()->at(matched++);
                ROOFLINE_COMPARE_REL(cells[1].toDouble(), point->key, 1e-15);
                ROOFLINE_COMPARE_REL(cells[2].toDouble(), point->value, 1e-15);
            }
        }
        QCOMPARE(matched, memory->dataCount());
        // The input reproduces the model; the snapshot table compares with the pin.
        const LoadResult model = parseSoc(read("gables-model.json").toStdString(), "gables-model.json");
        QVERIFY(model.soc && *model.soc == window.gablesDocument()->soc());
        QVERIFY(read("gables-snapshots.csv").contains(QStringLiteral("\"fig. 6b\",1.327800")));
        QVERIFY(read("gables-sensitivity.csv").startsWith(QStringLiteral("parameter,pointer,")));
        // An unwritable place is refused with its name.
        QVERIFY(!window.exportReviewBundle(QStringLiteral("/proc/no-such-bundle"), &error));
        QVERIFY(error.contains(QStringLiteral("/proc/no-such-bundle")));
    }

    void preferencesRoundTripAndTheme()
    {
        const Preferences saved = Preferences::load();
        Preferences p;
        p.theme = Preferences::Theme::Dark;
        p.exportWidth = 1600;
        p.exportHeight = 900;
        p.pngScale = 3;
        p.restoreLastSession = true;
        p.save();
        QVERIFY(Preferences::load() == p);
        PreferencesDialog dialog(p);
        QVERIFY(dialog.preferences() == p);

        applyTheme(Preferences::Theme::Dark);
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(45, 45, 48));
        applyTheme(Preferences::Theme::Light);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
        applyTheme(Preferences::Theme::System);
        saved.save();
    }

    void everyExampleOpens_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &path : resources::exampleFiles())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }

    void everyExampleOpens()
    {
        QFETCH(QString, path);
        MainWindow window;
        QString error;
        QVERIFY2(window.openFile(path, &error), qPrintable(error));
        GablesView *view = window.gablesView();
        QVERIFY(view->result().attainableGops > 0 && std::isfinite(view->result().attainableGops));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("inf"), Qt::CaseInsensitive));
        QCOMPARE(view->panel()->ipEditorCount(), int(view->document()->soc().ips.size()));
        QVERIFY(view->plot()->memoryGraph()->dataCount() >= 2);
        QVERIFY(!view->termsChart()->rowLabels().isEmpty());
        QVERIFY(!window.isWindowModified());
    }

    // Issue 14's soak: every open rebuilt the IP editors with new swatch
    // pixmaps, each a new entry in Qt's pixmap cache (which keeps up to 10 MB).
    // Opening the same file again now shows the very same swatch icons.
    void reopeningReusesTheColourSwatches()
    {
        MainWindow window;
        GablesView *view = window.gablesView();
        auto swatches = [&] {
            QList<qint64> keys;
            for (QToolButton *b : view->panel()->findChildren<QToolButton *>())
                if (b->toolTip() == QStringLiteral("Colour of this IP's roof and lines"))
                    keys << b->icon().cacheKey();
            std::sort(keys.begin(), keys.end());
            return keys;
        };
        QString error;
        QVERIFY2(window.openFile(example("snapdragon835.json"), &error), qPrintable(error));
        view->flushPendingUpdate();
        const QList<qint64> first = swatches();
        QCOMPARE(first.size(), qsizetype(view->document()->soc().ips.size()));
        QVERIFY2(window.openFile(example("snapdragon835.json"), &error), qPrintable(error));
        view->flushPendingUpdate();
        QCOMPARE(swatches(), first);
    }

    void badFileKeepsCurrentWork()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format":"roofline-studio/gables","version":1,
            "soc":{"ppeak_gops":40,"bpeak_gbps":-10,"ips":[{"name":"CPU","acceleration":1,"bandwidth_gbps":6}]},
            "use_case":{"work":{"CPU":{"fraction":1,"intensity_ops_per_byte":8}}}})");
        file.close();

        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6d.json"), nullptr));
        window.gablesDocument()->setBpeak(25); // unsaved work
        const Soc before = window.gablesDocument()->soc();
        QString error;
        QVERIFY(!window.openFile(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("/soc/bpeak_gbps"))
                     && error.contains(QStringLiteral("must be > 0")),
                 qPrintable(error));
        QVERIFY(window.gablesDocument()->soc() == before);
        QVERIFY(window.gablesDocument()->isModified());
        QVERIFY(!window.openFile(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(error.contains(QStringLiteral("missing.json")));

        // Files are routed by their "format": an unknown one, none, or no JSON at all is refused clearly.
        auto write = [&](const char *name, const QByteArray &text) {
            QFile f(dir.filePath(QLatin1String(name)));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return f.fileName();
        };
        const QString unknown = write("unknown.json", R"({"format": "roofline-studio/teapot", "version": 1})");
        QVERIFY(!window.openFile(unknown, &error));
        QVERIFY2(error.contains(QStringLiteral("/format: unknown format \"roofline-studio/teapot\"")), qPrintable(error));
        const QString noFormat = write("noformat.json", R"({"soc": {}})");
        QVERIFY(!window.openFile(noFormat, &error));
        QVERIFY2(error.contains(QStringLiteral("/format: required field is missing")), qPrintable(error));
        const QString garbage = write("garbage.json", "{\n  oops");
        QVERIFY(!window.openFile(garbage, &error));
        QVERIFY2(error.contains(QStringLiteral("line 2, column")), qPrintable(error));
        QVERIFY(window.gablesDocument()->soc() == before);
    }

    void documentRejectsNonsense()
    {
        // Values a control could never produce are ignored, never shown as NaN.
        GablesDocument doc;
        Soc soc;
        soc.ppeakGops = 40;
        soc.bpeakGBps = 10;
        soc.ips = {Ip::make("CPU", 1, 6, 1, 8)};
        doc.setSoc(soc, QString());
        const int steps = doc.undoStack()->count();
        doc.setBpeak(std::nan(""));
        doc.setBpeak(0);
        doc.setBpeak(-3);
        doc.setBpeak(1e300);
        doc.setIntensity(0, 0);
        doc.setFraction(7, 0.5);
        QCOMPARE(doc.soc().bpeakGBps, 10.0);
        QCOMPARE(doc.soc().ips[0].intensity, 8.0);
        QCOMPARE(doc.undoStack()->count(), steps); // nothing to undo either
    }

    void saveRoundTrips()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("gables-fig6b.json"), nullptr));
        window.gablesDocument()->setBpeak(30);
        const QString path = dir.filePath(QStringLiteral("saved.json"));
        QString error;
        QVERIFY2(window.saveFile(path, &error), qPrintable(error));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.recentFiles().contains(QFileInfo(path).absoluteFilePath()));
        MainWindow other;
        QVERIFY(other.openFile(path, &error));
        QVERIFY(other.gablesDocument()->soc() == window.gablesDocument()->soc());
        ROOFLINE_COMPARE_REL(other.gablesView()->result().attainableGops, 2.0, 1e-12);
    }
};

QTEST_MAIN(TestGablesViewFiles)

#include "tst_gablesview_files.moc"
