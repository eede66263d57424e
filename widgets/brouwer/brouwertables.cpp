#include "brouwertables.h"

#include "brouwerformat.h"

#include "brouwer/io.h"
#include "plotstyle.h"
#include "units.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QHeaderView>
#include <QTableWidget>

#include <utility>
#include <vector>

namespace studio {

using namespace roofline::brouwer;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("studio::BrouwerTables", text);
}

} // namespace

namespace {

// Whether column `column` of a layer reads differently in `b` than in `a` (the
// fields its display, sort and colour roles are made of).
bool cellDiffers(int column, const LayerPrediction &a, bool smearedA, const LayerPrediction &b, bool smearedB)
{
    const double loadA = smearedA ? a.load.smearedMs : a.load.ms, loadB = smearedB ? b.load.smearedMs : b.load.ms;
    const double execA = smearedA ? a.exec.smearedMs : a.exec.ms, execB = smearedB ? b.exec.smearedMs : b.exec.ms;
    switch (column) {
    case BrouwerLayerModel::Name: return a.name != b.name;
    case BrouwerLayerModel::Category: return a.category != b.category;
    case BrouwerLayerModel::Required: return a.requiredBytes != b.requiredBytes;
    case BrouwerLayerModel::Overflow: return a.overflow != b.overflow;
    case BrouwerLayerModel::Regime: return a.swapping() != b.swapping();
    case BrouwerLayerModel::Load: return loadA != loadB;
    case BrouwerLayerModel::Exec: return execA != execB;
    case BrouwerLayerModel::Total: return loadA + execA != loadB + execB;
    case BrouwerLayerModel::Calibrated:
        return (a.load.calibrated && a.exec.calibrated) != (b.load.calibrated && b.exec.calibrated);
    default: return false;
    }
}

} // namespace

void BrouwerLayerModel::setResult(const Result &result, bool smeared)
{
    const bool sameShape = result.layers.size() == m_result.layers.size();
    if (!sameShape) {
        beginResetModel();
        m_result = result;
        m_smeared = smeared;
        endResetModel();
        return;
    }
    // Only the cells that read differently are announced, one by one: a view repaints a
    // single changed cell's rectangle, but its whole viewport for a range. A memory move
    // changes the few layers that swap (their overflow, regime and times); announcing
    // every cell repainted the whole visible table on every move (docs/performance.md).
    std::vector<std::pair<int, int>> changed;
    const int rows = rowCount();
    for (int row = 0; row < rows && changed.size() <= kMaxCellSignals; ++row) {
        const LayerPrediction &a = m_result.layers[std::size_t(row)], &b = result.layers[std::size_t(row)];
        for (int column = 0; column < ColumnCount; ++column) {
            if (cellDiffers(column, a, m_smeared, b, smeared))
                changed.emplace_back(row, column);
        }
    }
    m_result = result;
    m_smeared = smeared;
    if (changed.size() > kMaxCellSignals) { // most of the table (the element size, the back-transform)
        emit dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
        return;
    }
    for (const auto &[row, column] : changed)
        emit dataChanged(index(row, column), index(row, column));
}

int BrouwerLayerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.layers.size());
}

int BrouwerLayerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BrouwerLayerModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || std::size_t(index.row()) >= m_result.layers.size())
        return {};
    const LayerPrediction &l = m_result.layers[std::size_t(index.row())];
    const double load = m_smeared ? l.load.smearedMs : l.load.ms;
    const double exec = m_smeared ? l.exec.smearedMs : l.exec.ms;
    const bool calibrated = l.load.calibrated && l.exec.calibrated;
    if (role == SortRole) {
        switch (index.column()) {
        case Name: return index.row(); // execution order
        case Category: return QString::fromLatin1(categoryLabel(l.category));
        case Required: return l.requiredBytes;
        case Overflow: return l.overflow;
        case Regime: return l.swapping() ? 1 : 0;
        case Load: return load;
        case Exec: return exec;
        case Total: return load + exec;
        case Calibrated: return calibrated ? 1 : 0;
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name: return QString::fromStdString(l.name);
        case Category: return QString::fromLatin1(categoryLabel(l.category));
        case Required: return QString::fromStdString(formatBytes(l.requiredBytes));
        case Overflow: return QString::number(l.overflow, 'f', 0); // whole elements, never e-notation
        case Regime: return l.swapping() ? tr("swapping") : tr("standard");
        case Load: return brouwerTimeText(load);
        case Exec: return brouwerTimeText(exec);
        case Total: return brouwerTimeText(load + exec);
        case Calibrated: return calibrated ? tr("yes") : tr("fallback");
        default: return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == Regime && l.swapping())
        return QBrush(plotThemeDark() ? QColor(255, 160, 90) : QColor(190, 70, 10)); // readable on both
    if (role == Qt::TextAlignmentRole && index.column() >= Required && index.column() != Regime && index.column() != Calibrated)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Calibrated && !calibrated)
        return tr("The device has no calibration for this regime: the other regime is used without the F term");
    return {};
}

QVariant BrouwerLayerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name: return tr("Layer");
        case Category: return tr("Category");
        case Required: return tr("Required");
        case Overflow: return tr("Overflow F (elements)");
        case Regime: return tr("Regime");
        case Load: return tr("Load");
        case Exec: return tr("Execution");
        case Total: return tr("Total");
        case Calibrated: return tr("Calibrated");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Required: return tr("(inputs + parameters + outputs) × bytes per element (seed §3.1)");
        case Overflow: return tr("F = max(0, required elements − available elements): what does not fit");
        case Regime: return tr("standard when F = 0, swapping when F > 0");
        default: return {};
        }
    }
    return {};
}

void fillCoefficientTable(QTableWidget *table, const Device &device)
{
    table->clear();
    table->setSortingEnabled(false);
    auto cell = [](const QString &text, bool number = false) {
        auto *item = new QTableWidgetItem(text);
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        if (number)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    auto number = [](double v) { return QString::number(v, 'g', 6); };
    if (device.kind == ModelKind::FeatureEngineering) {
        const QStringList headers{tr("Category"), tr("Predictor x"), tr("Regime"), tr("Intercept a"), tr("Slope b (log x)"),
                                  tr("Overflow c (log F)"), tr("Smearing"), tr("Rows")};
        table->setColumnCount(int(headers.size()));
        table->setHorizontalHeaderLabels(headers);
        int rows = 0;
        for (int c = 0; c < kCategoryCount; ++c)
            for (const FeRegime *r : {&device.fe[std::size_t(c)].standard, &device.fe[std::size_t(c)].swapping})
                rows += r->calibrated ? 1 : 0;
        table->setRowCount(rows);
        int row = 0;
        for (int c = 0; c < kCategoryCount; ++c) {
            const FeSubmodel &m = device.fe[std::size_t(c)];
            for (int regime = 0; regime < 2; ++regime) {
                const FeRegime &r = regime == 0 ? m.standard : m.swapping;
                if (!r.calibrated)
                    continue;
                table->setItem(row, 0, cell(QString::fromLatin1(categoryLabel(Category(c)))));
                table->setItem(row, 1, cell(m.predictor == Predictor::None ? tr("none") : QString::fromLatin1(predictorName(m.predictor))));
                table->setItem(row, 2, cell(regime == 0 ? tr("standard") : tr("swapping")));
                table->setItem(row, 3, cell(number(r.intercept), true));
                table->setItem(row, 4, cell(m.predictor == Predictor::None ? QStringLiteral("—") : number(r.slope), true));
                table->setItem(row, 5, cell(regime == 0 ? QStringLiteral("—") : number(r.overflow), true));
                table->setItem(row, 6, cell(number(r.smearing), true));
                table->setItem(row, 7, cell(r.rows ? QString::number(r.rows) : tr("given"), true));
                ++row;
            }
        }
    } else {
        const QStringList headers{tr("Category"), tr("Term"), tr("Coefficient"), tr("Smearing"), tr("Rows")};
        table->setColumnCount(int(headers.size()));
        table->setHorizontalHeaderLabels(headers);
        int rows = 0;
        for (const FsSubmodel &m : device.fs)
            rows += m.calibrated ? 1 + int(m.terms.size()) : 0;
        table->setRowCount(rows);
        int row = 0;
        for (int c = 0; c < kCategoryCount; ++c) {
            const FsSubmodel &m = device.fs[std::size_t(c)];
            if (!m.calibrated)
                continue;
            auto put = [&](const QString &term, double coefficient) {
                table->setItem(row, 0, cell(QString::fromLatin1(categoryLabel(Category(c)))));
                table->setItem(row, 1, cell(term));
                table->setItem(row, 2, cell(number(coefficient), true));
                table->setItem(row, 3, cell(number(m.smearing), true));
                table->setItem(row, 4, cell(m.rows ? QString::number(m.rows) : tr("given"), true));
                ++row;
            };
            put(tr("intercept"), m.intercept);
            for (const Term &t : m.terms)
                put(QString::fromStdString(t.toString()), t.coefficient);
        }
    }
    table->resizeColumnsToContents();
}

} // namespace studio
