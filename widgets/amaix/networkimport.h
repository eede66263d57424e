// Opening an ONNX model or a Caffe prototxt in the AMAIX view (issue 10),
// through the import every view shares (widgets/common/networkfileimport.h);
// the input sizes given are remembered by the document for that file (and in
// the session), so opening it again asks nothing.
#pragma once

#include "networkfileimport.h"

namespace studio {

class AmaixDocument;

// Imports `path` into `document` as one undoable step, asking for symbolic
// input sizes (the remembered ones first). False with `error` set when the file
// is refused or the dialog is cancelled; the document is then unchanged.
// `warnings` receives the import's warnings ("3 operators not modelled: …").
bool importNetwork(QWidget *parent, AmaixDocument *document, const QString &path, QString *error, QStringList *warnings);

} // namespace studio
