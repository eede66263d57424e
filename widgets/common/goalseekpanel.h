// The "Goal seek" tab every view offers: pick a target (P_att, frame rate,
// time per inference, total time) and a parameter, and the view's core goal
// seek (core/*/goalseek.h) finds the value that reaches it, or says which
// bound stops it. "Apply" sets the value found, as one undoable step.
#pragma once

#include "common/goalseek.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace studio {

class GoalSeekPanel : public QWidget
{
    Q_OBJECT
public:
    struct Target
    {
        QString key;   // "patt", "fps", "time", "total"
        QString label; // "P_att", "Frame rate", ...
        QString unit;  // what the value box shows: "Gops/s", "FPS", "ms", "µs"
        double scale = 1; // value box × scale = the model's unit (ms → ns: 1e6)
    };
    struct Parameter
    {
        QString pointer; // as --set names it
        QString label;
    };
    // (target key, target in the model's unit, pointer) → the answer.
    using Seeker = std::function<roofline::GoalSeek(const QString &, double, const QString &)>;
    // Sets pointer = value in the view's document (one step); false with a message when refused.
    using Applier = std::function<bool(const QString &, double, QString *)>;

    explicit GoalSeekPanel(QWidget *parent = nullptr);

    void setTargets(const QList<Target> &targets);
    // Keeps the chosen parameter when it is still offered.
    void setParameters(const QList<Parameter> &parameters);
    void setSeeker(Seeker seeker) { m_seeker = std::move(seeker); }
    void setApplier(Applier applier) { m_applier = std::move(applier); }
    // The target box's value, in its unit (e.g. when the view opens: the current result).
    void setTargetValue(double valueInBoxUnit);

    const roofline::GoalSeek &lastResult() const { return m_last; }
    QComboBox *targetBox() const { return m_target; }
    QDoubleSpinBox *valueBox() const { return m_value; }
    QComboBox *parameterBox() const { return m_parameter; }
    QPushButton *seekButton() const { return m_seek; }
    QPushButton *applyButton() const { return m_apply; }
    QLabel *resultLabel() const { return m_result; }

public slots:
    void seek();
    void apply();
    // The model changed: an earlier answer no longer holds.
    void invalidate();

private:
    void showUnit(int index); // the unit label and the value box's tooltip

    QList<Target> m_targets;
    QComboBox *m_target = nullptr;
    QDoubleSpinBox *m_value = nullptr;
    QLabel *m_unit = nullptr;
    QComboBox *m_parameter = nullptr;
    QPushButton *m_seek = nullptr;
    QPushButton *m_apply = nullptr;
    QLabel *m_result = nullptr;
    Seeker m_seeker;
    Applier m_applier;
    roofline::GoalSeek m_last;
    bool m_applying = false;
};

} // namespace studio
