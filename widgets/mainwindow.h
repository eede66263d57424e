// The studio's main window: one tab per model view (Gables now; AMAIX and the
// timeline plug in as further tabs), the File menu with examples, recent
// files and plot export, and a status-bar readout of the current result.
#pragma once

#include "plotexport.h"

#include <QMainWindow>

class QCustomPlot;
class QLabel;
class QMenu;
class QTabWidget;

namespace studio {

class GablesDocument;
class GablesView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Loads a model file or embedded example. On failure the current work is
    // kept and `error` names the file, the field and the reason.
    bool openFile(const QString &path, QString *error, QStringList *warnings = nullptr);
    bool saveFile(const QString &path, QString *error);
    bool exportCurrentPlot(const QString &path, const ExportOptions &options, QString *error);

    GablesDocument *gablesDocument() const { return m_gablesDocument; }
    GablesView *gablesView() const { return m_gablesView; }
    QCustomPlot *currentPlot() const;
    QString statusText() const;
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void updateTitle();
    void updateRecentMenu();
    void addRecentFile(const QString &path);
    bool maybeSave();
    void openInteractive(const QString &path);
    void exportInteractive(ExportFormat format);

    QTabWidget *m_tabs = nullptr;
    GablesDocument *m_gablesDocument = nullptr;
    GablesView *m_gablesView = nullptr;
    QLabel *m_statusReadout = nullptr;
    QMenu *m_recentMenu = nullptr;
};

} // namespace studio
