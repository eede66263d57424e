// A labelled slider paired with a spin box for exact entry, linear or
// logarithmic. The slider gives the sweep, the spin box the exact number.
#pragma once

#include <QWidget>

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
    const SliderScale &scale() const { return m_scale; }
    void setToolTipText(const QString &text);

    QSlider *slider() const { return m_slider; }
    QDoubleSpinBox *spinBox() const { return m_spinBox; }
    QLabel *label() const { return m_label; }

signals:
    void valueChanged(double value);
    void dragStarted();  // the slider's thumb was pressed
    void dragFinished(); // and released

private:
    void onSliderMoved(int position);
    void onSpinBoxChanged(double value);

    SliderScale m_scale;
    double m_value = 0;
    QLabel *m_label = nullptr;
    QSlider *m_slider = nullptr;
    QDoubleSpinBox *m_spinBox = nullptr;
};

} // namespace studio
