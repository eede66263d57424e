// The Verrocchio timeline view driven through its real controls, offscreen:
// the bus slider moves the total and the bars, zooming keeps the layout
// consistent, level of detail bounds what is drawn, the SVG export holds one
// rectangle per drawn bar or merged group, every example opens, bad files keep
// the current work, hovering explains an instruction and clicking selects it
// in the table.
//
// This header holds what the timeline view tests share (includes, helpers);
// each tst_*.cpp beside it tests one group of features.
#pragma once

#include "common/allocator.h"
#include "eventcounter.h"
#include "mainwindow.h"
#include "parameterslider.h"
#include "richreadoutlabel.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "testutils.h"
#include "timelinedocument.h"
#include "timelinelayers.h"
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
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
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
#include <QThread>
#include <QWheelEvent>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <functional>

#include <sys/resource.h>

using namespace studio;
using namespace roofline::verrocchio;


inline QString example(const char *name)
{
    return QStringLiteral(ROOFLINE_EXAMPLES_DIR "/verrocchio/") + QLatin1String(name);
}

inline bool waitForUpdate(TimelineView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 5000);
}

// Waits until the newest request has been drawn (the worker may deliver stale results first).
inline bool waitForFresh(TimelineView *view, double expectedTotal)
{
    return QTest::qWaitFor(
        [&] { return testutils::relativelyEqual(view->result().totalNs, expectedTotal, 1e-12); }, 5000);
}

struct SvgRect {
    double x, y, width, height;
    QString fill;
};

// Every <rect> of an SVG with the fill of its enclosing group.
inline QList<SvgRect> svgRects(const QString &path)
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

inline TimelineView *timelineOf(MainWindow &window)
{
    return window.findChild<TimelineView *>();
}

// A trace whose simulation outlasts a few event-loop turns (2·10⁵ instructions, in the
// worker), with the feedback interval 0: every result that finishes may be drawn.
inline TimelineView *slowTraceShowingEveryResult(MainWindow &window, std::size_t instructions = 200000)
{
    TimelineView *view = timelineOf(window);
    view->document()->setTrace(syntheticVectorAdd(instructions, 2), QString());
    view->flushPendingUpdate();
    view->setFeedbackInterval(0);
    // The worker first maps the heap for the steps (some 10 ms at 2·10⁵
    // instructions; TimelinePlanCache::warmUp()): a drag started at once would
    // queue behind it, and only its last step would run. A user's drag starts later.
    if (!QTest::qWaitFor([&] { return view->workerSettled(); }, 10000))
        return nullptr;
    return view;
}

// The window shown at 1400×900 with the timeline view current; nullptr when
// it was never exposed.
inline TimelineView *shownTimeline(MainWindow &window)
{
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return nullptr;
    TimelineView *view = timelineOf(window);
    window.setCurrentView(view);
    QApplication::processEvents();
    return view;
}

// Drags a slider's thumb with the mouse from where it is by `dx` pixels in
// `steps` moves: press on the thumb, move, release, as a user does.
inline bool dragSlider(QSlider *slider, int dx, int steps)
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
inline QString editedSession(const QString &from, const QString &to, const std::function<void(QJsonObject &timeline)> &edit)
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
