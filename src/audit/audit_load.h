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
/// tagfile the thread audited, up to ≈ 2.9 MB on the eldenring preset. An audit worker calls
/// it before it decompresses a binder, the moment of its peak memory: there the storage would
/// sit idle beside the payload being written (with two workers, beside two payloads).
void release_kept_storage();

}  // namespace navlab::audit
