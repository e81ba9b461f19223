// Supplementary counters X01–X13 of audit-rules.md §7: figures that are not page rules,
// reported beside them and never failed.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "audit/audit_context.h"

namespace navlab::audit {

/// The counters' ids, in key order (X07 and X12 are not computed): a tagfile's counters are
/// Values at these indices (TagfileAudit::supplementary), the report's keyed by these ids.
inline constexpr std::array<const char*, 11> kSupplementaryIds = {"X01", "X02", "X03", "X04", "X05", "X06",
                                                                  "X08", "X09", "X10", "X11", "X13"};

/// X03's place in kSupplementaryIds: its counts are TagfileAudit::classes, not Values.
inline constexpr std::size_t kClassCountsCounter = 2;
static_assert(kSupplementaryIds[kClassCountsCounter][2] == '3');

/// The counters of one tagfile into `into`, resized to kSupplementaryIds.size() and indexed as
/// it. Its Values must hold no value (new, or emptied by Values::clear: the thread's earlier
/// tagfile's arrays are filled again in their room).
void supplementary_counters(const TagfileContext& ctx, std::vector<Values>& into);

/// The longest class list a thread keeps for its next tagfiles (names_of), and the largest
/// count array it keeps the room of (~TagfileAudit): a preset's tagfiles have about 6 classes.
inline constexpr std::size_t kKeptClassNames = 64;

/// X03 of one tagfile: its objects per class into `into` (its counts emptied first). The names
/// are the list of the thread's last tagfile when its classes are the same, else a new list.
void class_counts(const TagfileContext& ctx, ClassCounts& into);

}  // namespace navlab::audit
