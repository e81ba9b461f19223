// The process's heap policy for large blocks (glibc): what keeps a freed decompressed binder
// from staying resident.
#pragma once

#include <cstddef>

namespace navlab {

/// Blocks of at least this many bytes get their own mapping (decompressed binders, a mesh's
/// arrays, a context's rings), so freeing one gives its pages back to the system at once.
/// This is glibc's own initial threshold, kept fixed. Measured on the eldenring preset (the
/// audit's own peak / largest decompressed binder, 1 and 2 threads, bench_corpus): glibc's
/// raised threshold 2.17× / 3.66×, 256 KiB 1.87× / 2.51×, 128 KiB 1.82× / 2.54×, 64 KiB
/// 1.80× / 2.26×, at the same CPU within the noise of this shared machine.
inline constexpr std::size_t kOwnMappingBytes = std::size_t(128) << 10;

/// Fixes glibc's mmap threshold at kOwnMappingBytes (process-wide; once is enough, later calls
/// do nothing). For applications to call (the navlab command's main, bench_corpus): the
/// library never calls it, so a program or Python interpreter that links navlab keeps its own
/// allocator settings. Why: glibc raises the threshold to the size of the largest mapped block freed
/// (up to 32 MiB), so after the first binder every later payload and mesh array comes from a
/// heap arena, where a freed one stays resident (each thread has its own arena): with 2
/// threads the audit of the Sekiro preset peaked at 2.1× its largest binder instead of 1.4×.
/// Costs an mmap, page faults and a munmap per large block (no CPU change measurable on the
/// machine of that time; on the nineteenth session's VM the payloads' faults were a third of
/// an Elden Ring audit, so payloads now reuse pooled memory: io/buffer_pool.h).
/// No effect outside glibc.
void map_large_blocks_on_their_own();

}  // namespace navlab
