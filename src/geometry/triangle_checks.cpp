#include "geometry/triangle_checks.h"

#include <algorithm>
#include <cmath>

namespace navlab::geometry {

TriangulationCheck check_triangulation(const FacePlane& plane, const Triangulation& t) {
    TriangulationCheck r;
    auto c = plane.corners();
    for (std::size_t i = 0; i < t.triangles.size(); ++i) {
        const Cut& cut = t.triangles[i];
        if (plane.orient(c[cut[0]], c[cut[1]], c[cut[2]]) < 0 && r.turned++ == 0)
            r.first_turned = static_cast<int>(i);
    }
    // Projected areas in double, coordinates relative to P_0 to keep them small.
    const Vec3<double>& n = plane.normal();
    double length = std::sqrt(dot(n, n));
    r.projected_face = length / 2;
    if (length > 0) {
        for (const Cut& cut : t.triangles) {
            Point a = c[cut[0]] - c[0], b = c[cut[1]] - c[0], d = c[cut[2]] - c[0];
            Vec3<double> twice = cross(b - a, d - b);
            r.projected_sum += std::fabs(dot(twice, n)) / length / 2;
        }
        r.projected_relative = std::fabs(r.projected_sum - r.projected_face) / r.projected_face;
    }
    // Σ 2A − N exactly (both are sums of cross products of float differences), then halved.
    Vec3<Expansion> sum{Expansion(0.0), Expansion(0.0), Expansion(0.0)};
    for (const Cut& cut : t.triangles) {
        Vec3<Expansion> a = lift<Expansion>(c[cut[0]]), b = lift<Expansion>(c[cut[1]]),
                        d = lift<Expansion>(c[cut[2]]);
        sum = sum + cross(b - a, d - b);
    }
    const Vec3<Expansion>& exact = plane.exact_normal();
    Vec3<Expansion> diff = sum - exact;
    r.area_difference = {diff.x.estimate() / 2, diff.y.estimate() / 2, diff.z.estimate() / 2};
    r.area_difference_max = std::max({std::fabs(r.area_difference.x), std::fabs(r.area_difference.y),
                                      std::fabs(r.area_difference.z)});
    return r;
}

}  // namespace navlab::geometry
