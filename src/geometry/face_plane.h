// A face's corners and its Newell normal, with the exact predicates that are decided in the
// plane of that normal (audit-rules.md §1): the sign of each normal component, orientation
// of three corners seen along the normal, and "same projected position".
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "geometry/exact.h"
#include "geometry/lanes.h"

namespace navlab::geometry {

/// The Newell normal N = Σ_{k=1}^{n−2} (P_k − P_0) × (P_{k+1} − P_0) of n corners in double,
/// with a rigorous bound on each component's error, over double (FacePlane) or Lanes (the
/// face batch, audit_face_batch.h), so both form N in the same operations. Each term has at
/// most 4 roundings per product (γ4 of its magnitude |a·b| + |c·d|) and the running sum of
/// n − 2 terms n − 3 more: ≤ (n + 1)ε(1 + O(ε)) Σ m_k, taken as (2n + 8)ε, and 1 + 1e-9 for
/// the rounding of m and of the bound. When a component's magnitude sum is 0 every term is
/// exactly 0 (differences of float32 values do not underflow), so the error 0 is exact.
template <class T>
struct NewellSum {
    Vec3<T> value, error;
};
template <class T>
NewellSum<T> newell_sum(const Vec3<T>* corners, std::size_t n) {
    Vec3<T> value{}, magnitude{};
    for (std::size_t k = 1; k + 1 < n; ++k) {
        const Vec3<T> a = corners[k] - corners[0], b = corners[k + 1] - corners[0];
        value = value + cross(a, b);
        magnitude.x += abs_of(a.y * b.z) + abs_of(a.z * b.y);
        magnitude.y += abs_of(a.z * b.x) + abs_of(a.x * b.z);
        magnitude.z += abs_of(a.x * b.y) + abs_of(a.y * b.x);
    }
    const double scale = (2.0 * static_cast<double>(n) + 8) * kHalfUlp * (1 + 1e-9);
    return {value, {scale * magnitude.x, scale * magnitude.y, scale * magnitude.z}};
}

/// |N| = sqrt(N · N), over double or Lanes.
template <class T>
T length_of(const Vec3<T>& v) {
    return sqrt_of(dot(v, v));
}

/// The filter of a turn along N: c · N in floating point for c = u × w (u = q − p, w = r − q),
/// and a bound on its error, over double (FacePlane's orient and corner turns) or Lanes (the
/// face batch, audit_face_batch.h), so both decide with the same operations. Plain values and
/// one error bound for the whole fixed expression, instead of Approx's bound carried through
/// each of its ~30 operations (orient was the audit's hottest predicate). Each cross-product
/// component has at most 4 roundings on each of its two products (γ4 of |a·b| + |c·d|), the
/// dot product 3 more: ≤ 7ε(1 + O(ε)) Σ m_i |N_i|, taken as 16ε. N's own uncertainty (`error`,
/// newell_sum's bound e_i) adds ≤ Σ |c_i| e_i ≤ Σ m_i e_i. The factor 1 + 1e-9 covers the
/// rounding of m and of the bound itself. FacePlane::filtered_sign reads the sign from them.
template <class T>
struct TurnFilter {
    T value, bound;
};
template <class T>
[[gnu::always_inline]] inline TurnFilter<T> turn_filter_terms(const Vec3<T>& u, const Vec3<T>& w, const Vec3<T>& normal, const Vec3<T>& error) {
    const Vec3<T> c = cross(u, w);
    const T mx = abs_of(u.y * w.z) + abs_of(u.z * w.y), my = abs_of(u.z * w.x) + abs_of(u.x * w.z),
            mz = abs_of(u.x * w.y) + abs_of(u.y * w.x);
    const T value = dot(c, normal);
    const T rounding = 16 * kHalfUlp * (mx * abs_of(normal.x) + my * abs_of(normal.y) + mz * abs_of(normal.z));
    return {value, (rounding + mx * error.x + my * error.y + mz * error.z) * (1 + 1e-9)};
}

class FacePlane {
public:
    /// N in double with a rigorous error bound per component.
    struct ApproxNormal {
        Vec3<double> value;
        Vec3<Approx> bound;
    };
    /// @param corners the face's corner positions P_0 … P_{n−1} in ring order (float32 values
    ///                as doubles); the span must outlive the FacePlane.
    explicit FacePlane(std::span<const Point> corners);
    /// The same plane from its N and |N| computed ahead, with the same operations (the face
    /// batch, audit_face_batch.h, computes them for many faces at once).
    FacePlane(std::span<const Point> corners, const ApproxNormal& normal, double length);
    /// The same with corner turns already decided (the face batch's filters, audit_face_batch.h):
    /// `turns[k]` is corner_turn(k)'s exact sign, or kTurnOpen where not decided; one entry per
    /// corner, n ≤ kRememberedTurns. remember_corner_turns then computes only the open ones.
    FacePlane(std::span<const Point> corners, const ApproxNormal& normal, double length, std::span<const signed char> turns);

    std::span<const Point> corners() const noexcept { return corners_; }
    /// The Newell normal N = Σ (P_k − P_0) × (P_{k+1} − P_0) in double (twice the vector area).
    const Vec3<double>& normal() const noexcept { return normal_.value; }
    /// |N| = sqrt(N · N) in double, computed once: R40's distances and the triangulation check
    /// both divide by it.
    double normal_length() const {
        if (length_ < 0) length_ = length_of(normal_.value);
        return length_;
    }
    /// Exact sign (−1, 0, +1) of N's component `axis` (0 = x, 1 = y, 2 = z).
    int normal_sign(int axis) const {
        const signed char s = signs_[axis];  // remembered: asked a dozen times per face
        return s != kUnknownTurn ? s : compute_normal_sign(axis);
    }
    /// N's component `axis` in double with a rigorous bound on its error (the filter's value).
    Approx normal_bound(int axis) const {
        return axis == 0 ? normal_.bound.x : (axis == 1 ? normal_.bound.y : normal_.bound.z);
    }
    /// Whether N is exactly the zero vector.
    bool normal_is_zero() const;
    /// Exact sign of ((q − p) × (r − q)) · N: positive when p, q, r turn like the face.
    int orient(const Point& p, const Point& q, const Point& r) const;
    /// orient() of the corners at ring positions a, b, d (0 … n−1). The turns at single corners
    /// (P_{k−1}, P_k, P_{k+1}), in any rotation, are computed once per face and remembered for
    /// rings of up to kRememberedTurns corners: convexity, the fan, ear clipping and the check of
    /// its triangles all ask for them.
    int orient_at(int a, int b, int d) const;
    /// The turn at corner k (0 … n−1): orient(P_{k−1}, P_k, P_{k+1}), neighbours modulo n.
    int corner_turn(int k) const {
        if (static_cast<std::size_t>(k) < kRememberedTurns && turns_[k] != kUnknownTurn) return turns_[k];
        return compute_corner_turn(k);
    }
    static constexpr std::size_t kRememberedTurns = 32;
    /// A turn not (yet) decided: corner_turn's memo and the known turns handed to the constructor.
    static constexpr signed char kTurnOpen = 2;
    /// Computes every corner_turn() of a ring of up to kRememberedTurns corners in one loop
    /// (the audit asks for all of them; one call per corner cost as much as the arithmetic).
    void remember_corner_turns() const;
    /// Whether (p − q) × N = 0 exactly: p and q project to the same point along N.
    bool same_projected(const Point& p, const Point& q) const;
    /// The exact N (computed on first use).
    const Vec3<Expansion>& exact_normal() const;
    /// N with its bound as the plane keeps them, from newell_sum's value and error (one way
    /// for the plane and for FaceBatch, which computes the sums two or four faces at a time;
    /// inline, so the batch's lanes are written back without a call).
    static ApproxNormal approx_normal(const NewellSum<double>& n) {
        return {n.value, {Approx(n.value.x, n.error.x), Approx(n.value.y, n.error.y), Approx(n.value.z, n.error.z)}};
    }

private:
    /// The signs of N that its filter decides, at construction.
    void take_decided_signs();
    int compute_normal_sign(int axis) const;
    int compute_corner_turn(int k) const;
    /// orient()'s floating-point filter: the sign when a static error bound decides it (an
    /// exact 0 included), else kUnknownTurn.
    int orient_filtered(const Point& p, const Point& q, const Point& r) const;
    /// The same filter for u = q − p and w = r − q already subtracted.
    int turn_filter(const Vec3<double>& u, const Vec3<double>& w) const;
    /// The filter's figures for u and w (turn_filter_terms with this plane's N).
    TurnFilter<double> filter_terms(const Vec3<double>& u, const Vec3<double>& w) const;
    /// The filter's decision from c · N's value and error bound: ±1, 0, or kUnknownTurn.
    static int filtered_sign(double value, double bound);
    std::span<const Point> corners_;
    ApproxNormal normal_;
    mutable std::optional<Vec3<Expansion>> exact_;
    mutable double length_ = -1;  ///< normal_length(), negative until computed
    static constexpr signed char kUnknownTurn = kTurnOpen;
    mutable std::array<signed char, kRememberedTurns> turns_;  ///< kUnknownTurn until computed
    /// Every corner's entry of turns_ is known (remember_corner_turns has nothing to do).
    mutable bool all_turns_known_ = false;
    /// normal_sign() per axis, kUnknownTurn until computed: winding, convexity, both
    /// triangulations and their checks ask for the same signs a dozen times per face.
    mutable std::array<signed char, 3> signs_{kUnknownTurn, kUnknownTurn, kUnknownTurn};
};

/// FacePlane::orient_at with its filter inline (turn_filter_terms with the plane's N and
/// bound, the very operations of FacePlane::orient's filter): ear clipping, the one loop's fan
/// proof and R41's fan ask for orientations that are mostly not corner turns, and a call to
/// orient_at and orient per orientation cost twice the filter's arithmetic. A sign the filter
/// decides is the exact one; any other goes to orient_at, whose remembered turns, exact zero
/// and expansions settle it as before. Holds a reference to `plane`, which must outlive it.
class NewellOrient {
public:
    explicit NewellOrient(const FacePlane& plane)
        : plane_(plane), c_(plane.corners().data()), normal_(plane.normal()),
          error_{plane.normal_bound(0).error, plane.normal_bound(1).error, plane.normal_bound(2).error} {}
    /// orient_at(a, b, d): the exact sign (−1, 0, +1) along N of the corners at ring positions a, b, d.
    int operator()(int a, int b, int d) const {
        const TurnFilter<double> t = turn_filter_terms(c_[b] - c_[a], c_[d] - c_[b], normal_, error_);
        if (t.value > t.bound) return 1;
        if (-t.value > t.bound) return -1;
        return plane_.orient_at(a, b, d);
    }

private:
    const FacePlane& plane_;
    const Point* c_;
    Vec3<double> normal_, error_;
};

/// Whether (q − p) × (r − q) = (0, 0, 0) exactly: the cut p, q, r has no area in 3-space.
/// @param p,q,r finite float32 values as doubles (orient2d_sign's inputs).
bool zero_area_3d(const Point& p, const Point& q, const Point& r);

/// Whether two points are exactly equal.
inline bool same_point(const Point& a, const Point& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/// The Newell normal of `corners` over number type T (computed relative to P_0).
template <class T>
Vec3<T> newell_normal(std::span<const Point> corners) {
    Vec3<T> n{T(0.0), T(0.0), T(0.0)};
    if (corners.size() < 3) return n;
    Vec3<T> p0 = lift<T>(corners[0]);
    for (std::size_t k = 1; k + 1 < corners.size(); ++k)
        n = n + cross(lift<T>(corners[k]) - p0, lift<T>(corners[k + 1]) - p0);
    return n;
}

}  // namespace navlab::geometry
