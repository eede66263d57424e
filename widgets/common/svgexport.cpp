#include "svgexport.h"

#include "plotstyle.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFontInfo>
#include <QHash>
#include <QPixmap>
#include <QRegularExpression>
#include <QSvgGenerator>

namespace studio {

namespace {

// QCustomPlot keeps the steps of drawing protected; a pointer to a protected
// member formed in a derived class may be called on any object of the base.
// These give plotToSvg() the loop QCustomPlot::toPainter() runs, one
// layerable at a time, so it can record each one's clip.
struct PlotSteps : QCustomPlot
{
    static void layOut(QCustomPlot *plot)
    {
        const auto step = &PlotSteps::updateLayout;
        (plot->*step)();
    }
    static void background(QCustomPlot *plot, QCPPainter *painter)
    {
        const auto step = &PlotSteps::drawBackground;
        (plot->*step)(painter);
    }
};

struct LayerableSteps : QCPLayerable
{
    static QRect clip(const QCPLayerable *layerable)
    {
        const auto step = &LayerableSteps::clipRect;
        return (layerable->*step)();
    }
    static void applyHint(const QCPLayerable *layerable, QCPPainter *painter)
    {
        const auto step = &LayerableSteps::applyDefaultAntialiasingHint;
        (layerable->*step)(painter);
    }
    static void paint(QCPLayerable *layerable, QCPPainter *painter)
    {
        const auto step = &LayerableSteps::draw;
        (layerable->*step)(painter);
    }
};

// Drawn before each layerable: "the elements up to the next marker belong to
// clip N (N indexes the clip list; "-" for none), drawn with antialiasing or
// not (a/p)". QSvgGenerator writes it as a <text> element, which plotToSvg()
// replaces by the grouping.
const QString kMarker = QStringLiteral("@@roofline-clip:%1:%2@@");

// font-family="Sans Serif" (Qt's alias, no CSS family: browsers fall back to a
// serif font) becomes the concrete font Qt drew with, then the generic family.
QString withGenericFamilies(const QString &svg)
{
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QHash<QString, QString> replacements;
    QString out;
    out.reserve(svg.size() + svg.size() / 8);
    qsizetype last = 0;
    for (QRegularExpressionMatchIterator it = family.globalMatch(svg); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString &value = replacements[m.captured(1)];
        if (value.isEmpty()) {
            const QString concrete = QFontInfo(QFont(m.captured(1))).family();
            value = QStringLiteral("font-family=\"'%1', sans-serif\"").arg(concrete.toHtmlEscaped());
        }
        out += QStringView(svg).mid(last, m.capturedStart() - last);
        out += value;
        last = m.capturedEnd();
    }
    out += QStringView(svg).mid(last);
    return out;
}

} // namespace

QByteArray plotToSvg(QCustomPlot *plot, const ExportOptions &options)
{
    const QRect viewport(0, 0, options.width, options.height);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(viewport.size());
    generator.setViewBox(viewport);
    // Fonts at the PNG export's pixel sizes: QSvgGenerator converts points at
    // its resolution (72 dpi unless told), the PNG export at the screen's.
    generator.setResolution(QPixmap(1, 1).logicalDpiY());
    // QSvgGenerator writes both verbatim: a "<" or "&" in a model's name would break the XML.
    generator.setTitle(options.title.toHtmlEscaped());
    generator.setDescription(options.description.toHtmlEscaped());

    QList<QRect> clips;
    QCPPainter painter;
    if (!painter.begin(&generator))
        return {};
    painter.setMode(QCPPainter::pmNoCaching); // as toPainter(): labels as text, never cached pixmaps
    const QRect oldViewport = plot->viewport();
    plot->setViewport(viewport);
    PlotSteps::layOut(plot);
    if (const QBrush background = plotBackgroundBrush(plot); background.style() != Qt::NoBrush)
        painter.fillRect(viewport, background);
    PlotSteps::background(plot, &painter);
    for (int i = 0; i < plot->layerCount(); ++i) {
        for (QCPLayerable *child : plot->layer(i)->children()) {
            if (!child->realVisibility())
                continue;
            // What QCPLayer::draw() clips to; the whole picture needs no clip.
            const QRect clip = LayerableSteps::clip(child).translated(0, -1) & viewport;
            const bool clipped = clip != viewport;
            if (clipped && !clips.contains(clip))
                clips.append(clip);
            painter.save();
            LayerableSteps::applyHint(child, &painter);
            const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);
            painter.setPen(Qt::black); // QPainter skips text drawn with no pen; black is also the default pen
            painter.drawText(QPointF(0, 0), kMarker.arg(clipped ? QString::number(clips.indexOf(clip)) : QStringLiteral("-"),
                                                       antialiased ? QStringLiteral("a") : QStringLiteral("p")));
            painter.setClipRect(clip);
            LayerableSteps::paint(child, &painter);
            painter.restore();
        }
    }
    plot->setViewport(oldViewport);
    PlotSteps::layOut(plot); // the window's layout again (hover and clicks use it)
    if (!painter.end())
        return {};

    // QSvgGenerator's body is one outer <g> holding a flat run of state groups
    // (<g style>…</g>). A marker sits inside a state group; it becomes: close
    // that group, close the previous clip wrapper, open this layerable's
    // wrapper (<g clip-path> or plain), and open an empty group that the state
    // group's own </g> closes. Wrappers so sit beside the state groups, in the
    // untransformed pixel space the clip rectangles are in.
    QString svg = QString::fromUtf8(buffer.data());
    static const QRegularExpression marker(
        QStringLiteral("<text[^>]*>@@roofline-clip:(-|\\d+):([ap])@@</text>\\n?"));
    QString body;
    body.reserve(svg.size() + svg.size() / 4);
    qsizetype last = 0;
    bool wrapperOpen = false;
    for (QRegularExpressionMatchIterator it = marker.globalMatch(svg); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        body += QStringView(svg).mid(last, m.capturedStart() - last);
        body += QStringLiteral("</g>");
        if (wrapperOpen)
            body += QStringLiteral("</g>");
        // What QPainter drew without antialiasing (QCustomPlot's default for
        // many plottables) is drawn with crisp edges, as in the PNG.
        body += QStringLiteral("<g");
        if (m.captured(1) != QLatin1String("-"))
            body += QStringLiteral(" clip-path=\"url(#plotclip%1)\"").arg(m.captured(1));
        if (m.captured(2) == QLatin1String("p"))
            body += QStringLiteral(" shape-rendering=\"crispEdges\"");
        body += QLatin1Char('>');
        body += QStringLiteral("<g>");
        wrapperOpen = true;
        last = m.capturedEnd();
    }
    body += QStringView(svg).mid(last);
    if (wrapperOpen) {
        // Close the last wrapper inside the outer group: before its </g>, the last one of the document.
        const qsizetype outerClose = body.lastIndexOf(QLatin1String("</g>"));
        if (outerClose < 0)
            return {};
        body.insert(outerClose, QStringLiteral("</g>"));
    }

    QString defs;
    for (qsizetype i = 0; i < clips.size(); ++i) {
        const QRect &c = clips[i];
        defs += QStringLiteral("<clipPath id=\"plotclip%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath>\n")
                    .arg(i)
                    .arg(c.x())
                    .arg(c.y())
                    .arg(c.width())
                    .arg(c.height());
    }
    const qsizetype defsEnd = body.indexOf(QLatin1String("</defs>"));
    if (defsEnd < 0)
        return {};
    body.insert(defsEnd, defs);
    // Pixel width and height (QSvgGenerator writes millimetres at its
    // resolution), so every renderer draws it at the size the PNG has.
    static const QRegularExpression size(QStringLiteral("<svg width=\"[^\"]*\" height=\"[^\"]*\""));
    body.replace(size, QStringLiteral("<svg width=\"%1\" height=\"%2\"").arg(options.width).arg(options.height));
    return withGenericFamilies(body).toUtf8();
}

} // namespace studio
