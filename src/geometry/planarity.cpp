#include "geometry/planarity.h"

#include <cmath>

namespace navlab::geometry {

PlaneDistance max_distance_from_mean_plane(const FacePlane& plane) {
    PlaneDistance result;
    const std::span<const Point> corners = plane.corners();
    const Vec3<double>& normal = plane.normal();
    const double length = plane.normal_length();
    if (!(length > 0)) return result;
    Vec3<double> unit{normal.x / length, normal.y / length, normal.z / length};
    Point c = corner_centroid(corners);
    auto distance = [&](std::size_t k) { return std::fabs(dot(corners[k] - c, unit)); };
    // The first largest distance (a NaN is never larger), kept without a branch: which corner
    // is farthest follows no pattern, and the mispredicted branch cost more than the arithmetic.
    double best = corners.empty() ? 0 : distance(0);
    int corner = corners.empty() ? -1 : 0;
    for (std::size_t k = 1; k < corners.size(); ++k) {
        const double d = distance(k);
        const bool larger = d > best;
        best = larger ? d : best;
        corner = larger ? static_cast<int>(k) : corner;
    }
    result.distance = best;
    result.corner = corner;
    return result;
}

}  // namespace navlab::geometry
