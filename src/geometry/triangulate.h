// The page's triangulation (audit-rules.md §6.7, Algorithm T): ear clipping in the plane of
// the face's Newell normal that drops only cuts with no area in 3-space, and the axis-plane
// variant of R48 that drops every cut with no area in the projection plane.
#pragma once

#include <array>
#include <vector>

#include "geometry/face_plane.h"

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
    /// triangulate.cpp): the triangles are the fan from the last corner, (n−1, k, k+1) for
    /// k = 0 … n−4, then (n−3, n−2, n−1), each turned with the face, nothing dropped.
    bool last_corner_fan = false;
};

/// Algorithm T in the plane of the face's Newell normal.
/// @param plane the face (corners and normal); every decision is exact.
Triangulation triangulate_newell(const FacePlane& plane);
/// The same into `out`, whose vectors are reused (no allocation once they are large enough).
void triangulate_newell(const FacePlane& plane, Triangulation& out);

/// The R48 variant: projection along N's largest-magnitude axis (ties to the lower axis;
/// x with sign + when N = 0), dropping a cut when its projected area is zero.
Triangulation triangulate_axis_plane(const FacePlane& plane);
/// The same into `out`, whose vectors are reused.
void triangulate_axis_plane(const FacePlane& plane, Triangulation& out);

/// The cuts of `t.dropped` that have area in 3-space: the triangles the R48 variant loses.
int lost_triangles(const FacePlane& plane, const Triangulation& t);

}  // namespace navlab::geometry
