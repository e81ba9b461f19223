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

}  // namespace navlab::kraken::detail
