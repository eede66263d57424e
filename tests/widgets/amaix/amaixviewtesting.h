// The AMAIX view driven through its real controls, offscreen: sliders move the
// markers, roofs and totals (checked against the core's own numbers), table and
// plot selection stay linked, the table model passes QAbstractItemModelTester,
// sweeps run and cancel, every example network opens on nv_full, bad files keep
// the current work, and exports hold the plot's content.
//
// This header holds what the AMAIX view tests share (includes, helpers);
// each tst_*.cpp beside it tests one group of features.
#pragma once

#include "amaix/comparison.h"
#include "amaix/io.h"
#include "amaix/layersummary.h"
#include "amaix/sensitivity.h"
#include "amaix/model.h"
#include "amaix/sweep.h"
#include "amaixdocument.h"
#include "amaixpanel.h"
#include "amaixplot.h"
#include "amaixsweep.h"
#include "amaixtablemodel.h"
#include "amaixview.h"
#include "eventcounter.h"
#include "mainwindow.h"
#include "parameterslider.h"
#include "resources.h"
#include "richreadoutlabel.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "testutils.h"
#include "units.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

using namespace studio;
using namespace roofline::amaix;
using roofline::Diagnostics;


inline QString example(const char *name)
{
    return QStringLiteral(":/examples/amaix/") + QLatin1String(name);
}

inline AmaixView *amaixView(MainWindow &window)
{
    for (ModelView *view : window.views()) {
        if (auto *amaix = qobject_cast<AmaixView *>(view))
            return amaix;
    }
    return nullptr;
}

inline bool waitForUpdate(AmaixView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 3000);
}

// The core's result for the document as it stands, evaluated independently of the view.
inline Result coreResult(const AmaixDocument &doc)
{
    return evaluate(doc.network(), doc.accelerator(), doc.options());
}

inline int conv1Row(AmaixView *view)
{
    return view->tableModel()->rowOfLayer(view->document()->network().indexOf("conv1"));
}

inline const LayerMarker *markerOfRow(AmaixPlot *plot, int row)
{
    for (const LayerMarker &m : plot->markers()) {
        if (m.row == row)
            return &m;
    }
    return nullptr;
}
