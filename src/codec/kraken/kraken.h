// Oodle Kraken raw-stream decoding (clean-room, from ../shared/spec/kraken.md) and the
// "stored block" encoding navlab uses to write DCX_KRAK without a licensed encoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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

/// Compression levels of encode(): 0 = stored blocks, 1 (fastest) ... 9 (smallest).
inline constexpr int kDefaultLevel = 6;
inline constexpr int kMaxLevel = 9;

/// Encodes data as a Kraken stream in the FromSoftware layout (spec 1): 256 KiB blocks, every
/// block header 8C 06 (restart: blocks are independent, so they encode - and decode - in
/// parallel), each block the smallest of a memset block, a compressed quantum of 128 KiB
/// chunks (LZ, entropy-only or stored) and a stored block. Any conforming decoder reads it.
/// @param level      0 = stored blocks (encode_stored), 1..9 (faster ... smaller); others throw.
/// @param threads    0 = all cores; the output is identical for every thread count.
/// @param block_done if set, called once per 256 KiB block when it is encoded, with the
///                   block's input bytes (level 9 takes minutes on a large binder: a progress
///                   line). Levels 1-9 call it from the worker that encoded the block,
///                   possibly from several at once, in any order: it must be thread-safe.
///                   Level 0 calls it for every block at the end, on the calling thread. If it
///                   throws, the workers stop taking blocks and encode() rethrows it.
/// @return at most max_encoded_size(data.size()) bytes.
std::vector<std::uint8_t> encode(std::span<const std::uint8_t> data, int level = kDefaultLevel, unsigned threads = 0,
                                 const std::function<void(std::size_t)>& block_done = {});

/// Blocks of 256 KiB that encode() writes for n input bytes: the calls of its block_done.
inline constexpr std::size_t encoded_block_count(std::size_t n) { return (n + 0x3FFFF) / 0x40000; }

/// Largest stream encode() returns for n input bytes: n plus a 2-byte header per 256 KiB
/// block (a block that does not shrink is written stored).
std::size_t max_encoded_size(std::size_t n);

/// Encodes data as a Kraken stream of stored (uncompressed) blocks: each 256 KiB block is
/// preceded by the 2-byte header CC 06. The result decodes with decode().
std::vector<std::uint8_t> encode_stored(std::span<const std::uint8_t> data);

}  // namespace navlab::kraken
