#include "gablesparampanel.h"

#include "gablesdocument.h"
#include "gablesplot.h"
#include "parameterslider.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QColorDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::gables;

namespace {

// A log scale spanning [lo, hi] by default and widened to keep `value` two
// decades from either end, within the model's limits.
SliderScale logScale(double lo, double hi, double value, double limitHi)
{
    if (std::isfinite(value) && value > 0) {
        lo = std::min(lo, std::pow(10.0, std::floor(std::log10(value)) - 2));
        hi = std::max(hi, std::pow(10.0, std::ceil(std::log10(value)) + 2));
    }
    return SliderScale{std::max(lo, 1e-6), std::min(hi, limitHi), true, 1000};
}

} // namespace

void GablesParamPanel::trackDrags(ParameterSlider *slider)
{
    connect(slider, &ParameterSlider::dragStarted, m_document, &GablesDocument::beginDrag);
    connect(slider, &ParameterSlider::dragFinished, m_document, &GablesDocument::endDrag);
}

GablesParamPanel::GablesParamPanel(GablesDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *layout = new QVBoxLayout(this);

    auto *socBox = new QGroupBox(tr("SoC"), this);
    auto *socLayout = new QVBoxLayout(socBox);
    m_ppeak = new ParameterSlider(tr("Ppeak"), tr("Gops/s"), logScale(0.1, 1e5, 1, Limits::maxRate), 3, socBox);
    m_ppeak->setToolTipText(tr("Ppeak: peak compute of IP[0], the reference IP, in Gops/s. "
                               "Every IP's peak is A_i × Ppeak."));
    m_bpeak = new ParameterSlider(tr("Bpeak"), tr("GB/s"), logScale(0.1, 1e4, 1, Limits::maxRate), 3, socBox);
    m_bpeak->setToolTipText(tr("Bpeak: off-chip (DRAM) bandwidth shared by all IPs, in GB/s."));
    socLayout->addWidget(m_ppeak);
    socLayout->addWidget(m_bpeak);
    layout->addWidget(socBox);
    connect(m_ppeak, &ParameterSlider::valueChanged, m_document, &GablesDocument::setPpeak);
    connect(m_bpeak, &ParameterSlider::valueChanged, m_document, &GablesDocument::setBpeak);
    trackDrags(m_ppeak);
    trackDrags(m_bpeak);

    layout->addWidget(makeExtensionsBox());

    m_ipLayout = new QVBoxLayout;
    layout->addLayout(m_ipLayout);

    m_add = new QPushButton(tr("Add IP"), this);
    m_add->setToolTip(tr("Add an IP with no work (f = 0); give it work with its f slider."));
    connect(m_add, &QPushButton::clicked, m_document, [this] { m_document->addIp(); });
    layout->addWidget(m_add);
    layout->addStretch(1);

    rebuild();
}

QWidget *GablesParamPanel::makeExtensionsBox()
{
    auto *box = new QGroupBox(tr("Beyond the paper: system cache, buses, serial work"), this);
    box->setToolTip(tr("Extensions of the basic Gables model. All are off by default; with them off every "
                       "number equals the paper's model."));
    auto *v = new QVBoxLayout(box);
    m_serialized = new QCheckBox(tr("IPs run one after another (serialized work)"), box);
    m_serialized->setToolTip(tr("T = Σ_i max(C_i, D_i/B_i, m_i·D_i/Bpeak) instead of the maximum over "
                                "concurrent IPs."));
    v->addWidget(m_serialized);
    connect(m_serialized, &QCheckBox::toggled, m_document, &GablesDocument::setSerialized);

    m_msmEnabled = new QCheckBox(tr("Memory-side memory (system cache before DRAM)"), box);
    m_msmEnabled->setToolTip(tr("Each IP's traffic reaches DRAM only in its miss ratio m_i: "
                                "T_mem = Σ m_i·D_i / Bpeak."));
    v->addWidget(m_msmEnabled);
    connect(m_msmEnabled, &QCheckBox::toggled, m_document, [this](bool on) {
        if (on && m_document->soc().msmBandwidthGBps == 0)
            m_document->setMsmBandwidth(4 * m_document->soc().bpeakGBps);
        m_document->setMemorySideMemory(on);
    });
    auto *msmRow = new QHBoxLayout;
    m_msmLimited = new QCheckBox(box);
    m_msmLimited->setToolTip(tr("Whether the cache's own bandwidth B_msm bounds performance: "
                                "T_msm = Σ D_i / B_msm."));
    m_msm = new ParameterSlider(tr("B_msm"), tr("GB/s"), logScale(0.1, 1e5, 1, Limits::maxRate), 3, box);
    m_msm->setToolTipText(tr("B_msm: bandwidth of the memory-side memory, in GB/s."));
    trackDrags(m_msm);
    msmRow->addWidget(m_msmLimited);
    msmRow->addWidget(m_msm, 1);
    v->addLayout(msmRow);
    connect(m_msmLimited, &QCheckBox::toggled, m_document, [this](bool on) {
        m_document->setMsmBandwidth(on ? std::max(m_msm->value(), 1e-3) : 0.0);
    });
    connect(m_msm, &ParameterSlider::valueChanged, m_document, [this](double gbps) {
        if (m_msmLimited->isChecked())
            m_document->setMsmBandwidth(gbps);
    });

    auto *busTitle = new QLabel(tr("Interconnect buses (each IP lists the buses on its path):"), box);
    busTitle->setWordWrap(true);
    v->addWidget(busTitle);
    m_busLayout = new QVBoxLayout;
    v->addLayout(m_busLayout);
    m_addBus = new QPushButton(tr("Add bus"), box);
    m_addBus->setToolTip(tr("Add a shared bus; tick it in each IP that uses it. T_bus = Σ D_i / B_bus."));
    connect(m_addBus, &QPushButton::clicked, m_document, [this] { m_document->addBus(); });
    v->addWidget(m_addBus);
    return box;
}

void GablesParamPanel::rebuildBuses()
{
    for (QWidget *row : m_busRows)
        delete row;
    m_busRows.clear();
    m_busSliders.clear();
    const Soc &soc = m_document->soc();
    for (std::size_t j = 0; j < soc.buses.size(); ++j) {
        auto *row = new QWidget(this);
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto *slider = new ParameterSlider(QString::fromStdString(soc.buses[j].name), tr("GB/s"),
                                           logScale(0.1, 1e4, soc.buses[j].bandwidthGBps, Limits::maxRate), 3, row);
        slider->setToolTipText(tr("Bandwidth of bus %1, shared by the IPs on it, in GB/s.")
                                   .arg(QString::fromStdString(soc.buses[j].name)));
        auto *remove = new QToolButton(row);
        remove->setText(QStringLiteral("✕"));
        remove->setToolTip(tr("Remove this bus"));
        h->addWidget(slider, 1);
        h->addWidget(remove);
        const int bus = int(j);
        connect(slider, &ParameterSlider::valueChanged, m_document,
                [this, bus](double gbps) { m_document->setBusBandwidth(bus, gbps); });
        connect(remove, &QToolButton::clicked, m_document, [this, bus] { m_document->removeBus(bus); });
        trackDrags(slider);
        m_busLayout->addWidget(row);
        m_busRows.push_back(row);
        m_busSliders.push_back(slider);
    }
}

GablesParamPanel::IpControls GablesParamPanel::makeIpControls(int ip)
{
    const Ip &model = m_document->soc().ips[std::size_t(ip)];
    IpControls c;
    auto *box = new QGroupBox(this);
    c.box = box;
    auto *v = new QVBoxLayout(box);
    v->setSpacing(2);

    auto *header = new QHBoxLayout;
    auto *index = new QLabel(QStringLiteral("IP[%1]").arg(ip), box);
    c.name = new QLineEdit(QString::fromStdString(model.name), box);
    c.name->setToolTip(tr("Name of the IP; must be unique. Press Enter to apply."));
    c.name->setMaxLength(int(Limits::maxNameLength));
    c.color = new QToolButton(box);
    c.color->setToolTip(tr("Colour of this IP's roof and lines"));
    c.lock = new QCheckBox(tr("lock f"), box);
    c.lock->setToolTip(tr("Keep this IP's work fraction fixed while other fractions are dragged."));
    c.lock->setChecked(m_document->isLocked(ip));
    c.remove = new QToolButton(box);
    c.remove->setText(QStringLiteral("✕"));
    c.remove->setToolTip(tr("Remove this IP; its work goes to the others in proportion."));
    c.remove->setEnabled(m_document->soc().ips.size() > 1);
    header->addWidget(index);
    header->addWidget(c.name, 1);
    header->addWidget(c.color);
    header->addWidget(c.lock);
    header->addWidget(c.remove);
    v->addLayout(header);

    c.fraction = new ParameterSlider(tr("Work f"), QString(), SliderScale{0, 1, false, 1000}, 4, box);
    c.fraction->setToolTipText(tr("f_i: share of the use case's work done by this IP (0–1, dimensionless). "
                                  "The unlocked IPs rebalance so that all f sum to 1."));
    c.intensity = new ParameterSlider(tr("Intensity I"), tr("ops/B"),
                                      logScale(0.01, 1e4, model.intensity, Limits::maxIntensity), 4, box);
    c.intensity->setToolTipText(tr("I_i: operational intensity of this IP's work, in operations per byte "
                                   "moved off chip."));
    c.acceleration = new ParameterSlider(tr("Accel. A"), QStringLiteral("×"),
                                         logScale(0.01, 1e4, model.acceleration, Limits::maxAcceleration), 4, box);
    c.acceleration->setToolTipText(tr("A_i: this IP's peak relative to Ppeak (peak = A_i × Ppeak), dimensionless."));
    c.bandwidth = new ParameterSlider(tr("Link B"), tr("GB/s"),
                                      logScale(0.1, 1e4, model.bandwidthGBps, Limits::maxRate), 3, box);
    c.bandwidth->setToolTipText(tr("B_i: bandwidth of this IP's link to the interconnect, in GB/s."));
    for (ParameterSlider *s : {c.fraction, c.intensity, c.acceleration, c.bandwidth}) {
        v->addWidget(s);
        trackDrags(s);
    }
    const Soc &soc = m_document->soc();
    if (soc.memorySideMemory) {
        c.missRatio = new ParameterSlider(tr("Miss m"), QString(), SliderScale{0, 1, false, 1000}, 4, box);
        c.missRatio->setToolTipText(tr("m_i: share of this IP's off-chip bytes that miss the memory-side memory "
                                       "and reach DRAM (0–1, dimensionless)."));
        v->addWidget(c.missRatio);
        trackDrags(c.missRatio);
        connect(c.missRatio, &ParameterSlider::valueChanged, m_document,
                [this, ip](double m) { m_document->setMissRatio(ip, m); });
    }
    if (!soc.buses.empty()) {
        auto *row = new QHBoxLayout;
        row->addWidget(new QLabel(tr("On buses:"), box));
        for (std::size_t j = 0; j < soc.buses.size(); ++j) {
            auto *on = new QCheckBox(QString::fromStdString(soc.buses[j].name), box);
            on->setToolTip(tr("This IP's traffic crosses bus %1").arg(QString::fromStdString(soc.buses[j].name)));
            const int bus = int(j);
            connect(on, &QCheckBox::toggled, m_document, [this, ip, bus](bool checked) {
                m_document->setIpOnBus(ip, bus, checked);
            });
            row->addWidget(on);
            c.busBoxes.push_back(on);
        }
        row->addStretch(1);
        v->addLayout(row);
    }

    connect(c.fraction, &ParameterSlider::valueChanged, m_document, [this, ip](double f) {
        m_document->setFraction(ip, f);
    });
    connect(c.intensity, &ParameterSlider::valueChanged, m_document, [this, ip](double x) {
        m_document->setIntensity(ip, x);
    });
    connect(c.acceleration, &ParameterSlider::valueChanged, m_document, [this, ip](double x) {
        m_document->setAcceleration(ip, x);
    });
    connect(c.bandwidth, &ParameterSlider::valueChanged, m_document, [this, ip](double x) {
        m_document->setBandwidth(ip, x);
    });
    connect(c.lock, &QCheckBox::toggled, m_document, [this, ip](bool on) { m_document->setLocked(ip, on); });
    connect(c.remove, &QToolButton::clicked, m_document, [this, ip] { m_document->removeIp(ip); });
    connect(c.name, &QLineEdit::editingFinished, this, [this, ip] {
        if (std::size_t(ip) >= m_ips.size())
            return;
        QLineEdit *edit = m_ips[std::size_t(ip)].name;
        QString error;
        if (!m_document->renameIp(ip, edit->text(), &error)) {
            emit message(tr("Rename refused: %1").arg(error));
            edit->setText(QString::fromStdString(m_document->soc().ips[std::size_t(ip)].name));
        }
    });
    connect(c.color, &QToolButton::clicked, this, [this, ip] {
        const QColor current = GablesPlot::ipColor(m_document->soc().ips[std::size_t(ip)], ip);
        const QColor chosen = QColorDialog::getColor(current, this, tr("Colour of IP[%1]").arg(ip));
        if (chosen.isValid())
            m_document->setColor(ip, chosen.name());
    });
    return c;
}

void GablesParamPanel::updateColorButton(int ip)
{
    const QColor color = GablesPlot::ipColor(m_document->soc().ips[std::size_t(ip)], ip);
    auto it = m_swatches.find(color.rgba());
    if (it == m_swatches.end()) {
        if (m_swatches.size() >= 256) // colours picked one after another: bounded all the same
            m_swatches.clear();
        QPixmap swatch(14, 14);
        swatch.fill(color);
        it = m_swatches.insert(color.rgba(), QIcon(swatch));
    }
    m_ips[std::size_t(ip)].color->setIcon(*it);
}

void GablesParamPanel::rebuild()
{
    setUpdatesEnabled(false);
    for (IpControls &c : m_ips)
        delete c.box;
    m_ips.clear();
    const Soc &soc = m_document->soc();
    m_ppeak->setScale(logScale(0.1, 1e5, soc.ppeakGops, Limits::maxRate));
    m_bpeak->setScale(logScale(0.1, 1e4, soc.bpeakGBps, Limits::maxRate));
    for (std::size_t i = 0; i < soc.ips.size(); ++i) {
        m_ips.push_back(makeIpControls(int(i)));
        m_ipLayout->addWidget(m_ips.back().box);
        updateColorButton(int(i));
    }
    m_add->setEnabled(soc.ips.size() < kMaxIps);
    m_msm->setScale(logScale(0.1, 1e5, soc.msmBandwidthGBps > 0 ? soc.msmBandwidthGBps : soc.bpeakGBps, Limits::maxRate));
    rebuildBuses();
    refreshValues();
    setUpdatesEnabled(true);
}

void GablesParamPanel::refreshValues()
{
    const Soc &soc = m_document->soc();
    m_ppeak->setValue(soc.ppeakGops);
    m_bpeak->setValue(soc.bpeakGBps);
    for (std::size_t i = 0; i < m_ips.size() && i < soc.ips.size(); ++i) {
        const Ip &ip = soc.ips[i];
        m_ips[i].fraction->setValue(ip.fraction);
        m_ips[i].intensity->setValue(ip.intensity);
        m_ips[i].acceleration->setValue(ip.acceleration);
        m_ips[i].bandwidth->setValue(ip.bandwidthGBps);
        if (m_ips[i].missRatio)
            m_ips[i].missRatio->setValue(ip.missRatio);
        for (std::size_t j = 0; j < m_ips[i].busBoxes.size() && j < soc.buses.size(); ++j) {
            const QSignalBlocker block(m_ips[i].busBoxes[j]);
            m_ips[i].busBoxes[j]->setChecked(std::find(ip.buses.begin(), ip.buses.end(), soc.buses[j].name)
                                             != ip.buses.end());
        }
    }
    {
        const QSignalBlocker a(m_serialized), b(m_msmEnabled), c(m_msmLimited);
        m_serialized->setChecked(soc.serialized);
        m_msmEnabled->setChecked(soc.memorySideMemory);
        m_msmLimited->setChecked(soc.msmBandwidthGBps > 0);
    }
    m_msmLimited->setEnabled(soc.memorySideMemory);
    m_msm->setEnabled(soc.memorySideMemory && soc.msmBandwidthGBps > 0);
    if (soc.msmBandwidthGBps > 0)
        m_msm->setValue(soc.msmBandwidthGBps);
    for (std::size_t j = 0; j < m_busSliders.size() && j < soc.buses.size(); ++j)
        m_busSliders[j]->setValue(soc.buses[j].bandwidthGBps);
}

} // namespace studio
