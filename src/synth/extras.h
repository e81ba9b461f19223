// What each game adds to the shaped mesh: Sekiro's face clusters, Elden Ring's user edges,
// and the user-edge setup arrays both games carry.
#pragma once

#include <vector>

#include "formats/fromsoft/navmesh.h"
#include "synth/rng.h"
#include "synth/style.h"

namespace navlab::synth {

/// Assigns every face a clusterIndex: contiguous patches (grown across opposite edges) of
/// about `mean_size` faces, numbered from 0 in face order with every number used. Returns the
/// cluster count.
int assign_clusters(fromsoft::NavMesh& mesh, double mean_size, Rng& rng);

/// Appends `count` user edges (fewer only when no face pair is found) after the regular
/// ones: links from a face to a face elsewhere, mostly in mutual pairs with flags 20 or 52, a
/// few one-sided with flags 52; edgeData low byte 2, 4, 18 or 20 with a second byte. Their
/// endpoints are new vertices placed at the other face's corners (so never corners of the
/// owner); the two edges of a pair share their two vertices, or have two each with
/// probability `separate_ends_share`. Each face's user edges are contiguous; the faces' blocks
/// follow face order only when `in_face_order`. Faces own at most 56.
void add_user_edges(fromsoft::NavMesh& mesh, int count, bool in_face_order, double separate_ends_share, Rng& rng);

/// `count` user-edge setups for a mesh with box `aabb`: orthonormal rotation columns,
/// worldUpA (0, 1, 0), forceAlign 1, direction 1 or 3, space 1 (Sekiro) or 0/1 (Elden Ring);
/// Sekiro boxes keep stale column padding and a 0 after the translation, Elden Ring boxes the
/// reverse.
std::vector<fromsoft::UserEdgeSetup> make_user_edge_setups(Game game, const fromsoft::Aabb& aabb, int count,
                                                           Rng& rng);

}  // namespace navlab::synth
