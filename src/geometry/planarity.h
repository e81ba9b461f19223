// Distance of a face's corners from its mean plane (audit-rules.md §1, R40): the plane
// through the corner centroid with unit normal N/|N|, in float64.
#pragma once

#include <span>

#include "geometry/exact.h"
#include "geometry/face_plane.h"

namespace navlab::geometry {

struct PlaneDistance {
    double distance = 0;  ///< largest |(P_k − c) · N/|N|| in metres
    int corner = -1;      ///< ring position of that corner
};

/// @param plane the face's corners P_0 … P_{n−1} and its Newell normal N (a zero N gives
///              the default PlaneDistance).
PlaneDistance max_distance_from_mean_plane(const FacePlane& plane);

/// The corner centroid c = (1/n) Σ P_k (the face centre of R64). Inline: R40 asks for it on
/// every face.
inline Point corner_centroid(std::span<const Point> corners) {
    Point c{0, 0, 0};
    for (const Point& p : corners) c = c + p;
    const double n = static_cast<double>(corners.size());
    return {c.x / n, c.y / n, c.z / n};
}

}  // namespace navlab::geometry
