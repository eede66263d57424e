// The Gables view driven through its real controls, offscreen: sliders move
// the plotted curves and the readout, fractions rebalance, examples open,
// bad files keep the current work, and exports hold the plot's content.
//
// This header holds what the Gables view tests share (includes, helpers);
// each tst_*.cpp beside it tests one group of features.
#pragma once

#include "gablesdocument.h"
#include "gablesparampanel.h"
#include "gablesplot.h"
#include "gablesview.h"
#include "goalseekpanel.h"
#include "snapshotbar.h"
#include "mainwindow.h"
#include "parameterslider.h"
#include "preferences.h"
#include "resources.h"
#include "roofline_version.h"
#include "gables/comparison.h"
#include "gables/io.h"
#include "sensitivitychart.h"
#include "gables/sensitivity.h"
#include "termschart.h"
#include "units.h"
#include "testutils.h"

#include <QApplication>
#include <QCheckBox>
#include <QDate>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamReader>

#include <cmath>

using namespace studio;
using namespace roofline::gables;


inline QString example(const char *name)
{
    return QStringLiteral(":/examples/gables/") + QLatin1String(name);
}

// Waits for the view's coalesced update after an edit.
inline bool waitForUpdate(GablesView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 2000);
}

// The window at 1400x900, shown, with the example open in the Gables view, laid out and
// painted (nullptr when the example does not open).
inline GablesView *showExample(MainWindow &window, const char *name)
{
    window.resize(1400, 900);
    window.show();
    if (!window.openFile(example(name), nullptr))
        return nullptr;
    GablesView *view = window.gablesView();
    window.setCurrentView(view);
    view->flushPendingUpdate();
    QApplication::processEvents();
    return view;
}

// Runs `edit` (a slider step, a typed value), waits for the view's update, then lets it paint.
template <typename Edit>
bool editAndSettle(GablesView *view, Edit &&edit)
{
    const quint64 before = view->updateCount();
    edit();
    if (!waitForUpdate(view, before))
        return false;
    QApplication::processEvents();
    return true;
}

inline double graphY(QCPGraph *graph, double x)
{
    // Graph data are sorted polylines; read the point at x exactly.
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        if (testutils::relativelyEqual(it->key, x, 1e-12))
            return it->value;
    }
    return std::nan("");
}
