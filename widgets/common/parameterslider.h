// A labelled slider paired with a spin box for exact entry, linear or
// logarithmic. The slider gives the sweep, the spin box the exact number.
//
// A logarithmic slider spans at most kLogWindowDecades around the current
// value (the spin box keeps the whole range) and re-centres when a drag ends
// or the value is set, so a drag moves the value by about a decade per
// third of the slider rather than by many. Dragging with Shift held moves ten
// times finer. Arrow keys step 1 % (log) or 1 % of the range (linear); Page
// Up/Down 10 %. The spin box has a fixed width, so the slider never shrinks
// as its number grows.
#pragma once

#include <QWidget>

#include <limits>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace studio {

// Pure mapping between slider positions and values; tested without a window.
struct SliderScale
{
    double minimum = 0;
    double maximum = 1;
    bool logarithmic = false;
    int steps = 1000;

    int toPosition(double value) const;
    double toValue(int position) const;
};

inline constexpr double kLogWindowDecades = 2;
inline constexpr double kFineDragFactor = 0.1; // Shift-drag speed

class ParameterSlider : public QWidget
{
    Q_OBJECT
public:
    ParameterSlider(const QString &label, const QString &unit, SliderScale scale, int decimals,
                    QWidget *parent = nullptr);

    double value() const { return m_value; }
    // Updates both controls without emitting valueChanged.
    void setValue(double value);
    void setScale(SliderScale scale);
    // What the slider spans now: for a log slider, the window around the value.
    const SliderScale &scale() const { return m_scale; }
    // The whole range (the spin box's).
    const SliderScale &fullScale() const { return m_fullScale; }
    void setToolTipText(const QString &text);

    QSlider *slider() const { return m_slider; }
    QDoubleSpinBox *spinBox() const { return m_spinBox; }
    QLabel *label() const { return m_label; }

signals:
    void valueChanged(double value);
    void dragStarted();  // the slider's thumb was pressed
    void dragFinished(); // and released

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void recentre(); // the log window around m_value
    void onSliderMoved(int position);
    void onSpinBoxChanged(double value);

    SliderScale m_fullScale;
    SliderScale m_scale;
    double m_value = 0;
    double m_spinValue = std::numeric_limits<double>::quiet_NaN(); // last set into the spin box
    bool m_dragging = false;
    double m_dragPosition = 0; // fractional slider position during a drag
    int m_dragX = 0;
    QLabel *m_label = nullptr;
    QSlider *m_slider = nullptr;
    QDoubleSpinBox *m_spinBox = nullptr;
};

} // namespace studio
