#include "timelinetablemodel.h"

#include "units.h"

#include <algorithm>

namespace studio {

using namespace roofline::verrocchio;

TimelineTableModel::TimelineTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_coreBegin = { 0 };
}

void TimelineTableModel::setData(const TimelineData &data)
{
    const bool sameRows = data.trace && m_data.trace == data.trace;
    if (!sameRows)
        beginResetModel();
    m_data = data;
    if (!sameRows) {
        m_coreBegin.assign(1, 0);
        if (m_data.trace) {
            for (const CoreProgram &core : m_data.trace->cores)
                m_coreBegin.push_back(m_coreBegin.back() + int(core.instructions.size()));
        }
        endResetModel();
    } else if (rowCount() > 0) {
        emit dataChanged(index(0, Start), index(rowCount() - 1, ColumnCount - 1), { Qt::DisplayRole });
    }
}

int TimelineTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_coreBegin.back();
}

int TimelineTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

InstructionRef TimelineTableModel::refAt(int row) const
{
    const auto it = std::upper_bound(m_coreBegin.begin(), m_coreBegin.end(), row);
    const auto core = std::size_t(std::max<std::ptrdiff_t>(0, it - m_coreBegin.begin() - 1));
    return { std::uint32_t(core), std::uint32_t(row - m_coreBegin[core]) };
}

int TimelineTableModel::rowOf(InstructionRef ref) const
{
    if (ref.core + 1 >= m_coreBegin.size())
        return -1;
    const int row = m_coreBegin[ref.core] + int(ref.instruction);
    return row < m_coreBegin[ref.core + 1] ? row : -1;
}

QVariant TimelineTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount || !m_data.trace
        || !m_data.result)
        return {};
    if (role == Qt::TextAlignmentRole) {
        const bool number = index.column() == Core || index.column() == Index || index.column() >= Size;
        return QVariant::fromValue(
            Qt::Alignment((number && index.column() != WaitedFor ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const InstructionRef ref = refAt(index.row());
    const Trace &trace = *m_data.trace;
    const Result &result = *m_data.result;
    if (ref.core >= trace.cores.size() || ref.core >= result.cores.size()
        || ref.instruction >= result.cores[ref.core].instructions.size())
        return {};
    const roofline::verrocchio::Instruction &in = trace.cores[ref.core].instructions[ref.instruction];
    const Timing &t = result.cores[ref.core].instructions[ref.instruction];
    const bool work = in.kind == roofline::verrocchio::Instruction::Kind::Work;
    switch (index.column()) {
    case Core:
        return ref.core;
    case Index:
        return ref.instruction;
    case Pipe:
        return QString::fromLatin1(pipeName(in.pipe));
    case Instruction:
        return QString::fromStdString(describe(trace, in));
    case Size:
        return work ? formatValue(in.size, 6) + (movesBytes(in.pipe) ? QStringLiteral(" B") : QStringLiteral(" ops"))
                    : QString();
    case Start:
        return t.executed ? formatValue(t.start, 7) : QString();
    case End:
        return t.executed ? formatValue(t.end, 7) : QString();
    case Duration:
        return t.executed ? formatValue(t.end - t.start, 5) : QString();
    case Rate: {
        if (!work || !t.executed)
            return QString();
        const double data = t.end - t.start - m_data.machine.pipe(in.pipe).initNs;
        if (!(data > 0))
            return QString();
        // Bytes per ns on the data pipes, operations per ns on the compute pipes: say which.
        return formatValue(in.size / data, 4)
            + (roofline::verrocchio::usesBus(in.pipe) || in.pipe == roofline::verrocchio::Pipe::MTE1
                      ? QStringLiteral(" GB/s")
                      : QStringLiteral(" Gops/s"));
    }
    case WaitedFor: {
        if (!t.executed)
            return tr("did not run");
        if (in.kind == roofline::verrocchio::Instruction::Kind::WaitFlag && t.flag >= 0)
            return tr("set_flag at instruction %1").arg(t.flag);
        if (t.cause < 0)
            return tr("core start");
        return tr("%1 (instruction %2)").arg(QString::fromLatin1(dependencyName(t.causeKind))).arg(t.cause);
    }
    default:
        return {};
    }
}

QVariant TimelineTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section == Rate)
        return tr("Size over the data phase (after Init): GB/s on MTE pipes, Gops/s on S, M and V.");
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Core:
        return tr("Core");
    case Index:
        return tr("#");
    case Pipe:
        return tr("Pipe");
    case Instruction:
        return tr("Instruction");
    case Size:
        return tr("Size");
    case Start:
        return tr("Start (ns)");
    case End:
        return tr("End (ns)");
    case Duration:
        return tr("Duration (ns)");
    case Rate:
        return tr("Achieved rate");
    case WaitedFor:
        return tr("Waited for");
    default:
        return {};
    }
}

} // namespace studio
