// Opening a network file in any view (issue 10; the AMAIX and nn-Meter views).
// The importer (core/network/import.h) runs on a worker thread while the
// window keeps painting; after 300 ms a modal progress dialog says what is
// being read. A model with symbolic input sizes asks for them in an
// InputShapeDialog; the caller remembers the answer for that file (and in the
// session), so opening it again asks nothing. A refused file changes nothing;
// the error names the file, the node, its operator and the reason.
#pragma once

#include "network/import.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QWidget;

namespace studio {

using InputShapes = std::map<std::string, std::vector<std::int64_t>>;

// One row per input whose size the file leaves open: its name, the file's
// dimensions ("batch × 3 × height × width") and an editable "1x3x224x224".
// OK is enabled only while every row parses (parseInputShapeOption).
class InputShapeDialog : public QDialog
{
    Q_OBJECT
public:
    InputShapeDialog(const QString &file, const std::vector<roofline::network::SymbolicInput> &inputs,
                     const InputShapes &previous, QWidget *parent = nullptr);

    InputShapes shapes() const; // valid when accepted
    QLineEdit *edit(int input) const { return m_edits.at(input); }
    int inputCount() const { return int(m_edits.size()); }
    QLabel *problem() const { return m_problem; }

private:
    void check();

    std::vector<roofline::network::SymbolicInput> m_inputs;
    std::vector<QLineEdit *> m_edits;
    QLabel *m_problem = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

// Reads and imports `path` (our JSON, .onnx, .prototxt/.pbtxt; resource paths
// too) on a worker thread; returns when done, the event loop running meanwhile.
roofline::network::NetworkLoad importOnWorker(const QString &path, const roofline::network::ImportOptions &options,
                                              QWidget *progressParent);

// For files named on roofline-studio's command line: sizes given with
// --input-shape (used before the remembered ones) and whether the dialog may
// ask (not in headless export mode: there a missing size is an error naming
// --input-shape). Call again with {} and true once those files are open.
void setCommandLineImport(const InputShapes &inputShapes, bool mayAsk);

// Reads `path` (our JSON, ONNX, Caffe; resource paths too) on a worker thread,
// asking for symbolic input sizes (`remembered` first, --input-shape before
// them). On success `network` holds it, `used` the sizes given and `warnings`
// the import's warnings ("3 operators not modelled: …"). False with `error`
// set when the file is refused or the dialog is cancelled.
bool importNetworkFile(QWidget *parent, const QString &path, const InputShapes &remembered,
                       roofline::network::Network *network, InputShapes *used, QString *error, QStringList *warnings);

} // namespace studio
