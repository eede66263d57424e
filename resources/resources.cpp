#include "resources.h"

#include <QDir>

namespace studio::resources {

QStringList exampleFiles(const QString &model)
{
    const QDir dir(QStringLiteral(":/examples/") + model);
    QStringList files;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

QString defaultExample()
{
    const QString preferred = QStringLiteral(":/examples/gables/snapdragon835.json");
    if (QFile::exists(preferred))
        return preferred;
    const QStringList all = exampleFiles();
    return all.isEmpty() ? QString() : all.first();
}

QString appIconPath()
{
    return QStringLiteral(":/icons/roofline-studio.svg");
}

} // namespace studio::resources
