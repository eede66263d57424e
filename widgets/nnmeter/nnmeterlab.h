// The kernel lab from the nn-Meter view (issue 12): builds predictors for this
// machine's CPU with core/nnmeter/lab's runKernelLab() on a worker thread.
//
// The user picks the kernel kinds to train, a time budget ("20s", "10m", as
// roofline-cli kernel-lab --budget) or a quick run (tiny kernels, about 20 s:
// to see it work, not to predict with), which networks are run end to end
// (the current one, or every network opened in the session) and the oneDNN
// threads. While it runs the GUI stays responsive: progress arrives as queued
// calls from the worker, and Cancel sets the lab's cancel flag, which it polls
// between timed repetitions (a fraction of a second): a cancelled run writes
// nothing and changes nothing.
//
// A finished run is written (AtomicFile, file by file, the device last) into
// a folder of its own under outputFolder(), so the device it produced is a
// file like any other: resultReady() hands it to the view, which opens it as
// one undoable step (and lists it in the device selector). Save Predictors
// writes the same files into a folder the user picks. The tab then shows the
// held-out accuracy of every kernel kind's forest beside the calibrated
// roofline's and the end-to-end networks, predicted against measured.
#pragma once

#include "nnmeter/lab/lab.h"

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;
class QThread;

namespace studio {

class NnmeterLabPanel : public QWidget
{
    Q_OBJECT
public:
    explicit NnmeterLabPanel(QWidget *parent = nullptr);
    ~NnmeterLabPanel() override; // cancels a run and waits for the worker

    // The networks to run end to end (and to draw the sampling prior from):
    // `all` false: the current one; true: every network opened in the session.
    using NetworkSource = std::function<std::vector<roofline::nnmeter::lab::LabNetwork>(bool all)>;
    void setNetworkSource(NetworkSource source) { m_networks = std::move(source); }

    // Where finished runs are written, one folder each (run-YYYYMMDD-HHMMSS);
    // by default the application's data folder, ".../kernel-lab".
    QString outputFolder() const { return m_outputFolder; }
    void setOutputFolder(const QString &folder) { m_outputFolder = folder; }

    // The options the controls describe; nullopt and `error` when they are not valid.
    std::optional<roofline::nnmeter::lab::LabOptions> options(QString *error) const;

    bool isRunning() const { return m_thread != nullptr; }
    // Starts a run with the controls' options (false and an error shown when invalid or running).
    bool start();
    void cancel();

    // The last finished run, its folder and its device file ("" when none).
    const roofline::nnmeter::lab::LabResult *lastResult() const { return m_result.get(); }
    QString lastRunFolder() const { return m_lastFolder; }
    // Writes the last run's files into `folder` (atomically, file by file, the device last).
    bool savePredictors(const QString &folder, QString *error) const;
    // Milliseconds from Cancel to the worker's end, for the last cancelled run (-1: none).
    double lastCancelLatencyMs() const { return m_cancelLatencyMs; }

    // Controls (tests drive them).
    QCheckBox *kindBox(const std::string &kind) const;
    QComboBox *budgetBox() const { return m_budget; }
    QCheckBox *quickBox() const { return m_quick; }
    QRadioButton *currentNetworkButton() const { return m_currentNetwork; }
    QRadioButton *allNetworksButton() const { return m_allNetworks; }
    QSpinBox *threadsBox() const { return m_threads; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *saveButton() const { return m_save; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *errorLabel() const { return m_error; }
    QLabel *resultLabel() const { return m_resultText; }
    QTableWidget *accuracyTable() const { return m_table; }
    QPlainTextEdit *log() const { return m_log; }

    // Shows an error under the buttons (the view's loading of a run reports here too); "" hides it.
    void showError(const QString &text);
    // The view calls it once it opened (or failed to open) the run's device.
    void setResultText(const QString &text);

signals:
    void runStarted();
    // A run finished and its files are written: the view opens `deviceFile`
    // (and `measuredFile`, "" when no network was run end to end).
    void resultReady(const QString &deviceFile, const QString &measuredFile, const QString &label);
    // After every run, finished, cancelled or failed.
    void runEnded(bool succeeded);

private:
    struct Outcome;
    void onProgress(const roofline::nnmeter::lab::LabProgress &progress);
    void onFinished();
    void setRunning(bool running);
    void showAccuracy();
    void saveDialog();

    NetworkSource m_networks;
    QString m_outputFolder;
    std::map<std::string, QCheckBox *> m_kinds;
    QComboBox *m_budget = nullptr;
    QCheckBox *m_quick = nullptr;
    QRadioButton *m_currentNetwork = nullptr;
    QRadioButton *m_allNetworks = nullptr;
    QSpinBox *m_threads = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_save = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_resultText = nullptr;
    QTableWidget *m_table = nullptr;
    QPlainTextEdit *m_log = nullptr;

    QThread *m_thread = nullptr;
    std::atomic<bool> m_cancelFlag{false};
    std::shared_ptr<Outcome> m_outcome; // written by the worker, read after it ended
    std::unique_ptr<roofline::nnmeter::lab::LabResult> m_result;
    QString m_lastFolder;
    QElapsedTimer m_cancelClock;
    QElapsedTimer m_runClock;
    double m_cancelLatencyMs = -1;
};

} // namespace studio
