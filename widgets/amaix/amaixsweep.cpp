#include "amaixsweep.h"

#include "amaix/sensitivity.h"
#include "amaixdocument.h"
#include "common/jsonreader.h"
#include "units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace studio {

namespace {
constexpr const char *kConstantArea = "constant-area"; // the x-axis choice of the T_k × T_c family
} // namespace

using namespace roofline;
using namespace roofline::amaix;

std::vector<double> sweepValues(double from, double to, int count, bool logarithmic, bool integer)
{
    if (!(from > 0) || !(to > 0) || count < 1 || !std::isfinite(from) || !std::isfinite(to))
        return {};
    if (from > to)
        std::swap(from, to);
    std::vector<double> values = logarithmic ? logValues(from, to, std::size_t(count))
                                             : linearValues(from, to, std::size_t(count));
    if (integer) {
        for (double &v : values)
            v = std::max(1.0, std::round(v));
        values.erase(std::unique(values.begin(), values.end()), values.end());
    }
    return values;
}

AmaixSweepPanel::AmaixSweepPanel(AmaixDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *layout = new QVBoxLayout(this);
    auto *grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("Parameter"), this), 0, 1);
    grid->addWidget(new QLabel(tr("From"), this), 0, 2);
    grid->addWidget(new QLabel(tr("To"), this), 0, 3);
    grid->addWidget(new QLabel(tr("Points"), this), 0, 4);
    for (int a = 0; a < 2; ++a) {
        m_axes[a] = makeAxis(a, this);
        if (a == 0) {
            grid->addWidget(new QLabel(tr("x axis"), this), 1, 0);
        } else {
            m_second = new QCheckBox(tr("y axis"), this);
            m_second->setToolTip(tr("Sweep a second parameter: a heat map of FPS"));
            grid->addWidget(m_second, 2, 0);
        }
        grid->addWidget(m_axes[a].parameter, a + 1, 1);
        grid->addWidget(m_axes[a].from, a + 1, 2);
        grid->addWidget(m_axes[a].to, a + 1, 3);
        grid->addWidget(m_axes[a].count, a + 1, 4);
        grid->addWidget(m_axes[a].log, a + 1, 5);
    }
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);
    auto setSecondEnabled = [this](bool on) {
        for (QWidget *w : std::initializer_list<QWidget *>{m_axes[1].parameter, m_axes[1].from, m_axes[1].to,
                                                            m_axes[1].count, m_axes[1].log})
            w->setEnabled(on);
    };
    connect(m_second, &QCheckBox::toggled, this, setSecondEnabled);
    setSecondEnabled(false);

    auto *row = new QHBoxLayout;
    m_run = new QPushButton(tr("Run sweep"), this);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_run->setToolTip(tr("Evaluate every point in the background; click a point of the result to apply it"));
    m_cancel->setToolTip(tr("Stop the running sweep; the points done so far are kept"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    row->addWidget(m_run);
    row->addWidget(m_cancel);
    row->addWidget(m_progress, 1);
    layout->addLayout(row);
    layout->addWidget(m_status);

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(260);
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false); // paint with the rest of the window
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeScatters | QCP::aeItems | QCP::aeAxes);
    m_plot->setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), 11, QFont::Bold)));
    m_line = m_plot->addGraph();
    m_line->setPen(QPen(QColor(0x1f77b4), 2));
    m_line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0x1f77b4), Qt::white, 5));
    m_line->setName(tr("FPS"));
    m_infeasible = m_plot->addGraph();
    m_infeasible->setLineStyle(QCPGraph::lsNone);
    m_infeasible->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xb00020), 1.5), Qt::NoBrush, 8));
    m_infeasible->setName(tr("Infeasible or invalid (shaded)"));
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_scale = new QCPColorScale(m_plot);
    m_scale->axis()->setLabel(tr("FPS (frames/s)"));
    m_map->setColorScale(m_scale);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(200, 200, 200));
    m_map->setGradient(gradient);
    m_map->setInterpolate(false);
    m_map->setVisible(false);
    m_scale->setVisible(false);
    m_current = m_plot->addGraph();
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::black, 2.5), Qt::NoBrush, 16));
    m_current->setName(tr("Current configuration"));
    for (QCPGraph *g : {m_line, m_infeasible, m_current})
        g->addToLegend();
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    QFont legendFont = font();
    legendFont.setPointSize(9);
    m_plot->legend->setFont(legendFont);
    m_plot->yAxis->setLabel(tr("FPS (frames/s)"));
    layout->addWidget(m_plot, 1);

    connect(m_run, &QPushButton::clicked, this, &AmaixSweepPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &AmaixSweepPanel::cancel);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &AmaixSweepPanel::onPlotClicked);
}

AmaixSweepPanel::~AmaixSweepPanel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    joinWorker();
}

AmaixSweepPanel::AxisControls AmaixSweepPanel::makeAxis(int axis, QWidget *parent)
{
    AxisControls c;
    c.parameter = new QComboBox(parent);
    c.from = new QDoubleSpinBox(parent);
    c.to = new QDoubleSpinBox(parent);
    for (QDoubleSpinBox *box : {c.from, c.to}) {
        box->setRange(1e-3, 1e12);
        box->setDecimals(3);
        box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    }
    c.count = new QSpinBox(parent);
    c.count->setRange(2, axis == 0 ? 400 : 80);
    c.count->setValue(axis == 0 ? 33 : 17);
    c.log = new QCheckBox(tr("log"), parent);
    c.log->setChecked(true);
    const QString which = axis == 0 ? tr("x") : tr("y");
    c.parameter->setToolTip(tr("The accelerator number swept along %1 (its JSON pointer as --set names it)").arg(which));
    c.from->setToolTip(tr("First value along %1, in the unit of the parameter's field (GHz, ops/cycle, GB/s, B, "
                          "kernels, channels)").arg(which));
    c.to->setToolTip(tr("Last value along %1, in the same unit as From").arg(which));
    c.count->setToolTip(tr("Number of points along %1 (integral parameters are rounded and repeated values "
                           "dropped)").arg(which));
    c.log->setToolTip(tr("Space the points logarithmically (equal ratios) rather than linearly"));
    connect(c.parameter, &QComboBox::currentIndexChanged, this, [this, axis] {
        resetRange(axis);
        // The constant-area family steps T_k in powers of two: no count, no scale to choose.
        m_axes[axis].count->setEnabled(!isConstantArea(axis));
        m_axes[axis].log->setEnabled(!isConstantArea(axis));
    });
    return c;
}

void AmaixSweepPanel::setParameters(const QStringList &pointers, const QStringList &labels, const std::vector<bool> &integer)
{
    m_integer = integer;
    for (int a = 0; a < 2; ++a) {
        QComboBox *box = m_axes[a].parameter;
        const QString previous = box->currentData().toString();
        {
            const QSignalBlocker block(box);
            box->clear();
            // Plain names with units ("Clock (GHz)"): the axis label is the chosen text;
            // the pointer --set takes is in the item's tooltip.
            for (int i = 0; i < pointers.size(); ++i) {
                box->addItem(labels.value(i, pointers[i]), pointers[i]);
                box->setItemData(box->count() - 1, tr("%1 (--set %2=…)").arg(labels.value(i), pointers[i]),
                                 Qt::ToolTipRole);
            }
            if (a == 0) // seed 000, Fig. 13: MAC arrays of the same area, T_k from..to, T_c = area / T_k
                box->addItem(tr("T_k with T_k × T_c constant (Fig. 13)"), QString::fromLatin1(kConstantArea));
            int index = box->findData(previous);
            if (index < 0) // defaults: memory bandwidth along x, then the next parameter along y
                index = a == 0 ? std::max(0, int(pointers.indexOf(QRegularExpression(QStringLiteral("^/memories/")))))
                               : std::min(int(pointers.size()) - 1, 1);
            box->setCurrentIndex(index);
        }
        resetRange(a);
    }
    markCurrent();
}

std::string AmaixSweepPanel::macTkPointer() const
{
    const std::string type = roofline::amaix::activeDataType(m_document->network(), m_document->accelerator(),
                                                             m_document->options());
    return "/data_types/" + roofline::jsonPointerToken(type) + "/t_k";
}

bool AmaixSweepPanel::isConstantArea(int axis) const
{
    return m_axes[axis].parameter->currentData().toString() == QLatin1String(kConstantArea);
}

void AmaixSweepPanel::resetRange(int axis)
{
    const std::string pointer = isConstantArea(axis) ? macTkPointer()
                                                     : m_axes[axis].parameter->currentData().toString().toStdString();
    Diagnostics diagnostics;
    const auto parameter = resolveParameter(m_document->accelerator(), pointer, diagnostics);
    if (!parameter)
        return;
    const double v = parameter->get(m_document->accelerator());
    const bool integer = isConstantArea(axis)
        || (std::size_t(m_axes[axis].parameter->currentIndex()) < m_integer.size()
            && m_integer[std::size_t(m_axes[axis].parameter->currentIndex())]);
    m_axes[axis].from->setValue(integer ? std::max(1.0, std::round(v / 8)) : v / 8);
    m_axes[axis].to->setValue(v * 8);
}

void AmaixSweepPanel::joinWorker()
{
    if (m_worker.joinable())
        m_worker.join();
}

void AmaixSweepPanel::run()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true); // a newer sweep supersedes a running one
    joinWorker();

    SweepSpec spec;
    spec.options = m_document->evaluationOptions();
    const int axes = m_second->isChecked() ? 2 : 1;
    for (int a = 0; a < axes; ++a) {
        const int index = m_axes[a].parameter->currentIndex();
        const bool integer = index >= 0 && std::size_t(index) < m_integer.size() && m_integer[std::size_t(index)];
        SweepAxis axis;
        axis.parameter = m_axes[a].parameter->currentData().toString().toStdString();
        axis.values = sweepValues(m_axes[a].from->value(), m_axes[a].to->value(), m_axes[a].count->value(),
                                  m_axes[a].log->isChecked(), integer);
        if (isConstantArea(a)) {
            // The family keeps today's MAC count: T_k in powers of two, T_c = T_k·T_c / T_k.
            Diagnostics diagnostics;
            const Accelerator &acc = m_document->accelerator();
            const auto tK = resolveParameter(acc, macTkPointer(), diagnostics);
            const auto tC = resolveParameter(acc, "/scaling/t_c", diagnostics);
            if (!tK || !tC) {
                m_status->setText(tr("The constant-area family needs the nvdla scaling model."));
                return;
            }
            axis.kind = SweepAxis::Kind::ConstantArea;
            axis.parameter = macTkPointer();
            axis.macProduct = tK->get(acc) * tC->get(acc);
            axis.values.clear();
            for (double v = 1; v <= m_axes[a].to->value(); v *= 2) {
                if (v >= m_axes[a].from->value() && std::fmod(axis.macProduct, v) == 0)
                    axis.values.push_back(v);
            }
            if (axis.values.empty()) {
                m_status->setText(tr("No power of two in that T_k range divides T_k·T_c = %1.").arg(axis.macProduct));
                return;
            }
        }
        spec.axes.push_back(axis);
    }
    if (axes == 2 && spec.axes[0].parameter == spec.axes[1].parameter) {
        m_status->setText(tr("Choose two different parameters."));
        return;
    }
    m_spec = spec;
    m_sweptAccelerator = m_document->accelerator();
    const quint64 generation = ++m_generation;
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    m_run->setEnabled(true);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_status->setText(tr("Running…"));

    // The worker gets copies: the document may change while it runs.
    m_worker = std::thread([this, generation, spec, network = m_document->network(), accelerator = m_sweptAccelerator,
                            flag = m_cancelFlag]() {
        SweepControl control;
        control.cancel = flag.get();
        control.progress = [this, generation](std::size_t done, std::size_t total) {
            const int percent = total > 0 ? int(100 * done / total) : 100;
            QMetaObject::invokeMethod(this, [this, generation, percent] {
                if (generation == m_generation)
                    m_progress->setValue(percent);
            }, Qt::QueuedConnection);
        };
        Diagnostics diagnostics;
        SweepResult result = runSweep(network, accelerator, spec, diagnostics, control);
        if (!result.ok)
            result.points.clear();
        QMetaObject::invokeMethod(this, [this, generation, result = std::move(result)]() mutable {
            onFinished(generation, std::move(result));
        }, Qt::QueuedConnection);
    });
}

void AmaixSweepPanel::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void AmaixSweepPanel::onFinished(quint64 generation, SweepResult result)
{
    if (generation != m_generation)
        return; // a newer sweep started since
    joinWorker();
    m_running = false;
    m_cancel->setEnabled(false);
    m_result = std::move(result);
    std::size_t infeasible = 0;
    for (const SweepPoint &p : m_result.points)
        infeasible += p.status != Status::Ok;
    if (m_result.cancelled)
        m_status->setText(tr("Cancelled after %1 of %2 points.").arg(m_result.completed).arg(m_result.points.size()));
    else
        m_status->setText(tr("%1 points, %2 infeasible or invalid (shaded). Click a point to apply it.")
                              .arg(m_result.points.size())
                              .arg(infeasible));
    showResult();
    emit finished();
}

void AmaixSweepPanel::showResult()
{
    const bool twoD = m_spec.axes.size() == 2;
    auto *title = static_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0));
    title->setText(tr("FPS of %1 on %2").arg(QString::fromStdString(m_document->network().name),
                                             QString::fromStdString(m_sweptAccelerator.name)));
    for (QCPItemRect *r : m_shades)
        m_plot->removeItem(r);
    m_shades.clear();
    m_line->data()->clear();
    m_infeasible->data()->clear();
    m_map->setVisible(twoD);
    m_scale->setVisible(twoD);
    m_line->setVisible(!twoD);
    m_infeasible->setVisible(!twoD);
    if (twoD && !m_scaleInLayout) {
        m_plot->plotLayout()->addElement(1, 1, m_scale);
        m_scaleInLayout = true;
    } else if (!twoD && m_scaleInLayout) {
        m_plot->plotLayout()->take(m_scale);
        m_plot->plotLayout()->simplify();
        m_scaleInLayout = false;
    }
    if (m_spec.axes.empty() || m_result.points.empty()) {
        m_plot->replot();
        return;
    }
    const SweepAxis &ax = m_spec.axes[0];
    const bool logX = m_axes[0].log->isChecked();
    m_plot->xAxis->setScaleType(logX ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    m_plot->xAxis->setTicker(logX ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog) : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->xAxis->setLabel(m_axes[0].parameter->currentText());
    const double x0 = ax.values.front(), x1 = ax.values.back();
    if (!twoD) {
        double yMax = 0;
        QVector<double> xs, ys, bad;
        for (const SweepPoint &p : m_result.points) {
            if (p.status == Status::Ok) {
                xs << p.x;
                ys << p.fps;
                yMax = std::max(yMax, p.fps);
            } else {
                bad << p.x;
            }
        }
        m_line->setData(xs, ys, true);
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->yAxis->setLabel(tr("FPS (frames/s)"));
        m_plot->yAxis->setRange(0, yMax > 0 ? yMax * 1.1 : 1);
        m_infeasible->setData(bad, QVector<double>(bad.size(), 0), true);
        // Shade each infeasible point's cell (half-way to its neighbours).
        for (std::size_t i = 0; i < ax.values.size() && i < m_result.points.size(); ++i) {
            if (m_result.points[i].status == Status::Ok)
                continue;
            const double v = ax.values[i];
            const double lo = i > 0 ? (logX ? std::sqrt(v * ax.values[i - 1]) : (v + ax.values[i - 1]) / 2) : v;
            const double hi = i + 1 < ax.values.size() ? (logX ? std::sqrt(v * ax.values[i + 1]) : (v + ax.values[i + 1]) / 2) : v;
            auto *rect = new QCPItemRect(m_plot);
            rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->topLeft->setCoords(lo, 0);
            rect->bottomRight->setCoords(hi, 1);
            rect->setPen(Qt::NoPen);
            rect->setBrush(QColor(176, 0, 32, 40));
            rect->setLayer(QStringLiteral("background"));
            m_shades.push_back(rect);
        }
        const double pad = logX ? std::pow(x1 / x0, 0.03) : (x1 - x0) * 0.03;
        m_plot->xAxis->setRange(logX ? x0 / pad : x0 - pad, logX ? x1 * pad : x1 + pad);
    } else {
        const SweepAxis &ay = m_spec.axes[1];
        const bool logY = m_axes[1].log->isChecked();
        m_plot->yAxis->setScaleType(logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        m_plot->yAxis->setTicker(logY ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog) : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->yAxis->setLabel(m_axes[1].parameter->currentText());
        const int nx = int(ax.values.size()), ny = int(ay.values.size());
        const double y0 = ay.values.front(), y1 = ay.values.back();
        // Log-spaced cells on a log axis: the image is stretched between the end
        // cells' pixels, so equal pixel cells are equal ratios.
        m_map->data()->setSize(nx, ny);
        m_map->data()->setRange(QCPRange(x0, x1 > x0 ? x1 : x0 * 1.01), QCPRange(y0, y1 > y0 ? y1 : y0 * 1.01));
        double lo = 1e300, hi = 0;
        for (int j = 0; j < ny; ++j) {
            for (int i = 0; i < nx; ++i) {
                const SweepPoint &p = m_result.points[std::size_t(j * nx + i)];
                const double v = p.status == Status::Ok ? p.fps : std::nan("");
                m_map->data()->setCell(i, j, v);
                if (p.status == Status::Ok) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            }
        }
        m_map->setDataRange(hi > 0 ? QCPRange(lo, hi > lo ? hi : lo * 1.01) : QCPRange(0, 1));
        const double px = nx > 1 ? (logX ? std::pow(x1 / x0, 0.5 / (nx - 1)) : (x1 - x0) / (nx - 1) / 2) : 1.1;
        const double py = ny > 1 ? (logY ? std::pow(y1 / y0, 0.5 / (ny - 1)) : (y1 - y0) / (ny - 1) / 2) : 1.1;
        m_plot->xAxis->setRange(logX ? x0 / px : x0 - px, logX ? x1 * px : x1 + px);
        m_plot->yAxis->setRange(logY ? y0 / py : y0 - py, logY ? y1 * py : y1 + py);
    }
    // The legend lists what is drawn: the line and its crosses, or (heat map) only the star.
    if (twoD) {
        m_line->removeFromLegend();
        m_infeasible->removeFromLegend();
        title->setText(title->text() + tr("\n(grey cells: infeasible or invalid)"));
    } else {
        m_plot->legend->clearItems();
        for (QCPGraph *g : {m_line, m_infeasible, m_current})
            g->addToLegend();
    }
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis})
        updateLogTickFormat(axis);
    markCurrent();
}

void AmaixSweepPanel::replotIfShown()
{
    // Hidden behind the roofline tab it is replotted when shown (AmaixView), not on every slider step.
    if (m_plot->isVisible())
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void AmaixSweepPanel::markCurrent()
{
    m_current->data()->clear();
    if (m_spec.axes.empty() || m_result.points.empty()) {
        replotIfShown();
        return;
    }
    Diagnostics diagnostics;
    const Accelerator &acc = m_document->accelerator();
    double coords[2] = {0, 0};
    for (std::size_t a = 0; a < m_spec.axes.size(); ++a) {
        const auto p = resolveParameter(acc, m_spec.axes[a].parameter, diagnostics);
        if (!p) {
            replotIfShown();
            return;
        }
        coords[a] = p->get(acc);
    }
    if (m_spec.axes.size() == 2) {
        m_current->setData(QVector<double>{coords[0]}, QVector<double>{coords[1]}, true);
    } else {
        // The current configuration's own FPS (one evaluation, microseconds).
        const Result now = evaluate(m_document->network(), acc, m_document->evaluationOptions());
        if (now.ok())
            m_current->setData(QVector<double>{coords[0]}, QVector<double>{now.fps}, true);
    }
    replotIfShown();
}

bool AmaixSweepPanel::applyPoint(std::size_t index)
{
    if (index >= m_result.points.size() || m_result.points[index].status != Status::Ok)
        return false;
    const SweepPoint &p = m_result.points[index];
    const double values[2] = {p.x, p.y};
    Diagnostics diagnostics;
    bool ok = true;
    std::vector<std::pair<Parameter, double>> assignments; // one undo step for the whole point
    for (std::size_t a = 0; a < m_spec.axes.size(); ++a) {
        const auto parameter = resolveParameter(m_document->accelerator(), m_spec.axes[a].parameter, diagnostics);
        ok = ok && parameter;
        if (ok)
            assignments.emplace_back(*parameter, values[a]);
        if (ok && m_spec.axes[a].kind == SweepAxis::Kind::ConstantArea) {
            const auto tC = resolveParameter(m_document->accelerator(), "/scaling/t_c", diagnostics);
            ok = tC.has_value();
            if (ok)
                assignments.emplace_back(*tC, m_spec.axes[a].macProduct / values[a]);
        }
    }
    ok = ok && m_document->setParameters(assignments, tr("Apply sweep point"));
    markCurrent();
    return ok;
}

void AmaixSweepPanel::onPlotClicked(QMouseEvent *event)
{
    if (m_running || m_result.points.empty() || event->button() != Qt::LeftButton)
        return;
    const double x = m_plot->xAxis->pixelToCoord(event->position().x());
    const double y = m_plot->yAxis->pixelToCoord(event->position().y());
    const bool twoD = m_spec.axes.size() == 2;
    std::size_t best = 0;
    double bestDistance = 1e300;
    for (std::size_t i = 0; i < m_result.points.size(); ++i) {
        const SweepPoint &p = m_result.points[i];
        const double dx = m_plot->xAxis->coordToPixel(p.x) - m_plot->xAxis->coordToPixel(x);
        const double dy = twoD ? m_plot->yAxis->coordToPixel(p.y) - m_plot->yAxis->coordToPixel(y) : 0;
        const double d = dx * dx + dy * dy;
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    if (!applyPoint(best))
        m_status->setText(tr("That point is infeasible or invalid; nothing applied."));
}

} // namespace studio
