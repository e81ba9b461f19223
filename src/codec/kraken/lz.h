// The Kraken LZ chunk (spec 3): sub-stream layout, offset/length bit streams and the
// command loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "codec/kraken/context.h"

namespace navlab::kraken::detail {

/// Where an LZ chunk writes and what it may reach.
struct ChunkTarget {
    std::uint8_t* out;         ///< the whole output buffer
    std::size_t pos;           ///< chunk start in out
    std::size_t size;          ///< N: output bytes of the chunk
    std::size_t window_base;   ///< lowest position a match may read (spec 1.5); pos - window_base
                               ///< is 0 or a whole chunk or more (blocks and chunks are full but the last)
    std::size_t write_limit;   ///< fast copies may write scratch bytes up to here (exclusive)
};

/// Decodes the LZ chunk payload `z` (S bytes, 13 <= S < N) in literal mode 0 (delta) or 1 (raw).
void decode_lz_chunk(const Context& ctx, const std::uint8_t* z, std::size_t size, unsigned mode,
                     const ChunkTarget& target);

/// Spec 3.4: the `count` packed lengths at `packed` as lengths (byte + 3), a 255 also adding
/// the next of the long lengths at `long_lengths`; returns how many it used, which the caller
/// checks against how many were coded. Whatever the bytes are, every slot of `long_lengths`
/// read is below `count` (length i reads slot `used` <= i; a 16-length step at i reads slots
/// `used` to `used` + 15 <= i + 15), so it must have `count` readable slots (past the coded
/// ones they hold stale values, masked out or failed by the caller's check). AVX-512F where the
/// processor has it (and allow_avx512_lengths), one length a step otherwise: same values.
std::size_t unpack_lengths(const std::uint8_t* packed, std::size_t count, const std::uint32_t* long_lengths,
                           std::uint32_t* lengths);

/// For tests: whether unpack_lengths may take its AVX-512 loop (default true); returns
/// whether it will (false where the processor lacks it, whatever `allowed` is).
bool allow_avx512_lengths(bool allowed);

}  // namespace navlab::kraken::detail
