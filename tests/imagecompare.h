// Pixel comparisons for the widget tests: two ways of drawing the same picture (from cached
// images, from glyphs or paths) must agree.
#pragma once

#include <QImage>

#include <algorithm>
#include <cstdlib>

namespace testutils {

// Every pixel of `a` and `b` within `tolerance` levels per channel: how many differ at all;
// otherwise minus one minus that count (and -1 when the sizes differ). `worst`: the largest
// difference of any channel.
inline int differingPixels(const QImage &a, const QImage &b, int tolerance, int *worst)
{
    *worst = 0;
    if (a.size() != b.size())
        return -1;
    const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
    int differ = 0;
    for (int r = 0; r < x.height(); ++r)
        for (int c = 0; c < x.width(); ++c) {
            const QRgb p = x.pixel(c, r), q = y.pixel(c, r);
            const int d = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
            differ += d > 0;
            *worst = std::max(*worst, d);
        }
    return *worst <= tolerance ? differ : -differ - 1;
}

} // namespace testutils
