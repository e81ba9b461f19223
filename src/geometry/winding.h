// Winding of a face seen from above (+y up, right-handed): the exact sign of the Newell
// normal's y component (audit-rules.md §1, R38). A shoelace over (x, z) has the opposite sign.
#pragma once

#include <span>

#include "geometry/face_plane.h"

namespace navlab::geometry {

enum class Winding { CounterClockwise, Clockwise, Degenerate };

/// The face's winding seen from above: N_y > 0 counter-clockwise, < 0 clockwise, = 0
/// degenerate (zero area seen from above).
inline Winding winding_from_above(const FacePlane& plane) {
    int s = plane.normal_sign(1);
    return s > 0 ? Winding::CounterClockwise : (s < 0 ? Winding::Clockwise : Winding::Degenerate);
}

/// Whether every corner lies on one line in 3-space (exactly), including all corners equal.
bool corners_collinear(std::span<const Point> corners);

}  // namespace navlab::geometry
