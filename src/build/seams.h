// Tile seams: each tile is its own hkaiNavMesh, and a runtime stitcher joins neighbours by
// their border edges, so the vertices on a tile line must be the same points on both sides.
// Recast cuts every tile's polygons on the same grid lines, but each tile simplifies its
// contours and samples its detail heights on its own: a border vertex may exist on one side
// only, or sit a few millimetres higher on the other. Stitching makes both sides agree:
// matching border vertices take the lower tile's coordinates, and each side's border edges
// are split at the other side's remaining border vertices.
#pragma once

#include <vector>

#include "build/tile_faces.h"

namespace navlab::build {

/// The tile grid: tile (tx, tz) covers [line_x(tx), line_x(tx+1)] x [line_z(tz), line_z(tz+1)].
struct TileGrid {
    double origin_x = 0, origin_z = 0;  ///< scene minimum on x and z
    double tile_size = 0;              ///< metres
    int cols = 0, rows = 0;

    /// The x of vertical grid line k, as every tile stores it (one float for all).
    float line_x(int k) const { return static_cast<float>(origin_x + k * tile_size); }
    float line_z(int k) const { return static_cast<float>(origin_z + k * tile_size); }
    std::size_t index(int tx, int tz) const { return static_cast<std::size_t>(tz) * cols + tx; }
};

/// Moves the vertices of `tile` lying within `tolerance` of its four grid lines exactly onto
/// them (Recast computes each tile's coordinates from its own origin).
void snap_to_tile_lines(TileFaces& tile, const TileGrid& grid, float tolerance);

/// What stitching did and found.
struct SeamReport {
    int seam_edges = 0;        ///< border-edge pairs whose two endpoints coincide exactly
    int unmatched_edges = 0;   ///< border edges on an inner grid line with no partner
    int moved_vertices = 0;    ///< border vertices given the neighbour's coordinates
    int inserted_vertices = 0; ///< corners added to split a border edge
};

/// Stitches every inner grid line. `tiles` is indexed by grid.index(tx, tz) (empty tiles
/// have no rings). `height_tolerance`: how far apart two border vertices may be in y and
/// still be the same point (layers of a multi-storey seam are farther apart). Deterministic.
SeamReport stitch_seams(std::vector<TileFaces>& tiles, const TileGrid& grid, float height_tolerance);

/// Counts the seam edges of finished tiles (as stitch_seams reports them), for checking.
SeamReport count_seam_edges(const std::vector<TileFaces>& tiles, const TileGrid& grid);

}  // namespace navlab::build
