// Undo steps for a document whose model is one copyable value (a Soc, an
// accelerator, a machine): every edit pushes the state before and after it on
// a QUndoStack; edits of one parameter between beginDrag() and endDrag() (one
// slider drag) merge into one step. The document owns the stack and applies a
// state through the callback when the user undoes or redoes.
#pragma once

#include "units.h"

#include <QString>
#include <QUndoCommand>
#include <QUndoStack>

#include <functional>
#include <utility>

namespace studio {

template <class State>
class StateHistory
{
public:
    // `apply` shows a state without recording a step; `structural` says
    // whether the set of controls may have changed.
    using Apply = std::function<void(const State &state, bool structural)>;

    StateHistory(QUndoStack *stack, Apply apply)
        : m_stack(stack)
        , m_apply(std::move(apply))
    {
    }
    StateHistory(const StateHistory &) = delete;
    StateHistory &operator=(const StateHistory &) = delete;

    QUndoStack *stack() const { return m_stack; }
    const State &committed() const { return m_committed; }

    // Records the step from the last committed state to `current`. Steps with
    // the same non-empty `key` inside one drag merge.
    void record(const State &current, const QString &key, bool structural, const QString &text)
    {
        if (!m_dragging)
            ++m_serial; // outside a drag every edit is a step of its own
        m_stack->push(new Command(this, m_committed, current, key, m_serial, structural, text));
        m_committed = current;
    }
    // A step that sets one number, named with its value: "Bpeak 30 → 42 GB/s".
    // A drag that merges steps keeps the first value and shows the last.
    void recordValue(const State &current, const QString &key, const QString &label, double from, double to,
                     const QString &unit)
    {
        if (!m_dragging)
            ++m_serial;
        auto *command = new Command(this, m_committed, current, key, m_serial, false, QString());
        command->setValue(label, from, to, unit);
        m_stack->push(command);
        m_committed = current;
    }
    // Starts a new history at `state` (a session restored, a document reset).
    void reset(const State &state)
    {
        m_committed = state;
        m_stack->clear();
    }
    // Makes `state` the base of the next step without recording one.
    void setCommitted(const State &state) { m_committed = state; }

    void beginDrag()
    {
        m_dragging = true;
        ++m_serial;
    }
    void endDrag()
    {
        m_dragging = false;
        ++m_serial;
    }

private:
    class Command : public QUndoCommand
    {
    public:
        Command(StateHistory *history, State before, State after, QString key, quint64 serial, bool structural,
                const QString &text)
            : QUndoCommand(text)
            , m_history(history)
            , m_before(std::move(before))
            , m_after(std::move(after))
            , m_key(std::move(key))
            , m_serial(serial)
            , m_structural(structural)
        {
        }
        int id() const override { return 0x57a7e; }
        bool mergeWith(const QUndoCommand *other) override
        {
            const auto *next = static_cast<const Command *>(other);
            if (next->m_history != m_history || m_structural || next->m_structural || m_key.isEmpty()
                || next->m_key != m_key || next->m_serial != m_serial)
                return false;
            m_after = next->m_after;
            if (!m_label.isEmpty() && next->m_label == m_label)
                setValue(m_label, m_from, next->m_to, m_unit);
            return true;
        }
        void setValue(const QString &label, double from, double to, const QString &unit)
        {
            m_label = label;
            m_from = from;
            m_to = to;
            m_unit = unit;
            // Four significant digits, as the spin boxes show them.
            setText(QStringLiteral("%1 %2 → %3%4")
                         .arg(label, formatValue(from), formatValue(to),
                              unit.isEmpty() ? QString() : QLatin1Char(' ') + unit));
        }
        void undo() override { m_history->show(m_before, m_structural); }
        void redo() override
        {
            if (m_applied) // the edit itself already changed the model when it was pushed
                m_history->show(m_after, m_structural);
            m_applied = true;
        }

    private:
        StateHistory *m_history;
        State m_before;
        State m_after;
        QString m_key;
        quint64 m_serial;
        bool m_structural;
        bool m_applied = false;
        QString m_label; // a value step: "Bpeak", from, to, "GB/s"
        double m_from = 0;
        double m_to = 0;
        QString m_unit;
    };

    void show(const State &state, bool structural)
    {
        m_committed = state;
        m_apply(state, structural);
    }

    QUndoStack *m_stack;
    Apply m_apply;
    State m_committed{};
    quint64 m_serial = 0;
    bool m_dragging = false;
};

} // namespace studio
