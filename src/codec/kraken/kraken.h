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

/// Upper bound on the output of any valid stream of `stream_size` bytes: every block takes
/// at least 3 input bytes (a 1-byte stored block; a memset block takes 6) and produces at
/// most 256 KiB. Callers bound a declared output size by it before allocating.
std::size_t max_decoded_size(std::size_t stream_size);

/// Encodes data as a Kraken stream of stored (uncompressed) blocks: each 256 KiB block is
/// preceded by the 2-byte header CC 06. The result decodes with decode().
std::vector<std::uint8_t> encode_stored(std::span<const std::uint8_t> data);

}  // namespace navlab::kraken
