// The AMAIX control panel: which network and accelerator, the data type, the
// scaling model and divide-and-conquer switch, the live result readout, and a
// slider + spin box per accelerator number that core/amaix/io.h can set
// (clock, MAC array T_k × T_c, unit throughputs, memory bandwidths, CBUF,
// data-type width, bus and atom widths). All edits go through AmaixDocument.
#pragma once

#include "amaix/io.h"
#include "amaix/sensitivity.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace studio {

class AmaixDocument;
class ParameterSlider;
class RichReadoutLabel;

class AmaixPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AmaixPanel(AmaixDocument *document, QWidget *parent = nullptr);

    void rebuild();       // after a structural change: new controls for the accelerator
    void refreshValues(); // show the document's numbers without emitting edits

    // The slider of a settable number, by its JSON pointer ("/clock_ghz"), or nullptr.
    ParameterSlider *slider(const QString &pointer) const;
    QStringList sliderPointers() const;
    QStringList sliderLabels() const;
    std::vector<bool> sliderIntegers() const; // whether each slider's number is integral
    QComboBox *networkBox() const { return m_network; }
    QComboBox *acceleratorBox() const { return m_accelerator; }
    QComboBox *dataTypeBox() const { return m_dataType; }
    QComboBox *scalingBox() const { return m_scaling; }
    QComboBox *coloringBox() const { return m_coloring; }
    QCheckBox *refineBox() const { return m_refine; }
    RichReadoutLabel *readout() const { return m_readout; }
    QPushButton *resetButton() const { return m_reset; }
    // The data type the evaluation uses: the chosen one, else the network's, else the accelerator's default.
    std::string activeDataType() const;

signals:
    void message(const QString &text); // a refused edit or a file that did not open
    void coloringChanged(int coloring); // MarkerColoring

private:
    struct Control
    {
        roofline::amaix::Parameter parameter;
        ParameterSlider *slider = nullptr;
        double factor = 1; // shown value = value / factor
        bool integer = false;
    };
    void addControl(const roofline::amaix::SettableParameter &info);
    void updateTabOrder();
    void syncFileBox(QComboBox *box, const QString &path);
    void openFromBox(QComboBox *box, bool network);

    AmaixDocument *m_document;
    QComboBox *m_network = nullptr;
    QComboBox *m_accelerator = nullptr;
    QComboBox *m_dataType = nullptr;
    QComboBox *m_scaling = nullptr;
    QComboBox *m_coloring = nullptr;
    QCheckBox *m_refine = nullptr;
    RichReadoutLabel *m_readout = nullptr;
    QPushButton *m_reset = nullptr;
    QWidget *m_sliderBox = nullptr;
    QVBoxLayout *m_sliderLayout = nullptr;
    std::vector<Control> m_controls;
};

} // namespace studio
