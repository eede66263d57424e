// The slider/spin-box pair: mapping, and that both controls stay in step.
#include "parameterslider.h"
#include "testutils.h"

#include <QDoubleSpinBox>
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
        QSignalSpy spy(&slider, &ParameterSlider::valueChanged);
        slider.slider()->setValue(750); // as a drag would
        QCOMPARE(spy.count(), 1);
        ROOFLINE_COMPARE_REL(spy.at(0).at(0).toDouble(), 10.0, 1e-12);
        QCOMPARE(slider.spinBox()->value(), 10.0);
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
};

QTEST_MAIN(TestParameterSlider)
#include "tst_parameterslider.moc"
