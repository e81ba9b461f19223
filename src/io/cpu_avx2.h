// Whether the AVX2 loops (the audit's, the Havok gap check's) may run on this processor.
#pragma once

namespace navlab {

/// True when the processor has AVX2 and the system saves its registers (GCC's
/// __builtin_cpu_supports checks both); asked once per process. The face batch
/// (FaceBatch::widest), the ring pass (read_rings), the edge scan (widest_edge_lanes) and the
/// Havok gap check (havok::gap_bytes_all_zero) pick their widths by it; a build for another
/// architecture or compiler answers false and runs their scalar loops.
inline bool cpu_has_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2;
#else
    return false;
#endif
}

}  // namespace navlab
