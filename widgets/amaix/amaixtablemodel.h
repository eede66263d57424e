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
    void setModel(const roofline::amaix::Network *network, const roofline::amaix::Accelerator *accelerator,
                  const std::vector<roofline::amaix::LayerSummary> *layers, double totalNs,
                  std::vector<double> baselineNs, std::vector<double> measuredNs);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int rowOfLayer(int layer) const; // -1 when the layer has no row
    bool hasBaseline() const { return !m_baselineNs.empty(); }
    bool hasMeasured() const { return !m_measuredNs.empty(); }

private:
    double number(int row, int column) const; // NaN where the cell has no number

    const roofline::amaix::Network *m_network = nullptr;
    const roofline::amaix::Accelerator *m_accelerator = nullptr;
    const std::vector<roofline::amaix::LayerSummary> *m_layers = nullptr;
    std::vector<int> m_rowLayers; // the layer of each row, to tell a value update from a new set of rows
    double m_totalNs = 0;
    std::vector<double> m_baselineNs;
    std::vector<double> m_measuredNs;
};

} // namespace studio
