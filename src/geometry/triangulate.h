// The page's triangulation (audit-rules.md §6.7, Algorithm T): ear clipping in the plane of
// the face's Newell normal that drops only cuts with no area in 3-space, and the axis-plane
// variant of R48 that drops every cut with no area in the projection plane.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "geometry/face_plane.h"
#include "geometry/orient2d.h"

namespace navlab::geometry {

/// A triangle or cut as three ring positions (a, c, d) of the face.
using Cut = std::array<int, 3>;

struct Triangulation {
    std::vector<Cut> triangles;  ///< emitted, in order
    std::vector<Cut> dropped;    ///< cuts removed without a triangle
    int fallbacks = 0;           ///< straight-in-the-plane corners emitted as triangles
    bool no_ear = false;         ///< stopped with more than 3 corners and no qualifying cut
    int corners_left = 0;        ///< ring length when it stopped (0 when complete)
    /// Every step took the ring's first candidate, proven without ear tests (see
    /// takes_first_candidate_throughout): the triangles are the fan from the last corner, (n−1, k, k+1) for
    /// k = 0 … n−4, then (n−3, n−2, n−1), each turned with the face, nothing dropped.
    bool last_corner_fan = false;
    /// Clipped along N (triangulate_newell): each triangle but the last was emitted after its
    /// turn along N was tested, > 0 for an ear and = 0 for a fallback, so only the last one,
    /// the three corners left at the end, can be turned against the face (R43).
    bool turns_tested_along_normal = false;
    /// The last triangle's turn in the clipper's projection when the clipper knew it (the
    /// three corners left after an ear whose containment test oriented them), else
    /// kTurnUnknown. Along N (turns_tested_along_normal) it is R43's orientation of that triangle.
    int last_turn = kTurnUnknown;
    static constexpr int kTurnUnknown = 2;
};

/// takes_first_candidate_throughout's checks but (a)'s two ends, (A, 0, 1) and (A, n − 3, n − 2):
/// (a) for k = 1 … n − 4 and (b), none of them a corner turn of the ring. n ≥ 3.
template <class Orient>
bool inner_candidates_turn_right(int n, Orient orient) {
    const int a = n - 1;
    for (int k = 1; k + 3 <= n - 1; ++k)
        if (orient(a, k, k + 1) <= 0) return false;
    for (int j = 3; j <= n - 2; ++j)
        if (orient(a, 1, j) <= 0) return false;
    return true;
}

/// Whether Algorithm T, run with the exact orientation `orient` of a projection, takes the
/// first candidate of its ring at every step, decided with 2n − 6 orientations (n ≥ 4; one
/// for a triangle) instead of the ear tests (most faces are strictly convex; the audit
/// triangulates every face twice).
///
/// Why the output is then the fan from the last corner A = n − 1. orient is the exact sign of
/// the 2-D orientation of the three corners projected into the variant's plane (along N:
/// ((q − p) × (r − q)) · N depends only on the components perpendicular to N; or onto an axis
/// plane), so plane geometry applies to the projected corners Q_k. It is unchanged by rotating
/// its arguments and negated by swapping two (p × q + q × r + r × p, signs exact). Checked:
///  (a) orient(A, k, k + 1) > 0 for k = 0 … n − 3;
///  (b) orient(A, 1, j) > 0 for j = 3 … n − 2 (j = 2 is (a) for k = 1).
/// By (b) every Q_j, j = 2 … n − 2, lies at an angle α_j in (0, π) from Q_1 around Q_A (α_1 = 0);
/// by (a) each step α_k → α_{k+1} turns by an angle in (0, π) modulo 2π, which between two
/// angles of [0, π) means α_{k+1} > α_k. So α increases on 1 … n − 2 inside [0, π) and
///  (c) orient(A, i, j) > 0 for all 1 ≤ i < j ≤ n − 2.
/// Step k = 0 … n − 4 then sees the ring (k, k + 1, …, n − 1) (induction: each step removes its
/// first corner). Its first candidate (a, c, d) = (A, k, k + 1) turns positive by (a), so it is
/// neither dropped nor skipped; each other corner r = k + 2 … n − 2 fails the containment test
/// at its first predicate, orient(d, a, r) = −orient(A, k + 1, r) < 0 by (c): the candidate is
/// an ear and is taken. The last three corners (n − 3, n − 2, n − 1) turn like (A, n − 3, n − 2),
/// positive by (a), so their triangle is not dropped (both variants' droppable cuts have
/// orient = 0). These are the very predicates ear_clip evaluates, so the output is equal,
/// not merely equivalent; a face that fails a check is clipped in full.
/// @param n ring length; @param orient(a, c, d) exact orientation of three ring positions in
///          the variant's projection (−1, 0, +1).
template <class Orient>
bool takes_first_candidate_throughout(int n, Orient orient) {
    if (n < 3) return false;
    const int a = n - 1;
    return orient(a, 0, 1) > 0 && (n == 3 || orient(a, n - 3, n - 2) > 0) && inner_candidates_turn_right(n, orient);
}

/// takes_first_candidate_throughout along N (the Newell variant) of `plane`'s ring, n ≥ 3: (a)'s
/// ends are the turns at corners 0 and n − 2 (rotations), which the plane remembers; the rest of
/// its 2n − 6 orientations are no corner turn, so they skip orient_at's corner tests and call for
/// NewellOrient's inline filter. The same exact signs, and a conjunction of them does not depend
/// on the order they are asked in (the analyse_face_at_once fan proof: 90 k orient_at calls on
/// Sekiro `krak`).
inline bool newell_takes_first_candidate_throughout(const FacePlane& plane) {
    const int n = static_cast<int>(plane.corners().size());
    if (n < 3 || plane.corner_turn(0) <= 0 || plane.corner_turn(n - 2) <= 0) return false;
    return inner_candidates_turn_right(n, NewellOrient(plane));
}

/// Triangle k (0 … n − 3) of the fan from the last corner that takes_first_candidate_throughout
/// proves: (n − 1, k, k + 1) for k < n − 3, then (n − 3, n − 2, n − 1).
inline Cut last_corner_fan_triangle(int n, int k) {
    return k + 4 <= n ? Cut{n - 1, k, k + 1} : Cut{n - 3, n - 2, n - 1};
}

/// The projection plane of the R48 variant: along N's largest-magnitude axis (compared
/// exactly; ties to the lower axis; x with sign + when N = 0), seen from N's side.
struct AxisPlane {
    int axis = 0;  ///< 0 = x, 1 = y, 2 = z
    int sign = 1;  ///< sign of N_axis (+1 when it is 0)
    int u = 1, v = 2;  ///< the two other axes in cyclic order: (axis + 1) % 3, (axis + 2) % 3
    /// Exact sign of ((q − p) × (r − q))_axis · sign over (u, v); for axis y that is (z, x),
    /// the turn seen from above (turn_from_above) times the sign.
    int orient(const Point& p, const Point& q, const Point& r) const {
        return sign * orient2d_sign(coord(p, u), coord(p, v), coord(q, u), coord(q, v), coord(r, u), coord(r, v));
    }
    /// Whether p and q project to the same point.
    bool same(const Point& p, const Point& q) const { return coord(p, u) == coord(q, u) && coord(p, v) == coord(q, v); }
    static double coord(const Point& p, int k) { return k == 0 ? p.x : (k == 1 ? p.y : p.z); }
};

/// The R48 variant's projection plane of a face.
AxisPlane axis_plane_of(const FacePlane& plane);

/// Algorithm T in the plane of the face's Newell normal.
/// @param plane the face (corners and normal); every decision is exact.
Triangulation triangulate_newell(const FacePlane& plane);
/// The same into `out`, whose vectors are reused (no allocation once they are large enough).
/// `fan_refuted`: takes_first_candidate_throughout with this variant's orientation is known to
/// be false (analyse_face_at_once tried it), so the clipping does not try it again.
void triangulate_newell(const FacePlane& plane, Triangulation& out, bool fan_refuted = false);

/// The R48 variant: projection along N's largest-magnitude axis (ties to the lower axis;
/// x with sign + when N = 0), dropping a cut when its projected area is zero.
Triangulation triangulate_axis_plane(const FacePlane& plane);
/// The same into `out`, whose vectors are reused; `fan_refuted` as for triangulate_newell;
/// `axis`, when given, is axis_plane_of(plane) as the caller already computed it; `above`,
/// when it has one entry per corner, is each corner's turn_from_above (exact), which serves
/// as the candidates' corner turns when the axis is y.
void triangulate_axis_plane(const FacePlane& plane, Triangulation& out, bool fan_refuted = false, const AxisPlane* axis = nullptr,
                            std::span<const signed char> above = {});

/// The cuts of `t.dropped` that have area in 3-space: the triangles the R48 variant loses.
int lost_triangles(const FacePlane& plane, const Triangulation& t);

}  // namespace navlab::geometry
