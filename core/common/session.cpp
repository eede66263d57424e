#include "session.h"

#include "jsondocument.h"
#include "jsonreader.h"

#include <algorithm>

namespace roofline {

SessionLoad parseSession(const std::string &text, const std::string &fileLabel, const std::vector<std::string> &viewKeys)
{
    SessionLoad out;
    Diagnostics &diags = out.diagnostics;
    JsonModelFile file(text, fileLabel, kSessionFormatId, kSessionFormatVersion, diags);
    if (!file.isOpen()) {
        if (!diags.hasErrors())
            diags.error("", "expected a JSON object (a session file), got " + jsonTypeName(file.root()));
        return out;
    }
    JsonObjectReader &top = file.top();
    Session session;
    session.appVersion = top.optionalString("app_version").value_or("");
    session.current = top.optionalString("current").value_or("");
    if (const nlohmann::json *views = top.member("views", true)) {
        if (!views->is_object()) {
            diags.error("/views", "expected an object keyed by view, got " + jsonTypeName(*views));
        } else {
            for (const auto &[key, state] : views->items()) {
                const std::string where = "/views/" + jsonPointerToken(key);
                if (std::find(viewKeys.begin(), viewKeys.end(), key) == viewKeys.end()) {
                    std::string known;
                    for (const std::string &k : viewKeys)
                        known += (known.empty() ? "" : ", ") + k;
                    diags.error(where, "unknown view; this build has " + known);
                } else if (!state.is_object()) {
                    diags.error(where, "expected the view's state (an object), got " + jsonTypeName(state));
                } else {
                    session.views.emplace_back(key, state);
                }
            }
        }
    }
    if (!session.current.empty()
        && std::find(viewKeys.begin(), viewKeys.end(), session.current) == viewKeys.end())
        diags.error("/current", "unknown view \"" + session.current + "\"");
    top.finish();
    if (!diags.hasErrors())
        out.session = std::move(session);
    return out;
}

SessionLoad loadSessionFile(const std::string &path, const std::vector<std::string> &viewKeys)
{
    SessionLoad out;
    std::string text;
    if (!readTextFile(path, text, out.diagnostics))
        return out;
    return parseSession(text, path, viewKeys);
}

} // namespace roofline
