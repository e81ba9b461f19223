// The fan test of R41: is the fan from ring position 0 a valid triangulation of the face?
#pragma once

#include "geometry/face_plane.h"

namespace navlab::geometry {

/// The first k (1 … n−2) whose fan triangle (P_0, P_k, P_{k+1}) is turned against the face or
/// flat in its plane (orient ≤ 0, exact), or −1 when the fan is right. Its ends are the turns at
/// corners 1 and n − 1 (k = 1 and k = n − 2, rotations), which the plane remembers; the others
/// are no corner turn and take NewellOrient's inline filter (orient_at's exact fallback).
inline int first_bad_fan_triangle(const FacePlane& plane) {
    const int n = static_cast<int>(plane.corners().size());
    if (n < 3) return -1;
    const NewellOrient orient(plane);
    for (int k = 1; k + 1 < n; ++k) {
        const int s = k == 1 ? plane.corner_turn(1) : (k == n - 2 ? plane.corner_turn(n - 1) : orient(0, k, k + 1));
        if (s <= 0) return k;
    }
    return -1;
}

}  // namespace navlab::geometry
