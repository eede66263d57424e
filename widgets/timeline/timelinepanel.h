// The machine panel of the timeline view: a slider and a spin box for each
// pipe's throughput and start overhead (Init), the bus bandwidth and duplex
// mode, the core count and the start skew. Edits go to the TimelineDocument.
#pragma once

#include "verrocchio/trace.h"

#include <QList>
#include <QWidget>

#include <array>

class QComboBox;
class QSpinBox;

namespace studio {

class ParameterSlider;
class TimelineDocument;

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(TimelineDocument *document, QWidget *parent = nullptr);

    // Shows the document's values without emitting edits; rescales the
    // sliders when `rescale` (a new machine).
    void refreshValues(bool rescale = false);

    ParameterSlider *throughputSlider(roofline::verrocchio::Pipe pipe) const;
    ParameterSlider *initSlider(roofline::verrocchio::Pipe pipe) const;
    ParameterSlider *busSlider() const { return m_bus; }
    ParameterSlider *readSlider() const { return m_read; }
    ParameterSlider *writeSlider() const { return m_write; }
    ParameterSlider *skewSlider() const { return m_skew; }
    QComboBox *busModeBox() const { return m_mode; }
    QSpinBox *coresBox() const { return m_cores; }
    // The keyboard order top to bottom: each slider then its spin box.
    QList<QWidget *> focusChain() const;

private:
    void connectDrag(ParameterSlider *slider);

    TimelineDocument *m_document;
    std::array<ParameterSlider *, roofline::verrocchio::kPipeCount> m_throughput {};
    std::array<ParameterSlider *, roofline::verrocchio::kPipeCount> m_init {};
    ParameterSlider *m_bus = nullptr;
    ParameterSlider *m_read = nullptr;
    ParameterSlider *m_write = nullptr;
    ParameterSlider *m_skew = nullptr;
    QComboBox *m_mode = nullptr;
    QSpinBox *m_cores = nullptr;
};

} // namespace studio
