// User preferences, kept in QSettings: theme, default export size, whether the
// last session is restored at start-up, the sensitivity step and unit prefixes.
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace studio {

struct Preferences
{
    enum class Theme { System, Light, Dark };
    Theme theme = Theme::System;
    int exportWidth = 1000; // logical pixels (points for PDF)
    int exportHeight = 700;
    double pngScale = 2.0;  // device pixels per logical pixel in PNG exports
    bool restoreLastSession = false;
    int sensitivityPercent = 10; // the tornado charts' step: each parameter ±this %
    bool automaticPrefixes = true; // 1.6 Tops/s, 190 µs; false: the models' base units (Gops/s, GB/s, ns)

    static Preferences load();
    void save() const;
    bool operator==(const Preferences &) const = default;
};

// Applies a theme to the whole application (Fusion with a light or dark
// palette, or the platform's own). Plots keep white backgrounds for export.
void applyTheme(Preferences::Theme theme);

class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences &preferences, QWidget *parent = nullptr);
    Preferences preferences() const;

private:
    QComboBox *m_theme = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QDoubleSpinBox *m_scale = nullptr;
    QCheckBox *m_restore = nullptr;
    QSpinBox *m_step = nullptr;
    QComboBox *m_prefixes = nullptr;
};

} // namespace studio
