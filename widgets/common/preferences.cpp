#include "preferences.h"

#include "plotstyle.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPalette>
#include <QSettings>
#include <QSpinBox>
#include <QStyle>
#include <QStyleFactory>

namespace studio {

Preferences Preferences::load()
{
    const QSettings s;
    Preferences p;
    p.theme = Theme(std::clamp(s.value(QStringLiteral("preferences/theme"), 0).toInt(), 0, 2));
    p.exportWidth = std::clamp(s.value(QStringLiteral("preferences/export_width"), 1000).toInt(), 100, 20000);
    p.exportHeight = std::clamp(s.value(QStringLiteral("preferences/export_height"), 700).toInt(), 100, 20000);
    p.pngScale = std::clamp(s.value(QStringLiteral("preferences/png_scale"), 2.0).toDouble(), 1.0, 4.0);
    p.restoreLastSession = s.value(QStringLiteral("preferences/restore_last_session"), false).toBool();
    p.sensitivityPercent = std::clamp(s.value(QStringLiteral("preferences/sensitivity_percent"), 10).toInt(), 1, 50);
    p.automaticPrefixes = s.value(QStringLiteral("preferences/automatic_prefixes"), true).toBool();
    return p;
}

void Preferences::save() const
{
    QSettings s;
    s.setValue(QStringLiteral("preferences/theme"), int(theme));
    s.setValue(QStringLiteral("preferences/export_width"), exportWidth);
    s.setValue(QStringLiteral("preferences/export_height"), exportHeight);
    s.setValue(QStringLiteral("preferences/png_scale"), pngScale);
    s.setValue(QStringLiteral("preferences/restore_last_session"), restoreLastSession);
    s.setValue(QStringLiteral("preferences/sensitivity_percent"), sensitivityPercent);
    s.setValue(QStringLiteral("preferences/automatic_prefixes"), automaticPrefixes);
}

void applyTheme(Preferences::Theme theme)
{
    static const QString platformStyle = QApplication::style()->name();
    static const QPalette platformPalette = QApplication::palette();
    if (theme == Preferences::Theme::System) {
        QApplication::setStyle(QStyleFactory::create(platformStyle));
        QApplication::setPalette(platformPalette);
        setPlotThemeDark(platformPalette.color(QPalette::Window).lightness() < 128);
        return;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    setPlotThemeDark(theme == Preferences::Theme::Dark);
    if (theme == Preferences::Theme::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette dark;
    const QColor window(45, 45, 48), base(30, 30, 30), text(230, 230, 230), highlight(42, 130, 218);
    dark.setColor(QPalette::Window, window);
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, base);
    dark.setColor(QPalette::AlternateBase, window);
    dark.setColor(QPalette::ToolTipBase, window);
    dark.setColor(QPalette::ToolTipText, text);
    dark.setColor(QPalette::Text, text);
    dark.setColor(QPalette::Button, window);
    dark.setColor(QPalette::ButtonText, text);
    dark.setColor(QPalette::Highlight, highlight);
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::Disabled, QPalette::Text, QColor(128, 128, 128));
    dark.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(128, 128, 128));
    dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(128, 128, 128));
    // Greyed table rows and placeholder text stay readable; links and focus rings stay visible.
    dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    dark.setColor(QPalette::Link, QColor(110, 170, 255));
    dark.setColor(QPalette::Light, QColor(80, 80, 84));
    dark.setColor(QPalette::Midlight, QColor(65, 65, 68));
    dark.setColor(QPalette::Mid, QColor(60, 60, 62));
    dark.setColor(QPalette::Dark, QColor(25, 25, 26));
    QApplication::setPalette(dark);
}

PreferencesDialog::PreferencesDialog(const Preferences &preferences, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Preferences"));
    auto *form = new QFormLayout(this);
    m_theme = new QComboBox(this);
    m_theme->addItems({tr("Follow the system"), tr("Light"), tr("Dark")});
    m_theme->setCurrentIndex(int(preferences.theme));
    m_theme->setToolTip(tr("Colours of the window and its plots; exports and screenshots use them too."));
    form->addRow(tr("&Theme:"), m_theme);

    m_width = new QSpinBox(this);
    m_width->setRange(100, 20000);
    m_width->setSuffix(tr(" px"));
    m_width->setValue(preferences.exportWidth);
    m_height = new QSpinBox(this);
    m_height->setRange(100, 20000);
    m_height->setSuffix(tr(" px"));
    m_height->setValue(preferences.exportHeight);
    form->addRow(tr("Export &width:"), m_width);
    form->addRow(tr("Export &height:"), m_height);
    m_scale = new QDoubleSpinBox(this);
    m_scale->setRange(1, 4);
    m_scale->setSingleStep(0.5);
    m_scale->setSuffix(QStringLiteral(" ×"));
    m_scale->setValue(preferences.pngScale);
    m_scale->setToolTip(tr("Device pixels per pixel in PNG exports: 2 gives sharp images on slides."));
    form->addRow(tr("PNG &resolution:"), m_scale);
    m_step = new QSpinBox(this);
    m_step->setRange(1, 50);
    m_step->setPrefix(QStringLiteral("± "));
    m_step->setSuffix(QStringLiteral(" %"));
    m_step->setValue(preferences.sensitivityPercent);
    m_step->setToolTip(tr("How far each parameter moves, up and down, in the sensitivity (tornado) charts."));
    form->addRow(tr("&Sensitivity step:"), m_step);
    m_prefixes = new QComboBox(this);
    m_prefixes->addItems({tr("Automatic (1.6 Tops/s, 190 µs)"), tr("Base units (1600 Gops/s, 190000 ns)")});
    m_prefixes->setCurrentIndex(preferences.automaticPrefixes ? 0 : 1);
    m_prefixes->setToolTip(tr("Automatic SI prefixes keep numbers between 1 and 1000; base units are the "
                              "models' own (Gops/s, GB/s, ns), as in the papers' tables."));
    form->addRow(tr("&Unit prefixes:"), m_prefixes);
    m_restore = new QCheckBox(tr("Restore the last session at start-up"), this);
    m_restore->setChecked(preferences.restoreLastSession);
    form->addRow(m_restore);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

Preferences PreferencesDialog::preferences() const
{
    Preferences p;
    p.theme = Preferences::Theme(m_theme->currentIndex());
    p.exportWidth = m_width->value();
    p.exportHeight = m_height->value();
    p.pngScale = m_scale->value();
    p.restoreLastSession = m_restore->isChecked();
    p.sensitivityPercent = m_step->value();
    p.automaticPrefixes = m_prefixes->currentIndex() == 0;
    return p;
}

} // namespace studio
