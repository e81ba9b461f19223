#include "geometry/winding.h"

namespace navlab::geometry {

bool corners_collinear(std::span<const Point> corners) {
    std::size_t m = 1;
    while (m < corners.size() && same_point(corners[m], corners[0])) ++m;
    if (m == corners.size()) return true;
    // Every corner k must make a zero-area cut with the line P_0 → P_m.
    for (std::size_t k = 1; k < corners.size(); ++k)
        if (!zero_area_3d(corners[k], corners[0], corners[m])) return false;
    return true;
}

}  // namespace navlab::geometry
