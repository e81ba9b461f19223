// The one report model for checks: a list of Findings (io/error.h) with their counts, and one
// text and one JSON printer for them. `fc2 check` prints through it; new checks (queries,
// build, bindings) should too. The audit keeps its own rule-table report (audit_report.h) for
// now; its per-rule examples map onto Finding (member = entry, element = index, message) so it
// can adopt this model when its printer is next changed.
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

/// One line: "FILE: [MEMBER: ][offset 0x..: ][warning: ][FIELD: ]MESSAGE" (parts that are empty
/// are left out).
std::string finding_text(const Finding& finding);

/// {"severity": "error"|"warning", "file", "offset" (null when unknown), "message"}, plus
/// "member", "object", "element" and "field" when set.
nlohmann::json finding_json(const Finding& finding);

/// The stored findings as text lines, warnings after the first `shown_warnings` left out, then a
/// note for findings not stored and one for warnings left out ("--all shows them").
std::string findings_text(const Report& report, std::size_t shown_warnings);

/// The stored findings as a JSON array of finding_json().
nlohmann::json findings_json(const Report& report);

}  // namespace navlab
