// roofline-bench: how long a slider move takes to become a finished replot,
// and how fast the core evaluates, for 2, 16 and 64 IPs.
//
//   QT_QPA_PLATFORM=offscreen roofline-bench [--quick] [--iterations N]
//
// "Slider to replot" is measured from QSlider::setValue() (what a drag does)
// through the document edit, the coalesced evaluation, both charts' replot and
// the paint events, to the point where the event loop is idle again.
#include "gables/geometry.h"
#include "gables/model.h"
#include "gablesdocument.h"
#include "gablesparampanel.h"
#include "gablesplot.h"
#include "termschart.h"
#include "gablesview.h"
#include "mainwindow.h"
#include "parameterslider.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace roofline::gables;

namespace {

struct Stats
{
    double median = 0, p90 = 0, p99 = 0, max = 0;
};

Stats summarize(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    auto at = [&](double q) { return samples[std::min(samples.size() - 1, std::size_t(q * double(samples.size())))]; };
    return {at(0.5), at(0.9), at(0.99), samples.back()};
}

Soc makeSoc(int n)
{
    Soc soc;
    soc.name = std::to_string(n) + "-IP benchmark SoC";
    soc.ppeakGops = 50;
    soc.bpeakGBps = 60;
    for (int i = 0; i < n; ++i) {
        Ip ip;
        ip.name = "IP" + std::to_string(i);
        ip.acceleration = 1 + (i % 7) * 3.5;
        ip.bandwidthGBps = 5 + (i % 5) * 4;
        ip.fraction = 1.0 / n;
        ip.intensity = 0.25 * (1 + i % 9);
        soc.ips.push_back(ip);
    }
    return soc;
}

void benchCore(int n, int iterations)
{
    Soc soc = makeSoc(n);
    volatile double sink = 0;
    const int rounds = iterations * 200;
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) {
        soc.ips[0].intensity = 0.25 + (r % 100) * 0.01;
        sink = sink + evaluate(soc).attainableGops;
    }
    const double evalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) {
        soc.ips[0].intensity = 0.25 + (r % 100) * 0.01;
        const Result result = evaluate(soc);
        sink = sink + plotGeometry(soc, result).attainable.y;
    }
    const double geoSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("core   %3d IPs  evaluate: %10.0f evaluations/s (%.2f us each)   evaluate+geometry: %10.0f/s (%.2f us)\n",
                n, rounds / evalSeconds, evalSeconds / rounds * 1e6, rounds / geoSeconds, geoSeconds / rounds * 1e6);
}

void benchReplot(int n, int iterations)
{
    studio::MainWindow window;
    window.resize(1400, 900);
    window.show();
    window.gablesDocument()->setSoc(makeSoc(n), QString());
    QApplication::processEvents();
    studio::GablesView *view = window.gablesView();
    view->flushPendingUpdate();
    QApplication::processEvents();

    // Drag the last IP's intensity slider back and forth, and Bpeak's, as a user would.
    QSlider *intensity = view->panel()->intensitySlider(n - 1)->slider();
    QSlider *bpeak = view->panel()->bpeakSlider()->slider();
    std::vector<double> samples;
    samples.reserve(std::size_t(iterations));
    QElapsedTimer timer;
    for (int i = 0; i < iterations; ++i) {
        QSlider *slider = (i % 2) ? intensity : bpeak;
        const int position = 300 + (i * 37) % 400;
        const quint64 before = view->updateCount();
        timer.start();
        slider->setValue(position == slider->value() ? position + 1 : position);
        while (view->updateCount() == before)
            QApplication::processEvents();
        QApplication::processEvents(); // paint events of both charts
        samples.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const Stats s = summarize(samples);
    std::printf("replot %3d IPs  slider -> finished replot (ms): median %6.2f  p90 %6.2f  p99 %6.2f  max %6.2f  (n=%d)\n",
                n, s.median, s.p90, s.p99, s.max, iterations);

    // Where the time goes: each stage of one update alone.
    auto stage = [&](const char *name, auto &&work) {
        std::vector<double> t;
        for (int i = 0; i < std::max(10, iterations / 4); ++i) {
            timer.start();
            work();
            t.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        const Stats st = summarize(t);
        std::printf("         %-28s median %6.2f  p99 %6.2f ms\n", name, st.median, st.p99);
    };
    const Soc &soc = window.gablesDocument()->soc();
    stage("panel: refresh controls", [&] { view->panel()->refreshValues(); });
    stage("evaluate + plot geometry", [&] { view->plot()->setModel(soc, evaluate(soc)); });
    stage("roofline plot: replot", [&] { view->plot()->replot(); });
    stage("terms chart: replot", [&] { view->termsChart()->replot(); });
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RooflineStudio"));
    QApplication::setApplicationName(QStringLiteral("roofline-bench"));
    int iterations = 400;
    std::vector<int> sizes{2, 16, 64};
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0)
            iterations = 20;
        else if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
            iterations = std::max(10, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--ips") == 0 && i + 1 < argc)
            sizes = {std::clamp(std::atoi(argv[++i]), 1, 256)}; // one size only, e.g. for callgrind
    }
    std::printf("Roofline Studio benchmark, platform %s, %d iterations\n", qPrintable(QApplication::platformName()),
                iterations);
    for (int n : sizes)
        benchCore(n, iterations);
    for (int n : sizes)
        benchReplot(n, iterations);
    return 0;
}
