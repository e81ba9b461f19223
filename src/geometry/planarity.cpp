#include "geometry/planarity.h"

#include <cmath>

namespace navlab::geometry {

Point corner_centroid(std::span<const Point> corners) {
    Point c{0, 0, 0};
    for (const Point& p : corners) c = c + p;
    double n = static_cast<double>(corners.size());
    return {c.x / n, c.y / n, c.z / n};
}

PlaneDistance max_distance_from_mean_plane(std::span<const Point> corners, const Vec3<double>& normal) {
    PlaneDistance result;
    double length = std::sqrt(dot(normal, normal));
    if (!(length > 0)) return result;
    Vec3<double> unit{normal.x / length, normal.y / length, normal.z / length};
    Point c = corner_centroid(corners);
    for (std::size_t k = 0; k < corners.size(); ++k) {
        double d = std::fabs(dot(corners[k] - c, unit));
        if (result.corner < 0 || d > result.distance) {
            result.distance = d;
            result.corner = static_cast<int>(k);
        }
    }
    return result;
}

}  // namespace navlab::geometry
