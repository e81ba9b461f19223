// Seam stitching on hand-made tiles whose border vertices disagree (the Recast scenes of the
// other tests already agree, so this is where the repair itself is checked).
#include <gtest/gtest.h>

#include "build/seams.h"

using namespace navlab::build;

TEST(Seams, MismatchedBorderIsStitched) {
    TileGrid grid;
    grid.tile_size = 1, grid.cols = 2, grid.rows = 1;
    std::vector<TileFaces> tiles(2);
    // Tile (0, 0): the unit square, counter-clockwise from +y; its border edge on x = 1 runs
    // from z 1 to z 0.
    tiles[0].verts = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}};
    tiles[0].rings = {{0, 1, 2, 3}};
    tiles[0].areas = {63};
    // Tile (1, 0): a border vertex at z 0.5 that tile 0 lacks, and its corner (1, 1) 1 mm high.
    tiles[1].tx = 1;
    tiles[1].verts = {{1, 0, 0}, {1, 0, 0.5f}, {1, 0.001f, 1}, {2, 0, 1}, {2, 0, 0}};
    tiles[1].rings = {{0, 1, 2, 3, 4}};
    tiles[1].areas = {63};
    EXPECT_EQ(count_seam_edges(tiles, grid).seam_edges, 0);

    const SeamReport r = stitch_seams(tiles, grid, 0.45f);
    EXPECT_EQ(r.moved_vertices, 1);
    EXPECT_EQ(r.inserted_vertices, 1);
    EXPECT_EQ(r.seam_edges, 2);
    EXPECT_EQ(r.unmatched_edges, 0);
    ASSERT_EQ(tiles[0].rings[0].size(), 5u);
    EXPECT_EQ(tiles[0].verts[tiles[0].rings[0][3]], (std::array<float, 3>{1, 0, 0.5f}));  // between (1,1) and (1,0)
    EXPECT_EQ(tiles[1].verts[2], (std::array<float, 3>{1, 0, 1}));
}

TEST(Seams, LayersFarApartStayApart) {
    TileGrid grid;
    grid.tile_size = 1, grid.cols = 2, grid.rows = 1;
    std::vector<TileFaces> tiles(2);
    tiles[0].verts = {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}};
    tiles[0].rings = {{0, 1, 2, 3}};
    tiles[0].areas = {63};
    // A deck 4 m up on the other side: nothing to share with the ground below.
    tiles[1].tx = 1;
    tiles[1].verts = {{1, 4, 0}, {1, 4, 0.5f}, {1, 4, 1}, {2, 4, 1}, {2, 4, 0}};
    tiles[1].rings = {{0, 1, 2, 3, 4}};
    tiles[1].areas = {63};
    const SeamReport r = stitch_seams(tiles, grid, 0.45f);
    EXPECT_EQ(r.moved_vertices + r.inserted_vertices, 0);
    EXPECT_EQ(r.seam_edges, 0);
    EXPECT_EQ(r.unmatched_edges, 3);
}

TEST(Seams, SnapMovesNearlyOnLineVertices) {
    TileGrid grid;
    grid.origin_x = 0.1, grid.tile_size = 10, grid.cols = 2, grid.rows = 1;
    TileFaces t;
    t.verts = {{10.1000004f, 0, 3}, {5, 0, 0.0000001f}};
    snap_to_tile_lines(t, grid, 0.005f);
    EXPECT_EQ(t.verts[0][0], grid.line_x(1));
    EXPECT_EQ(t.verts[1][2], grid.line_z(0));
}
