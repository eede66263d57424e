#include "amaixplot.h"

#include "plotstyle.h"
#include "units.h"

#include <QJsonArray>
#include <QPainterPath>
#include <QPixmap>
#include <QJsonObject>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string_view>
#include <unordered_map>

namespace studio {

using namespace roofline::amaix;

namespace {

const QColor kMemoryColor(40, 40, 40);
const QColor kGhostColor(120, 120, 120); // a snapshot's markers, roofs and arrows
constexpr double kMinRadius = 3.5;
constexpr double kMaxRadius = 16;

QString layerName(const Network &network, int layer)
{
    return QString::fromStdString(network.layers[std::size_t(layer)].name);
}

QString modeName(ConvMode mode)
{
    return mode == ConvMode::None ? QString() : QStringLiteral("mode %1").arg(int(mode));
}

} // namespace

QColor unitColor(int unit)
{
    static const QColor palette[] = {QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0x9467bd),
                                     QColor(0x8c564b), QColor(0xe377c2), QColor(0x17becf), QColor(0xbcbd22),
                                     QColor(0xd62728), QColor(0x7f7f7f)};
    return unit < 0 ? QColor(0x7f7f7f) : palette[std::size_t(unit) % std::size(palette)];
}

QColor boundColor(Bound bound)
{
    return bound == Bound::Compute ? QColor(0x1f77b4) : QColor(0xd62728);
}

std::vector<LayerMarker> layerMarkers(const std::vector<LayerSummary> &layers, double totalNs, MarkerColoring coloring)
{
    std::vector<LayerMarker> markers;
    markers.reserve(layers.size());
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const LayerSummary &l = layers[i];
        const double x = l.intensity();
        const double y = l.performance();
        if (l.onHost || !(x > 0) || !(y > 0))
            continue; // nothing on a log-log roofline: host layers, layers that move no data
        LayerMarker m;
        m.x = x;
        m.y = y;
        const double share = totalNs > 0 ? l.timeNs / totalNs : 0;
        // Area proportional to the time share; a floor keeps short layers visible.
        m.radius = std::max(kMinRadius, kMaxRadius * std::sqrt(std::clamp(share, 0.0, 1.0)));
        m.hollow = l.pipelined;
        m.color = coloring == MarkerColoring::ByUnit ? unitColor(l.unit) : boundColor(l.bound);
        m.row = int(i);
        markers.push_back(m);
    }
    return markers;
}

// The arrows from a snapshot's markers to where the same layers are now, all
// in one plottable: one batch of lines and one filled path of heads. As 500
// QCPItemLines (each laid out and stroked alone, with its own QCPLineEnding)
// they were a fifth of an AMAIX update with a snapshot compared
// (docs/performance.md).
// Whether a painter draws the screen's raster, where shapes drawn the same way many times are
// stamped from images drawn once. SVG, PDF and scaled PNG exports draw the real shapes.
namespace {
bool stampsOn(const QCPPainter *painter)
{
    return painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster
        && !painter->modes().testFlag(QCPPainter::pmVectorized)
        && painter->transform().type() <= QTransform::TxTranslate;
}
} // namespace

class ArrowBatch : public QCPAbstractPlottable
{
public:
    ArrowBatch(QCPAxis *keyAxis, QCPAxis *valueAxis, const std::vector<GhostArrow> *arrows)
        : QCPAbstractPlottable(keyAxis, valueAxis)
        , m_arrows(arrows)
    {
        setSelectable(QCP::stNone);
    }
    static constexpr double kHeadLength = 9, kHeadWidth = 7; // px, QCPLineEnding::esSpikeArrow's proportions

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &found, QCP::SignDomain) const override
    {
        found = false; // the markers set the ranges
        return {};
    }
    QCPRange getValueRange(bool &found, QCP::SignDomain, const QCPRange &) const override
    {
        found = false;
        return {};
    }

    // Heads drawn on screen from a pre-drawn image (tests).
    quint64 stampedHeads() const { return m_stamps; }

protected:
    void draw(QCPPainter *painter) override
    {
        if (m_arrows->empty())
            return;
        applyDefaultAntialiasingHint(painter);
        // On screen each head is stamped from an image drawn once per direction (kDirections
        // of them): the heads as one antialiased path cost 13 000 instructions each, 4 M per
        // redraw with a 500-layer snapshot (docs/performance.md). Exports draw the paths.
        const bool stamped = stampsOn(painter) && !painter->modes().testFlag(QCPPainter::pmNoCaching); // PNG exports too
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        if (stamped && dpr != m_headDpr) {
            m_heads.clear();
            m_headDpr = dpr;
        }
        // QCPPainter draws antialiased shapes half a pixel on; the images are drawn unshifted.
        const double shift = painter->antialiasing() ? 0.5 : 0.0;
        QVector<QLineF> lines;
        lines.reserve(qsizetype(m_arrows->size()));
        QPainterPath heads;
        std::vector<std::pair<QPointF, int>> stamps; // where each head image goes, and which
        for (const GhostArrow &a : *m_arrows) {
            const QPointF from(keyAxis()->coordToPixel(a.from.x()), valueAxis()->coordToPixel(a.from.y()));
            QPointF to(keyAxis()->coordToPixel(a.to.x()), valueAxis()->coordToPixel(a.to.y()));
            const QPointF d = to - from;
            const double length = std::hypot(d.x(), d.y());
            if (!(length > 0.5) || !std::isfinite(length))
                continue; // less than a pixel: no direction to point in
            const QPointF u = d / length, n(-u.y(), u.x());
            if (stamped) {
                // The tip on the pixel grid, as the markers' images are; the line ends in its notch.
                to = QPointF(std::round(to.x()), std::round(to.y()));
                const int direction = int(std::lround(std::atan2(u.y(), u.x()) / (2 * std::numbers::pi) * kDirections))
                    % kDirections;
                stamps.emplace_back(to, (direction + kDirections) % kDirections);
            } else {
                const QPointF back = to - u * kHeadLength;
                heads.moveTo(to);
                heads.lineTo(back + n * (kHeadWidth / 2));
                heads.lineTo(to - u * (kHeadLength * 0.8));
                heads.lineTo(back - n * (kHeadWidth / 2));
                heads.closeSubpath();
            }
            // The line stops in the head's notch so its end does not poke through the tip.
            lines.append(QLineF(from, to - u * (kHeadLength * 0.8)));
        }
        const QColor color = kGhostColor.darker(120);
        painter->setPen(QPen(color, 1)); // 1 px: the fast stroker
        painter->setBrush(Qt::NoBrush);
        painter->drawLines(lines);
        if (!stamped) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(color);
            painter->drawPath(heads);
            return;
        }
        for (const auto &[tip, direction] : stamps) {
            painter->drawPixmap(QPointF(tip.x() - kHeadHalf - shift, tip.y() - kHeadHalf - shift),
                                headImage(direction, color, dpr));
            ++m_stamps;
        }
    }
    void drawLegendIcon(QCPPainter *, const QRectF &) const override {}

private:
    static constexpr int kDirections = 128; // 2.8° apart: the tip is within 0.25 px of the exact head's
    static constexpr int kHeadHalf = 10;    // the image is 2·kHeadHalf + 1 pixels square, the tip in its middle pixel

    // The head pointing in `direction` (of kDirections, counter-clockwise from +x on screen),
    // its tip at the centre of the image's middle pixel: the path draw() draws otherwise.
    const QPixmap &headImage(int direction, const QColor &color, qreal dpr)
    {
        QPixmap &image = m_heads[direction];
        if (!image.isNull() && m_headColor == color)
            return image;
        if (m_headColor != color) {
            m_heads.clear();
            m_headColor = color;
        }
        const int side = 2 * kHeadHalf + 1;
        QPixmap fresh(QSize(side, side) * dpr);
        fresh.setDevicePixelRatio(dpr);
        fresh.fill(Qt::transparent);
        QPainter p(&fresh);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        const double angle = 2 * std::numbers::pi * direction / kDirections;
        const QPointF u(std::cos(angle), std::sin(angle)), n(-u.y(), u.x());
        const QPointF tip(kHeadHalf + 0.5, kHeadHalf + 0.5), back = tip - u * kHeadLength;
        const QPointF head[] = {tip, back + n * (kHeadWidth / 2), tip - u * (kHeadLength * 0.8), back - n * (kHeadWidth / 2)};
        p.drawPolygon(head, 4);
        p.end();
        return m_heads[direction] = std::move(fresh);
    }

    const std::vector<GhostArrow> *m_arrows;
    std::unordered_map<int, QPixmap> m_heads; // by direction, for m_headColor and m_headDpr
    QColor m_headColor;
    qreal m_headDpr = 0;
    quint64 m_stamps = 0;
};

// All layer markers in one plottable: one draw call per marker, each with its
// own size and colour (QCPGraph has one scatter style per graph).
class LayerScatter : public QCPAbstractPlottable
{
public:
    LayerScatter(QCPAxis *keyAxis, QCPAxis *valueAxis, const std::vector<LayerMarker> *markers)
        : QCPAbstractPlottable(keyAxis, valueAxis)
        , m_markers(markers)
    {
        setSelectable(QCP::stNone); // clicks are handled by AmaixPlot
    }
    int selected = -1; // marker index
    bool ghost = false; // a snapshot's markers: faded grey, dashed outline

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &found, QCP::SignDomain) const override
    {
        return range(found, [](const LayerMarker &m) { return m.x; });
    }
    QCPRange getValueRange(bool &found, QCP::SignDomain, const QCPRange &) const override
    {
        return range(found, [](const LayerMarker &m) { return m.y; });
    }

protected:
    void draw(QCPPainter *painter) override
    {
        // Largest first so small markers stay on top and clickable.
        m_order.resize(m_markers->size());
        for (std::size_t i = 0; i < m_order.size(); ++i)
            m_order[i] = int(i);
        std::sort(m_order.begin(), m_order.end(),
                  [this](int a, int b) { return (*m_markers)[std::size_t(a)].radius > (*m_markers)[std::size_t(b)].radius; });
        applyScattersAntialiasingHint(painter);
        // On screen each marker is a cached image: an antialiased ellipse costs
        // ~30 000 instructions to fill and stroke, and 500 layers plus a
        // snapshot's 500 made the replot miss a frame (docs/performance.md).
        // SVG and PDF get real ellipses.
        const bool raster = stampsOn(painter);
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        if (raster && dpr != m_cacheDpr) {
            m_cache.clear();
            m_cacheDpr = dpr;
        }
        for (int i : m_order) {
            const LayerMarker &m = (*m_markers)[std::size_t(i)];
            const QPointF at(keyAxis()->coordToPixel(m.x), valueAxis()->coordToPixel(m.y));
            if (raster) {
                const QPixmap &image = cached(m, dpr);
                const QSizeF size = QSizeF(image.size()) / dpr;
                painter->drawPixmap(QPointF(at.x() - size.width() / 2, at.y() - size.height() / 2), image);
            } else {
                paintMarker(painter, m, at, m.radius);
            }
        }
        if (selected >= 0 && std::size_t(selected) < m_markers->size()) {
            const LayerMarker &m = (*m_markers)[std::size_t(selected)];
            const QPointF at(keyAxis()->coordToPixel(m.x), valueAxis()->coordToPixel(m.y));
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(Qt::black, 2.5));
            painter->drawEllipse(at, m.radius + 4, m.radius + 4);
        }
    }
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override
    {
        painter->setPen(ghost ? QPen(kGhostColor, 1) : QPen(QColor(90, 90, 90), 1));
        painter->setBrush(ghost ? QColor(kGhostColor.red(), kGhostColor.green(), kGhostColor.blue(), 45)
                                : QColor(160, 160, 160, 170));
        const QPointF c = rect.center();
        painter->drawEllipse(QPointF(c.x() - 5, c.y() + 2), 3, 3);
        painter->drawEllipse(QPointF(c.x() + 4, c.y() - 1), 6, 6);
    }

private:
    void paintMarker(QPainter *painter, const LayerMarker &m, const QPointF &at, double radius) const
    {
        if (ghost) { // a solid outline: dashed antialiased ellipses are slow to draw
            painter->setPen(QPen(kGhostColor, 1));
            painter->setBrush(QColor(kGhostColor.red(), kGhostColor.green(), kGhostColor.blue(), 45));
        } else if (m.hollow) {
            painter->setPen(QPen(m.color, 1.8));
            painter->setBrush(QColor(255, 255, 255, 200));
        } else {
            QColor fill = m.color;
            fill.setAlpha(170);
            painter->setPen(QPen(m.color.darker(130), 1));
            painter->setBrush(fill);
        }
        painter->drawEllipse(at, radius, radius);
    }

    // The marker's image at a quarter-pixel radius, drawn once per colour and style.
    const QPixmap &cached(const LayerMarker &m, qreal dpr)
    {
        const int quarters = int(std::lround(m.radius * 4));
        const quint64 key = (quint64(m.color.rgba()) << 32) | (quint64(m.hollow) << 31) | quint64(quarters);
        auto it = m_cache.find(key);
        if (it != m_cache.end())
            return it->second;
        const double radius = quarters / 4.0;
        const int side = int(std::ceil(2 * radius + 4));
        QPixmap image(QSize(side, side) * dpr);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::transparent);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        paintMarker(&p, m, QPointF(side / 2.0, side / 2.0), radius);
        p.end();
        if (m_cache.size() > 4096)
            m_cache.clear(); // bounded: radii come from time shares
        return m_cache.emplace(key, std::move(image)).first->second;
    }

    template <typename F>
    QCPRange range(bool &found, F value) const
    {
        found = !m_markers->empty();
        QCPRange r(1, 1);
        for (std::size_t i = 0; i < m_markers->size(); ++i) {
            const double v = value((*m_markers)[i]);
            if (i == 0)
                r = QCPRange(v, v);
            r.expand(v);
        }
        return r;
    }

    const std::vector<LayerMarker> *m_markers;
    std::vector<int> m_order;
    std::unordered_map<quint64, QPixmap> m_cache;
    qreal m_cacheDpr = 0;
};

AmaixPlot::AmaixPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    setAntialiasedElements(QCP::aePlottables | QCP::aeScatters | QCP::aeItems | QCP::aeLegendItems | QCP::aeAxes);
    setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid);
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phImmediateRefresh, false); // paint with the rest of the window, once per update
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMinimumSize(420, 300);
    setAutoAddPlottableToLegend(false);

    m_title = setUpRooflineAxes(this, QStringLiteral("Operational intensity I (ops/byte)"),
                                QStringLiteral("Attained performance P (Gops/s)"));
    // Layer names go where they cover no other name, in pixels: after each layout.
    connect(this, &QCustomPlot::afterLayout, this, &AmaixPlot::placeNameLabels);
    // Under the axes, in columns: with a dozen roofs and markers everywhere it never hides data.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(3);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(8, 2, 8, 4));

    // Created first so it is drawn under the current markers.
    m_ghostScatter = new LayerScatter(xAxis, yAxis, &m_ghostMarkers);
    m_ghostScatter->ghost = true;
    m_scatter = new LayerScatter(xAxis, yAxis, &m_markers);
    m_scatter->setName(QStringLiteral("Layers (area ∝ share of time)"));
    m_arrowBatch = new ArrowBatch(xAxis, yAxis, &m_arrows); // above the markers
    m_arrowBatch->removeFromLegend();

    auto legendOnly = [this](const QString &name, QColor color, bool hollow) {
        QCPGraph *g = addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, hollow ? QPen(color, 1.8) : QPen(color.darker(130)),
                                           hollow ? QBrush(Qt::white) : QBrush(color), 9));
        g->setName(name);
        return g;
    };
    m_computeLegend = legendOnly(QStringLiteral("Compute-bound layer"), boundColor(Bound::Compute), false);
    m_memoryLegend = legendOnly(QStringLiteral("Memory-bound layer"), boundColor(Bound::Memory), false);
    m_pipelinedLegend = legendOnly(QStringLiteral("Hollow: hidden in another layer's pipe"), QColor(90, 90, 90), true);

    m_message = new QCPItemText(this);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.4);
    m_message->setColor(QColor(0xb00020));
    m_message->setBrush(QColor(255, 255, 255, 235));
    m_message->setPadding(QMargins(8, 4, 8, 4));
    m_message->setVisible(false);

    for (QCPAxis *axis : {xAxis, yAxis}) {
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
            if (m_applyingRanges)
                return;
            m_autoRange = false;
            updateNumberFormats();
        });
    }
}

void AmaixPlot::setModel(const Network *network, const Accelerator *accelerator, const Options &options,
                         const Result *result, const std::vector<LayerSummary> *layers)
{
    m_network = network;
    m_accelerator = accelerator;
    m_options = options;
    m_result = result;
    m_layers = layers;
    rebuild();
}

void AmaixPlot::setColoring(MarkerColoring coloring)
{
    if (coloring == m_coloring)
        return;
    m_coloring = coloring;
    if (m_network)
        rebuild();
    replot();
}

QCPGraph *AmaixPlot::unitRoof(int unit) const
{
    if (unit < 0 || std::size_t(unit) >= m_unitRoofIndex.size() || m_unitRoofIndex[std::size_t(unit)] < 0)
        return nullptr;
    return m_unitRoofs[std::size_t(m_unitRoofIndex[std::size_t(unit)])];
}

QCPGraph *AmaixPlot::memoryRoof(int memory) const
{
    return memory >= 0 && std::size_t(memory) < m_memoryRoofs.size() && m_memoryRoofs[std::size_t(memory)]->visible()
        ? m_memoryRoofs[std::size_t(memory)]
        : nullptr;
}

void AmaixPlot::rebuild()
{
    const Network &net = *m_network;
    const Accelerator &acc = *m_accelerator;
    const Result &res = *m_result;
    m_markers = layerMarkers(*m_layers, res.totalNs, m_coloring);
    m_peaks = unitPeaks(acc, m_options, res);

    const QString scaling = acc.scaling == ScalingModel::Nvdla ? QStringLiteral("nvdla") : QStringLiteral("general");
    QString title = QStringLiteral("%1 on %2").arg(QString::fromStdString(net.name), QString::fromStdString(acc.name));
    if (res.ok()) {
        const TimeUnit unit = timeUnitFor(res.totalNs);
        title += QStringLiteral("\n%1 %2 per inference · %3 FPS · %4 · %5 model%6")
                     .arg(formatValue(res.totalNs * unit.perNs), unit.name, formatValue(res.fps),
                          QString::fromStdString(res.dataType), scaling,
                          m_options.refine ? QStringLiteral(" · refined") : QString());
    }
    m_title->setText(title);
    m_message->setVisible(!res.ok());
    if (!res.ok())
        m_message->setText(QStringLiteral("%1: %2").arg(QString::fromLatin1(statusName(res.status)),
                                                        QString::fromStdString(res.error)));

    // Which units and memories the network uses: only their roofs are drawn.
    std::vector<bool> unitUsed(acc.units.size(), false), memoryUsed(acc.memories.size(), false);
    for (const LayerSummary &l : *m_layers) {
        if (l.unit >= 0 && std::size_t(l.unit) < unitUsed.size())
            unitUsed[std::size_t(l.unit)] = true;
        if (l.memory >= 0 && std::size_t(l.memory) < memoryUsed.size())
            memoryUsed[std::size_t(l.memory)] = true;
    }
    double maxPeak = 0, minPeak = 1e300, maxBandwidth = 0, minBandwidth = 1e300;
    for (std::size_t u = 0; u < acc.units.size(); ++u) {
        if (unitUsed[u] && m_peaks[u] > 0) {
            maxPeak = std::max(maxPeak, m_peaks[u]);
            minPeak = std::min(minPeak, m_peaks[u]);
        }
    }
    for (std::size_t m = 0; m < acc.memories.size(); ++m) {
        if (memoryUsed[m]) {
            maxBandwidth = std::max(maxBandwidth, acc.memories[m].bandwidthGBps);
            minBandwidth = std::min(minBandwidth, acc.memories[m].bandwidthGBps);
        }
    }

    // Ranges: every marker and every ridge, padded and rounded to whole decades.
    double xLo = 1e300, xHi = 0, yLo = 1e300, yHi = 0;
    for (const auto *markers : {&m_markers, &m_ghostMarkers}) {
    for (const LayerMarker &m : *markers) {
        xLo = std::min(xLo, m.x);
        xHi = std::max(xHi, m.x);
        yLo = std::min(yLo, m.y);
        yHi = std::max(yHi, m.y);
    }
    }
    if (maxPeak > 0) {
        yHi = std::max(yHi, maxPeak);
        yLo = std::min(yLo, minPeak);
        if (maxBandwidth > 0) {
            xHi = std::max(xHi, maxPeak / minBandwidth);
            xLo = std::min(xLo, minPeak / maxBandwidth);
        }
    }
    if (!(xHi > 0) || !(yHi > 0)) {
        xLo = 0.1, xHi = 1000, yLo = 0.1, yHi = 1000;
    }
    auto decades = [](double lo, double hi, double padLo, double padHi) {
        return QCPRange(std::pow(10.0, std::floor(std::log10(lo / padLo))), std::pow(10.0, std::ceil(std::log10(hi * padHi))));
    };
    m_autoX = decades(xLo, xHi, 2, 2);
    m_autoY = decades(yLo, yHi, 2, 2.5);

    legend->clearItems();
    for (QCPItemText *label : m_roofLabels)
        label->setVisible(false);
    std::size_t labelCount = 0;
    auto takeLabel = [&]() {
        if (labelCount == m_roofLabels.size()) {
            auto *label = new QCPItemText(this);
            label->setClipToAxisRect(true);
            QFont f = font();
            f.setPointSize(9);
            label->setFont(f);
            label->setPadding(QMargins(3, 1, 3, 1));
            label->setBrush(QColor(255, 255, 255, 200));
            m_roofLabels.push_back(label);
        }
        QCPItemText *label = m_roofLabels[labelCount++];
        label->setVisible(true);
        return label;
    };

    // Memory roofs: B·I up to the highest compute roof.
    while (m_memoryRoofs.size() < acc.memories.size()) {
        m_memoryRoofs.push_back(addGraph());
        m_memoryRoofs.back()->setPen(QPen(kMemoryColor, 2, Qt::DashDotLine));
    }
    const double roofTop = maxPeak > 0 ? maxPeak : m_autoY.upper;
    for (std::size_t m = 0; m < m_memoryRoofs.size(); ++m) {
        QCPGraph *g = m_memoryRoofs[m];
        const bool show = m < acc.memories.size() && memoryUsed[m];
        g->setVisible(show);
        if (!show) {
            g->data()->clear();
            continue;
        }
        const double b = acc.memories[m].bandwidthGBps;
        // From the bottom or left edge of the automatic view to the highest roof.
        const double x0 = std::max(m_autoX.lower, m_autoY.lower / b), x1 = roofTop / b;
        g->setData(QVector<double>{x0, x1}, QVector<double>{b * x0, b * x1}, true);
        g->setName(QStringLiteral("%1 roof: %2 GB/s · I").arg(QString::fromStdString(acc.memories[m].name), formatValue(b)));
        g->addToLegend();
    }

    // One horizontal compute roof per used unit, from its ridge to the right.
    m_unitRoofIndex.assign(acc.units.size(), -1);
    std::size_t roofs = 0;
    const double bandwidth = maxBandwidth > 0 ? maxBandwidth : 1;
    for (std::size_t u = 0; u < acc.units.size(); ++u) {
        if (!unitUsed[u] || !(m_peaks[u] > 0))
            continue;
        if (roofs == m_unitRoofs.size())
            m_unitRoofs.push_back(addGraph());
        QCPGraph *g = m_unitRoofs[roofs];
        m_unitRoofIndex[u] = int(roofs++);
        g->setVisible(true);
        const double peak = m_peaks[u];
        const double ridge = peak / bandwidth;
        g->setData(QVector<double>{std::max(ridge, m_autoX.lower), m_autoX.upper}, QVector<double>{peak, peak}, true);
        g->setPen(QPen(unitColor(int(u)), 2.2));
        const QString name = QString::fromStdString(acc.units[u].name);
        g->setName(QStringLiteral("%1 roof: %2 Gops/s").arg(name, formatValue(peak)));
        g->addToLegend();
        // Units with the same peak share one label ("PDP, CDP 8 Gops/s").
        bool merged = false;
        for (std::size_t k = 0; k < labelCount; ++k) {
            if (m_roofLabels[k]->position->value() == peak) {
                const QString text = m_roofLabels[k]->text();
                m_roofLabels[k]->setText(text.left(text.lastIndexOf(QLatin1Char(' '), text.lastIndexOf(QLatin1Char(' ')) - 1))
                                         + QStringLiteral(", %1 %2 Gops/s").arg(name, formatValue(peak)));
                merged = true;
            }
        }
        if (merged)
            continue;
        QCPItemText *label = takeLabel();
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.01, peak);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setColor(unitColor(int(u)).darker(120));
        label->setText(QStringLiteral("%1 %2 Gops/s").arg(name, formatValue(peak)));
    }
    for (std::size_t i = roofs; i < m_unitRoofs.size(); ++i) {
        m_unitRoofs[i]->setVisible(false);
        m_unitRoofs[i]->data()->clear();
    }

    m_scatter->addToLegend();
    if (m_coloring == MarkerColoring::ByBound) {
        m_computeLegend->addToLegend();
        m_memoryLegend->addToLegend();
    }
    if (std::any_of(m_markers.begin(), m_markers.end(), [](const LayerMarker &m) { return m.hollow; }))
        m_pipelinedLegend->addToLegend();

    rebuildGhost();
    setSelectedRow(m_selectedRow);
    if (m_autoRange)
        applyRanges();
}

void AmaixPlot::setGhost(const Network *network, const Accelerator *accelerator, const Options &options,
                         const Result *result, const std::vector<LayerSummary> *layers, const QString &name)
{
    m_ghostMarkers.clear();
    m_ghostNames.clear();
    m_ghostPeaks.clear();
    m_ghostBandwidths.clear();
    m_ghostName = name;
    if (!network || !accelerator || !result || !layers || !result->ok())
        return; // nothing to draw of a snapshot that does not evaluate
    m_ghostMarkers = layerMarkers(*layers, result->totalNs, MarkerColoring::ByUnit);
    for (const LayerMarker &m : m_ghostMarkers)
        m_ghostNames.push_back(network->layers[std::size_t((*layers)[std::size_t(m.row)].layer)].name);
    const std::vector<double> peaks = unitPeaks(*accelerator, options, *result);
    std::vector<bool> unitUsed(accelerator->units.size(), false), memoryUsed(accelerator->memories.size(), false);
    for (const LayerSummary &l : *layers) {
        if (l.unit >= 0 && std::size_t(l.unit) < unitUsed.size())
            unitUsed[std::size_t(l.unit)] = true;
        if (l.memory >= 0 && std::size_t(l.memory) < memoryUsed.size())
            memoryUsed[std::size_t(l.memory)] = true;
    }
    for (std::size_t u = 0; u < peaks.size(); ++u) {
        if (unitUsed[u] && peaks[u] > 0)
            m_ghostPeaks.push_back(peaks[u]);
    }
    for (std::size_t m = 0; m < accelerator->memories.size(); ++m) {
        if (memoryUsed[m])
            m_ghostBandwidths.push_back(accelerator->memories[m].bandwidthGBps);
    }
}

void AmaixPlot::rebuildGhost()
{
    const bool shown = !m_ghostMarkers.empty() || !m_ghostPeaks.empty();
    if (shown) {
        m_ghostScatter->setName(QStringLiteral("\u201c%1\u201d (faded)").arg(m_ghostName));
        m_ghostScatter->addToLegend();
    }
    // Faded roofs: compute roofs from their ridge, memory roofs up to the highest roof.
    const double maxPeak = m_ghostPeaks.empty() ? m_autoY.upper : *std::max_element(m_ghostPeaks.begin(), m_ghostPeaks.end());
    const double maxBandwidth = m_ghostBandwidths.empty() ? 1 : *std::max_element(m_ghostBandwidths.begin(), m_ghostBandwidths.end());
    const std::size_t roofs = m_ghostPeaks.size() + m_ghostBandwidths.size();
    while (m_ghostRoofs.size() < roofs) {
        QCPGraph *g = addGraph();
        // One pixel wide, less transparent than the 1.6 px it was (alpha 130): a line wider
        // than a pixel is filled as a polygon by the raster engine (the nn-Meter snapshot
        // line, 60bee8b); one pixel wide it takes the cosmetic stroker.
        QColor c = kGhostColor;
        c.setAlpha(180);
        g->setPen(QPen(c, 1, Qt::DotLine));
        g->removeFromLegend();
        m_ghostRoofs.push_back(g);
    }
    std::size_t r = 0;
    for (double peak : m_ghostPeaks) {
        const double ridge = peak / maxBandwidth;
        m_ghostRoofs[r++]->setData(QVector<double>{std::max(ridge, m_autoX.lower), m_autoX.upper},
                                   QVector<double>{peak, peak}, true);
    }
    for (double b : m_ghostBandwidths) {
        const double x0 = std::max(m_autoX.lower, m_autoY.lower / b), x1 = maxPeak / b;
        m_ghostRoofs[r++]->setData(QVector<double>{x0, x1}, QVector<double>{b * x0, b * x1}, true);
    }
    for (std::size_t i = 0; i < m_ghostRoofs.size(); ++i) {
        m_ghostRoofs[i]->setVisible(i < roofs);
        if (i >= roofs)
            m_ghostRoofs[i]->data()->clear();
    }

    // Arrows from each ghost marker to the same layer's current marker, where it moved.
    m_arrows.clear();
    if (!m_ghostMarkers.empty() && m_network && m_layers) {
        std::unordered_map<std::string_view, std::size_t> current;
        current.reserve(m_markers.size());
        for (std::size_t i = 0; i < m_markers.size(); ++i)
            current.emplace(m_network->layers[std::size_t((*m_layers)[std::size_t(m_markers[i].row)].layer)].name, i);
        for (std::size_t g = 0; g < m_ghostMarkers.size(); ++g) {
            const auto it = current.find(m_ghostNames[g]);
            if (it == current.end())
                continue;
            const LayerMarker &from = m_ghostMarkers[g];
            const LayerMarker &to = m_markers[it->second];
            if (std::abs(from.x - to.x) <= 1e-9 * to.x && std::abs(from.y - to.y) <= 1e-9 * to.y)
                continue; // did not move
            m_arrows.push_back({QPointF(from.x, from.y), QPointF(to.x, to.y)});
        }
    }
}

quint64 AmaixPlot::stampedArrowHeads() const
{
    return m_arrowBatch->stampedHeads();
}

int AmaixPlot::ghostRoofCount() const
{
    return int(std::count_if(m_ghostRoofs.begin(), m_ghostRoofs.end(), [](QCPGraph *g) { return g->visible(); }));
}

void AmaixPlot::applyRanges()
{
    m_applyingRanges = true;
    xAxis->setRange(m_autoX);
    yAxis->setRange(m_autoY);
    m_applyingRanges = false;
    updateNumberFormats();
}

void AmaixPlot::updateNumberFormats()
{
    for (QCPAxis *axis : {xAxis, yAxis})
        updateLogTickFormat(axis);
}

void AmaixPlot::resetView()
{
    m_autoRange = true;
    applyRanges();
    replot();
}

QJsonValue AmaixPlot::zoomState() const
{
    if (m_autoRange)
        return QJsonValue(QJsonValue::Null);
    auto pair = [](const QCPRange &r) { return QJsonArray{r.lower, r.upper}; };
    return QJsonObject{{QStringLiteral("x"), pair(xAxis->range())}, {QStringLiteral("y"), pair(yAxis->range())}};
}

void AmaixPlot::restoreZoom(const QJsonValue &zoom)
{
    // A log axis needs 0 < lower < upper < inf.
    auto read = [](const QJsonValue &value, QCPRange &out) {
        const QJsonArray pair = value.toArray();
        out = QCPRange(pair.at(0).toDouble(-1), pair.at(1).toDouble(-1));
        return pair.size() == 2 && out.lower > 0 && out.upper > out.lower && std::isfinite(out.upper);
    };
    QCPRange x, y;
    const QJsonObject ranges = zoom.toObject();
    if (!read(ranges.value(QStringLiteral("x")), x) || !read(ranges.value(QStringLiteral("y")), y)) {
        resetView();
        return;
    }
    xAxis->setRange(x); // marks the range as the user's
    yAxis->setRange(y);
    replot();
}

void AmaixPlot::setSelectedRow(int row)
{
    m_selectedRow = row;
    m_scatter->selected = -1;
    for (std::size_t i = 0; i < m_markers.size(); ++i) {
        if (m_markers[i].row == row)
            m_scatter->selected = int(i);
    }
    updateNamedMarkers();
}

void AmaixPlot::updateNamedMarkers()
{
    m_namedMarkers.clear();
    if (m_layers && m_result && m_result->totalNs > 0) {
        std::vector<int> byTime;
        for (std::size_t i = 0; i < m_markers.size(); ++i) {
            const LayerSummary &l = (*m_layers)[std::size_t(m_markers[i].row)];
            if (!l.pipelined && l.timeNs >= 0.03 * m_result->totalNs)
                byTime.push_back(int(i));
        }
        std::sort(byTime.begin(), byTime.end(), [&](int a, int b) {
            return (*m_layers)[std::size_t(m_markers[std::size_t(a)].row)].timeNs
                > (*m_layers)[std::size_t(m_markers[std::size_t(b)].row)].timeNs;
        });
        byTime.resize(std::min<std::size_t>(byTime.size(), 5));
        m_namedMarkers = byTime;
    }
    const int selected = m_scatter->selected;
    if (selected >= 0) {
        m_namedMarkers.erase(std::remove(m_namedMarkers.begin(), m_namedMarkers.end(), selected), m_namedMarkers.end());
        m_namedMarkers.insert(m_namedMarkers.begin(), selected); // placed first: it always gets its name
    }
    while (m_nameLabels.size() < m_namedMarkers.size()) {
        auto *label = new QCPItemText(this);
        label->setClipToAxisRect(true);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        QFont f = font();
        f.setPointSize(8);
        label->setFont(f);
        label->setPadding(QMargins(2, 0, 2, 0));
        label->setBrush(QColor(255, 255, 255, 200));
        m_nameLabels.push_back(label);
    }
    for (std::size_t i = 0; i < m_nameLabels.size(); ++i) {
        QCPItemText *label = m_nameLabels[i];
        label->setVisible(i < m_namedMarkers.size());
        if (i >= m_namedMarkers.size())
            continue;
        const LayerMarker &m = m_markers[std::size_t(m_namedMarkers[i])];
        label->setText(layerName(*m_network, (*m_layers)[std::size_t(m.row)].layer));
        label->setColor(QColor(30, 30, 30));
        label->setSelectedColor(QColor(30, 30, 30));
        QFont f = label->font();
        f.setBold(m_namedMarkers[i] == selected);
        label->setFont(f);
    }
}

void AmaixPlot::placeNameLabels()
{
    // Right of the marker, else left, above, below: the first place that covers
    // no name placed before and stays inside the axes. Else the name is left out.
    const QRectF area = QRectF(axisRect()->rect()).adjusted(2, 2, -2, -2);
    std::vector<QRectF> placed;
    for (std::size_t i = 0; i < m_namedMarkers.size() && i < m_nameLabels.size(); ++i) {
        QCPItemText *label = m_nameLabels[i];
        const int marker = m_namedMarkers[i];
        if (marker < 0 || std::size_t(marker) >= m_markers.size()) {
            label->setVisible(false);
            continue;
        }
        const QPointF p = markerPixel(marker);
        const double r = m_markers[std::size_t(marker)].radius + 3;
        const QSizeF size = QFontMetricsF(label->font()).size(0, label->text()) + QSizeF(4, 0);
        struct Place
        {
            QPointF anchor;
            Qt::Alignment alignment;
            QRectF box;
        };
        const Place places[] = {
            {p + QPointF(r, 0), Qt::AlignLeft | Qt::AlignVCenter, QRectF(QPointF(p.x() + r, p.y() - size.height() / 2), size)},
            {p - QPointF(r, 0), Qt::AlignRight | Qt::AlignVCenter,
             QRectF(QPointF(p.x() - r - size.width(), p.y() - size.height() / 2), size)},
            {p - QPointF(0, r), Qt::AlignHCenter | Qt::AlignBottom,
             QRectF(QPointF(p.x() - size.width() / 2, p.y() - r - size.height()), size)},
            {p + QPointF(0, r), Qt::AlignHCenter | Qt::AlignTop, QRectF(QPointF(p.x() - size.width() / 2, p.y() + r), size)},
        };
        bool done = false;
        for (const Place &place : places) {
            if (!area.contains(place.box)
                || std::any_of(placed.begin(), placed.end(), [&](const QRectF &b) { return b.intersects(place.box); }))
                continue;
            label->setPositionAlignment(place.alignment);
            label->position->setCoords(xAxis->pixelToCoord(place.anchor.x()), yAxis->pixelToCoord(place.anchor.y()));
            placed.push_back(place.box);
            done = true;
            break;
        }
        label->setVisible(done);
    }
}

QStringList AmaixPlot::markerNames() const
{
    QStringList names;
    for (std::size_t i = 0; i < m_nameLabels.size() && i < m_namedMarkers.size(); ++i) {
        if (m_nameLabels[i]->visible())
            names << m_nameLabels[i]->text();
    }
    return names;
}

QPointF AmaixPlot::markerPixel(int marker) const
{
    const LayerMarker &m = m_markers[std::size_t(marker)];
    return {xAxis->coordToPixel(m.x), yAxis->coordToPixel(m.y)};
}

int AmaixPlot::markerAt(const QPointF &pixel) const
{
    if (!axisRect()->rect().contains(pixel.toPoint()))
        return -1;
    int best = -1;
    double bestDistance = 1e300;
    for (std::size_t i = 0; i < m_markers.size(); ++i) {
        const double d = QLineF(pixel, markerPixel(int(i))).length();
        // Prefer the smallest marker among overlapping ones: it is drawn on top.
        const double score = d <= m_markers[i].radius + 3 ? m_markers[i].radius + d * 0.01 : 1e300;
        if (score < bestDistance) {
            bestDistance = score;
            best = int(i);
        }
    }
    return best;
}

QString AmaixPlot::tooltipAt(const QPointF &pixel) const
{
    if (!m_network)
        return {};
    const int marker = markerAt(pixel);
    if (marker < 0)
        return {};
    const LayerSummary &l = (*m_layers)[std::size_t(m_markers[std::size_t(marker)].row)];
    const Layer &layer = m_network->layers[std::size_t(l.layer)];
    const TimeUnit unit = timeUnitFor(std::max(l.timeNs, l.standaloneNs));
    QString text = QStringLiteral("%1 (%2) on %3\n").arg(layerName(*m_network, l.layer), QString::fromLatin1(layerTypeName(layer.type)),
                                                        QString::fromStdString(m_accelerator->units[std::size_t(l.unit)].name));
    text += QStringLiteral("n_ops = %1\nd_ifmap = %2 B, d_weight = %3 B, d_ofmap = %4 B\n")
                .arg(formatValue(l.ops), formatValue(l.dIfmap), formatValue(l.dWeight), formatValue(l.dOfmap));
    text += QStringLiteral("I = %1 ops/byte, P = %2 Gops/s\n").arg(formatValue(l.intensity()), formatValue(l.performance()));
    if (l.pipelined) {
        text += QStringLiteral("Runs inside another layer's pipe and does not set its time\n(alone: %1 %2)")
                    .arg(formatValue(l.standaloneNs * unit.perNs), unit.name);
    } else {
        const double share = m_result->totalNs > 0 ? l.timeNs / m_result->totalNs : 0;
        text += QStringLiteral("time = %1 %2 (%3% of the inference)")
                    .arg(formatValue(l.timeNs * unit.perNs), unit.name, formatValue(100 * share, 3));
    }
    text += QStringLiteral("\n%1-bound").arg(QString::fromLatin1(boundName(l.bound)));
    if (l.mode != ConvMode::None)
        text += QStringLiteral(", %1").arg(modeName(l.mode));
    if (l.tiles > 1)
        text += QStringLiteral(", %1 tiles").arg(l.tiles);
    return text;
}

void AmaixPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QString text = tooltipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void AmaixPlot::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->position().toPoint();
    QCustomPlot::mousePressEvent(event);
}

void AmaixPlot::mouseReleaseEvent(QMouseEvent *event)
{
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || (event->position().toPoint() - m_pressPos).manhattanLength() > 3)
        return; // a drag pans the view
    const int marker = markerAt(event->position());
    if (marker < 0)
        return;
    const int row = m_markers[std::size_t(marker)].row;
    setSelectedRow(row);
    replot(QCustomPlot::rpQueuedReplot);
    emit layerClicked(row);
}

void AmaixPlot::mouseDoubleClickEvent(QMouseEvent *event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
}

} // namespace studio
