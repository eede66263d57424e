#include "diagnosticstext.h"

namespace studio {

using roofline::Diagnostic;

QString errorsOf(const roofline::Diagnostics &diagnostics)
{
    return QString::fromStdString(diagnostics.toString()).trimmed();
}

QString errorLinesOf(const roofline::Diagnostics &diagnostics)
{
    QStringList lines;
    for (const Diagnostic &d : diagnostics.errors())
        lines << QString::fromStdString(d.toString());
    return lines.join(QLatin1Char('\n'));
}

void appendWarnings(const roofline::Diagnostics &diagnostics, QStringList *warnings)
{
    if (!warnings)
        return;
    for (const Diagnostic &d : diagnostics.warnings())
        warnings->append(QString::fromStdString(d.toString()));
}

} // namespace studio
