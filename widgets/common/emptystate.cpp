#include "emptystate.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace studio {

namespace {

void clear(QVBoxLayout *layout)
{
    while (QLayoutItem *item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

} // namespace

EmptyState::EmptyState(const QString &what, QWidget *parent)
    : QWidget(parent)
{
    auto *heading = new QLabel(tr("<h2>No model open</h2><p>Open %1 to see its plot: start from an example, "
                                  "open a file (File ▸ Open, Ctrl+O), or drop one on the window.</p>")
                                   .arg(what.toHtmlEscaped()),
                               this);
    heading->setWordWrap(true);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("emptyStateNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->hide();
    auto *open = new QPushButton(tr("Open a file…"), this);
    connect(open, &QPushButton::clicked, this, &EmptyState::openDialogRequested);
    m_examplesHeading = new QLabel(tr("<b>Examples</b>"), this);
    m_examples = new QVBoxLayout;
    m_recentHeading = new QLabel(tr("<b>Recent files</b>"), this);
    m_recent = new QVBoxLayout;

    auto *column = new QVBoxLayout;
    column->addWidget(heading);
    column->addWidget(m_note);
    column->addWidget(open, 0, Qt::AlignLeft);
    column->addSpacing(12);
    column->addWidget(m_examplesHeading);
    column->addLayout(m_examples);
    column->addSpacing(12);
    column->addWidget(m_recentHeading);
    column->addLayout(m_recent);
    column->addStretch(1);
    auto *row = new QHBoxLayout(this);
    row->addStretch(1);
    row->addLayout(column, 3);
    row->addStretch(1);
    setRecentFiles({});
}

void EmptyState::setExamples(const QStringList &paths)
{
    clear(m_examples);
    for (const QString &path : paths) {
        auto *button = new QPushButton(QFileInfo(path).completeBaseName(), this);
        button->setFlat(true);
        button->setStyleSheet(QStringLiteral("text-align: left"));
        connect(button, &QPushButton::clicked, this, [this, path] { emit openRequested(path); });
        m_examples->addWidget(button);
    }
}

void EmptyState::setExampleGroups(const QList<QPair<QString, QStringList>> &groups)
{
    clear(m_examples);
    for (const auto &[title, paths] : groups) {
        if (paths.isEmpty())
            continue;
        m_examples->addWidget(new QLabel(QStringLiteral("<i>%1</i>").arg(title.toHtmlEscaped()), this));
        for (const QString &path : paths) {
            auto *button = new QPushButton(QFileInfo(path).completeBaseName(), this);
            button->setFlat(true);
            button->setStyleSheet(QStringLiteral("text-align: left"));
            connect(button, &QPushButton::clicked, this, [this, path] { emit openRequested(path); });
            m_examples->addWidget(button);
        }
    }
}

void EmptyState::setNote(const QString &text)
{
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

QString EmptyState::note() const
{
    return m_note->text();
}

void EmptyState::setRecentFiles(const QStringList &paths)
{
    clear(m_recent);
    for (const QString &path : paths) {
        auto *button = new QPushButton(QFileInfo(path).fileName(), this);
        button->setFlat(true);
        button->setToolTip(path);
        button->setStyleSheet(QStringLiteral("text-align: left"));
        connect(button, &QPushButton::clicked, this, [this, path] { emit openRequested(path); });
        m_recent->addWidget(button);
    }
    m_recentHeading->setVisible(!paths.isEmpty());
}

QStringList EmptyState::exampleButtons() const
{
    QStringList out;
    for (int i = 0; i < m_examples->count(); ++i) {
        if (auto *b = qobject_cast<QPushButton *>(m_examples->itemAt(i)->widget()))
            out << b->text();
    }
    return out;
}

} // namespace studio
