// The row of snapshot controls every view shows above its readout: pin the
// current configuration (Ctrl+P), choose the snapshot drawn as a ghost and
// compared against, restore, rename or delete it. The bar only asks; the
// view's document keeps the snapshots and answers with setSnapshots().
#pragma once

#include <QStringList>
#include <QWidget>

class QComboBox;
class QPushButton;

namespace studio {

class SnapshotBar : public QWidget
{
    Q_OBJECT
public:
    explicit SnapshotBar(QWidget *parent = nullptr);

    // The snapshots' names and the compared one (-1: none).
    void setSnapshots(const QStringList &names, int compared);
    QComboBox *comboBox() const { return m_box; }
    QPushButton *pinButton() const { return m_pin; }
    QPushButton *restoreButton() const { return m_restore; }
    QPushButton *renameButton() const { return m_rename; }
    QPushButton *removeButton() const { return m_remove; }
    // Its controls left to right, for the view's tab order.
    QList<QWidget *> focusChain() const;

signals:
    void pinRequested();
    void compareRequested(int index); // -1: none
    void restoreRequested(int index);
    void renameRequested(int index, const QString &name);
    void removeRequested(int index);

private:
    int compared() const;

    QPushButton *m_pin = nullptr;
    QComboBox *m_box = nullptr;
    QPushButton *m_restore = nullptr;
    QPushButton *m_rename = nullptr;
    QPushButton *m_remove = nullptr;
    QStringList m_names;
};

// Makes Tab visit `widgets` in the order given (each after the one before).
void setFocusChain(const QList<QWidget *> &widgets);
// The focusable descendants of `root` in their current tab order.
QList<QWidget *> focusableDescendants(QWidget *root);

} // namespace studio
