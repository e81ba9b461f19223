// The face batch (FaceBatch: two faces of the same ring length to a Lanes value) against the
// one-face path bit for bit: each figure against FacePlane, max_distance_from_mean_plane and
// check_triangulation of the last-corner fan, and each face's geometry with the figures
// against analyse_face without them and analyse_face_in_full. On hostile rings of 3 to 42
// corners (hostile_rings.h) and hostile triangles: degenerate and collinear ones, N_y exactly
// 0 or within rounding of 0 (often of the wrong sign in double), repeated corners,
// coordinates from float32's smallest subnormal to its largest finite value, and NaN or
// infinite corners (which the audit never analyses: only their figures are compared).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "audit/audit_face_batch.h"
#include "hostile_rings.h"

using namespace navlab::audit;
using namespace navlab::audit::test;

namespace {

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


/// Bit for bit, or both NaN (a non-finite ring's figures: never used by the audit).
bool same_value(double a, double b) { return same_double(a, b) || (std::isnan(a) && std::isnan(b)); }

/// The first figure where the batch differs from the one-face path, or "".
std::string figure_difference(const FaceFigures& f, std::span<const Point> ring) {
    const FacePlane plane(ring);
    const Vec3<double>& n = plane.normal();
    if (!same_value(f.normal.value.x, n.x) || !same_value(f.normal.value.y, n.y) || !same_value(f.normal.value.z, n.z))
        return "normal";
    for (int axis = 0; axis < 3; ++axis) {
        const Approx& a = axis == 0 ? f.normal.bound.x : (axis == 1 ? f.normal.bound.y : f.normal.bound.z);
        if (!same_value(a.value, plane.normal_bound(axis).value) || !same_value(a.error, plane.normal_bound(axis).error))
            return "bound " + std::to_string(axis);
    }
    if (!same_value(f.length, plane.normal_length())) return "length";
    const PlaneDistance d = max_distance_from_mean_plane(plane);
    if (!same_value(f.off_plane.distance, d.distance) || f.off_plane.corner != d.corner) return "off_plane";
    const int count = static_cast<int>(ring.size());
    std::vector<Cut> fan;
    for (int k = 0; k < count - 2; ++k) fan.push_back(last_corner_fan_triangle(count, k));
    const TriangulationCheck c = check_triangulation(plane, fan, true);
    if (f.fan_check.turned != c.turned || f.fan_check.first_turned != c.first_turned) return "turned";
    if (!same_value(f.fan_check.projected_face, c.projected_face) || !same_value(f.fan_check.projected_sum, c.projected_sum) ||
        !same_value(f.fan_check.projected_relative, c.projected_relative))
        return "projected";
    if (!same_double(f.fan_check.area_difference_max, c.area_difference_max)) return "area_difference";
    return "";
}

}  // namespace

TEST(FaceBatch, FiguresAndGeometryEqualTheOneFacePathBitForBit) {
    Rings rings;
    Triangles triangles;
    FaceScratch scratch;
    FaceBatch batch;
    int batched = 0, batched_triangles = 0, too_long = 0, not_finite = 0, i = 0;
    for (int round = 0; round < 2500; ++round) {
        // Every batch size, so faces meet both lanes, partners of every ring length and none.
        const int size = 1 + round % FaceBatch::kMost;
        std::vector<std::vector<Point>> faces;
        std::vector<Point> corners;  // the faces one after another, as read_faces keeps them
        std::vector<int> slots;
        batch.clear();
        for (int k = 0; k < size; ++k, ++i) {
            faces.push_back(k % 2 ? triangles.make(i) : rings.make(i));
            const int n = static_cast<int>(faces.back().size());
            slots.push_back(batch.add(corners.size(), n));
            ASSERT_EQ(slots.back() < 0, n > FaceBatch::kMostCorners) << "round " << round << " face " << k;
            corners.insert(corners.end(), faces.back().begin(), faces.back().end());
        }
        batch.analyse(corners.data());
        for (int k = 0; k < size; ++k) {
            const std::vector<Point>& ring = faces[k];
            if (slots[k] < 0) {
                ++too_long;
                continue;
            }
            const FaceFigures& figures = batch.figures(slots[k]);
            ASSERT_EQ(figure_difference(figures, ring), "") << "round " << round << " face " << k;
            if (!finite(ring)) {
                ++not_finite;
                continue;
            }
            FaceGeometry with, without, full;
            analyse_face(ring, scratch, with, &figures);
            analyse_face(ring, scratch, without);
            analyse_face_in_full(FacePlane(ring), scratch, full);
            ASSERT_EQ(difference(with, without), "") << "round " << round << " face " << k;
            ASSERT_EQ(difference(with, full), "") << "round " << round << " face " << k;
            ++batched;
            batched_triangles += ring.size() == 3;
        }
    }
    EXPECT_GT(batched, 50000);
    EXPECT_GT(batched_triangles, 25000);
    EXPECT_GT(too_long, 1000);   // rings longer than kMostCorners stay with analyse_face alone
    EXPECT_GT(not_finite, 3000);
}
