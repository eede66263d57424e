// The Gables parameter panel: Ppeak and Bpeak, then per IP its work fraction
// f_i (with a lock), intensity I_i, acceleration A_i and link bandwidth B_i,
// each a slider paired with a spin box; IPs can be added, removed, renamed
// and recoloured. All edits go through the GablesDocument.
#pragma once

#include <QHash>
#include <QIcon>
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
    ParameterSlider *missRatioSlider(int ip) const { return m_ips.at(std::size_t(ip)).missRatio; }
    QCheckBox *busBox(int ip, int bus) const { return m_ips.at(std::size_t(ip)).busBoxes.at(std::size_t(bus)); }
    ParameterSlider *busSlider(int bus) const { return m_busSliders.at(std::size_t(bus)); }
    ParameterSlider *msmSlider() const { return m_msm; }
    QCheckBox *serializedBox() const { return m_serialized; }
    QCheckBox *msmBox() const { return m_msmEnabled; }
    QCheckBox *msmLimitBox() const { return m_msmLimited; }
    QPushButton *addBusButton() const { return m_addBus; }

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
        ParameterSlider *missRatio = nullptr; // with a memory-side memory only
        std::vector<QCheckBox *> busBoxes;    // one per bus
    };
    IpControls makeIpControls(int ip);
    void trackDrags(ParameterSlider *slider); // one drag = one undo step
    QWidget *makeExtensionsBox();
    void rebuildBuses();
    void updateColorButton(int ip);

    GablesDocument *m_document;
    ParameterSlider *m_ppeak = nullptr;
    ParameterSlider *m_bpeak = nullptr;
    QVBoxLayout *m_ipLayout = nullptr;
    QCheckBox *m_serialized = nullptr;
    QCheckBox *m_msmEnabled = nullptr;
    QCheckBox *m_msmLimited = nullptr;
    ParameterSlider *m_msm = nullptr;
    QVBoxLayout *m_busLayout = nullptr;
    QPushButton *m_addBus = nullptr;
    std::vector<QWidget *> m_busRows;
    std::vector<ParameterSlider *> m_busSliders;
    QPushButton *m_add = nullptr;
    std::vector<IpControls> m_ips;
    // One swatch icon per colour, shared by every rebuild: a new pixmap per
    // rebuild left a new entry in Qt's pixmap cache (up to 10 MB) each time a
    // file was opened (issue 14's soak).
    QHash<QRgb, QIcon> m_swatches;
};

} // namespace studio
