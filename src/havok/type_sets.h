// Type sets embedded in the tool for writing tagfiles from scratch. They are generated from the
// specification's data tables by tools/gen_havok_types.py (committed output: type_sets_2018.cpp).
#pragma once

#include "havok/types.h"

namespace navlab::havok {

/// The 149 Havok 2018.1 (SDK 20180100) types of the navmesh closure (hkRootLevelContainer,
/// hkaiNavMesh, hkaiStaticTreeNavMeshQueryMediator, hkaiUserEdgeSetupArray,
/// hkaiDirectedGraphExplicitCost, char) with their TBDY records and THSH hashes, from
/// havok2018-navmesh-types.txt. Resolved (TypeTable::resolve() done).
TypeTable navmesh_types_2018();

}  // namespace navlab::havok
