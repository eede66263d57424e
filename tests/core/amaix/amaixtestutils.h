// Loading the shipped AMAIX examples in tests.
#pragma once

#include "amaix/io.h"

#include <QTest>

#include <string>

namespace amaixtest {

inline std::string example(const std::string &file)
{
    return std::string(ROOFLINE_EXAMPLES_DIR) + "/amaix/" + file;
}

inline roofline::amaix::Network network(const std::string &file)
{
    auto r = roofline::amaix::loadNetworkFile(example(file));
    if (!r.network)
        qFatal("%s", r.diagnostics.toString().c_str());
    return *r.network;
}

inline roofline::amaix::Accelerator accelerator(const std::string &file)
{
    auto r = roofline::amaix::loadAcceleratorFile(example(file));
    if (!r.accelerator)
        qFatal("%s", r.diagnostics.toString().c_str());
    return *r.accelerator;
}

} // namespace amaixtest
