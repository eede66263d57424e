#include "plotexport.h"

#include "plotstyle.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QFontInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

namespace studio {

bool formatFromSuffix(const QString &path, ExportFormat *format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg"))
        *format = ExportFormat::Svg;
    else if (suffix == QLatin1String("pdf"))
        *format = ExportFormat::Pdf;
    else if (suffix == QLatin1String("png"))
        *format = ExportFormat::Png;
    else
        return false;
    return true;
}

namespace {

// One SVG document from QSvgGenerator of the plot as it is set up now.
QByteArray renderSvgPass(QCustomPlot *plot, const ExportOptions &options)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(QSize(options.width, options.height));
    generator.setViewBox(QRect(0, 0, options.width, options.height));
    // The same font sizes as the PNG export: points are converted to pixels at
    // the resolution the plot is laid out with (QSvgGenerator assumes 72 dpi).
    generator.setResolution(QPixmap(1, 1).logicalDpiY()); // what toPixmap() and savePng() lay out with
    // QSvgGenerator writes both verbatim: a "<" or "&" in a model's name would break the XML.
    generator.setTitle(options.title.toHtmlEscaped());
    generator.setDescription(options.description.toHtmlEscaped());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return {};
    plot->toPainter(&painter, options.width, options.height);
    if (!painter.end())
        return {};
    return buffer.data();
}

// What a layerable is clipped to when the plot is drawn on screen: plottables
// to their axis rect, items to their clip axis rect; null for the rest (axes,
// legends, layout elements stay inside the viewport anyway).
QRect clipOf(QCPLayerable *layerable)
{
    if (auto *plottable = qobject_cast<QCPAbstractPlottable *>(layerable)) {
        if (plottable->keyAxis() && plottable->valueAxis())
            return plottable->keyAxis()->axisRect()->rect() & plottable->valueAxis()->axisRect()->rect();
    } else if (auto *item = qobject_cast<QCPAbstractItem *>(layerable)) {
        if (item->clipToAxisRect() && item->clipAxisRect())
            return item->clipAxisRect()->rect();
    }
    return {};
}

// The elements of a QSvgGenerator document: what lies between </defs> and </svg>.
QByteArray svgBody(const QByteArray &document)
{
    const int defs = document.indexOf("</defs>");
    const int end = document.lastIndexOf("</svg>");
    if (defs < 0 || end < defs)
        return {};
    return document.mid(defs + 7, end - defs - 7);
}

// font-family="Sans Serif" (Qt's name, no CSS family: browsers fall back to a
// serif font) becomes the concrete font Qt drew with, then the generic family.
QByteArray genericFontFamilies(QByteArray svg)
{
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    QString out;
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = family.globalMatch(text);
    QHash<QString, QString> replacements;
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const QString name = m.captured(1);
        QString &value = replacements[name];
        if (value.isEmpty()) {
            const QString concrete = QFontInfo(QFont(name)).family();
            value = QStringLiteral("font-family=\"'%1', sans-serif\"").arg(concrete.toHtmlEscaped());
        }
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += value;
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out.toUtf8();
}

} // namespace

QByteArray plotToSvg(QCustomPlot *plot, const ExportOptions &options)
{
    // QSvgGenerator (Qt 6.4) ignores the painter's clip, so curves drawn to
    // the plot's edge would run over the title and the axes in every SVG
    // renderer. Each layer is drawn on its own, split into runs of
    // consecutive layerables with the same clip rectangle, and each clipped
    // run is wrapped in a <g clip-path>: the same picture as the PNG, in the
    // same order, with the clipping written into the file.
    struct Run
    {
        QCPLayer *layer = nullptr;
        QList<QCPLayerable *> members;
        QRect clip;
    };
    QList<Run> runs;
    QHash<QCPLayer *, bool> layerVisible;
    QHash<QCPLayerable *, bool> visible;
    for (int i = 0; i < plot->layerCount(); ++i) {
        QCPLayer *layer = plot->layer(i);
        layerVisible[layer] = layer->visible();
        if (!layer->visible())
            continue;
        for (QCPLayerable *child : layer->children()) {
            visible[child] = child->visible();
            if (!child->visible())
                continue;
            const QRect clip = clipOf(child);
            if (runs.isEmpty() || runs.last().layer != layer || runs.last().clip != clip)
                runs.append({layer, {}, clip});
            runs.last().members.append(child);
        }
    }
    const QBrush background = plot->background();
    QByteArray head;
    QByteArray body;
    QByteArray defs;
    auto restore = [&] {
        for (auto it = layerVisible.cbegin(); it != layerVisible.cend(); ++it)
            it.key()->setVisible(it.value());
        for (auto it = visible.cbegin(); it != visible.cend(); ++it)
            it.key()->setVisible(it.value());
        plot->setBackground(background);
    };
    // The first pass draws the background (and nothing else when there are no runs).
    for (auto it = layerVisible.cbegin(); it != layerVisible.cend(); ++it)
        it.key()->setVisible(false);
    const QByteArray first = renderSvgPass(plot, options);
    const int defsEnd = first.indexOf("</defs>");
    if (defsEnd < 0) {
        restore();
        return {};
    }
    head = first.left(defsEnd);
    body = svgBody(first);
    plot->setBackground(Qt::NoBrush);
    int clipCount = 0;
    for (const Run &run : runs) {
        for (auto it = visible.cbegin(); it != visible.cend(); ++it)
            it.key()->setVisible(false);
        run.layer->setVisible(true);
        for (QCPLayerable *member : run.members)
            member->setVisible(true);
        const QByteArray pass = svgBody(renderSvgPass(plot, options));
        run.layer->setVisible(false);
        if (run.clip.isNull()) {
            body += pass;
            continue;
        }
        const QByteArray id = "plotclip" + QByteArray::number(clipCount++);
        defs += "<clipPath id=\"" + id + "\"><rect x=\"" + QByteArray::number(run.clip.x()) + "\" y=\""
            + QByteArray::number(run.clip.y()) + "\" width=\"" + QByteArray::number(run.clip.width())
            + "\" height=\"" + QByteArray::number(run.clip.height()) + "\"/></clipPath>\n";
        body += "<g clip-path=\"url(#" + id + ")\">" + pass + "</g>\n";
    }
    restore();
    // Pixel width and height, so every renderer draws it at the size the PNG has.
    static const QRegularExpression size(QStringLiteral("<svg width=\"[^\"]*\" height=\"[^\"]*\""));
    QString header = QString::fromUtf8(head);
    header.replace(size, QStringLiteral("<svg width=\"%1\" height=\"%2\"").arg(options.width).arg(options.height));
    return genericFontFamilies(header.toUtf8() + defs + "</defs>" + body + "</svg>\n");
}

bool exportPlot(QCustomPlot *plot, const QString &path, ExportFormat format, const ExportOptions &options,
                QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    if (options.width <= 0 || options.height <= 0 || options.width > 20000 || options.height > 20000)
        return fail(QStringLiteral("export size must be between 1 and 20000 pixels, got %1×%2")
                        .arg(options.width)
                        .arg(options.height));

    applyPlotTheme(plot); // exports are drawn in the chosen theme

    // Write to a temporary file and move it into place, so a failed export
    // never leaves a truncated file where a good one was.
    QSaveFile target(path);
    if (!target.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot open for writing: %1").arg(target.errorString()));

    bool ok = false;
    switch (format) {
    case ExportFormat::Svg: {
        const QByteArray svg = plotToSvg(plot, options);
        ok = !svg.isEmpty() && target.write(svg) == svg.size();
        break;
    }
    case ExportFormat::Pdf:
    case ExportFormat::Png: {
        // QCustomPlot writes to a file name; let it write the temporary file's sibling.
        target.cancelWriting();
        const QString tmp = path + QStringLiteral(".part");
        ok = format == ExportFormat::Pdf
            ? plot->savePdf(tmp, options.width, options.height, QCP::epNoCosmetic, QStringLiteral("Roofline Studio"),
                            options.title)
            : plot->savePng(tmp, options.width, options.height, options.pngScale);
        if (ok) {
            QFile::remove(path);
            ok = QFile::rename(tmp, path);
        } else {
            QFile::remove(tmp);
        }
        if (!ok)
            return fail(QStringLiteral("could not be written"));
        return true;
    }
    }
    if (!ok) {
        target.cancelWriting();
        return fail(QStringLiteral("rendering failed"));
    }
    if (!target.commit())
        return fail(QStringLiteral("could not be written: %1").arg(target.errorString()));
    return true;
}

} // namespace studio
