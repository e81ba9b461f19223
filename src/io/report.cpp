#include "io/report.h"

#include <fmt/format.h>

#include "io/text.h"

namespace navlab {

void Report::add(Finding finding) {
    ++(finding.is_error() ? errors : warnings);
    if (findings.size() < limit) findings.push_back(std::move(finding));
}

std::string finding_text(const Finding& f, const FindingStyle& style) {
    std::string line;
    if (!f.file.empty()) line += f.file + ": ";
    if (!f.member.empty()) line += escape_non_utf8(f.member) + ": ";  // an entry name is the file's bytes
    const char* label = f.is_error() ? "" : "warning: ";
    if (style.label_first) line += label;
    if (f.offset != kNoOffset) line += "offset " + hex(f.offset) + ": ";
    if (!style.label_first) line += label;
    if (!f.field.empty()) line += f.field + ": ";
    return line + f.message;
}

namespace {

/// One key of a finding as JSON; `raw_offset` prints an unknown offset as its value.
nlohmann::ordered_json key_json(const Finding& f, std::string_view key, bool raw_offset) {
    if (key == "severity") return f.is_error() ? "error" : "warning";
    if (key == "file") return f.file;
    if (key == "offset") return f.offset == kNoOffset && !raw_offset ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(f.offset);
    if (key == "message") return f.message;
    if (key == "member") return f.member;
    if (key == "member_index") return f.member_index;
    if (key == "object") return f.object;
    if (key == "element_kind") return f.element_kind;
    if (key == "element") return f.element;
    if (key == "field") return f.field;
    throw std::logic_error("finding_json: unknown key " + std::string(key));
}

}  // namespace

nlohmann::ordered_json finding_json(const Finding& f, const FindingStyle& style) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    if (!style.json_keys.empty()) {
        for (const std::string& key : style.json_keys) j[key] = key_json(f, key, true);
        return j;
    }
    for (const char* key : {"severity", "file", "offset", "message"}) j[key] = key_json(f, key, false);
    if (!f.member.empty()) j["member"] = f.member;
    if (f.member_index >= 0) j["member_index"] = f.member_index;
    if (!f.object.empty()) j["object"] = f.object;
    if (!f.element_kind.empty()) j["element_kind"] = f.element_kind;
    if (f.element >= 0) j["element"] = f.element;
    if (!f.field.empty()) j["field"] = f.field;
    return j;
}

std::string findings_text(const Report& report, std::size_t shown_warnings, const FindingStyle& style) {
    std::string out;
    std::size_t warnings = 0;
    for (const Finding& f : report.findings) {
        if (!f.is_error() && warnings++ >= shown_warnings) continue;
        out += finding_text(f, style) + "\n";
    }
    const std::size_t total = report.errors + report.warnings;
    if (report.findings.size() < total)
        out += fmt::format("({} more findings not stored)\n", total - report.findings.size());
    if (warnings > shown_warnings) out += fmt::format("({} more warnings; --all shows them)\n", warnings - shown_warnings);
    return out;
}

nlohmann::ordered_json findings_json(const Report& report, const FindingStyle& style) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Finding& f : report.findings) out.push_back(finding_json(f, style));
    return out;
}

}  // namespace navlab
