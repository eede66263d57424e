// The AMAIX design-space sweep: one or two accelerator parameters over a
// range, evaluated in the background by core/amaix/sweep.h's runSweep() on a
// std::thread, with progress, cancel and a generation counter that drops
// stale results. One parameter: FPS as a line; two: a heat map of FPS. The
// infeasible region is shaded, the current configuration marked, and a click
// applies the clicked configuration to the document.
#pragma once

#include "amaix/sweep.h"

#include <qcustomplot.h>

#include <QWidget>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace studio {

class AmaixDocument;

// Values of one axis: log or linear, rounded and de-duplicated for integral parameters.
std::vector<double> sweepValues(double from, double to, int count, bool logarithmic, bool integer);

class AmaixSweepPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AmaixSweepPanel(AmaixDocument *document, QWidget *parent = nullptr);
    ~AmaixSweepPanel() override;

    // The parameters offered (pointers, labels, whether integral); keeps the choice when still offered.
    void setParameters(const QStringList &pointers, const QStringList &labels, const std::vector<bool> &integer);
    void markCurrent(); // the current configuration's marker, after an edit
    bool isConstantArea(int axis) const; // the x axis sweeps the T_k × T_c = const family

    void run();
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }
    const roofline::amaix::SweepResult &result() const { return m_result; }
    const roofline::amaix::SweepSpec &spec() const { return m_spec; }
    // Applies a finished point's configuration (what a click does).
    bool applyPoint(std::size_t index);

    QCustomPlot *plot() const { return m_plot; }
    QCPGraph *lineGraph() const { return m_line; }
    QCPColorMap *heatMap() const { return m_map; }
    QComboBox *parameterBox(int axis) const { return m_axes[axis].parameter; }
    QDoubleSpinBox *fromBox(int axis) const { return m_axes[axis].from; }
    QDoubleSpinBox *toBox(int axis) const { return m_axes[axis].to; }
    QSpinBox *countBox(int axis) const { return m_axes[axis].count; }
    QCheckBox *secondAxisBox() const { return m_second; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }

signals:
    void finished(); // a sweep ended (completed or cancelled) and its result is shown

private:
    struct AxisControls
    {
        QComboBox *parameter = nullptr;
        QDoubleSpinBox *from = nullptr;
        QDoubleSpinBox *to = nullptr;
        QSpinBox *count = nullptr;
        QCheckBox *log = nullptr;
    };
    AxisControls makeAxis(int axis, QWidget *parent);
    void resetRange(int axis);
    void joinWorker();
    void onFinished(quint64 generation, roofline::amaix::SweepResult result);
    void showResult();
    void replotIfShown();
    void onPlotClicked(QMouseEvent *event);

    AmaixDocument *m_document;
    AxisControls m_axes[2];
    std::vector<bool> m_integer; // per offered parameter
    std::string macTkPointer() const; // T_k of the data type in use
    QCheckBox *m_second = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QCustomPlot *m_plot = nullptr;
    QCPGraph *m_line = nullptr;
    QCPGraph *m_infeasible = nullptr; // 1-D: markers at infeasible values
    QCPGraph *m_current = nullptr;
    QCPColorMap *m_map = nullptr;
    QCPColorScale *m_scale = nullptr;
    std::vector<QCPItemRect *> m_shades;

    roofline::amaix::SweepSpec m_spec;
    roofline::amaix::SweepResult m_result;
    roofline::amaix::Accelerator m_sweptAccelerator; // the accelerator the result belongs to
    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_scaleInLayout = false;
};

} // namespace studio
