// The four-lane functions (analyse_group_avx2) inline every helper over WideLanes (flatten), so
// in an optimised build no helper runs as split SSE2 code. A build that does not inline (GCC at
// -O0) gets the helpers out of line as non-AVX code: slower, the same bits, because no function
// with a target attribute takes or returns a WideLanes (lanes.h). That build's notes about the
// 32-byte ABI are why CMakeLists.txt gives this file -Wno-psabi.
#include "audit/audit_face_batch.h"
#include "audit/audit_context.h"
#include "io/cpu_features.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace navlab::audit {

namespace {

/// The exact signs analyse_face_at_once asks of the faces of N corners (4 … 8) in W's lanes, each
/// decided by its own predicate's filter, or the lane is left undecided. The filters are the
/// predicates' own (turn_filter_terms for orientations along N, orient2d_filter for those
/// seen from above, Approx's test for axis_plane_of's comparisons), so any sign they decide
/// is the exact one the one-face path computes; which of the two paths decides it does not
/// matter. A lane is decided when:
///  * N_y's sign is decided and not 0: the winding, and the one loop is not refused;
///  * every corner turns along N decidedly (+, − or an exact 0), so X08 is known, and
///    takes_first_candidate_throughout's 2n − 6 orientations along N are decided positive;
///  * |N_y| > |N_x| and not |N_z| > |N_y|, decided: axis_plane_of gives y with N_y's sign, whose
///    orientations are N_y's sign times the turns seen from above; the same 2n − 6 of them
///    are decided positive (the axis-plane fan), and every corner's turn from above is decided:
///    with N_y at corners 0 and n − 2 (the fan's ends), any way at the others (against N_y it
///    is a reflex corner: the one loop then takes convexity_from_above, and so does
///    analyse_face for a lane marked reflex_from_above);
///  * first_bad_fan_triangle's orientations are decided up to its answer.
/// docs/audit.md, "Thirty-third session", lists the faces left undecided.
template <class W>
struct DecidedLanes {
    MaskOf<W> both_fans, concave_in_newell_plane, bad_fan, reflex_from_above;
    /// bad_fan is first_bad_fan_triangle's answer: its orientations are decided up to it.
    MaskOf<W> bad_fan_decided;
    /// Each corner's turn along N as its filter decided it (faces of 4 … N corners): positive,
    /// negative, or an exact 0; none of the three where it left the turn open.
    MaskOf<W> turn_positive[FaceBatch::kMostCorners], turn_negative[FaceBatch::kMostCorners], turn_zero[FaceBatch::kMostCorners];
};
template <int N, class W>
DecidedLanes<W> decide_one_loop(const Vec3<W>* p, const NewellSum<W>& normal) {
    using Mask = MaskOf<W>;
    const Vec3<W>& n = normal.value;
    const Vec3<W>& e = normal.error;
    Mask ok = sign_decided(n.y, e.y) & (n.y != 0);
    const W winding = n.y > 0 ? splat<W>(1) : splat<W>(-1);
    const W y_over_x = abs_of(n.y) - abs_of(n.x), z_over_y = abs_of(n.z) - abs_of(n.y);
    ok &= sign_decided(y_over_x, e.y + e.x + abs_of(y_over_x) * kHalfUlp) & (y_over_x > 0);
    ok &= sign_decided(z_over_y, e.z + e.y + abs_of(z_over_y) * kHalfUlp) & ~(z_over_y > 0);
    // Along N: the corner turns (u, w the sides into and out of corner k), then others.
    Vec3<W> side[N];
    for (int k = 0; k < N; ++k) side[k] = p[k] - p[k == 0 ? N - 1 : k - 1];
    DecidedLanes<W> out;
    Mask positive[N], not_positive[N], concave{};
    for (int k = 0; k < N; ++k) {
        const TurnFilter<W> t = turn_filter_terms(side[k], side[k + 1 == N ? 0 : k + 1], n, e);
        const Mask negative = -t.value > t.bound, zero = t.bound == 0;
        positive[k] = t.value > t.bound;
        not_positive[k] = negative | zero;
        ok &= positive[k] | not_positive[k];
        concave |= negative;
        out.turn_positive[k] = positive[k], out.turn_negative[k] = negative, out.turn_zero[k] = zero;
    }
    auto along_n = [&](int a, int b, int d) { return turn_filter_terms(p[b] - p[a], p[d] - p[b], n, e); };
    auto from_above = [&](int a, int b, int d) {
        const Orient2dFilter<W> o = orient2d_filter(p[a].z, p[a].x, p[b].z, p[b].x, p[d].z, p[d].x);
        return TurnFilter<W>{winding * o.det, o.bound};  // along the axis plane's sign
    };
    auto decided_positive = [](const TurnFilter<W>& t) { return t.value > t.bound; };
    // takes_first_candidate_throughout in both variants: (a) orient(A, k, k + 1) for
    // k = 0 … n − 3, (b) orient(A, 1, j) for j = 3 … n − 2, A = n − 1. (a)'s ends are the
    // turns at corners 0 and n − 2 (the same sign in any rotation).
    ok &= positive[0] & positive[N - 2];
    for (int k = 1; k <= N - 4; ++k) ok &= decided_positive(along_n(N - 1, k, k + 1)) & decided_positive(from_above(N - 1, k, k + 1));
    for (int j = 3; j <= N - 2; ++j) ok &= decided_positive(along_n(N - 1, 1, j)) & decided_positive(from_above(N - 1, 1, j));
    // Seen from above, every corner's turn decided (with N_y, against it, or exactly 0), and
    // those at corners 0 and n − 2 with it: (a)'s ends, so a turn against N_y elsewhere
    // (2,010 faces of Sekiro `krak`) still leaves both fans, with a reflex corner.
    Mask reflex{};
    for (int k = 0; k < N; ++k) {
        const TurnFilter<W> t = from_above(k == 0 ? N - 1 : k - 1, k, k + 1 == N ? 0 : k + 1);
        if (k == 0 || k == N - 2) {
            ok &= decided_positive(t);
        } else {
            const Mask against = -t.value > t.bound;
            ok &= decided_positive(t) | against | (t.bound == 0);
            reflex |= against;
        }
    }
    // first_bad_fan_triangle: the first k = 1 … n − 2 with orient(0, k, k + 1) ≤ 0; its ends are
    // the turns at corners 1 and n − 1. Every orientation before the answer must be decided.
    Mask bad = ~Mask{}, found{}, bad_fan_decided = ~Mask{};
    for (int k = 1; k <= N - 2; ++k) {
        Mask is_positive = positive[1], is_not_positive = not_positive[1];
        if (k == N - 2) {
            is_positive = positive[N - 1], is_not_positive = not_positive[N - 1];
        } else if (k != 1) {
            const TurnFilter<W> t = along_n(0, k, k + 1);
            is_positive = t.value > t.bound, is_not_positive = (-t.value > t.bound) | (t.bound == 0);
        }
        bad_fan_decided &= found | is_positive | is_not_positive;
        const Mask first = ~found & is_not_positive;
        bad = (bad & ~first) | ((Mask{} + k) & first);
        found |= is_not_positive;
    }
    ok &= bad_fan_decided;
    out.both_fans = ok, out.concave_in_newell_plane = concave, out.bad_fan = bad, out.reflex_from_above = reflex;
    out.bad_fan_decided = bad_fan_decided;
    return out;
}

/// The first kLanesOf<W> entries of `p` as one W (double or int64 entries), and back.
template <class W, class T>
W load_lanes(const T* p) {
    W w;
    std::memcpy(&w, p, sizeof w);
    return w;
}
template <class W, class T>
void store_lanes(T* p, const W& w) {
    std::memcpy(p, &w, sizeof w);
}

/// Corner k of the faces at `at[0 … L − 1]` as x, y and z lane values. Four lanes: each corner
/// one 32-byte load (x, y, z and the next Point's x, which the corner storage's slack makes
/// readable after the last corner), the four transposed by unpacking pairs of rows and taking
/// 128-bit halves (7 shuffles against 12 scalar loads and 6 inserts).
template <class W>
Vec3<W> gather_corner(const Point* const* at, int k) {
    if constexpr (kLanesOf<W> == 2) {
        return {W{at[0][k].x, at[1][k].x}, W{at[0][k].y, at[1][k].y}, W{at[0][k].z, at[1][k].z}};
    } else {
        // __builtin_shufflevector (GCC 12 and clang; GCC's __builtin_shuffle is not clang's).
        const W r0 = load_lanes<W>(&at[0][k].x), r1 = load_lanes<W>(&at[1][k].x), r2 = load_lanes<W>(&at[2][k].x),
                r3 = load_lanes<W>(&at[3][k].x);
        const W xz01 = __builtin_shufflevector(r0, r1, 0, 4, 2, 6), y01 = __builtin_shufflevector(r0, r1, 1, 5, 3, 7);
        const W xz23 = __builtin_shufflevector(r2, r3, 0, 4, 2, 6), y23 = __builtin_shufflevector(r2, r3, 1, 5, 3, 7);
        return {__builtin_shufflevector(xz01, xz23, 0, 1, 4, 5), __builtin_shufflevector(y01, y23, 0, 1, 4, 5),
                __builtin_shufflevector(xz01, xz23, 2, 3, 6, 7)};
    }
}

/// DecidedTallies::Maximum's lanes as lane values.
template <class W>
struct LaneMaximum {
    W first, first_face, best, best_face;
    explicit LaneMaximum(const DecidedTallies::Maximum& m)
        : first(load_lanes<W>(m.first)), first_face(load_lanes<W>(m.first_face)), best(load_lanes<W>(m.best)),
          best_face(load_lanes<W>(m.best_face)) {}
    void store(DecidedTallies::Maximum& m) const {
        store_lanes(m.first, first), store_lanes(m.first_face, first_face), store_lanes(m.best, best), store_lanes(m.best_face, best_face);
    }
    /// Each lane's `value` at face `face` offered where `offered` (DecidedTallies::Maximum: the
    /// smaller face wins between equal values, so the faces may come in any order).
    void offer(const W& value, const W& face, const MaskOf<W>& offered) {
        const MaskOf<W> earlier = offered & (face < first_face);
        first = earlier ? value : first;
        first_face = earlier ? face : first_face;
        // NaN is never better; -infinity is, over the empty lane's -infinity at face +infinity.
        const MaskOf<W> better = offered & ((value > best) | ((value == best) & (face < best_face)));
        best = better ? value : best;
        best_face = better ? face : best_face;
    }
};

}  // namespace

/// DecidedTallies' first kLanesOf<W> lanes, taken by FaceBatch::analyse_length before its groups
/// and put back after them: in locals the compiler need not load and store every figure per group.
template <class W>
struct LaneTallies {
    using Mask = MaskOf<W>;
    Mask faces, not_convex_in_newell_plane, triangles;
    LaneMaximum<W> off_plane, projected_relative;
    W area_difference_face, area_difference_relative_face;
    explicit LaneTallies(const DecidedTallies& t)
        : faces(load_lanes<Mask>(t.faces)), not_convex_in_newell_plane(load_lanes<Mask>(t.not_convex_in_newell_plane)),
          triangles(load_lanes<Mask>(t.triangles)), off_plane(t.off_plane), projected_relative(t.projected_relative),
          area_difference_face(load_lanes<W>(t.area_difference_face)),
          area_difference_relative_face(load_lanes<W>(t.area_difference_relative_face)) {}
    void store(DecidedTallies& t) const {
        store_lanes(t.faces, faces), store_lanes(t.not_convex_in_newell_plane, not_convex_in_newell_plane);
        store_lanes(t.triangles, triangles);
        off_plane.store(t.off_plane), projected_relative.store(t.projected_relative);
        store_lanes(t.area_difference_face, area_difference_face);
        store_lanes(t.area_difference_relative_face, area_difference_relative_face);
    }
};

namespace {

/// Bit k set where lane k of the mask `m` is set: SSE2's movmskpd per two lanes (no target
/// attribute needed; in the avx2 functions a vmovmskpd per half).
template <class M>
unsigned lane_bits(const M& m) {
#if defined(__SSE2__)
    if constexpr (sizeof m == 16) {
        return static_cast<unsigned>(_mm_movemask_pd(reinterpret_cast<__m128d>(m)));
    } else {
        static_assert(sizeof m == 32);
        const auto lo = __builtin_shufflevector(m, m, 0, 1), hi = __builtin_shufflevector(m, m, 2, 3);
        return static_cast<unsigned>(_mm_movemask_pd(reinterpret_cast<__m128d>(lo)) | _mm_movemask_pd(reinterpret_cast<__m128d>(hi)) << 2);
    }
#else
    unsigned bits = 0;
    for (int lane = 0; lane < static_cast<int>(sizeof m / 8); ++lane) bits |= static_cast<unsigned>(m[lane] & 1) << lane;
    return bits;
#endif
}

/// `bits`' low four bits as four bools (0 or 1 bytes) at `out`: bit k moves to byte k.
inline void store_bits_as_bools(unsigned bits, bool* out, int lanes) {
    static_assert(std::endian::native == std::endian::little, "byte k of the word is out[k]");
    if (lanes == 4) {
        const std::uint32_t bytes = (bits * 0x204081u) & 0x01010101u;  // bits k·8 apart: no carries
        std::memcpy(out, &bytes, 4);
    } else {
        for (int lane = 0; lane < lanes; ++lane) out[lane] = (bits >> lane) & 1;
    }
}

}  // namespace

FaceBatch::Width FaceBatch::widest() { return cpu_has_avx2() ? Width::four : Width::two; }

void FaceBatch::analyse(const Point* corners, bool corner_boxes) {
#if defined(__x86_64__)
    if (width_ == Width::four) {
        if (corner_boxes) return analyse_from<3, WideLanes, true>(corners);
        return analyse_from<3, WideLanes, false>(corners);
    }
#endif
    if (corner_boxes) return analyse_from<3, Lanes, true>(corners);
    analyse_from<3, Lanes, false>(corners);
}

template <int N, class W, bool Boxes>
void FaceBatch::analyse_from(const Point* corners) {
    constexpr int kL = kLanesOf<W>;
    if (const int count = of_length_count_[N]; count > 0) {
        const int row = (N - 3) * kRow;
        for (int k = count; k % kL != 0; ++k) at_[row + k] = at_[row + count - 1], face_[row + k] = face_[row + count - 1];
        if constexpr (kL == 4) {
            analyse_length_avx2<N, Boxes>(corners, row, count);
        } else {
            analyse_length<N, W, Boxes>(corners, row, count);
        }
    }
    if constexpr (N < kMostCorners) analyse_from<N + 1, W, Boxes>(corners);
}

template <int N, class W, bool Boxes>
void FaceBatch::analyse_length(const Point* corners, int row, int count) {
    constexpr int kL = kLanesOf<W>;
    LaneTallies<W> t(tallies_);
    for (int j = 0; j < count; j += kL) analyse_group<N, W, Boxes>(corners, row + j, std::min(kL, count - j), t);
    t.store(tallies_);
}

#if defined(__x86_64__)
template <int N, bool Boxes>
[[gnu::target("avx2"), gnu::flatten]] void FaceBatch::analyse_length_avx2(const Point* corners, int row, int count) {
    analyse_length<N, WideLanes, Boxes>(corners, row, count);
}
#endif

template <int N, class W>
void FaceBatch::store_corner_boxes(const Vec3<W>* corner, int place) {
    // bounds_of's operations (audit_context.cpp) lane by lane, so each box has its bits: from
    // ±infinity, `q < lo ? q : lo` and `hi < q ? q : hi` in corner order, narrowed once. For
    // four faces at once they are ≈ 6 operations a corner against bounds_of's ≈ 16 a corner a
    // face (≈ 7.5 M instructions on eldenring `m31`).
    const W inf = splat<W>(INFINITY);
    Vec3<W> lo{inf, inf, inf}, hi{-inf, -inf, -inf};
    for (int k = 0; k < N; ++k) {
        const Vec3<W>& c = corner[k];
        lo.x = c.x < lo.x ? c.x : lo.x, hi.x = hi.x < c.x ? c.x : hi.x;
        lo.y = c.y < lo.y ? c.y : lo.y, hi.y = hi.y < c.y ? c.y : hi.y;
        lo.z = c.z < lo.z ? c.z : lo.z, hi.z = hi.z < c.z ? c.z : hi.z;
    }
    for (int lane = 0; lane < kLanesOf<W>; ++lane) {
        CornerBounds& b = box_[place + lane];
        b.min[0] = static_cast<float>(lo.x[lane]), b.min[1] = static_cast<float>(lo.y[lane]), b.min[2] = static_cast<float>(lo.z[lane]);
        b.max[0] = static_cast<float>(hi.x[lane]), b.max[1] = static_cast<float>(hi.y[lane]), b.max[2] = static_cast<float>(hi.z[lane]);
    }
}

template <int N, class W, bool Boxes>
void FaceBatch::analyse_group(const Point* corners, const int place, int used, LaneTallies<W>& t) {
    constexpr int kL = kLanesOf<W>;
    using Mask = MaskOf<W>;
    const Point* at[kL];
    for (int lane = 0; lane < kL; ++lane) at[lane] = corners + at_[place + lane];
    Vec3<W> p[N];
    for (int k = 0; k < N; ++k) p[k] = gather_corner<W>(at, k);
    if constexpr (Boxes) store_corner_boxes<N>(p, place);
    // FacePlane: N and its bound, |N|.
    const NewellSum<W> normal = newell_sum(p, N);
    const W length = length_of(normal.value);
    // R40: max_distance_from_mean_plane.
    const FarthestCorner<W> far = farthest_from_mean_plane(p, N, normal.value, length);
    // R44: check_triangulation of the last-corner fan, its triangles in order.
    W sum = splat<W>(0);
    for (int k = 0; k < N - 2; ++k) {
        const Cut cut = last_corner_fan_triangle(N, k);
        sum += projected_area(p[cut[0]] - p[0], p[cut[1]] - p[0], p[cut[2]] - p[0], normal.value, length);
    }
    const W face = length / 2.0, relative = relative_difference(sum, face);
    // The exact signs the one loop needs: a triangle needs N_y's alone (analyse_triangle).
    const DecidedLanes<W> decided = [&] {
        if constexpr (N > 3) {
            return decide_one_loop<N>(p, normal);
        } else {
            return DecidedLanes<W>{sign_decided(normal.value.y, normal.error.y) & (normal.value.y != 0), MaskOf<W>{}, ~MaskOf<W>{}, MaskOf<W>{},
                                   MaskOf<W>{}, {}, {}, {}};
        }
    }();
    // The decided faces' tallies: what FaceTallies::add takes of the geometry analyse_face
    // builds for them (its both-fans outcome: N ≠ 0, an ear everywhere, nothing dropped, lost,
    // turned or fallen back on, n − 2 triangles, R45's area difference 0, the rest from these
    // figures). A repeated face is counted once and offered again (which changes no maximum).
    W lane_number;
    for (int lane = 0; lane < kL; ++lane) lane_number[lane] = lane;
    const W face_index = load_lanes<W>(face_ + place);
    const Mask counted = decided.both_fans & (lane_number < splat<W>(used));
    const W projected_relative = length > 0 ? relative : splat<W>(0);  // check_triangulation's 0 without a plane
    t.faces -= counted;
    t.not_convex_in_newell_plane -= counted & decided.concave_in_newell_plane;
    t.triangles += counted & (Mask{} + (N - 2));
    t.off_plane.offer(far.distance, face_index, decided.both_fans);
    t.projected_relative.offer(projected_relative, face_index, decided.both_fans);
    t.area_difference_face = (decided.both_fans & (face_index < t.area_difference_face)) ? face_index : t.area_difference_face;
    // 0 / P_f where P_f > 0
    t.area_difference_relative_face =
        (decided.both_fans & (face > 0) & (face_index < t.area_difference_relative_face)) ? face_index : t.area_difference_relative_face;
    // Common: not kept among the unusual faces (FaceTallies::add's test on that geometry). R45's
    // area difference, 0, is within its tolerance.
    static_assert(0 <= kR45AreaDifferenceMost);
    const Mask common = decided.both_fans & (normal.value.y > 0) & ~decided.reflex_from_above & (decided.bad_fan < Mask{}) &
                        (far.distance <= splat<W>(off_plane_limit_)) & (projected_relative <= splat<W>(kR44ProjectedRelativeMost));
    // Every face's centre (R64) and whether it is common; the other figures only for a face that
    // is not, the only ones analyse_face reads them for (writing them all lane by lane was ≈ 19 M
    // instructions on Sekiro `krak`, 90 % of its faces common).
    store_lanes(centre_x_ + place, far.centroid.x), store_lanes(centre_y_ + place, far.centroid.y);
    store_lanes(centre_z_ + place, far.centroid.z);
    const unsigned common_lanes = lane_bits(common);
    store_bits_as_bools(common_lanes, common_ + place, kL);
    for (unsigned rest = ~common_lanes & ((1u << kL) - 1); rest != 0; rest &= rest - 1) {
        const int lane = std::countr_zero(rest);
        FaceFigures& f = figures_[place + lane];
        f.normal = FacePlane::approx_normal({{normal.value.x[lane], normal.value.y[lane], normal.value.z[lane]},
                                             {normal.error.x[lane], normal.error.y[lane], normal.error.z[lane]}});
        f.length = length[lane];
        f.off_plane = {far.distance[lane], static_cast<int>(far.corner[lane])};
        f.fan_check = {};
        f.fan_check.projected_face = face[lane];
        if (length[lane] > 0) {  // check_triangulation leaves the sums 0 without a plane
            f.fan_check.projected_sum = sum[lane];
            f.fan_check.projected_relative = relative[lane];
        }
        f.decided = {decided.both_fans[lane] != 0, decided.concave_in_newell_plane[lane] == 0, static_cast<int>(decided.bad_fan[lane]),
                     decided.reflex_from_above[lane] != 0, decided.bad_fan_decided[lane] != 0};
        // Every entry written (those past the N corners open), so two batches' figures compare.
        for (int k = 0; k < FaceFigures::kMostTurns; ++k) {
            signed char turn = FacePlane::kTurnOpen;
            if (N > 3 && k < N) {
                if (decided.turn_positive[k][lane]) turn = 1;
                else if (decided.turn_negative[k][lane]) turn = -1;
                else if (decided.turn_zero[k][lane]) turn = 0;
            }
            f.turns[k] = turn;
        }
    }
}

}  // namespace navlab::audit
