#include "mainwindow.h"
#include "statusreadout.h"
#include "common/session.h"

#include "amaixdocument.h"
#include "amaixview.h"
#include "brouwerdocument.h"
#include "brouwerview.h"
#include "common/jsondocument.h"
#include "diagnosticstext.h"
#include "readouthost.h"
#include "gablesdocument.h"
#include "gablesplot.h"
#include "gablesview.h"
#include "modelview.h"
#include "network/import.h"
#include "network/io.h"
#include "preferences.h"
#include "units.h"
#include "resources.h"
#include "roofline_version.h"
#include "plotstyle.h"

#include <qcustomplot.h>
#include <filesystem>
#include <functional>
#include <QVBoxLayout>
#include <QToolButton>
#include <QTextBrowser>
#include <QDialogButtonBox>
#include <QDialog>
#include "timelinedocument.h"
#include "timelineview.h"
#include "nnmeterdocument.h"
#include "nnmeterview.h"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>
#include <QUndoView>
#include <QUrl>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace studio {

namespace {
constexpr auto kSessionFormat = "roofline-studio/session";
} // namespace

namespace {
constexpr int kMaxRecentFiles = 8;
const auto kRecentKey = QStringLiteral("recentFiles");

// The "name" of an example file, for the Open Example menu.
QString exampleTitle(const QString &path)
{
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
        const QString name = object.value(QStringLiteral("name")).toString();
        if (!name.isEmpty())
            return name;
    }
    return QFileInfo(path).completeBaseName();
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowIcon(QIcon(resources::appIconPath()));
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    setCentralWidget(m_tabs);
    m_statusReadout = new StatusReadout(this); // one line: a new text measures nothing (statusreadout.h)
    statusBar()->addPermanentWidget(new ReadoutHost(m_statusReadout), 1); // new text: no window relayout

    m_undoGroup = new QUndoGroup(this);
    m_gablesDocument = new GablesDocument(this);
    m_gablesView = new GablesView(m_gablesDocument, this);
    addView(m_gablesView);
    addView(new AmaixView(new AmaixDocument(this), this));
    addView(new TimelineView(new TimelineDocument(this), this)); // Verrocchio
    addView(new NnmeterView(new NnmeterDocument(this), this));   // nn-Meter kernels
    addView(new BrouwerView(new BrouwerDocument(this), this));

    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_undoGroup->setActiveStack(currentView() ? currentView()->undoStack() : nullptr);
        updateTitle();
        m_statusReadout->setText(statusText());
    });
    createMenus();
    refreshPlotTheme();
    applyPreferences(Preferences::load());
    setAcceptDrops(true);
    updateTitle();
    resize(1400, 900);
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray()); // docks, e.g. History
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/view"), 0).toInt());
}

void MainWindow::applyPreferences(const Preferences &preferences)
{
    const bool prefixesChanged = automaticPrefixes() != preferences.automaticPrefixes;
    setAutomaticPrefixes(preferences.automaticPrefixes);
    const double step = preferences.sensitivityPercent / 100.0;
    for (ModelView *view : m_views) {
        if (view->sensitivityStep() != step)
            view->setSensitivityStep(step);
        if (prefixesChanged)
            view->refreshDisplay();
    }
}

void MainWindow::addView(ModelView *view)
{
    if (QUndoStack *stack = view->undoStack()) {
        m_undoGroup->addStack(stack);
        if (!m_undoGroup->activeStack())
            m_undoGroup->setActiveStack(stack);
    }
    m_views.push_back(view);
    m_tabs->addTab(view, view->title());
    connect(view, &ModelView::summaryChanged, this, [this, view] {
        if (view == currentView())
            m_statusReadout->setText(statusText());
    });
    connect(view, &ModelView::modifiedChanged, this, [this] { updateTitle(); });
    connect(view, &ModelView::openRequested, this, [this](const QString &path) { openInteractive(path); });
    connect(view, &ModelView::openDialogRequested, this, [this] { m_openAction->trigger(); });
    connect(view, &ModelView::filePathChanged, this, [this] { updateTitle(); });
}

ModelView *MainWindow::currentView() const
{
    return qobject_cast<ModelView *>(m_tabs->currentWidget());
}

void MainWindow::setCurrentView(ModelView *view)
{
    m_tabs->setCurrentWidget(view);
}

ModelView *MainWindow::viewNamed(const QString &name) const
{
    for (ModelView *view : m_views) {
        if (!view->sessionKey().isEmpty() && view->sessionKey() == name)
            return view;
    }
    return nullptr;
}

QStringList MainWindow::viewNames() const
{
    QStringList names;
    for (ModelView *view : m_views) {
        if (!view->sessionKey().isEmpty())
            names << view->sessionKey();
    }
    return names;
}

ModelView *MainWindow::viewForFormat(const QString &formatId) const
{
    for (ModelView *view : m_views) {
        if (view->formatIds().contains(formatId))
            return view;
    }
    return nullptr;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = m_openAction = file->addAction(tr("&Open…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(),
                                                          tr("Roofline Studio models (*.json *.onnx *.prototxt *.pbtxt *.csv *.txt);;"
                                                             "All files (*)"));
        if (!path.isEmpty())
            openInteractive(path);
    });
    open->setShortcut(QKeySequence::Open);

    m_examplesMenu = file->addMenu(tr("Open &Example"));
    for (ModelView *view : m_views) {
        QMenu *menu = m_views.size() > 1 ? m_examplesMenu->addMenu(view->title()) : m_examplesMenu;
        for (const QString &path : view->exampleFiles())
            menu->addAction(exampleTitle(path), this, [this, path] { openInteractive(path); });
    }
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    file->addSeparator();

    QAction *save = file->addAction(tr("&Save"), this, [this] {
        if (!currentView()->canSave())
            return;
        const QString path = currentView()->filePath();
        QString error;
        if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) {
            // Embedded examples are read-only: ask where to save.
            const QString target = QFileDialog::getSaveFileName(this, tr("Save SoC model"), QString(),
                                                                tr("Roofline Studio models (*.json)"));
            if (!target.isEmpty() && !saveFile(target, &error))
                QMessageBox::warning(this, tr("Save failed"), error);
        } else if (!saveFile(path, &error)) {
            QMessageBox::warning(this, tr("Save failed"), error);
        }
    });
    save->setShortcut(QKeySequence::Save);
    QAction *saveAs = file->addAction(tr("Save &As…"), this, [this] {
        const QString target = QFileDialog::getSaveFileName(this, tr("Save SoC model as"), QString(),
                                                            tr("Roofline Studio models (*.json)"));
        QString error;
        if (!target.isEmpty() && !saveFile(target, &error))
            QMessageBox::warning(this, tr("Save failed"), error);
    });
    saveAs->setShortcut(QKeySequence::SaveAs);
    for (ModelView *view : m_views)
        file->addActions(view->fileActions());

    file->addSeparator();
    file->addAction(tr("Open Sess&ion…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                          tr("Roofline Studio sessions (*.session.json *.json)"));
        QString error;
        if (!path.isEmpty() && !openSession(path, &error))
            QMessageBox::warning(this, tr("Could not open the session"), tr("%1\n\nYour current work is unchanged.").arg(error));
    });
    file->addAction(tr("Save Sessio&n…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save session"), QStringLiteral("review.session.json"),
                                                          tr("Roofline Studio sessions (*.session.json)"));
        QString error;
        if (!path.isEmpty() && !saveSession(path, &error))
            QMessageBox::warning(this, tr("Save failed"), error);
    });
    file->addSeparator();

    file->addAction(tr("Export Review &Bundle…"), this, [this] {
        const QString directory = QFileDialog::getExistingDirectory(this, tr("Folder for the review bundle"));
        QString error;
        if (directory.isEmpty())
            return;
        if (!exportReviewBundle(directory, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
        else
            statusBar()->showMessage(tr("Review bundle written to %1").arg(directory), 8000);
    });
    QMenu *exportMenu = file->addMenu(tr("&Export Plot"));
    exportMenu->addAction(tr("As &SVG…"), this, [this] { exportInteractive(ExportFormat::Svg); })
        ->setShortcut(QKeySequence(tr("Ctrl+E")));
    exportMenu->addAction(tr("As &PDF…"), this, [this] { exportInteractive(ExportFormat::Pdf); });
    exportMenu->addAction(tr("As P&NG…"), this, [this] { exportInteractive(ExportFormat::Png); });
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("&Preferences…"), this, [this] {
        PreferencesDialog dialog(Preferences::load(), this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        const Preferences chosen = dialog.preferences();
        chosen.save();
        applyTheme(chosen.theme);
        refreshPlotTheme();
        applyPreferences(chosen);
    })->setShortcut(QKeySequence::Preferences);

    // The history of the current view: click a step to return to it.
    m_historyDock = new QDockWidget(tr("History"), this);
    m_historyDock->setObjectName(QStringLiteral("history"));
    auto *history = new QUndoView(m_undoGroup, m_historyDock);
    history->setEmptyLabel(tr("<opened>"));
    m_historyDock->setWidget(history);
    addDockWidget(Qt::RightDockWidgetArea, m_historyDock);
    m_historyDock->hide();

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *showHistory = m_historyDock->toggleViewAction();
    showHistory->setShortcut(QKeySequence(tr("Ctrl+H")));
    view->addAction(showHistory);
    view->addAction(tr("&Reset Zoom"), this, [this] { currentView()->resetZoom(); })
        ->setShortcut(QKeySequence(tr("Ctrl+0")));
    view->addAction(tr("&Next View"), this, [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count()); })
        ->setShortcut(QKeySequence::NextChild);
    view->addAction(tr("&Previous View"), this, [this] {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    })->setShortcut(QKeySequence::PreviousChild);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showHelp(tr("Keyboard shortcuts"), shortcutsHtml()); })
        ->setShortcut(QKeySequence(tr("Ctrl+/")));
    help->addAction(tr("&Primer for This View"), this, [this] { showPrimer(); })->setShortcut(QKeySequence::HelpContents);
    // The same primer from the view: a "?" beside the tabs.
    auto *primerButton = new QToolButton(m_tabs);
    primerButton->setText(QStringLiteral("?"));
    primerButton->setToolTip(tr("What this view shows, what each control means, where the equations come from (F1)"));
    primerButton->setAutoRaise(true);
    connect(primerButton, &QToolButton::clicked, this, [this] { showPrimer(); });
    m_tabs->setCornerWidget(primerButton, Qt::TopRightCorner);
    help->addAction(tr("&About Roofline Studio"), this, [this] {
        QMessageBox::about(this, tr("About Roofline Studio"),
                           tr("<b>Roofline Studio %1</b><p>Interactive analytical performance models of SoCs and "
                              "deep-learning accelerators.</p><p>Gables: Hill &amp; Reddi, <i>Gables: A Roofline "
                              "Model for Mobile SoCs</i>, HPCA 2019.</p>")
                               .arg(QStringLiteral(ROOFLINE_VERSION)));
    });
}

bool MainWindow::openFile(const QString &path, QString *error, QStringList *warnings)
{
    auto openIn = [&](ModelView *view) {
        if (!view->openFile(path, error, warnings))
            return false;
        setCurrentView(view);
        if (!path.startsWith(QLatin1Char(':')))
            addRecentFile(QFileInfo(path).absoluteFilePath());
        updateTitle();
        m_statusReadout->setText(statusText());
        return true;
    };
    // A network (ONNX, Caffe) goes to the current view when it takes networks
    // (Brouwer, nn-Meter); else, like every file, to the view of its format.
    ModelView *networkView = currentView() && currentView()->takesNetworks() ? currentView() : nullptr;
    if (networkView && roofline::network::isImportedNetworkFile(path.toStdString()))
        return openIn(networkView);
    // Files a view recognises by content (Brouwer's measured CSVs), then
    // non-JSON formats (e.g. compact text traces) routed by suffix.
    for (ModelView *view : m_views) {
        if (view->claimsFile(path))
            return openIn(view);
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (ModelView *view : m_views) {
        if (!suffix.isEmpty() && view->textSuffixes().contains(suffix))
            return openIn(view);
    }
    QString formatError;
    const QString format = readFormatId(path, &formatError);
    if (format.isEmpty()) {
        if (error)
            *error = formatError;
        return false;
    }
    if (format == QLatin1String(kSessionFormat))
        return openSession(path, error);
    if (networkView && format == QLatin1String(roofline::network::kNetworkFormatId))
        return openIn(networkView); // our network JSON
    ModelView *view = viewForFormat(format);
    if (!view) {
        QStringList known;
        for (ModelView *v : m_views)
            known << v->formatIds();
        if (error)
            *error = tr("%1: /format: unknown format \"%2\"; this build opens %3").arg(path, format, known.join(QStringLiteral(", ")));
        return false;
    }
    return openIn(view);
}

ModelView *MainWindow::showEmptyStateAfterFailedOpen(const QString &path, const QString &error)
{
    ModelView *target = nullptr;
    const QString suffix = QFileInfo(path).suffix().toLower();
    ModelView *networkView = currentView() && currentView()->takesNetworks() ? currentView() : nullptr;
    if (networkView && roofline::network::isImportedNetworkFile(path.toStdString()))
        target = networkView; // where openFile() sent it; it keeps its work
    for (ModelView *view : m_views) {
        if (!target && !suffix.isEmpty() && view->textSuffixes().contains(suffix))
            target = view;
    }
    if (!target) {
        QString ignored;
        const QString format = readFormatId(path, &ignored); // empty when the file is no JSON at all
        if (networkView && format == QLatin1String(roofline::network::kNetworkFormatId))
            target = networkView;
        else
            target = format.isEmpty() ? nullptr : viewForFormat(format);
    }
    if (!target) // unreadable, no JSON, unknown format: the first view, empty unless a file opened there
        target = m_views.empty() ? nullptr : m_views.front();
    const QString note = tr("%1 did not open: %2").arg(QFileInfo(path).fileName(), error);
    if (!target || !target->clearStartupModel(note))
        return nullptr;
    setCurrentView(target);
    updateTitle();
    m_statusReadout->setText(statusText());
    return target;
}

bool MainWindow::saveSession(const QString &path, QString *error) const
{
    QJsonObject views;
    for (ModelView *view : m_views) {
        if (view->sessionKey().isEmpty())
            continue;
        const QJsonObject state = view->sessionState();
        if (!state.isEmpty()) // a view with nothing open takes no part
            views[view->sessionKey()] = state;
    }
    QJsonObject root{{QStringLiteral("format"), QLatin1String(kSessionFormat)},
                     {QStringLiteral("version"), 1},
                     {QStringLiteral("app_version"), QStringLiteral(ROOFLINE_VERSION)},
                     {QStringLiteral("current"), currentView() ? currentView()->sessionKey() : QString()},
                     {QStringLiteral("views"), views}};
    // Atomic: a crash or a full disk never leaves half a session.
    return saveFileAtomically(path, QJsonDocument(root).toJson(), error);
}

bool MainWindow::openSession(const QString &path, QString *error)
{
    // Read and checked in the core (core/common/session.h): format, version,
    // unknown keys and views, depth and size limits, errors by JSON pointer.
    std::vector<std::string> keys;
    for (ModelView *v : m_views)
        if (!v->sessionKey().isEmpty())
            keys.push_back(v->sessionKey().toStdString());
    const roofline::SessionLoad loaded = roofline::loadSessionFile(path.toStdString(), keys);
    if (!loaded.session) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    QJsonObject views;
    for (const auto &[key, state] : loaded.session->views)
        views.insert(QString::fromStdString(key),
                     QJsonDocument::fromJson(QByteArray::fromStdString(
                                                 state.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)))
                         .object());
    const QString current = QString::fromStdString(loaded.session->current);
    // Each view checks its whole state before changing anything; if a later
    // view refuses its part, the views restored before it go back to the work
    // they had, so a bad session changes nothing anywhere.
    std::vector<std::pair<ModelView *, QJsonObject>> restored;
    for (ModelView *view : m_views) {
        if (view->sessionKey().isEmpty() || !views.contains(view->sessionKey()))
            continue;
        QJsonObject previous = view->sessionState();
        if (!view->restoreSessionState(views.value(view->sessionKey()).toObject(), path, error)) {
            for (auto &[done, state] : restored) {
                if (!state.isEmpty())
                    done->restoreSessionState(state, tr("(the work open before %1)").arg(path), nullptr);
            }
            return false;
        }
        restored.emplace_back(view, std::move(previous));
    }
    for (ModelView *view : m_views) {
        if (!view->sessionKey().isEmpty() && view->sessionKey() == current)
            setCurrentView(view);
    }
    updateTitle();
    m_statusReadout->setText(statusText());
    return true;
}

bool MainWindow::exportReviewBundle(const QString &directory, QString *error)
{
    // Folders made through std::filesystem: its error says why (QDir::mkpath only says no).
    auto makeFolder = [&](const QString &path) {
        std::error_code ec;
        std::filesystem::create_directories(QFile::encodeName(path).toStdString(), ec);
        if (ec && error)
            *error = tr("%1: cannot create the folder: %2").arg(path, QString::fromLocal8Bit(ec.message().c_str()));
        return !ec;
    };
    QDir target(directory);
    if (!makeFolder(directory))
        return false;
    // The bundle is written whole into a scratch folder inside the target
    // (every file through saveFileAtomically()), then moved in file by file: a full disk
    // or any other failure leaves a previous bundle there exactly as it was,
    // never half old and half new, and never a folder without index.html.
    const QString scratch = target.filePath(QStringLiteral(".bundle-part-%1").arg(QCoreApplication::applicationPid()));
    QDir(scratch).removeRecursively();
    if (!makeFolder(scratch)) {
        if (error) // named as the user knows it: the bundle's folder
            error->replace(scratch, directory);
        return false;
    }
    const QDir dir(scratch);
    const bool written = [&]() -> bool {
        const QString stamp = QDateTime::currentDateTime().toString(Qt::ISODate);
        QString html;
        html += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                               "<title>Roofline Studio review bundle</title>"
                               "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
                               "img{max-width:100%;border:1px solid #ccc}figure{margin:1.5em 0}"
                               "td,th{padding:2px 8px;text-align:left}</style></head><body>\n");
        html += QStringLiteral("<h1>Roofline Studio review bundle</h1>\n<p>Roofline Studio %1, exported %2.</p>\n")
                    .arg(QStringLiteral(ROOFLINE_VERSION), stamp);
        for (ModelView *view : m_views) {
            html += QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n").arg(view->title().toHtmlEscaped(), view->summary().toHtmlEscaped());
            for (const ModelView::BundlePlot &plot : view->bundlePlots()) {
                ExportOptions options;
                options.title = plot.caption;
                options.description = QStringLiteral("Roofline Studio %1, %2. %3").arg(QStringLiteral(ROOFLINE_VERSION), stamp, view->summary());
                for (const char *suffix : {".svg", ".png"}) {
                    ExportFormat format;
                    const QString path = dir.filePath(plot.name + QLatin1String(suffix));
                    formatFromSuffix(path, &format);
                    if (!exportPlot(plot.plot, path, format, options, error))
                        return false;
                }
                html += QStringLiteral("<figure><a href=\"%1.svg\"><img src=\"%1.png\" alt=\"%2\"></a>"
                                       "<figcaption>%2 (<a href=\"%1.svg\">SVG</a>)</figcaption></figure>\n")
                            .arg(plot.name, plot.caption.toHtmlEscaped());
            }
            const QList<ModelView::BundleFile> files = view->bundleFiles();
            if (!files.isEmpty())
                html += QStringLiteral("<table><tr><th>file</th><th>content</th></tr>\n");
            for (const ModelView::BundleFile &file : files) {
                if (!saveFileAtomically(dir.filePath(file.name), file.content, error))
                    return false;
                html += QStringLiteral("<tr><td><a href=\"%1\">%1</a></td><td>%2</td></tr>\n")
                            .arg(file.name, file.caption.toHtmlEscaped());
            }
            if (!files.isEmpty())
                html += QStringLiteral("</table>\n");
        }
        html += QStringLiteral("<p>Every plot can be reproduced by opening its input files in Roofline Studio.</p>\n"
                               "</body></html>\n");
        return saveFileAtomically(dir.filePath(QStringLiteral("index.html")), html.toUtf8(), error);
    }();
    if (!written) {
        QDir(scratch).removeRecursively();
        if (error) // name the file the user asked for, not the scratch copy
            error->replace(scratch, target.path());
        return false;
    }
    // index.html last: the files it links are in place before it is.
    QStringList names = dir.entryList(QDir::Files | QDir::Hidden, QDir::Name);
    names.removeAll(QStringLiteral("index.html"));
    names.append(QStringLiteral("index.html"));
    for (const QString &name : names) {
        const QByteArray from = QFile::encodeName(dir.filePath(name));
        const QByteArray to = QFile::encodeName(target.filePath(name));
        if (std::rename(from.constData(), to.constData()) != 0) {
            const int why = errno;
            QDir(scratch).removeRecursively();
            if (error)
                *error = tr("%1: cannot replace the file: %2").arg(target.filePath(name), QString::fromLocal8Bit(std::strerror(why)));
            return false;
        }
    }
    QDir(scratch).removeRecursively();
    return true;
}

QString MainWindow::lastSessionPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/last.session.json");
}

QString MainWindow::autosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave.session.json");
}

bool MainWindow::writeAutosave()
{
    QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
    QString error;
    const bool saved = saveSession(autosavePath(), &error);
    // A failing autosave is said, with the path and the reason, every time it
    // fails (the previous autosave file stays as it was: the write is atomic).
    if (!saved)
        statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 15000);
    m_autosaveError = saved ? QString() : error;
    return saved;
}

void MainWindow::enableAutosave(int intervalMs)
{
    if (!m_autosave) {
        m_autosave = new QTimer(this);
        connect(m_autosave, &QTimer::timeout, this, &MainWindow::writeAutosave);
    }
    m_autosave->start(intervalMs);
}

bool MainWindow::saveFile(const QString &path, QString *error)
{
    if (!currentView()->saveFile(path, error))
        return false;
    addRecentFile(QFileInfo(path).absoluteFilePath());
    return true;
}

bool MainWindow::applyOverride(const QString &assignment, QString *error)
{
    return currentView()->applyOverride(assignment, error);
}

QCustomPlot *MainWindow::currentPlot() const
{
    return currentView()->exportPlot();
}

bool MainWindow::exportCurrentPlot(const QString &path, const ExportOptions &options, QString *error)
{
    ExportFormat format;
    if (!formatFromSuffix(path, &format)) {
        if (error)
            *error = tr("%1: unknown export format; use .svg, .pdf or .png").arg(path);
        return false;
    }
    ModelView *view = currentView();
    view->flushPendingUpdate();
    if (view->showsEmptyState()) {
        if (error)
            *error = tr("%1: nothing to export: the %2 view has no model open").arg(path, view->title());
        return false;
    }
    ExportOptions withMeta = options;
    if (withMeta.title.isEmpty())
        withMeta.title = view->exportTitle();
    if (withMeta.description.isEmpty())
        withMeta.description = QStringLiteral("Roofline Studio %1. %2").arg(QStringLiteral(ROOFLINE_VERSION), view->summary());
    return exportPlot(view->exportPlot(), path, format, withMeta, error);
}

QString MainWindow::statusText() const
{
    return currentView() ? currentView()->summary() : QString();
}

void MainWindow::openInteractive(const QString &path)
{
    // Files routed by suffix (CSV, text traces, ONNX, Caffe) are not JSON: not read here
    // (a 100 MB ONNX model would be read twice, once on the GUI thread).
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool bySuffix = !suffix.isEmpty()
        && std::any_of(m_views.begin(), m_views.end(), [&](ModelView *v) { return v->textSuffixes().contains(suffix); });
    QString formatError;
    const QString format = bySuffix ? QString() : readFormatId(path, &formatError);
    // A network opened in the current view (takesNetworks()) is one undoable step there: nothing to save first.
    const bool networkHere = currentView() && currentView()->takesNetworks()
        && format == QLatin1String(roofline::network::kNetworkFormatId);
    if (ModelView *target = bySuffix || networkHere ? nullptr : viewForFormat(format); target && !maybeSave(target))
        return;
    QString error;
    QStringList warnings;
    if (!openFile(path, &error, &warnings)) {
        QMessageBox::warning(this, tr("Could not open the file"),
                             tr("%1\n\nYour current model is unchanged.").arg(error));
        return;
    }
    if (!warnings.isEmpty())
        statusBar()->showMessage(warnings.join(QLatin1Char(' ')), 15000);
}

void MainWindow::exportInteractive(ExportFormat format)
{
    const QString suffix = format == ExportFormat::Svg ? QStringLiteral("svg")
        : format == ExportFormat::Pdf                  ? QStringLiteral("pdf")
                                                       : QStringLiteral("png");
    QString base = QFileInfo(currentView()->filePath()).completeBaseName();
    if (base.isEmpty())
        base = QStringLiteral("roofline");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), base + QLatin1Char('.') + suffix,
                                                      tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (path.isEmpty())
        return;
    QString error;
    const Preferences preferences = Preferences::load();
    ExportOptions options;
    options.width = preferences.exportWidth;
    options.height = preferences.exportHeight;
    options.pngScale = preferences.pngScale;
    if (!exportCurrentPlot(path, options, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::refreshPlotTheme()
{
    for (QCustomPlot *plot : findChildren<QCustomPlot *>()) {
        installPlotTheme(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QString MainWindow::shortcutsHtml() const
{
    QString rows;
    std::function<void(const QList<QAction *> &, const QString &)> walk = [&](const QList<QAction *> &actions,
                                                                              const QString &path) {
        for (QAction *action : actions) {
            QString text = action->text();
            text.remove(QLatin1Char('&'));
            if (action->menu()) {
                walk(action->menu()->actions(), path.isEmpty() ? text : path + QStringLiteral(" ▸ ") + text);
                continue;
            }
            if (action->shortcut().isEmpty())
                continue;
            rows += QStringLiteral("<tr><td>%1 ▸ %2</td><td><b>%3</b></td></tr>")
                        .arg(path.toHtmlEscaped(), text.toHtmlEscaped(),
                             action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped());
        }
    };
    walk(menuBar()->actions(), QString());
    const QList<QPair<QString, QString>> controls = {
        {tr("Pin a snapshot of the current design"), tr("Ctrl+P")},
        {tr("Slider: drag finer (ten times)"), tr("Shift+drag")},
        {tr("Slider: step by 1 % / 10 %"), tr("Left, Right / Page Up, Page Down")},
        {tr("Spin box: type an exact value"), tr("Tab to it, type, Enter")},
        {tr("Plot: pan / zoom"), tr("drag / mouse wheel")},
        {tr("Plot: reset the zoom"), tr("double-click, or Ctrl+0")},
        {tr("Plot: exact values"), tr("hover")},
    };
    for (const auto &[what, keys] : controls)
        rows += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>").arg(what.toHtmlEscaped(), keys.toHtmlEscaped());
    return QStringLiteral("<table cellspacing='4'>%1</table>").arg(rows);
}

QString MainWindow::primerHtml(const ModelView *view) const
{
    return view ? view->primer() : QString();
}

void MainWindow::showPrimer()
{
    if (ModelView *view = currentView())
        showHelp(tr("Primer: %1").arg(view->title()), primerHtml(view));
}

void MainWindow::showHelp(const QString &title, const QString &html)
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *text = new QTextBrowser(dialog);
    text->setHtml(html);
    text->setOpenExternalLinks(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(640, 520);
    m_lastHelp = dialog;
    dialog->show();
}

void MainWindow::updateTitle()
{
    ModelView *view = currentView();
    if (!view)
        return;
    const QString name = view->filePath().isEmpty() ? tr("untitled") : QFileInfo(view->filePath()).fileName();
    setWindowTitle(tr("%1[*] — %2 — Roofline Studio").arg(name, view->title()));
    setWindowModified(view->isModified());
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentKey, files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString &path : files) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openInteractive(path); })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
    for (ModelView *view : m_views)
        view->setRecentFiles(files);
}

bool MainWindow::maybeSave(ModelView *view)
{
    if (!view->isModified() || !view->canSave())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The %1 model has unsaved changes. Save them first?").arg(view->title()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Discard)
        return true;
    return saveBeforeClosing(view);
}

bool MainWindow::saveBeforeClosing(ModelView *view)
{
    QString path = view->filePath();
    if (path.isEmpty() || path.startsWith(QLatin1Char(':')))
        path = QFileDialog::getSaveFileName(this, tr("Save model"), QString(), tr("Roofline Studio models (*.json)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!view->saveFile(path, &error)) {
        QMessageBox::warning(this, tr("Save failed"), error);
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    return true;
}

QList<ModelView *> MainWindow::unsavedViews() const
{
    QList<ModelView *> unsaved;
    for (ModelView *view : m_views) {
        if (view->isModified() && view->canSave())
            unsaved.append(view);
    }
    return unsaved;
}

bool MainWindow::maybeSaveAll()
{
    const QList<ModelView *> unsaved = unsavedViews();
    if (unsaved.isEmpty())
        return true;
    if (unsaved.size() == 1)
        return maybeSave(unsaved.front());
    QStringList lines;
    for (ModelView *view : unsaved) {
        const QString path = view->filePath();
        const QString file = path.isEmpty() ? tr("untitled")
            : path.startsWith(QLatin1Char(':'))  ? tr("%1, an example").arg(QFileInfo(path).fileName())
                                                 : QFileInfo(path).fileName();
        lines << QStringLiteral("• %1 (%2)").arg(view->title(), file);
    }
    QMessageBox box(QMessageBox::Question, tr("Unsaved changes"),
                    tr("%1 models have unsaved changes. Save them before quitting?").arg(unsaved.size()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedChangesDialog"));
    box.setInformativeText(lines.join(QLatin1Char('\n')));
    box.button(QMessageBox::Save)->setText(tr("Save All"));
    box.button(QMessageBox::Discard)->setText(tr("Discard All"));
    box.setDefaultButton(QMessageBox::Save);
    const int answer = box.exec();
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Discard)
        return true;
    for (ModelView *view : unsaved) {
        if (!saveBeforeClosing(view))
            return false; // those saved so far stay saved; the window stays open
    }
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl &url) { return url.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList imports;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (roofline::network::isImportedNetworkFile(path.toStdString()))
            imports << path;
        else
            openInteractive(path);
    }
    // An ONNX/Caffe import runs its own event loop: opened after the drop returns
    // (the drag source is not held waiting), one after the other.
    if (!imports.isEmpty())
        QMetaObject::invokeMethod(this, [this, imports] {
            for (const QString &path : imports)
                openInteractive(path);
        }, Qt::QueuedConnection);
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSaveAll()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/view"), m_tabs->currentIndex());
    if (m_autosave)
        QFile::remove(autosavePath()); // a clean exit: nothing to recover
    if (Preferences::load().restoreLastSession) {
        QDir().mkpath(QFileInfo(lastSessionPath()).absolutePath());
        saveSession(lastSessionPath(), nullptr);
    }
    event->accept();
}

} // namespace studio
