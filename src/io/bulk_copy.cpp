#include "io/bulk_copy.h"

#include <cstring>

#include "io/cpu_features.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NAVLAB_BULK_COPY_X86 1
#endif

namespace navlab {
namespace {

// The empty asm makes each block's addresses opaque to the compiler: GCC's loop distribution
// and clang's loop idiom pass would otherwise recognise the loop as a copy and call memcpy for
// the whole array, which is what this function avoids.
#define NAVLAB_OPAQUE(d, s) __asm__("" : "+r"(d), "+r"(s))

#ifdef NAVLAB_BULK_COPY_X86
__attribute__((target("avx2"))) void copy_avx2(unsigned char* d, const unsigned char* s, std::size_t n) noexcept {
    for (; n >= 128; n -= 128, d += 128, s += 128) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 32));
        const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 64));
        const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 96));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), a);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 32), b);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 64), c);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 96), e);
        NAVLAB_OPAQUE(d, s);
    }
    if (n != 0) std::memcpy(d, s, n);  // an empty array's pointers may be null
}

void copy_sse2(unsigned char* d, const unsigned char* s, std::size_t n) noexcept {
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
        const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d), a);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 16), b);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 32), c);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 48), e);
        NAVLAB_OPAQUE(d, s);
    }
    if (n != 0) std::memcpy(d, s, n);  // an empty array's pointers may be null
}
#endif

}  // namespace

void bulk_copy(void* to, const void* from, std::size_t n) noexcept {
#ifdef NAVLAB_BULK_COPY_X86
    if (cpu_has_avx2()) return copy_avx2(static_cast<unsigned char*>(to), static_cast<const unsigned char*>(from), n);
#endif
    bulk_copy_without_avx2(to, from, n);
}

void bulk_copy_without_avx2(void* to, const void* from, std::size_t n) noexcept {
#ifdef NAVLAB_BULK_COPY_X86
    copy_sse2(static_cast<unsigned char*>(to), static_cast<const unsigned char*>(from), n);
#else
    std::memcpy(to, from, n);
#endif
}

}  // namespace navlab
