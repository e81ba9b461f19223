// Convexity of a face seen from above (audit-rules.md §1 "Turn", R39): the exact turn
// t_k = (u × w)_y at each corner, u = P_k − P_{k−1}, w = P_{k+1} − P_k. A face is not convex
// when it turns both ways; straight corners (t_k = 0) are ignored.
#pragma once

#include <span>

#include "geometry/exact.h"
#include "geometry/orient2d.h"

namespace navlab::geometry {

struct Convexity {
    bool convex = true;       ///< no two corners turn opposite ways (exact)
    int reflex_corner = -1;   ///< ring position of the strongest reflex corner, or −1
    double reflex_sine = 0;   ///< |sine| of that corner's angle seen from above (x, z plane)
};

/// Classifies the face's corners seen from above.
/// @param corners   P_0 … P_{n−1} in ring order.
/// @param winding_y sign of the face's Newell N_y: turns against it are reflex. When it is 0,
///                  the less frequent turn sign is taken as reflex (ties: negative turns).
Convexity convexity_from_above(std::span<const Point> corners, int winding_y);

/// The same from each corner's turn_from_above already taken (`turns[k]` at corner k; exactly
/// one per corner; any other count is ignored and the turns taken anew): analyse_face_at_once
/// takes them for a face it then leaves to the full analysis.
Convexity convexity_from_turns(std::span<const Point> corners, std::span<const signed char> turns, int winding_y);

/// The exact sign of the turn p → q → r seen from above: (u × w)_y = u_z·w_x − u_x·w_z with
/// u = q − p, w = r − q, the turn in the (z, x) plane.
inline int turn_from_above(const Point& p, const Point& q, const Point& r) {
    return orient2d_sign(p.z, p.x, q.z, q.x, r.z, r.x);
}

}  // namespace navlab::geometry
