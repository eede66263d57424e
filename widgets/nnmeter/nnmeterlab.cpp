#include "nnmeterlab.h"

#include "plotstyle.h"
#include "units.h"

#include "nnmeter/lab/kernelnets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDate>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QThread>
#include <QTime>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>

namespace studio {

using namespace roofline;
using namespace roofline::nnmeter;

namespace {

const QString kDefaultBudget = QStringLiteral("10m");

QString errorStyle()
{
    return QStringLiteral("color:%1").arg(plotThemeDark() ? QStringLiteral("#ff7b7b") : QStringLiteral("#b00020"));
}

QString seconds(double s)
{
    return s < 90 ? QObject::tr("%1 s").arg(formatValue(s, 3)) : QObject::tr("%1 min").arg(formatValue(s / 60, 3));
}

QString signedPercent(double p)
{
    return QStringLiteral("%1%2 %").arg(p >= 0 ? QStringLiteral("+") : QString(), formatValue(p, 3));
}

} // namespace

// What the worker leaves for the GUI thread (read only after the thread ended).
struct NnmeterLabPanel::Outcome
{
    lab::LabResult result;
    QString folder;       // the run's folder (written only when it succeeded)
    QString deviceFile;   // in it
    QString measuredFile; // in it, "" when no network was run
    QString error;
    bool cancelled = false;
    bool written = false;
    bool quick = false;
};

NnmeterLabPanel::NnmeterLabPanel(QWidget *parent)
    : QWidget(parent)
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    m_outputFolder = (data.isEmpty() ? QDir::homePath() + QStringLiteral("/.local/share/roofline-studio") : data)
        + QStringLiteral("/kernel-lab");

    // Settings on the left.
    auto *settings = new QGroupBox(tr("Build predictors for this machine's CPU (oneDNN)"), this);
    auto *form = new QFormLayout(settings);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *kinds = new QWidget(settings);
    auto *grid = new QGridLayout(kinds);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(1);
    int i = 0;
    for (const std::string &kind : lab::sampleKinds()) {
        auto *box = new QCheckBox(QString::fromStdString(kind), kinds);
        box->setChecked(true);
        const QString what = kind == "act" ? tr("activation (sampled as GELU)")
                             : kind == "matmul" ? tr("attention matmul (Q·Kᵀ and P·V)")
                                                : QString::fromStdString(kind);
        box->setToolTip(tr("Sample %1 kernels and train a random forest for them").arg(what));
        grid->addWidget(box, i / 4, i % 4);
        m_kinds[kind] = box;
        ++i;
    }
    form->addRow(tr("Kernels"), kinds);

    auto *budgetRow = new QWidget(settings);
    auto *budgetLayout = new QHBoxLayout(budgetRow);
    budgetLayout->setContentsMargins(0, 0, 0, 0);
    m_budget = new QComboBox(budgetRow);
    m_budget->setEditable(true);
    m_budget->addItems({QStringLiteral("20s"), QStringLiteral("1m"), QStringLiteral("5m"), kDefaultBudget, QStringLiteral("30m"),
                        QStringLiteral("1h")});
    m_budget->setCurrentText(kDefaultBudget);
    m_budget->setToolTip(tr("Time for the whole run, as 90s, 10m or 1h (roofline-cli kernel-lab --budget): a quarter "
                            "at most for the fusion test, ~15 % for the networks, the rest for the kernel kinds"));
    m_budget->setMinimumContentsLength(5);
    m_quick = new QCheckBox(tr("Quick (tiny kernels, seconds)"), budgetRow);
    m_quick->setToolTip(tr("8×8 tensors, 4 operators in the fusion test, 3 repetitions, one sampling round and small "
                           "forests: the whole pipeline in a few seconds whatever the budget, to see it work; its "
                           "predictors are not for real use"));
    budgetLayout->addWidget(m_budget);
    budgetLayout->addWidget(m_quick, 1);
    form->addRow(tr("Budget"), budgetRow);

    auto *networks = new QWidget(settings);
    auto *networksLayout = new QHBoxLayout(networks);
    networksLayout->setContentsMargins(0, 0, 0, 0);
    m_currentNetwork = new QRadioButton(tr("the current network"), networks);
    m_allNetworks = new QRadioButton(tr("every network opened"), networks);
    m_currentNetwork->setChecked(true);
    m_currentNetwork->setToolTip(tr("Run the network shown, kernel by kernel, and compare it with its prediction"));
    m_allNetworks->setToolTip(tr("Run every network opened in this session (the selector's), each compared with its prediction"));
    networksLayout->addWidget(m_currentNetwork);
    networksLayout->addWidget(m_allNetworks);
    networksLayout->addStretch(1);
    form->addRow(tr("End to end"), networks);

    m_threads = new QSpinBox(settings);
    m_threads->setRange(1, std::max(1, QThread::idealThreadCount()));
    m_threads->setValue(1);
    m_threads->setSuffix(tr(" thread(s)"));
    m_threads->setToolTip(tr("oneDNN threads: the predictors are for this many; 1 is steadiest on a shared machine"));
    form->addRow(tr("oneDNN"), m_threads);

    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    // Progress and results on the right.
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_progress = new QProgressBar(right);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%p % of the budget"));
    auto *buttons = new QWidget(right);
    auto *buttonLayout = new QHBoxLayout(buttons);
    buttonLayout->setContentsMargins(0, 0, 0, 0);
    m_run = new QPushButton(tr("Run the kernel lab"), buttons);
    m_run->setToolTip(tr("Measure on a worker thread; the finished run's device opens here as one undoable step"));
    m_cancel = new QPushButton(tr("Cancel"), buttons);
    m_cancel->setToolTip(tr("Stop the run: nothing is written and the predictors in use stay as they are"));
    m_cancel->setEnabled(false);
    m_save = new QPushButton(tr("Save predictors…"), buttons);
    m_save->setToolTip(tr("Write the last run's rules, device, forests and measurements into a folder (each file atomically)"));
    m_save->setEnabled(false);
    buttonLayout->addWidget(m_run);
    buttonLayout->addWidget(m_cancel);
    buttonLayout->addWidget(m_save);
    buttonLayout->addStretch(1);
    m_status = new QLabel(tr("Not run yet. The lab times kernels with oneDNN, finds the fusion rules by seed eq. 1, "
                             "samples kernel configurations adaptively and trains a random forest per kernel kind."),
                          right);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_resultText = new QLabel(right);
    m_resultText->setWordWrap(true);
    m_resultText->setTextFormat(Qt::RichText);
    m_resultText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_resultText->hide();
    m_table = new QTableWidget(0, 6, right);
    m_table->setHorizontalHeaderLabels({tr("Kernel kind"), tr("Training samples"), tr("Held-out within ±10 %"),
                                        tr("Forest RMSE"), tr("Roofline RMSE"), tr("Used")});
    m_table->setToolTip(tr("Each kind's forest on samples it was not trained on, beside the roofline calibrated on this "
                           "machine; a forest is used only where it is the better of the two"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_log = new QPlainTextEdit(right);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("What the lab measured, line by line"));
    m_log->setToolTip(tr("The lab's progress: every operator pair, sampling round and network"));
    auto *results = new QSplitter(Qt::Horizontal, right);
    results->addWidget(m_table);
    results->addWidget(m_log);
    results->setChildrenCollapsible(false);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    rightLayout->addWidget(buttons);
    rightLayout->addWidget(m_progress);
    rightLayout->addWidget(m_error);
    rightLayout->addWidget(m_status);
    rightLayout->addWidget(m_resultText);
    rightLayout->addWidget(results, 1);

    auto *inner = new QWidget(this);
    auto *innerLayout = new QHBoxLayout(inner);
    innerLayout->setContentsMargins(4, 4, 4, 4);
    innerLayout->addWidget(settings, 0);
    innerLayout->addWidget(right, 1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(inner);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the texts wrap instead
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    connect(m_run, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancel, &QPushButton::clicked, this, &NnmeterLabPanel::cancel);
    connect(m_save, &QPushButton::clicked, this, &NnmeterLabPanel::saveDialog);
}

NnmeterLabPanel::~NnmeterLabPanel()
{
    if (m_thread) {
        m_cancelFlag.store(true);
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
        if (m_outcome && m_outcome->written)
            QDir(m_outcome->folder).removeRecursively(); // a run the view never opened
    }
}

QCheckBox *NnmeterLabPanel::kindBox(const std::string &kind) const
{
    const auto it = m_kinds.find(kind);
    return it == m_kinds.end() ? nullptr : it->second;
}

std::optional<lab::LabOptions> NnmeterLabPanel::options(QString *error) const
{
    lab::LabOptions o;
    o.kinds.clear();
    for (const std::string &kind : lab::sampleKinds())
        if (m_kinds.at(kind)->isChecked())
            o.kinds.push_back(kind);
    if (o.kinds.empty()) {
        if (error)
            *error = tr("Kernels: choose at least one kernel kind to train.");
        return std::nullopt;
    }
    const QString budget = m_budget->currentText().trimmed();
    const auto seconds = lab::parseDuration(budget.toStdString());
    if (!seconds) {
        if (error)
            *error = tr("Budget: \"%1\" is not a duration; write it as 90s, 10m or 1h (up to a week).").arg(budget);
        return std::nullopt;
    }
    o.budgetSeconds = *seconds;
    o.quick = m_quick->isChecked();
    o.threads = m_threads->value();
    if (m_networks)
        o.networks = m_networks(m_allNetworks->isChecked());
    o.machine = lab::cpuModelName();
    o.date = QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate).toStdString();
    return o;
}

bool NnmeterLabPanel::start()
{
    if (m_thread)
        return false;
    QString error;
    const std::optional<lab::LabOptions> opts = options(&error);
    if (!opts) {
        showError(error);
        return false;
    }
    // A folder of its own per run, so a run never writes over the files of one in use.
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString folder = QDir(m_outputFolder).filePath(QStringLiteral("run-") + stamp);
    for (int n = 2; QFileInfo::exists(folder); ++n)
        folder = QDir(m_outputFolder).filePath(QStringLiteral("run-%1-%2").arg(stamp).arg(n));

    showError(QString());
    m_log->clear();
    m_progress->setValue(0);
    m_progress->setFormat(tr("%p % of the budget"));
    m_status->setText(tr("Starting: %1 kernel kind(s), budget %2%3, %4 network(s) end to end…")
                          .arg(opts->kinds.size())
                          .arg(seconds(opts->budgetSeconds), opts->quick ? tr(" (quick)") : QString())
                          .arg(opts->networks.size()));
    m_cancelFlag.store(false);
    m_cancelLatencyMs = -1;
    auto outcome = std::make_shared<Outcome>();
    outcome->folder = folder;
    outcome->quick = opts->quick;
    m_outcome = outcome;
    NnmeterLabPanel *self = this;
    std::atomic<bool> *cancelFlag = &m_cancelFlag;
    m_thread = QThread::create([outcome, options = *opts, self, cancelFlag] {
        lab::LabControl control;
        control.cancel = cancelFlag;
        // Progress crosses to the GUI thread as queued calls; the panel outlives the
        // worker (its destructor waits), so `self` is valid whenever one is posted.
        control.progress = [self](const lab::LabProgress &p) {
            QMetaObject::invokeMethod(self, [self, p] { self->onProgress(p); }, Qt::QueuedConnection);
        };
        try {
            outcome->result = lab::runKernelLab(options, control);
            if (outcome->result.cancelled || cancelFlag->load()) {
                outcome->cancelled = true;
                return;
            }
            const std::string error = lab::writeLabFiles(outcome->result, outcome->folder.toStdString());
            if (!error.empty()) {
                QDir(outcome->folder).removeRecursively();
                outcome->error = QObject::tr("The run's files could not be written, so the predictors in use stay: %1")
                                     .arg(QString::fromStdString(error));
                return;
            }
            outcome->written = true;
            outcome->deviceFile = QDir(outcome->folder).filePath(QStringLiteral("onednn_cpu.device.json"));
            if (!lab::measuredLatencies(outcome->result).empty())
                outcome->measuredFile = QDir(outcome->folder).filePath(QStringLiteral("onednn_cpu/measured.csv"));
        } catch (const std::exception &e) {
            outcome->error = QObject::tr("The kernel lab stopped with an error, so the predictors in use stay: %1")
                                 .arg(QString::fromLocal8Bit(e.what()));
        }
    });
    m_thread->setObjectName(QStringLiteral("kernel lab"));
    connect(m_thread, &QThread::finished, this, &NnmeterLabPanel::onFinished);
    setRunning(true);
    m_runClock.start();
    m_thread->start();
    emit runStarted();
    return true;
}

void NnmeterLabPanel::cancel()
{
    if (!m_thread || m_cancelFlag.load())
        return;
    m_cancelClock.start();
    m_cancelFlag.store(true);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling…"));
}

void NnmeterLabPanel::onProgress(const lab::LabProgress &p)
{
    if (!m_thread || m_cancelFlag.load())
        return; // late reports of a cancelled run
    m_progress->setValue(int(std::lround(1000 * std::clamp(p.fraction, 0.0, 1.0))));
    const QString line = QStringLiteral("%1: %2").arg(QString::fromStdString(p.stage), QString::fromStdString(p.message));
    m_status->setText(line);
    m_log->appendPlainText(line);
}

void NnmeterLabPanel::onFinished()
{
    if (!m_thread)
        return;
    m_thread->wait();
    m_thread->deleteLater();
    m_thread = nullptr;
    const std::shared_ptr<Outcome> outcome = std::move(m_outcome);
    const double elapsed = double(m_runClock.elapsed()) / 1000;
    setRunning(false);
    if (outcome->cancelled || m_cancelFlag.load()) {
        if (outcome->written)
            QDir(outcome->folder).removeRecursively(); // cancelled while the files were written
        m_cancelLatencyMs = m_cancelClock.isValid() ? double(m_cancelClock.nsecsElapsed()) / 1e6 : -1;
        m_progress->setValue(0);
        m_status->setText(tr("Cancelled after %1 (stopped %2 ms after Cancel): nothing was written and the predictors "
                             "in use are as they were.")
                              .arg(seconds(elapsed))
                              .arg(std::lround(m_cancelLatencyMs)));
        emit runEnded(false);
        return;
    }
    if (!outcome->error.isEmpty()) {
        m_progress->setValue(0);
        m_status->setText(tr("The run failed after %1.").arg(seconds(elapsed)));
        showError(outcome->error);
        emit runEnded(false);
        return;
    }
    m_result = std::make_unique<lab::LabResult>(std::move(outcome->result));
    m_lastFolder = outcome->folder;
    m_progress->setValue(1000);
    m_progress->setFormat(tr("done in %1").arg(seconds(m_result->seconds)));
    m_status->setText(tr("Finished in %1; written to %2").arg(seconds(m_result->seconds), QDir::toNativeSeparators(m_lastFolder)));
    for (const std::string &w : m_result->warnings)
        m_log->appendPlainText(tr("warning: %1").arg(QString::fromStdString(w)));
    showAccuracy();
    m_save->setEnabled(true);
    const QString label = tr("this machine, lab %1%2")
                              .arg(QTime::currentTime().toString(QStringLiteral("HH:mm")), outcome->quick ? tr(" (quick)") : QString());
    emit resultReady(outcome->deviceFile, outcome->measuredFile, label);
    emit runEnded(true);
}

void NnmeterLabPanel::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_save->setEnabled(!running && m_result);
    for (auto &[kind, box] : m_kinds)
        box->setEnabled(!running);
    for (QWidget *w : std::initializer_list<QWidget *>{m_budget, m_quick, m_currentNetwork, m_allNetworks, m_threads})
        w->setEnabled(!running);
}

void NnmeterLabPanel::showAccuracy()
{
    const lab::LabResult &r = *m_result;
    m_table->setRowCount(int(r.predictors.size()));
    int row = 0;
    for (const auto &[kind, k] : r.predictors) {
        const QStringList cells{QString::fromStdString(kind), QString::number(k.forest.samples),
                                tr("%1 % of %2").arg(formatValue(100 * k.holdout.within10, 3)).arg(k.holdout.count),
                                tr("%1 %").arg(formatValue(k.holdout.rmsePercent, 3)),
                                tr("%1 %").arg(formatValue(k.analyticalHoldout.rmsePercent, 3)),
                                k.kept ? tr("forest") : tr("roofline")};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c > 0 && c < 5)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c, item);
        }
        ++row;
    }
    int fused = 0;
    for (const auto &p : r.pairs)
        fused += p.fuses;
    QString text = tr("<b>This machine</b>: peak %1, bandwidth %2, %3 per primitive; %4 of %5 operator pairs fuse "
                      "(seed eq. 1 on up to 3 shapes each, by majority); timing noise (IQR / median) %6 % typical.")
                       .arg(formatQuantity(r.device.peakGflops * 1e9, QStringLiteral("FLOP/s")),
                            formatQuantity(r.device.bandwidthGBps * 1e9, QStringLiteral("B/s")),
                            formatQuantity(r.device.kernelOverheadUs * 1e-6, QStringLiteral("s")))
                       .arg(fused)
                       .arg(r.pairs.size())
                       .arg(formatValue(100 * r.medianRelativeIqr, 2));
    m_log->appendPlainText(tr("noise: IQR / median %1 % (median over every timing), %2 % (worst: the shortest kernels)")
                               .arg(formatValue(100 * r.medianRelativeIqr, 3), formatValue(100 * r.maxRelativeIqr, 3)));
    if (!r.networks.empty()) {
        int within = 0;
        QStringList each;
        for (const lab::NetworkResult &n : r.networks) {
            within += withinTenPercent(n.predictedMs, n.measuredMs);
            each << tr("%1 %2").arg(QString::fromStdString(n.name).toHtmlEscaped(), signedPercent(n.errorPercent()));
        }
        text += QStringLiteral("<br>") + tr("<b>End to end: %1 of %2 network(s) within ±10 %</b> (%3); the "
                                             "<i>Predicted vs measured</i> tab compares them.")
                                             .arg(within)
                                             .arg(r.networks.size())
                                             .arg(each.join(QStringLiteral(", ")));
    }
    if (!r.warnings.empty())
        text += QStringLiteral("<br><span style='color:gray'>%1</span>").arg(tr("%n warning(s), in the log.", nullptr, int(r.warnings.size())));
    m_resultText->setText(text);
    m_resultText->show();
}

void NnmeterLabPanel::showError(const QString &text)
{
    m_error->setStyleSheet(errorStyle());
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

void NnmeterLabPanel::setResultText(const QString &text)
{
    if (text.isEmpty())
        return;
    m_resultText->setText(m_resultText->text() + QStringLiteral("<br>") + text);
    m_resultText->show();
}

bool NnmeterLabPanel::savePredictors(const QString &folder, QString *error) const
{
    if (!m_result) {
        if (error)
            *error = tr("No kernel lab run to save yet.");
        return false;
    }
    const std::string e = lab::writeLabFiles(*m_result, folder.toStdString());
    if (!e.empty()) {
        if (error)
            *error = QString::fromStdString(e);
        return false;
    }
    return true;
}

void NnmeterLabPanel::saveDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Save the kernel lab's predictors into"));
    if (folder.isEmpty())
        return;
    QString error;
    if (!savePredictors(folder, &error))
        showError(error);
    else {
        showError(QString());
        m_status->setText(tr("Saved: %1").arg(QDir::toNativeSeparators(QDir(folder).filePath(QStringLiteral("onednn_cpu.device.json")))));
    }
}

} // namespace studio
