// The Brouwer view's three plots (docs/models/brouwer.md):
//  - BrouwerBarsPlot: per layer, the loading and execution time stacked,
//    coloured by regime (standard blue, swapping orange; parts predicted with a
//    fallback regime hatched), the compared snapshot's totals as crosses;
//  - BrouwerCurvePlot: the total time against the available memory (log x),
//    a marker at each knee (where a layer starts to swap) and the current point;
//  - BrouwerScatterPlot: predicted against measured time (log-log) for every
//    measured observation, with the fit's metrics.
// Each keeps what it plotted, so tests read the plotted data, not the screen.
#pragma once

#include "brouwer/fit.h"
#include "brouwer/model.h"
#include "plothint.h"

#include <qcustomplot.h>

#include <vector>

namespace studio {

// A plot title that wraps to the plot's width (at most two lines, the rest
// elided; the whole text as a tooltip): a title wider than the plot would
// widen the layout past the widget and be clipped on both sides.
class BrouwerTitle : public QCPTextElement
{
public:
    BrouwerTitle(QCustomPlot *plot, const QFont &font);
    void setFullText(const QString &text);
    const QString &fullText() const { return m_full; }
    bool shortened() const { return m_shortened; } // elided: text() lacks words of fullText()
    static constexpr int kMaxLines = 2;

protected:
    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

private:
    void wrap(int width);
    QString m_full;
    int m_wrappedFor = -1;
    bool m_shortened = false;
};

class BrouwerBarsPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit BrouwerBarsPlot(QWidget *parent = nullptr);

    // `compared`: the snapshot's result drawn as crosses (null: none).
    void setResult(const roofline::brouwer::Result &result, bool smeared, const QString &title,
                   const roofline::brouwer::Result *compared, const QString &comparedName);

    // The four stacked series (load and execution, standard and swapping regime) and the hatch.
    QCPBars *loadStandard() const { return m_loadStandard; }
    QCPBars *loadSwapping() const { return m_loadSwapping; }
    QCPBars *execStandard() const { return m_execStandard; }
    QCPBars *execSwapping() const { return m_execSwapping; }
    QCPBars *uncalibrated() const { return m_uncalibrated; }
    QCPGraph *comparedGraph() const { return m_compared; }
    BrouwerTitle *titleElement() const { return m_title; }
    // Tooltip text for layer `index` (what hovering its bar shows).
    QString layerTip(int index) const;
    // The time axis' unit ("µs", "ms", "s"): the bars' data stay in ms, the
    // tick labels and the axis title speak this unit.
    QString timeUnit() const { return m_timeUnit; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void updateTicks();
    void setTimeUnit(double topMs);

    BrouwerTitle *m_title = nullptr;
    QCPBars *m_loadStandard = nullptr, *m_loadSwapping = nullptr, *m_execStandard = nullptr,
            *m_execSwapping = nullptr, *m_uncalibrated = nullptr;
    QCPGraph *m_compared = nullptr;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    std::vector<roofline::brouwer::LayerPrediction> m_layers;
    bool m_smeared = false;
    int m_tickedFor = -1; // layer count the ticker was built for
    const void *m_tickedNames = nullptr;
    int m_tickedWidth = -1;
    QString m_timeUnit;
    PlotHintCache m_hint;
};

class BrouwerCurvePlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit BrouwerCurvePlot(QWidget *parent = nullptr);

    // The whole curve (when the network, device or bytes per element changed).
    void setCurve(const roofline::brouwer::Curve &curve, bool smeared, const QString &title);
    // The compared snapshot's curve, faded (null: none).
    void setComparedCurve(const roofline::brouwer::Curve *curve, bool smeared, const QString &name);
    // The current point (every slider move).
    void setCurrent(double bytes, double totalMs);
    // Redraw what changed since the last call: the whole plot (queued) after setCurve,
    // setComparedCurve or a theme change; after setCurrent alone, only the overlay layer
    // that holds the current point, its line and its label.
    void replotChanged();
    // How often replotChanged() replotted the whole plot / only the current point's layer.
    int wholeReplots() const { return m_wholeReplots; }
    int currentReplots() const { return m_currentReplots; }

    QCPGraph *curveGraph() const { return m_curve; }
    QCPGraph *kneeGraph() const { return m_knees; }
    QCPGraph *currentGraph() const { return m_current; }
    QCPGraph *comparedGraph() const { return m_compared; }
    const std::vector<roofline::brouwer::Knee> &knees() const { return m_kneeList; }
    BrouwerTitle *titleElement() const { return m_title; }
    QCPItemText *currentLabel() const { return m_label; }
    QString timeUnit() const { return m_timeUnit; } // the y axis' unit; the data stay in ms

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

signals:
    void memoryClicked(double bytes); // a click on the plot: set the memory there

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    BrouwerTitle *m_title = nullptr;
    QCPGraph *m_curve = nullptr, *m_knees = nullptr, *m_current = nullptr, *m_compared = nullptr;
    QCPItemStraightLine *m_line = nullptr;
    QCPItemText *m_label = nullptr;
    std::vector<roofline::brouwer::Knee> m_kneeList;
    QString m_timeUnit;
    PlotHintCache m_hint;
    bool m_wholePlotChanged = true;
    int m_wholeReplots = 0, m_currentReplots = 0;
};

class BrouwerScatterPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit BrouwerScatterPlot(QWidget *parent = nullptr);

    struct Point
    {
        QString label; // "AgeNet conv1 exec"
        double measuredMs = 0;
        double predictedMs = 0;
        bool load = false;
    };
    // Empty `points`: the plot says how to load measurements.
    void setPoints(const std::vector<Point> &points, const QString &title, const QString &metrics);
    const std::vector<Point> &points() const { return m_points; }
    QCPGraph *loadGraph() const { return m_load; }
    QCPGraph *execGraph() const { return m_exec; }
    BrouwerTitle *titleElement() const { return m_title; }
    QCPItemText *metricsLabel() const { return m_metrics; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    BrouwerTitle *m_title = nullptr;
    QCPGraph *m_load = nullptr, *m_exec = nullptr, *m_diagonal = nullptr;
    QCPItemText *m_metrics = nullptr;
    std::vector<Point> m_points;
    PlotHintCache m_hint;
};

} // namespace studio
