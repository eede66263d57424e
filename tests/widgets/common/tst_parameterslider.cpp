// The slider/spin-box pair: mapping, and that both controls stay in step.
#include "parameterslider.h"
#include "testutils.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QMouseEvent>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

using namespace studio;

class TestParameterSlider : public QObject
{
    Q_OBJECT
private slots:
    void scale_data()
    {
        QTest::addColumn<bool>("logarithmic");
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("position");
        QTest::newRow("linear minimum") << false << 0.0 << 0;
        QTest::newRow("linear middle") << false << 0.5 << 500;
        QTest::newRow("linear maximum") << false << 1.0 << 1000;
        QTest::newRow("log minimum") << true << 0.01 << 0;
        QTest::newRow("log one decade in four") << true << 0.1 << 250;
        QTest::newRow("log middle") << true << 1.0 << 500;
        QTest::newRow("log maximum") << true << 100.0 << 1000;
        QTest::newRow("log clamps below") << true << 1e-9 << 0;
        QTest::newRow("log clamps above") << true << 1e9 << 1000;
    }
    void scale()
    {
        QFETCH(bool, logarithmic);
        QFETCH(double, value);
        QFETCH(int, position);
        const SliderScale s = logarithmic ? SliderScale{0.01, 100, true, 1000} : SliderScale{0, 1, false, 1000};
        QCOMPARE(s.toPosition(value), position);
        if (value >= s.minimum && value <= s.maximum)
            ROOFLINE_COMPARE_REL(s.toValue(position), value, 1e-12);
    }

    void nanIsIgnored()
    {
        const SliderScale s{0.01, 100, true, 1000};
        QCOMPARE(s.toPosition(std::numeric_limits<double>::quiet_NaN()), 0);
        ParameterSlider slider(QStringLiteral("B"), QStringLiteral("GB/s"), s, 3);
        slider.setValue(5);
        slider.setValue(std::numeric_limits<double>::quiet_NaN());
        QCOMPARE(slider.value(), 5.0);
    }

    void sliderDrivesSpinBox()
    {
        ParameterSlider slider(QStringLiteral("B"), QStringLiteral("GB/s"), SliderScale{0.01, 100, true, 1000}, 3);
        slider.setValue(1); // the slider spans two decades around it: [0.1, 10]
        QSignalSpy spy(&slider, &ParameterSlider::valueChanged);
        slider.slider()->setValue(750); // as a drag would
        QCOMPARE(spy.count(), 1);
        ROOFLINE_COMPARE_REL(spy.at(0).at(0).toDouble(), std::sqrt(10.0), 1e-12);
        QCOMPARE(slider.spinBox()->value(), 3.162);
        QVERIFY(slider.spinBox()->suffix().contains(QStringLiteral("GB/s")));
    }

    void spinBoxDrivesSlider()
    {
        ParameterSlider slider(QStringLiteral("f"), QString(), SliderScale{0, 1, false, 1000}, 4);
        QSignalSpy spy(&slider, &ParameterSlider::valueChanged);
        slider.spinBox()->setValue(0.25);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(slider.slider()->value(), 250);
        QCOMPARE(slider.value(), 0.25);
    }

    void setValueIsSilent()
    {
        ParameterSlider slider(QStringLiteral("f"), QString(), SliderScale{0, 1, false, 1000}, 4);
        QSignalSpy spy(&slider, &ParameterSlider::valueChanged);
        slider.setValue(0.75);
        QCOMPARE(spy.count(), 0);
        QCOMPARE(slider.slider()->value(), 750);
    }

    // A log slider spans two decades around its value, the spin box the whole
    // range; the window re-centres when the value is set, clamped to the range.
    void logWindow()
    {
        ParameterSlider slider(QStringLiteral("P"), QStringLiteral("Gops/s"), SliderScale{1e-3, 1e6, true, 1000}, 3);
        slider.setValue(7.5);
        ROOFLINE_COMPARE_REL(slider.scale().minimum, 0.75, 1e-12);
        ROOFLINE_COMPARE_REL(slider.scale().maximum, 75, 1e-12);
        QCOMPARE(slider.spinBox()->maximum(), 1e6);
        QCOMPARE(slider.slider()->value(), 500);
        slider.setValue(5e5);
        ROOFLINE_COMPARE_REL(slider.scale().maximum, 1e6, 1e-12);
        ROOFLINE_COMPARE_REL(slider.scale().minimum, 1e4, 1e-12);
        // The complaint: a 30-pixel drag took Ppeak from 7.5 to 274 over nine
        // decades. On a 300-pixel slider it now moves by 10^(30/300·2) = 1.58×.
        slider.setValue(7.5);
        slider.resize(600, 30);
        slider.slider()->resize(300, 20);
        const double perPixel = double(slider.slider()->maximum()) / (300 - slider.slider()->style()->pixelMetric(QStyle::PM_SliderLength));
        QVERIFY(std::pow(10.0, 30 * perPixel / 1000 * kLogWindowDecades) < 2);
    }

    // Arrow keys step 1 %, Page Up 10 %.
    void arrowKeys()
    {
        ParameterSlider slider(QStringLiteral("B"), QStringLiteral("GB/s"), SliderScale{1e-3, 1e6, true, 1000}, 3);
        slider.setValue(30);
        QTest::keyClick(slider.slider(), Qt::Key_Right);
        ROOFLINE_COMPARE_REL(slider.value(), 30 * 1.01, 0.005);
        slider.setValue(30);
        QTest::keyClick(slider.slider(), Qt::Key_PageUp);
        ROOFLINE_COMPARE_REL(slider.value(), 30 * 1.1, 0.01);
        ParameterSlider linear(QStringLiteral("f"), QString(), SliderScale{0, 1, false, 1000}, 4);
        linear.setValue(0.5);
        QTest::keyClick(linear.slider(), Qt::Key_Right);
        ROOFLINE_COMPARE_REL(linear.value(), 0.51, 1e-12);
    }

    // Shift-drag moves ten times finer than a plain drag of the same distance.
    void fineDrag()
    {
        auto drag = [](ParameterSlider &slider, int dx, Qt::KeyboardModifiers modifiers) {
            QSlider *s = slider.slider();
            const QStyleOptionSlider option = [&] {
                QStyleOptionSlider o;
                o.initFrom(s);
                o.orientation = Qt::Horizontal;
                o.minimum = s->minimum();
                o.maximum = s->maximum();
                o.sliderPosition = s->sliderPosition();
                o.sliderValue = s->value();
                return o;
            }();
            const QPoint handle = s->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, s).center();
            QTest::mousePress(s, Qt::LeftButton, Qt::NoModifier, handle);
            for (int step = 1; step <= 10; ++step) {
                QMouseEvent move(QEvent::MouseMove, QPointF(handle + QPoint(dx * step / 10, 0)), s->mapToGlobal(QPointF(handle + QPoint(dx * step / 10, 0))),
                                 Qt::NoButton, Qt::LeftButton, modifiers);
                QApplication::sendEvent(s, &move);
            }
            QTest::mouseRelease(s, Qt::LeftButton, Qt::NoModifier, handle + QPoint(dx, 0));
        };
        ParameterSlider plain(QStringLiteral("B"), QStringLiteral("GB/s"), SliderScale{1e-3, 1e6, true, 1000}, 3);
        plain.resize(500, 40);
        plain.show();
        plain.setValue(10);
        QVERIFY(QTest::qWaitForWindowExposed(&plain));
        drag(plain, 60, Qt::NoModifier);
        const double plainFactor = plain.value() / 10;
        ParameterSlider fine(QStringLiteral("B"), QStringLiteral("GB/s"), SliderScale{1e-3, 1e6, true, 1000}, 3);
        fine.resize(500, 40);
        fine.show();
        fine.setValue(10);
        QVERIFY(QTest::qWaitForWindowExposed(&fine));
        drag(fine, 60, Qt::ShiftModifier);
        const double fineFactor = fine.value() / 10;
        QVERIFY2(plainFactor > 1.2, qPrintable(QString::number(plainFactor)));
        // log(fine) ≈ log(plain)/10 (the first move only anchors the drag).
        ROOFLINE_COMPARE_REL(std::log(fineFactor), std::log(plainFactor) / 10, 0.25);
    }
};

QTEST_MAIN(TestParameterSlider)
#include "tst_parameterslider.moc"
