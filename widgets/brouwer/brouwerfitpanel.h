// The Brouwer view's fit panel: fits a device on the loaded measurements
// (core's fitDevice: feature engineering by OLS with optional bagging, or
// LASSO over a polynomial expansion with λ fixed or cross-validated, seed
// §3.2–3.3) on a worker thread, with progress and cancel, while the window
// stays responsive. The result becomes the current device; "Save device…"
// writes it as a device file, atomically.
#pragma once

#include "brouwer/fit.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QThread;

namespace studio {

class BrouwerDocument;

class BrouwerFitPanel : public QWidget
{
    Q_OBJECT
public:
    explicit BrouwerFitPanel(BrouwerDocument *document, QWidget *parent = nullptr);
    ~BrouwerFitPanel() override;

    // The options the controls describe.
    roofline::brouwer::FitOptions options() const;
    bool isRunning() const { return m_thread != nullptr; }

    QComboBox *modelBox() const { return m_model; }
    QSpinBox *orderBox() const { return m_order; }
    QCheckBox *pcaBox() const { return m_pca; }
    QSpinBox *bootstrapBox() const { return m_bootstrap; }
    QCheckBox *crossValidateBox() const { return m_cv; }
    QDoubleSpinBox *lambdaBox() const { return m_lambda; }
    QSpinBox *foldsBox() const { return m_folds; }
    QPushButton *fitButton() const { return m_fit; }
    // Leave-one-network-out cross-validation of the model the controls describe
    // (core's leaveOneNetworkOut, as brouwer-fit --cv), on the worker thread:
    // per held-out network the MAPE in log and linear space, then the pooled row.
    QPushButton *crossValidateButton() const { return m_crossValidate; }
    QTableWidget *cvTable() const { return m_cvTable; }
    const roofline::brouwer::CvReport &lastCvReport() const { return m_cvReport; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *saveButton() const { return m_save; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }

    void refresh(); // after the document changed: what can be fitted, saved

public slots:
    void startFit();
    void startCrossValidation();
    void cancelFit(); // the fit or the cross-validation running

signals:
    void finished(bool fitted); // false: cancelled or failed
    void crossValidated(bool completed); // false: cancelled or nothing to validate
    void message(const QString &text);
    void saveRequested();

private:
    void updateEnabled();
    // Progress reports from the worker, delivered on the GUI thread.
    std::function<void(int, int)> progressReporter();
    void showCvReport();

    BrouwerDocument *m_document;
    QComboBox *m_model = nullptr;
    QSpinBox *m_order = nullptr;
    QCheckBox *m_pca = nullptr;
    QSpinBox *m_bootstrap = nullptr;
    QCheckBox *m_cv = nullptr;
    QDoubleSpinBox *m_lambda = nullptr;
    QSpinBox *m_folds = nullptr;
    QPushButton *m_fit = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_crossValidate = nullptr;
    QTableWidget *m_cvTable = nullptr;
    roofline::brouwer::CvReport m_cvReport;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

} // namespace studio
