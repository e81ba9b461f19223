// Internal: the cone arithmetic shared by the interval search (polyanya.cpp) and the corner
// visibility sweeps (corner_graph.cpp). Not part of the public API.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>

#include "query/query_mesh.h"

namespace navlab::query::cone {

inline double dist2(P2 a, P2 b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z)); }

/// The point at parameter t of a -> b; exactly a or b at 0 and 1 (turns test endpoints by ==).
inline P2 at(P2 a, P2 b, double t) {
    if (t <= 0) return a;
    if (t >= 1) return b;
    return {a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t};
}

/// The parameter range [lo, hi] ∩ [0, 1] where the affine c(t) = c0 + t (c1 - c0) has sign
/// `want` (>= 0 when want > 0, <= 0 when want < 0). Empty when lo > hi.
inline std::pair<double, double> range_where(double c0, double c1, int want) {
    if (want < 0) c0 = -c0, c1 = -c1;
    if (c0 >= 0 && c1 >= 0) return {0, 1};
    if (c0 < 0 && c1 < 0) return {1, 0};
    double t = c0 / (c0 - c1);
    return c0 >= 0 ? std::pair{0.0, t} : std::pair{t, 1.0};
}

/// orient2(r, d, p), zero when p is within 1e-12 relative of the line r -> d: a cone's side
/// through a computed interval end (rounded) must still pass exactly through the vertex or
/// the goal it was aimed at, or the search loses the points it touches (Recast's grid puts
/// many vertices exactly on one line).
inline double side(P2 r, P2 d, P2 p) {
    double o = orient2(r, d, p);
    P2 u = d - r, v = p - r;
    return o * o <= 1e-24 * ((u.x * u.x + u.z * u.z) * (v.x * v.x + v.z * v.z)) ? 0 : o;  // |o| <= 1e-12 |u| |v|
}

/// Whether p lies in the closed cone from r between the rays through `right` and `left`.
inline bool in_cone(P2 r, P2 right, P2 left, P2 p) { return side(r, right, p) >= 0 && side(r, left, p) <= 0; }

/// Polyanya's h: the shortest distance from r to t through the interval [right, left] (t
/// mirrored across the interval's line when it lies on r's side): a lower bound of any path
/// from r that crosses the interval and then reaches t.
inline double through_interval(P2 r, P2 left, P2 right, P2 t) {
    double sr = orient2(right, left, r), st = orient2(right, left, t);
    if ((sr < 0 && st < 0) || (sr > 0 && st > 0)) {
        P2 d = left - right;
        double dd = d.x * d.x + d.z * d.z;
        if (dd > 0) {
            double u = ((t.x - right.x) * d.x + (t.z - right.z) * d.z) / dd;
            P2 foot{right.x + d.x * u, right.z + d.z * u};
            t = {2 * foot.x - t.x, 2 * foot.z - t.z};
        }
    }
    if (orient2(r, right, t) >= 0 && orient2(r, left, t) <= 0) return dist2(r, t);
    return std::min(dist2(r, left) + dist2(left, t), dist2(r, right) + dist2(right, t));
}

}  // namespace navlab::query::cone
