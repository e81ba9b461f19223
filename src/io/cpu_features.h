// Which of the vector loops may run on this processor: the audit's and the Havok gap check's
// AVX2 widths, the Kraken encoder's AVX2 paths, the Kraken decoder's AVX-512 ones.
#pragma once

namespace navlab {

// Each is asked once per process. GCC's and clang's __builtin_cpu_supports checks both the
// processor and that the system saves the registers; a build for another architecture or
// compiler answers false and runs the scalar loops.
#if defined(__x86_64__) && defined(__GNUC__)
#define NAVLAB_CPU_SUPPORTS(feature) __builtin_cpu_supports(feature)
#else
#define NAVLAB_CPU_SUPPORTS(feature) false
#endif

/// AVX2. The face batch (FaceBatch::widest), the ring pass (read_rings), the edge scan
/// (widest_edge_lanes), the Havok gap check (havok::gap_bytes_all_zero) and level 6's
/// dominance test pick their widths by it.
inline bool cpu_has_avx2() {
    static const bool has = NAVLAB_CPU_SUPPORTS("avx2");
    return has;
}

/// AVX2 and POPCNT: level 1's command fields (lz_encoder.cpp).
inline bool cpu_has_avx2_popcnt() {
    static const bool has = NAVLAB_CPU_SUPPORTS("avx2") && NAVLAB_CPU_SUPPORTS("popcnt");
    return has;
}

/// AVX-512F and POPCNT: the decoder's packed lengths (lz.cpp) and Huffman form C's lengths.
inline bool cpu_has_avx512f_popcnt() {
    static const bool has = NAVLAB_CPU_SUPPORTS("avx512f") && NAVLAB_CPU_SUPPORTS("popcnt");
    return has;
}

/// AVX-512F, BW and VBMI2 (vpcompressb) and POPCNT: the Huffman table's sort by code length.
inline bool cpu_has_avx512_vbmi2() {
    static const bool has = NAVLAB_CPU_SUPPORTS("avx512f") && NAVLAB_CPU_SUPPORTS("avx512bw") &&
                            NAVLAB_CPU_SUPPORTS("avx512vbmi2") && NAVLAB_CPU_SUPPORTS("popcnt");
    return has;
}

}  // namespace navlab
