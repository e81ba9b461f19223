// The faces of one tile before they become an hkaiNavMesh: Recast's detail triangles merged
// back into convex polygons (seen from above), counter-clockwise from +y.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "build/recast_mesh.h"

namespace navlab::build {

/// Largest corner count of a built face (the games' faces stay well below it; the page's
/// merged faces reach 16 edges).
inline constexpr int kMaxFaceCorners = 16;

struct TileFaces {
    int tx = 0, tz = 0;                          ///< position in the tile grid
    std::vector<std::array<float, 3>> verts;
    std::vector<std::vector<int>> rings;         ///< vertex indices, counter-clockwise from +y
    std::vector<std::uint8_t> areas;             ///< Recast area id per face (63 = no volume)
    int recast_polygons = 0;
    double recast_area = 0;                       ///< Recast polygon area of the tile, m²
};

/// Joins ring b into ring a across their one shared edge: a runs u -> v at index ia
/// (a[ia] = u, a[ia+1] = v), b runs v -> u at jb (b[jb] = v, b[jb+1] = u).
std::vector<int> join_rings(const std::vector<int>& a, std::size_t ia, const std::vector<int>& b, std::size_t jb);

/// Whether a ring is convex seen from above (+y), counter-clockwise, with straight corners
/// allowed (they come from Recast's edge samples) but no corner turning back.
bool convex_from_above(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring);

/// A ring's Newell normal (not normalised; navlab's orientation: n[1] > 0 for
/// counter-clockwise from +y) and its corner centroid.
struct RingPlane {
    double n[3] = {0, 0, 0};
    double centroid[3] = {0, 0, 0};
    double length = 0;  ///< |n|; 0 when the ring has no normal
};
RingPlane ring_plane(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring);

/// Whether a ring turns the same way at every corner in its own (Newell) plane, each turn
/// strictly (sine of the turn above 1e-3): then ear clipping in that plane, as the audit
/// does it, finds an ear at every step and never turns a triangle against the face, even on
/// bent faces of steep slopes that are convex seen from above.
bool convex_in_own_plane(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring);

/// Largest distance of a ring's corners from its Newell plane (through the corner
/// centroid), metres; 0 when the ring has no normal.
double ring_off_plane(const std::vector<std::array<float, 3>>& verts, const std::vector<int>& ring);

/// Merges the detail triangles of each Recast polygon greedily (in triangle order) into as few
/// faces as possible, each convex from above and strictly convex in its own plane, within `max_off_plane` of its plane and of at
/// most `max_corners` corners. Vertices are kept as they are.
TileFaces merge_detail_triangles(const PolyMesh& mesh, double max_off_plane, int max_corners);

}  // namespace navlab::build
