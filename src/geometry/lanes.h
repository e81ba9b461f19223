// Two doubles as one value (GCC/Clang vector extension; SSE2's packed operations on x86-64),
// so that a formula written once as a template over its number type runs for one face
// (double) or for two faces at once (Lanes), with the same IEEE operations in the same order
// in each lane: the audit's per-face figures are reported, so a batch must give the very bits
// the one-face path gives.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace navlab::geometry {

using Lanes = double __attribute__((vector_size(16)));
inline constexpr int kLanes = 2;

/// What a comparison of Lanes gives: all bits set in each lane where it holds, else 0.
using LaneMask = decltype(Lanes{} < Lanes{});

/// The same value in every lane (v itself for double).
template <class T>
T splat(double v) {
    if constexpr (std::is_same_v<T, double>) {
        return v;
    } else {
        return T{v, v};
    }
}

/// |v| lane by lane, as std::fabs: the sign bit cleared (so |−0| = +0 and a NaN stays NaN).
inline double abs_of(double v) { return std::fabs(v); }
inline Lanes abs_of(Lanes v) {
    using Bits = std::int64_t __attribute__((vector_size(16)));
    const Bits magnitude = {0x7fffffffffffffff, 0x7fffffffffffffff};
    return reinterpret_cast<Lanes>(reinterpret_cast<Bits>(v) & magnitude);
}

/// The correctly rounded square root lane by lane, as std::sqrt (IEEE 754 requires both to
/// round the exact root to nearest, so the bits are the same).
inline double sqrt_of(double v) { return std::sqrt(v); }
inline Lanes sqrt_of(Lanes v) {
#if defined(__SSE2__)
    return reinterpret_cast<Lanes>(_mm_sqrt_pd(reinterpret_cast<__m128d>(v)));
#else
    return Lanes{std::sqrt(v[0]), std::sqrt(v[1])};
#endif
}

}  // namespace navlab::geometry
