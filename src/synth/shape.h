// From a Recast polygon mesh to a Havok-shaped hkaiNavMesh: a contiguous piece of a library
// tile is cut out, neighbouring polygons are merged (some faces become non-convex seen from
// above), corners are pushed off their face's plane, a few faces are turned clockwise or made
// degenerate, and the faces, edges (with mutual opposites), vertices, faceData and aabb are
// laid out as the navmesh page describes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/fromsoft/navmesh.h"
#include "build/recast_mesh.h"
#include "synth/rng.h"
#include "synth/style.h"

namespace navlab::synth {

using build::build_recast_mesh;
using build::PolyMesh;
using build::RecastParams;

/// A Recast polygon mesh kept for reuse, with each polygon's neighbours across shared edges.
struct LibraryTile {
    PolyMesh mesh;
    std::vector<std::vector<int>> neighbours;
};

/// Precomputes the polygon adjacency of `mesh` (polygons sharing an edge).
LibraryTile make_library_tile(PolyMesh mesh);

/// One mesh to make from a library tile.
struct MeshRecipe {
    int faces = 0;                          ///< exact face count of the result (> 0)
    std::uint64_t seed = 0;
    std::array<float, 3> offset{};          ///< world placement of the tile
    int quarter_turns = 0;                   ///< rotation about +y, 90 degrees each
};

/// Shapes one hkaiNavMesh with `recipe.faces` faces (fewer only when the tile is too small)
/// in the style of `style`. Faces carry no clusters and no user edges yet (see extras.h).
fromsoft::NavMesh shape_navmesh(const LibraryTile& tile, const MeshRecipe& recipe, const GameStyle& style);

/// The aabb of a mesh: vertex bounds grown by `margin` (float bits), larger on some lanes
/// unless `exact`; the w lanes hold -margin and +margin.
fromsoft::Aabb mesh_aabb(const fromsoft::NavMesh& mesh, std::uint32_t margin_bits, bool exact, Rng& rng);

/// Largest distance of a face's corners from its mean plane (Newell normal through the
/// corner centroid), metres; 0 for a face without a normal.
double face_off_plane(const fromsoft::NavMesh& mesh, int face);

}  // namespace navlab::synth
