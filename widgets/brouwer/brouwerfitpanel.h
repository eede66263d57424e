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
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
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
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *saveButton() const { return m_save; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }

    void refresh(); // after the document changed: what can be fitted, saved

public slots:
    void startFit();
    void cancelFit();

signals:
    void finished(bool fitted); // false: cancelled or failed
    void message(const QString &text);
    void saveRequested();

private:
    void updateEnabled();

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
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

} // namespace studio
