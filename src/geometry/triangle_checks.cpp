#include "geometry/triangle_checks.h"

#include <algorithm>
#include <cmath>

namespace navlab::geometry {

namespace {

/// R44's and R45's figures of complete triangulations: the turns (R43) are the callers'.
TriangulationCheck areas_of(const FacePlane& plane, std::span<const Cut> triangles) {
    TriangulationCheck r;
    auto c = plane.corners();
    // Projected areas in double, coordinates relative to P_0 to keep them small.
    const Vec3<double>& n = plane.normal();
    const double length = plane.normal_length();
    r.projected_face = length / 2;
    if (length > 0) {
        for (const Cut& cut : triangles)
            r.projected_sum += projected_area(c[cut[0]] - c[0], c[cut[1]] - c[0], c[cut[2]] - c[0], n, length);
        r.projected_relative = relative_difference(r.projected_sum, r.projected_face);
    }
    // Σ 2A − N is exactly zero for a complete triangulation, so it is not computed: Algorithm T
    // only ever cuts off three consecutive corners (a, c, d), and a ring's vector area
    // ½ Σ P_k × P_{k+1} splits exactly into the cut's a×c + c×d + d×a and the remaining ring's
    // (the d×a terms cancel); a dropped cut has (c − a) × (d − c) = 0 exactly. Computing the
    // sum with expansions cost a third of the audit (issue 13); the identity is checked
    // against that exact sum on random rings in tests/geometry.
    r.area_difference = {0, 0, 0};
    r.area_difference_max = 0;
    return r;
}

}  // namespace

TriangulationCheck check_triangulation(const FacePlane& plane, const Triangulation& t) {
    if (!t.turns_tested_along_normal || t.last_corner_fan || t.triangles.empty())
        return check_triangulation(plane, t.triangles, t.last_corner_fan);
    // Clipped along N, only the last triangle can be turned (Triangulation); a check of the
    // others' turns would repeat the clipper's.
    TriangulationCheck r = areas_of(plane, t.triangles);
    const Cut& last = t.triangles.back();
    const int turn = t.last_turn != Triangulation::kTurnUnknown ? t.last_turn : plane.orient_at(last[0], last[1], last[2]);
    if (turn < 0) {
        r.turned = 1;
        r.first_turned = static_cast<int>(t.triangles.size()) - 1;
    }
    return r;
}

TriangulationCheck check_triangulation(const FacePlane& plane, std::span<const Cut> triangles, bool last_corner_fan) {
    TriangulationCheck r = areas_of(plane, triangles);
    // A last-corner fan's triangles are turned with the face by construction
    // (takes_first_candidate_throughout).
    for (std::size_t i = 0; !last_corner_fan && i < triangles.size(); ++i) {
        const Cut& cut = triangles[i];
        if (plane.orient_at(cut[0], cut[1], cut[2]) < 0 && r.turned++ == 0)
            r.first_turned = static_cast<int>(i);
    }
    return r;
}

}  // namespace navlab::geometry
