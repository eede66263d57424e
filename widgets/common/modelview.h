// What the main window needs from a model's view: one tab per model (Gables,
// AMAIX, the Verrocchio timeline), each opening its own file formats and
// exporting its own main plot. A new model plugs in by implementing this and
// being added in MainWindow's constructor.
#pragma once

#include "common/diagnostics.h"
#include "diagnosticstext.h"

#include <QJsonObject>
#include <QStringList>
#include <QWidget>

#include <string>
#include <utility>

class QAction;
class QCustomPlot;
class QUndoStack;

namespace studio {

class ModelView : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    virtual QString title() const = 0;           // the tab's title
    virtual QStringList formatIds() const = 0;   // "format" values of the files this view opens
    virtual QStringList textSuffixes() const { return {}; } // non-JSON files it opens, by suffix ("txt")
    virtual QStringList exampleFiles() const = 0; // embedded examples for File ▸ Open Example
    // A file this view recognises by its content (e.g. a CSV by its header),
    // asked before files are routed by suffix; false by default.
    virtual bool claimsFile(const QString &path) const { Q_UNUSED(path); return false; }
    // True when the view takes network files (.onnx, .prototxt, .pbtxt, our
    // network JSON) as its network, through openFile(). The main window opens a
    // network file in the current view when it takes networks (Brouwer,
    // nn-Meter), else in the view of the file's format (AMAIX).
    virtual bool takesNetworks() const { return false; }

    // Loads one file of a format this view opens. On failure the current
    // model stays as it was and `error` names the file, the field and the reason.
    virtual bool openFile(const QString &path, QString *error, QStringList *warnings) = 0;
    virtual bool canSave() const { return false; }
    virtual bool saveFile(const QString &path, QString *error);
    virtual QString filePath() const = 0; // what the window title shows
    // Entries the view adds to the File menu (AMAIX: Save Network As…), owned by the view.
    virtual QList<QAction *> fileActions() const { return {}; }
    virtual bool isModified() const { return false; }

    // Session files and autosave: everything the view has open (models,
    // snapshots, view state), keyed by sessionKey(). A view that returns an
    // empty key takes no part. Restoring checks everything before changing
    // anything, so a bad session leaves the current work as it was.
    virtual QString sessionKey() const { return {}; }
    virtual QJsonObject sessionState() const { return {}; }
    virtual bool restoreSessionState(const QJsonObject &state, const QString &sessionFile, QString *error);

    // The view's edits as undoable steps, or nullptr if it has none.
    virtual QUndoStack *undoStack() const { return nullptr; }

    // The relative step of the sensitivity tornado (Edit ▸ Preferences; 0.1 is
    // ±10 %). A view with a tornado overrides this to recompute it.
    virtual void setSensitivityStep(double relativeStep) { m_sensitivityStep = relativeStep; }
    double sensitivityStep() const { return m_sensitivityStep; }
    // Redraws numbers and axes after a display preference (unit prefixes) changed.
    virtual void refreshDisplay() {}

    // Applies "POINTER=VALUE" as the command line's --set does.
    virtual bool applyOverride(const QString &assignment, QString *error);

    virtual QCustomPlot *exportPlot() const = 0; // the plot File ▸ Export writes
    virtual QString exportTitle() const = 0;
    virtual QString summary() const = 0;         // one line for the status bar
    virtual void resetZoom() = 0;
    virtual void flushPendingUpdate() {}

    // Review bundles (File ▸ Export Review Bundle): the view's plots, written as
    // SVG and PNG, and files of data behind them (CSV), its inputs and tables.
    struct BundlePlot
    {
        QString name;    // file stem, e.g. "gables-roofline"
        QString caption; // shown in index.html
        QCustomPlot *plot = nullptr;
    };
    struct BundleFile
    {
        QString name; // e.g. "gables-terms.csv"
        QString caption;
        QByteArray content;
    };
    virtual QList<BundlePlot> bundlePlots(); // brings each plot up to date first
    virtual QList<BundleFile> bundleFiles() const { return {}; }

    // Help ▸ Primer: what the plot shows, what each control means, where the
    // equations come from (HTML).
    virtual QString primer() const { return {}; }

    // File ▸ Open Recent's list, for the view's empty state.
    virtual void setRecentFiles(const QStringList &paths) { Q_UNUSED(paths); }
    // True while the view has no model to draw and shows its empty state
    // (what to do next: the examples, Open a file…, the recent files).
    virtual bool showsEmptyState() const { return false; }
    // After a file named on the command line failed to open in this view: drop
    // the start-up example the view holds and show the empty state, with
    // `note` (why the file did not open) in it. Refuses (false) when the view
    // holds anything of the user's: an edit, an opened file or a snapshot.
    virtual bool clearStartupModel(const QString &note) { Q_UNUSED(note); return false; }

signals:
    // From the view's empty state: open this file (an example or a recent one),
    // or show the open dialog.
    void openRequested(const QString &path);
    void openDialogRequested();
    void summaryChanged();
    void modifiedChanged(bool modified);
    void filePathChanged();

protected:
    // The one way a view applies "POINTER=VALUE" (the command line's --set):
    // `apply` (the core's applyOverride for the model) changes a copy of
    // `model`; if it refuses, nothing changes and `error` holds its messages,
    // which name `file`, the field and the reason. Otherwise `commit` receives
    // the changed copy (the view's document records it as a step) and the view
    // is brought up to date at once.
    //
    //   return applyOverrideWith(m_document->soc(), path, assignment, error, roofline::gables::applyOverride,
    //                            [&](const Soc &soc) { m_document->setSoc(soc, path); });
    template<class Model, class Commit>
    bool applyOverrideWith(Model model, const QString &file, const QString &assignment, QString *error,
                           bool (*apply)(Model &, const std::string &, roofline::Diagnostics &), Commit &&commit)
    {
        roofline::Diagnostics diagnostics;
        diagnostics.setFile(file.toStdString());
        if (!apply(model, assignment.toStdString(), diagnostics)) {
            if (error)
                *error = errorsOf(diagnostics);
            return false;
        }
        std::forward<Commit>(commit)(std::move(model));
        flushPendingUpdate();
        return true;
    }

    double m_sensitivityStep = 0.1;
};

// The "format" field of a JSON model file, or an empty string with `error` set.
QString readFormatId(const QString &path, QString *error);

// Reads a whole file through Qt (so resource paths work) into `text`, held once
// while it is read; false with `error` set ("PATH: cannot open the file for reading: ...").
// Like the core's roofline::readTextFile: a file above kMaxModelFileBytes (or a
// device that goes on beyond it) is refused, a UTF-8 byte-order mark dropped.
bool readTextFile(const QString &path, std::string *text, QString *error);
// The same, giving the reason alone (empty when the file was read), for callers
// that name the file themselves (roofline::Diagnostics).
QString readWholeFile(const QString &path, std::string *text);
// The same for the core's readers: false with the file set and the reason as an error in `diagnostics`.
bool readTextFile(const QString &path, std::string *text, roofline::Diagnostics &diagnostics);

// A CSV file's header for a view's cheap "is this my format?" check: the first
// line within the first 64 KiB that is neither blank nor a '#' comment, trimmed,
// a byte-order mark dropped as readWholeFile does; empty if there is none or the
// file cannot be opened.
QByteArray csvHeaderLine(const QString &path);

} // namespace studio
