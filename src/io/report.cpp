#include "io/report.h"

#include <fmt/format.h>

namespace navlab {

void Report::add(Finding finding) {
    ++(finding.is_error() ? errors : warnings);
    if (findings.size() < limit) findings.push_back(std::move(finding));
}

std::string finding_text(const Finding& f) {
    std::string line = f.file + ": ";
    if (!f.member.empty()) line += f.member + ": ";
    if (f.offset != kNoOffset) line += "offset " + hex(f.offset) + ": ";
    if (!f.is_error()) line += "warning: ";
    if (!f.field.empty()) line += f.field + ": ";
    return line + f.message;
}

nlohmann::json finding_json(const Finding& f) {
    nlohmann::json j = {{"severity", f.is_error() ? "error" : "warning"},
                        {"file", f.file},
                        {"offset", f.offset == kNoOffset ? nlohmann::json(nullptr) : nlohmann::json(f.offset)},
                        {"message", f.message}};
    if (!f.member.empty()) j["member"] = f.member;
    if (!f.object.empty()) j["object"] = f.object;
    if (f.element >= 0) j["element"] = f.element;
    if (!f.field.empty()) j["field"] = f.field;
    return j;
}

std::string findings_text(const Report& report, std::size_t shown_warnings) {
    std::string out;
    std::size_t warnings = 0;
    for (const Finding& f : report.findings) {
        if (!f.is_error() && warnings++ >= shown_warnings) continue;
        out += finding_text(f) + "\n";
    }
    const std::size_t total = report.errors + report.warnings;
    if (report.findings.size() < total)
        out += fmt::format("({} more findings not stored)\n", total - report.findings.size());
    if (warnings > shown_warnings) out += fmt::format("({} more warnings; --all shows them)\n", warnings - shown_warnings);
    return out;
}

nlohmann::json findings_json(const Report& report) {
    nlohmann::json out = nlohmann::json::array();
    for (const Finding& f : report.findings) out.push_back(finding_json(f));
    return out;
}

}  // namespace navlab
