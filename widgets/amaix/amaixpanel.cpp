#include "amaixpanel.h"
#include "readouthost.h"
#include "richreadoutlabel.h"

#include "snapshotbar.h" // setFocusChain

#include "amaixdocument.h"
#include "networkimport.h"
#include "modelview.h"
#include "parameterslider.h"
#include "resources.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::amaix;

namespace {

// A log scale over [lo, hi], widened to keep `value` a decade from either end.
SliderScale logScale(double lo, double hi, double value)
{
    if (std::isfinite(value) && value > 0) {
        lo = std::min(lo, std::pow(10.0, std::floor(std::log10(value)) - 1));
        hi = std::max(hi, std::pow(10.0, std::ceil(std::log10(value)) + 1));
    }
    return SliderScale{std::max(lo, 1e-3), hi, true, 1000};
}

} // namespace

AmaixPanel::AmaixPanel(AmaixDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *layout = new QVBoxLayout(this);

    auto *modelBox = new QGroupBox(tr("Network and accelerator"), this);
    auto *form = new QFormLayout(modelBox);
    m_network = new QComboBox(modelBox);
    m_network->setToolTip(tr("The DNN to evaluate: an embedded example or a file you opened"));
    m_accelerator = new QComboBox(modelBox);
    m_accelerator->setToolTip(tr("The accelerator: an embedded example or a file you opened. "
                                 "Slider edits apply to this accelerator until another is chosen."));
    for (const QString &path : resources::exampleFiles(QStringLiteral("amaix"))) {
        QString error;
        const QString format = readFormatId(path, &error);
        const QString label = QFileInfo(path).completeBaseName();
        if (format == QLatin1String(kNetworkFormatId))
            m_network->addItem(label, path);
        else if (format == QLatin1String(kAcceleratorFormatId))
            m_accelerator->addItem(label, path);
    }
    m_dataType = new QComboBox(modelBox);
    m_dataType->setToolTip(tr("Element data type: its width in bytes per element (B) and, under nvdla, "
                              "T_k of the MAC array (kernels per cycle)"));
    m_scaling = new QComboBox(modelBox);
    m_scaling->addItem(tr("general (1 op per MAC, 1 byte per element × width)"), int(ScalingModel::General));
    m_scaling->addItem(tr("nvdla (atoms, dark bandwidth, CBUF modes)"), int(ScalingModel::Nvdla));
    m_scaling->setToolTip(tr("Scaling model of the AMAIX paper (section 3.3): general counts ops and bytes as written; "
                             "nvdla adds MAC-array fragmentation, atom padding, dark bandwidth and CBUF tiling."));
    m_refine = new QCheckBox(tr("Divide and conquer (warm-up, sequential one-group modes)"), modelBox);
    m_refine->setToolTip(tr("Refined pipes (the AMAIX paper's divide and conquer, section 3.6): a warm-up phase, and modes 3 and 6 fetch then compute. "
                            "On or off, no unit."));
    m_coloring = new QComboBox(modelBox);
    m_coloring->addItem(tr("processing unit"));
    m_coloring->addItem(tr("bound (compute / memory)"));
    m_coloring->setToolTip(tr("Marker colour: the processing unit a layer runs on, or whether it is compute- or "
                              "memory-bound"));
    form->addRow(tr("Network"), m_network);
    form->addRow(tr("Accelerator"), m_accelerator);
    form->addRow(tr("Data type"), m_dataType);
    form->addRow(tr("Scaling model"), m_scaling);
    form->addRow(m_refine);
    form->addRow(tr("Colour markers by"), m_coloring);
    layout->addWidget(modelBox);

    // New text every update: laid out once per text and width and painted from
    // that layout (richreadoutlabel.h); a QLabel laid the rich text out for its
    // height and again in every paint.
    m_readout = new RichReadoutLabel(this);
    m_readout->setFrameShape(QFrame::StyledPanel);
    m_readout->setPadding(6);
    layout->addWidget(new ReadoutHost(m_readout)); // new text: no window relayout (readouthost.h)

    auto *accBox = new QGroupBox(tr("Accelerator parameters"), this);
    m_sliderBox = accBox;
    m_sliderLayout = new QVBoxLayout(accBox);
    m_sliderLayout->setSpacing(3);
    layout->addWidget(accBox);
    m_reset = new QPushButton(tr("Reset to the loaded accelerator"), this);
    m_reset->setToolTip(tr("Every accelerator number back to the file's (an undoable step)"));
    layout->addWidget(m_reset);
    layout->addStretch(1);

    connect(m_network, &QComboBox::activated, this, [this] { openFromBox(m_network, true); });
    // Imported networks (ONNX, Caffe) stay listed beside the shipped ones for the session.
    connect(m_document, &AmaixDocument::importedFilesChanged, this, [this] {
        const QSignalBlocker block(m_network);
        for (const QString &path : m_document->importedFiles()) {
            if (m_network->findData(path) < 0) {
                m_network->addItem(QFileInfo(path).fileName(), path);
                m_network->setItemData(m_network->count() - 1, path, Qt::ToolTipRole);
            }
        }
        syncFileBox(m_network, m_document->networkPath());
    });
    connect(m_accelerator, &QComboBox::activated, this, [this] { openFromBox(m_accelerator, false); });
    connect(m_dataType, &QComboBox::activated, this, [this] { m_document->setDataType(m_dataType->currentData().toString()); });
    connect(m_scaling, &QComboBox::activated, this, [this] {
        QString error;
        if (!m_document->setScaling(ScalingModel(m_scaling->currentData().toInt()), &error)) {
            emit message(error);
            refreshValues();
        }
    });
    connect(m_refine, &QCheckBox::toggled, m_document, &AmaixDocument::setRefine);
    connect(m_coloring, &QComboBox::currentIndexChanged, this, &AmaixPanel::coloringChanged);
    connect(m_reset, &QPushButton::clicked, m_document, &AmaixDocument::resetAccelerator);
}

void AmaixPanel::openFromBox(QComboBox *box, bool network)
{
    const QString path = box->currentData().toString();
    QString error;
    QStringList warnings;
    const bool ok = !network                                    ? m_document->loadAccelerator(path, &error, &warnings)
        : roofline::network::isImportedNetworkFile(path.toStdString()) ? importNetwork(this, m_document, path, &error, &warnings)
                                                                   : m_document->loadNetwork(path, &error, &warnings);
    if (!ok) {
        emit message(error);
        syncFileBox(box, network ? m_document->networkPath() : m_document->acceleratorPath());
    } else if (!warnings.isEmpty()) {
        emit message(warnings.join(QLatin1Char(' ')));
    }
}

void AmaixPanel::syncFileBox(QComboBox *box, const QString &path)
{
    const QSignalBlocker block(box);
    int index = box->findData(path);
    if (index < 0 && !path.isEmpty()) {
        box->addItem(QFileInfo(path).fileName(), path);
        index = box->count() - 1;
        box->setItemData(index, path, Qt::ToolTipRole);
    }
    box->setCurrentIndex(index);
}

std::string AmaixPanel::activeDataType() const
{
    return amaix::activeDataType(m_document->network(), m_document->accelerator(), m_document->options());
}

void AmaixPanel::updateTabOrder()
{
    // Top to bottom as laid out: the choosers, then every slider's slider and
    // spin box in turn, then Reset. The sliders are created after the choosers,
    // so without this a rebuilt panel would put them after Reset.
    QList<QWidget *> chain { m_coloring };
    for (const Control &c : m_controls)
        chain << c.slider->slider() << c.slider->spinBox();
    setFocusChain(chain << m_reset);
}

void AmaixPanel::addControl(const SettableParameter &info)
{
    Diagnostics diagnostics;
    const std::optional<Parameter> parameter = resolveParameter(m_document->accelerator(), info.pointer, diagnostics);
    if (!parameter)
        return;
    // How each kind of number is shown: slider range (log) and display unit.
    using K = Parameter::Kind;
    double lo = 1, hi = 1000, factor = 1;
    QString unit = QString::fromStdString(info.unit);
    switch (parameter->kind) {
    case K::Clock: lo = 0.1, hi = 10; break;
    case K::DataTypeTk:
    case K::TC: hi = 256; break;
    case K::UnitOps: unit = tr("ops/cyc"); break;
    case K::DataTypeBytes: hi = 8; break;
    case K::CbufBytes: lo = 16, hi = 4096, factor = 1024, unit = tr("KiB"); break;
    case K::CbufBanks: hi = 64; break;
    case K::CbufEntry: lo = 8, hi = 1024; break;
    case K::AtomAxi:
    case K::AtomNvdla: lo = 8, hi = 256; break;
    case K::MemoryBandwidth: break;
    }
    QString label = QString::fromStdString(info.label);
    if (parameter->kind == K::MemoryBandwidth) // the unit says it is a bandwidth; keeps the column narrow
        label = QString::fromStdString(m_document->accelerator().memories[std::size_t(parameter->index)].name);
    const double shown = parameter->get(m_document->accelerator()) / factor;
    Control c;
    c.parameter = *parameter;
    c.factor = factor;
    c.integer = info.integer;
    const bool showWhole = info.integer && factor == 1;
    c.slider = new ParameterSlider(label, unit, logScale(lo, hi, shown), showWhole ? 0 : 3,
                                   m_sliderBox);
    // Meaning, unit and the pointer --set takes.
    QString tip = tr("%1, in %2").arg(QString::fromStdString(info.description), QString::fromStdString(info.unit));
    if (factor != 1)
        tip += tr(" (shown in %1)").arg(unit);
    if (info.integer)
        tip += tr("; a whole number");
    c.slider->setToolTipText(tip + QStringLiteral(" (%1)").arg(QString::fromStdString(info.pointer)));
    c.slider->setObjectName(QString::fromStdString(info.pointer));
    const std::size_t index = m_controls.size();
    connect(c.slider, &ParameterSlider::valueChanged, this, [this, index](double value) {
        const Control &control = m_controls[index];
        double v = value * control.factor;
        if (control.integer)
            v = std::max(1.0, std::round(v));
        if (!m_document->setParameter(control.parameter, v))
            emit message(tr("%1 = %2 refused: out of range for this accelerator")
                             .arg(QString::fromStdString(control.parameter.pointer), QString::number(v)));
    });
    // One drag of the thumb is one undo step.
    connect(c.slider, &ParameterSlider::dragStarted, m_document, &AmaixDocument::beginDrag);
    connect(c.slider, &ParameterSlider::dragFinished, m_document, &AmaixDocument::endDrag);
    m_sliderLayout->addWidget(c.slider);
    m_controls.push_back(c);
}

void AmaixPanel::rebuild()
{
    setUpdatesEnabled(false);
    for (Control &c : m_controls)
        delete c.slider;
    m_controls.clear();
    const Accelerator &acc = m_document->accelerator();
    for (const SettableParameter &info : settableParameters(acc, activeDataType()))
        addControl(info);
    updateTabOrder();

    {
        const QSignalBlocker block(m_dataType);
        m_dataType->clear();
        m_dataType->addItem(tr("network's or default (%1)").arg(QString::fromStdString(
                                [&] {
                                    const auto &net = m_document->network();
                                    return !net.dataType.empty() && acc.dataType(net.dataType) ? net.dataType
                                                                                               : acc.defaultDataType;
                                }())),
                            QString());
        for (const DataType &dt : acc.dataTypes)
            m_dataType->addItem(QString::fromStdString(dt.name), QString::fromStdString(dt.name));
    }
    syncFileBox(m_network, m_document->networkPath());
    syncFileBox(m_accelerator, m_document->acceleratorPath());
    refreshValues();
    setUpdatesEnabled(true);
}

void AmaixPanel::refreshValues()
{
    const Accelerator &acc = m_document->accelerator();
    for (Control &c : m_controls)
        c.slider->setValue(c.parameter.get(acc) / c.factor);
    const QSignalBlocker a(m_dataType), b(m_scaling), c(m_refine);
    m_dataType->setCurrentIndex(std::max(0, m_dataType->findData(QString::fromStdString(m_document->options().dataType))));
    m_scaling->setCurrentIndex(m_scaling->findData(int(acc.scaling)));
    m_refine->setChecked(m_document->options().refine);
    m_reset->setEnabled(!(acc == m_document->loadedAccelerator()));
}

ParameterSlider *AmaixPanel::slider(const QString &pointer) const
{
    for (const Control &c : m_controls) {
        if (QString::fromStdString(c.parameter.pointer) == pointer)
            return c.slider;
    }
    return nullptr;
}

QStringList AmaixPanel::sliderLabels() const
{
    QStringList labels;
    for (const Control &c : m_controls)
        labels << c.slider->label()->text();
    return labels;
}

std::vector<bool> AmaixPanel::sliderIntegers() const
{
    std::vector<bool> integers;
    for (const Control &c : m_controls)
        integers.push_back(c.integer || c.factor != 1); // CBUF bytes: whole bytes
    return integers;
}

QStringList AmaixPanel::sliderPointers() const
{
    QStringList pointers;
    for (const Control &c : m_controls)
        pointers << QString::fromStdString(c.parameter.pointer);
    return pointers;
}

} // namespace studio
