// AMAIX reads the shared network model (core/network/network.h); these names
// keep AMAIX's code and tests reading `amaix::Network`, `amaix::Layer`, ...
#pragma once

#include "../network/network.h"

namespace roofline::amaix {

using network::consumers;
using network::countLayer;
using network::countNetwork;
using network::inferShapes;
using network::isElementwise;
using network::isFree;
using network::kLayerTypeCount;
using network::Layer;
using network::LayerCounts;
using network::LayerType;
using network::layerTypeFromName;
using network::layerTypeName;
using network::Network;
using network::NetworkInput;
using network::PoolMode;
using network::Rounding;
using network::Shape;

} // namespace roofline::amaix
