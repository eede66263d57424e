// The instruction table of the timeline view: one row per instruction of
// every core, in program order, with its timing from the last simulation.
// Rows stay when only the timings change (a machine edit), so the selection
// survives a slider drag; a new trace resets the model.
#pragma once

#include "timelineplot.h"

#include <QAbstractTableModel>

#include <vector>

namespace studio {

class TimelineTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Core, Index, Pipe, Instruction, Size, Start, End, Duration, Rate, WaitedFor, ColumnCount };

    explicit TimelineTableModel(QObject *parent = nullptr);

    void setData(const TimelineData &data);
    // The result whose timings the rows show.
    const std::shared_ptr<const roofline::verrocchio::Result> &result() const { return m_data.result; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int rowOf(InstructionRef ref) const; // -1 if out of range
    InstructionRef refAt(int row) const;

private:
    TimelineData m_data;
    std::vector<int> m_coreBegin; // first row of each core, plus the row count
};

} // namespace studio
