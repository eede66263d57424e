// The Brouwer view's tables: the per-layer table (required memory, overflow F,
// regime, loading and execution time; rewritten on every memory move, so a
// model that announces only the cells that changed) and the device's coefficient table.
#pragma once

#include "brouwer/model.h"

#include <QAbstractTableModel>

#include <vector>

class QTableWidget;

namespace studio {

class BrouwerLayerModel : public QAbstractTableModel
{
public:
    enum Column { Name, Category, Required, Overflow, Regime, Load, Exec, Total, Calibrated, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    // Same layer count: the cells change in place (no reset, the selection and sort stay),
    // and only the cells that read differently are announced, each on its own (up to
    // kMaxCellSignals; past that, the whole table as one range).
    void setResult(const roofline::brouwer::Result &result, bool smeared);
    static constexpr std::size_t kMaxCellSignals = 96;
    const roofline::brouwer::Result &result() const { return m_result; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    roofline::brouwer::Result m_result;
    bool m_smeared = false;
};

// Fills `table` with the device's coefficients: per category and regime
// (feature engineering) or per category and term (feature selection).
void fillCoefficientTable(QTableWidget *table, const roofline::brouwer::Device &device);

} // namespace studio
