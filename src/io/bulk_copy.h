// One copy of a whole array of records, from a file's bytes into the model's vector.
#pragma once

#include <cstddef>

namespace navlab {

/// Copies n bytes from `from` to `to` (which must not overlap): 128-byte blocks of AVX2 loads
/// and stores (64-byte blocks of SSE2 ones without AVX2), the last bytes by memcpy. Meant for
/// arrays of up to tens of megabytes that are read right after (a mesh's edges): glibc's memcpy
/// copies sizes like these with `rep movsb`, or past a threshold with non-temporal stores that
/// leave the copy out of the cache the next pass reads it from, and a loop over 1 KB memcpy
/// calls costs a call and its size dispatch per kilobyte (docs/audit.md, "Forty-third
/// session").
void bulk_copy(void* to, const void* from, std::size_t n) noexcept;

/// The same copy without the AVX2 blocks (what bulk_copy does on a processor without AVX2);
/// for the tests, which compare both with memcpy.
void bulk_copy_without_avx2(void* to, const void* from, std::size_t n) noexcept;

}  // namespace navlab
