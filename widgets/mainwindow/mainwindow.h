// The studio's main window: one tab per model view (see ModelView), a File
// menu that routes each file to the view of its format, examples, recent
// files, plot export, and a status-bar readout of the current view.
#pragma once

#include "plotexport.h"

#include <QMainWindow>
#include <QDialog>
#include <QPointer>

#include <vector>

class QAction;
class QDialog;
class QCustomPlot;
class QLabel;
class QMenu;
class QTabWidget;
class QDockWidget;
class QUndoGroup;
class QTimer;

namespace studio {

class GablesDocument;
class GablesView;
class ModelView;
class StatusReadout;
struct Preferences;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Loads a model file (or an embedded example) into the view of its format
    // and shows that view. A network file (.onnx, .prototxt, .pbtxt, our network
    // JSON) opens in the current view when it takes networks (Brouwer,
    // nn-Meter: ModelView::takesNetworks()), else in the AMAIX view. On failure all current work is kept and `error`
    // names the file, the field and the reason.
    bool openFile(const QString &path, QString *error, QStringList *warnings = nullptr);
    // After `path`, named on the command line, failed to open with `error`: the
    // view of its format (by suffix or "format" field) drops its start-up
    // example, shows its empty state with the reason, and becomes current.
    // Returns that view, or nullptr when no view can be told or it holds work.
    ModelView *showEmptyStateAfterFailedOpen(const QString &path, const QString &error);
    bool saveFile(const QString &path, QString *error); // the current view's model
    bool exportCurrentPlot(const QString &path, const ExportOptions &options, QString *error);
    bool applyOverride(const QString &assignment, QString *error); // to the current view
    StatusReadout *statusReadout() const { return m_statusReadout; } // the current view's summary

    // Session files ("format": "roofline-studio/session"): every view's open
    // models, snapshots and view state. Written atomically; a session that
    // fails to load changes nothing.
    bool saveSession(const QString &path, QString *error) const;
    bool openSession(const QString &path, QString *error);

    // A review bundle: a folder with every view's plots as SVG and PNG, the
    // data behind them as CSV, the inputs, the snapshots' comparison, and an
    // index.html that shows them with the app version and the date.
    bool exportReviewBundle(const QString &directory, QString *error);

    // Autosave: the session is written every `intervalMs` to autosavePath()
    // while the window is open; a clean close removes it, so one found at
    // start-up means the last run ended abnormally and can be recovered.
    void enableAutosave(int intervalMs = 60000);
    static QString autosavePath();
    // Written on a clean exit when Preferences::restoreLastSession is on.
    static QString lastSessionPath();
    bool writeAutosave();
    // Why the last autosave failed (path and reason); empty after a good one.
    QString autosaveError() const { return m_autosaveError; }

    ModelView *currentView() const;
    const std::vector<ModelView *> &views() const { return m_views; }
    void setCurrentView(ModelView *view);
    // The view a name chooses (--view): its session key, "gables", "amaix",
    // "timeline", "brouwer" or "nnmeter"; nullptr for any other name.
    ModelView *viewNamed(const QString &name) const;
    QStringList viewNames() const;
    GablesDocument *gablesDocument() const { return m_gablesDocument; }
    GablesView *gablesView() const { return m_gablesView; }
    QCustomPlot *currentPlot() const;
    QString statusText() const;
    QStringList recentFiles() const;
    QUndoGroup *undoGroup() const { return m_undoGroup; }
    // Help ▸ Keyboard Shortcuts (every menu shortcut, then the controls') and
    // Help ▸ Primer (the current view's primer(), also from the "?" beside the tabs).
    // Every plot of the window in the current theme (after applyTheme()).
    void refreshPlotTheme();
    QString shortcutsHtml() const;
    QString primerHtml(const ModelView *view) const;
    void showPrimer();
    QDialog *lastHelpDialog() const { return m_lastHelp; }
    // Unit prefixes and the sensitivity step, to every view (at start-up and after Edit ▸ Preferences).
    void applyPreferences(const Preferences &preferences);
    // The views whose model has changes that Save would write, in tab order.
    QList<ModelView *> unsavedViews() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override; // opens every dropped model file

private:
    void addView(ModelView *view);
    void createMenus();
    void updateTitle();
    void updateRecentMenu();
    void addRecentFile(const QString &path);
    bool maybeSave(ModelView *view);
    // Before quitting: one question for every unsaved view (Save All, Discard, Cancel).
    bool maybeSaveAll();
    bool saveBeforeClosing(ModelView *view); // Save's path, asking for a file name when it has none
    void openInteractive(const QString &path);
    void exportInteractive(ExportFormat format);
    ModelView *viewForFormat(const QString &formatId) const;

    QTabWidget *m_tabs = nullptr;
    QUndoGroup *m_undoGroup = nullptr; // Edit ▸ Undo/Redo act on the current view's stack
    QDockWidget *m_historyDock = nullptr;
    std::vector<ModelView *> m_views;
    GablesDocument *m_gablesDocument = nullptr;
    GablesView *m_gablesView = nullptr;
    StatusReadout *m_statusReadout = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_openAction = nullptr;
    QPointer<QDialog> m_lastHelp;
    void showHelp(const QString &title, const QString &html);
    QMenu *m_examplesMenu = nullptr;
    QTimer *m_autosave = nullptr;
    QString m_autosaveError;
};

} // namespace studio
