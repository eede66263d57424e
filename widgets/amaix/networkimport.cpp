#include "networkimport.h"

#include "amaixdocument.h"

namespace studio {

bool importNetwork(QWidget *parent, AmaixDocument *document, const QString &path, QString *error, QStringList *warnings)
{
    roofline::network::Network network;
    InputShapes used;
    if (!importNetworkFile(parent, path, document->inputShapesFor(path), &network, &used, error, warnings))
        return false;
    document->setImportedNetwork(network, path, used);
    return true;
}

} // namespace studio
