// The triangle batch (TriangleBatch, two triangles to a Lanes value) against the one-face path
// (analyse_face) bit for bit, on random and hostile triangles: degenerate and collinear ones,
// N_y exactly 0 or within rounding of 0, repeated corners, coordinates from float32's
// smallest subnormal to its largest finite value, and NaN or infinite corners (which the
// audit never analyses: the batch must leave them to analyse_face).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "audit/audit_triangle_batch.h"

using namespace navlab::audit;

namespace {

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Whether two geometries are equal in every field, doubles bit for bit.
bool same(const FaceGeometry& a, const FaceGeometry& b) {
    return a.winding == b.winding && a.zero_normal == b.zero_normal && a.collinear == b.collinear &&
           a.convexity.convex == b.convexity.convex && a.convexity.reflex_corner == b.convexity.reflex_corner &&
           same_double(a.convexity.reflex_sine, b.convexity.reflex_sine) &&
           a.convex_in_newell_plane == b.convex_in_newell_plane && same_double(a.off_plane.distance, b.off_plane.distance) &&
           a.off_plane.corner == b.off_plane.corner && a.bad_fan == b.bad_fan && a.triangles == b.triangles &&
           a.dropped == b.dropped && a.fallbacks == b.fallbacks && a.no_ear == b.no_ear && a.corners_left == b.corners_left &&
           a.first_turned == b.first_turned && a.check.turned == b.check.turned &&
           a.check.first_turned == b.check.first_turned && same_double(a.check.projected_face, b.check.projected_face) &&
           same_double(a.check.projected_sum, b.check.projected_sum) &&
           same_double(a.check.projected_relative, b.check.projected_relative) &&
           same_double(a.check.area_difference.x, b.check.area_difference.x) &&
           same_double(a.check.area_difference.y, b.check.area_difference.y) &&
           same_double(a.check.area_difference.z, b.check.area_difference.z) &&
           same_double(a.check.area_difference_max, b.check.area_difference_max) && a.lost == b.lost &&
           a.first_lost == b.first_lost;
}

struct Triangles {
    std::uint64_t s = 13;
    std::uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(s >> 33);
    }
    double unit() { return (next() % 1000000) / 1e6 - 0.5; }
    static double f(double v) { return double(float(v)); }  // corners are float32 values

    /// Triangle `i`: one of ten kinds, most at one of nine scales.
    std::vector<Point> make(int i) {
        const double scales[] = {1e-45, 1e-30, 1e-3, 1.0, 300.0, 1e6, 1e20, 1e36, 3e38};
        const double scale = scales[next() % 9];
        std::vector<Point> t(3);
        switch (i % 10) {
        case 0:  // random, mostly seen from above
        case 1:
            for (Point& p : t) p = {f(scale * unit()), f(scale * 0.05 * unit()), f(scale * unit())};
            break;
        case 2:  // lattice points: collinear, repeated, all equal, clockwise, vertical (N_y = 0)
            for (Point& p : t) p = {f(scale * (next() % 3)), f(scale * (next() % 2)), f(scale * (next() % 3))};
            break;
        case 3:  // a sliver within float32 rounding of a line: N_y's filter may not decide
            for (int k = 0; k < 3; ++k) t[k] = {f(scale * (0.25 + k * (1 + 1e-7 * unit()))), f(scale * 0.5), f(scale * (0.5 + k))};
            break;
        case 9: {  // P_1, P_2 on the line x = z, P_0 within 2^-50 of it: the sides P_k − P_0
                   // round, and N_y in double is often 0 or of the wrong sign
            const double tiny = std::ldexp(1.0, -50 - static_cast<int>(next() % 5)), k = f(1.5 + unit()), m = f(2 + 2 * unit());
            t = {{f(tiny * unit()), 0, f(tiny * unit())}, {k, 0, k}, {m, 0, m}};
            break;
        }
        case 4:  // steep: N's largest axis x or z
            for (Point& p : t) p = {f(scale * 0.01 * unit()), f(scale * unit()), f(scale * unit())};
            break;
        case 5:  // coordinates of very different magnitudes in one triangle
            for (Point& p : t) p = {f(scales[next() % 9] * unit()), f(scales[next() % 9] * unit()), f(scales[next() % 9] * unit())};
            break;
        case 6:  // a far corner: large distance from the mean plane relative to the size
            t = {{0, 0, 0}, {f(scale), 0, 0}, {0, f(scale * 1e-7 * unit()), f(scale)}};
            break;
        case 7:  // not finite: never analysed by the audit, never decided by the batch
            for (Point& p : t) p = {f(scale * unit()), f(scale * unit()), f(scale * unit())};
            t[next() % 3].x = next() % 2 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
            break;
        default:  // two corners equal
            for (Point& p : t) p = {f(scale * unit()), f(scale * unit()), f(scale * unit())};
            t[next() % 3] = t[(next() % 2) + 1 == 3 ? 0 : 2];
        }
        return t;
    }
};

bool finite(const std::vector<Point>& t) {
    for (const Point& p : t)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
    return true;
}

}  // namespace

TEST(TriangleBatch, EqualsTheOneFacePathBitForBit) {
    Triangles triangles;
    FaceScratch scratch;
    TriangleBatch batch;
    int batched = 0, left = 0, not_finite = 0, i = 0;
    for (int round = 0; round < 3000; ++round) {
        // Every batch size, so every triangle meets both lanes and an odd last pair.
        const int size = 1 + round % TriangleBatch::kMost;
        std::vector<std::vector<Point>> rings;
        batch.clear();
        for (int k = 0; k < size; ++k, ++i) {
            rings.push_back(triangles.make(i));
            ASSERT_EQ(batch.add(rings.back()), k);
        }
        batch.analyse();
        for (int k = 0; k < size; ++k) {
            FaceGeometry from_batch;
            if (!batch.geometry(k, from_batch)) {
                ++left;
                ASSERT_TRUE(same(from_batch, FaceGeometry{})) << "round " << round << " triangle " << k << " was changed";
                continue;
            }
            ASSERT_TRUE(finite(rings[k])) << "round " << round << " triangle " << k << " is not finite";
            FaceGeometry one, full;
            analyse_face(rings[k], scratch, one);
            analyse_face_in_full(FacePlane(rings[k]), scratch, full);
            ASSERT_TRUE(same(from_batch, one)) << "round " << round << " triangle " << k;
            ASSERT_TRUE(same(from_batch, full)) << "round " << round << " triangle " << k;
            ++batched;
        }
        for (const auto& ring : rings) not_finite += !finite(ring);
    }
    // Both outcomes on many triangles; the hostile kinds make up most of the left ones.
    EXPECT_GT(batched, 50000);
    EXPECT_GT(left, 10000);
    EXPECT_GT(not_finite, 5000);
}
