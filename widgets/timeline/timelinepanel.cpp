#include "timelinepanel.h"

#include "parameterslider.h"
#include "timelinedocument.h"
#include "verrocchio/io.h"
#include "verrocchio/layout.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::verrocchio;

namespace {

// A log scale two decades either side of `value`, within the model's limits.
SliderScale rateScale(double value)
{
    double lo = 0.1, hi = 1e4;
    if (std::isfinite(value) && value > 0) {
        lo = std::min(lo, std::pow(10.0, std::floor(std::log10(value)) - 2));
        hi = std::max(hi, std::pow(10.0, std::ceil(std::log10(value)) + 2));
    }
    return SliderScale { std::max(lo, 1e-6), std::min(hi, Limits::maxRate), true, 1000 };
}

// Linear from 0, at least to 1000 ns and to four times `value`.
SliderScale nsScale(double value, double limit)
{
    const double hi = std::max(1000.0, std::isfinite(value) ? 4 * value : 0);
    return SliderScale { 0, std::min(hi, limit), false, 1000 };
}

} // namespace

TimelinePanel::TimelinePanel(TimelineDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *layout = new QVBoxLayout(this);

    auto *pipes = new QGroupBox(tr("Pipes: throughput and start-up latency"), this);
    auto *pipesLayout = new QVBoxLayout(pipes);
    for (Pipe pipe : kLaneOrder) {
        const QString name = QString::fromLatin1(pipeName(pipe));
        const QString unit = movesBytes(pipe) ? tr("GB/s") : tr("Gops/s");
        auto *th = new ParameterSlider(tr("%1 Th").arg(name), unit, rateScale(1), 3, pipes);
        th->setToolTipText(tr("Th_%1: throughput of pipe %1, in %2 (%3 per ns); an instruction of size D takes "
                              "Init_%1 + D / Th_%1. Log scale.")
                               .arg(name, unit, movesBytes(pipe) ? tr("bytes") : tr("ops")));
        auto *init = new ParameterSlider(tr("%1 Init").arg(name), tr("ns"), nsScale(0, Limits::maxInitNs), 1, pipes);
        init->setToolTipText(tr("Init_%1: fixed start overhead of every instruction on pipe %1, in ns "
                                "(not shared with other transfers).").arg(name));
        connectDrag(th);
        connectDrag(init);
        pipesLayout->addWidget(th);
        pipesLayout->addWidget(init);
        m_throughput[pipeIndex(pipe)] = th;
        m_init[pipeIndex(pipe)] = init;
        connect(th, &ParameterSlider::valueChanged, m_document,
            [this, pipe](double v) { m_document->setThroughput(pipe, v); });
        connect(init, &ParameterSlider::valueChanged, m_document,
            [this, pipe](double v) { m_document->setInitNs(pipe, v); });
    }
    layout->addWidget(pipes);

    auto *bus = new QGroupBox(tr("Shared bus: every core's loads (MTE2) and stores (MTE3)"), this);
    auto *busLayout = new QVBoxLayout(bus);
    m_mode = new QComboBox(bus);
    m_mode->addItem(tr("Half duplex: reads and writes share B_bus"), int(BusMode::HalfDuplex));
    m_mode->addItem(tr("Separate read and write bandwidth"), int(BusMode::Separate));
    m_mode->setToolTip(tr("Bus mode (no unit): half duplex, where MTE2 reads and MTE3 writes share B_bus (the "
                          "seed's finding on the Ascend 310), or separate read and write bandwidths in GB/s."));
    busLayout->addWidget(m_mode);
    m_bus = new ParameterSlider(tr("B_bus"), tr("GB/s"), rateScale(1), 3, bus);
    m_bus->setToolTipText(
        tr("B_bus: bandwidth shared by every MTE2 and MTE3 transfer in flight (half duplex), in GB/s. "
           "Each gets min(Th_u, B_bus / n_active)."));
    m_read = new ParameterSlider(tr("Read"), tr("GB/s"), rateScale(1), 3, bus);
    m_read->setToolTipText(tr("Read bandwidth shared by MTE2 transfers (separate mode), in GB/s."));
    m_write = new ParameterSlider(tr("Write"), tr("GB/s"), rateScale(1), 3, bus);
    m_write->setToolTipText(tr("Write bandwidth shared by MTE3 transfers (separate mode), in GB/s."));
    busLayout->addWidget(m_bus);
    busLayout->addWidget(m_read);
    busLayout->addWidget(m_write);
    connectDrag(m_bus);
    connectDrag(m_read);
    connectDrag(m_write);
    layout->addWidget(bus);
    connect(m_mode, &QComboBox::currentIndexChanged, m_document, [this] {
        m_document->setBusMode(BusMode(m_mode->currentData().toInt()));
        refreshValues();
    });
    connect(m_bus, &ParameterSlider::valueChanged, m_document, &TimelineDocument::setBusBandwidth);
    connect(m_read, &ParameterSlider::valueChanged, m_document, &TimelineDocument::setReadBandwidth);
    connect(m_write, &ParameterSlider::valueChanged, m_document, &TimelineDocument::setWriteBandwidth);

    auto *cores = new QGroupBox(tr("Cores"), this);
    auto *coresLayout = new QFormLayout(cores);
    m_cores = new QSpinBox(cores);
    m_cores->setRange(1, Limits::maxCores);
    m_cores->setToolTip(tr("N: number of cores of the machine (a count, 1–%1); the trace needs at least as many "
                           "as it has programs.").arg(Limits::maxCores));
    coresLayout->addRow(tr("Cores N"), m_cores);
    m_skew = new ParameterSlider(tr("Skew δt"), tr("ns"), nsScale(0, Limits::maxSkewNs), 1, cores);
    m_skew->setToolTipText(tr("δt: start skew, in ns; core c starts at c·δt."));
    connectDrag(m_skew);
    coresLayout->addRow(m_skew);
    layout->addWidget(cores);
    connect(m_cores, &QSpinBox::valueChanged, m_document, &TimelineDocument::setCoreCount);
    connect(m_skew, &ParameterSlider::valueChanged, m_document, &TimelineDocument::setSkewNs);

    layout->addStretch(1);
    refreshValues(true);
}

void TimelinePanel::connectDrag(ParameterSlider *slider)
{
    // One drag of the thumb is one undo step.
    connect(slider, &ParameterSlider::dragStarted, m_document, &TimelineDocument::beginDrag);
    connect(slider, &ParameterSlider::dragFinished, m_document, &TimelineDocument::endDrag);
}

QList<QWidget *> TimelinePanel::focusChain() const
{
    QList<QWidget *> chain;
    auto add = [&](ParameterSlider *s) { chain << s->slider() << s->spinBox(); };
    for (Pipe pipe : kLaneOrder) {
        add(m_throughput[pipeIndex(pipe)]);
        add(m_init[pipeIndex(pipe)]);
    }
    chain << m_mode;
    add(m_bus);
    add(m_read);
    add(m_write);
    chain << m_cores;
    add(m_skew);
    return chain;
}

ParameterSlider *TimelinePanel::throughputSlider(Pipe pipe) const
{
    return m_throughput[pipeIndex(pipe)];
}

ParameterSlider *TimelinePanel::initSlider(Pipe pipe) const
{
    return m_init[pipeIndex(pipe)];
}

void TimelinePanel::refreshValues(bool rescale)
{
    const Machine &m = m_document->machine();
    for (Pipe pipe : kAllPipes) {
        if (rescale) {
            m_throughput[pipeIndex(pipe)]->setScale(rateScale(m.pipe(pipe).throughput));
            m_init[pipeIndex(pipe)]->setScale(nsScale(m.pipe(pipe).initNs, Limits::maxInitNs));
        }
        m_throughput[pipeIndex(pipe)]->setValue(m.pipe(pipe).throughput);
        m_init[pipeIndex(pipe)]->setValue(m.pipe(pipe).initNs);
    }
    if (rescale) {
        m_bus->setScale(rateScale(m.busGBps));
        m_read->setScale(rateScale(m.readGBps));
        m_write->setScale(rateScale(m.writeGBps));
        m_skew->setScale(nsScale(m.skewNs, Limits::maxSkewNs));
    }
    m_bus->setValue(m.busGBps);
    m_read->setValue(m.readGBps);
    m_write->setValue(m.writeGBps);
    m_skew->setValue(m.skewNs);
    const bool separate = m.busMode == BusMode::Separate;
    m_bus->setEnabled(!separate);
    m_read->setEnabled(separate);
    m_write->setEnabled(separate);
    {
        const QSignalBlocker block(m_mode);
        m_mode->setCurrentIndex(separate ? 1 : 0);
    }
    const QSignalBlocker block(m_cores);
    m_cores->setValue(m.coreCount);
}

} // namespace studio
