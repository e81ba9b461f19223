// Decompressed payloads' memory kept for the next payload: one large buffer whose pages stay
// mapped between binders, instead of a fresh mapping faulted in page by page for each.
// Process-wide: a long-running program keeps at most kPooledBufferMax bytes here until
// release_pooled_buffer().
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/default_init_vector.h"

namespace navlab {

/// The bytes of a decompressed payload, the buffer this pool keeps: a vector whose resize()
/// does not zero what it adds (io/default_init_vector.h), because every decoder writes each
/// byte of its payload or throws. The zero fill was a second pass over every payload: 4-5 % of
/// a one-thread Elden Ring audit, 10 % with two workers (docs/audit.md, "Twenty-seventh session").
using PayloadBuffer = DefaultInitVector<std::uint8_t>;

/// Buffers with a capacity in [kPooledBufferMin, kPooledBufferMax] are kept. Smaller ones come
/// from the heap's free lists anyway (below glibc's mapping threshold, io/heap_policy.h); a
/// larger one is rare, and its memory goes back to the system at once.
inline constexpr std::size_t kPooledBufferMin = std::size_t(128) << 10;
inline constexpr std::size_t kPooledBufferMax = std::size_t(64) << 20;
/// A reused buffer keeps at most this many mapped bytes past the payload it holds.
inline constexpr std::size_t kPooledBufferSlack = std::size_t(2) << 20;

/// False in the sanitizer and fuzz builds (NAVLAB_POISON_SCRATCH, set by CMake): there every
/// payload is its own allocation, so that ASan reports a read past a payload or after it was
/// dropped, which a reused buffer would turn into a silent read of another payload's bytes.
#ifdef NAVLAB_POISON_SCRATCH
inline constexpr bool kBufferPoolEnabled = false;
#else
inline constexpr bool kBufferPoolEnabled = true;
#endif

/// The pooled buffer, empty, when its capacity is at least `n` bytes, its pages past
/// n + kPooledBufferSlack given back to the system (io/memory_advice.h). When it is not large
/// enough: an empty vector without memory, the pooled buffer freed first, so the pool does not
/// hold memory beside a payload that could not use it. For n below kPooledBufferMin, and when
/// !kBufferPoolEnabled: an empty vector, the pool untouched.
/// Thread-safe. Why: every binder's payload was a new mapping (io/heap_policy.h), zero-filled
/// page fault by page fault and unmapped after its audit; on the 2-vCPU VM of the nineteenth
/// session those faults and the fill were a third of an Elden Ring audit's CPU time
/// (docs/audit.md, "Nineteenth session").
PayloadBuffer take_pooled_buffer(std::size_t n);

/// Offers `bytes`' memory to the pool: kept when its capacity is within the bounds above and
/// larger than the pooled buffer's (which is then freed), freed otherwise. `bytes`
/// is left empty. Thread-safe; allocates nothing. dcx::Decoded and SharedBytes call it when
/// they drop a payload.
void recycle_buffer(PayloadBuffer&& bytes) noexcept;

/// Frees the pooled buffer (for a long-running program between jobs; tests) and returns its
/// capacity in bytes (0 when there was none), read under the same lock as the release.
std::size_t release_pooled_buffer() noexcept;

/// The pooled buffer's capacity in bytes (0 when none): for tests and reports.
std::size_t pooled_buffer_bytes() noexcept;

}  // namespace navlab
