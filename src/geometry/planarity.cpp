#include "geometry/planarity.h"

#include <cmath>

namespace navlab::geometry {

PlaneDistance max_distance_from_mean_plane(const FacePlane& plane) {
    const std::span<const Point> corners = plane.corners();
    const double length = plane.normal_length();
    if (!(length > 0)) return {};  // also for an empty ring
    const FarthestCorner<double> far = farthest_from_mean_plane(corners.data(), corners.size(), plane.normal(), length);
    return {far.distance, static_cast<int>(far.corner)};
}

}  // namespace navlab::geometry
