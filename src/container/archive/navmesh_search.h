// Finding files in an opened install without a name list (spec bhd5.md §6): the navmesh
// binders are found by hashing every candidate map id of the §6.2 rule and keeping the hashes
// the archives hold; a Sekiro hit (32-bit hashes, false hits possible) also needs its
// /map/mapstudio/<id>.msb.dcx sibling in the same archive. Names from a list file (one
// path per line) are resolved the same way.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "container/archive/game_install.h"

namespace navlab::archive {

/// A file of the install whose path is known.
struct NamedEntry {
    std::string path;    ///< normalised ("/map/m10/m10_00_00_00/m10_00_00_00.nvmhktbnd.dcx")
    std::string mapId;   ///< "m10_00_00_00" for navmesh binders and their siblings, else ""
    EntryRef ref;
};

/// The map ids the §6.2 rule tries: Elden Ring 129,800 (mAA_BB_00_00, and for AA 60/61 every
/// CC with DD in 00/01/02/10/11/12), Sekiro 20,000 (mAA_BB_00_00 and mAA_BB_00_99).
std::vector<std::string> navmesh_candidate_ids(Game game);

/// Archive paths of a map id's binder and siblings, in the game's layout
/// (Elden Ring /map/mAA/<id>/..., Sekiro /map/<id>/...).
std::string navmesh_binder_path(Game game, std::string_view mapId);
std::string navmesh_nva_path(Game game, std::string_view mapId);
std::string msb_path(std::string_view mapId);

/// The navmesh binders of the install, sorted by map id then archive. A binder path present in
/// several archives is listed once per archive.
std::vector<NamedEntry> find_navmesh_binders(const GameInstall& install);

/// The .msb.dcx and .nva.dcx siblings of `binders` that the archives hold (same archive).
std::vector<NamedEntry> find_navmesh_siblings(const GameInstall& install, const std::vector<NamedEntry>& binders);

/// Resolves `paths` (any spelling §3 normalises) against the install; paths it does not
/// hold are left out.
std::vector<NamedEntry> resolve_paths(const GameInstall& install, const std::vector<std::string>& paths);

/// Reads a name list: one path per line; blank lines and lines starting with '#' are skipped.
std::vector<std::string> read_name_list(const std::filesystem::path& file);

}  // namespace navlab::archive
