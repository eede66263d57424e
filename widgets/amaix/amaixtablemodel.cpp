#include "amaixtablemodel.h"

#include "units.h"

#include <QColor>
#include <QFont>

#include <cmath>
#include <utility>

namespace studio {

using namespace roofline::amaix;

AmaixTableModel::AmaixTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AmaixTableModel::setModel(const Network *network, const Accelerator *accelerator,
                               const std::vector<LayerSummary> *layers, double totalNs, std::vector<double> baselineNs,
                               std::vector<double> measuredNs, bool numbersOnly)
{
    std::vector<int> rowLayers(layers->size());
    for (std::size_t i = 0; i < layers->size(); ++i)
        rowLayers[i] = (*layers)[i].layer;
    const bool sameRows = rowLayers == m_rowLayers && network == m_network && accelerator == m_accelerator
        && baselineNs.empty() == m_baselineNs.empty() && measuredNs.empty() == m_measuredNs.empty();
    if (!sameRows)
        beginResetModel();
    m_network = network;
    m_accelerator = accelerator;
    m_layers = layers;
    m_rowLayers = std::move(rowLayers);
    const double totalBefore = std::exchange(m_totalNs, totalNs);
    std::vector<double> baselineBefore = std::exchange(m_baselineNs, std::move(baselineNs));
    std::vector<double> measuredBefore = std::exchange(m_measuredNs, std::move(measuredNs));
    if (!sameRows) {
        endResetModel();
    } else if (numbersOnly && m_shown.size() == layers->size()) {
        announceChangedCells(m_shown, totalBefore, baselineBefore, measuredBefore);
    } else if (!m_rowLayers.empty()) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
    m_shown = *layers;
}

namespace {

bool sameNumber(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

} // namespace

void AmaixTableModel::announceChangedCells(const std::vector<LayerSummary> &before, double totalBefore,
                                           const std::vector<double> &baselineBefore,
                                           const std::vector<double> &measuredBefore)
{
    // A slider move changes a few columns (time, performance, share, bound,
    // the sheet estimate) of many rows: announced as runs of rows per column,
    // so a view repaints those cells, not every one it shows (each range's
    // own rectangle). Names and types do not change without numbersOnly false.
    const int rows = rowCount();
    std::vector<char> rowStyle(static_cast<std::size_t>(rows)); // the row's grey (pipelined, on the host) changed: every cell
    for (int row = 0; row < rows; ++row) {
        const LayerSummary &a = before[std::size_t(row)], &b = (*m_layers)[std::size_t(row)];
        rowStyle[std::size_t(row)] = a.pipelined != b.pipelined || a.onHost != b.onHost;
    }
    auto differs = [&](int row, int column) {
        if (rowStyle[std::size_t(row)])
            return true;
        const LayerSummary &a = before[std::size_t(row)], &b = (*m_layers)[std::size_t(row)];
        switch (column) {
        case Name:
        case Type: return false;
        case Unit: return a.unit != b.unit;
        case Bound: return a.bound != b.bound;
        case Mode: return a.mode != b.mode;
        default:
            return !sameNumber(numberOf(a, column, totalBefore, baselineBefore, measuredBefore),
                               numberOf(b, column, m_totalNs, m_baselineNs, m_measuredNs));
        }
    };
    std::vector<std::pair<int, std::pair<int, int>>> runs; // column, first row, last row
    for (int column = 0; column < ColumnCount && runs.size() <= kMaxRuns; ++column) {
        for (int row = 0; row < rows; ++row) {
            if (!differs(row, column))
                continue;
            const int first = row;
            while (row + 1 < rows && differs(row + 1, column))
                ++row;
            runs.push_back({column, {first, row}});
        }
    }
    if (runs.size() > kMaxRuns) { // scattered all over: one range
        emit dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
        return;
    }
    for (const auto &[column, span] : runs)
        emit dataChanged(index(span.first, column), index(span.second, column));
}

int AmaixTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_layers ? 0 : int(m_rowLayers.size());
}

int AmaixTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int AmaixTableModel::rowOfLayer(int layer) const
{
    for (std::size_t i = 0; i < m_rowLayers.size(); ++i) {
        if (m_rowLayers[i] == layer)
            return int(i);
    }
    return -1;
}

double AmaixTableModel::number(int row, int column) const
{
    return numberOf((*m_layers)[std::size_t(row)], column, m_totalNs, m_baselineNs, m_measuredNs);
}

double AmaixTableModel::numberOf(const LayerSummary &l, int column, double totalNs,
                                 const std::vector<double> &baselineNs, const std::vector<double> &measuredNs)
{
    const double nan = std::nan("");
    switch (column) {
    case Ops: return l.ops;
    case DIfmap: return l.dIfmap;
    case DWeight: return l.dWeight;
    case DOfmap: return l.dOfmap;
    case DTotal: return l.dTotal();
    case Intensity: return l.intensity();
    case Performance: return l.onHost ? nan : l.performance();
    case Time: return l.timeNs / 1000;
    case Share: return totalNs > 0 ? 100 * l.timeNs / totalNs : 0;
    case Tiles: return l.tiles;
    case Baseline:
        return std::size_t(l.layer) < baselineNs.size() ? baselineNs[std::size_t(l.layer)] / 1000 : nan;
    case Measured:
        return std::size_t(l.layer) < measuredNs.size() ? measuredNs[std::size_t(l.layer)] / 1000 : nan;
    default: return nan;
    }
}

QVariant AmaixTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_layers || index.row() >= rowCount())
        return {};
    const LayerSummary &l = (*m_layers)[std::size_t(index.row())];
    const Layer &layer = m_network->layers[std::size_t(l.layer)];
    const int column = index.column();
    auto text = [&]() -> QString {
        switch (column) {
        case Name: return QString::fromStdString(layer.name);
        case Type:
            // An operator we do not model: marked, with the file's operator.
            if (layer.type == LayerType::Other)
                return QStringLiteral("\u26a0 other: %1").arg(QString::fromStdString(layer.op));
            return QString::fromLatin1(layerTypeName(layer.type));
        case Unit:
            return l.unit < 0 ? QStringLiteral("host") : QString::fromStdString(m_accelerator->units[std::size_t(l.unit)].name);
        case Bound:
            return l.onHost ? QString()
                            : QString::fromLatin1(boundName(l.bound)) + (l.pipelined ? QStringLiteral(" (piped)") : QString());
        case Mode:
            return l.mode == ConvMode::None ? QStringLiteral("–") : QString::number(int(l.mode));
        default: {
            // Readable units: 1.2 Gops, 590 kB, 190 µs (Edit ▸ Preferences' base units: ops, B, ns).
            const double v = number(index.row(), column);
            if (std::isnan(v))
                return QStringLiteral("–");
            switch (column) {
            case Ops: return formatQuantity(v, QStringLiteral("ops"), 3);
            case DIfmap:
            case DWeight:
            case DOfmap:
            case DTotal: return formatQuantity(v, QStringLiteral("B"), 3);
            case Performance: return formatQuantity(v, QStringLiteral("Gops/s"), 3);
            case Time:
            case Baseline:
            case Measured: return v == 0 ? QStringLiteral("0") : formatQuantity(v * 1000, QStringLiteral("ns"), 3);
            case Intensity: return formatValue(v, 3);
            case Share: return formatValue(v, 3);
            default: return formatValue(v);
            }
        }
        }
    };
    switch (role) {
    case Qt::DisplayRole: return text();
    case SortRole: {
        if (column == Name)
            return l.layer; // network order
        if (column <= Unit || column == Bound)
            return text();
        if (column == Mode)
            return int(l.mode);
        const double v = number(index.row(), column);
        return std::isnan(v) ? -1.0 : v;
    }
    case LayerRole: return l.layer;
    case Qt::TextAlignmentRole:
        return column <= Unit || column == Bound ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                                 : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::BackgroundRole:
        if (layer.type == LayerType::Other)
            return QColor(255, 244, 214); // the import notice's colour
        return {};
    case Qt::ForegroundRole:
        if (l.pipelined || l.onHost)
            return QColor(110, 110, 110);
        return {};
    case Qt::ToolTipRole:
        if (column == Name)
            return QString::fromStdString(layer.name);
        if (layer.type == LayerType::Other)
            return tr("Not modelled: the file's %1 operator, imported as an \"other\" layer with its shapes and bytes. "
                      "AMAIX runs it where the accelerator maps \"other\" (a unit, or the host: no time).")
                .arg(QString::fromStdString(layer.op));
        if (l.onHost)
            return tr("Runs on the host: no time on the accelerator");
        if (l.pipelined)
            return tr("Runs inside the pipe of an earlier layer and does not set its time; "
                      "performance is its stand-alone roofline value");
        return {};
    default: return {};
    }
}

QVariant AmaixTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (role == Qt::DisplayRole) {
        // Each cell carries its unit (formatQuantity): the headers name the quantity only.
        static const char *const names[] = {"Layer", "Type", "Unit", "Ops", "Input fmap", "Weights",
                                            "Output fmap", "Bytes total", "I (ops/B)", "Performance", "Time",
                                            "Share (%)", "Bound", "Mode", "Tiles", "Sheet", "Measured"};
        return QString::fromUtf8(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Ops: return tr("n_ops: operations of the layer's stages (tiles and bias stage), after scaling");
        case DTotal: return tr("d_total = d_ifmap + d_weight + d_ofmap, bytes moved to and from memory");
        case Intensity: return tr("Operational intensity n_ops / d_total, operations per byte");
        case Performance: return tr("Attained performance n_ops / time, Gops/s");
        case Time: return tr("Time of the pipes this layer heads");
        case Mode: return tr("NVDLA convolution mode 1–6 (the AMAIX paper, section 3.4)");
        case Baseline: return tr("NVDLA performance-sheet estimate: rows for convolutions and fully connected layers only "
                                 "(pooling and activations fused: 0), each the larger of its MAC cycles and DRAM cycles. "
                                 "It leaves out the tiling, bias stages, warm-up and the other layers AMAIX charges, so "
                                 "it is lower (AlexNet on nv_full: 2.26 ms against AMAIX's 5.32 ms; measured 6.12 ms).");
        case Measured: return tr("Measured time from the loaded CSV");
        default: return {};
        }
    }
    return {};
}

} // namespace studio
