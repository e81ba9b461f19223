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

/// The corner centroid c = (1/n) Σ P_k (the face centre of R64), over double or Lanes.
template <class T>
Vec3<T> centroid_of(const Vec3<T>* corners, std::size_t n) {
    Vec3<T> c{};
    for (std::size_t k = 0; k < n; ++k) c = c + corners[k];
    const double count = static_cast<double>(n);
    return {c.x / count, c.y / count, c.z / count};
}

/// max_distance_from_mean_plane's figures over double or Lanes (the ring position as a
/// double, so that a lane's index travels with its distance), with the centroid they were
/// measured from (R64's face centre, so that FaceBatch hands it on).
template <class T>
struct FarthestCorner {
    T distance, corner;
    Vec3<T> centroid;
};

/// The first corner farthest from the mean plane of n ≥ 1 corners with normal N and
/// |N| = length: max_distance_from_mean_plane for one face (double) or two (Lanes). Where
/// length is not positive, distance 0 and corner −1 (the figures of the other lanes' faces
/// are computed regardless).
template <class T>
FarthestCorner<T> farthest_from_mean_plane(const Vec3<T>* corners, std::size_t n, const Vec3<T>& normal, T length) {
    const Vec3<T> unit{normal.x / length, normal.y / length, normal.z / length};
    const Vec3<T> c = centroid_of(corners, n);
    // The first largest distance (a NaN is never larger), kept without a branch: which corner
    // is farthest follows no pattern, and the mispredicted branch cost more than the arithmetic.
    T best = abs_of(dot(corners[0] - c, unit)), corner = splat<T>(0);
    for (std::size_t k = 1; k < n; ++k) {
        const T d = abs_of(dot(corners[k] - c, unit));
        const auto larger = d > best;
        best = larger ? d : best;
        corner = larger ? splat<T>(static_cast<double>(k)) : corner;
    }
    const auto plane = length > 0;
    return {plane ? best : splat<T>(0), plane ? corner : splat<T>(-1), c};
}

}  // namespace navlab::geometry
