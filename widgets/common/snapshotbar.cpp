#include "snapshotbar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>

namespace studio {

SnapshotBar::SnapshotBar(QWidget *parent)
    : QWidget(parent)
{
    auto *bar = new QHBoxLayout(this);
    bar->setContentsMargins(4, 2, 4, 0);
    m_pin = new QPushButton(tr("Pin snapshot"), this);
    m_pin->setShortcut(QKeySequence(tr("Ctrl+P")));
    m_pin->setToolTip(tr("Keep the current configuration as a named snapshot to compare against (Ctrl+P)"));
    m_box = new QComboBox(this);
    m_box->setToolTip(tr("The snapshot drawn faded on the plot and compared in the readout"));
    m_box->setMinimumContentsLength(14);
    m_restore = new QPushButton(tr("Restore"), this);
    m_restore->setToolTip(tr("Make the compared snapshot the current model (undoable)"));
    m_rename = new QPushButton(tr("Rename…"), this);
    m_rename->setToolTip(tr("Give the compared snapshot a new name"));
    m_remove = new QPushButton(tr("Delete"), this);
    m_remove->setToolTip(tr("Forget the compared snapshot"));
    auto *label = new QLabel(tr("Snapshots:"), this);
    auto *compareLabel = new QLabel(tr("compare &with"), this);
    compareLabel->setBuddy(m_box);
    bar->addWidget(label);
    bar->addWidget(m_pin);
    bar->addWidget(compareLabel);
    bar->addWidget(m_box, 1);
    bar->addWidget(m_restore);
    bar->addWidget(m_rename);
    bar->addWidget(m_remove);

    connect(m_pin, &QPushButton::clicked, this, &SnapshotBar::pinRequested);
    connect(m_box, &QComboBox::activated, this, [this](int row) { emit compareRequested(row - 1); }); // row 0: none
    connect(m_restore, &QPushButton::clicked, this, [this] {
        if (compared() >= 0)
            emit restoreRequested(compared());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (compared() >= 0)
            emit removeRequested(compared());
    });
    connect(m_rename, &QPushButton::clicked, this, [this] {
        const int index = compared();
        if (index < 0)
            return;
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename snapshot"), tr("Name:"), QLineEdit::Normal,
                                                   m_names.value(index), &ok);
        if (ok && !name.trimmed().isEmpty())
            emit renameRequested(index, name.trimmed());
    });
    setSnapshots({}, -1);
}

QList<QWidget *> SnapshotBar::focusChain() const
{
    return { m_pin, m_box, m_restore, m_rename, m_remove };
}

int SnapshotBar::compared() const
{
    return m_box->currentIndex() - 1;
}

void SnapshotBar::setSnapshots(const QStringList &names, int compared)
{
    m_names = names;
    const QSignalBlocker block(m_box);
    m_box->clear();
    m_box->addItem(tr("(none)"));
    m_box->addItems(names);
    const bool any = compared >= 0 && compared < names.size();
    m_box->setCurrentIndex(any ? compared + 1 : 0);
    m_restore->setEnabled(any);
    m_rename->setEnabled(any);
    m_remove->setEnabled(any);
}

void setFocusChain(const QList<QWidget *> &widgets)
{
    for (qsizetype i = 1; i < widgets.size(); ++i)
        QWidget::setTabOrder(widgets[i - 1], widgets[i]);
}

QList<QWidget *> focusableDescendants(QWidget *root)
{
    QList<QWidget *> out;
    QWidget *w = root->nextInFocusChain();
    // The chain is a ring through the whole window: walk it once.
    for (int guard = 0; w && w != root && guard < 100000; ++guard, w = w->nextInFocusChain()) {
        if (root->isAncestorOf(w) && (w->focusPolicy() & Qt::TabFocus))
            out << w;
    }
    return out;
}

} // namespace studio
