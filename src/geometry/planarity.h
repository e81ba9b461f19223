// Distance of a face's corners from its mean plane (audit-rules.md §1, R40): the plane
// through the corner centroid with unit normal N/|N|, in float64.
#pragma once

#include <span>

#include "geometry/exact.h"

namespace navlab::geometry {

struct PlaneDistance {
    double distance = 0;  ///< largest |(P_k − c) · N/|N|| in metres
    int corner = -1;      ///< ring position of that corner
};

/// @param corners P_0 … P_{n−1}; @param normal the Newell normal (must not be zero).
PlaneDistance max_distance_from_mean_plane(std::span<const Point> corners, const Vec3<double>& normal);

/// The corner centroid c = (1/n) Σ P_k (the face centre of R64).
Point corner_centroid(std::span<const Point> corners);

}  // namespace navlab::geometry
