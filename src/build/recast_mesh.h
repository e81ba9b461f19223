// Recast, used for real: a scene's triangle soup is voxelised, filtered, eroded, split into
// regions, traced into contours and turned into a polygon mesh (at most 6 corners a
// polygon); the detail mesh then gives the heights, and its triangles (corners, edge samples
// and interior samples) are the base the Havok faces are merged from. Havok meshes keep
// interior vertices, Recast polygons do not, so the triangles are the closer start.
//
// Two entry points: the whole scene as one heightfield (synth's library tiles), and one tile
// of a grid with Recast's border (navlab build), whose polygons stop exactly on the tile's
// edges so that neighbouring tiles meet on the same lines.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "build/triangle_soup.h"

namespace navlab::build {

/// Recast build settings (Recast's own units: cells for the voxel grid, metres elsewhere).
struct RecastParams {
    float cell_size = 0.4f;         ///< voxel size on x and z
    float cell_height = 0.2f;       ///< voxel size on y
    float agent_height = 2.0f;
    float agent_radius = 0.4f;
    float agent_climb = 0.45f;
    float max_slope_degrees = 45;
    float max_edge_length = 8;       ///< longest contour edge, metres
    float maxSimplificationError = 1.1f;
    int min_region_cells = 16;       ///< smaller islands are dropped
    int merge_region_cells = 200;
    float detail_sample_distance = 2.5f;
    float detail_max_error = 0.2f;
};

/// An area a volume marks before the regions are built (rcMarkConvexPolyArea): a convex
/// polygon on x/z (counter-clockwise or clockwise) extruded from y_min to y_max. Polygons never
/// straddle a volume's border, so each carries one area id.
struct AreaPrism {
    std::vector<std::array<float, 2>> xz;  ///< convex outline, x and z, 3 or more corners
    float y_min = 0, y_max = 0;
    std::uint8_t area = 1;                 ///< Recast area id, 1..62 (63 is plain walkable)
};

/// Recast's own area id of walkable cells no volume marked.
inline constexpr std::uint8_t kWalkableArea = 63;

/// One tile of a grid: its own x/z rectangle (metres), the scene's height range, and the
/// border Recast voxelises around it so that erosion and regions agree with the neighbours.
struct TileBox {
    float min_x = 0, min_z = 0, max_x = 0, max_z = 0;
    float min_y = 0, max_y = 0;
    int border_cells = 0;
};

/// A mesh in world coordinates: polygons (here the welded detail triangles) are rings of
/// vertex indices, wound counter-clockwise seen from +y (as Havok wants), each tagged with
/// the Recast region, area and polygon it came from.
struct PolyMesh {
    std::vector<std::array<float, 3>> verts;
    std::vector<std::vector<int>> polys;
    std::vector<std::uint16_t> regions;
    std::vector<std::uint8_t> areas;       ///< Recast area id of the source polygon
    std::vector<int> source_polys;          ///< index of the source polygon in Recast's mesh
    int recast_polygons = 0;                ///< polygons in Recast's rcPolyMesh
    double recast_area = 0;                 ///< area of those polygons seen from above, m²
};

/// Runs the whole Recast pipeline on `scene` as one heightfield. Throws navlab::Error when a
/// Recast step fails.
PolyMesh build_recast_mesh(const TriangleSoup& scene, const RecastParams& params);

/// Runs Recast on one tile: the heightfield covers the tile grown by its border on x/z and
/// the tile's height range; the polygons are cut at the tile's edges. Only the triangles
/// `tris` (indices into scene.tris / 3) are rasterised. `volumes` mark areas after erosion.
/// Throws navlab::Error when a Recast step fails.
PolyMesh build_recast_tile(const TriangleSoup& scene, std::span<const int> tris, const RecastParams& params,
                           const TileBox& tile, const std::vector<AreaPrism>& volumes);

}  // namespace navlab::build
