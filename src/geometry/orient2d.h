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

namespace navlab::geometry {

/// Exact sign (−1, 0, +1) of (q − p) × (r − q) in the plane of two coordinates:
/// (qa − pa)(rb − qb) − (qb − pb)(ra − qa).
/// @param pa,pb,qa,qb,ra,rb float32 values converted to double, finite (exact inputs).
inline int orient2d_sign(double pa, double pb, double qa, double qb, double ra, double rb) {
    const double ua = qa - pa, ub = qb - pb, wa = ra - qa, wb = rb - qb;
    const double left = ua * wb, right = ub * wa, det = left - right;
    // Each product carries three roundings (two differences, the product) and the subtraction
    // a fourth: |error| ≤ 4ε(1 + O(ε)) (|left| + |right|); 8ε leaves a wide margin. No
    // underflow: differences of float32 values are at least 2^-149, products at least 2^-298.
    const double bound = 8 * kHalfUlp * (std::fabs(left) + std::fabs(right));
    if (det > bound) return 1;
    if (-det > bound) return -1;
    return exact_sign([&](auto zero) {
        using T = decltype(zero);
        return (T(qa) - T(pa)) * (T(rb) - T(qb)) - (T(qb) - T(pb)) * (T(ra) - T(qa));
    });
}

}  // namespace navlab::geometry
