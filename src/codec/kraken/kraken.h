// Oodle Kraken raw-stream decoding (clean-room, from ../shared/spec/kraken.md) and the
// "stored block" encoding navlab uses to write DCX_KRAK without a licensed encoder.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace navlab::kraken {

/// Decodes a raw Kraken stream into exactly dst.size() bytes.
/// @param src     the compressed stream (block headers and quanta).
/// @param dst     output buffer; its size is the declared decompressed size.
/// @param threads 0 = all cores; restart-flagged blocks decode in parallel.
/// Throws navlab::Error naming the block and the byte offset in src on corrupt input.
void decode(std::span<const std::uint8_t> src, std::span<std::uint8_t> dst, unsigned threads = 0);

/// Upper bound on the output of any valid stream of `stream_size` bytes. A block produces at
/// most 256 KiB, and the smallest block that produces that much is a 6-byte memset block
/// (2-byte block header, 3-byte quantum header, 1 value byte); a stored block produces
/// fewer bytes than it takes. Callers bound a declared output size by it before allocating.
std::size_t max_decoded_size(std::size_t stream_size);

/// Encodes data as a Kraken stream of stored (uncompressed) blocks: each 256 KiB block is
/// preceded by the 2-byte header CC 06. The result decodes with decode().
std::vector<std::uint8_t> encode_stored(std::span<const std::uint8_t> data);

}  // namespace navlab::kraken
