#include "geometry/triangulate.h"

#include <cmath>

#include "geometry/orient2d.h"

namespace navlab::geometry {
namespace {

/// Algorithm T over a projection: `orient(a, c, d)` is the exact orientation of three ring
/// positions, `droppable(a, c, d)` decides rule (i) and implies orient(a, c, d) = 0 (both
/// variants' cuts without area have none in the projection either), `same(r, x)` "same
/// projected position". The predicates are exact and pure, so they are evaluated in the order
/// that settles most cases soonest: the decisions are those of the rule as written. Writes
/// into `out`, reusing its vectors.
template <class Orient, class Droppable, class Same>
void ear_clip(int n, bool has_plane, Orient orient, Droppable droppable, Same same, Triangulation& out) {
    out.triangles.clear();
    out.dropped.clear();
    out.fallbacks = 0;
    out.no_ear = false;
    out.corners_left = 0;
    out.last_corner_fan = takes_first_candidate_throughout(n, orient);
    if (out.last_corner_fan) {
        for (int k = 0; k < n - 2; ++k) out.triangles.push_back(last_corner_fan_triangle(n, k));
        return;
    }
    out.triangles.reserve(n > 2 ? static_cast<std::size_t>(n - 2) : 0);
    // The shrinking ring reuses one buffer per thread: the audit triangulates every face twice.
    thread_local std::vector<int> ring;
    ring.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ring[i] = i;
    auto remove = [&](int j) { ring.erase(ring.begin() + j); };
    auto inside = [&](int a, int c, int d, int r) {
        // Seen from a convex ear, the other corners lie beyond its closing side d → a: that
        // test first, and the "same position" tests only for corners in the closed triangle.
        if (orient(d, a, r) < 0 || orient(a, c, r) < 0 || orient(c, d, r) < 0) return false;
        return !(same(r, a) || same(r, c) || same(r, d));
    };
    while (ring.size() > 3) {
        int m = static_cast<int>(ring.size());
        int chosen = -1;
        bool drop = false;
        for (int j = 0; j < m && chosen < 0; ++j) {
            int a = ring[(j + m - 1) % m], c = ring[j], d = ring[(j + 1) % m];
            const int turn = orient(a, c, d);
            if (turn == 0 && droppable(a, c, d)) {
                chosen = j;
                drop = true;
                break;
            }
            if (turn <= 0) continue;
            bool empty = true;
            for (int r : ring)
                if (r != a && r != c && r != d && inside(a, c, d, r)) {
                    empty = false;
                    break;
                }
            if (empty) chosen = j;
        }
        if (chosen < 0 && has_plane) {
            for (int j = 0; j < m && chosen < 0; ++j)
                if (orient(ring[(j + m - 1) % m], ring[j], ring[(j + 1) % m]) == 0) chosen = j;
            if (chosen >= 0) ++out.fallbacks;
        }
        if (chosen < 0) {
            out.no_ear = true;
            out.corners_left = m;
            return;
        }
        Cut cut{ring[(chosen + m - 1) % m], ring[chosen], ring[(chosen + 1) % m]};
        (drop ? out.dropped : out.triangles).push_back(cut);
        remove(chosen);
    }
    if (ring.size() == 3) {
        Cut cut{ring[0], ring[1], ring[2]};
        (droppable(cut[0], cut[1], cut[2]) ? out.dropped : out.triangles).push_back(cut);
    }
}

}  // namespace

Triangulation triangulate_newell(const FacePlane& plane) {
    Triangulation out;
    triangulate_newell(plane, out);
    return out;
}

void triangulate_newell(const FacePlane& plane, Triangulation& out) {
    auto c = plane.corners();
    auto orient = [&](int a, int b, int d) { return plane.orient_at(a, b, d); };
    auto droppable = [&](int a, int b, int d) { return zero_area_3d(c[a], c[b], c[d]); };
    auto same = [&](int r, int x) { return plane.same_projected(c[r], c[x]); };
    ear_clip(static_cast<int>(c.size()), !plane.normal_is_zero(), orient, droppable, same, out);
}

Triangulation triangulate_axis_plane(const FacePlane& plane) {
    Triangulation out;
    triangulate_axis_plane(plane, out);
    return out;
}

namespace {

/// |N_i| > |N_j|, exactly, for the pairs the filter leaves open: from N's exact signs, and its
/// exact components when both are non-zero. Apart, so that the filter's test inlines.
[[gnu::noinline]] bool magnitude_greater_exact(const FacePlane& plane, int i, int j) {
    const int si = plane.normal_sign(i), sj = plane.normal_sign(j);
    if (si == 0) return false;
    if (sj == 0) return true;
    const Vec3<Expansion>& exact = plane.exact_normal();  // computed once per face
    const Expansion* e[3] = {&exact.x, &exact.y, &exact.z};
    Expansion ai = si > 0 ? *e[i] : -*e[i];
    Expansion aj = sj > 0 ? *e[j] : -*e[j];
    return (ai - aj).sign() > 0;
}

}  // namespace

AxisPlane axis_plane_of(const FacePlane& plane) {
    // Largest |N_k|, compared exactly; ties go to the lower axis.
    auto magnitude_greater = [&](int i, int j) {
        // |N_i| − |N_j| through the filter first, which encloses it: when it decides, neither
        // sign is needed, and a sign the plane's own filter left open costs the exact normal.
        Approx fi = plane.normal_bound(i), fj = plane.normal_bound(j);
        Approx d = Approx(std::fabs(fi.value), fi.error) - Approx(std::fabs(fj.value), fj.error);
        if (d.sign_known()) return d.sign() > 0;
        return magnitude_greater_exact(plane, i, j);
    };
    int axis = 0;
    for (int k = 1; k < 3; ++k)
        if (magnitude_greater(k, axis)) axis = k;
    const int sign = plane.normal_sign(axis);
    return {axis, sign == 0 ? 1 : sign, (axis + 1) % 3, (axis + 2) % 3};
}

void triangulate_axis_plane(const FacePlane& plane, Triangulation& out) {
    auto c = plane.corners();
    const AxisPlane ap = axis_plane_of(plane);
    auto orient = [&](int a, int b, int d) { return ap.orient(c[a], c[b], c[d]); };
    auto droppable = [&](int a, int b, int d) { return orient(a, b, d) == 0; };
    auto same = [&](int r, int x) { return ap.same(c[r], c[x]); };
    ear_clip(static_cast<int>(c.size()), !plane.normal_is_zero(), orient, droppable, same, out);
}

int lost_triangles(const FacePlane& plane, const Triangulation& t) {
    auto c = plane.corners();
    int lost = 0;
    for (const Cut& cut : t.dropped) lost += !zero_area_3d(c[cut[0]], c[cut[1]], c[cut[2]]);
    return lost;
}

}  // namespace navlab::geometry
