// The Brouwer view's controls: network and device selectors (the shipped
// examples and the user's files), the logarithmic available-memory slider
// (16 MiB – 16 GiB) with an exact size field and a unit-bearing readout, the
// bytes per element, the back-transform (plain or smeared), and the
// measurements. Edits go to the document; the panel follows it.
#pragma once

#include "parameterslider.h"
#include "richreadoutlabel.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;

namespace studio {

class BrouwerDocument;

class BrouwerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit BrouwerPanel(BrouwerDocument *document, QWidget *parent = nullptr);

    // The memory slider: positions 0..kSteps map logarithmically onto 16 MiB – 16 GiB.
    static constexpr int kSteps = 1200;
    static SliderScale memoryScale();

    void refresh(); // controls follow the document (no signals back)
    void setReadout(const QString &html);
    // The readout keeps the tallest height it needed while the memory moves (its wrapped lines
    // come and go with the numbers); after a new network, device or element size it may shrink.
    void resetReadoutHeight();

    QComboBox *networkBox() const { return m_network; }
    QComboBox *deviceBox() const { return m_device; }
    QSlider *memorySlider() const { return m_memory; }
    QLineEdit *memoryField() const { return m_memoryField; }
    QLabel *memoryReadout() const { return m_memoryReadout; }
    QDoubleSpinBox *bytesPerElementBox() const { return m_bytesPerElement; }
    QCheckBox *smearedBox() const { return m_smeared; }
    QPushButton *openNetworkButton() const { return m_openNetwork; }
    QPushButton *openDeviceButton() const { return m_openDevice; }
    QPushButton *openMeasurementsButton() const { return m_openMeasured; }
    QPushButton *clearMeasurementsButton() const { return m_clearMeasured; }
    QLabel *measurementsLabel() const { return m_measuredLabel; }
    RichReadoutLabel *readout() const { return m_readout; }

signals:
    void message(const QString &text); // an error to show (empty: clear)
    void openNetworkRequested();
    void openDeviceRequested();
    void openMeasurementsRequested();

private:
    void fillLists();
    void applyMemoryField();

    BrouwerDocument *m_document;
    QComboBox *m_network = nullptr;
    QComboBox *m_device = nullptr;
    QPushButton *m_openNetwork = nullptr;
    QPushButton *m_openDevice = nullptr;
    QSlider *m_memory = nullptr;
    QLineEdit *m_memoryField = nullptr;
    QLabel *m_memoryReadout = nullptr;
    QDoubleSpinBox *m_bytesPerElement = nullptr;
    QCheckBox *m_smeared = nullptr;
    QPushButton *m_openMeasured = nullptr;
    QPushButton *m_clearMeasured = nullptr;
    QLabel *m_measuredLabel = nullptr;
    RichReadoutLabel *m_readout = nullptr;
    bool m_updating = false;
};

} // namespace studio
