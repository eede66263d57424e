#include "networkfileimport.h"

#include "modelview.h"

#include "diagnosticstext.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <memory>

namespace studio {

using namespace roofline;
using namespace roofline::network;

namespace {

QString shapeText(const std::vector<std::int64_t> &dims)
{
    QStringList parts;
    for (std::int64_t d : dims)
        parts << QString::number(d);
    return parts.join(QLatin1Char('x'));
}

// The import itself, on the worker thread: read through Qt (resource paths
// too), then the importer of the file's kind.
NetworkLoad readAndImport(const QString &path, const ImportOptions &options)
{
    const std::string label = path.toStdString();
    std::string data;
    // The views' reader (modelview.h): the size limit (a 600 MB prototxt was read whole), a byte-order mark dropped.
    if (NetworkLoad out; !readTextFile(path, &data, out.diagnostics))
        return out;
    switch (networkFileKind(label)) {
    case NetworkFileKind::Onnx: return importOnnx(data, label, options);
    case NetworkFileKind::Caffe: return importCaffe(data, label, options);
    case NetworkFileKind::Json: break;
    }
    return parseNetwork(data, label);
}

bool g_importing = false; // one import at a time: the progress dialog is modal, a drop is not
InputShapes g_commandLineShapes; // setCommandLineImport()
bool g_mayAsk = true;

} // namespace

InputShapeDialog::InputShapeDialog(const QString &file, const std::vector<SymbolicInput> &inputs,
                                   const InputShapes &previous, QWidget *parent)
    : QDialog(parent)
    , m_inputs(inputs)
{
    setObjectName(QStringLiteral("InputShapeDialog"));
    setWindowTitle(tr("Input sizes"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("<b>%1</b> leaves the size of %2 open. Give every dimension, "
                                "batch first, e.g. 1x3x224x224. The answer is remembered for this file "
                                "in the session.")
                                 .arg(QFileInfo(file).fileName().toHtmlEscaped(),
                                      inputs.size() == 1 ? tr("its input") : tr("%1 inputs").arg(inputs.size())),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    for (const SymbolicInput &input : inputs) {
        QStringList asFile;
        QStringList guess;
        for (std::size_t i = 0; i < input.dims.size(); ++i) {
            const bool open = input.dims[i] < 0;
            const QString name = QString::fromStdString(input.dimNames[i]);
            asFile << (open ? name : QString::number(input.dims[i]));
            guess << (!open ? QString::number(input.dims[i]) : i == 0 ? QStringLiteral("1") : name);
        }
        auto *edit = new QLineEdit(this);
        const auto remembered = previous.find(input.name);
        edit->setText(remembered != previous.end() ? shapeText(remembered->second) : guess.join(QLatin1Char('x')));
        edit->setToolTip(tr("Dimensions separated by x, batch first; in the file: %1")
                             .arg(input.dims.empty() ? tr("no shape") : asFile.join(QStringLiteral(" × "))));
        auto *label = new QLabel(tr("%1 [%2]")
                                     .arg(QString::fromStdString(input.name),
                                          input.dims.empty() ? tr("no shape") : asFile.join(QStringLiteral(" × "))),
                                 this);
        form->addRow(label, edit);
        m_edits.push_back(edit);
        connect(edit, &QLineEdit::textChanged, this, &InputShapeDialog::check);
    }
    layout->addLayout(form);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color:#b00020"));
    layout->addWidget(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    setMinimumWidth(460);
    check();
}

void InputShapeDialog::check()
{
    QStringList problems;
    for (std::size_t i = 0; i < m_edits.size(); ++i) {
        const SymbolicInput &input = m_inputs[i];
        ImportOptions options;
        std::string error;
        const QString typed = m_edits[i]->text().trimmed();
        const std::string text = input.name + "=" + typed.toStdString();
        if (!parseInputShapeOption(text, options, error)) {
            // Name the dimension still to give ("height"), else the parser's reason.
            const QStringList parts = typed.split(QLatin1Char('x'));
            QString reason = QString::fromStdString(error);
            for (qsizetype d = 0; d < parts.size(); ++d) {
                bool ok = false;
                const qlonglong v = parts[d].toLongLong(&ok);
                if (!ok || v < 1 || v > 999999999) {
                    const QString named = std::size_t(d) < input.dimNames.size() && !input.dimNames[std::size_t(d)].empty()
                        ? QStringLiteral(" (%1)").arg(QString::fromStdString(input.dimNames[std::size_t(d)]))
                        : QString();
                    reason = tr("%1: dimension %2%3 must be a whole number from 1 to 999999999, got \"%4\"")
                                 .arg(QString::fromStdString(input.name))
                                 .arg(d)
                                 .arg(named, parts[d]);
                    break;
                }
            }
            problems << reason;
            continue;
        }
        const std::vector<std::int64_t> &dims = options.inputShapes.begin()->second;
        if (!input.dims.empty() && dims.size() != input.dims.size()) {
            problems << tr("%1: %2 dimensions given, the input has %3")
                            .arg(QString::fromStdString(input.name))
                            .arg(dims.size())
                            .arg(input.dims.size());
            continue;
        }
        for (std::size_t d = 0; d < input.dims.size(); ++d) {
            if (input.dims[d] >= 0 && dims[d] != input.dims[d])
                problems << tr("%1: dimension %2 is fixed at %3 by the file")
                                .arg(QString::fromStdString(input.name))
                                .arg(d)
                                .arg(input.dims[d]);
        }
    }
    m_problem->setText(problems.join(QLatin1Char('\n')));
    m_problem->setVisible(!problems.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problems.isEmpty());
}

InputShapes InputShapeDialog::shapes() const
{
    InputShapes shapes;
    for (std::size_t i = 0; i < m_edits.size(); ++i) {
        ImportOptions options;
        std::string error;
        if (parseInputShapeOption(m_inputs[i].name + "=" + m_edits[i]->text().trimmed().toStdString(), options, error))
            shapes.insert(*options.inputShapes.begin());
    }
    return shapes;
}

void setCommandLineImport(const InputShapes &inputShapes, bool mayAsk)
{
    g_commandLineShapes = inputShapes;
    g_mayAsk = mayAsk;
}

NetworkLoad importOnWorker(const QString &path, const ImportOptions &options, QWidget *progressParent)
{
    auto result = std::make_shared<NetworkLoad>();
    QThread *worker = QThread::create([result, path, options] { *result = readAndImport(path, options); });
    QEventLoop loop;
    QObject::connect(worker, &QThread::finished, &loop, &QEventLoop::quit);
    // A modal, busy progress dialog once the import has taken 300 ms: the
    // window paints and the user sees what is happening, but starts nothing else.
    QProgressDialog progress(QObject::tr("Importing %1…").arg(QFileInfo(path).fileName()), QString(), 0, 0, progressParent);
    progress.setWindowTitle(QObject::tr("Import"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setCancelButton(nullptr);
    progress.setMinimumDuration(300);
    progress.setValue(0);
    worker->start();
    if (!worker->isFinished())
        loop.exec();
    worker->wait();
    delete worker;
    return std::move(*result);
}

bool importNetworkFile(QWidget *parent, const QString &path, const InputShapes &remembered, Network *network,
                       InputShapes *used, QString *error, QStringList *warnings)
{
    if (g_importing) {
        if (error)
            *error = QObject::tr("%1: another network is being imported; open it when that is done").arg(path);
        return false;
    }
    g_importing = true;
    const std::shared_ptr<void> done(nullptr, [](void *) { g_importing = false; });

    ImportOptions options;
    options.inputShapes = remembered;
    for (const auto &[name, dims] : g_commandLineShapes)
        options.inputShapes[name] = dims; // --input-shape wins over what was remembered
    NetworkLoad loaded = importOnWorker(path, options, parent);
    if (!loaded.network && !options.inputShapes.empty() && g_mayAsk) {
        // The remembered sizes no longer fit (the file changed): ask afresh.
        const InputShapes previous = options.inputShapes;
        options.inputShapes.clear();
        NetworkLoad fresh = importOnWorker(path, options, parent);
        if (!fresh.symbolicInputs.empty()) {
            loaded = std::move(fresh);
            options.inputShapes = previous; // offered as the dialog's start
        }
    }
    if (!loaded.network && !loaded.symbolicInputs.empty() && g_mayAsk) {
        InputShapeDialog dialog(path, loaded.symbolicInputs, options.inputShapes, parent);
        if (dialog.exec() != QDialog::Accepted) {
            if (error)
                *error = QObject::tr("%1: not imported: the input sizes were not given").arg(path);
            return false;
        }
        options.inputShapes = dialog.shapes();
        loaded = importOnWorker(path, options, parent);
    }
    if (!loaded.network) {
        if (error)
            *error = errorsOf(loaded.diagnostics);
        return false;
    }
    appendWarnings(loaded.diagnostics, warnings);
    *network = std::move(*loaded.network);
    if (used)
        *used = options.inputShapes;
    return true;
}

} // namespace studio
