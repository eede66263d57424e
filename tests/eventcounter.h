// Event counters for widget tests and roofline-bench: how many events of a
// type a widget received (layout requests, paints), how many pixels its
// paints covered, and a wait until the window has none left to deliver.
#pragma once

#include <QApplication>
#include <QEvent>
#include <QObject>
#include <QPaintEvent>
#include <QRegion>
#include <QWidget>

// Counts the events of one type a widget receives.
class EventCounter : public QObject
{
public:
    EventCounter(QObject *watched, QEvent::Type type, int *count)
        : m_type(type)
        , m_count(count)
    {
        watched->installEventFilter(this);
    }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == m_type)
            ++*m_count;
        return false;
    }

private:
    QEvent::Type m_type;
    int *m_count;
};

// Adds up the pixels of the paint events a widget receives.
class PaintedArea : public QObject
{
public:
    PaintedArea(QWidget *watched, qint64 *area, int *paints)
        : m_area(area)
        , m_paints(paints)
    {
        watched->installEventFilter(this);
    }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            ++*m_paints;
            for (const QRect &r : static_cast<QPaintEvent *>(event)->region())
                *m_area += qint64(r.width()) * r.height();
        }
        return false;
    }

private:
    qint64 *m_area;
    int *m_paints;
};

// Runs the event loop until the window is laid out and painted: two passes of
// processEvents() in a row that deliver no layout request and no paint to any
// widget (at most 50 passes; returns how many ran). Each layout that activates
// posts the next request to its parent, which one pass leaves for the next:
// opening a 64-IP SoC (the panel's 66 group boxes, the scroll area, the
// splitters, the tabs, the main window) takes about ten passes, with three
// whole-window repaints between them. A user's event loop runs them at once;
// a benchmark series started after two passes charged them to its first four
// steps (the first one 64 M instructions against 18.4 M, callgrind;
// docs/performance.md).
inline int settleWindow()
{
    class Activity : public QObject
    {
    public:
        int events = 0;
        Activity() { qApp->installEventFilter(this); }
        ~Activity() override { qApp->removeEventFilter(this); }

    protected:
        bool eventFilter(QObject *object, QEvent *event) override
        {
            if (object->isWidgetType() && (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Paint))
                ++events;
            return false;
        }
    } activity;
    int passes = 0;
    for (int quiet = 0; quiet < 2 && passes < 50; ++passes) {
        activity.events = 0;
        QApplication::processEvents();
        quiet = activity.events == 0 ? quiet + 1 : 0;
    }
    return passes;
}
