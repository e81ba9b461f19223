// The process's heap policy for large blocks (glibc): what keeps a freed decompressed binder
// from staying resident.
#pragma once

#include <cstddef>

namespace navlab {

/// Blocks of at least this many bytes get their own mapping (decompressed binders, a large
/// mesh's arrays), so freeing one gives its pages back to the system at once.
inline constexpr std::size_t kOwnMappingBytes = std::size_t(1) << 20;

/// Fixes glibc's mmap threshold at kOwnMappingBytes (process-wide; once is enough, later calls
/// do nothing). Why: glibc raises the threshold to the size of the largest mapped block freed
/// (up to 32 MiB), so after the first binder every later 5–13 MB payload comes from a heap
/// arena, and a freed one stays resident in that thread's arena: with 2 threads the audit of
/// the Sekiro preset then peaked at 2.1× its largest binder instead of 1.35×. Costs one mmap
/// and munmap per large block (no measurable CPU). No effect outside glibc.
void map_large_blocks_on_their_own();

}  // namespace navlab
