#include "parameterslider.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QStyle>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>
#include <limits>

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
    , m_fullScale(scale)
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
    // Fixed: wide enough for seven digits, the decimals and the unit, whatever the value.
    m_spinBox->setFixedWidth(m_spinBox->fontMetrics().horizontalAdvance(
                                 QStringLiteral("0000000.") + QString(decimals, QLatin1Char('0')) + QLatin1Char(' ') + unit)
                             + 34);
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
    connect(m_slider, &QSlider::sliderReleased, this, [this] {
        recentre();
        emit dragFinished();
    });
    m_slider->installEventFilter(this);
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
    if (!m_slider->isSliderDown())
        recentre();
    m_slider->setValue(m_scale.toPosition(value));
    // A spin box repaints on every setValue(), changed or not, and a panel
    // refresh sets every control after each edit: only a new value is set.
    if (value != m_spinValue) {
        m_spinBox->setValue(value);
        m_spinValue = value;
    }
}

void ParameterSlider::setScale(SliderScale scale)
{
    m_fullScale = scale;
    m_scale = scale;
    const QSignalBlocker blockSlider(m_slider);
    const QSignalBlocker blockSpin(m_spinBox);
    m_slider->setRange(0, m_scale.steps);
    m_spinBox->setRange(m_fullScale.minimum, m_fullScale.maximum);
    m_spinValue = std::numeric_limits<double>::quiet_NaN(); // the range may have clamped it
    setValue(m_value);
}

void ParameterSlider::recentre()
{
    SliderScale window = m_fullScale;
    if (m_fullScale.logarithmic && m_fullScale.minimum > 0 && std::isfinite(m_value) && m_value > 0) {
        const double full = std::log10(m_fullScale.maximum / m_fullScale.minimum);
        if (full > kLogWindowDecades) {
            const double half = kLogWindowDecades / 2;
            double lo = std::log10(m_value) - half;
            lo = std::clamp(lo, std::log10(m_fullScale.minimum), std::log10(m_fullScale.maximum) - kLogWindowDecades);
            window.minimum = std::pow(10.0, lo);
            window.maximum = std::pow(10.0, lo + kLogWindowDecades);
            if (m_value >= m_fullScale.maximum)
                window.maximum = m_fullScale.maximum;
            if (m_value <= m_fullScale.minimum)
                window.minimum = m_fullScale.minimum;
        }
    }
    m_scale = window;
    // Arrow keys: 1 % of the value (log) or of the range (linear); Page Up/Down: 10 %.
    if (m_scale.logarithmic && m_scale.maximum > m_scale.minimum) {
        const double perDecade = m_scale.steps / std::log10(m_scale.maximum / m_scale.minimum);
        m_slider->setSingleStep(std::max(1, int(std::lround(perDecade * std::log10(1.01)))));
        m_slider->setPageStep(std::max(1, int(std::lround(perDecade * std::log10(1.1)))));
    } else {
        m_slider->setSingleStep(std::max(1, m_scale.steps / 100));
        m_slider->setPageStep(std::max(1, m_scale.steps / 10));
    }
    const QSignalBlocker blockSlider(m_slider);
    m_slider->setValue(m_scale.toPosition(m_value));
}

bool ParameterSlider::eventFilter(QObject *watched, QEvent *event)
{
    // Drags move the value relative to where they started: at the mouse's
    // pace, or ten times finer while Shift is held (no jump when Shift is
    // pressed or released mid-drag).
    if (watched == m_slider && event->type() == QEvent::MouseMove && m_slider->isSliderDown()) {
        auto *mouse = static_cast<QMouseEvent *>(event);
        const int x = int(mouse->position().x());
        if (!m_dragging) {
            m_dragging = true;
            m_dragPosition = m_slider->value();
            m_dragX = x;
            return true;
        }
        const int groove = std::max(1, m_slider->width() - m_slider->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, m_slider));
        const double gain = (mouse->modifiers() & Qt::ShiftModifier) ? kFineDragFactor : 1.0;
        m_dragPosition = std::clamp(m_dragPosition + (x - m_dragX) * double(m_slider->maximum() - m_slider->minimum()) / groove * gain,
                                    double(m_slider->minimum()), double(m_slider->maximum()));
        m_dragX = x;
        m_slider->setSliderPosition(int(std::lround(m_dragPosition)));
        return true;
    }
    if (watched == m_slider && (event->type() == QEvent::MouseButtonRelease || event->type() == QEvent::MouseButtonPress))
        m_dragging = false;
    return QWidget::eventFilter(watched, event);
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
        m_spinValue = m_value;
    }
    emit valueChanged(m_value);
}

void ParameterSlider::onSpinBoxChanged(double value)
{
    m_value = value;
    m_spinValue = value;
    recentre();
    emit valueChanged(m_value);
}

} // namespace studio
