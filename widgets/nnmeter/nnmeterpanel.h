// The nn-Meter control panel: which network, device and fusion rules (the
// shipped ones and files the user opened), the device's roofline numbers as
// sliders, and the fusion rules as check boxes: every BF_<a>_<b> pair rule of
// the rule set or of the network, the multi-outbound and multi-inbound
// connection rules (seed Fig. 4) and the fusion units. Toggling one detects
// the kernels again (the view redraws). All edits go through NnmeterDocument.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace studio {

class NnmeterDocument;
class ParameterSlider;

class NnmeterPanel : public QWidget
{
    Q_OBJECT
public:
    explicit NnmeterPanel(NnmeterDocument *document, QWidget *parent = nullptr);

    // Shows the document's state without emitting edits; new check boxes
    // only when the set of pair rules changed (a toggle keeps them).
    void refresh();

    QComboBox *networkBox() const { return m_network; }
    QComboBox *deviceBox() const { return m_device; }
    QComboBox *rulesBox() const { return m_rules; }
    QPushButton *openNetworkButton() const { return m_openNetwork; }
    QPushButton *openDeviceButton() const { return m_openDevice; }
    QPushButton *resetRulesButton() const { return m_reset; }
    // "conv_bn" -> its check box; nullptr when not shown.
    QCheckBox *ruleBox(const std::string &pair) const;
    std::vector<std::string> shownRules() const;
    QCheckBox *multiOutboundBox() const { return m_multiOutbound; }
    QCheckBox *multiInboundBox() const { return m_multiInbound; }
    QCheckBox *unitBox(const std::string &unit) const;
    ParameterSlider *slider(const QString &pointer) const;

    // Opens a file into the document by its kind (network, device, rules);
    // false with `error` naming the file, the field and the reason.
    bool openPath(const QString &path, QString *error, QStringList *warnings);

    // A device the selector lists under `label` (a kernel lab run's), before it is opened.
    void addDeviceChoice(const QString &path, const QString &label);

signals:
    void message(const QString &text); // a refused file, or an import's warnings

private:
    void rebuildRules(const std::vector<std::string> &pairs);
    void openFromBox(QComboBox *box);
    void syncBox(QComboBox *box, const QString &path);
    void openDialog(bool network);

    NnmeterDocument *m_document;
    QComboBox *m_network = nullptr;
    QComboBox *m_device = nullptr;
    QComboBox *m_rules = nullptr;
    QPushButton *m_openNetwork = nullptr;
    QPushButton *m_openDevice = nullptr;
    QLabel *m_deviceNote = nullptr;
    std::map<QString, ParameterSlider *> m_sliders;
    QGroupBox *m_rulesGroup = nullptr;
    QVBoxLayout *m_pairLayout = nullptr;
    QWidget *m_pairs = nullptr;
    QCheckBox *m_multiOutbound = nullptr;
    QCheckBox *m_multiInbound = nullptr;
    std::map<std::string, QCheckBox *> m_units;
    std::map<std::string, QCheckBox *> m_pairBoxes;
    std::vector<std::string> m_pairOrder;
    QPushButton *m_reset = nullptr;
};

// The kind of an nn-Meter file by its "format" (device, rules) or suffix
// (networks: .onnx, .prototxt, .pbtxt, or our JSON network format).
enum class NnmeterFileKind { Device, Rules, Network, Unknown };
NnmeterFileKind nnmeterFileKind(const QString &path);

} // namespace studio
