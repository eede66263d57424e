#include "brouwerpanel.h"
#include "readouthost.h"

#include "brouwerformat.h"

#include "brouwer/io.h"
#include "brouwerdocument.h"
#include "cachedlabel.h"
#include "richreadoutlabel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>

namespace studio {

using namespace roofline::brouwer;

SliderScale BrouwerPanel::memoryScale()
{
    SliderScale s;
    s.minimum = BrouwerDocument::kMinMemory;
    s.maximum = BrouwerDocument::kMaxMemory;
    s.logarithmic = true;
    s.steps = kSteps;
    return s;
}

BrouwerPanel::BrouwerPanel(BrouwerDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *layout = new QVBoxLayout(this);

    auto *model = new QGroupBox(tr("Network and device"), this);
    auto *form = new QFormLayout(model);
    m_network = new QComboBox(model);
    m_network->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_network->setMinimumContentsLength(16);
    m_network->setToolTip(tr("The network whose layers are timed: the EdgeCaffe networks shipped in "
                             "examples/brouwer/networks and the networks you opened (Caffe, ONNX or our JSON)"));
    m_openNetwork = new QPushButton(tr("Open…"), model);
    m_openNetwork->setToolTip(tr("Open a network: Caffe prototxt, ONNX or Roofline Studio JSON"));
    auto *networkRow = new QHBoxLayout;
    networkRow->addWidget(m_network, 1);
    networkRow->addWidget(m_openNetwork);
    form->addRow(tr("Network"), networkRow);
    m_device = new QComboBox(model);
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_device->setMinimumContentsLength(16);
    m_device->setToolTip(tr("The calibrated coefficients (a brouwer device file): the seed's Table 2, our fits on "
                            "EdgeCaffe's measurements, the files you opened and your fits"));
    m_openDevice = new QPushButton(tr("Open…"), model);
    m_openDevice->setToolTip(tr("Open a brouwer device file (JSON)"));
    auto *deviceRow = new QHBoxLayout;
    deviceRow->addWidget(m_device, 1);
    deviceRow->addWidget(m_openDevice);
    form->addRow(tr("Device"), deviceRow);
    layout->addWidget(model);

    auto *memory = new QGroupBox(tr("Memory"), this);
    auto *mform = new QFormLayout(memory);
    m_memory = new QSlider(Qt::Horizontal, memory);
    m_memory->setRange(0, kSteps);
    m_memory->setPageStep(kSteps / 30); // a tenth of a decade
    m_memory->setToolTip(tr("Available memory, logarithmic from 16 MiB to 16 GiB. A layer whose input, parameters "
                            "and output do not fit swaps (seed §3.1)"));
    m_memory->setMinimumWidth(180);
    m_memoryField = new QLineEdit(memory);
    m_memoryField->setToolTip(tr("Exact available memory: 256MB, 1.5GiB, 4G or bytes (units of 1024)"));
    m_memoryField->setMaximumWidth(m_memoryField->fontMetrics().horizontalAdvance(QStringLiteral("0000.00 MiB")) + 16);
    auto *memoryRow = new QHBoxLayout;
    memoryRow->addWidget(m_memory, 1);
    memoryRow->addWidget(m_memoryField);
    mform->addRow(tr("Available"), memoryRow);
    m_memoryReadout = new CachedLabel(memory); // new text on every memory move
    m_memoryReadout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A width of its own, that of the widest text it shows: with the width of each new text the
    // readout's host laid the panel out again on most memory moves (readouthost.h).
    int widest = 0;
    for (const double bytesPerElement : {0.125, 0.333, 4.0, 64.0})
        widest = std::max(widest, m_memoryReadout->fontMetrics().horizontalAdvance(
                                      tr("%1 = %2 elements of %3 B")
                                          .arg(QStringLiteral("1023.99 MiB"), brouwerNumberText(8888.8e8 / bytesPerElement, 4))
                                          .arg(bytesPerElement)));
    m_memoryReadout->setMinimumWidth(widest + 2 * m_memoryReadout->margin() + 4);
    m_memoryReadout->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // And a height of its own, one line's: a new text then asks the label for no size at all
    // (a selectable label lays its text out for each size hint).
    m_memoryReadout->setText(QStringLiteral("1023.99 MiB = 1.074 × 10⁹ elements of 4 B"));
    m_memoryReadout->setFixedHeight(m_memoryReadout->sizeHint().height());
    m_memoryReadout->clear();
    mform->addRow(QString(), new ReadoutHost(m_memoryReadout)); // new text: no window relayout (readouthost.h)
    m_bytesPerElement = new QDoubleSpinBox(memory);
    m_bytesPerElement->setRange(BrouwerDocument::kMinBytesPerElement, BrouwerDocument::kMaxBytesPerElement);
    m_bytesPerElement->setDecimals(3);
    m_bytesPerElement->setSingleStep(1);
    m_bytesPerElement->setSuffix(tr(" B/element"));
    m_bytesPerElement->setKeyboardTracking(false);
    m_bytesPerElement->setToolTip(tr("Bytes of one element: 4 for fp32 (EdgeCaffe's Caffe), 2 for fp16, 1 for int8"));
    mform->addRow(tr("Element size"), m_bytesPerElement);
    m_smeared = new QCheckBox(tr("Smeared back-transform (Duan)"), memory);
    m_smeared->setToolTip(tr("Off: times are 10^(log t), the median of a log-normal error, which under-estimates "
                             "(seed §4.3). On: × each regime's smearing factor mean(10^residual), the mean"));
    mform->addRow(tr("Times"), m_smeared);
    layout->addWidget(memory);

    auto *measured = new QGroupBox(tr("Measurements"), this);
    auto *meas = new QVBoxLayout(measured);
    m_measuredLabel = new QLabel(measured);
    m_measuredLabel->setWordWrap(true);
    meas->addWidget(m_measuredLabel);
    auto *measRow = new QHBoxLayout;
    m_openMeasured = new QPushButton(tr("Open measurements…"), measured);
    m_openMeasured->setToolTip(tr("Measured per-layer times: EdgeCaffe's CSV (networkName, layerId, layerName, "
                                  "Loading_ns, execution_ns, policy) or ours (network, layer, load_ns, exec_ns, "
                                  "memory_bytes); several files at once"));
    m_clearMeasured = new QPushButton(tr("Close"), measured);
    m_clearMeasured->setToolTip(tr("Forget the loaded measurements"));
    measRow->addWidget(m_openMeasured);
    measRow->addWidget(m_clearMeasured);
    measRow->addStretch(1);
    meas->addLayout(measRow);
    layout->addWidget(measured);

    // New text on every memory move: laid out once per text, never shorter while the memory
    // moves (richreadoutlabel.h); its context menu copies it.
    m_readout = new RichReadoutLabel(this);
    m_readout->setMinimumWidth(260);
    layout->addWidget(new ReadoutHost(m_readout));
    layout->addStretch(1);

    connect(m_network, &QComboBox::activated, m_document, [this](int index) { m_document->selectNetwork(index); });
    connect(m_device, &QComboBox::activated, m_document, [this](int index) { m_document->selectDevice(index); });
    connect(m_openNetwork, &QPushButton::clicked, this, &BrouwerPanel::openNetworkRequested);
    connect(m_openDevice, &QPushButton::clicked, this, &BrouwerPanel::openDeviceRequested);
    connect(m_openMeasured, &QPushButton::clicked, this, &BrouwerPanel::openMeasurementsRequested);
    connect(m_clearMeasured, &QPushButton::clicked, m_document, &BrouwerDocument::clearMeasurements);
    connect(m_memory, &QSlider::valueChanged, this, [this](int position) {
        if (!m_updating)
            m_document->setAvailableBytes(memoryScale().toValue(position));
    });
    connect(m_memory, &QSlider::sliderPressed, m_document, &BrouwerDocument::beginDrag);
    connect(m_memory, &QSlider::sliderReleased, m_document, &BrouwerDocument::endDrag);
    connect(m_memoryField, &QLineEdit::editingFinished, this, &BrouwerPanel::applyMemoryField);
    connect(m_bytesPerElement, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        if (!m_updating)
            m_document->setBytesPerElement(value);
    });
    connect(m_smeared, &QCheckBox::toggled, this, [this](bool on) {
        if (!m_updating)
            m_document->setSmeared(on);
    });
    connect(m_document, &BrouwerDocument::listsChanged, this, &BrouwerPanel::fillLists);
    fillLists();
    refresh();
}

void BrouwerPanel::fillLists()
{
    const QSignalBlocker b1(m_network), b2(m_device);
    m_network->clear();
    for (const auto &n : m_document->networks()) {
        m_network->addItem(tr("%1 (%2 layers)").arg(n->name).arg(n->layers.size()));
        m_network->setItemData(m_network->count() - 1, n->path, Qt::ToolTipRole);
    }
    m_device->clear();
    for (const BrouwerDocument::DeviceEntry &d : m_document->devices()) {
        QString text = QString::fromStdString(d.device->name);
        QString tip = d.path.isEmpty() ? tr("not saved yet") : d.path;
        if (d.path.isEmpty())
            text += tr(" (unsaved fit)");
        if (isSeedShapeDevice(d.path)) {
            text += tr(" (shape only)"); // short: the box is narrow at 1280 px; the tooltip explains
            tip = tr("<p>%1</p><p><b>The seed's shape, not calibrated times.</b> Table 2's coefficients as printed; the "
                     "seed does not state the log base, the time unit or the predictors' scaling. Read as log10 of "
                     "ns with raw counts, the ACT, POOL, NORM and LOAD P0 rows match EdgeCaffe's AgeNet within a "
                     "factor of about 2, but the LOAD and FC slopes (1.78) over-predict large layers by orders of "
                     "magnitude (fc6: 1.2·10⁶ ms against 13.7 ms measured). Use it for the shape of the swapping "
                     "regime; docs/models/brouwer.md.</p>")
                      .arg(d.path.toHtmlEscaped());
        }
        m_device->addItem(text);
        m_device->setItemData(m_device->count() - 1, tip, Qt::ToolTipRole);
    }
    refresh();
}

void BrouwerPanel::applyMemoryField()
{
    const QString text = m_memoryField->text().trimmed();
    const auto bytes = parseMemorySize(text.toStdString());
    if (!bytes || *bytes < BrouwerDocument::kMinMemory || *bytes > BrouwerDocument::kMaxMemory) {
        emit message(tr("Available memory: \"%1\" is not a size from 16 MiB to 16 GiB (e.g. 256MB, 1.5GiB, 4G)").arg(text));
        refresh();
        return;
    }
    emit message(QString());
    m_document->setAvailableBytes(*bytes);
}

void BrouwerPanel::refresh()
{
    m_updating = true;
    const QSignalBlocker b1(m_network), b2(m_device), b3(m_bytesPerElement), b4(m_smeared), b5(m_memory);
    const auto &networks = m_document->networks();
    for (std::size_t i = 0; i < networks.size(); ++i) {
        if (networks[i] == m_document->state().network)
            m_network->setCurrentIndex(int(i));
    }
    const auto &devices = m_document->devices();
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (devices[i].device == m_document->state().device)
            m_device->setCurrentIndex(int(i));
    }
    // The box elides long names: hovering it gives the current device's whole name and note.
    m_device->setToolTip(m_device->currentIndex() >= 0
                             ? m_device->itemText(m_device->currentIndex()) + QStringLiteral("<br>")
                                 + m_device->itemData(m_device->currentIndex(), Qt::ToolTipRole).toString()
                             : QString());
    const double bytes = m_document->params().availableBytes;
    if (!m_memory->isSliderDown() && memoryScale().toValue(m_memory->value()) != bytes)
        m_memory->setValue(memoryScale().toPosition(bytes));
    const QString size = QString::fromStdString(formatBytes(bytes));
    if (!m_memoryField->hasFocus())
        m_memoryField->setText(size);
    m_memoryReadout->setText(tr("%1 = %2 elements of %3 B")
                                 .arg(size, brouwerNumberText(std::floor(bytes / m_document->params().bytesPerElement), 4))
                                 .arg(m_document->params().bytesPerElement));
    m_bytesPerElement->setValue(m_document->params().bytesPerElement);
    m_smeared->setChecked(m_document->smeared());
    if (const BrouwerMeasurements *m = m_document->measured()) {
        QStringList names;
        for (const BrouwerMeasurements::File &f : m->files)
            names << QFileInfo(f.path).fileName();
        const QString shown = names.size() > 3 ? names.mid(0, 3).join(QStringLiteral(", ")) + tr(" and %1 more").arg(names.size() - 3)
                                               : names.join(QStringLiteral(", "));
        m_measuredLabel->setText(tr("%1 rows from %2").arg(m->rows.size()).arg(shown));
        m_clearMeasured->setEnabled(true);
    } else {
        m_measuredLabel->setText(tr("None loaded: the scatter and the fit need measured per-layer times."));
        m_clearMeasured->setEnabled(false);
    }
    m_updating = false;
}

void BrouwerPanel::setReadout(const QString &html)
{
    m_readout->setHtml(html);
}

void BrouwerPanel::resetReadoutHeight()
{
    m_readout->resetHeight();
}

} // namespace studio
