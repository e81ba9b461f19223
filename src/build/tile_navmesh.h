// One tile's faces as the tagfile a game loads: hkaiNavMesh (faces, edges with mutual
// opposites, user edges after the regular edges, faceData, aabb grown by the margin) plus
// Elden Ring's query mediator (6-byte AABB tree) or Sekiro's cluster graph.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "build/binder_names.h"
#include "build/build_spec.h"
#include "build/tile_faces.h"
#include "formats/fromsoft/navmesh.h"

namespace navlab::build {

/// A user edge to add: owned by `face`, from `a` to `b` (new vertices, never corners of the
/// owner), with the user edge at index `partner` of the same list as its opposite (-1: none).
struct UserEdgeIn {
    int face = 0;
    std::array<float, 3> a{}, b{};
    int partner = -1;
    std::uint8_t flags = 20;
    std::uint32_t edgeData = 0;
};

/// The face of `tile` under `point`: its outline seen from above holds the point and its
/// plane passes within `max_dy` of it (the nearest such face). std::nullopt when none.
std::optional<int> face_under(const TileFaces& tile, const std::array<float, 3>& point, float max_dy);

/// The height of face `face`'s plane at (x, z) (its corners' mean height when vertical).
float face_height_at(const TileFaces& tile, int face, float x, float z);

/// Sekiro faces per cluster the page's counts give (279,053 faces, 20,803 nodes).
inline constexpr double kSekiroFacesPerCluster = 279053.0 / 20803.0;

/// Largest face count of an Elden Ring mesh: a tree leaf stores the face index in 23 bits.
inline constexpr std::size_t kMaxTreeFaces = 0x7FFFFF;

/// What a tile's mesh holds, for the field limits.
struct TileCounts {
    std::size_t faces = 0, edges = 0, vertices = 0;
};

/// Throws navlab::Error naming `label` with the count, the limit and a tile_size to try when
/// a count passes a field: Elden Ring faces above kMaxTreeFaces, edges or vertices above
/// int32.
void check_tile_limits(const TileCounts& counts, FromGame game, const BuildSpec& spec, const std::string& label);

/// Builds the tagfile of one tile.
/// @param label   "tile (tx, tz)" for error messages.
/// Throws navlab::Error (naming the tile and suggesting a smaller tile_size) when a count
/// passes a field's limit: faces above 2^23 − 1 (the tree's face index), clusters above int16.
/// `setups` (may be empty) become the tagfile's hkaiUserEdgeSetupArray.
fromsoft::NavTagfile make_tile_tagfile(const TileFaces& tile, FromGame game, const BuildSpec& spec,
                                       const std::vector<UserEdgeIn>& user_edges,
                                       const std::vector<fromsoft::UserEdgeSetup>& setups, const std::string& label);

/// The setup of a link from `from` to `to`: two boxes (rotation columns: x along the link on
/// the ground, y up, z across), translations at the two points, the float after the
/// translation 1 (Elden Ring) or 0 (Sekiro) as the page has them, costs = the distance,
/// direction 3 both ways / 1 one way, space 1, forceAlign 1, worldUp (0, 1, 0).
fromsoft::UserEdgeSetup link_setup(FromGame game, const std::array<float, 3>& from, const std::array<float, 3>& to,
                                   const std::array<float, 3>& halfExtents, bool both_ways);

/// Area seen from above of the tile's faces, m² (corners taken as stored).
double faces_area_from_above(const fromsoft::NavMesh& mesh);

}  // namespace navlab::build
