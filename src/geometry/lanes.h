// Two doubles as one value (GCC/Clang vector extension; SSE2's packed operations on x86-64),
// so that a formula written once as a template over its number type runs for one face
// (double) or for two faces at once (Lanes), with the same IEEE operations in the same order
// in each lane: the audit's per-face figures are reported, so a batch must give the very bits
// the one-face path gives. WideLanes is four doubles (AVX's registers), for code compiled with
// target("avx2") that runs only where the processor has it (the face batch,
// audit_face_batch.h); AVX's packed add, subtract, multiply, divide, square root and compare
// are the same IEEE operations as SSE2's, and the target has no FMA to contract them.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace navlab::geometry {

using Lanes = double __attribute__((vector_size(16)));
using WideLanes = double __attribute__((vector_size(32)));

/// How many doubles a lane type holds.
template <class T>
inline constexpr int kLanesOf = static_cast<int>(sizeof(T) / sizeof(double));

/// What a comparison of lane values gives: all bits set in each lane where it holds, else 0.
template <class T>
using MaskOf = decltype(T{} < T{});

/// The same value in every lane (v itself for double).
template <class T>
T splat(double v) {
    if constexpr (std::is_same_v<T, double>) {
        return v;
    } else if constexpr (kLanesOf<T> == 2) {
        return T{v, v};
    } else {
        return T{v, v, v, v};
    }
}

/// |v| lane by lane, as std::fabs: the sign bit cleared (so |−0| = +0 and a NaN stays NaN).
inline double abs_of(double v) { return std::fabs(v); }
template <class T>
    requires(!std::is_arithmetic_v<T>)
T abs_of(T v) {
    using Bits = MaskOf<T>;
    return reinterpret_cast<T>(reinterpret_cast<Bits>(v) & (Bits{} + 0x7fffffffffffffff));
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
/// Two SSE2 square roots, not one AVX one: no function with a target attribute may take or
/// return a WideLanes, because a caller without that target (a build that does not inline, as
/// GCC at -O0, whose flatten inlines nothing) passes it in memory while the callee reads a ymm
/// register. Inlined into the face batch's avx2 functions this is two vsqrtpd, the same bits.
/// (A template, so that only the face batch's file, which uses it, compiles it.)
template <class T>
    requires std::is_same_v<T, WideLanes>
T sqrt_of(T v) {
    const Lanes lo = sqrt_of(Lanes{v[0], v[1]}), hi = sqrt_of(Lanes{v[2], v[3]});
    return WideLanes{lo[0], lo[1], hi[0], hi[1]};
}

}  // namespace navlab::geometry
