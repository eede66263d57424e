#include "goalseekpanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace studio {

GoalSeekPanel::GoalSeekPanel(QWidget *parent)
    : QWidget(parent)
{
    m_target = new QComboBox(this);
    m_value = new QDoubleSpinBox(this);
    m_value->setDecimals(4);
    m_value->setRange(1e-6, 1e12);
    m_value->setValue(1);
    m_value->setMinimumWidth(m_value->fontMetrics().horizontalAdvance(QStringLiteral("000000000.0000")) + 24);
    m_unit = new QLabel(this);
    m_parameter = new QComboBox(this);
    m_parameter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_target->setToolTip(tr("What to reach: the quantity the target value is in"));
    m_parameter->setToolTip(tr("The one parameter goal seek may change; every other input stays as it is"));
    m_seek = new QPushButton(tr("Seek"), this);
    m_seek->setDefault(true);
    m_apply = new QPushButton(tr("Apply value"), this);
    m_apply->setEnabled(false);
    m_apply->setToolTip(tr("Set the parameter to the value found (one step in Edit ▸ Undo)"));
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setText(tr("Pick a target and the parameter to vary, then Seek."));

    auto *targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target);
    targetRow->addWidget(m_value);
    targetRow->addWidget(m_unit);
    targetRow->addStretch(1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_seek);
    buttons->addWidget(m_apply);
    buttons->addStretch(1);
    auto *form = new QFormLayout;
    form->addRow(tr("Reach"), targetRow);
    form->addRow(tr("by varying"), m_parameter);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_result);
    layout->addStretch(1);

    connect(m_seek, &QPushButton::clicked, this, &GoalSeekPanel::seek);
    connect(m_apply, &QPushButton::clicked, this, &GoalSeekPanel::apply);
    connect(m_target, &QComboBox::currentIndexChanged, this, [this](int i) {
        showUnit(i);
        invalidate();
    });
    connect(m_parameter, &QComboBox::currentIndexChanged, this, &GoalSeekPanel::invalidate);
    connect(m_value, &QDoubleSpinBox::valueChanged, this, &GoalSeekPanel::invalidate);
}

void GoalSeekPanel::setTargets(const QList<Target> &targets)
{
    m_targets = targets;
    m_target->clear();
    for (const Target &t : targets)
        m_target->addItem(t.label, t.key);
    m_target->setVisible(targets.size() > 1);
    showUnit(targets.isEmpty() ? -1 : 0);
}

void GoalSeekPanel::showUnit(int index)
{
    const bool valid = index >= 0 && index < m_targets.size();
    m_unit->setText(valid ? m_targets[index].unit : QString());
    m_value->setToolTip(valid ? tr("Target %1, in %2").arg(m_targets[index].label, m_targets[index].unit)
                              : tr("The target value"));
}

void GoalSeekPanel::setParameters(const QList<Parameter> &parameters)
{
    const QString current = m_parameter->currentData().toString();
    QSignalBlocker block(m_parameter);
    m_parameter->clear();
    for (const Parameter &p : parameters)
        m_parameter->addItem(p.label, p.pointer);
    const int index = m_parameter->findData(current);
    m_parameter->setCurrentIndex(index >= 0 ? index : 0);
}

void GoalSeekPanel::setTargetValue(double valueInBoxUnit)
{
    if (std::isfinite(valueInBoxUnit) && valueInBoxUnit > 0)
        m_value->setValue(valueInBoxUnit);
}

void GoalSeekPanel::seek()
{
    const int t = m_target->currentIndex();
    if (!m_seeker || t < 0 || t >= m_targets.size() || m_parameter->currentIndex() < 0)
        return;
    m_last = m_seeker(m_targets[t].key, m_value->value() * m_targets[t].scale, m_parameter->currentData().toString());
    QString text = QString::fromStdString(m_last.message).toHtmlEscaped();
    if (m_last.status == roofline::GoalSeek::Status::Found)
        text = QStringLiteral("<b>%1</b>").arg(text);
    else
        text = QStringLiteral("<span style='color:#b00020'>%1</span>").arg(text);
    m_result->setText(text);
    m_apply->setEnabled(m_last.found() && m_applier);
}

void GoalSeekPanel::apply()
{
    if (!m_last.found() || !m_applier)
        return;
    QString error;
    m_applying = true;
    const bool ok = m_applier(QString::fromStdString(m_last.pointer), m_last.value, &error);
    m_applying = false;
    if (!ok) {
        m_result->setText(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(error.toHtmlEscaped()));
        return;
    }
    m_apply->setEnabled(false);
}

void GoalSeekPanel::invalidate()
{
    if (m_applying)
        return; // the change applying made: keep the answer shown
    if (m_last.status != roofline::GoalSeek::Status::Invalid || !m_last.message.empty()) {
        m_last = {};
        m_apply->setEnabled(false);
        m_result->setText(tr("Pick a target and the parameter to vary, then Seek."));
    }
}

} // namespace studio
