#include "nnmeterpanel.h"

#include "modelview.h"
#include "networkfileimport.h"
#include "nnmeterdocument.h"
#include "parameterslider.h"
#include "plotstyle.h"
#include "resources.h"

#include "network/import.h"
#include "nnmeter/kernels.h"
#include "nnmeter/parameters.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::nnmeter;

NnmeterFileKind nnmeterFileKind(const QString &path)
{
    if (network::isImportedNetworkFile(path.toStdString()))
        return NnmeterFileKind::Network;
    QString error;
    const QString format = readFormatId(path, &error);
    if (format == QLatin1String(kDeviceFormatId))
        return NnmeterFileKind::Device;
    if (format == QLatin1String(kRulesFormatId))
        return NnmeterFileKind::Rules;
    if (format == QLatin1String(network::kNetworkFormatId))
        return NnmeterFileKind::Network;
    return NnmeterFileKind::Unknown;
}

namespace {

// Pair rules as BF_<a>_<b> keys: "conv_bn".
std::map<std::string, int> pairsInNetwork(const network::Network &net, bool globalPool)
{
    std::map<std::string, int> counts;
    std::vector<std::string> types(net.layers.size());
    for (std::size_t i = 0; i < net.layers.size(); ++i)
        types[i] = operatorType(net, i, globalPool);
    for (std::size_t i = 0; i < net.layers.size(); ++i)
        for (int p : net.layers[i].inputs)
            if (p >= 0 && types[std::size_t(p)] != "view" && types[i] != "view")
                ++counts[types[std::size_t(p)] + "_" + types[i]];
    return counts;
}

SliderScale logScale(double value, double decades)
{
    const double v = std::isfinite(value) && value > 0 ? value : 1;
    const double lo = std::pow(10.0, std::floor(std::log10(v)) - decades);
    const double hi = std::pow(10.0, std::ceil(std::log10(v)) + decades);
    return SliderScale{lo, std::min(hi, 1e9), true, 1000};
}

} // namespace

NnmeterPanel::NnmeterPanel(NnmeterDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *layout = new QVBoxLayout(this);

    auto *files = new QGroupBox(tr("Network and device"), this);
    auto *form = new QFormLayout(files);
    auto row = [&](QComboBox *&box, QPushButton *&button, const QString &tip) {
        auto *w = new QWidget(files);
        auto *h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        box = new QComboBox(w);
        box->setToolTip(tip);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(14);
        h->addWidget(box, 1);
        button = new QPushButton(tr("Open…"), w);
        h->addWidget(button);
        return w;
    };
    form->addRow(tr("Network"), row(m_network, m_openNetwork,
                                    tr("The DNN whose kernels are detected: a shipped example, or an ONNX, Caffe "
                                       "or JSON network you opened")));
    m_openNetwork->setToolTip(tr("Open an ONNX (.onnx), Caffe (.prototxt) or JSON network"));
    form->addRow(tr("Device"), row(m_device, m_openDevice,
                                   tr("The device: its peak, bandwidth, efficiencies and learned predictors, and "
                                      "the fusion rules of its backend")));
    m_openDevice->setToolTip(tr("Open an nn-Meter device or fusion-rules file (such as the kernel lab's output)"));
    m_rules = new QComboBox(files);
    m_rules->setToolTip(tr("The fusion rules in force: the device's own, or another rule set"));
    form->addRow(tr("Fusion rules"), m_rules);
    m_deviceNote = new QLabel(files);
    m_deviceNote->setWordWrap(true);
    m_deviceNote->setForegroundRole(QPalette::PlaceholderText); // grey, readable in light and dark themes
    form->addRow(m_deviceNote);
    layout->addWidget(files);

    for (const QString &path : resources::exampleFiles(QStringLiteral("nnmeter"))) {
        const QString name = QFileInfo(path).fileName().section(QLatin1Char('.'), 0, 0);
        switch (nnmeterFileKind(path)) {
        case NnmeterFileKind::Device: m_device->addItem(name, path); break;
        case NnmeterFileKind::Rules: m_rules->addItem(tr("%1 rules").arg(name), path); break;
        default: break;
        }
    }
    m_rules->insertItem(0, tr("the device's own"), QString());
    for (const QString &path : resources::exampleFiles(QStringLiteral("amaix"))) {
        if (nnmeterFileKind(path) == NnmeterFileKind::Network)
            m_network->addItem(QFileInfo(path).completeBaseName(), path);
    }

    auto *numbers = new QGroupBox(tr("Device roofline"), this);
    auto *numbersLayout = new QVBoxLayout(numbers);
    numbersLayout->setSpacing(3);
    const struct
    {
        const char *pointer;
        QString label, unit, tip;
    } sliders[] = {
        {"/peak_gflops", tr("P_peak"), tr("GFLOP/s"), tr("Peak compute of the device (GFLOP/s): the compute roof of every kernel")},
        {"/bandwidth_gbps", tr("B_peak"), tr("GB/s"), tr("Memory bandwidth (GB/s): the memory roof of every kernel")},
        {"/kernel_overhead_us", tr("Overhead"), tr("µs"), tr("Added to every kernel (launch, dispatch), in µs: fusion saves it")},
    };
    for (const auto &s : sliders) {
        auto *slider = new ParameterSlider(s.label, s.unit, SliderScale{0.01, 1000, true, 1000}, 3, numbers);
        slider->setToolTipText(s.tip);
        const std::string pointer = s.pointer;
        connect(slider, &ParameterSlider::valueChanged, this, [this, pointer](double v) { m_document->setNumber(pointer, v); });
        connect(slider, &ParameterSlider::dragStarted, m_document, &NnmeterDocument::beginDrag);
        connect(slider, &ParameterSlider::dragFinished, m_document, &NnmeterDocument::endDrag);
        numbersLayout->addWidget(slider);
        m_sliders[QString::fromLatin1(s.pointer)] = slider;
    }
    layout->addWidget(numbers);

    m_rulesGroup = new QGroupBox(tr("Fusion rules (seed 004 section 4)"), this);
    auto *rulesLayout = new QVBoxLayout(m_rulesGroup);
    rulesLayout->setSpacing(2);
    m_multiOutbound = new QCheckBox(tr("Multi-outbound: fuse a node with several consumers"), m_rulesGroup);
    m_multiOutbound->setToolTip(tr("Seed Fig. 4(b): off (the default), a node whose output feeds several operators "
                                   "ends its kernel; on, it fuses with its first consumer"));
    m_multiInbound = new QCheckBox(tr("Multi-inbound: fuse a node with several inputs"), m_rulesGroup);
    m_multiInbound->setToolTip(tr("Seed Fig. 4(c): a node with several producers joins the first kernel that reaches "
                                  "it, once its other producers ran"));
    rulesLayout->addWidget(m_multiOutbound);
    rulesLayout->addWidget(m_multiInbound);
    connect(m_multiOutbound, &QCheckBox::toggled, m_document, &NnmeterDocument::setMultiOutbound);
    connect(m_multiInbound, &QCheckBox::toggled, m_document, &NnmeterDocument::setMultiInbound);
    auto *unitsLabel = new QLabel(tr("<b>Fusion units</b> (collapsed into one operator first)"), m_rulesGroup);
    rulesLayout->addWidget(unitsLabel);
    const std::map<std::string, QString> unitTips{
        {"se", tr("Squeeze-and-excitation: global mean, two 1×1 convolutions, scale (MobileNetV3, EfficientNet)")},
        {"hswish", tr("x · relu6(x + 3) / 6 written out as operators")},
        {"swish", tr("x · sigmoid(x) (SiLU; our addition)")},
        {"channel_shuffle", tr("reshape → transpose → reshape (ShuffleNet)")},
        {"global_pool", tr("global pooling and a mean over H, W become one gap operator")}};
    auto *unitRow = new QWidget(m_rulesGroup);
    auto *unitGrid = new QGridLayout(unitRow);
    unitGrid->setContentsMargins(0, 0, 0, 0);
    int u = 0;
    for (const std::string &unit : unitNames()) {
        auto *box = new QCheckBox(QString::fromStdString(unit), unitRow);
        const auto tip = unitTips.find(unit);
        box->setToolTip(tip != unitTips.end() ? tip->second : QString());
        connect(box, &QCheckBox::toggled, this, [this, unit](bool on) { m_document->setUnit(unit, on); });
        unitGrid->addWidget(box, u / 3, u % 3);
        m_units[unit] = box;
        ++u;
    }
    rulesLayout->addWidget(unitRow);
    auto *pairsLabel = new QLabel(tr("<b>Pair rules</b> BF_&lt;first&gt;_&lt;second&gt;: does the backend run the two as one kernel? "
                                     "(× = pairs in this network)"),
                                  m_rulesGroup);
    pairsLabel->setWordWrap(true);
    rulesLayout->addWidget(pairsLabel);
    m_pairs = new QWidget(m_rulesGroup);
    m_pairLayout = new QVBoxLayout(m_pairs);
    m_pairLayout->setContentsMargins(0, 0, 0, 0);
    m_pairLayout->setSpacing(1);
    rulesLayout->addWidget(m_pairs);
    m_reset = new QPushButton(tr("Reset the rules"), m_rulesGroup);
    m_reset->setToolTip(tr("Every rule back to the rule set's (an undoable step)"));
    connect(m_reset, &QPushButton::clicked, m_document, &NnmeterDocument::resetRules);
    rulesLayout->addWidget(m_reset);
    layout->addWidget(m_rulesGroup);
    layout->addStretch(1);

    connect(m_network, &QComboBox::activated, this, [this] { openFromBox(m_network); });
    connect(m_device, &QComboBox::activated, this, [this] { openFromBox(m_device); });
    connect(m_rules, &QComboBox::activated, this, [this] {
        if (m_rules->currentData().toString().isEmpty()) {
            // The device's own rules: open the device again.
            QString error;
            if (!m_document->devicePath().isEmpty() && !m_document->loadDevice(m_document->devicePath(), &error))
                emit message(error);
            return;
        }
        openFromBox(m_rules);
    });
    connect(m_openNetwork, &QPushButton::clicked, this, [this] { openDialog(true); });
    connect(m_openDevice, &QPushButton::clicked, this, [this] { openDialog(false); });
}

bool NnmeterPanel::openPath(const QString &path, QString *error, QStringList *warnings)
{
    switch (nnmeterFileKind(path)) {
    case NnmeterFileKind::Device: return m_document->loadDevice(path, error, warnings);
    case NnmeterFileKind::Rules: return m_document->loadRules(path, error, warnings);
    case NnmeterFileKind::Network:
        if (network::isImportedNetworkFile(path.toStdString())) {
            network::Network net;
            InputShapes used;
            if (!importNetworkFile(this, path, m_document->inputShapesFor(path), &net, &used, error, warnings))
                return false;
            m_document->setImportedNetwork(net, path, used);
            return true;
        }
        return m_document->loadNetwork(path, error, warnings);
    case NnmeterFileKind::Unknown: break;
    }
    QString formatError;
    const QString format = readFormatId(path, &formatError);
    if (error)
        *error = format.isEmpty() ? formatError
                                  : tr("%1: /format: \"%2\" is not an nn-Meter device, fusion-rules or network file")
                                        .arg(path, format);
    return false;
}

void NnmeterPanel::openFromBox(QComboBox *box)
{
    const QString path = box->currentData().toString();
    QString error;
    QStringList warnings;
    if (!openPath(path, &error, &warnings)) {
        emit message(error);
        refresh();
    } else if (!warnings.isEmpty()) {
        emit message(warnings.join(QLatin1Char(' ')));
    }
}

void NnmeterPanel::openDialog(bool network)
{
    const QString path = QFileDialog::getOpenFileName(
        this, network ? tr("Open network") : tr("Open device or fusion rules"), QString(),
        network ? tr("Networks (*.onnx *.prototxt *.pbtxt *.json);;All files (*)")
                : tr("nn-Meter devices and rules (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    QStringList warnings;
    if (!openPath(path, &error, &warnings))
        emit message(error);
    else if (!warnings.isEmpty())
        emit message(warnings.join(QLatin1Char(' ')));
}

void NnmeterPanel::syncBox(QComboBox *box, const QString &path)
{
    const QSignalBlocker block(box);
    int index = box->findData(path);
    if (index < 0 && !path.isEmpty()) {
        box->addItem(QFileInfo(path).fileName().section(QLatin1Char('.'), 0, 0), path);
        index = box->count() - 1;
        box->setItemData(index, path, Qt::ToolTipRole);
    }
    box->setCurrentIndex(index);
}

void NnmeterPanel::addDeviceChoice(const QString &path, const QString &label)
{
    if (m_device->findData(path) >= 0)
        return;
    const QSignalBlocker block(m_device);
    m_device->addItem(label, path);
    m_device->setItemData(m_device->count() - 1, path, Qt::ToolTipRole);
}

QCheckBox *NnmeterPanel::ruleBox(const std::string &pair) const
{
    const auto it = m_pairBoxes.find(pair);
    return it == m_pairBoxes.end() ? nullptr : it->second;
}

std::vector<std::string> NnmeterPanel::shownRules() const
{
    return m_pairOrder;
}

QCheckBox *NnmeterPanel::unitBox(const std::string &unit) const
{
    const auto it = m_units.find(unit);
    return it == m_units.end() ? nullptr : it->second;
}

ParameterSlider *NnmeterPanel::slider(const QString &pointer) const
{
    const auto it = m_sliders.find(pointer);
    return it == m_sliders.end() ? nullptr : it->second;
}

void NnmeterPanel::rebuildRules(const std::vector<std::string> &pairs)
{
    for (auto &[pair, box] : m_pairBoxes)
        delete box;
    m_pairBoxes.clear();
    for (const std::string &pair : pairs) {
        auto *box = new QCheckBox(m_pairs);
        connect(box, &QCheckBox::toggled, this, [this, pair](bool on) { m_document->setRule(pair, on); });
        m_pairLayout->addWidget(box);
        m_pairBoxes[pair] = box;
    }
    m_pairOrder = pairs;
}

void NnmeterPanel::refresh()
{
    syncBox(m_network, m_document->networkPath());
    syncBox(m_device, m_document->devicePath());
    syncBox(m_rules, m_document->rulesPath());
    const Device &device = m_document->device();
    const FusionRules &rules = device.rules;
    m_deviceNote->setText(tr("%1 · backend %2 · %3 learned predictor(s)")
                              .arg(QString::fromStdString(device.name).toHtmlEscaped(),
                                   QString::fromStdString(rules.backend).toHtmlEscaped())
                              .arg(device.predictors.size()));
    m_deviceNote->setToolTip(QString::fromStdString(rules.description));

    for (auto &[pointer, slider] : m_sliders) {
        const double value = numberValue(device, pointer.toStdString()).value_or(0);
        const bool overhead = pointer == QLatin1String("/kernel_overhead_us");
        const SliderScale scale = overhead ? SliderScale{0, std::max(100.0, value * 2), false, 1000} : logScale(value, 1);
        if (!(slider->scale().minimum <= value && value <= slider->scale().maximum) || slider->scale().logarithmic != scale.logarithmic)
            slider->setScale(scale);
        slider->setValue(value);
    }

    // The pair rules: the rule set's and the network's, those in the network first (most frequent first).
    const std::map<std::string, int> inNetwork = pairsInNetwork(m_document->network(), rules.unit("global_pool"));
    std::vector<std::string> pairs;
    for (const auto &[pair, count] : inNetwork)
        pairs.push_back(pair);
    for (const auto *set : {&rules.pairs, &m_document->state().loadedDevice.rules.pairs})
        for (const auto &[pair, rule] : *set)
            if (!inNetwork.count(pair) && std::find(pairs.begin(), pairs.end(), pair) == pairs.end())
                pairs.push_back(pair);
    std::stable_sort(pairs.begin(), pairs.end(), [&](const std::string &a, const std::string &b) {
        const auto ia = inNetwork.find(a), ib = inNetwork.find(b);
        const int ca = ia == inNetwork.end() ? 0 : ia->second, cb = ib == inNetwork.end() ? 0 : ib->second;
        return ca != cb ? ca > cb : a < b;
    });
    if (pairs != m_pairOrder)
        rebuildRules(pairs);
    const FusionRules &loaded = m_document->state().loadedDevice.rules;
    for (const auto &[pair, box] : m_pairBoxes) {
        const QSignalBlocker block(box);
        const auto rule = rules.pairs.find(pair);
        const bool on = rule != rules.pairs.end() && rule->second.fuses;
        const auto count = inNetwork.find(pair);
        const auto was = loaded.pairs.find(pair);
        const bool changed = on != (was != loaded.pairs.end() && was->second.fuses);
        // The text changes only with the network (the count), never on a toggle: a new
        // text would lay the whole panel out again on every click.
        const QString text = QStringLiteral("BF_%1%2").arg(QString::fromStdString(pair),
                                                            count != inNetwork.end() ? QStringLiteral("  ·  %1×").arg(count->second) : QString());
        if (box->text() != text)
            box->setText(text);
        // A rule that differs from the rule set: in the accent colour (a palette change repaints only).
        if (box->property("changed").toBool() != changed) {
            box->setProperty("changed", changed);
            if (changed) {
                QPalette palette = box->palette();
                // An orange that reads on the light and the dark theme's window.
                palette.setColor(QPalette::WindowText, plotThemeDark() ? QColor(0xff, 0xa0, 0x4a) : QColor(0xc0, 0x5a, 0x00));
                box->setPalette(palette);
            } else {
                box->setPalette(QPalette()); // the window's own again (whichever theme is in force)
            }
        }
        QString tip = tr("Fuse %1 followed by %2 into one kernel").arg(QString::fromStdString(pair.substr(0, pair.find('_'))),
                                                                        QString::fromStdString(pair.substr(pair.find('_') + 1)));
        if (rule != rules.pairs.end() && rule->second.measured)
            tip += tr("; measured: T1 %1 ms, T2 %2 ms, fused %3 ms (seed eq. 1, α = 0.5)")
                       .arg(rule->second.t1Ms)
                       .arg(rule->second.t2Ms)
                       .arg(rule->second.t12Ms);
        if (rule != rules.pairs.end() && rule->second.shapesTested > 0)
            tip += tr("; fused on %1 of %2 input shapes, the rule by majority").arg(rule->second.shapesFused).arg(rule->second.shapesTested);
        if (rule == rules.pairs.end())
            tip += tr("; not in the rule set (does not fuse)");
        if (changed)
            tip += tr("; changed from the rule set");
        box->setToolTip(tip);
        box->setChecked(on);
    }
    {
        const QSignalBlocker a(m_multiOutbound), b(m_multiInbound);
        m_multiOutbound->setChecked(rules.multiOutbound);
        m_multiInbound->setChecked(rules.multiInbound);
    }
    for (auto &[unit, box] : m_units) {
        const QSignalBlocker block(box);
        box->setChecked(rules.unit(unit));
    }
    m_reset->setEnabled(!(rules == loaded));
}

} // namespace studio
