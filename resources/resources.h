// Where the embedded examples live, and which one the studio opens first.
#pragma once

#include <QString>
#include <QStringList>

namespace studio::resources {

// ":/examples/gables/gables-fig6b.json", ... sorted by file name.
QStringList exampleFiles(const QString &model = QStringLiteral("gables"));
QString defaultExample();
QString appIconPath();

} // namespace studio::resources
