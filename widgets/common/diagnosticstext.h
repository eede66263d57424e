// Core Diagnostics as the text a view shows: the error of a failed load in a
// dialog, the warnings of a good one in the document's warning list.
#pragma once

#include "common/diagnostics.h"

#include <QString>
#include <QStringList>

namespace studio {

// Every message (errors and warnings), one per line, as the error of a failed load.
QString errorsOf(const roofline::Diagnostics &diagnostics);

// The errors only, one per line (the warnings of a failed load left out).
QString errorLinesOf(const roofline::Diagnostics &diagnostics);

// Appends each warning as one line; does nothing when `warnings` is null.
void appendWarnings(const roofline::Diagnostics &diagnostics, QStringList *warnings);

} // namespace studio
