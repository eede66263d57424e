// roofline-studio: the desktop application, and its headless export path.
//
//   roofline-studio [FILE.json] [--set POINTER=VALUE]...
//   roofline-studio FILE.json --export-svg out.svg [--export-png out.png] [--export-pdf out.pdf] [--size 1000x700]
//   roofline-studio FILE.json --screenshot window.png
//   roofline-studio MODEL.onnx [--input-shape NAME=1x3x640x640]... (symbolic input sizes; else the studio asks)
//   roofline-studio --view brouwer NET.prototxt --screenshot brouwer.png   (the starting view; networks open in it)
//   roofline-studio FILE.json... --export-bundle review/   (plots, CSVs, inputs and index.html)
//   roofline-studio TRACE.json [MACHINE.json] --export-chrome-trace out.json   (the Verrocchio timeline's events)
//
// Exports and screenshots work without a display (the offscreen platform is
// chosen automatically when no display is available).
#include "common/allocator.h"
#include "common/diagnostics.h"
#include "mainwindow.h"
#include "modelview.h"
#include "networkimport.h"
#include "plotexport.h"
#include "preferences.h"
#include "resources.h"
#include "roofline_version.h"
#include "timelineview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScreen>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace {

bool wantsHeadless(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--export-", 9) == 0 || std::strncmp(argv[i], "--screenshot", 12) == 0
            || std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0
            || std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0)
            return true;
    }
    return false;
}

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

void fail(const QString &message)
{
    std::fprintf(stderr, "roofline-studio: %s\n", qPrintable(message));
}

} // namespace

int main(int argc, char **argv)
{
    roofline::keepFreedMemory();
    roofline::shareOneHeap(); // the timeline's huge-page reservation covers its worker's results too
    const bool headless = wantsHeadless(argc, argv);
    if (!hasDisplay()) {
        if (!headless) {
            std::fprintf(stderr,
                         "roofline-studio: no display found (DISPLAY and WAYLAND_DISPLAY are not set).\n"
                         "Run it in a desktop session, or under a virtual X server:\n"
                         "    xvfb-run -a roofline-studio [FILE.json]\n"
                         "or headless, exporting the plot or a screenshot of the window:\n"
                         "    roofline-studio FILE.json --export-svg plot.svg\n"
                         "    roofline-studio FILE.json --screenshot window.png\n");
            return 1;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("roofline-studio"));
    QApplication::setOrganizationName(QStringLiteral("RooflineStudio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Roofline Studio"));
    QApplication::setApplicationVersion(QStringLiteral(ROOFLINE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.rooflinestudio.RooflineStudio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Interactive analytical performance models of SoCs and DNN accelerators."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Model files to open, each in the view of its format (default: the %1 "
                                                "example). Exports show the view of the last file.")
                                     .arg(QFileInfo(studio::resources::defaultExample()).fileName()),
                                 QStringLiteral("[files...]"));
    const QCommandLineOption exportSvg(QStringLiteral("export-svg"), QStringLiteral("Write the plot as SVG and exit."),
                                       QStringLiteral("out.svg"));
    const QCommandLineOption exportPng(QStringLiteral("export-png"), QStringLiteral("Write the plot as PNG and exit."),
                                       QStringLiteral("out.png"));
    const QCommandLineOption exportPdf(QStringLiteral("export-pdf"), QStringLiteral("Write the plot as PDF and exit."),
                                       QStringLiteral("out.pdf"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the whole window to a PNG and exit."),
                                        QStringLiteral("window.png"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Export or window size (default 1000x700)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption set(QStringLiteral("set"),
                                 QStringLiteral("Override a parameter, e.g. /soc/bpeak_gbps=30 (as roofline-cli)."),
                                 QStringLiteral("POINTER=VALUE"));
    const QCommandLineOption exportChrome(QStringLiteral("export-chrome-trace"),
                                          QStringLiteral("Write the Verrocchio timeline as Chrome Trace JSON and exit."),
                                          QStringLiteral("out.json"));
    const QCommandLineOption recover(QStringLiteral("recover"),
                                     QStringLiteral("Restore the autosaved session of a run that did not close "
                                                    "cleanly, without asking."));
    parser.addOptions({exportSvg, exportPng, exportPdf, screenshot, size, set, recover});
    parser.addOption(exportChrome);
    const QCommandLineOption exportBundle(QStringLiteral("export-bundle"),
                                          QStringLiteral("Write a review bundle (every view's plots as SVG and PNG, "
                                                         "their data as CSV, inputs, index.html) and exit."),
                                          QStringLiteral("folder"));
    parser.addOption(exportBundle);
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("light, dark or system: the window's and the plots' colours for this "
                                                  "run, exports and screenshots included (default: Edit ▸ Preferences)."),
                                   QStringLiteral("theme"));
    parser.addOption(theme);
    const QCommandLineOption inputShape(QStringLiteral("input-shape"),
                                        QStringLiteral("Size of a symbolic input of an ONNX model named on the command "
                                                       "line, e.g. input=1x3x640x640 (as roofline-cli); without it the "
                                                       "studio asks, a headless export fails."),
                                        QStringLiteral("NAME=DIMS"));
    parser.addOption(inputShape);
    const QCommandLineOption viewOption(QStringLiteral("view"),
                                        QStringLiteral("The view to start in: gables, amaix, timeline, brouwer or nnmeter. "
                                                       "Network files (.onnx, .prototxt, .pbtxt, network JSON) named "
                                                       "after it open in it when it takes networks (brouwer, nnmeter), "
                                                       "else in amaix; other files open in the view of their format."),
                                        QStringLiteral("name"));
    parser.addOption(viewOption);
    parser.process(app);

    roofline::network::ImportOptions importOptions;
    for (const QString &value : parser.values(inputShape)) {
        std::string reason;
        if (!roofline::network::parseInputShapeOption(value.toStdString(), importOptions, reason)) {
            fail(QStringLiteral("--input-shape: %1").arg(QString::fromStdString(reason)));
            return 2;
        }
    }
    studio::setCommandLineImport(importOptions.inputShapes, !headless);

    studio::Preferences::Theme chosenTheme = studio::Preferences::load().theme;
    if (parser.isSet(theme)) {
        const QString t = parser.value(theme);
        if (t == QLatin1String("light"))
            chosenTheme = studio::Preferences::Theme::Light;
        else if (t == QLatin1String("dark"))
            chosenTheme = studio::Preferences::Theme::Dark;
        else if (t == QLatin1String("system"))
            chosenTheme = studio::Preferences::Theme::System;
        else {
            fail(QStringLiteral("--theme must be light, dark or system, got \"%1\"").arg(t));
            return 2;
        }
    }

    int width = 1000, height = 700;
    if (parser.isSet(size)) {
        const auto m = QRegularExpression(QStringLiteral("^(\\d{1,5})x(\\d{1,5})$")).match(parser.value(size));
        if (!m.hasMatch() || m.captured(1).toInt() < 100 || m.captured(2).toInt() < 100) {
            fail(QStringLiteral("--size must be WIDTHxHEIGHT with each at least 100, got \"%1\"").arg(parser.value(size)));
            return 2;
        }
        width = m.captured(1).toInt();
        height = m.captured(2).toInt();
    }
    studio::applyTheme(chosenTheme); // before the window: its plots take the colours at once
    studio::MainWindow window;
    studio::ModelView *startView = nullptr;
    if (parser.isSet(viewOption)) {
        startView = window.viewNamed(parser.value(viewOption));
        if (!startView) {
            // The name as given, made printable and cut short (a hostile argument
            // can hold escape sequences or a megabyte).
            const std::string given = roofline::printableText(parser.value(viewOption).toStdString(), 60);
            fail(QStringLiteral("--view must be one of %1, got \"%2\"")
                     .arg(window.viewNames().join(QStringLiteral(", ")), QString::fromStdString(given)));
            return 2;
        }
    }
    QStringList files = parser.positionalArguments();
    QString error;
    if (files.isEmpty()) {
        files << studio::resources::defaultExample();
    } else if (startView) {
        window.setCurrentView(startView); // before the files: networks open in it when it takes them
    } else if (headless && !window.views().empty()) {
        // Exports do not depend on the tab the last interactive run ended on: networks go to AMAIX.
        window.setCurrentView(window.views().front());
    }
    for (const QString &file : files) {
        QStringList warnings;
        if (!window.openFile(file, &error, &warnings)) {
            fail(error);
            if (headless)
                return 1;
            // Interactive: keep going with what opened, and say why this did not; the
            // view of the file shows what to do next instead of its start-up example.
            window.showEmptyStateAfterFailedOpen(file, error);
            QTimer::singleShot(0, &window, [&window, error] {
                QMessageBox::warning(&window, QObject::tr("Could not open the file"), error);
            });
        }
        for (const QString &w : warnings)
            fail(w);
    }

    studio::setCommandLineImport({}, true); // later imports: the user's own (the dialog)
    if (startView && parser.positionalArguments().isEmpty())
        window.setCurrentView(startView); // after the default example, which opens in its own view

    // Overrides go through the same core functions as roofline-cli.
    for (const QString &assignment : parser.values(set)) {
        if (!window.applyOverride(assignment, &error)) {
            fail(error);
            return 1;
        }
    }

    if (headless) {
        studio::ExportOptions options;
        options.width = width;
        options.height = height;
        for (const QCommandLineOption *option : {&exportSvg, &exportPng, &exportPdf}) {
            if (!parser.isSet(*option))
                continue;
            if (!window.exportCurrentPlot(parser.value(*option), options, &error)) {
                fail(error);
                return 1;
            }
        }
        if (parser.isSet(exportBundle) && !window.exportReviewBundle(parser.value(exportBundle), &error)) {
            fail(error);
            return 1;
        }
        if (parser.isSet(exportChrome)) {
            auto *timeline = window.findChild<studio::TimelineView *>();
            if (!timeline || !timeline->exportChromeTrace(parser.value(exportChrome), &error)) {
                fail(error);
                return 1;
            }
        }
        if (parser.isSet(screenshot)) {
            window.resize(parser.isSet(size) ? QSize(width, height) : QSize(1400, 900));
            window.show();
            QApplication::processEvents();
            window.currentView()->flushPendingUpdate();
            QApplication::processEvents();
            if (!studio::savePixmapAtomically(window.grab(), parser.value(screenshot), &error)) {
                fail(error); // the path and the reason; an old screenshot there is left as it was
                return 1;
            }
        }
        return 0;
    }

    // Interactive: the user's theme; the last session when wanted and no file was named;
    // the autosave of a run that ended abnormally; then keep autosaving.
    const studio::Preferences preferences = studio::Preferences::load();
    if (preferences.restoreLastSession && parser.positionalArguments().isEmpty()
        && QFile::exists(studio::MainWindow::lastSessionPath())
        && !window.openSession(studio::MainWindow::lastSessionPath(), &error))
        fail(error);
    if (QFile::exists(studio::MainWindow::autosavePath())) {
        const bool restore = parser.isSet(recover)
            || QMessageBox::question(nullptr, QObject::tr("Recover session"),
                                     QObject::tr("Roofline Studio did not close cleanly last time. Restore the "
                                                 "autosaved session?"))
                == QMessageBox::Yes;
        if (restore && !window.openSession(studio::MainWindow::autosavePath(), &error))
            fail(error);
    }
    const int autosaveMs = qEnvironmentVariableIsSet("ROOFLINE_AUTOSAVE_MS")
        ? std::max(100, qEnvironmentVariableIntValue("ROOFLINE_AUTOSAVE_MS"))
        : 60000;
    window.enableAutosave(autosaveMs);
    window.show();
    return app.exec();
}
