#include "session.h"

#include "io.h"
#include "network/io.h"
#include "../common/jsondocument.h"
#include "../common/jsonreader.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace roofline::brouwer {

using nlohmann::json;

namespace {

std::string trimmed(const std::string &s)
{
    const auto begin = s.find_first_not_of(" \t\r\n\f\v");
    if (begin == std::string::npos)
        return {};
    const auto end = s.find_last_not_of(" \t\r\n\f\v");
    return s.substr(begin, end - begin + 1);
}

// The errors of a file held in the session as text (the network, the device, a
// measured CSV), placed at `outer`: "s.json: /views/brouwer/network: /layers/3/kernel: reason".
void appendInner(Diagnostics &diags, const Diagnostics &inner, const std::string &outer)
{
    diags.append(inner, [&](Diagnostic &d) { d.pointer = d.pointer.empty() ? outer : outer + ": " + d.pointer; });
}

// A string member that must be there and not be empty; `what` says what it holds.
std::optional<std::string> requiredText(JsonObjectReader &reader, const std::string &key, const std::string &what,
                                        Diagnostics &diags)
{
    const json *value = reader.member(key, false);
    if (!value || (value->is_string() && value->get_ref<const std::string &>().empty())) {
        diags.error(reader.pointerTo(key), "required " + key + " (" + what + ") is missing");
        return std::nullopt;
    }
    if (!value->is_string()) {
        diags.error(reader.pointerTo(key), "expected a string (" + what + "), got " + jsonTypeName(*value));
        return std::nullopt;
    }
    return value->get<std::string>();
}

// A number member in [min, max]; `reason` is the message when it is not.
std::optional<double> requiredNumber(JsonObjectReader &reader, const std::string &key, double min, double max,
                                     const std::string &reason, Diagnostics &diags)
{
    const json *value = reader.member(key, false);
    const double v = value && value->is_number() ? value->get<double>() : NAN;
    if (!(v >= min) || !(v <= max)) { // NaN (missing, not a number) fails both
        diags.error(reader.pointerTo(key), reason);
        return std::nullopt;
    }
    return v;
}

// One state (the current one or a snapshot's) at o.pointer(); the keys it does
// not know are left for the caller's finish().
std::optional<SessionState> readState(JsonObjectReader &o, const std::string &sessionFile, Diagnostics &diags)
{
    const std::size_t errorsBefore = diags.errorCount();
    SessionState s;

    if (std::optional<std::string> text = requiredText(o, "network", "our JSON, as a string", diags)) {
        network::NetworkLoad net = network::parseNetwork(*text, sessionFile);
        if (!net.network)
            appendInner(diags, net.diagnostics, o.pointerTo("network"));
        else if (net.network->layers.empty())
            diags.error(o.pointerTo("network"), "the network has no layers");
        else
            s.network = std::move(*net.network);
    }
    s.networkName = o.optionalString("network_name").value_or("");
    if (s.networkName.empty())
        s.networkName = s.network.name;
    s.networkPath = o.optionalString("network_path").value_or("");

    if (std::optional<std::string> text = requiredText(o, "device", "a brouwer device file, as a string", diags)) {
        DeviceLoad dev = parseDevice(*text, sessionFile);
        if (!dev.device)
            appendInner(diags, dev.diagnostics, o.pointerTo("device"));
        else
            s.device = std::move(*dev.device);
    }
    s.devicePath = o.optionalString("device_path").value_or("");

    // The slider's range, with the slack its logarithmic steps need.
    if (auto v = requiredNumber(o, "available_bytes", SessionRanges::minMemory * 0.999, SessionRanges::maxMemory * 1.001,
                                "must be a number of bytes from 16 MiB to 16 GiB", diags))
        s.params.availableBytes = *v;
    if (auto v = requiredNumber(o, "bytes_per_element", SessionRanges::minBytesPerElement,
                                SessionRanges::maxBytesPerElement, "must be a number from 0.125 to 64", diags))
        s.params.bytesPerElement = *v;
    s.smeared = o.optionalBool("smeared").value_or(false);

    if (const json *files = o.member("measurements", false)) {
        if (!files->is_array()) {
            diags.error(o.pointerTo("measurements"), "expected an array of {path, text}, got " + jsonTypeName(*files));
        } else {
            for (std::size_t i = 0; i < files->size(); ++i) {
                JsonObjectReader f((*files)[i], o.pointerTo("measurements") + "/" + std::to_string(i), diags);
                const std::string path = f.string("path").value_or("");
                const std::optional<std::string> text = f.string("text");
                f.finish();
                if (!text)
                    continue;
                MeasuredLoad load = parseMeasuredCsv(*text, sessionFile);
                if (load.diagnostics.hasErrors()) {
                    appendInner(diags, load.diagnostics, f.pointer() + " (" + path + ")");
                    continue;
                }
                s.measuredRows.insert(s.measuredRows.end(), load.rows.begin(), load.rows.end());
                s.measuredFiles.push_back({path, *text});
            }
        }
    }
    if (diags.errorCount() != errorsBefore)
        return std::nullopt;
    return s;
}

} // namespace

SessionPartLoad parseSessionPart(const json &state, const std::string &sessionFile, const std::string &where)
{
    SessionPartLoad out;
    Diagnostics &diags = out.diagnostics;
    diags.setFile(sessionFile);
    JsonObjectReader top(state, where, diags);
    if (!top.isObject())
        return out;
    SessionPart part;
    std::optional<SessionState> current = readState(top, sessionFile, diags);

    std::size_t snapshotCount = 0; // entries in the list, good or not
    if (const json *list = top.member("snapshots", false)) {
        if (!list->is_array()) {
            diags.error(top.pointerTo("snapshots"), "expected an array, got " + jsonTypeName(*list));
        } else {
            snapshotCount = list->size();
            for (std::size_t i = 0; i < list->size(); ++i) {
                JsonObjectReader entry((*list)[i], top.pointerTo("snapshots") + "/" + std::to_string(i), diags);
                if (!entry.isObject())
                    continue;
                std::optional<std::string> name = entry.string("name");
                if (name && trimmed(*name).empty())
                    diags.error(entry.pointerTo("name"), "expected a non-empty name");
                if (const json *pinned = entry.member("state", true)) {
                    JsonObjectReader reader(*pinned, entry.pointerTo("state"), diags);
                    if (reader.isObject()) {
                        std::optional<SessionState> s = readState(reader, sessionFile, diags);
                        reader.finish();
                        if (s && name)
                            part.snapshots.push_back({trimmed(*name), std::move(*s)});
                    }
                }
                entry.finish();
            }
        }
    }
    if (const json *compared = top.member("compared", false)) {
        const double c = compared->is_number() ? compared->get<double>() : NAN;
        if (!(c >= -1) || !(c < double(snapshotCount)) || c != std::floor(c))
            diags.error(top.pointerTo("compared"), "expected -1 or a snapshot index below " + std::to_string(snapshotCount));
        else
            part.compared = int(c);
    }
    part.modified = top.optionalBool("modified").value_or(false);
    top.member("view", false); // the tabs shown: the studio's, ignored when nonsense
    top.finish();
    if (!current || diags.hasErrors())
        return out;
    part.current = std::move(*current);
    out.part = std::move(part);
    return out;
}

SessionPartLoad parseSessionPartText(const std::string &text, const std::string &sessionFile, const std::string &where)
{
    SessionPartLoad out;
    out.diagnostics.setFile(sessionFile);
    json state;
    Diagnostics parsed;
    if (!parseJsonText(text, state, parsed)) {
        // Pointers into the text are pointers under `where` in the session.
        out.diagnostics.append(parsed, [&](Diagnostic &d) {
            if (!d.pointer.empty() && d.pointer.front() == '/')
                d.pointer = where + d.pointer;
        });
        return out;
    }
    return parseSessionPart(state, sessionFile, where);
}

} // namespace roofline::brouwer
