// What a view shows when it has no model (nothing opened yet, or the file
// named on the command line failed to open): what to do next, and no plot,
// legend or axes that are not data.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace studio {

class EmptyState : public QWidget
{
    Q_OBJECT
public:
    // `what`: "an SoC model", shown in the heading.
    EmptyState(const QString &what, QWidget *parent = nullptr);

    void setExamples(const QStringList &paths);    // one button each
    // Buttons grouped under headings ("Networks", "Accelerators"); replaces setExamples().
    void setExampleGroups(const QList<QPair<QString, QStringList>> &groups);
    // A line under the heading: what is already open, or why the last open failed.
    void setNote(const QString &text); // plain text; hidden when empty
    QString note() const;
    void setRecentFiles(const QStringList &paths); // one link each; hidden when empty
    QStringList exampleButtons() const;            // their texts, for tests

signals:
    void openRequested(const QString &path);
    void openDialogRequested();

private:
    QVBoxLayout *m_examples = nullptr;
    QVBoxLayout *m_recent = nullptr;
    QLabel *m_recentHeading = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_examplesHeading = nullptr;
};

} // namespace studio
