#include "brouwerfitpanel.h"

#include "brouwerdocument.h"
#include "diagnosticstext.h"
#include "units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>

#include <algorithm>
#include <cmath>

namespace studio {

using namespace roofline;
using namespace roofline::brouwer;

namespace {

// 3 significant digits; from 10⁶ on as a power of ten ("4.6·10²⁵"), never "4.6e+25":
// a held-out network can be predicted absurdly (docs/models/brouwer.md).
QString readableNumber(double v)
{
    if (!std::isfinite(v) || std::abs(v) < 1e6)
        return formatValue(v, 3);
    const int exponent = int(std::floor(std::log10(std::abs(v))));
    static const QString digits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString power;
    for (const QChar c : QString::number(exponent))
        power += c == QLatin1Char('-') ? QStringLiteral("⁻") : QString(digits[c.digitValue()]);
    return QString::number(v / std::pow(10.0, exponent), 'f', 1) + QStringLiteral("·10") + power;
}

QString readableMs(double ms)
{
    if (ms >= 1e6) // beyond 1000 s: seconds, as the view's readout
        return readableNumber(ms / 1e3) + QStringLiteral(" s");
    return formatQuantity(ms * 1e6, QStringLiteral("ns"), 3);
}

} // namespace

BrouwerFitPanel::BrouwerFitPanel(BrouwerDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
{
    auto *form = new QFormLayout(this);
    m_model = new QComboBox(this);
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->setMinimumContentsLength(16);
    m_model->addItem(tr("Feature engineering (OLS)"), QStringLiteral("fe"));
    m_model->addItem(tr("Feature selection (LASSO)"), QStringLiteral("lasso"));
    m_model->setToolTip(tr("Seed §3.2: log t = a + b·log x (+ c·log F when swapping) per category; seed §3.3: LASSO "
                           "over the basic features' monomials up to the order"));
    form->addRow(tr("Model"), m_model);
    m_bootstrap = new QSpinBox(this);
    m_bootstrap->setRange(0, 2000);
    m_bootstrap->setSpecialValueText(tr("none (plain OLS)"));
    m_bootstrap->setSuffix(tr(" resamples"));
    m_bootstrap->setToolTip(tr("Feature engineering: bootstrap aggregating, coefficients averaged over this many "
                               "resamples drawn with replacement (0: plain OLS)"));
    form->addRow(tr("Bagging"), m_bootstrap);
    m_order = new QSpinBox(this);
    m_order->setRange(1, 6);
    m_order->setValue(3);
    m_order->setToolTip(tr("LASSO: all monomials of the 8 basic features up to this degree (1..6: 8, 44, 164, 494, "
                           "1286, 3002 features)"));
    form->addRow(tr("Order"), m_order);
    m_pca = new QCheckBox(tr("principal components"), this);
    m_pca->setToolTip(tr("LASSO on the principal components of the expansion that explain more than 1 % of its variance"));
    form->addRow(tr("PCA"), m_pca);
    m_cv = new QCheckBox(tr("cross-validated"), this);
    m_cv->setChecked(true);
    m_cv->setToolTip(tr("Choose λ by k-fold cross-validation over a 30-point path (λ_max … 10⁻⁴ λ_max)"));
    form->addRow(tr("λ"), m_cv);
    m_lambda = new QDoubleSpinBox(this);
    m_lambda->setDecimals(6);
    m_lambda->setRange(0, 1e6);
    m_lambda->setValue(0.001);
    m_lambda->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_lambda->setToolTip(tr("The LASSO penalty when it is not cross-validated (on standardised columns, log10 ns)"));
    form->addRow(tr("Fixed λ"), m_lambda);
    m_folds = new QSpinBox(this);
    m_folds->setRange(2, 20);
    m_folds->setValue(5);
    m_folds->setSuffix(tr(" folds"));
    form->addRow(tr("CV folds"), m_folds);

    m_fit = new QPushButton(tr("Fit"), this);
    m_fit->setToolTip(tr("Fit a device on the loaded measurements in the background"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_save = new QPushButton(tr("Save device…"), this);
    m_save->setToolTip(tr("Write the current device as a brouwer device file (atomically)"));
    m_crossValidate = new QPushButton(tr("Cross-validate"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_fit);
    buttons->addWidget(m_crossValidate);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    buttons->addWidget(m_save);
    form->addRow(buttons);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    form->addRow(tr("Progress"), m_progress);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_status);
    m_cvTable = new QTableWidget(0, 5, this);
    m_cvTable->setHorizontalHeaderLabels({tr("Held out"), tr("Obs."), tr("MAPE log"), tr("MAPE linear"), tr("Total, meas. / pred.")});
    m_cvTable->horizontalHeaderItem(2)->setToolTip(tr("Mean absolute percentage error of log10(time in ns), the seed's metric (%)"));
    m_cvTable->horizontalHeaderItem(3)->setToolTip(tr("Mean absolute percentage error of the back-transformed times (%)"));
    m_cvTable->horizontalHeaderItem(4)->setToolTip(tr("The held-out network's measured and predicted time: the sum of its observations"));
    m_cvTable->verticalHeader()->setVisible(false);
    m_cvTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_cvTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_cvTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_cvTable->horizontalHeader()->setStretchLastSection(true);
    m_cvTable->setToolTip(tr("Leave-one-network-out cross-validation: each network predicted by a fit on the others"));
    m_cvTable->hide(); // until a cross-validation has run
    form->addRow(m_cvTable);

    connect(m_fit, &QPushButton::clicked, this, &BrouwerFitPanel::startFit);
    connect(m_crossValidate, &QPushButton::clicked, this, &BrouwerFitPanel::startCrossValidation);
    connect(m_cancel, &QPushButton::clicked, this, &BrouwerFitPanel::cancelFit);
    connect(m_save, &QPushButton::clicked, this, &BrouwerFitPanel::saveRequested);
    connect(m_model, &QComboBox::currentIndexChanged, this, &BrouwerFitPanel::updateEnabled);
    connect(m_cv, &QCheckBox::toggled, this, &BrouwerFitPanel::updateEnabled);
    refresh();
}

BrouwerFitPanel::~BrouwerFitPanel()
{
    if (m_thread) {
        m_cancelFlag->store(true);
        m_thread->wait();
    }
}

FitOptions BrouwerFitPanel::options() const
{
    FitOptions o;
    o.kind = m_model->currentData().toString() == QLatin1String("fe") ? ModelKind::FeatureEngineering
                                                                      : ModelKind::FeatureSelection;
    o.bootstrap = m_bootstrap->value();
    o.order = m_order->value();
    o.pca = m_pca->isChecked();
    if (!m_cv->isChecked())
        o.lambda = m_lambda->value();
    o.folds = m_folds->value();
    return o;
}

void BrouwerFitPanel::refresh()
{
    updateEnabled();
}

void BrouwerFitPanel::updateEnabled()
{
    const bool running = m_thread != nullptr;
    const bool lasso = m_model->currentData().toString() == QLatin1String("lasso");
    const bool haveData = m_document->measured() != nullptr;
    for (QWidget *w : std::initializer_list<QWidget *>{m_model, m_order, m_pca, m_bootstrap, m_cv, m_lambda, m_folds})
        w->setEnabled(!running);
    m_bootstrap->setEnabled(!running && !lasso);
    m_order->setEnabled(!running && lasso);
    m_pca->setEnabled(!running && lasso);
    m_cv->setEnabled(!running && lasso);
    m_lambda->setEnabled(!running && lasso && !m_cv->isChecked());
    m_folds->setEnabled(!running && lasso && m_cv->isChecked());
    m_fit->setEnabled(!running && haveData);
    m_fit->setToolTip(haveData ? tr("Fit a device on the loaded measurements in the background")
                               : tr("Open measurements first (EdgeCaffe's CSV or ours)"));
    m_crossValidate->setEnabled(!running && haveData);
    m_crossValidate->setToolTip(haveData ? tr("Leave one network out: fit the model above on the other networks' "
                                              "measurements and predict it, for every network (in the background)")
                                         : tr("Open measurements of two networks or more first"));
    m_cancel->setEnabled(running);
    m_save->setEnabled(!running && m_document->device());
    // Empty state: what the fit needs, until there is something to fit on.
    if (!running && !haveData)
        m_status->setText(tr("Fitting and cross-validation need measured per-layer times: “Open measurements…” "
                             "above (EdgeCaffe's CSV or ours)."));
    else if (!running && haveData && m_status->text().startsWith(tr("Fitting and cross-validation need")))
        m_status->clear();
}

void BrouwerFitPanel::startFit()
{
    if (m_thread)
        return;
    Observations obs = m_document->observations();
    if (obs.items.empty()) {
        const QString why = m_document->measured()
            ? tr("No measured row matches a layer of a known network (the shipped ones and those you opened).")
            : tr("Open measurements first.");
        m_status->setText(why);
        emit message(why);
        return;
    }
    FitOptions options = this->options();
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    options.cancel = m_cancelFlag.get();
    options.progress = progressReporter();
    auto outcome = std::make_shared<FitOutcome>();
    auto seconds = std::make_shared<double>(0);
    const auto cancelFlag = m_cancelFlag; // keeps the flag alive for the worker
    const std::size_t rows = obs.items.size();
    m_thread = QThread::create([outcome, seconds, cancelFlag, options, items = std::move(obs.items)] {
        QElapsedTimer timer;
        timer.start();
        *outcome = fitDevice(items, options);
        *seconds = double(timer.nsecsElapsed()) / 1e9;
    });
    m_progress->setRange(0, 0); // busy until the first submodel reports
    m_status->setText(tr("Fitting on %1 observations…").arg(rows));
    connect(m_thread, &QThread::finished, this, [this, outcome, seconds, rows, options] {
        m_thread->deleteLater();
        m_thread = nullptr;
        m_progress->setRange(0, 1);
        bool fitted = false;
        if (outcome->cancelled) {
            m_progress->setValue(0);
            m_status->setText(tr("Cancelled; the device shown is unchanged."));
        } else if (!outcome->device) {
            m_progress->setValue(0);
            const QString why = errorsOf(outcome->diagnostics);
            m_status->setText(tr("The fit failed: %1").arg(why));
            emit message(tr("The fit failed: %1").arg(why));
        } else {
            m_progress->setValue(1);
            Device device = *outcome->device;
            const bool fe = options.kind == ModelKind::FeatureEngineering;
            device.name = fe ? tr("Fit: feature engineering%1").arg(options.bootstrap ? tr(", %1 bagged").arg(options.bootstrap) : QString()).toStdString()
                             : tr("Fit: LASSO order %1%2").arg(options.order).arg(options.pca ? tr(", PCA") : QString()).toStdString();
            device.description = tr("Fitted in Roofline Studio's Brouwer view on %1 observations.").arg(rows).toStdString();
            device.source = "Roofline Studio, Brouwer view";
            if (device.fit && m_document->measured()) {
                for (const BrouwerMeasurements::File &f : m_document->measured()->files)
                    device.fit->measurements.push_back(f.path.section(QLatin1Char('/'), -1).toStdString());
            }
            const FitInfo info = device.fit.value_or(FitInfo{});
            m_status->setText(tr("Fitted in %1 s on %2 observations: MAPE %3 % (log space), %4 % (linear), R² %5 (log).")
                                  .arg(QString::number(*seconds, 'g', 3))
                                  .arg(info.rows)
                                  .arg(QString::number(info.mapeLog, 'g', 4), QString::number(info.mapeLinear, 'g', 4),
                                       QString::number(info.r2Log, 'g', 3)));
            m_document->setFittedDevice(device);
            fitted = true;
        }
        updateEnabled();
        emit finished(fitted);
    });
    updateEnabled();
    m_thread->start(QThread::LowPriority);
}

std::function<void(int, int)> BrouwerFitPanel::progressReporter()
{
    const QPointer<BrouwerFitPanel> self(this);
    return [self](int done, int total) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, done, total] {
                if (self && self->m_thread) {
                    self->m_progress->setRange(0, total);
                    self->m_progress->setValue(done);
                }
            },
            Qt::QueuedConnection);
    };
}

void BrouwerFitPanel::startCrossValidation()
{
    if (m_thread)
        return;
    Observations obs = m_document->observations();
    std::vector<std::string> networks;
    for (const Observation &o : obs.items) {
        if (std::find(networks.begin(), networks.end(), o.network) == networks.end())
            networks.push_back(o.network);
    }
    if (networks.size() < 2) {
        const QString why = m_document->measured()
            ? tr("Cross-validation leaves one network out: the measurements must match layers of two networks or more "
                 "(they match %1).").arg(networks.size())
            : tr("Open measurements first.");
        m_status->setText(why);
        emit message(why);
        emit crossValidated(false);
        return;
    }
    FitOptions options = this->options();
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    options.cancel = m_cancelFlag.get();
    options.progress = progressReporter();
    auto report = std::make_shared<CvReport>();
    auto seconds = std::make_shared<double>(0);
    const auto cancelFlag = m_cancelFlag;
    m_thread = QThread::create([report, seconds, cancelFlag, options, items = std::move(obs.items)] {
        QElapsedTimer timer;
        timer.start();
        *report = leaveOneNetworkOut(items, options);
        *seconds = double(timer.nsecsElapsed()) / 1e9;
    });
    m_progress->setRange(0, int(networks.size()));
    m_progress->setValue(0);
    m_status->setText(tr("Cross-validating: %1 folds, one per network…").arg(networks.size()));
    connect(m_thread, &QThread::finished, this, [this, report, seconds] {
        m_thread->deleteLater();
        m_thread = nullptr;
        const bool completed = !report->cancelled;
        if (completed) {
            m_cvReport = *report;
            showCvReport();
            m_status->setText(tr("Cross-validated in %1 s: pooled MAPE %2 % (log space), %3 % (linear) over %4 "
                                 "held-out observations.")
                                  .arg(QString::number(*seconds, 'g', 3), readableNumber(m_cvReport.pooled.mapeLog),
                                       readableNumber(m_cvReport.pooled.mapeLinear))
                                  .arg(m_cvReport.pooled.rows));
        } else {
            m_progress->setRange(0, 1);
            m_progress->setValue(0);
            m_status->setText(tr("Cross-validation cancelled; the table shows the last complete run."));
        }
        updateEnabled();
        emit crossValidated(completed);
    });
    updateEnabled();
    m_thread->start(QThread::LowPriority);
}

void BrouwerFitPanel::showCvReport()
{
    const CvReport &r = m_cvReport;
    m_cvTable->setRowCount(int(r.folds.size()) + 1);
    auto cell = [this](int row, int column, const QString &text, bool bold = false) {
        auto *item = new QTableWidgetItem(text);
        if (column > 0)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (bold) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        m_cvTable->setItem(row, column, item);
    };
    auto percent = [](double v) { return readableNumber(v) + QStringLiteral(" %"); };
    auto ms = [](double v) { return readableMs(v); };
    int row = 0;
    for (const CvFold &f : r.folds) {
        cell(row, 0, QString::fromStdString(f.heldOut));
        cell(row, 1, QString::number(f.metrics.rows));
        cell(row, 2, percent(f.metrics.mapeLog));
        cell(row, 3, percent(f.metrics.mapeLinear));
        cell(row, 4, ms(f.measuredMs) + QStringLiteral(" / ") + ms(f.predictedMs));
        ++row;
    }
    cell(row, 0, tr("pooled"), true);
    cell(row, 1, QString::number(r.pooled.rows), true);
    cell(row, 2, percent(r.pooled.mapeLog), true);
    cell(row, 3, percent(r.pooled.mapeLinear), true);
    cell(row, 4, QString(), true);
    m_cvTable->resizeRowsToContents();
    int height = m_cvTable->horizontalHeader()->height() + 4;
    for (int i = 0; i < m_cvTable->rowCount(); ++i)
        height += m_cvTable->rowHeight(i);
    m_cvTable->setFixedHeight(height);
    m_cvTable->show();
}

void BrouwerFitPanel::cancelFit()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    if (m_thread)
        m_status->setText(tr("Cancelling…"));
}

} // namespace studio
