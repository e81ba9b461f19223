// Kraken byte arrays (spec 2): the entropy-coded sub-streams every chunk is made of.
#pragma once

#include <cstddef>
#include <cstdint>

#include "codec/kraken/context.h"

namespace navlab::kraken::detail {

/// A decoded byte array.
struct ArrayResult {
    const std::uint8_t* data;  ///< the bytes: `out`, or inside the input for an aliased stored array
    std::size_t size;          ///< dst_size
    std::size_t used;          ///< input bytes consumed: header + payload
};

/// Decodes the byte array starting at `in` (header first).
/// @param in        first header byte; `avail` bytes are readable from it.
/// @param out       where the bytes go; room for `capacity` bytes.
/// @param capacity  upper bound on dst_size given by the context (spec 2.1 table).
/// @param depth     nesting depth below the top-level array (0 for the top level).
/// @param alias     when true a stored array is returned in place (data points into `in`)
///                  instead of being copied to `out`.
ArrayResult decode_array(const Context& ctx, const std::uint8_t* in, std::size_t avail, std::uint8_t* out,
                         std::size_t capacity, int depth, bool alias);

/// Type 2 / 4 payloads (spec 2.3): `src` payload bytes to exactly `dst_size` bytes at out.
void decode_huffman(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                    std::size_t dst_size, bool six_streams);

/// Type 1 payload (spec 2.4).
void decode_tans(const Context& ctx, const std::uint8_t* src, std::size_t src_size, std::uint8_t* out,
                 std::size_t dst_size);

}  // namespace navlab::kraken::detail
