// The Verrocchio timeline view driven through its real controls, offscreen:
// the bus slider moves the total and the bars, zooming keeps the layout
// consistent, level of detail bounds what is drawn, the SVG export holds one
// rectangle per drawn bar or merged group, every example opens, bad files keep
// the current work, hovering explains an instruction and clicking selects it
// in the table.
#include "mainwindow.h"
#include "parameterslider.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "testutils.h"
#include "timelinedocument.h"
#include "timelinepanel.h"
#include "timelineplot.h"
#include "timelinetablemodel.h"
#include "timelineview.h"
#include "units.h"
#include "verrocchio/comparison.h"
#include "verrocchio/io.h"
#include "verrocchio/sensitivity.h"
#include "verrocchio/synthetic.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSlider>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace studio;
using namespace roofline::verrocchio;

namespace {

QString example(const char *name)
{
    return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/verrocchio/") + QLatin1String(name);
}

bool waitForUpdate(TimelineView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 5000);
}

// Waits until the newest request has been drawn (the worker may deliver stale results first).
bool waitForFresh(TimelineView *view, double expectedTotal)
{
    return QTest::qWaitFor(
        [&] { return testutils::relativelyEqual(view->result().totalNs, expectedTotal, 1e-12); }, 5000);
}

struct SvgRect {
    double x, y, width, height;
    QString fill;
};

// Every <rect> of an SVG with the fill of its enclosing group.
QList<SvgRect> svgRects(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    QStringList fills { QStringLiteral("none") };
    QList<SvgRect> rects;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("g"))
            fills.push_back(xml.attributes().hasAttribute(QLatin1String("fill"))
                    ? xml.attributes().value(QLatin1String("fill")).toString()
                    : fills.back());
        else if (xml.isEndElement() && xml.name() == QLatin1String("g") && fills.size() > 1)
            fills.pop_back();
        else if (xml.isStartElement() && xml.name() == QLatin1String("rect")) {
            const auto a = xml.attributes();
            rects.push_back({ a.value(QLatin1String("x")).toDouble(), a.value(QLatin1String("y")).toDouble(),
                a.value(QLatin1String("width")).toDouble(), a.value(QLatin1String("height")).toDouble(),
                fills.back() });
        }
    }
    return rects;
}

TimelineView *timelineOf(MainWindow &window)
{
    return window.findChild<TimelineView *>();
}

// Drags a slider's thumb with the mouse from where it is by `dx` pixels in
// `steps` moves: press on the thumb, move, release, as a user does.
bool dragSlider(QSlider *slider, int dx, int steps)
{
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    option.singleStep = slider->singleStep();
    option.pageStep = slider->pageStep();
    option.upsideDown = slider->invertedAppearance();
    const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider);
    const QPoint start = handle.center();
    QTest::mousePress(slider, Qt::LeftButton, Qt::NoModifier, start);
    if (!slider->isSliderDown())
        return false;
    for (int i = 1; i <= steps; ++i) {
        QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(dx * i / steps, 0)),
            slider->mapToGlobal(QPointF(start + QPoint(dx * i / steps, 0))), Qt::NoButton, Qt::LeftButton,
            Qt::NoModifier);
        QApplication::sendEvent(slider, &move);
    }
    QTest::mouseRelease(slider, Qt::LeftButton, Qt::NoModifier, start + QPoint(dx, 0));
    return !slider->isSliderDown();
}

// Reads a session file, lets `edit` change its JSON, and writes it elsewhere.
QString editedSession(const QString &from, const QString &to, const std::function<void(QJsonObject &timeline)> &edit)
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QJsonObject root = QJsonDocument::fromJson(in.readAll()).object();
    QJsonObject views = root[QStringLiteral("views")].toObject();
    QJsonObject timeline = views[QStringLiteral("timeline")].toObject();
    edit(timeline);
    views[QStringLiteral("timeline")] = timeline;
    root[QStringLiteral("views")] = views;
    QFile out(to);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write(QJsonDocument(root).toJson());
    return to;
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
    }

    // The default: vector-add-2cores on the Ascend 310, simulated and drawn.
    void startsWithAnExample()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        QVERIFY(view);
        QVERIFY(view->result().ok());
        QVERIFY(view->result().totalNs > 0);
        QCOMPARE(view->plot()->laneCount(), 2 * kPipeCount);
        QCOMPARE(view->document()->machine().name, ascend310().name);
        QVERIFY(!view->plot()->visibleGroups().empty());
        QCOMPARE(view->tableModel()->rowCount(), int(view->document()->trace().instructionCount()));
        QVERIFY(view->formatIds().contains(QLatin1String(kTraceFormatId)));
        QVERIFY(view->formatIds().contains(QLatin1String(kMachineFormatId)));
        QVERIFY(view->exampleFiles().contains(QStringLiteral(":/examples/verrocchio/vector-add-1core.txt")));
    }

    // Halving B_bus through the slider lengthens the run and moves the MTE2 bars.
    void busSliderChangesTotalAndBars()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        const double before = view->result().totalNs;
        const auto barsBefore = view->data().bars->bars;
        ParameterSlider *bus = view->panel()->busSlider();
        const double oldBus = view->document()->machine().busGBps;

        const quint64 count = view->updateCount();
        bus->slider()->setValue(bus->scale().toPosition(oldBus / 2)); // what a drag does
        const double newBus = bus->value();
        QVERIFY(newBus < oldBus * 0.6);
        QCOMPARE(view->document()->machine().busGBps, newBus);
        QVERIFY(waitForUpdate(view, count));
        Machine expected = view->document()->machine();
        const Result reference = simulate(view->document()->trace(), expected);
        QVERIFY(waitForFresh(view, reference.totalNs));
        QVERIFY2(view->result().totalNs > before * 1.2,
            qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(view->result().totalNs)));
        // The bars are the new timings: the last MTE2 transfer of core 0 ends later.
        const auto &bars = *view->data().bars;
        QCOMPARE(bars.bars.size(), barsBefore.size());
        const std::size_t lane = laneOf(0, Pipe::MTE2);
        const Bar &lastNew = bars.bars[bars.laneBegin[lane + 1] - 1];
        const Bar &lastOld = barsBefore[bars.laneBegin[lane + 1] - 1];
        QVERIFY(lastNew.end > lastOld.end);
        // The readout and the status bar say the new total.
        QVERIFY(view->readout()->text().contains(QStringLiteral("Total")));
        QVERIFY(window.statusText().startsWith(QStringLiteral("total ")));
        QVERIFY(view->isModified());
        // Fewer cores than the trace has: the simulation's error is shown, nothing crashes.
        view->panel()->coresBox()->setValue(1);
        view->flushPendingUpdate();
        QVERIFY(!view->result().ok());
        QVERIFY2(view->readout()->text().contains(QStringLiteral("the trace has 2 cores")),
            qPrintable(view->readout()->text()));
        view->plot()->replot();
        view->panel()->coresBox()->setValue(2);
        view->flushPendingUpdate();
        QVERIFY(view->result().ok());
        // The plot's first drawn MTE2 rectangle is where the simulation put it.
        view->plot()->replot();
        const auto groups = view->plot()->visibleGroups();
        const auto first
            = std::find_if(groups.begin(), groups.end(), [&](const BarGroup &g) { return g.lane == lane; });
        QVERIFY(first != groups.end());
        const auto &barsNow = *view->data().bars; // the earlier reference died with its result
        QCOMPARE(first->start, barsNow.bars[barsNow.laneBegin[lane]].start);
    }

    // A burst of edits over several event-loop turns ends on the last one's result.
    void workerShowsTheNewestResult()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        for (int i = 1; i <= 8; ++i) {
            doc->setBusBandwidth(10.0 * i);
            QCoreApplication::processEvents();
        }
        const Result reference = simulate(doc->trace(), doc->machine());
        QVERIFY(waitForFresh(view, reference.totalNs));
        QCOMPARE(view->data().machine.busGBps, 80.0);
        // A result that arrives after a newer one was drawn is dropped.
        const quint64 dropped = view->droppedCount();
        doc->setBusBandwidth(20);
        QCoreApplication::processEvents(); // the request goes to the worker
        doc->setBusBandwidth(30);
        view->flushPendingUpdate(); // a newer result, simulated here
        QCOMPARE(view->data().machine.busGBps, 30.0);
        QVERIFY(QTest::qWaitFor([&] { return view->droppedCount() > dropped; }, 5000));
        QCOMPARE(view->data().machine.busGBps, 30.0);
        doc->setBusBandwidth(80);
        view->flushPendingUpdate();
        // Invalid values are refused by the document.
        doc->setBusBandwidth(-1);
        doc->setBusBandwidth(std::nan(""));
        QCOMPARE(doc->machine().busGBps, 80.0);
    }

    void zoomKeepsLayoutConsistent()
    {
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        TimelinePlot *plot = view->plot();
        plot->replot();
        const double total = view->result().totalNs;
        QVERIFY(plot->xAxis->range().lower <= 0 && plot->xAxis->range().upper >= total);

        // Zoom to the middle fifth: every drawn rectangle touches the view, in its lane.
        plot->setTimeRange(0.4 * total, 0.6 * total);
        plot->replot();
        QCOMPARE(plot->xAxis->range().lower, 0.4 * total);
        const auto groups = plot->visibleGroups();
        QVERIFY(!groups.empty());
        const auto &bars = *view->data().bars;
        std::size_t members = 0;
        for (const BarGroup &g : groups) {
            QVERIFY(g.end >= 0.4 * total && g.start <= 0.6 * total);
            QCOMPARE(g.lane, bars.bars[g.first].lane);
            members += g.count;
        }
        // Exactly the bars that intersect the view are drawn, none twice.
        const auto inView = std::count_if(bars.bars.begin(), bars.bars.end(),
            [&](const Bar &b) { return b.end >= 0.4 * total && b.start <= 0.6 * total; });
        QCOMPARE(members, std::size_t(inView));
        // The overview's window follows the timeline's range.
        QCOMPARE(view->overview()->window()->topLeft->coords().x(), 0.4 * total);
        QCOMPARE(view->overview()->window()->bottomRight->coords().x(), 0.6 * total);
        // The time axis names its unit.
        QVERIFY(plot->xAxis->label().startsWith(QStringLiteral("Time (")));

        // Zooming out past the trace or panning before 0 is clamped.
        plot->setTimeRange(-10 * total, 10 * total);
        QVERIFY(plot->xAxis->range().lower >= -0.02 * total - 1e-9);
        QVERIFY(plot->xAxis->range().upper <= 1.02 * total + 1e-9);
        // A real wheel step over the chart zooms time only; lanes stay.
        plot->resize(900, 500);
        plot->replot();
        const QCPRange lanes = plot->yAxis->range();
        const double widthBefore = plot->xAxis->range().size();
        const QPointF inside = plot->axisRect()->rect().center();
        QWheelEvent wheel(inside, plot->mapToGlobal(inside), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &wheel);
        QVERIFY2(plot->xAxis->range().size() < widthBefore * 0.95,
                 qPrintable(QStringLiteral("%1 -> %2").arg(widthBefore).arg(plot->xAxis->range().size())));
        QCOMPARE(plot->yAxis->range(), lanes);
        view->resetZoom();
        QVERIFY(plot->xAxis->range().lower <= 0 && plot->xAxis->range().upper >= total);
    }

    // 10^5 instructions: what is drawn is bounded by the pixels, and every
    // instruction is in exactly one drawn rectangle.
    void levelOfDetailAtTenToTheFifth()
    {
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        view->document()->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        TimelinePlot *plot = view->plot();
        const auto groups = plot->visibleGroups();
        const double pixels = plot->xAxis->range().size() / plot->nsPerPixel();
        QVERIFY2(double(groups.size()) <= double(plot->laneCount()) * pixels,
            qPrintable(QStringLiteral("%1 groups for %2 px").arg(groups.size()).arg(pixels)));
        std::size_t members = 0;
        for (const BarGroup &g : groups)
            members += g.count;
        QCOMPARE(members, view->data().bars->bars.size());
        QVERIFY(std::any_of(groups.begin(), groups.end(), [](const BarGroup &g) { return g.merged(); }));
    }

    void exportSvgHasOneRectPerGroup_data()
    {
        QTest::addColumn<int>("instructions"); // 0: the example
        QTest::addColumn<double>("zoom"); // fraction of the trace shown
        QTest::newRow("vector-add-2cores, whole") << 0 << 1.0;
        QTest::newRow("vector-add-2cores, a tenth") << 0 << 0.1;
        QTest::newRow("10^5 instructions, whole (merged)") << 100000 << 1.0;
    }

    void exportSvgHasOneRectPerGroup()
    {
        QFETCH(int, instructions);
        QFETCH(double, zoom);
        MainWindow window;
        window.resize(1400, 900);
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        window.show(); // the plot gets its real size
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (instructions > 0) {
            view->document()->setTrace(syntheticVectorAdd(std::size_t(instructions), 2), QString());
            view->flushPendingUpdate();
        }
        TimelinePlot *plot = view->plot();
        const double total = view->result().totalNs;
        plot->setTimeRange(0, zoom * total);
        // Export at the widget's size, so the level of detail is the one on screen.
        ExportOptions options;
        options.width = plot->width();
        options.height = plot->height();
        plot->replot();
        const auto groups = plot->visibleGroups();
        const double barHeight = std::abs(plot->yAxis->coordToPixel(0.86) - plot->yAxis->coordToPixel(0.14));

        QTemporaryDir dir;
        QString error;
        const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
        QVERIFY2(window.exportCurrentPlot(svg, options, &error), qPrintable(error));
        QList<SvgRect> bars;
        for (const SvgRect &r : svgRects(svg)) {
            if (r.fill != QLatin1String("none") && std::abs(r.height - barHeight) < 0.6)
                bars.push_back(r);
        }
        if (bars.size() != qsizetype(groups.size())) {
            QString seen;
            for (const SvgRect &r : svgRects(svg))
                seen += QStringLiteral("%1x%2 %3; ").arg(r.width).arg(r.height).arg(r.fill);
            QFAIL(qPrintable(QStringLiteral("%1 bar rects for %2 groups (bar height %3): %4")
                                 .arg(bars.size())
                                 .arg(groups.size())
                                 .arg(barHeight)
                                 .arg(seen.left(1500))));
        }
        // Same rectangles, by position: sort both by (y, x) and compare with a tolerance.
        std::vector<std::pair<double, double>> expected, actual;
        for (const BarGroup &g : groups) {
            double x0 = plot->xAxis->coordToPixel(g.start), x1 = plot->xAxis->coordToPixel(g.end);
            if (x1 - x0 < 1)
                x0 = (x0 + x1) / 2 - 0.5;
            expected.emplace_back(std::round(plot->yAxis->coordToPixel(g.lane + 0.14)), x0);
        }
        for (const SvgRect &r : bars)
            actual.emplace_back(std::round(r.y), r.x);
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(std::abs(expected[i].first - actual[i].first) <= 1
                    && std::abs(expected[i].second - actual[i].second) < 0.05,
                qPrintable(QStringLiteral("rect %1: expected (%2, %3), got (%4, %5)")
                               .arg(i)
                               .arg(expected[i].second)
                               .arg(expected[i].first)
                               .arg(actual[i].second)
                               .arg(actual[i].first)));
        }
        // Title and axis label are in the file as text.
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("Time ("));
        QVERIFY(text.contains("<title>Verrocchio timeline"));
        QVERIFY(!text.contains("nan"));
        // PNG and PDF go through the same path.
        for (const char *name : { "timeline.png", "timeline.pdf" }) {
            QVERIFY2(window.exportCurrentPlot(dir.filePath(QLatin1String(name)), options, &error), qPrintable(error));
            QVERIFY(QFileInfo(dir.filePath(QLatin1String(name))).size() > 1000);
        }
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

    void hoverExplainsAndClickSelects()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAbstractItemModelTester tester(view->tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        TimelinePlot *plot = view->plot();
        plot->replot();

        // The first MTE2 transfer of core 0.
        const auto &bars = *view->data().bars;
        const Bar &bar = bars.bars[bars.laneBegin[laneOf(0, Pipe::MTE2)]];
        const QPointF centre(
            plot->xAxis->coordToPixel((bar.start + bar.end) / 2), plot->yAxis->coordToPixel(bar.lane + 0.5));
        const QString tip = plot->tooltipAt(centre);
        for (const char *part :
            { "copy_gm_to_ubuf", "size 4096 bytes", "start", "end", "achieved", "GB/s", "waited for" })
            QVERIFY2(tip.contains(QLatin1String(part)),
                qPrintable(QStringLiteral("%1 not in: %2").arg(QLatin1String(part), tip)));

        // A stalled wait says what it waited for.
        const std::size_t vLane = laneOf(0, Pipe::V);
        const auto stall = std::find_if(bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[vLane]),
            bars.bars.begin() + std::ptrdiff_t(bars.laneBegin[vLane + 1]),
            [](const Bar &b) { return b.kind == Bar::Kind::Stall; });
        QVERIFY(stall != bars.bars.end());
        const QString stallTip = plot->tooltipAt(QPointF(
            plot->xAxis->coordToPixel((stall->start + stall->end) / 2), plot->yAxis->coordToPixel(stall->lane + 0.5)));
        QVERIFY2(stallTip.contains(QStringLiteral("wait_flag")) && stallTip.contains(QStringLiteral("for set_flag")),
            qPrintable(stallTip));

        // Clicking selects the row in the table.
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QVERIFY(plot->selected().has_value());
        QCOMPARE(plot->selected()->instruction, bar.instruction);
        const int row = view->tableModel()->rowOf({ bar.core, bar.instruction });
        QCOMPARE(view->table()->currentIndex().row(), row);
        QCOMPARE(view->tableModel()->index(row, TimelineTableModel::Start).data().toString().toDouble(), bar.start);

        // Selecting a row selects the bar; an edit keeps rows and selection.
        view->table()->selectRow(row + 1);
        QCOMPARE(plot->selected()->instruction, view->tableModel()->refAt(row + 1).instruction);
        const quint64 before = view->updateCount();
        view->panel()->throughputSlider(Pipe::V)->spinBox()->setValue(20);
        QVERIFY(waitForUpdate(view, before));
        QCOMPARE(view->table()->currentIndex().row(), row + 1);
        // Opening another trace resets the model cleanly (the tester checks).
        QVERIFY(window.openFile(example("vector-add-1core.txt"), nullptr));
        QCOMPARE(view->tableModel()->rowCount(), int(view->document()->trace().instructionCount()));
        // Toggles repaint without errors.
        view->arrowsBox()->setChecked(true);
        view->criticalPathBox()->setChecked(false);
        plot->replot();
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

    // A real drag of the B_bus thumb is one undo step; undo gives back the exact machine and total.
    void sliderDragIsOneUndoStep()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        QApplication::processEvents(); // lays out the tab: the thumb has its place
        QUndoStack *stack = view->undoStack();
        QVERIFY(stack);
        QCOMPARE(stack, view->document()->undoStack());
        QVERIFY(!view->isModified());
        const Machine before = view->document()->machine();
        const double totalBefore = view->result().totalNs;
        const int steps = stack->count();

        QSlider *slider = view->panel()->busSlider()->slider();
        QVERIFY(dragSlider(slider, -slider->width() / 4, 12));
        view->flushPendingUpdate();
        QCOMPARE(stack->count(), steps + 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Set B_bus"));
        QVERIFY(view->document()->machine().busGBps < before.busGBps);
        QVERIFY(view->isModified());
        QVERIFY(view->result().totalNs > totalBefore);
        const Machine dragged = view->document()->machine();

        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->machine() == before);
        QCOMPARE(view->result().totalNs, totalBefore);
        QCOMPARE(view->panel()->busSlider()->value(), before.busGBps); // the controls follow
        QVERIFY(!view->isModified());
        stack->redo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->machine() == dragged);

        // Two spin-box entries are two steps; the bus mode and the core count are steps too.
        view->panel()->initSlider(Pipe::MTE2)->spinBox()->setValue(300);
        view->panel()->initSlider(Pipe::MTE2)->spinBox()->setValue(310);
        view->panel()->busModeBox()->setCurrentIndex(1);
        QCOMPARE(stack->count(), steps + 4);
        stack->undo();
        QCOMPARE(view->document()->machine().busMode, BusMode::HalfDuplex);
        QCOMPARE(view->panel()->busModeBox()->currentIndex(), 0);
        stack->undo();
        QCOMPARE(view->document()->machine().pipe(Pipe::MTE2).initNs, 300.0);

        // Opening a trace is a step: undo brings the previous trace and its total back.
        const double totalNow = simulate(view->document()->trace(), view->document()->machine()).totalNs;
        QVERIFY(window.openFile(example("contention-before.json"), nullptr));
        QVERIFY(view->document()->tracePath().endsWith(QStringLiteral("contention-before.json")));
        stack->undo();
        view->flushPendingUpdate();
        QVERIFY(view->document()->tracePath().endsWith(QStringLiteral("vector-add-2cores.json")));
        QCOMPARE(view->result().totalNs, totalNow);
    }

    // Pin, compare, ghost lanes, the comparison readout from the core, restore, rename, delete.
    void snapshotsGhostAndComparison()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        QTest::mouseClick(view->snapshotBar()->pinButton(), Qt::LeftButton);
        QCOMPARE(doc->snapshots().size(), std::size_t(1));
        QCOMPARE(doc->comparedSnapshot(), 0);
        QCOMPARE(view->snapshotBar()->comboBox()->currentText(), QStringLiteral("baseline"));
        const Machine pinned = doc->machine();

        doc->setBusBandwidth(pinned.busGBps / 2);
        view->flushPendingUpdate();
        QVERIFY(view->ghost());
        QVERIFY(view->ghost()->machine == pinned);
        QVERIFY(view->plot()->hasGhost());
        view->plot()->replot();
        const auto ghostGroups = view->plot()->visibleGhostGroups();
        QVERIFY(!ghostGroups.empty());
        QVERIFY(std::all_of(ghostGroups.begin(), ghostGroups.end(),
            [&](const BarGroup &g) { return g.lane < view->plot()->laneCount(); }));

        // The numbers are the core's comparison of the two simulations.
        const Result baseline = simulate(doc->trace(), pinned);
        const Comparison expected = compare(simulate(doc->trace(), doc->machine()), baseline);
        QVERIFY(view->comparison());
        QVERIFY(*view->comparison() == expected);
        QVERIFY(expected.changeNs > 0);
        QCOMPARE(view->comparisonText(), QString::fromStdString(summarize(expected, "baseline")));
        QVERIFY2(view->readout()->text().contains(QStringLiteral("vs baseline")), qPrintable(view->readout()->text()));
        QVERIFY(!view->readout()->text().contains(QStringLiteral("nan")));

        // None compared: no ghost, no comparison; back: from the cache, at once.
        doc->setComparedSnapshot(-1);
        QVERIFY(!view->plot()->hasGhost());
        QVERIFY(view->comparisonText().isEmpty());
        doc->setComparedSnapshot(0);
        QVERIFY(view->plot()->hasGhost());

        // A second snapshot is simulated in the worker when it is first compared.
        const int second = doc->pinSnapshot(QStringLiteral("narrow bus"));
        doc->setComparedSnapshot(second);
        QVERIFY(QTest::qWaitFor([&] { return view->ghost() != nullptr; }, 5000));
        QVERIFY(view->comparison());
        QCOMPARE(view->comparison()->changeNs, 0.0);
        doc->renameSnapshot(second, QStringLiteral("half bus"));
        QCOMPARE(view->snapshotBar()->comboBox()->currentText(), QStringLiteral("half bus"));
        QVERIFY(view->comparisonText().contains(QStringLiteral("vs half bus")));

        // Restore is an undoable step back to the pinned machine.
        doc->restoreSnapshot(0);
        view->flushPendingUpdate();
        QVERIFY(doc->machine() == pinned);
        QCOMPARE(view->panel()->busSlider()->value(), pinned.busGBps);
        doc->undoStack()->undo();
        QCOMPARE(doc->machine().busGBps, pinned.busGBps / 2);

        doc->removeSnapshot(second);
        QCOMPARE(doc->comparedSnapshot(), -1);
        QVERIFY(!view->plot()->hasGhost());
        QVERIFY(!view->ghost());
    }

    // The ghost at 10^5 instructions is merged like the bars: bounded by lanes × pixels.
    void ghostLevelOfDetailAtTenToTheFifth()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TimelineView *view = timelineOf(window);
        window.setCurrentView(view);
        QApplication::processEvents();
        view->document()->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        view->document()->pinSnapshot();
        view->document()->setBusBandwidth(view->document()->machine().busGBps * 0.7);
        view->flushPendingUpdate();
        view->plot()->replot();
        const auto groups = view->plot()->visibleGhostGroups();
        QVERIFY(!groups.empty());
        const double pixels = view->plot()->axisRect()->width();
        QVERIFY(pixels > 300);
        // At most about one rectangle per lane and pixel (groups and single bars are at least a pixel wide)...
        QVERIFY2(double(groups.size()) <= double(view->plot()->laneCount()) * (pixels + 2),
            qPrintable(QStringLiteral("%1 groups, %2 px").arg(groups.size()).arg(pixels)));
        // ...though the snapshot has some 10^5 bars.
        QVERIFY2(view->ghost()->bars->bars.size() > 30000, qPrintable(QString::number(view->ghost()->bars->bars.size())));
    }

    // The tornado: the core's rows, computed in the worker only while its tab is shown.
    void sensitivityFollowsTheCore()
    {
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        QCOMPARE(view->sensitivityCount(), quint64(0)); // hidden: never computed
        doc->setBusBandwidth(doc->machine().busGBps * 0.8);
        view->flushPendingUpdate();
        QTest::qWait(50);
        QCOMPARE(view->sensitivityCount(), quint64(0));

        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > 0; }, 10000));
        const auto expected = sensitivity(doc->trace(), doc->machine(), 0.1);
        QVERIFY(!expected.empty());
        QVERIFY(view->sensitivityRows() == expected);
        const auto &shown = view->sensitivityChart()->shownRows();
        QCOMPARE(shown.size(), std::min<std::size_t>(expected.size(), SensitivityChart::maxRows));
        const TimeUnit unit = timeUnitFor(view->result().totalNs);
        QCOMPARE(shown[0].label, QString::fromStdString(expected[0].label));
        ROOFLINE_COMPARE_REL(shown[0].low, expected[0].lowNs * unit.perNs, 1e-12);
        ROOFLINE_COMPARE_REL(shown[0].high, expected[0].highNs * unit.perNs, 1e-12);

        // Live: a machine edit brings new rows for the new machine.
        const quint64 count = view->sensitivityCount();
        doc->setInitNs(Pipe::MTE2, doc->machine().pipe(Pipe::MTE2).initNs + 500);
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > count; }, 10000));
        QVERIFY(view->sensitivityRows() == sensitivity(doc->trace(), doc->machine(), 0.1));

        // The step is configurable.
        const quint64 count2 = view->sensitivityCount();
        view->setSensitivityStep(0.2);
        QVERIFY(view->bottomTabs()->tabText(1).contains(QStringLiteral("±20%")));
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > count2; }, 10000));
        QVERIFY(view->sensitivityRows() == sensitivity(doc->trace(), doc->machine(), 0.2));
    }

    // At 10^5 instructions a burst of edits supersedes the running sensitivity: only the newest arrives.
    void newerRequestSupersedesSensitivity()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        TimelineDocument *doc = view->document();
        doc->setTrace(syntheticVectorAdd(100000, 2), QString());
        view->flushPendingUpdate();
        view->bottomTabs()->setCurrentWidget(view->sensitivityChart());
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityCount() > 0; }, 60000)); // in the worker
        const quint64 before = view->sensitivityCount();
        const double bus = doc->machine().busGBps;
        for (int i = 1; i <= 5; ++i) {
            doc->setBusBandwidth(bus * (1 - 0.05 * i));
            QCoreApplication::processEvents(); // each edit is a request of its own
        }
        const auto expected = sensitivity(doc->trace(), doc->machine(), 0.1);
        QVERIFY(QTest::qWaitFor([&] { return view->sensitivityRows() == expected; }, 60000));
        QTest::qWait(100);
        QVERIFY(view->sensitivityRows() == expected); // nothing older arrived after it
        QVERIFY2(view->sensitivityCount() - before < 5, qPrintable(QString::number(view->sensitivityCount() - before)));
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

    // Every control has a tooltip with its meaning (and unit); the tab order runs through the view sensibly.
    void keyboardAndTooltips()
    {
        MainWindow window;
        TimelineView *view = timelineOf(window);
        for (QWidget *w : view->findChildren<QWidget *>()) {
            if (!qobject_cast<QSlider *>(w) && !qobject_cast<QAbstractSpinBox *>(w) && !qobject_cast<QComboBox *>(w))
                continue;
            if (w->parent() && qobject_cast<QAbstractSpinBox *>(w->parent()))
                continue; // a spin box's own line edit
            QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->objectName() + QLatin1Char(' ') + w->metaObject()->className()));
        }
        TimelinePanel *panel = view->panel();
        for (Pipe pipe : kAllPipes) {
            QVERIFY(panel->throughputSlider(pipe)->spinBox()->toolTip().contains(movesBytes(pipe) ? QStringLiteral("GB/s") : QStringLiteral("Gops/s")));
            QVERIFY(panel->initSlider(pipe)->slider()->toolTip().contains(QStringLiteral("in ns")));
        }
        QVERIFY(panel->busSlider()->spinBox()->toolTip().contains(QStringLiteral("GB/s")));
        QVERIFY(panel->skewSlider()->spinBox()->toolTip().contains(QStringLiteral("ns")));
        QVERIFY(panel->coresBox()->toolTip().contains(QStringLiteral("count")));

        // Walk the focus chain from Reset zoom: the toolbar, the snapshot row, the tabs, the table, the panel top to bottom.
        QList<QWidget *> order;
        QWidget *w = view->resetButton();
        for (int guard = 0; guard < 500 && order.size() < 80; ++guard) {
            if (w->focusPolicy() & Qt::TabFocus)
                order << w;
            w = w->nextInFocusChain();
            if (w == view->resetButton())
                break;
        }
        auto at = [&](QWidget *x) { return order.indexOf(x); };
        const QList<QWidget *> expected { view->resetButton(), view->criticalPathBox(), view->arrowsBox(),
            view->snapshotBar()->pinButton(), view->snapshotBar()->comboBox(), view->bottomTabs()->tabBar(), view->table(),
            panel->throughputSlider(Pipe::S)->slider(), panel->throughputSlider(Pipe::S)->spinBox(),
            panel->initSlider(Pipe::S)->slider(), panel->throughputSlider(Pipe::MTE2)->slider(),
            panel->throughputSlider(Pipe::MTE3)->spinBox(), panel->busModeBox(), panel->busSlider()->slider(),
            panel->writeSlider()->spinBox(), panel->coresBox(), panel->skewSlider()->slider(), panel->skewSlider()->spinBox() };
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QVERIFY2(at(expected[i]) >= 0, qPrintable(QStringLiteral("not in the tab order: %1").arg(i)));
            if (i > 0)
                QVERIFY2(at(expected[i - 1]) < at(expected[i]), qPrintable(QStringLiteral("out of order at %1").arg(i)));
        }
    }

    // The review bundle: the chart and the tornado as SVG, the comparison and sensitivity CSVs from the core.
    void reviewBundle()
    {
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(window.openFile(example("vector-add-2cores.json"), nullptr));
        TimelineView *view = timelineOf(window);
        view->document()->pinSnapshot(QStringLiteral("wide \"bus\""));
        view->document()->setBusBandwidth(view->document()->machine().busGBps / 3);
        QString error;
        const QString folder = dir.filePath(QStringLiteral("bundle"));
        QVERIFY2(window.exportReviewBundle(folder, &error), qPrintable(error));
        const QDir bundle(folder);
        for (const char *name : { "verrocchio-timeline.svg", "verrocchio-timeline.png", "timeline-sensitivity.svg",
                 "timeline-sensitivity.png", "timeline-sensitivity.csv", "timeline-snapshots.csv",
                 "timeline-machine.json", "timeline-snapshot-1-machine.json" })
            QVERIFY2(QFileInfo(bundle.filePath(QLatin1String(name))).size() > 0, name);
        auto read = [&](const char *name) {
            QFile f(bundle.filePath(QLatin1String(name)));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        const auto rows = sensitivity(view->document()->trace(), view->document()->machine(), 0.1);
        const QStringList tornado = read("timeline-sensitivity.csv").split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(tornado.size(), qsizetype(rows.size()) + 1);
        QVERIFY(tornado[1].startsWith(QStringLiteral("\"%1\",%2,").arg(QString::fromStdString(rows[0].label),
            QString::fromStdString(rows[0].pointer))));
        QVERIFY(tornado[1].endsWith(QString::number(rows[0].highNs, 'g', 17)));
        const QStringList snapshots = read("timeline-snapshots.csv").split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(snapshots.size(), 2);
        const Comparison c = compare(view->result(), simulate(view->document()->trace(), view->document()->snapshots()[0].state.machine));
        QVERIFY2(snapshots[1].startsWith(QStringLiteral("\"wide \"\"bus\"\"\",%1,%2,%3,").arg(
            QString::number(c.baseline.totalNs, 'g', 17), QString::number(c.current.totalNs, 'g', 17),
            QString::number(c.changeNs, 'g', 17))), qPrintable(snapshots[1]));
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

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
