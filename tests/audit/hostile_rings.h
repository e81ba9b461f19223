// Hostile face rings and a field-by-field comparison of face geometries, shared by the
// tests of the one-loop path (test_face_geometry.cpp) and of the face batch
// (test_face_batch.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "audit/audit_face_geometry.h"

namespace navlab::audit::test {

inline bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The first field where two geometries differ (doubles bit for bit), or "".
inline std::string difference(const FaceGeometry& a, const FaceGeometry& b) {
    if (a.winding != b.winding) return "winding";
    if (a.zero_normal != b.zero_normal) return "zero_normal";
    if (a.collinear != b.collinear) return "collinear";
    if (a.convexity.convex != b.convexity.convex) return "convex";
    if (a.convexity.reflex_corner != b.convexity.reflex_corner) return "reflex_corner";
    if (!same_double(a.convexity.reflex_sine, b.convexity.reflex_sine)) return "reflex_sine";
    if (a.convex_in_newell_plane != b.convex_in_newell_plane) return "convex_in_newell_plane";
    if (!same_double(a.off_plane.distance, b.off_plane.distance)) return "off_plane.distance";
    if (a.off_plane.corner != b.off_plane.corner) return "off_plane.corner";
    if (a.bad_fan != b.bad_fan) return "bad_fan";
    if (a.triangles != b.triangles) return "triangles";
    if (a.dropped != b.dropped) return "dropped";
    if (a.fallbacks != b.fallbacks) return "fallbacks";
    if (a.no_ear != b.no_ear) return "no_ear";
    if (a.corners_left != b.corners_left) return "corners_left";
    if (a.first_turned != b.first_turned) return "first_turned";
    if (a.check.turned != b.check.turned || a.check.first_turned != b.check.first_turned) return "check.turned";
    if (!same_double(a.check.projected_face, b.check.projected_face)) return "projected_face";
    if (!same_double(a.check.projected_sum, b.check.projected_sum)) return "projected_sum";
    if (!same_double(a.check.projected_relative, b.check.projected_relative)) return "projected_relative";
    if (!same_double(a.check.area_difference.x, b.check.area_difference.x) ||
        !same_double(a.check.area_difference.y, b.check.area_difference.y) ||
        !same_double(a.check.area_difference.z, b.check.area_difference.z))
        return "area_difference";
    if (!same_double(a.check.area_difference_max, b.check.area_difference_max)) return "area_difference_max";
    if (a.lost != b.lost || a.first_lost != b.first_lost) return "lost";
    return "";
}

struct Rings {
    std::uint64_t s = 23;
    int next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<int>(s >> 33);
    }
    double unit() { return (next() % 1000000) / 1e6; }
    static double f(double v) { return double(float(v)); }  // corners are float32 values

    /// Ring `i`: one of eight hostile kinds, at one of seven scales.
    std::vector<Point> make(int i) {
        const double scales[] = {1e-30, 1e-3, 1.0, 300.0, 1e6, 1e20, 1e36};
        const double scale = scales[i % 7];
        const int kind = (i / 7) % 8;
        const int n = kind == 7 ? 3 + next() % 40 : 3 + next() % 8;
        std::vector<Point> ring;
        const double turn = (next() % 4 == 0 ? -1 : 1) * 2 * 3.141592653589793 / n;
        for (int k = 0; k < n; ++k) {
            const double cx = std::cos(k * turn), cz = -std::sin(k * turn);
            switch (kind) {
            case 0:  // convex, gently warped (the common face)
                ring.push_back({f(scale * cx), f(scale * 0.01 * unit()), f(scale * cz)});
                break;
            case 1:  // lattice points: collinear, repeated, degenerate, clockwise
                ring.push_back({f(scale * (next() % 4)), f(scale * (next() % 2) * 0.5), f(scale * (next() % 4))});
                break;
            case 2:  // a sliver: every corner within float32 rounding of one line
                ring.push_back({f(scale * (1 + k * 1e-7 * unit())), f(scale * 0.5), f(scale * (k + (k % 2) * 1e-6))});
                break;
            case 3:  // steep or vertical: N's largest axis x or z
                ring.push_back({f(scale * cx * (i % 2 ? 0.01 : 1)), f(scale * cz), f(scale * (i % 2 ? cz : 0.01 * cx))});
                break;
            case 4:  // a reflex corner pulled inward
                ring.push_back({f(scale * cx * (k == n / 2 ? 0.2 : 1)), 0, f(scale * cz * (k == n / 2 ? 0.2 : 1))});
                break;
            case 5:  // straight corners along an axis (exact zero turns)
                ring.push_back({f(scale * (k < n / 2 ? k : n - k)), f(scale), f(scale * (k < n / 2 ? 0 : 1))});
                break;
            case 6:  // strongly warped: corners far off the mean plane
                ring.push_back({f(scale * cx), f(scale * (k % 2) * 3), f(scale * cz)});
                break;
            default:  // many corners, beyond the remembered turns when n > 32
                ring.push_back({f(scale * cx), f(scale * 0.001 * (k % 3)), f(scale * cz)});
            }
        }
        if (next() % 9 == 0) ring.push_back(ring[next() % ring.size()]);  // a repeated corner
        return ring;
    }
};


}  // namespace navlab::audit::test
