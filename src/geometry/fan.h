// The fan test of R41: is the fan from ring position 0 a valid triangulation of the face?
#pragma once

#include "geometry/face_plane.h"

namespace navlab::geometry {

/// The first k (1 … n−2) whose fan triangle (P_0, P_k, P_{k+1}) is turned against the face or
/// flat in its plane (orient ≤ 0, exact), or −1 when the fan is right.
inline int first_bad_fan_triangle(const FacePlane& plane) {
    auto c = plane.corners();
    for (std::size_t k = 1; k + 1 < c.size(); ++k)
        if (plane.orient_at(0, static_cast<int>(k), static_cast<int>(k + 1)) <= 0) return static_cast<int>(k);
    return -1;
}

}  // namespace navlab::geometry
