#include "gablesplot.h"

#include "plotstyle.h"
#include "plottextimages.h"
#include "units.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline::gables;

namespace {

constexpr std::size_t kMaxLegendIps = 10;  // past this only limiting roofs are listed
constexpr std::size_t kMaxVerticalLabels = 8;

const QColor kMemoryColor(40, 40, 40);
const QColor kAttainableColor(0, 0, 0);

// Whether a roof is among the bound's limiting terms: an IP's roof (either of
// its terms), or the memory, cache or bus roof of the given kind.
bool isLimiting(const Bound &bound, Term::Kind kind, int ip, int bus = -1)
{
    if (bound.kind == Bound::Kind::Serialized)
        return false; // no single roof sets a serialized time
    return std::any_of(bound.limiting.begin(), bound.limiting.end(), [&](const Term &t) {
        if (ip >= 0)
            return t.ip == ip;
        return t.ip < 0 && t.kind == kind && t.bus == bus;
    });
}

QString ipLabel(const Soc &soc, int ip)
{
    return QString::fromStdString(soc.ips[std::size_t(ip)].name);
}

const QColor kMsmColor(110, 110, 110);
const QColor kBusColors[] = {QColor(0x6a3d9a), QColor(0xb15928), QColor(0x1b7837), QColor(0x01665e)};

QColor busColor(int bus)
{
    return kBusColors[std::size_t(bus) % std::size(kBusColors)];
}

// The short name of a selection's vertical: "I CPU", "I avg", "I mem", "I NoC".
QString selectionLabel(const Soc &soc, const Result &result, const Selection &s)
{
    switch (s.kind) {
    case RoofKind::Ip: return QStringLiteral("I %1").arg(ipLabel(soc, s.ip));
    case RoofKind::Memory:
        return result.memoryIntensity == result.averageIntensity ? QStringLiteral("I avg") : QStringLiteral("I mem");
    case RoofKind::MemorySideMemory: return QStringLiteral("I avg");
    case RoofKind::Bus: return QStringLiteral("I %1").arg(QString::fromStdString(soc.buses[std::size_t(s.bus)].name));
    }
    return {};
}

QColor selectionColor(const Soc &soc, const Selection &s)
{
    switch (s.kind) {
    case RoofKind::Ip: return GablesPlot::ipColor(soc.ips[std::size_t(s.ip)], s.ip);
    case RoofKind::Memory: return kMemoryColor;
    case RoofKind::MemorySideMemory: return kMsmColor;
    case RoofKind::Bus: return busColor(s.bus);
    }
    return kMemoryColor;
}

// A graph or item drawn as it asks on screen (with many IPs the 1-px roofs and I lines
// ask for no antialiasing: Qt's aliased one-pixel path, about 40 % of the antialiased
// stroker's instructions for a solid line), and always antialiased in an export (SVG, PDF, PNG: the
// painter draws without caching), where it costs nothing per slider step and a vector
// file would otherwise say shape-rendering="crispEdges".
template <typename Base>
class ScreenAliased : public Base
{
public:
    using Base::Base;

protected:
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override
    {
        if (painter->modes().testFlag(QCPPainter::pmNoCaching))
            painter->setAntialiasing(true);
        else
            Base::applyDefaultAntialiasingHint(painter);
    }
};

// An IP's operating point. With many IPs the plot asks for its circle to be stamped on
// screen: the circle drawn once into a small pixmap, then blitted at the point rounded
// to whole pixels (64 antialiased ellipses were 2.1 M instructions of every step, each
// stroked and filled anew). Exports and a small SoC draw the circle itself.
class PointGraph : public QCPGraph
{
public:
    using QCPGraph::QCPGraph;
    void setStamped(bool stamped) { m_stamped = stamped; }
    quint64 stamps() const { return m_stamps; }

protected:
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override
    {
        if (!m_stamped || painter->modes().testFlag(QCPPainter::pmNoCaching) || style.shape() != QCPScatterStyle::ssCircle
            || !style.isPenDefined()) {
            QCPGraph::drawScatterPlot(painter, scatters, style);
            return;
        }
        const qreal ratio = painter->device() ? painter->device()->devicePixelRatio() : 1.0;
        const QPixmap &stamp = stampFor(style, ratio);
        // The circle's centre on the centre of the pixel the point rounds to, where an
        // aliased I line through the point is drawn too.
        const double half = std::ceil(style.size() / 2 + 1.5);
        // QCPPainter shifts antialiased drawing by half a pixel; the stamp is drawn unshifted.
        const double shift = painter->antialiasing() ? 0.5 : 0.0;
        for (const QPointF &p : scatters) {
            painter->drawPixmap(QPointF(std::round(p.x()) - half - shift, std::round(p.y()) - half - shift), stamp);
            ++m_stamps;
        }
    }

private:
    // The circle QCPScatterStyle::drawShape() draws, antialiased, centred on the centre of
    // the stamp's middle pixel.
    const QPixmap &stampFor(const QCPScatterStyle &style, qreal ratio) const
    {
        if (m_stamp.isNull() || m_stampRatio != ratio || m_stampPen != style.pen() || m_stampBrush != style.brush()
            || m_stampSize != style.size()) {
            const double half = std::ceil(style.size() / 2 + 1.5);
            const int side = int(2 * half) + 1;
            m_stamp = QPixmap(int(std::ceil(side * ratio)), int(std::ceil(side * ratio)));
            m_stamp.setDevicePixelRatio(ratio);
            m_stamp.fill(Qt::transparent);
            QPainter painter(&m_stamp);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setPen(style.pen());
            painter.setBrush(style.brush());
            const double r = style.size() / 2;
            painter.drawEllipse(QPointF(half + 0.5, half + 0.5), r, r);
            m_stampRatio = ratio;
            m_stampPen = style.pen();
            m_stampBrush = style.brush();
            m_stampSize = style.size();
        }
        return m_stamp;
    }
    bool m_stamped = false;
    mutable quint64 m_stamps = 0;
    mutable QPixmap m_stamp;
    mutable qreal m_stampRatio = 0;
    mutable QPen m_stampPen;
    mutable QBrush m_stampBrush;
    mutable double m_stampSize = 0;
};
} // namespace

QColor GablesPlot::ipColor(const Ip &ip, int index)
{
    // Tableau 10: distinct, print-safe, readable on white.
    static const QColor palette[] = {QColor(0x1f77b4), QColor(0xd62728), QColor(0x2ca02c), QColor(0xff7f0e),
                                     QColor(0x9467bd), QColor(0x8c564b), QColor(0xe377c2), QColor(0x17becf),
                                     QColor(0xbcbd22), QColor(0x7f7f7f)};
    const QColor named(QString::fromStdString(ip.color));
    if (!ip.color.empty() && named.isValid())
        return named;
    return palette[std::size_t(index) % std::size(palette)];
}

GablesPlot::GablesPlot(QWidget *parent)
    : QCustomPlot(parent)
    , m_textImages(std::make_unique<PlotTextImages>(&m_textRenders))
{
    // Markers, legend and axes are antialiased; curves and items as each asks
    // (QCPLayerable's default is antialiased). Not forced for plottables and items:
    // a plot-wide aePlottables or aeItems overrides the graph's or item's own flag,
    // and with it the 64-IP plot's 1-px roofs, snapshot roofs and I lines, meant to
    // be aliased, went through Qt's antialiased per-pixel stroker (15 M instructions
    // of a 31 M replot, docs/performance.md). Grids are never antialiased.
    setAntialiasedElements(QCP::aeScatters | QCP::aeLegendItems | QCP::aeAxes);
    setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid);
    setPlottingHint(QCP::phFastPolylines, true); // solid roofs as line segments: cheaper to stroke
    setPlottingHint(QCP::phImmediateRefresh, false); // paint with the rest of the window, once per frame
    setNoAntialiasingOnDrag(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMinimumSize(420, 320);
    setAutoAddPlottableToLegend(false); // setModel() decides what the legend lists

    m_title = setUpRooflineAxes(this, QStringLiteral("Operational intensity I (ops/byte)"),
                                QStringLiteral("Attainable performance P (Gops/s)"));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    m_memoryGraph = addGraph();
    m_memoryGraph->setPen(QPen(kMemoryColor, 2));

    m_ghostPoint = addGraph();
    m_ghostPoint->setLineStyle(QCPGraph::lsNone);
    m_ghostPoint->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(0, 0, 0, 90), 2), Qt::NoBrush, 14));
    m_ghostPoint->setVisible(false);

    m_attainableGraph = addGraph();
    m_attainableGraph->setLineStyle(QCPGraph::lsNone);
    m_attainableGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(kAttainableColor, 2.5), Qt::NoBrush, 16));
    m_attainableGraph->setName(QStringLiteral("Attainable performance Pₐₜₜ"));

    // Layers, bottom to top, in five paint buffers (two before); what a slider step seldom changes has
    // buffers of its own, which replotChanged() leaves as they are (the drawing order
    // is the old one, but for the points, now above every roof, and the axes):
    //  1. background and grid, with the snapshot's faded roofs (static);
    //  2. "memory" (buffered): the memory roof, the snapshot's and the current Pₐₜₜ star;
    //  3. "roofs" (the IP roofs) and the axes (static);
    //  4. main (buffered): the points, the extension roofs, the I lines, the title;
    //  5. legend (buffered), which also holds the labels, so no line crosses them.
    addLayer(QStringLiteral("memory"), layer(QStringLiteral("grid")), QCustomPlot::limAbove);
    addLayer(QStringLiteral("roofs"), layer(QStringLiteral("memory")), QCustomPlot::limAbove);
    moveLayer(layer(QStringLiteral("axes")), layer(QStringLiteral("roofs")), QCustomPlot::limAbove);
    for (const char *name : {"memory", "main", "legend"})
        layer(QLatin1String(name))->setMode(QCPLayer::lmBuffered);
    // Nothing is drawn on the overlay: in the legend's buffer it costs no sixth full-size
    // buffer to clear and blend on every paint.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    for (QCPGraph *graph : {m_memoryGraph, m_ghostPoint, m_attainableGraph})
        graph->setLayer(QStringLiteral("memory"));
    connect(this, &QCustomPlot::afterReplot, this, [this] {
        m_drawnContent = staticContent();
        m_drawnLayout = staticLayout();
    });
    // The label sits away from the star, where it covers the fewest roofs; a
    // leader line joins them (drawn first: the label's box covers its end).
    m_leader = new QCPItemLine(this);
    m_leader->setLayer(QStringLiteral("legend"));
    m_leader->setPen(QPen(QColor(90, 90, 90), 1));
    m_leader->setClipToAxisRect(true);
    m_attainableLabel = new QCPItemText(this);
    m_attainableLabel->setLayer(QStringLiteral("legend"));
    m_attainableLabel->setPadding(QMargins(6, 3, 6, 3));
    m_attainableLabel->setBrush(QColor(255, 255, 255, 235));
    m_attainableLabel->setPen(QPen(QColor(120, 120, 120)));
    QFont labelFont = font();
    labelFont.setPointSize(10);
    labelFont.setBold(true);
    m_attainableLabel->setFont(labelFont);
    m_attainableLabel->setClipToAxisRect(true);

    // The label's place depends on where the roofs fall in pixels: chosen
    // again once the layout of each replot is known (resize, zoom, new values).
    connect(this, &QCustomPlot::afterLayout, this, &GablesPlot::placeAttainableLabel);
    m_rangeHold.setSingleShot(true);
    m_rangeHold.setInterval(kRangeHoldMs);
    connect(&m_rangeHold, &QTimer::timeout, this, [this] {
        const PlotGeometry fit = plotGeometry(m_soc, m_result);
        const bool unitMoved = prefixedUnit(m_result.attainableGops, QStringLiteral("Gops/s")).unit != m_performanceUnit.unit;
        if (unitMoved || (m_autoRange && (fit.xRange != m_geometry.xRange || fit.yRange != m_geometry.yRange)))
            emit rangesSettled();
    });
    for (QCPAxis *axis : {xAxis, yAxis}) {
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
            if (m_applyingRanges)
                return;
            m_autoRange = false;
            updateNumberFormats();
        });
    }
}

QCPGraph *GablesPlot::takeGraph(std::vector<QCPGraph *> &pool, std::size_t index)
{
    while (pool.size() <= index) {
        const bool aliasedOnScreen = &pool == &m_roofGraphs || &pool == &m_ghostGraphs;
        if (aliasedOnScreen)
            pool.push_back(new ScreenAliased<QCPGraph>(xAxis, yAxis));
        else if (&pool == &m_pointGraphs)
            pool.push_back(new PointGraph(xAxis, yAxis));
        else
            pool.push_back(addGraph());
        if (&pool == &m_roofGraphs) {
            pool.back()->setLayer(QStringLiteral("roofs"));
            ++m_staticRevision;
        } else if (&pool == &m_ghostGraphs) {
            pool.back()->setLayer(QStringLiteral("grid")); // behind the current model
            ++m_staticRevision;
        }
    }
    return pool[index];
}

QCPGraph *GablesPlot::takeLimitingGraph(std::size_t index)
{
    if (m_limitingGraphs.size() <= index) {
        while (m_limitingGraphs.size() <= index) {
            QCPGraph *graph = addGraph();
            graph->setLayer(QStringLiteral("memory"));
            graph->setAntialiased(true);
            m_limitingGraphs.push_back(graph);
        }
        // The points stay above the thick roofs they sit on: to the top of the layer again.
        for (QCPGraph *graph : {m_ghostPoint, m_attainableGraph}) {
            graph->setLayer(QStringLiteral("main"));
            graph->setLayer(QStringLiteral("memory"));
        }
    }
    return m_limitingGraphs[index];
}

bool GablesPlot::setStaticGraph(QCPGraph *graph, const std::vector<Point> &points, const QPen &pen, bool antialiased)
{
    const bool visible = !points.empty();
    bool same = graph->visible() == visible && graph->antialiased() == antialiased && graph->pen() == pen
        && graph->dataCount() == int(points.size());
    auto it = graph->data()->constBegin();
    for (std::size_t i = 0; same && i < points.size(); ++i, ++it)
        same = it->key == points[i].x && it->value == points[i].y;
    if (same)
        return false;
    QVector<double> x(qsizetype(points.size())), y(qsizetype(points.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
        x[qsizetype(i)] = points[i].x;
        y[qsizetype(i)] = points[i].y;
    }
    graph->setData(x, y, true);
    graph->setPen(pen);
    graph->setAntialiased(antialiased);
    graph->setVisible(visible);
    ++m_staticRevision;
    return true;
}

bool GablesPlot::hideStaticGraph(QCPGraph *graph)
{
    return setStaticGraph(graph, {}, graph->pen(), graph->antialiased());
}

QCPItemStraightLine *GablesPlot::takeLine(std::size_t index)
{
    while (m_verticals.size() <= index) {
        auto *line = new ScreenAliased<QCPItemStraightLine>(this);
        line->setClipToAxisRect(true);
        m_verticals.push_back(line);
    }
    m_verticals[index]->setVisible(true);
    return m_verticals[index];
}

QCPItemText *GablesPlot::takeLabel(std::size_t index)
{
    while (m_verticalLabels.size() <= index) {
        auto *label = new QCPItemText(this);
        label->setLayer(QStringLiteral("legend"));
        label->setClipToAxisRect(true);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setBrush(QColor(255, 255, 255, 220));
        QFont f = font();
        f.setPointSize(9);
        label->setFont(f);
        m_verticalLabels.push_back(label);
    }
    m_verticalLabels[index]->setVisible(true);
    return m_verticalLabels[index];
}

quint64 GablesPlot::stampedPoints() const
{
    quint64 stamps = 0;
    for (QCPGraph *point : m_pointGraphs)
        stamps += static_cast<const PointGraph *>(point)->stamps();
    return stamps;
}

std::vector<QCPGraph *> GablesPlot::limitingRoofGraphs() const
{
    std::vector<QCPGraph *> shown;
    for (QCPGraph *graph : m_limitingGraphs) {
        if (graph->visible())
            shown.push_back(graph);
    }
    return shown;
}

QCPGraph *GablesPlot::roofGraph(int ip) const
{
    for (std::size_t i = 0; i < m_geometry.ipRoofs.size(); ++i) {
        if (m_geometry.ipRoofs[i].ip == ip)
            return m_roofGraphs[i];
    }
    return nullptr;
}

void GablesPlot::setModel(const Soc &soc, const Result &result, Ranges ranges)
{
    m_soc = soc;
    m_result = result;
    // A step of a drag that moves a decade boundary redraws the whole plot (the grid, the
    // axes, every roof): held, the ranges only widen during the drag, and the steps after
    // the first crossing draw the two layers that changed (docs/performance.md).
    const bool hold = ranges == Ranges::Hold && m_autoRange && m_rangeHold.isActive();
    if (hold)
        m_geometry = plotGeometry(soc, result, m_geometry.xRange, m_geometry.yRange);
    else
        m_geometry = plotGeometry(soc, result);
    if (ranges == Ranges::Hold)
        m_rangeHold.start();
    else
        m_rangeHold.stop();
    ++m_modelGeneration; // the roofs may have moved: place the label again
    const PlotGeometry &g = m_geometry;

    // The y axis speaks the readout's unit: Tops/s when Pₐₜₜ reads in Tops/s. Held
    // with the ranges: a new unit relabels every tick (a whole replot) at each step of a
    // drag across 1 Gops/s; the unit follows Pₐₜₜ again when the edits pause.
    if (!hold || m_performanceUnit.unit.isEmpty())
        m_performanceUnit = prefixedUnit(result.attainableGops, QStringLiteral("Gops/s"));
    yAxis->setLabel(QStringLiteral("Attainable performance P (%1)").arg(m_performanceUnit.unit));
    setLogAxisScale(yAxis, m_performanceUnit.factor);

    m_titleText = QString::fromStdString(soc.name.empty() ? std::string("Gables SoC") : soc.name);
    m_subtitleText = QString::fromStdString(soc.useCaseName);
    updateTitle();

    // What the legend lists, in order (the snapshot's entry, setGhost()'s, follows them).
    std::vector<QCPAbstractPlottable *> listed;
    const bool listAllIps = g.ipRoofs.size() <= kMaxLegendIps;

    auto toVectors = [](const std::vector<Point> &points, QVector<double> &x, QVector<double> &y) {
        x.resize(qsizetype(points.size()));
        y.resize(qsizetype(points.size()));
        for (std::size_t i = 0; i < points.size(); ++i) {
            x[qsizetype(i)] = points[i].x;
            y[qsizetype(i)] = points[i].y;
        }
    };
    QVector<double> x, y;

    // With many IPs, non-limiting roofs are 1 px without antialiasing and the
    // I_i verticals solid and faint: dashed and wide antialiased strokes cost
    // most of a 64-IP replot (callgrind, docs/performance.md).
    const bool manyIps = g.ipRoofs.size() > kMaxLegendIps;

    // --- scaled IP roofs and their selected points ---
    std::size_t hiddenFromLegend = 0;
    std::size_t limitingShown = 0;
    for (std::size_t i = 0; i < g.ipRoofs.size(); ++i) {
        const Roof &roof = g.ipRoofs[i];
        const Ip &ip = soc.ips[std::size_t(roof.ip)];
        const QColor color = ipColor(ip, roof.ip);
        const bool limiting = isLimiting(result.bound, Term::Kind::Compute, roof.ip);

        QCPGraph *graph = takeGraph(m_roofGraphs, i);
        // Wide antialiased pens go through Qt's path stroker; with many IPs the
        // roofs use the fast one-pixel path (see docs/performance.md).
        setStaticGraph(graph, roof.points, QPen(color, manyIps ? 1.0 : 2.0), !manyIps);
        const QString name = QStringLiteral("%1 roof / f (f = %2)%3")
                                 .arg(ipLabel(soc, roof.ip), formatValue(ip.fraction, 3),
                                      limiting ? QStringLiteral(", limiting") : QString());
        graph->setName(name);
        QCPGraph *listedGraph = graph;
        if (limiting) {
            // Drawn thick by a graph of its own on a layer a step redraws anyway: when the
            // limiting IP changes, the roofs' layer (static) stays as it was drawn.
            QCPGraph *thick = takeLimitingGraph(limitingShown++);
            toVectors(roof.points, x, y);
            thick->setData(x, y, true);
            thick->setPen(QPen(color, 4.0));
            thick->setName(name);
            thick->setVisible(true);
            listedGraph = thick; // its legend icon is drawn thick
        }
        if (listAllIps || limiting)
            listed.push_back(listedGraph);
        else
            ++hiddenFromLegend;

        QCPGraph *point = takeGraph(m_pointGraphs, i);
        point->setVisible(true);
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::white, 8));
        static_cast<PointGraph *>(point)->setStamped(manyIps);
        point->setData(QVector<double>{ip.intensity}, QVector<double>{result.ips[std::size_t(roof.ip)].scaledRoofGops},
                       true);
        point->setName(QStringLiteral("%1 at I = %2").arg(ipLabel(soc, roof.ip), formatValue(ip.intensity)));
    }
    for (std::size_t i = limitingShown; i < m_limitingGraphs.size(); ++i) {
        m_limitingGraphs[i]->setVisible(false);
        m_limitingGraphs[i]->data()->clear();
    }
    for (std::size_t i = g.ipRoofs.size(); i < m_roofGraphs.size(); ++i) {
        hideStaticGraph(m_roofGraphs[i]);
        m_pointGraphs[i]->setVisible(false);
        m_pointGraphs[i]->data()->clear();
    }

    // --- memory roof, read at I_avg ---
    const bool memoryLimiting = isLimiting(result.bound, Term::Kind::Memory, -1);
    toVectors(g.memoryRoof.points, x, y);
    m_memoryGraph->setData(x, y, true);
    m_memoryGraph->setPen(QPen(kMemoryColor, memoryLimiting ? 4.0 : 2.0, Qt::DashDotLine));
    m_memoryGraph->setName(QStringLiteral("Memory roof Bpeak·I (Bpeak = %1 GB/s)%2")
                               .arg(formatValue(soc.bpeakGBps), memoryLimiting ? QStringLiteral(", limiting")
                                                                               : QString()));
    listed.push_back(m_memoryGraph);

    // --- extensions: the memory-side memory's roof and one roof per busy bus ---
    for (std::size_t i = 0; i < g.extraRoofs.size(); ++i) {
        const Roof &roof = g.extraRoofs[i];
        QCPGraph *graph = takeGraph(m_extraRoofGraphs, i);
        graph->setVisible(true);
        toVectors(roof.points, x, y);
        graph->setData(x, y, true);
        const bool msm = roof.kind == RoofKind::MemorySideMemory;
        const bool limiting = isLimiting(result.bound, msm ? Term::Kind::MemorySideMemory : Term::Kind::Bus, -1, roof.bus);
        graph->setPen(QPen(msm ? kMsmColor : busColor(roof.bus), limiting ? 4.0 : 2.0, Qt::DashDotDotLine));
        graph->setName(msm ? QStringLiteral("Memory-side memory roof Bₘₛₘ·I (Bₘₛₘ = %1 GB/s)%2")
                                 .arg(formatValue(soc.msmBandwidthGBps), limiting ? QStringLiteral(", limiting") : QString())
                           : QStringLiteral("Bus %1 roof (%2 GB/s)%3")
                                 .arg(QString::fromStdString(soc.buses[std::size_t(roof.bus)].name),
                                      formatValue(soc.buses[std::size_t(roof.bus)].bandwidthGBps),
                                      limiting ? QStringLiteral(", limiting") : QString()));
        listed.push_back(graph);
    }
    for (std::size_t i = g.extraRoofs.size(); i < m_extraRoofGraphs.size(); ++i) {
        m_extraRoofGraphs[i]->setVisible(false);
        m_extraRoofGraphs[i]->data()->clear();
    }
    // Squares where the memory, cache and bus roofs are read.
    std::size_t extraPoints = 0;
    for (const Selection &sel : g.selections) {
        if (sel.kind == RoofKind::Ip)
            continue;
        QCPGraph *point = takeGraph(m_extraPointGraphs, extraPoints++);
        point->setVisible(true);
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, selectionColor(soc, sel), Qt::white, 7));
        point->setData(QVector<double>{sel.selected.x}, QVector<double>{sel.selected.y}, true);
    }
    for (std::size_t i = extraPoints; i < m_extraPointGraphs.size(); ++i) {
        m_extraPointGraphs[i]->setVisible(false);
        m_extraPointGraphs[i]->data()->clear();
    }

    // --- verticals at each I_i and at I_avg, labelled near the bottom, staggered when close ---
    std::size_t line = 0;
    struct PendingLabel { double x; QString text; QColor color; };
    std::vector<PendingLabel> labels;
    for (const Selection &s : g.selections) {
        QCPItemStraightLine *v = takeLine(line++);
        QColor color = selectionColor(soc, s);
        if (manyIps && s.kind == RoofKind::Ip) {
            color.setAlpha(90);
            v->setPen(QPen(color, 1, Qt::SolidLine));
            v->setAntialiased(false); // exactly vertical and 1 px: Qt's fast aliased path
        } else {
            v->setPen(QPen(color, 1.2, Qt::DashLine));
            v->setAntialiased(true);
        }
        v->point1->setCoords(s.selected.x, 1);
        v->point2->setCoords(s.selected.x, 10);
        labels.push_back({s.selected.x, selectionLabel(soc, result, s), selectionColor(soc, s)});
    }
    for (std::size_t i = line; i < m_verticals.size(); ++i)
        m_verticals[i]->setVisible(false);

    std::sort(labels.begin(), labels.end(), [](const PendingLabel &a, const PendingLabel &b) { return a.x < b.x; });
    labels.erase(std::unique(labels.begin(), labels.end(),
                             [](const PendingLabel &a, const PendingLabel &b) { return a.x == b.x && a.text == b.text; }),
                 labels.end());
    const bool showLabels = labels.size() <= kMaxVerticalLabels + 1;
    std::size_t labelCount = 0;
    if (showLabels) {
        const double span = std::log10(g.xRange.upper / g.xRange.lower);
        std::vector<double> rowEnds; // log-x position where each row's last label ends
        for (const PendingLabel &l : labels) {
            const double at = std::log10(l.x / g.xRange.lower) / span;
            const double half = 0.012 * l.text.size() / 2 + 0.01;
            std::size_t row = 0;
            while (row < rowEnds.size() && rowEnds[row] > at - half)
                ++row;
            if (row == rowEnds.size())
                rowEnds.push_back(0);
            rowEnds[row] = at + half;
            QCPItemText *label = takeLabel(labelCount++);
            label->setText(l.text);
            label->setColor(l.color);
            label->position->setCoords(l.x, 0.99 - 0.06 * double(row));
        }
    }
    for (std::size_t i = labelCount; i < m_verticalLabels.size(); ++i)
        m_verticalLabels[i]->setVisible(false);

    // --- each roof's value where its I line meets it ---
    std::size_t valueCount = 0;
    if (showLabels) {
        for (const Selection &sel : g.selections) {
            QCPItemText *label = takeValueLabel(valueCount++);
            label->setText(formatQuantity(sel.selected.y, QStringLiteral("Gops/s")));
            label->setColor(selectionColor(soc, sel));
            label->position->setCoords(sel.selected.x, sel.selected.y);
            label->setProperty("rs_point", QPointF(sel.selected.x, sel.selected.y)); // placeValueLabels() offsets from it
            // The attainable point's own value is in its label.
            const bool atAttainable = std::abs(sel.selected.x / g.attainable.x - 1) < 1e-9
                && std::abs(sel.selected.y / g.attainable.y - 1) < 1e-9;
            label->setVisible(!atAttainable);
        }
    }
    for (std::size_t i = valueCount; i < m_valueLabels.size(); ++i)
        m_valueLabels[i]->setVisible(false);

    // --- the attainable point and its label ---
    m_attainableGraph->setData(QVector<double>{g.attainable.x}, QVector<double>{g.attainable.y}, true);
    listed.push_back(m_attainableGraph);
    // The same entries as before keep their legend items (each draws its graph's current
    // name): new items would invalidate the legend's paint buffer, and replotChanged()
    // then draws the whole plot.
    std::vector<QCPAbstractPlottable *> shown;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        if (!item || item->plottable() != m_ghostPoint)
            shown.push_back(item ? item->plottable() : nullptr);
    }
    if (shown != listed) {
        legend->clearItems();
        for (QCPAbstractPlottable *plottable : listed)
            addLegendEntry(plottable);
    }
    // A balanced bound lists its terms one per line, so the label stays narrow.
    QString bound = QString::fromStdString(describe(result.bound, soc));
    if (result.bound.kind == Bound::Kind::Balanced) {
        QStringList terms;
        for (const Term &t : result.bound.limiting)
            terms << QString::fromStdString(describe(t, soc));
        if (terms.size() > 4)
            terms = terms.mid(0, 3) << QStringLiteral("and %1 more").arg(terms.size() - 3);
        bound = QStringLiteral("balanced:\n") + terms.join(QLatin1Char('\n'));
    }
    m_attainableLabel->setText(
        QStringLiteral("Pₐₜₜ = %1\nbound: %2").arg(formatQuantity(result.attainableGops, QStringLiteral("Gops/s")), bound));
    if (hiddenFromLegend > 0) {
        // Many IPs: the legend lists the limiting ones and says how many more there are.
        m_attainableGraph->setName(QStringLiteral("Attainable performance Pₐₜₜ (%1 more IP roofs not listed)")
                                       .arg(hiddenFromLegend));
    } else {
        m_attainableGraph->setName(QStringLiteral("Attainable performance Pₐₜₜ"));
    }

    // The label is placed after the replot's layout (afterLayout), which every setModel()
    // is followed by: placed here as well, it was searched twice in each step that moves
    // the ranges (the layout then sees new tick labels), 3.3 M instructions at 64 IPs.
    if (m_autoRange)
        applyRanges(false);
}

namespace {
// Greedy word wrap to `width` pixels; a single over-long word is elided.
QString wrapText(const QString &text, const QFontMetrics &metrics, int width)
{
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > width) {
            lines << line;
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.isEmpty())
        lines << line;
    for (QString &l : lines)
        l = metrics.elidedText(l, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}
} // namespace

void GablesPlot::updateTitle()
{
    // Wrap for the narrower of the widget and a typical export, so neither clips.
    const int width = std::max(300, std::min(this->width(), 1000) - 40);
    QString text = wrapText(m_titleText, QFontMetrics(m_title->font()), width);
    if (!m_subtitleText.isEmpty()) {
        QFont small = m_title->font();
        small.setBold(false);
        small.setPointSize(10);
        text += QLatin1Char('\n') + wrapText(m_subtitleText, QFontMetrics(small), width);
    }
    m_title->setText(text);
}

void GablesPlot::resizeEvent(QResizeEvent *event)
{
    updateTitle();
    QCustomPlot::resizeEvent(event);
}

GablesPlot::~GablesPlot() = default;

void GablesPlot::addLegendEntry(QCPAbstractPlottable *plottable)
{
    // As QCPAbstractPlottable::addToLegend(), an entry that measures its name once and draws it
    // from an image: each slider step redraws the legend's layer and lays the legend out.
    if (!legend->hasItemWithPlottable(plottable))
        legend->addItem(new CachedLegendItem(legend, plottable, &m_legendMeasurements, m_textImages.get()));
}

void GablesPlot::setGhost(const Soc *soc, const Result *result, const QString &name)
{
    if (!soc || !result) {
        m_ghostPoint->setVisible(false);
        m_ghostPoint->removeFromLegend();
        for (QCPGraph *graph : m_ghostGraphs)
            hideStaticGraph(graph);
        m_ghostFor.reset();
        return;
    }
    // setModel() may have listed the legend anew: the snapshot's entry goes back in either way.
    m_ghostPoint->setVisible(true);
    addLegendEntry(m_ghostPoint);
    const Interval x = m_geometry.xRange;
    if (m_ghostFor && m_ghostFor->x == x && m_ghostFor->name == name && m_ghostFor->soc == *soc)
        return; // the same snapshot over the same range: its roofs, point and name as they are
    std::size_t used = 0;
    std::vector<std::pair<Roof, QColor>> roofs;
    for (std::size_t i = 0; i < soc->ips.size(); ++i) {
        if (soc->ips[i].isActive())
            roofs.emplace_back(scaledRoof(soc->ips[i], int(i), soc->ppeakGops, x), ipColor(soc->ips[i], int(i)));
    }
    roofs.emplace_back(bandwidthRoof(soc->bpeakGBps, x), kMemoryColor);
    // As for the current roofs: with many IPs, thin lines on the fast path
    // (2 px antialiased dotted roofs cost 85 M instructions per update at 64 IPs).
    const bool manyIps = roofs.size() > std::size_t(kMaxLegendIps) + 1;
    for (const auto &[roof, color] : roofs) {
        // One pixel wide (it was 2 px up to 9 IPs), less transparent to stay visible: a line
        // wider than a pixel is filled as a polygon by the raster engine (60bee8b).
        QColor faded = color;
        faded.setAlpha(manyIps ? 70 : 120);
        setStaticGraph(takeGraph(m_ghostGraphs, used++), roof.points, QPen(faded, 1, Qt::DotLine), !manyIps);
    }
    for (std::size_t i = used; i < m_ghostGraphs.size(); ++i)
        hideStaticGraph(m_ghostGraphs[i]);
    const PlotGeometry ghost = plotGeometry(*soc, *result);
    m_ghostPoint->setData(QVector<double>{ghost.attainable.x}, QVector<double>{ghost.attainable.y}, true);
    m_ghostPoint->setName(QStringLiteral("Snapshot \"%1\" (faded): Pₐₜₜ = %2 Gops/s")
                              .arg(name, formatValue(result->attainableGops, 4)));
    m_ghostFor = GhostKey{*soc, x, name};
}

int GablesPlot::ghostCurveCount() const
{
    return int(std::count_if(m_ghostGraphs.begin(), m_ghostGraphs.end(), [](QCPGraph *g) { return g->visible(); }));
}

namespace {
// How much of `rect` (pixels) the polyline covers: samples along each segment inside it.
int coveredSamples(const QRectF &rect, const std::vector<QPointF> &polyline)
{
    // The edges as QRectF::contains() takes them (an empty rectangle contains nothing).
    double l = rect.x(), r = rect.x(), t = rect.y(), bottom = rect.y();
    (rect.width() < 0 ? l : r) += rect.width();
    (rect.height() < 0 ? t : bottom) += rect.height();
    if (l == r || t == bottom)
        return 0;
    int hits = 0;
    for (std::size_t i = 1; i < polyline.size(); ++i) {
        const QPointF a = polyline[i - 1], b = polyline[i];
        const QRectF box = QRectF(a, b).normalized().adjusted(-1, -1, 1, 1);
        if (!box.intersects(rect))
            continue;
        // rect.contains(a + (b - a) * (k / 24.0)), inlined with the same arithmetic: the
        // out-of-line call was most of placing the label at 64 IPs (docs/performance.md).
        const double dx = b.x() - a.x(), dy = b.y() - a.y();
        for (int k = 0; k <= 24; ++k) {
            const double x = a.x() + dx * (k / 24.0), y = a.y() + dy * (k / 24.0);
            if (x >= l && x <= r && y >= t && y <= bottom)
                ++hits;
        }
    }
    return hits;
}

// The union of the boxes coveredSamples() tests each segment's samples in (empty: no segment).
QRectF segmentBounds(const std::vector<QPointF> &polyline)
{
    QRectF bounds;
    for (std::size_t i = 1; i < polyline.size(); ++i) {
        const QRectF box = QRectF(polyline[i - 1], polyline[i]).normalized().adjusted(-1, -1, 1, 1);
        bounds = bounds.isNull() ? box : bounds.united(box);
    }
    return bounds;
}

// Whether `a` (normalized, of positive size) may meet a segment inside `bounds`: as
// QRectF::intersects(), inline. An empty `bounds` (a polyline of one point) covers
// nothing; one that is not finite is left to coveredSamples().
bool overlaps(const QRectF &a, const QRectF &bounds)
{
    if (bounds.isNull())
        return false;
    if (!std::isfinite(bounds.left() + bounds.right() + bounds.top() + bounds.bottom()))
        return true;
    return a.left() < bounds.right() && bounds.left() < a.right() && a.top() < bounds.bottom()
        && bounds.top() < a.bottom();
}
} // namespace

void GablesPlot::placeAttainableLabel()
{
    const QCPRange xr = xAxis->range();
    const QCPRange yr = yAxis->range();
    const Point &p = m_geometry.attainable;
    const QRect area = axisRect()->rect();
    const QPointF star(xAxis->coordToPixel(p.x), yAxis->coordToPixel(p.y));
    // The label's box for each candidate place: beside the star (the old place)
    // and a leader's length away on each diagonal. The one covering the fewest
    // roofs and verticals wins; the box must stay inside the axes.
    const QFontMetricsF metrics(m_attainableLabel->font());
    const QSizeF size = metrics.boundingRect(QRectF(0, 0, 1000, 1000), Qt::AlignLeft | Qt::AlignTop,
                                             m_attainableLabel->text()).size()
        + QSizeF(12, 6); // the padding
    std::vector<std::vector<QPointF>> polylines;
    auto add = [&](const Roof &roof) {
        std::vector<QPointF> line;
        for (const Point &q : roof.points)
            line.emplace_back(xAxis->coordToPixel(q.x), yAxis->coordToPixel(q.y));
        polylines.push_back(std::move(line));
    };
    for (const Roof &roof : m_geometry.ipRoofs)
        add(roof);
    add(m_geometry.memoryRoof);
    for (const Roof &roof : m_geometry.extraRoofs)
        add(roof);
    for (const Selection &sel : m_geometry.selections) {
        const double x = xAxis->coordToPixel(sel.selected.x);
        polylines.push_back({QPointF(x, area.top()), QPointF(x, area.bottom())});
    }
    // Each polyline's box (its segments' boxes, as coveredSamples() widens them): a label
    // box apart from it covers none of its samples, and most of the 60 boxes are apart
    // from most of the 130 roofs and lines at 64 IPs.
    std::vector<QRectF> polylineBounds;
    polylineBounds.reserve(polylines.size());
    for (const auto &line : polylines)
        polylineBounds.push_back(segmentBounds(line));
    struct Candidate
    {
        QPointF corner; // the box's corner nearest the star, in pixels
        Qt::Alignment alignment;
    };
    std::vector<Candidate> candidates;
    // Beside the star first, then further out on a grid of offsets; the
    // cost below grows with the leader's length.
    for (double dx : {13.0, 60.0, 125.0, 195.0, 260.0}) {
        for (double dy : {10.0, 46.0, 96.0}) {
            for (int sx : {1, -1}) {
                for (int sy : {-1, 1}) { // up (pixels grow downwards) first
                    candidates.push_back({star + QPointF(sx * dx, sy * dy),
                                          (sx > 0 ? Qt::AlignLeft : Qt::AlignRight) | (sy < 0 ? Qt::AlignBottom : Qt::AlignTop)});
                }
            }
        }
    }
    // The legend sits inside the axes (top left): a label under it is hidden
    // (at 1280x800 the default example's label fell right behind it).
    QRectF legendBox;
    if (legend && legend->visible() && legend->layout() == axisRect()->insetLayout())
        legendBox = QRectF(legend->outerRect()).adjusted(-4, -4, 4, 4);
    // The I-line names and the roof values (placed beside their points, see
    // placeValueLabels()) are text the label must not cover either.
    placeValueLabels();
    std::vector<QRectF> otherText;
    for (const auto *labels : {&m_verticalLabels, &m_valueLabels}) {
        for (QCPItemText *text : *labels) {
            if (text->visible())
                otherText.push_back(QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized());
        }
    }
    const bool laidOut = area.width() > 40 && area.height() > 40;
    // Everything the choice below depends on. Each update places the label twice, before
    // and after the replot's layout, and the two usually see the same plot: the second
    // then keeps the first's choice (the search was a seventh of a 64-IP update).
    std::vector<double> inputs{double(area.x()), double(area.y()), double(area.width()), double(area.height()),
                               xr.lower, xr.upper, yr.lower, yr.upper, size.width(), size.height(),
                               legendBox.x(), legendBox.y(), legendBox.width(), legendBox.height(),
                               double(m_modelGeneration)};
    for (const QRectF &text : otherText)
        inputs.insert(inputs.end(), {text.x(), text.y(), text.width(), text.height()});
    if (laidOut && inputs == m_placedFor)
        return; // the label, its leader and the value labels are where this would put them
    m_placedFor = laidOut ? std::move(inputs) : std::vector<double>{};
    if (laidOut)
        ++m_labelSearches;
    double best = 1e300;
    Candidate chosen = candidates.front();
    for (std::size_t c = 0; laidOut && c < candidates.size(); ++c) {
        const Candidate &cand = candidates[c];
        const double left = cand.alignment & Qt::AlignLeft ? cand.corner.x() : cand.corner.x() - size.width();
        const double top = cand.alignment & Qt::AlignTop ? cand.corner.y() : cand.corner.y() - size.height();
        const QRectF box(left, top, size.width(), size.height());
        double cost = 0;
        if (!QRectF(area).adjusted(2, 2, -2, -2).contains(box))
            cost += 1e6; // clipped
        if (!legendBox.isEmpty() && legendBox.intersects(box))
            cost += 1e5; // hidden by the legend
        for (const QRectF &text : otherText) {
            if (text.intersects(box))
                cost += 15; // on top of another label
        }
        // Every term is >= 0, so once the sum reaches the best so far this place cannot win
        // (cost < best below): the rest of its roofs need not be counted.
        const QRectF probe = box.adjusted(-3, -3, 3, 3);
        for (std::size_t l = 0; l < polylines.size() && cost < best; ++l) {
            if (overlaps(probe, polylineBounds[l])) {
                cost += 10.0 * coveredSamples(probe, polylines[l]); // a roof or I line under the label
                ++m_labelLinesSampled;
            }
        }
        if (cost >= best)
            continue;
        // A short leader when it costs nothing (the old placement, just
        // beside the star, is the first candidate).
        cost += c == 0 ? 0.0 : 2.0 + QLineF(star, cand.corner).length() / 40.0;
        if (cost < best) {
            best = cost;
            chosen = cand;
        }
    }
    if (!laidOut) {
        // No size yet (before the first layout): beside the star, on the side with more room.
        const double fx = std::log10(p.x / xr.lower) / std::log10(xr.upper / xr.lower);
        const double fy = std::log10(p.y / yr.lower) / std::log10(yr.upper / yr.lower);
        const bool left = fx > 0.5;
        const bool below = fy > 0.75;
        m_attainableLabel->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft)
                                                | (below ? Qt::AlignTop : Qt::AlignBottom));
        const double dx = std::pow(xr.upper / xr.lower, left ? -0.025 : 0.025);
        const double dy = std::pow(yr.upper / yr.lower, below ? -0.045 : 0.045);
        m_attainableLabel->position->setCoords(p.x * dx, p.y * dy);
        m_leader->setVisible(false);
        placeValueLabels();
        return;
    }
    m_attainableLabel->setPositionAlignment(chosen.alignment);
    m_attainableLabel->position->setCoords(xAxis->pixelToCoord(chosen.corner.x()), yAxis->pixelToCoord(chosen.corner.y()));
    m_leader->start->setCoords(p.x, p.y);
    m_leader->end->setCoords(m_attainableLabel->position->coords());
    m_leader->setVisible(true);
    placeValueLabels();
}

QCPItemText *GablesPlot::takeValueLabel(std::size_t index)
{
    while (m_valueLabels.size() <= index) {
        auto *label = new QCPItemText(this);
        label->setLayer(QStringLiteral("legend"));
        label->setClipToAxisRect(true);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->setBrush(QColor(255, 255, 255, 200)); // readable over a roof it crosses
        QFont f = font();
        f.setPointSize(8);
        label->setFont(f);
        m_valueLabels.push_back(label);
    }
    return m_valueLabels[index];
}

std::vector<QCPItemText *> GablesPlot::roofValueLabels() const
{
    return m_valueLabels;
}

void GablesPlot::placeValueLabels()
{
    // Right of the point, or left of it near the right edge; above the point
    // (the roof rises to the left of it, so above-right is clear of the roof).
    const QCPRange xr = xAxis->range();
    for (QCPItemText *label : m_valueLabels) {
        if (!label->visible())
            continue;
        const QPointF at = label->property("rs_point").toPointF();
        const double fx = std::log10(at.x() / xr.lower) / std::log10(xr.upper / xr.lower);
        const bool left = fx > 0.85;
        label->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        label->setPadding(QMargins(2, 0, 2, 0));
        // A few pixels up and aside from the point, so the box leaves the circle visible.
        const double x = xAxis->coordToPixel(at.x()) + (left ? -6 : 6);
        const double y = yAxis->coordToPixel(at.y()) - 4;
        label->position->setPixelPosition(QPointF(x, y));
    }
}

namespace {
void appendRaw(QByteArray &key, double value)
{
    key.append(reinterpret_cast<const char *>(&value), sizeof value);
}

void appendText(QByteArray &key, const QString &text)
{
    appendRaw(key, double(text.size()));
    key.append(reinterpret_cast<const char *>(text.constData()), text.size() * qsizetype(sizeof(QChar)));
}

void appendPen(QByteArray &key, const QPen &pen)
{
    for (double v : {double(pen.color().rgba64()), pen.widthF(), double(pen.style()), double(pen.capStyle()),
                     double(pen.joinStyle()), double(pen.isCosmetic())})
        appendRaw(key, v);
    for (double v : pen.dashPattern())
        appendRaw(key, v);
}

void appendBrush(QByteArray &key, const QBrush &brush)
{
    appendRaw(key, double(brush.style()));
    appendRaw(key, double(brush.color().rgba64()));
}

bool isBottomLayer(const QCPLayer *layer)
{
    const QString &name = layer->name();
    return name == QLatin1String("background") || name == QLatin1String("grid") || name == QLatin1String("roofs")
        || name == QLatin1String("axes");
}
} // namespace

QByteArray GablesPlot::staticContent() const
{
    QByteArray key;
    for (double v : {double(width()), double(height()), bufferDevicePixelRatio(), xAxis->range().lower,
                     xAxis->range().upper, yAxis->range().lower, yAxis->range().upper})
        appendRaw(key, v);
    appendBrush(key, mBackgroundBrush);
    appendBrush(key, axisRect()->backgroundBrush());
    for (const QCPAxis *axis : axisRect()->axes()) {
        appendRaw(key, axis->visible());
        for (const QPen &pen : {axis->basePen(), axis->tickPen(), axis->subTickPen(), axis->grid()->pen(),
                                axis->grid()->subGridPen(), axis->grid()->zeroLinePen()})
            appendPen(key, pen);
        appendRaw(key, double(axis->tickLabelColor().rgba64()));
        appendRaw(key, double(axis->labelColor().rgba64()));
        appendRaw(key, axis->grid()->visible() + 2.0 * axis->grid()->subGridVisible());
    }
    for (const QCPLayer *layer : mLayers) {
        appendRaw(key, layer->visible());
        if (!isBottomLayer(layer))
            continue;
        // The grids and axes are described above, the roofs' and the snapshot's graphs by
        // m_staticRevision (they change through setStaticGraph() only); anything there by
        // its address and visibility, so that adding or moving one forces a whole replot.
        for (const QCPLayerable *child : layer->children()) {
            appendRaw(key, double(reinterpret_cast<quintptr>(child)));
            appendRaw(key, child->realVisibility());
        }
    }
    appendRaw(key, double(m_staticRevision));
    return key;
}

QByteArray GablesPlot::staticLayout() const
{
    QByteArray key;
    const QRect area = axisRect()->rect();
    for (int v : {area.x(), area.y(), area.width(), area.height()})
        appendRaw(key, v);
    for (const QCPAxis *axis : axisRect()->axes()) {
        for (double tick : axis->tickVector())
            appendRaw(key, tick);
        for (const QString &label : axis->tickVectorLabels())
            appendText(key, label);
        appendText(key, axis->label());
        appendText(key, axis->tickLabelFont().toString());
        appendText(key, axis->labelFont().toString());
    }
    return key;
}

namespace {
// A layer's paint buffer is a protected member of QCPLayer (qcustomplot.h, QCPLayer::mPaintBuffer);
// a pointer to it, taken in a class derived from QCPLayer, reads it on any layer (as plotstyle.cpp
// reads the axis painter's cache). Nothing is constructed or overridden.
struct LayerAccess : QCPLayer
{
    static constexpr auto buffer = &LayerAccess::mPaintBuffer;
};
} // namespace

bool GablesPlot::redrawnBuffersAloneInvalidated()
{
    // A legend entry added or removed, a graph moved to another layer: QCustomPlot marks that
    // layer's buffer invalid, and QCPLayer::replot() then replots the whole plot. When every
    // invalid buffer is one that replotChanged() clears and draws anew anyway, they are valid
    // again once drawn, and the static layers' buffers keep their pixels.
    std::vector<QCPAbstractPaintBuffer *> redrawn;
    for (const char *name : {"memory", "main", "legend"})
        redrawn.push_back((layer(QLatin1String(name))->*LayerAccess::buffer).toStrongRef().data());
    if (std::find(redrawn.begin(), redrawn.end(), nullptr) != redrawn.end())
        return !hasInvalidatedPaintBuffers(); // no buffers of their own yet (before the first replot)
    for (const QSharedPointer<QCPAbstractPaintBuffer> &buffer : mPaintBuffers) {
        if (buffer->invalidated() && std::find(redrawn.begin(), redrawn.end(), buffer.data()) == redrawn.end())
            return false;
    }
    for (QCPAbstractPaintBuffer *buffer : redrawn)
        buffer->setInvalidated(false); // cleared and drawn by QCPLayer::replot() below
    return true;
}

void GablesPlot::replotChanged()
{
    applyPlotTheme(this); // as a replot does first (beforeReplot): the colours compared below
    if (m_drawnContent.isEmpty() || staticContent() != m_drawnContent || !redrawnBuffersAloneInvalidated()) {
        replot();
        return;
    }
    updateLayout(); // the legend and title for their new text; placeAttainableLabel() runs
    if (staticLayout() != m_drawnLayout) {
        replot();
        return;
    }
    // QCPLayer::replot() clears and draws the layer's own buffer and schedules a paint; it
    // replots the whole plot itself when a buffer is stale (a resize, no replot yet).
    ++m_layerReplots;
    for (const char *name : {"memory", "main", "legend"})
        layer(QLatin1String(name))->replot();
}

void GablesPlot::applyRanges(bool placeLabel)
{
    m_applyingRanges = true;
    xAxis->setRange(m_geometry.xRange.lower, m_geometry.xRange.upper);
    yAxis->setRange(m_geometry.yRange.lower, m_geometry.yRange.upper);
    m_applyingRanges = false;
    updateNumberFormats();
    if (placeLabel)
        placeAttainableLabel();
}

namespace {
// Protected members of QCPAxis (qcustomplot.h), read as plotstyle.cpp reads the axis painter:
// a pointer to a protected member, taken in a derived class, used on the base class.
struct AxisAccess : QCPAxis
{
    static constexpr auto painter = &AxisAccess::mAxisPainter;
    static constexpr auto beautifulPowers = &AxisAccess::mNumberBeautifulPowers;
    static constexpr auto marginValid = &AxisAccess::mCachedMarginValid;
};
} // namespace

void GablesPlot::updateNumberFormats()
{
    for (QCPAxis *axis : {xAxis, yAxis}) {
        const QString format = axis->numberFormat();
        updateLogTickFormat(axis);
        QCPAxisPainterPrivate *painter = axis->*AxisAccess::painter;
        if (axis->numberFormat() == format || !painter)
            continue;
        // QCustomPlot hands the axis painter the powers-of-ten flag only when it draws the
        // axis, after the layout: the replot that switches to powers ("1e+06" drawn as 10⁶)
        // measured its margin for "1e+06" (and from that text's pixmaps in the label cache),
        // and the next layout, measuring 10⁶, moved the axis rect 18 px. The first slider step
        // after opening such a model then replotted the whole plot, and the opened picture
        // was drawn with the wider margin. Handed over here, the margin fits the labels at once.
        painter->substituteExponent = axis->*AxisAccess::beautifulPowers;
        painter->clearCache();
        axis->*AxisAccess::marginValid = false;
    }
}

void GablesPlot::resetView()
{
    m_autoRange = true;
    applyRanges();
    replot();
}

void GablesPlot::mouseDoubleClickEvent(QMouseEvent *event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
}

QString GablesPlot::tooltipAt(const QPointF &pixel) const
{
    if (!axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const double x = xAxis->pixelToCoord(pixel.x());
    constexpr double kNear = 8; // pixels
    const Point &a = m_geometry.attainable;
    // Times per op in the readout's unit (ps/op for a fast SoC), values rounded as the readout rounds them.
    const TimeUnit unit = timeUnitFor(m_result.timeNs);
    const auto perOp = [&](double ns) { return QStringLiteral("%1 %2/op").arg(formatValue(ns * unit.perNs), unit.name); };
    if (QLineF(pixel, QPointF(xAxis->coordToPixel(a.x), yAxis->coordToPixel(a.y))).length() < kNear + 4) {
        return QStringLiteral("Attainable performance\nPₐₜₜ = %1 at I = %2 ops/byte\nbound: %3\nT = 1/Pₐₜₜ = %4")
            .arg(formatQuantity(m_result.attainableGops, QStringLiteral("Gops/s")), formatValue(a.x),
                 QString::fromStdString(describe(m_result.bound, m_soc)), perOp(m_result.timeNs));
    }
    for (const Selection &s : m_geometry.selections) {
        const QPointF at(xAxis->coordToPixel(s.selected.x), yAxis->coordToPixel(s.selected.y));
        if (QLineF(pixel, at).length() < kNear) {
            if (s.kind == RoofKind::Memory)
                return QStringLiteral("Memory roof at %1 = %2 ops/byte\nBpeak·I = %3\nTₘₑₘ = %4")
                    .arg(selectionLabel(m_soc, m_result, s), formatValue(s.selected.x),
                         formatQuantity(s.selected.y, QStringLiteral("Gops/s")), perOp(m_result.memoryNs));
            if (s.kind == RoofKind::MemorySideMemory)
                return QStringLiteral("Memory-side memory roof at the average I = %1 ops/byte\nBₘₛₘ·I = %2\n"
                                      "Tₘₛₘ = %3")
                    .arg(formatValue(s.selected.x), formatQuantity(s.selected.y, QStringLiteral("Gops/s")),
                         perOp(m_result.msmNs));
            if (s.kind == RoofKind::Bus)
                return QStringLiteral("Bus %1 at I = 1/Σ Dᵢ = %2 ops/byte\nbus bandwidth·I = %3\nbus time = %4")
                    .arg(QString::fromStdString(m_soc.buses[std::size_t(s.bus)].name), formatValue(s.selected.x),
                         formatQuantity(s.selected.y, QStringLiteral("Gops/s")),
                         perOp(m_result.busNs[std::size_t(s.bus)]));
            const Ip &ip = m_soc.ips[std::size_t(s.ip)];
            const IpTerms &t = m_result.ips[std::size_t(s.ip)];
            return QStringLiteral("%1 operating point\nI = %2 ops/byte, f = %3\nscaled roof = %4\n"
                                  "C = %5, D/B = %6 (%7-bound)")
                .arg(ipLabel(m_soc, s.ip), formatValue(ip.intensity), formatValue(ip.fraction),
                     formatQuantity(s.selected.y, QStringLiteral("Gops/s")), perOp(t.computeNs), perOp(t.linkNs),
                     t.linkNs > t.computeNs ? QStringLiteral("link") : QStringLiteral("compute"));
        }
    }
    // Nearest roof under the cursor.
    double best = kNear;
    QString text;
    auto consider = [&](const Roof &roof, const QString &what) {
        const double v = roofValueAt(roof, x);
        const double d = std::abs(yAxis->coordToPixel(v) - pixel.y());
        if (d < best) {
            best = d;
            text = QStringLiteral("%1\nat I = %2 ops/byte: %3").arg(what, formatValue(x), formatQuantity(v, QStringLiteral("Gops/s")));
        }
    };
    for (const Roof &roof : m_geometry.ipRoofs) {
        const Ip &ip = m_soc.ips[std::size_t(roof.ip)];
        consider(roof, QStringLiteral("%1 scaled roof: min(%2·I, %3)/%4")
                           .arg(ipLabel(m_soc, roof.ip), formatValue(ip.bandwidthGBps),
                                formatValue(ip.peakGops(m_soc.ppeakGops)), formatValue(ip.fraction, 4)));
    }
    consider(m_geometry.memoryRoof, QStringLiteral("Memory roof: %1·I").arg(formatValue(m_soc.bpeakGBps)));
    for (const Roof &roof : m_geometry.extraRoofs) {
        consider(roof, roof.kind == RoofKind::Bus
                           ? QStringLiteral("Bus %1 roof: %2·I")
                                 .arg(QString::fromStdString(m_soc.buses[std::size_t(roof.bus)].name),
                                      formatValue(m_soc.buses[std::size_t(roof.bus)].bandwidthGBps))
                           : QStringLiteral("Memory-side memory roof: %1·I").arg(formatValue(m_soc.msmBandwidthGBps)));
    }
    return text;
}

void GablesPlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QString text = tooltipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace studio
