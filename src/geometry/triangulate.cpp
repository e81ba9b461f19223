#include "geometry/triangulate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "geometry/orient2d.h"

namespace navlab::geometry {
namespace {

/// Empties `out` for a new clipping, its vectors' storage kept.
void start_clipping(Triangulation& out) {
    out.triangles.clear();
    out.dropped.clear();
    out.fallbacks = 0;
    out.no_ear = false;
    out.corners_left = 0;
    out.last_turn = Triangulation::kTurnUnknown;
}

/// Algorithm T over a projection: `orient(a, c, d)` is the exact orientation of three ring
/// positions, `droppable(a, c, d)` decides rule (i) and implies orient(a, c, d) = 0 (both variants'
/// cuts without area have none in the projection either), `same(r, x)` "same projected position",
/// which implies orient(p, x, r) = orient(x, q, r) = 0 for any p, q (both variants' orient sees
/// only the projected positions: along N, r − x is a multiple of N; on the axis plane, r and x have
/// the same two coordinates). The predicates are exact and pure, so they are evaluated in the order
/// that settles most cases soonest: the decisions are those of the rule as written. Writes into
/// `out`, reusing its vectors. `fan_refuted`: the caller already found
/// takes_first_candidate_throughout false, so it is not asked again (it is only a shortcut to
/// the output the loop below gives). `corner_turn(c)`, when given, is orient(c − 1, c, c + 1) of
/// the face's ring (neighbours modulo n) as the caller keeps it.
template <class Orient, class Droppable, class Same, class CornerTurn = std::nullptr_t>
void ear_clip(int n, bool has_plane, Orient orient, Droppable droppable, Same same, bool fan_refuted, Triangulation& out,
              CornerTurn corner_turn = nullptr) {
    start_clipping(out);
    out.last_corner_fan = !fan_refuted && takes_first_candidate_throughout(n, orient);
    if (out.last_corner_fan) {
        for (int k = 0; k < n - 2; ++k) out.triangles.push_back(last_corner_fan_triangle(n, k));
        return;
    }
    out.triangles.reserve(n > 2 ? static_cast<std::size_t>(n - 2) : 0);
    // The shrinking ring: on the stack for the faces the audit meets (a vector per thread
    // beyond), its length in a local, so the loops below reload nothing from memory.
    constexpr int kOnStack = 64;
    int on_stack[kOnStack];
    thread_local std::vector<int> longer;
    if (n > kOnStack) longer.resize(static_cast<std::size_t>(n));
    int* const ring_at = n > kOnStack ? longer.data() : on_stack;
    for (int i = 0; i < n; ++i) ring_at[i] = i;
    int size = n;
    // A candidate whose neighbours are still its face neighbours turns as its corner does in
    // the face: corner_turn(c), kept by the caller, instead of the orientation's arithmetic.
    auto turn_at = [&](int a, int c, int d) {
        if constexpr (!std::is_same_v<CornerTurn, std::nullptr_t>)
            if (a == (c == 0 ? n - 1 : c - 1) && d == (c + 1 == n ? 0 : c + 1)) return corner_turn(c);
        return orient(a, c, d);
    };
    auto remove = [&](int j) {
        std::copy(ring_at + j + 1, ring_at + size, ring_at + j);
        --size;
    };
    // The containment test of r once orient(d, a, r) = beyond_da is known ≥ 0. Seen from a
    // convex ear, the other corners lie beyond its closing side d → a: that test comes first
    // (the caller's), and the "same position" tests only for corners in the closed triangle.
    auto inside_given_da = [&](int a, int c, int d, int r, int beyond_da) {
        const int beyond_ac = orient(a, c, r);
        if (beyond_ac < 0) return false;
        const int beyond_cd = orient(c, d, r);
        if (beyond_cd < 0) return false;
        // A corner at a's projected position turns by 0 with both sides through a, exactly
        // (orient sees only the projection), so same(r, a) is asked only when both are 0: a
        // corner strictly inside needs no "same" test at all. Likewise for c and d.
        return !((beyond_da == 0 && beyond_ac == 0 && same(r, a)) || (beyond_ac == 0 && beyond_cd == 0 && same(r, c)) ||
                 (beyond_cd == 0 && beyond_da == 0 && same(r, d)));
    };
    // Turns the last ear's containment test computed: after clipping (a, c, d), the candidates
    // (z, a, d) and (a, d, e) of the next pass turn as −orient(d, a, z) and −orient(d, a, e)
    // (a swap of two corners, then a rotation), which that test took first for z = the corner
    // before a and e = the one after d. Ring positions of those candidates, −1 when unknown.
    int known_at_a = -1, known_at_d = -1, known_turn_a = 0, known_turn_d = 0;
    while (size > 3) {
        const int m = size;
        const std::span<const int> ring(ring_at, static_cast<std::size_t>(m));
        // Ring positions j − 1 and j + 1 without a division each (ear_clip's hottest line).
        auto before = [&](int j) { return ring[j == 0 ? m - 1 : j - 1]; };
        auto after = [&](int j) { return ring[j + 1 == m ? 0 : j + 1]; };
        int chosen = -1;
        bool drop = false;
        int beyond_da_e = 0, beyond_da_z = 0;  // of the chosen ear
        for (int j = 0; j < m && chosen < 0; ++j) {
            const int a = before(j), c = ring[j], d = after(j);
            const int turn = j == known_at_d ? known_turn_d : (j == known_at_a ? known_turn_a : turn_at(a, c, d));
            if (turn == 0 && droppable(a, c, d)) {
                chosen = j;
                drop = true;
                break;
            }
            if (turn <= 0) continue;
            // The other corners by ring position, from e (j + 2) round to z (j − 2): the ring's
            // entries are distinct, so these are the corners other than a, c and d.
            int k = j + 2 >= m ? j + 2 - m : j + 2;
            int beyond_da = orient(d, a, ring[k]);
            const int first_beyond_da = beyond_da;
            bool empty = !(beyond_da >= 0 && inside_given_da(a, c, d, ring[k], beyond_da));
            for (int left = m - 4; empty && left > 0; --left) {
                k = k + 1 == m ? 0 : k + 1;
                beyond_da = orient(d, a, ring[k]);
                empty = !(beyond_da >= 0 && inside_given_da(a, c, d, ring[k], beyond_da));
            }
            if (empty) {
                chosen = j;
                beyond_da_e = first_beyond_da;
                beyond_da_z = beyond_da;  // the last corner tested: z (e itself when m = 4)
            }
        }
        const bool ear = chosen >= 0 && !drop;
        if (chosen < 0 && has_plane) {
            for (int j = 0; j < m && chosen < 0; ++j)
                if (turn_at(before(j), ring[j], after(j)) == 0) chosen = j;
            if (chosen >= 0) ++out.fallbacks;
        }
        if (chosen < 0) {
            out.no_ear = true;
            out.corners_left = m;
            return;
        }
        Cut cut{before(chosen), ring[chosen], after(chosen)};
        (drop ? out.dropped : out.triangles).push_back(cut);
        remove(chosen);
        known_at_a = known_at_d = -1;
        if (ear) {
            // a stays at chosen − 1 (or moves from m − 1 to m − 2), d moves to chosen (or stays at 0).
            known_at_a = chosen == 0 ? m - 2 : chosen - 1;
            known_at_d = chosen == m - 1 ? 0 : chosen;
            known_turn_a = -beyond_da_z;
            known_turn_d = -beyond_da_e;
        }
    }
    if (size == 3) {
        Cut cut{ring_at[0], ring_at[1], ring_at[2]};
        // After an ear of a 4-corner ring the three left are a rotation of (a, d, e): their turn
        // is known, and both variants' droppable cuts turn by 0.
        const int turn = known_at_d >= 0 ? known_turn_d : Triangulation::kTurnUnknown;
        const bool dropped = (turn == 0 || turn == Triangulation::kTurnUnknown) && droppable(cut[0], cut[1], cut[2]);
        (dropped ? out.dropped : out.triangles).push_back(cut);
        if (!dropped) out.last_turn = turn;
    }
}

/// ear_clip for a ring of four corners, from its four corner turns: `turn[k]` = orient(k − 1, k,
/// k + 1) in the variant's projection, exact. Any three of four corners leave one out, and the
/// three are consecutive, so every orientation the clipping asks is ± one of the four: the
/// candidate (j − 1, j, j + 1) turns as turn[j]; its containment test of the opposite corner
/// r = j + 2 asks orient(d, a, r) = orient(j + 1, j − 1, j + 2) = −turn[j + 2] (a swap),
/// orient(a, c, r) = orient(j − 1, j, j + 2) = turn[j − 1] and orient(c, d, r) = turn[j + 1]
/// (rotations); the three corners left after cutting j, (j − 1, j + 1, j + 2), turn as
/// turn[j + 2]; and takes_first_candidate_throughout(4, ·) is turn[0] > 0 and turn[2] > 0. The
/// predicates are exact and pure and asked where ear_clip asks them (droppable only at a turn of
/// 0, same only in the closed triangle), so the output is ear_clip's, field by field, except
/// `last_turn`: the last triangle's turn is always known here (ear_clip leaves it unknown after
/// a dropped first cut or a fallback; check_triangulation only reads it as the exact sign).
template <class Droppable, class Same>
void clip_quad(const std::array<int, 4>& turn, bool has_plane, Droppable droppable, Same same, bool fan_refuted, Triangulation& out) {
    start_clipping(out);
    out.last_corner_fan = !fan_refuted && turn[0] > 0 && turn[2] > 0;
    if (out.last_corner_fan) {
        for (int k = 0; k < 2; ++k) out.triangles.push_back(last_corner_fan_triangle(4, k));
        return;
    }
    auto at = [](int k) { return k & 3; };
    int chosen = -1;
    bool drop = false;
    for (int j = 0; j < 4 && chosen < 0; ++j) {
        const int a = at(j + 3), d = at(j + 1), r = at(j + 2);
        if (turn[j] == 0 && droppable(a, j, d)) {
            chosen = j;
            drop = true;
            break;
        }
        if (turn[j] <= 0) continue;
        const int beyond_da = -turn[r], beyond_ac = turn[a], beyond_cd = turn[d];
        const bool inside = beyond_da >= 0 && beyond_ac >= 0 && beyond_cd >= 0 &&
                            !((beyond_da == 0 && beyond_ac == 0 && same(r, a)) || (beyond_ac == 0 && beyond_cd == 0 && same(r, j)) ||
                              (beyond_cd == 0 && beyond_da == 0 && same(r, d)));
        if (!inside) chosen = j;
    }
    if (chosen < 0 && has_plane) {
        for (int j = 0; j < 4 && chosen < 0; ++j)
            if (turn[j] == 0) chosen = j;
        if (chosen >= 0) ++out.fallbacks;
    }
    if (chosen < 0) {
        out.no_ear = true;
        out.corners_left = 4;
        return;
    }
    (drop ? out.dropped : out.triangles).push_back(Cut{at(chosen + 3), chosen, at(chosen + 1)});
    // The three left in ring order, and their turn: a non-zero turn is no droppable cut.
    const Cut rest = chosen == 0 ? Cut{1, 2, 3} : (chosen == 1 ? Cut{0, 2, 3} : (chosen == 2 ? Cut{0, 1, 3} : Cut{0, 1, 2}));
    const int last = turn[at(chosen + 2)];
    const bool dropped = last == 0 && droppable(rest[0], rest[1], rest[2]);
    (dropped ? out.dropped : out.triangles).push_back(rest);
    if (!dropped) out.last_turn = last;
}

}  // namespace

Triangulation triangulate_newell(const FacePlane& plane) {
    Triangulation out;
    triangulate_newell(plane, out);
    return out;
}

void triangulate_newell(const FacePlane& plane, Triangulation& out, bool fan_refuted) {
    auto c = plane.corners();
    const NewellOrient orient(plane);
    auto droppable = [&](int a, int b, int d) { return zero_area_3d(c[a], c[b], c[d]); };
    auto same = [&](int r, int x) { return plane.same_projected(c[r], c[x]); };
    // In the audit the plane remembers every corner turn by the time it clips (X08 and the one
    // loop took them all), so a candidate that is still a corner of the face costs a lookup;
    // other callers' planes take the turn on first ask, at the same filtered cost.
    auto corner_turn = [&](int k) { return plane.corner_turn(k); };
    if (c.size() == 4) {
        clip_quad({corner_turn(0), corner_turn(1), corner_turn(2), corner_turn(3)}, !plane.normal_is_zero(), droppable, same, fan_refuted, out);
    } else {
        ear_clip(static_cast<int>(c.size()), !plane.normal_is_zero(), orient, droppable, same, fan_refuted, out, corner_turn);
    }
    out.turns_tested_along_normal = true;
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

namespace {

/// AxisPlane::orient of ring positions over the corners' two coordinates gathered once per
/// face, orient2d_sign's filter inline: picking the coordinates per corner and call took as
/// many instructions as the filter. A sign the filter decides (an exact 0 included) is
/// orient2d_sign's; any other goes to AxisPlane::orient, whose later stages settle it.
class AxisOrient {
public:
    AxisOrient(const AxisPlane& plane, std::span<const Point> corners) : plane_(plane), c_(corners.data()) {
        // One buffer per thread: no allocation once it fits the longest face.
        thread_local std::vector<double> uv;
        uv.resize(2 * corners.size());
        for (std::size_t k = 0; k < corners.size(); ++k) {
            uv[2 * k] = AxisPlane::coord(corners[k], plane.u);
            uv[2 * k + 1] = AxisPlane::coord(corners[k], plane.v);
        }
        uv_ = uv.data();
    }
    int operator()(int a, int b, int d) const {
        const double *p = uv_ + 2 * a, *q = uv_ + 2 * b, *r = uv_ + 2 * d;
        const Orient2dFilter<double> f = orient2d_filter(p[0], p[1], q[0], q[1], r[0], r[1]);
        if (f.det > f.bound) return plane_.sign;
        if (-f.det > f.bound) return -plane_.sign;
        if (f.bound == 0) return 0;
        return plane_.orient(c_[a], c_[b], c_[d]);
    }
    /// AxisPlane::same of two ring positions.
    bool same(int r, int x) const { return uv_[2 * r] == uv_[2 * x] && uv_[2 * r + 1] == uv_[2 * x + 1]; }

private:
    const AxisPlane& plane_;
    const Point* c_;
    const double* uv_;
};

}  // namespace

void triangulate_axis_plane(const FacePlane& plane, Triangulation& out, bool fan_refuted, const AxisPlane* axis,
                            std::span<const signed char> above) {
    auto c = plane.corners();
    const AxisPlane ap = axis ? *axis : axis_plane_of(plane);
    const AxisOrient orient(ap, c);
    auto droppable = [&](int a, int b, int d) { return orient(a, b, d) == 0; };
    auto same = [&](int r, int x) { return orient.same(r, x); };
    const int n = static_cast<int>(c.size());
    if (n == 4) {
        std::array<int, 4> turn;
        for (int k = 0; k < 4; ++k)
            turn[k] = ap.axis == 1 && above.size() == 4 ? ap.sign * above[k] : orient(k == 0 ? 3 : k - 1, k, k == 3 ? 0 : k + 1);
        clip_quad(turn, !plane.normal_is_zero(), droppable, same, fan_refuted, out);
    } else if (ap.axis == 1 && above.size() == c.size()) {
        // Along y a corner's turn is N_y's sign times its turn from above (AxisPlane::orient),
        // which the caller already took.
        auto corner_turn = [&](int k) { return ap.sign * above[k]; };
        ear_clip(n, !plane.normal_is_zero(), orient, droppable, same, fan_refuted, out, corner_turn);
    } else {
        ear_clip(n, !plane.normal_is_zero(), orient, droppable, same, fan_refuted, out);
    }
    out.turns_tested_along_normal = false;
}

int lost_triangles(const FacePlane& plane, const Triangulation& t) {
    auto c = plane.corners();
    int lost = 0;
    for (const Cut& cut : t.dropped) lost += !zero_area_3d(c[cut[0]], c[cut[1]], c[cut[2]]);
    return lost;
}

}  // namespace navlab::geometry
