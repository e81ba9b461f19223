// The one report model for checks: a list of Findings (io/error.h) with their counts, and one
// text and one JSON printer for them. `fc2 check`, `igi check`, `hkx check` and `export` print
// through it; new checks (queries, build, bindings) should too. The audit keeps its per-rule
// examples as Findings inside its rule table (audit/audit_report.h prints that table).
//
// A FindingStyle lets a command keep the line and key shapes its users already parse (the
// guard tests tests/*/test_report_bytes.cpp pin them); new commands use the default.
#pragma once

#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/error.h"

namespace navlab {

/// Findings of a check. Stores at most `limit` findings but counts all of them.
struct Report {
    std::vector<Finding> findings;
    std::size_t errors = 0, warnings = 0;  ///< all findings, including those not stored
    std::size_t limit = std::numeric_limits<std::size_t>::max();

    bool ok() const noexcept { return errors == 0; }
    /// Counts `finding` and stores it while fewer than `limit` are stored.
    void add(Finding finding);
};

/// How finding_text and finding_json shape a finding. The default is the model's shape.
struct FindingStyle {
    /// The "warning: " label before the offset ("warning: offset 0x10: …", as `igi check` and
    /// `hkx check` print) instead of after it ("offset 0x10: warning: …").
    bool label_first = false;
    /// JSON keys to print, in this order and always present (names as finding_json uses them;
    /// an unknown offset is then printed as its raw value). Empty: finding_json's full object.
    std::vector<std::string> json_keys;
};

/// One line: "[FILE: ][MEMBER: ][offset 0x..: ][warning: ][FIELD: ]MESSAGE" (parts that are
/// empty are left out; `style.label_first` moves "warning: " before the offset).
std::string finding_text(const Finding& finding, const FindingStyle& style = {});

/// {"severity": "error"|"warning", "file", "offset" (null when unknown), "message"}, plus
/// "member", "member_index", "object", "element_kind", "element" and "field" when set; or only `style.json_keys`, in order.
nlohmann::ordered_json finding_json(const Finding& finding, const FindingStyle& style = {});

/// The stored findings as text lines, warnings after the first `shown_warnings` left out, then a
/// note for findings not stored and one for warnings left out ("--all shows them").
std::string findings_text(const Report& report, std::size_t shown_warnings, const FindingStyle& style = {});

/// The stored findings as a JSON array of finding_json().
nlohmann::ordered_json findings_json(const Report& report, const FindingStyle& style = {});

}  // namespace navlab
