// The AMAIX layer table: one row per network layer with its AMAIX numbers, the
// performance-sheet estimate (nvdla accelerators) and the measured time when a
// measurement file is loaded. Sorting goes through a QSortFilterProxyModel on
// SortRole (the raw number); DisplayRole is formatted with units in the header.
#pragma once

#include "amaix/layersummary.h"

#include <QAbstractTableModel>

#include <vector>

namespace studio {

class AmaixTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Name, Type, Unit, Ops, DIfmap, DWeight, DOfmap, DTotal, Intensity, Performance, Time, Share, Bound, Mode,
        Tiles, Baseline, Measured, ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int LayerRole = Qt::UserRole + 2; // network layer index

    explicit AmaixTableModel(QObject *parent = nullptr);

    // The model keeps pointers to these; call setModel() again after every
    // change. Same rows as before: dataChanged (selection survives); else a reset.
    // `baselineNs` and `measuredNs` are per network layer (NaN: none); empty: no column data.
    // `numbersOnly`: only numbers changed since the last call (a slider move,
    // not a new network, accelerator or data type), so the layers' names,
    // types and the units' names are as before: then only the cells that read
    // differently are announced, a column's run of rows at a time, and a view
    // repaints those cells rather than all it shows.
    void setModel(const roofline::amaix::Network *network, const roofline::amaix::Accelerator *accelerator,
                  const std::vector<roofline::amaix::LayerSummary> *layers, double totalNs,
                  std::vector<double> baselineNs, std::vector<double> measuredNs, bool numbersOnly = false);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int rowOfLayer(int layer) const; // -1 when the layer has no row
    bool hasBaseline() const { return !m_baselineNs.empty(); }
    bool hasMeasured() const { return !m_measuredNs.empty(); }

    // Past this many runs of changed cells, one range for the whole table.
    static constexpr std::size_t kMaxRuns = 256;

private:
    double number(int row, int column) const; // NaN where the cell has no number
    // The number a cell of `column` shows for `l` (NaN: none), given the totals and columns it reads.
    static double numberOf(const roofline::amaix::LayerSummary &l, int column, double totalNs,
                           const std::vector<double> &baselineNs, const std::vector<double> &measuredNs);
    void announceChangedCells(const std::vector<roofline::amaix::LayerSummary> &before, double totalBefore,
                              const std::vector<double> &baselineBefore, const std::vector<double> &measuredBefore);

    const roofline::amaix::Network *m_network = nullptr;
    const roofline::amaix::Accelerator *m_accelerator = nullptr;
    const std::vector<roofline::amaix::LayerSummary> *m_layers = nullptr;
    std::vector<int> m_rowLayers; // the layer of each row, to tell a value update from a new set of rows
    double m_totalNs = 0;
    std::vector<double> m_baselineNs;
    std::vector<double> m_measuredNs;
    std::vector<roofline::amaix::LayerSummary> m_shown; // the layers as the table last announced them
};

} // namespace studio
