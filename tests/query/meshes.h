// Generated meshes with known shortest paths for the query tests (y up, metres).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "query/nav_view.h"

namespace navlab::testing {

using navlab::query::PolygonView;
using navlab::query::Vec3;

/// Unit squares over a w × d grid of cells (x = column, z = row) where walkable(i, j) holds;
/// heights from height(x, z) at the corners. Squares are counter-clockwise by cross2.
inline PolygonView grid_mesh(int w, int d, std::function<bool(int, int)> walkable,
                             std::function<double(double, double)> height = [](double, double) { return 0.0; },
                             double cell = 1.0) {
    std::vector<Vec3> verts;
    for (int j = 0; j <= d; ++j)
        for (int i = 0; i <= w; ++i) verts.push_back({i * cell, height(i * cell, j * cell), j * cell});
    auto id = [&](int i, int j) { return static_cast<std::uint32_t>(j * (w + 1) + i); };
    std::vector<std::vector<std::uint32_t>> polys;
    for (int j = 0; j < d; ++j)
        for (int i = 0; i < w; ++i)
            if (walkable(i, j)) polys.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
    return PolygonView(verts, polys);
}

/// A 10 × 10 square with a 2 × 2 hole in the middle, as four convex quads.
inline PolygonView square_with_hole() {
    std::vector<Vec3> v = {{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}, {4, 0, 4}, {6, 0, 4}, {6, 0, 6}, {4, 0, 6}};
    return PolygonView(v, {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}});
}

/// The same square with a hole as ONE non-convex face whose ring runs around the outside and
/// back around the hole through a zero-width slit (the ear clipping must split it).
inline PolygonView square_with_hole_one_face() {
    std::vector<Vec3> v = {{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}, {4, 0, 4}, {4, 0, 6}, {6, 0, 6}, {6, 0, 4}};
    // outer ring 0-1-2-3, slit 3 -> hole (clockwise) -> back to 3... as a weakly simple polygon
    // through corner 0: 0,1,2,3,0,4,5,6,7,4 (the hole clockwise).
    return PolygonView(v, {{0, 1, 2, 3, 0, 4, 5, 6, 7, 4}});
}

}  // namespace navlab::testing
