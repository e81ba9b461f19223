// The audit's output: the text report of audit-rules.md §3–§4 and the JSON report of §9.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "audit/audit.h"

namespace navlab::audit {

/// How much of the report the text shows.
enum class TextDetail {
    Short,  ///< the summary table, the rules with exceptions, then "N rules passed"
    All,    ///< every rule, then the supplementary counters (`navlab audit --all`)
};

/// The text report: the summary table, then each rule shown with its counts, values and first
/// exceptions (for Short, only the rules that failed or found exceptions).
std::string format_audit_text(const AuditReport& report, TextDetail detail = TextDetail::Short);

/// The JSON report ("format": "navlab-audit/1").
nlohmann::ordered_json audit_json(const AuditReport& report);

}  // namespace navlab::audit
