#include "nnmeterplot.h"

#include "plottextimages.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace studio {

using namespace roofline::nnmeter;

namespace {

// Tableau-like categorical colours, distinct on light and dark backgrounds.
const QColor kPalette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                           QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                           QColor(0xe3, 0x77, 0xc2), QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};
const QColor kOther(0x9a, 0x9a, 0x9a);

QString otherTypes()
{
    return QObject::tr("other types");
}

// The title, each line elided to the width it is drawn at (the widget's, or an
// export's): a long device or network name ends in "…" instead of being cut
// at both edges of a narrow window, and never widens the plot's layout.
class ElidedTitle : public QCPTextElement
{
public:
    using QCPTextElement::QCPTextElement;

protected:
    void draw(QCPPainter *painter) override
    {
        const QString full = mText;
        const QFontMetrics metrics(mainFont());
        const int width = std::max(40, mRect.width() - 8);
        QStringList lines = full.split(QLatin1Char('\n'));
        for (QString &line : lines)
            line = metrics.elidedText(line, Qt::ElideRight, width);
        // As QCPTextElement::draw(), the text from an image.
        painter->setFont(mainFont());
        painter->setPen(QPen(mainTextColor()));
        mTextBoundingRect = m_images->draw(painter, mRect, mTextFlags, lines.join(QLatin1Char('\n')));
        mText = full;
    }
    // Measured once per text and font: QCustomPlot's layout asks the title for its minimum
    // size about fifteen times per replot, and each time QCPTextElement laid the text out
    // (0.6 M instructions per rule toggle, callgrind).
    QSize minimumOuterSizeHint() const override
    {
        if (!m_size || mText != m_text || mFont != m_font || mMargins != m_margins) {
            QSize size = QCPTextElement::minimumOuterSizeHint();
            size.setWidth(std::min(size.width(), 80));
            m_size = size;
            m_text = mText;
            m_font = mFont;
            m_margins = mMargins;
            if (m_counter)
                ++*m_counter;
        }
        return *m_size;
    }

public:
    void setCounter(int *counter) { m_counter = counter; }
    void setTextImages(PlotTextImages *images) { m_images = images; }

private:
    PlotTextImages *m_images = nullptr; // the plot's
    mutable std::optional<QSize> m_size;
    mutable QString m_text;
    mutable QFont m_font;
    mutable QMargins m_margins;
    int *m_counter = nullptr; // counts the measurements (for tests)
};

// Bars of one solid colour without an outline, each filled as a rectangle: QCPBars draws each
// bar as a polygon (the raster engine's polygon rasterizer, one blended span per pixel row);
// QPainter::fillRect() of an axis-aligned rectangle in an opaque colour, not antialiased, is
// the raster engine's rectangle fill. With an outline, a brush that is not solid or a
// selection it draws as QCPBars does.
class SolidBars : public QCPBars
{
public:
    using QCPBars::QCPBars;

protected:
    void draw(QCPPainter *painter) override
    {
        if (mPen.style() != Qt::NoPen || mBrush.style() != Qt::SolidPattern || !mSelection.isEmpty() || !mKeyAxis
            || !mValueAxis) {
            QCPBars::draw(painter);
            return;
        }
        if (mDataContainer->isEmpty())
            return;
        QCPBarsDataContainer::const_iterator begin, end;
        getVisibleDataBounds(begin, end);
        const QColor color = mBrush.color();
        applyDefaultAntialiasingHint(painter);
        for (auto it = begin; it != end; ++it) {
            if (std::isnan(it->value))
                continue;
            painter->fillRect(getBarRect(it->key, it->value).normalized(), color);
        }
    }
};

} // namespace

NnmeterPlot::NnmeterPlot(QWidget *parent)
    : QCustomPlot(parent)
    , m_textImages(std::make_unique<PlotTextImages>(&m_textRenders))
{
    setMinimumHeight(220);
    setPlottingHint(QCP::phImmediateRefresh, false);
    setAntialiasedElements(QCP::aeNone);
    setAutoAddPlottableToLegend(false); // the legend holds CachedLegendItems (syncLegend)
    plotLayout()->insertRow(0);
    auto *title = new ElidedTitle(this, QString(), QFont(font().family(), 11, QFont::Bold));
    title->setCounter(&m_textMeasurements);
    title->setTextImages(m_textImages.get());
    m_title = title;
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("kernel, in execution order (#)"));
    for (QCPAxis *axis : {xAxis, yAxis}) {
        QFont f = axis->tickLabelFont();
        f.setPointSize(9);
        axis->setTickLabelFont(f);
        QFont lf = axis->labelFont();
        lf.setPointSize(10);
        axis->setLabelFont(lf);
        axis->grid()->setPen(QPen(QColor(215, 215, 215), 0, Qt::SolidLine));
    }
    xAxis->grid()->setVisible(false);
    legend->setVisible(true);
    QFont lf = font();
    lf.setPointSize(9);
    legend->setFont(lf);
    legend->setBorderPen(Qt::NoPen);
    // The legend in a row of its own under the title, so it never hides a bar.
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(4);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, legend);
    legend->setMargins(QMargins(4, 0, 4, 0));
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(1, 0.001);
    addLayer(QStringLiteral("highlight"), layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_ghost = addGraph();
    m_ghost->setLineStyle(QCPGraph::lsStepCenter);
    // One pixel wide, a shade darker than the 1.5 px it was: a polyline wider than
    // a pixel is filled as a polygon by the raster engine, about 8 ms a replot for
    // ResNet-50's ~250 steps (callgrind: 30 M instructions a stroke, 43 % of the
    // nn-Meter bench); one pixel wide it takes the cosmetic stroker, 1/10 of that.
    m_ghost->setPen(QPen(QColor(125, 125, 125), 1));
    // Not antialiased: the step line is horizontal and vertical segments, which antialiasing
    // only spread over two pixel rows; drawn so it cost 2.8 M instructions a replot (callgrind),
    // without it a fraction of that.
    m_ghost->setAntialiased(false);
    m_ghost->removeFromLegend();
    m_measured = addGraph();
    m_measured->setLineStyle(QCPGraph::lsNone);
    m_measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(QColor(20, 20, 20), 1.2),
                                                QBrush(QColor(255, 255, 255)), 7));
    m_measured->setLayer(QStringLiteral("highlight"));
    m_measured->removeFromLegend();
    m_highlight = new QCPBars(xAxis, yAxis);
    m_highlight->setPen(QPen(QColor(20, 20, 20), 2.5));
    m_highlight->setBrush(Qt::NoBrush);
    m_highlight->setWidth(0.9);
    m_highlight->setLayer(QStringLiteral("highlight"));
    m_highlight->removeFromLegend();
}

QColor NnmeterPlot::colorOf(const QString &type) const
{
    const auto it = std::find(m_types.begin(), m_types.end(), type);
    if (it == m_types.end() || std::size_t(it - m_types.begin()) >= std::size(kPalette))
        return kOther;
    return kPalette[it - m_types.begin()];
}

QCPBars *NnmeterPlot::barsOf(const QString &type) const
{
    for (QCPBars *b : m_bars)
        if (b->name().startsWith(type + QLatin1String(" (")))
            return b;
    return nullptr;
}

void NnmeterPlot::setPrediction(const Prediction &prediction, const QString &title, const std::vector<double> &ghostMs,
                                const QString &ghostName, const std::vector<double> &measuredMs)
{
    const auto &kernels = prediction.detection.kernels;
    // Types ordered by their share of the latency: the largest get the colours.
    std::map<QString, std::pair<double, int>> byType; // type -> (ms, count)
    double maxMs = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        auto &entry = byType[QString::fromStdString(kernels[i].type)];
        entry.first += prediction.kernels[i].ms;
        ++entry.second;
        maxMs = std::max(maxMs, prediction.kernels[i].ms);
    }
    for (double g : ghostMs)
        maxMs = std::max(maxMs, g);
    for (std::size_t i = 0; i < measuredMs.size() && i < kernels.size(); ++i)
        maxMs = std::max(maxMs, measuredMs[i]);
    std::vector<std::pair<QString, std::pair<double, int>>> order(byType.begin(), byType.end());
    std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.second.first > b.second.first; });
    m_types.clear();
    for (const auto &entry : order)
        m_types.push_back(entry.first);

    const TimeUnit unit = timeUnitFor(maxMs * 1e6);
    m_perMs = unit.perNs * 1e6;
    m_unit = unit.name;
    yAxis->setLabel(tr("predicted latency per kernel (%1)").arg(m_unit));

    // One bar series per coloured type, one for the rest. The series are kept from one
    // prediction to the next (new data, name and colour), so their legend entries and the
    // sizes those measured stay; only a change in their number adds or removes some.
    const std::size_t colored = std::min<std::size_t>(m_types.size(), maxColoredTypes);
    std::vector<QVector<double>> keys(colored + 1), values(colored + 1);
    m_kernelTypes.assign(kernels.size(), QString());
    m_values.assign(kernels.size(), 0);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const QString type = QString::fromStdString(kernels[i].type);
        const std::size_t t = std::size_t(std::find(m_types.begin(), m_types.end(), type) - m_types.begin());
        const std::size_t series = std::min(t, colored);
        m_kernelTypes[i] = series < colored ? type : otherTypes();
        m_values[i] = prediction.kernels[i].ms * m_perMs;
        keys[series].append(double(i + 1));
        values[series].append(m_values[i]);
    }
    int otherCount = 0;
    for (std::size_t t = colored; t < order.size(); ++t)
        otherCount += order[t].second.second;
    std::size_t used = 0;
    for (std::size_t s = 0; s <= colored; ++s) {
        if (keys[s].isEmpty())
            continue;
        if (used == m_bars.size()) {
            auto *bars = new SolidBars(xAxis, yAxis);
            // No outline: the raster engine strokes a bar's tall edges pixel by pixel (one span per
            // row), which was 40 % of the bars' cost; a rule toggle of ResNet-50 took 8 % fewer
            // instructions without it (docs/performance.md). The 0.8-wide bars leave a gap between.
            bars->setPen(Qt::NoPen);
            bars->setWidth(0.8);
            bars->setSelectable(QCP::stNone);
            // Not antialiased: a plottable is by default (setAntialiasedElements(aeNone) above only
            // stops forcing it), and an antialiased rectangle is rasterized as a polygon with
            // coverage per pixel, 30 k instructions a bar; the bars are axis-aligned, so
            // antialiasing only blurred their edges.
            bars->setAntialiased(false);
            m_bars.push_back(bars);
        }
        QCPBars *bars = m_bars[used++];
        const QColor color = s < colored ? kPalette[s] : kOther;
        const int count = s < colored ? order[s].second.second : otherCount;
        bars->setName(s < colored ? QStringLiteral("%1 (%2)").arg(m_types[s]).arg(count)
                                  : QStringLiteral("%1 (%2)").arg(otherTypes()).arg(count));
        bars->setBrush(color);
        bars->setData(keys[s], values[s], true);
    }
    while (m_bars.size() > used) {
        removePlottable(m_bars.back()); // its legend entry goes with it
        m_bars.pop_back();
    }
    QVector<double> gk, gv;
    for (std::size_t i = 0; i < ghostMs.size(); ++i) {
        gk.append(double(i + 1));
        gv.append(ghostMs[i] * m_perMs);
    }
    m_ghost->setData(gk, gv, true);
    m_ghost->setName(tr("snapshot \"%1\"").arg(ghostName));

    QVector<double> mk, mv;
    for (std::size_t i = 0; i < measuredMs.size() && i < kernels.size(); ++i)
        if (measuredMs[i] >= 0) {
            mk.append(double(i + 1));
            mv.append(measuredMs[i] * m_perMs);
        }
    m_measured->setData(mk, mv, true);
    yAxis->setLabel(mk.isEmpty() ? tr("predicted latency per kernel (%1)").arg(m_unit)
                                 : tr("latency per kernel (%1): bars predicted").arg(m_unit));
    // Short: the legend's widest entry sets how wide the chart must stay, and so how much of the
    // row the kernel tree may have for its names (at 1280 px they were cut with this entry
    // reading "measured in a network run (73 kernels)"). The axis says the bars are predicted.
    m_measured->setName(tr("measured (%1 kernels)").arg(mk.size()));
    std::vector<QCPAbstractPlottable *> entries(m_bars.begin(), m_bars.end());
    if (!gk.isEmpty())
        entries.push_back(m_ghost);
    if (!mk.isEmpty())
        entries.push_back(m_measured);
    syncLegend(entries);

    m_fullTitle = title;
    fitTitleToWidth(width());
    fitLegendToWidth(width());
    const double n = double(std::max<std::size_t>(kernels.size(), ghostMs.size()));
    xAxis->setRange(0.3, n + 0.7);
    yAxis->setRange(0, maxMs > 0 ? maxMs * m_perMs * 1.08 : 1);
    if (m_selected >= int(kernels.size()))
        m_selected = -1;
    setSelectedKernel(m_selected);
}

void NnmeterPlot::syncLegend(const std::vector<QCPAbstractPlottable *> &entries)
{
    // The entries in this order, each a CachedLegendItem; the legend is rebuilt only when
    // the list differs (a series added or removed, the snapshot or measurements shown or not).
    bool same = true;
    int n = 0;
    for (int i = 0; i < legend->itemCount() && same; ++i) {
        auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        if (!item)
            continue; // an emptied cell of the wrapped grid
        same = std::size_t(n) < entries.size() && item->plottable() == entries[std::size_t(n)];
        ++n;
    }
    if (same && std::size_t(n) == entries.size())
        return;
    legend->clearItems();
    for (QCPAbstractPlottable *p : entries)
        legend->addItem(new CachedLegendItem(legend, p, &m_textMeasurements, m_textImages.get())); // the legend's font and text colour
    legend->setFillOrder(legend->fillOrder(), true);
}

void NnmeterPlot::setSelectedKernel(int kernel)
{
    m_selected = kernel >= 0 && std::size_t(kernel) < m_values.size() ? kernel : -1;
    if (m_selected < 0)
        m_highlight->data()->clear();
    else
        m_highlight->setData({double(m_selected + 1)}, {m_values[std::size_t(m_selected)]}, true);
}

int NnmeterPlot::kernelAt(const QPointF &pixel) const
{
    if (!axisRect()->rect().contains(pixel.toPoint()))
        return -1;
    const int k = int(std::lround(xAxis->pixelToCoord(pixel.x()))) - 1;
    return k >= 0 && std::size_t(k) < m_values.size() ? k : -1;
}

NnmeterPlot::~NnmeterPlot() = default;

void NnmeterPlot::setTextImages(bool on)
{
    PlotTextImages::enabled = on;
}

QString NnmeterPlot::titleText() const
{
    return m_title->text();
}

int NnmeterPlot::legendWidth(int columns) const
{
    // Filled row by row (foColumnsFirst): entry i goes to column i % columns.
    std::vector<int> widths(std::size_t(std::max(columns, 1)), 0);
    int n = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem *item = legend->item(i)) { // an emptied cell is null
            int &w = widths[std::size_t(n++ % columns)];
            w = std::max(w, item->minimumOuterSizeHint().width());
        }
    int total = legend->margins().left() + legend->margins().right() + plotLayout()->margins().left()
                + plotLayout()->margins().right() + legend->columnSpacing() * (std::min(n, columns) - 1);
    for (int w : widths)
        total += w;
    return total;
}

void NnmeterPlot::fitLegendToWidth(int width)
{
    int wrap = 1;
    while (wrap < 4 && legendWidth(wrap + 1) <= width)
        ++wrap;
    if (wrap == legend->wrap())
        return;
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), true); // places the entries again
}

void NnmeterPlot::fitTitleToWidth(int width)
{
    // A line wider than the plot breaks before its last " (" or after its last ", " or space
    // that fits: "on This machine: AMD EPYC (oneDNN 2.6.3, fp32, 1 thread)" was elided at
    // 1280 px. What still does not fit is elided when drawn (ElidedTitle).
    const QFontMetrics metrics(m_title->font());
    const int room = std::max(40, width - 16);
    QStringList lines;
    for (QString line : m_fullTitle.split(QLatin1Char('\n'))) {
        for (int extra = 0; extra < 2 && metrics.horizontalAdvance(line) > room; ++extra) {
            // The longest prefix that fits, by bisection (a prefix is no narrower than a shorter one):
            // a few measurements, not one per space, however long a name a file gives.
            int fits = 0;
            for (int low = 0, high = int(line.size()); low <= high;) {
                const int mid = (low + high) / 2;
                if (metrics.horizontalAdvance(line.left(mid)) <= room) {
                    fits = mid;
                    low = mid + 1;
                } else {
                    high = mid - 1;
                }
            }
            int cut = -1; // the space to break at: before a " (" if one fits, else the last that fits
            for (const bool parenthesis : {true, false})
                for (int i = std::min(fits, int(line.size()) - 2); i > 0 && cut < 0; --i)
                    if (line.at(i) == QLatin1Char(' ') && (!parenthesis || line.at(i + 1) == QLatin1Char('(')))
                        cut = i;
            if (cut <= 0)
                break;
            lines << line.left(cut);
            line = line.mid(cut + 1);
        }
        lines << line;
    }
    const QString text = lines.join(QLatin1Char('\n'));
    if (text != m_title->text())
        m_title->setText(text);
}

// The title's lines fit the width the plot is laid out at: the window's, or an export's
// (toPainter(), savePng() and the like lay the plot out in another viewport; fitted to the
// widget alone, an export of a view never shown broke its title for a 100-px widget).
void NnmeterPlot::updateLayout()
{
    fitTitleToWidth(viewport().width());
    QCustomPlot::updateLayout();
}

void NnmeterPlot::resizeEvent(QResizeEvent *event)
{
    fitTitleToWidth(event->size().width());
    fitLegendToWidth(event->size().width());
    QCustomPlot::resizeEvent(event);
}

void NnmeterPlot::mouseReleaseEvent(QMouseEvent *event)
{
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    const int k = kernelAt(event->position());
    if (k >= 0) {
        setSelectedKernel(k);
        replot(QCustomPlot::rpQueuedReplot);
        emit kernelClicked(k);
    }
}

} // namespace studio
