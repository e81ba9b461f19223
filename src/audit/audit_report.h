// The audit's output: the text report of audit-rules.md §3–§4 and the JSON report of §9.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "audit/audit.h"

namespace navlab::audit {

/// The text report: summary table, one line per rule, first exceptions under each rule.
std::string format_audit_text(const AuditReport& report);

/// The JSON report ("format": "navlab-audit/1").
nlohmann::ordered_json audit_json(const AuditReport& report);

}  // namespace navlab::audit
