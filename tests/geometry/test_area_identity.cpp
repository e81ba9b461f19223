// R45's check (area vectors of the triangles add up to the face's within 2e-11 m²) fails
// on a triangulation that does not cover its face, and holds exactly — not only within the
// tolerance — on every complete one (audit-rules.md A21), even far from the origin where
// float64 sums would round. On files R45 therefore cannot fail while Algorithm T is exact;
// these cases show the check itself can.
#include <gtest/gtest.h>

#include <vector>

#include "geometry/triangle_checks.h"
#include "geometry/triangulate.h"

using namespace navlab::geometry;

namespace {

std::vector<Point> square_with_notch(double x0, double z0) {
    // A concave 6-gon of irregular float32 values (coordinates as stored in files).
    auto p = [&](float x, float z) { return Point{double(float(x0 + x)), 0.0, double(float(z0 + z))}; };
    return {p(0, 0), p(0, 3.3f), p(2.7f, 3.1f), p(1.3f, 1.7f), p(3.9f, 0.9f), p(3.1f, 0.1f)};
}

}  // namespace

TEST(AreaIdentity, CompleteTriangulationSumsExactlyToTheFace) {
    for (double origin : {0.0, 12345.678, 4.0e6}) {
        SCOPED_TRACE(origin);
        const auto corners = square_with_notch(origin, -origin);
        const FacePlane plane(corners);
        const Triangulation t = triangulate_newell(plane);
        ASSERT_FALSE(t.no_ear);
        ASSERT_EQ(t.triangles.size(), 4u);
        const TriangulationCheck c = check_triangulation(plane, t);
        EXPECT_EQ(c.area_difference_max, 0.0);  // exact, not merely ≤ 2e-11
    }
}

TEST(AreaIdentity, MissingOrRepeatedTriangleFailsTheR45Bound) {
    const auto corners = square_with_notch(0, 0);
    const FacePlane plane(corners);
    Triangulation t = triangulate_newell(plane);
    const Cut last = t.triangles.back();
    Triangulation missing = t;
    missing.triangles.pop_back();
    const TriangulationCheck gap = check_triangulation(plane, missing);
    EXPECT_GT(gap.area_difference_max, 2e-11);
    // The difference is exactly the missing triangle's area vector, ½ (P_c − P_a) × (P_d − P_c):
    // in the y = 0 plane only its y component is non-zero.
    const Point& a = corners[last[0]];
    const Point& c = corners[last[1]];
    const Point& d = corners[last[2]];
    const double twice_y = (c.z - a.z) * (d.x - c.x) - (c.x - a.x) * (d.z - c.z);
    EXPECT_DOUBLE_EQ(gap.area_difference.y, -twice_y / 2);
    EXPECT_EQ(gap.area_difference.x, 0.0);
    EXPECT_EQ(gap.area_difference.z, 0.0);
    Triangulation twice = t;
    twice.triangles.push_back(last);
    EXPECT_DOUBLE_EQ(check_triangulation(plane, twice).area_difference.y, twice_y / 2);
}
