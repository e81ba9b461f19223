// Names of FromSoftware navmesh binders and their members (containers spec §2.9): the
// archive path of a map's binder, the build path each member is stored under, and the ids.
#pragma once

#include <cstdint>
#include <string>

namespace navlab::build {

enum class FromGame { Sekiro, EldenRing };

/// Whether `map` is a map name of the form mAA_BB_CC_DD (two digits each).
bool is_map_name(const std::string& map);

/// The binder's archive path: /map/mAA_BB_CC_DD/mAA_BB_CC_DD.nvmhktbnd.dcx (Sekiro),
/// /map/mAA/mAA_BB_CC_DD/mAA_BB_CC_DD.nvmhktbnd.dcx (Elden Ring).
std::string navmesh_archive_path(FromGame game, const std::string& map);

/// The member name FromSoftware's tools store: the build path of
/// `<prefix><map without m>_<model6>.hkx` under ...\map\<map>\navimesh\bind6\ (Elden Ring's
/// N:\GR\data\INTERROOT_win64 root; Sekiro's N:\NTC\data\Target\INTERROOT_win64, inferred).
/// @param prefix 'n' (hi-res) or 'o' (lo-res).
/// @param model  model number, 0..999999 (the tools number them 1000 + 100·k).
std::string navmesh_member_name(FromGame game, const std::string& map, char prefix, int model);

/// Model number of the k-th mesh of a binder: 1000 + 100·k (ER_HKX2Navmesh's scheme).
inline int navmesh_model_number(int k) { return 1000 + 100 * k; }

/// Member id of the k-th mesh: 10000 + k for 'n' members, 20000 + k for 'o' members.
inline std::int32_t navmesh_member_id(char prefix, int k) { return (prefix == 'o' ? 20000 : 10000) + k; }

}  // namespace navlab::build
