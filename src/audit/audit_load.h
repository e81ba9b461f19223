// Turning one tagfile's bytes into an AuditTagfile: the strict read (R02: a failure is kept
// as the tagfile's read error, not thrown), the TAG0 check of R96 and the SDKV even when the
// rest of the file does not read.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "audit/audit_input.h"

namespace navlab::audit {

/// @param bytes       the whole tagfile.
/// @param binder      the binder path, or empty for a loose tagfile.
/// @param entry       the member name (or the file name).
/// @param entry_index the member index in the binder, when in a binder.
/// @param dcx_payload `bytes` are a compressed file's whole payload: a read error's field path
///                    then starts with "DCX payload" (its offset is the payload's).
AuditTagfile load_audit_tagfile(std::span<const std::uint8_t> bytes, std::string binder, std::string entry,
                                std::optional<std::size_t> entry_index, bool dcx_payload = false);

/// Frees what this thread keeps from one tagfile's audit for the next (the recycled model's
/// arrays, fromsoft::release_recycled_storage, and the context's): sized for the largest
/// tagfile the thread audited, up to ≈ 2.9 MB on the eldenring preset. bench_corpus calls it
/// before it measures an audit's own peak. Audit workers do not call it: freed before each
/// binder it lowered the two-worker peak by ≈ 0.2× the payload but cost ≈ 4 % of the audit's
/// CPU in refaults (docs/audit.md, "Forty-fifth session: the two-worker audit's own peak");
/// they free only the large arrays (release_large_kept_storage).
void release_kept_storage();

/// release_kept_storage for the arrays whose capacity takes at least `min_bytes` only. The
/// audit's workers call it before they decompress a binder, with kKeptArraysFreedFrom
/// (audit_files.cpp): the largest arrays, sized by Elden Ring's large tagfiles, go; the small
/// ones, which every tagfile regrows, stay (docs/audit.md, "Forty-seventh session").
void release_large_kept_storage(std::size_t min_bytes);

}  // namespace navlab::audit
