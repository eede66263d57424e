// The Gables parameter panel: Ppeak and Bpeak, then per IP its work fraction
// f_i (with a lock), intensity I_i, acceleration A_i and link bandwidth B_i,
// each a slider paired with a spin box; IPs can be added, removed, renamed
// and recoloured. All edits go through the GablesDocument.
#pragma once

#include <QWidget>

#include <vector>

class QLineEdit;
class QCheckBox;
class QToolButton;
class QVBoxLayout;
class QPushButton;

namespace studio {

class GablesDocument;
class ParameterSlider;

class GablesParamPanel : public QWidget
{
    Q_OBJECT
public:
    explicit GablesParamPanel(GablesDocument *document, QWidget *parent = nullptr);

    // Recreates the per-IP editors (after structural changes).
    void rebuild();
    // Shows the document's current numbers without emitting edits.
    void refreshValues();

    ParameterSlider *ppeakSlider() const { return m_ppeak; }
    ParameterSlider *bpeakSlider() const { return m_bpeak; }
    int ipEditorCount() const { return int(m_ips.size()); }
    ParameterSlider *fractionSlider(int ip) const { return m_ips.at(std::size_t(ip)).fraction; }
    ParameterSlider *intensitySlider(int ip) const { return m_ips.at(std::size_t(ip)).intensity; }
    ParameterSlider *accelerationSlider(int ip) const { return m_ips.at(std::size_t(ip)).acceleration; }
    ParameterSlider *bandwidthSlider(int ip) const { return m_ips.at(std::size_t(ip)).bandwidth; }
    QCheckBox *lockBox(int ip) const { return m_ips.at(std::size_t(ip)).lock; }
    QLineEdit *nameEdit(int ip) const { return m_ips.at(std::size_t(ip)).name; }
    QToolButton *removeButton(int ip) const { return m_ips.at(std::size_t(ip)).remove; }
    QPushButton *addButton() const { return m_add; }

signals:
    void message(const QString &text); // for the status bar, e.g. a rejected rename

private:
    struct IpControls
    {
        QWidget *box = nullptr;
        QLineEdit *name = nullptr;
        QToolButton *color = nullptr;
        QCheckBox *lock = nullptr;
        QToolButton *remove = nullptr;
        ParameterSlider *fraction = nullptr;
        ParameterSlider *intensity = nullptr;
        ParameterSlider *acceleration = nullptr;
        ParameterSlider *bandwidth = nullptr;
    };
    IpControls makeIpControls(int ip);
    void updateColorButton(int ip);

    GablesDocument *m_document;
    ParameterSlider *m_ppeak = nullptr;
    ParameterSlider *m_bpeak = nullptr;
    QVBoxLayout *m_ipLayout = nullptr;
    QPushButton *m_add = nullptr;
    std::vector<IpControls> m_ips;
};

} // namespace studio
