// The nn-Meter view driven through its real controls, offscreen: rule check
// boxes detect the kernels again and change the tree and the bars; the totals
// equal the core's; devices and networks open from the selectors; bad files
// keep the current work; sessions round-trip.
//
// This header holds what the nn-Meter view tests share; each tst_*.cpp beside
// it tests one group of features.
#pragma once

#include "goalseekpanel.h"
#include "mainwindow.h"
#include "nnmeterdocument.h"
#include "nnmeterpanel.h"
#include "nnmeterplot.h"
#include "nnmeterview.h"
#include "parameterslider.h"
#include "richreadoutlabel.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "testutils.h"

#include "network/import.h"
#include "nnmeter/io.h"
#include "nnmeter/parameters.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <map>

using namespace studio;
using namespace roofline::nnmeter;
namespace network = roofline::network;

inline QString nnExample(const char *name)
{
    return QStringLiteral(":/examples/nnmeter/") + QLatin1String(name);
}

inline QString onnxFixture(const char *name)
{
    return QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/onnx/") + QLatin1String(name) + QStringLiteral(".onnx");
}

// Waits for the view's coalesced update after an edit.
inline bool waitForUpdate(NnmeterView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 5000);
}

inline int countType(const Prediction &p, const std::string &type)
{
    int n = 0;
    for (const Kernel &k : p.detection.kernels)
        n += k.type == type;
    return n;
}

// The core's prediction for what the document holds.
inline Prediction corePrediction(const NnmeterDocument *document)
{
    return predictNetwork(document->network(), document->device(), document->rules());
}

// The device file as the core reads it from the source tree.
inline Device sourceDevice(const char *name)
{
    DeviceLoad loaded = loadDeviceFile(ROOFLINE_EXAMPLES_DIR "/nnmeter/" + std::string(name));
    return *loaded.device;
}
