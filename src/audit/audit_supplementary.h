// Supplementary counters X01–X13 of audit-rules.md §7: figures that are not page rules,
// reported beside them and never failed.
#pragma once

#include <map>
#include <string>

#include "audit/audit_context.h"

namespace navlab::audit {

/// The counters of one tagfile, keyed "X01" … (X07 and X12 are not computed).
std::map<std::string, Values> supplementary_counters(const TagfileContext& ctx);

}  // namespace navlab::audit
