// Event counters for widget tests: how many events of a type a widget
// received (layout requests, paints), and how many pixels its paints covered.
#pragma once

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
