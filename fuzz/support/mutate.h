// Structure-aware mutations for the libFuzzer targets whose first checks blind mutation rarely
// passes: each keeps the container's own sizes and offsets consistent and fuzzes the inside.
// Every mutator falls back to a plain LLVMFuzzerMutate of the whole input now and then, so
// the header checks themselves stay fuzzed.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace navlab::fuzz {

/// DCX/DCP: mutates the compressed stream and rewrites the compressed-size field (and the
/// padding), or mutates the decompressed payload and recompresses it in the same variant
/// with the same header words. @return the new size (≤ max_size).
std::size_t mutate_dcx(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed);

/// BND4: mutates one entry's data or name and rewrites the binder with navlab's writer, or
/// mutates the header and record tables in place (size kept).
std::size_t mutate_bnd4(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed);

/// TAG0: mutates the payload of one leaf section (SDKV, DATA, TYPE sub-sections, INDX ...)
/// and rewrites the sizes of every enclosing section.
std::size_t mutate_tagfile(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed);

}  // namespace navlab::fuzz
