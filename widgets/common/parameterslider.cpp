#include "parameterslider.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace studio {

int SliderScale::toPosition(double value) const
{
    if (!std::isfinite(value))
        return 0;
    value = std::clamp(value, minimum, maximum);
    double t = 0;
    if (logarithmic)
        t = (std::log(value) - std::log(minimum)) / (std::log(maximum) - std::log(minimum));
    else
        t = (value - minimum) / (maximum - minimum);
    return int(std::lround(t * steps));
}

double SliderScale::toValue(int position) const
{
    const double t = std::clamp(double(position) / steps, 0.0, 1.0);
    if (logarithmic)
        return std::exp(std::log(minimum) + t * (std::log(maximum) - std::log(minimum)));
    return minimum + t * (maximum - minimum);
}

ParameterSlider::ParameterSlider(const QString &label, const QString &unit, SliderScale scale, int decimals,
                                 QWidget *parent)
    : QWidget(parent)
    , m_scale(scale)
    , m_label(new QLabel(label, this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spinBox(new QDoubleSpinBox(this))
{
    m_slider->setRange(0, m_scale.steps);
    m_slider->setMinimumWidth(120);
    m_spinBox->setDecimals(decimals);
    m_spinBox->setRange(m_scale.minimum, m_scale.maximum);
    m_spinBox->setKeyboardTracking(false);
    if (!unit.isEmpty())
        m_spinBox->setSuffix(QLatin1Char(' ') + unit);
    m_spinBox->setMinimumWidth(m_spinBox->fontMetrics().horizontalAdvance(QStringLiteral("000000.000 Gops/s")));
    if (m_scale.logarithmic)
        m_spinBox->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_label->setBuddy(m_spinBox);
    m_label->setMinimumWidth(m_label->fontMetrics().horizontalAdvance(QStringLiteral("Acceleration A ")));

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 0, 0);
    layout->addWidget(m_slider, 0, 1);
    layout->addWidget(m_spinBox, 0, 2);
    layout->setColumnStretch(1, 1);

    connect(m_slider, &QSlider::valueChanged, this, &ParameterSlider::onSliderMoved);
    connect(m_slider, &QSlider::sliderPressed, this, &ParameterSlider::dragStarted);
    connect(m_slider, &QSlider::sliderReleased, this, &ParameterSlider::dragFinished);
    connect(m_spinBox, &QDoubleSpinBox::valueChanged, this, &ParameterSlider::onSpinBoxChanged);
    setValue(m_scale.minimum);
}

void ParameterSlider::setValue(double value)
{
    if (!std::isfinite(value))
        return;
    m_value = value;
    const QSignalBlocker blockSlider(m_slider);
    const QSignalBlocker blockSpin(m_spinBox);
    m_slider->setValue(m_scale.toPosition(value));
    m_spinBox->setValue(value);
}

void ParameterSlider::setScale(SliderScale scale)
{
    m_scale = scale;
    const QSignalBlocker blockSlider(m_slider);
    const QSignalBlocker blockSpin(m_spinBox);
    m_slider->setRange(0, m_scale.steps);
    m_spinBox->setRange(m_scale.minimum, m_scale.maximum);
    setValue(m_value);
}

void ParameterSlider::setToolTipText(const QString &text)
{
    m_label->setToolTip(text);
    m_slider->setToolTip(text);
    m_spinBox->setToolTip(text);
}

void ParameterSlider::onSliderMoved(int position)
{
    m_value = m_scale.toValue(position);
    {
        const QSignalBlocker blockSpin(m_spinBox);
        m_spinBox->setValue(m_value);
    }
    emit valueChanged(m_value);
}

void ParameterSlider::onSpinBoxChanged(double value)
{
    m_value = value;
    {
        const QSignalBlocker blockSlider(m_slider);
        m_slider->setValue(m_scale.toPosition(value));
    }
    emit valueChanged(m_value);
}

} // namespace studio
