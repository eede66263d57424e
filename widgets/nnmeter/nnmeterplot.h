// The nn-Meter kernel chart: one bar per kernel in execution order, its
// height the predicted latency (seed 004: model latency = Σ kernel
// latencies), coloured by kernel type with a legend; the compared snapshot's
// kernels as a faded step line; per-kernel measured latencies (when a run of the
// network was timed kernel by kernel) as markers; the selected kernel outlined. A click on a bar
// selects that kernel (the view links it to the kernel tree).
#pragma once

#include "nnmeter/predict.h"

#include <QColor>
#include <QString>

#include <qcustomplot.h>

#include <memory>
#include <vector>

namespace studio {

class PlotTextImages; // plottextimages.h

class NnmeterPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit NnmeterPlot(QWidget *parent = nullptr);
    ~NnmeterPlot() override;

    // Shows `prediction` (titled with the network and device names); `ghost`
    // are the compared snapshot's kernel latencies in ms (empty: none);
    // `measuredMs` per kernel the latency measured inside a whole-network run
    // (the kernel lab's kernels.csv; < 0 or missing: none), drawn as markers.
    void setPrediction(const roofline::nnmeter::Prediction &prediction, const QString &title,
                       const std::vector<double> &ghostMs, const QString &ghostName,
                       const std::vector<double> &measuredMs = {});
    void setSelectedKernel(int kernel); // -1: none
    int selectedKernel() const { return m_selected; }

    // The types in legend order and their colours (the tree uses the same).
    const std::vector<QString> &types() const { return m_types; }
    QColor colorOf(const QString &type) const;
    static constexpr int maxColoredTypes = 9; // the rest share "other types"

    // What is drawn, for tests: per kernel its bar height in the axis unit, and the unit.
    const std::vector<double> &barValues() const { return m_values; }
    QCPGraph *measuredGraph() const { return m_measured; } // the measured markers (empty: none)
    QString valueUnit() const { return m_unit; }
    double unitPerMs() const { return m_perMs; }
    QCPBars *barsOf(const QString &type) const; // nullptr if not shown
    int kernelAt(const QPointF &pixel) const;   // the bar under a pixel, or -1

    // How often the title and the legend entries laid their texts out to measure them: once per
    // new text (QCustomPlot's layout asks each about ten times per replot). For tests.
    int textMeasurements() const { return m_textMeasurements; }
    // How often the title and the legend entries drew a text into a new image (PlotTextImages,
    // plottextimages.h: a text seen before is blended from its image), and whether they do
    // (every plot using PlotTextImages; off: drawn as QCustomPlot draws them). For tests.
    int textRenders() const { return m_textRenders; }
    static void setTextImages(bool on);

    // Up to four legend entries a row, fewer when `width` pixels cannot hold them
    // (a narrow chart keeps its legend inside and leaves the kernel tree room).
    void fitLegendToWidth(int width);
    // The title's lines broken where they are wider than `width` pixels (before " (", at a space).
    void fitTitleToWidth(int width); // also each layout, at the width laid out (window or export)
    QString titleText() const; // as drawn: with the breaks fitTitleToWidth() put in (for tests)
    // The width the legend needs with `columns` entries a row (the entries as they are now).
    int legendWidth(int columns) const;

signals:
    void kernelClicked(int kernel);

protected:
    void updateLayout() override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void syncLegend(const std::vector<QCPAbstractPlottable *> &entries);

    QCPTextElement *m_title = nullptr;
    QString m_fullTitle; // as the view gave it (m_title's text may have more line breaks)
    int m_textMeasurements = 0;
    int m_textRenders = 0;
    std::unique_ptr<PlotTextImages> m_textImages; // the title's and the legend's texts as images
    QCPGraph *m_ghost = nullptr;
    QCPGraph *m_measured = nullptr;
    QCPBars *m_highlight = nullptr;
    std::vector<QCPBars *> m_bars;
    std::vector<QString> m_types;
    std::vector<QString> m_kernelTypes; // per kernel, the legend type it is drawn as
    std::vector<double> m_values;
    QString m_unit;
    double m_perMs = 1;
    int m_selected = -1;
    QPoint m_pressAt;
};

} // namespace studio
