// The Brouwer view driven through its real controls, offscreen: the memory
// slider moves the bars, the curve's current point and the totals (checked
// against the core's own numbers), regimes switch exactly where F crosses 0,
// measurements fill the scatter with the core's metrics, fits run on a worker
// thread and cancel, bad files keep the current work, sessions and exports
// hold the view's content.
//
// This header holds what the Brouwer view tests share; each tst_*.cpp beside
// it tests one group of features.
#pragma once

#include "brouwer/fit.h"
#include "brouwer/io.h"
#include "brouwer/model.h"
#include "brouwerdocument.h"
#include "brouwerfitpanel.h"
#include "brouwerpanel.h"
#include "brouwerplots.h"
#include "brouwertables.h"
#include "brouwerview.h"
#include "mainwindow.h"
#include "sensitivitychart.h"
#include "snapshotbar.h"
#include "testutils.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace studio;
using namespace roofline::brouwer;

inline BrouwerView *brouwerView(MainWindow &window)
{
    for (ModelView *view : window.views()) {
        if (auto *b = qobject_cast<BrouwerView *>(view))
            return b;
    }
    return nullptr;
}

inline bool waitForUpdate(BrouwerView *view, quint64 before)
{
    return QTest::qWaitFor([&] { return view->updateCount() > before; }, 3000);
}

// The core's result for the document as it stands, evaluated independently of the view.
inline Result coreResult(const BrouwerDocument &doc)
{
    return evaluate(*doc.device(), doc.network()->layers, doc.params());
}

inline int layerIndex(const BrouwerDocument &doc, const std::string &name)
{
    const auto &layers = doc.network()->layers;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        if (layers[i].name == name)
            return int(i);
    }
    return -1;
}

// The value the bars series plotted at layer `index` (0 when it has none there).
inline double barValue(QCPBars *bars, int index)
{
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
        if (int(std::lround(it->key)) == index)
            return it->value;
    }
    return 0;
}

inline int networkIndex(const BrouwerDocument &doc, const QString &name)
{
    const auto &networks = doc.networks();
    for (std::size_t i = 0; i < networks.size(); ++i) {
        if (networks[i]->name == name)
            return int(i);
    }
    return -1;
}

inline int deviceIndex(const BrouwerDocument &doc, const QString &suffix)
{
    const auto &devices = doc.devices();
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (devices[i].path.endsWith(suffix))
            return int(i);
    }
    return -1;
}

inline QStringList edgeCaffeMeasurements()
{
    const QDir dir(QStringLiteral(ROOFLINE_SOURCE_DIR "/tests/data/edgecaffe/measured"));
    QStringList files;
    for (const QString &name : dir.entryList({QStringLiteral("*linear-*.csv")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}
