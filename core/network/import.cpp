// Opening any network file: our JSON, ONNX or Caffe, by suffix.
#include "import.h"

#include <algorithm>
#include <cctype>

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
