// Opening any network file: our JSON, ONNX or Caffe, by suffix.
#include "import.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace roofline::network {

namespace {

std::string lowerSuffix(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    const std::size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    std::string s = path.substr(dot);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

} // namespace

NetworkFileKind networkFileKind(const std::string &path)
{
    const std::string s = lowerSuffix(path);
    if (s == ".onnx")
        return NetworkFileKind::Onnx;
    if (s == ".prototxt" || s == ".pbtxt")
        return NetworkFileKind::Caffe;
    return NetworkFileKind::Json;
}

bool isImportedNetworkFile(const std::string &path)
{
    return networkFileKind(path) != NetworkFileKind::Json;
}

bool parseInputShapeOption(const std::string &text, ImportOptions &options, std::string &error)
{
    const std::size_t eq = text.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
        error = "expected NAME=DIMS such as input=1x3x640x640, got \"" + text + "\"";
        return false;
    }
    const std::string name = text.substr(0, eq);
    std::vector<std::int64_t> dims;
    std::size_t pos = eq + 1;
    while (pos <= text.size()) {
        const std::size_t x = std::min(text.find_first_of("x,", pos), text.size());
        const std::string part = text.substr(pos, x - pos);
        if (part.empty() || part.size() > 9 || !std::all_of(part.begin(), part.end(), ::isdigit)
            || std::stoll(part) < 1) {
            error = "\"" + text + "\": each dimension must be a whole number from 1 to 999999999, got \"" + part + "\"";
            return false;
        }
        dims.push_back(std::stoll(part));
        pos = x + 1;
    }
    if (dims.size() > 8) {
        error = "\"" + text + "\": at most 8 dimensions";
        return false;
    }
    options.inputShapes[name] = dims;
    return true;
}

namespace {

void fixUtf8(std::string &s)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
        if (ok && len == 2)
            ok = c >= 0xC2; // no overlong forms
        if (ok && len == 3) {
            const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
            ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0); // overlong, surrogates
        }
        if (ok && len == 4) {
            const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
            ok = c <= 0xF4 && !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
        }
        if (!ok) {
            s[i] = '?';
            ++i;
        } else {
            i += len;
        }
    }
}

} // namespace

void makeTextValidUtf8(Network &network)
{
    fixUtf8(network.name);
    fixUtf8(network.description);
    fixUtf8(network.source);
    // Names stay unique: two names differing only in invalid bytes get a suffix.
    std::set<std::string> names;
    std::map<std::string, int> nextSuffix; // linear, not quadratic, for 10^5 names made alike
    auto unique = [&](std::string &name) {
        const std::string before = name;
        fixUtf8(name);
        // Our JSON takes names of at most 128 bytes: a name made from a long
        // operator type, or grown by fixUtf8 (3 bytes per bad byte), is cut at
        // a character boundary, leaving room for a suffix (found by fuzz_caffe:
        // such a network imported, saved, and could not be opened again).
        if (name.size() > 120) {
            std::size_t cut = 120;
            while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
                --cut;
            name.resize(cut);
        }
        if (name == before && names.insert(name).second)
            return;
        std::string candidate = name;
        for (int &k = nextSuffix.try_emplace(name, 2).first->second; names.count(candidate); ++k)
            candidate = name + "_" + std::to_string(k);
        name = candidate;
        names.insert(name);
    };
    for (NetworkInput &in : network.inputs)
        unique(in.name);
    for (Layer &l : network.layers) {
        unique(l.name);
        fixUtf8(l.op);
        fixUtf8(l.function);
        std::map<std::string, std::string> attributes;
        for (const auto &entry : l.attributes) {
            std::string key = entry.first, value = entry.second;
            fixUtf8(key);
            fixUtf8(value);
            attributes[key] = value;
        }
        l.attributes = std::move(attributes);
    }
}

bool checkNetworkLimits(const Network &network, Diagnostics &diagnostics)
{
    const auto maxDim = std::int64_t(NetworkLimits::maxDimension);
    const auto maxCount = std::int64_t(NetworkLimits::maxCount);
    auto shapeOk = [&](const Shape &s) {
        return s.n >= 1 && s.c >= 1 && s.h >= 1 && s.w >= 1 && s.n <= maxDim && s.c <= maxDim && s.h <= maxDim
            && s.w <= maxDim;
    };
    for (const NetworkInput &in : network.inputs) {
        if (!shapeOk(in.shape) || in.name.empty() || in.name.size() > 128) {
            diagnostics.error("input \"" + in.name + "\"", "a name of 1 to 128 characters and sizes from 1 to "
                                                               + formatNumber(NetworkLimits::maxDimension) + " are supported, got "
                                                               + in.shape.toString());
            return false;
        }
    }
    for (std::size_t i = 0; i < network.layers.size(); ++i) {
        const Layer &l = network.layers[i];
        const std::string where = "layer \"" + l.name + "\"" + (l.op.empty() ? "" : " (" + l.op + ")");
        bool dimsOk = l.dims.size() <= 16;
        for (std::int64_t d : l.dims)
            dimsOk = dimsOk && d >= 0 && d <= maxDim;
        if (!shapeOk(l.output) || !dimsOk) {
            diagnostics.error(where, "output " + l.output.toString() + ": sizes from 1 to "
                                         + formatNumber(NetworkLimits::maxDimension) + " are supported");
            return false;
        }
        const LayerCounts c = countLayer(network, i);
        if (c.weights < 0 || c.biases < 0 || c.macs < 0 || c.weights > maxCount || c.biases > maxCount
            || c.macs > maxCount) {
            diagnostics.error(where, "its parameter or MAC count is above " + formatNumber(NetworkLimits::maxCount));
            return false;
        }
        const int maxKernel = int(NetworkLimits::maxKernel);
        if (l.kernelH > maxKernel || l.kernelW > maxKernel || l.strideH > maxKernel || l.strideW > maxKernel
            || l.padH > maxKernel || l.padW > maxKernel || l.dilationH > maxKernel || l.dilationW > maxKernel
            || l.lrnSize > maxKernel || l.lrnSize < 1 || l.outChannels > maxDim || l.groups > maxDim || l.heads > maxDim) {
            diagnostics.error(where, "kernel, stride, pad, dilation and size must be at most "
                                         + formatNumber(NetworkLimits::maxKernel)
                                         + "; channels, groups and heads at most "
                                         + formatNumber(NetworkLimits::maxDimension));
            return false;
        }
    }
    return true;
}

NetworkLoad loadAnyNetworkFile(const std::string &path, const ImportOptions &options)
{
    switch (networkFileKind(path)) {
    case NetworkFileKind::Onnx:
        return importOnnxFile(path, options);
    case NetworkFileKind::Caffe:
        return importCaffeFile(path, options);
    case NetworkFileKind::Json:
        break;
    }
    return loadNetworkFile(path);
}

} // namespace roofline::network
