// The exact sign of a turn in two coordinates, with a static floating-point filter first.
//
// The audit asks this predicate for every corner of every face (R39's turns seen from above,
// R48's axis-plane ear clipping), so its filter matters: Approx tracks an error bound through
// every operation, while the expression here is fixed and its rounding error can be bounded
// once (Shewchuk's orient2d "A" bound), which costs three more multiplications than the
// plain double value. Only when that bound cannot decide is the expression recomputed with
// expansions, so the sign is always the exact one.
#pragma once

#include <cmath>

#include "geometry/exact.h"
#include "geometry/lanes.h"

namespace navlab::geometry {

/// Whether x = fl(a − b) is exact: the error term of Shewchuk's two_diff is 0.
inline bool difference_exact(double a, double b, double x) {
    const double b_virtual = a - x, a_virtual = x + b_virtual;
    return (a - a_virtual) + (b_virtual - b) == 0;
}

/// orient2d_sign's filter over double or lane values (the face batch, audit_face_batch.h, decides
/// two or four faces' turns at once with it): the determinant in floating point and a bound on its
/// error. Each product carries three roundings (two differences, the product) and the subtraction a
/// fourth: |error| ≤ 4ε(1 + O(ε)) (|left| + |right|); 8ε leaves a wide margin. No underflow:
/// differences of float32 values are at least 2^-149, products at least 2^-298. The sign is decided
/// when |det| > bound, and is 0 when bound = 0 (see orient2d_sign).
template <class T>
struct Orient2dFilter {
    T det, bound;
};
template <class T>
[[gnu::always_inline]] inline Orient2dFilter<T> orient2d_filter(T pa, T pb, T qa, T qb, T ra, T rb) {
    const T ua = qa - pa, ub = qb - pb, wa = ra - qa, wb = rb - qb;
    const T left = ua * wb, right = ub * wa;
    return {left - right, 8 * kHalfUlp * (abs_of(left) + abs_of(right))};
}

/// Exact sign (−1, 0, +1) of (q − p) × (r − q) in the plane of two coordinates:
/// (qa − pa)(rb − qb) − (qb − pb)(ra − qa).
/// @param pa,pb,qa,qb,ra,rb float32 values converted to double, finite (exact inputs).
inline int orient2d_sign(double pa, double pb, double qa, double qb, double ra, double rb) {
    const auto [det, bound] = orient2d_filter(pa, pb, qa, qb, ra, rb);
    if (det > bound) return 1;
    if (-det > bound) return -1;
    // A zero bound means both products came out 0, and with finite float32 inputs that is
    // exact: a difference of two doubles is 0 only when they are equal, and a product of two
    // non-zero differences (each at least 2^-149) cannot underflow. Straight corners along an
    // axis (the common exact zero) then need no expansions.
    if (bound == 0) return 0;
    const double ua = qa - pa, ub = qb - pb, wa = ra - qa, wb = rb - qb;
    const double left = ua * wb, right = ub * wa;
    // Second stage: collinear corners off the axes give left = right with a non-zero bound.
    // When the four differences are exact (two_diff's error term is 0), left + le and
    // right + re are the exact products (fma gives each product's rounding error exactly, and
    // products of float32 differences do not underflow), so with left = right the exact det
    // is le − re, whose sign a comparison gives exactly.
    if (left == right && difference_exact(qa, pa, ua) && difference_exact(qb, pb, ub) && difference_exact(ra, qa, wa) &&
        difference_exact(rb, qb, wb)) {
        const double le = std::fma(ua, wb, -left), re = std::fma(ub, wa, -right);
        return (le > re) - (le < re);
    }
    return exact_sign([&](auto zero) {
        using T = decltype(zero);
        return (T(qa) - T(pa)) * (T(rb) - T(qb)) - (T(qb) - T(pb)) * (T(ra) - T(qa));
    });
}

}  // namespace navlab::geometry
