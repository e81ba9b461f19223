// The game-install source of `navlab audit --game-dir`: every navmesh binder found in the
// archives (spec bhd5.md §6.2) is read straight from its .bdt, decompressed and audited in
// memory; nothing is written. Kept apart from the audit driver so it can call it as one
// more source of binders.
#pragma once

#include <string>
#include <vector>

#include "audit/audit.h"
#include "cli/game_dir_options.h"

namespace navlab::cli {

/// Audits the navmesh binders of an install, binders in map-id order (the order an unpacked
/// folder's sorted paths give), tagfiles in binder order. A binder is named
/// "<stem>:<archive path>" ("data2:/map/m10/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx"); one
/// that does not read is one unreadable tagfile (R02), as for files on disk.
/// @param examples first exceptions kept per rule.
std::vector<audit::TagfileAudit> audit_game_dir(const GameDirOptions& o, std::size_t examples);

/// The name audit_game_dir gives a binder of archive `stem` at `path`.
std::string archive_binder_name(const std::string& stem, const std::string& path);

}  // namespace navlab::cli
