// The bookkeeping every document does for its snapshots: default names, the
// compared index following insertions and deletions. `Snapshot` is the
// document's own record with a QString `name`.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstddef>
#include <vector>

namespace studio::snapshots {

// The name of a new snapshot: the one asked for, else "baseline" for the
// first and "snapshot N" after it.
inline QString newName(const QString &requested, std::size_t existing)
{
    const QString given = requested.trimmed();
    if (!given.isEmpty())
        return given;
    return existing == 0 ? QCoreApplication::translate("studio::SnapshotBar", "baseline")
                         : QCoreApplication::translate("studio::SnapshotBar", "snapshot %1").arg(existing + 1);
}

template <class Snapshot>
bool valid(const std::vector<Snapshot> &list, int index)
{
    return index >= 0 && std::size_t(index) < list.size();
}

// Appends; the first snapshot pinned becomes the compared one. Returns its index.
template <class Snapshot>
int pin(std::vector<Snapshot> &list, Snapshot snapshot, int &compared)
{
    list.push_back(std::move(snapshot));
    const int index = int(list.size()) - 1;
    if (compared < 0)
        compared = index;
    return index;
}

// False when there is no such snapshot or the name is blank.
template <class Snapshot>
bool rename(std::vector<Snapshot> &list, int index, const QString &name)
{
    if (!valid(list, index) || name.trimmed().isEmpty())
        return false;
    list[std::size_t(index)].name = name.trimmed();
    return true;
}

// Keeps `compared` on the same snapshot, or -1 when that one goes.
template <class Snapshot>
bool remove(std::vector<Snapshot> &list, int index, int &compared)
{
    if (!valid(list, index))
        return false;
    list.erase(list.begin() + index);
    compared = compared == index ? -1 : compared - (compared > index ? 1 : 0);
    return true;
}

} // namespace studio::snapshots
