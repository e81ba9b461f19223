// Thin, bounds-checked wrappers over the general-purpose codecs DCX uses: zlib and raw
// deflate (libdeflate for decoding into a known size, zlib for encoding and for streams of
// unknown size) and zstd. Every decoder writes into a caller-sized buffer and fails instead
// of growing past it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "io/buffer_pool.h"
#include "io/byte_reader.h"

namespace navlab::codec {

/// Deflate cannot expand more than 1032:1 (a 258-byte match costs at least 2 bits).
inline constexpr std::uint64_t kDeflateMaxRatio = 1032;

/// Inflates a zlib stream (2-byte header, deflate data, Adler-32) into exactly dst.size()
/// bytes. The stream may be followed by other bytes in src.
/// @param base absolute offset of src[0], for error messages.
/// @return the number of bytes of src the stream occupies.
/// Throws navlab::Error when the data are corrupt, inflate to more than dst.size() bytes
/// ("past the declared size") or to fewer.
std::size_t zlib_inflate(Bytes src, std::span<std::uint8_t> dst, std::uint64_t base);

/// Inflates raw deflate (no header) into exactly dst.size() bytes; otherwise as zlib_inflate.
std::size_t deflate_inflate(Bytes src, std::span<std::uint8_t> dst, std::uint64_t base);

/// Inflates a zlib stream of unknown output size, failing when it would exceed max_out.
/// @param consumed receives the number of bytes of src the stream occupies.
/// @return the output (a payload buffer: its growth is not zero-filled, inflate writes it).
PayloadBuffer zlib_inflate_bounded(Bytes src, std::size_t max_out, std::uint64_t base, std::size_t* consumed);

/// Compresses as a zlib stream with stock zlib (memLevel 8) at `level` (0..9).
std::vector<std::uint8_t> zlib_deflate(Bytes src, int level);
/// Compresses as raw deflate (no header, no checksum) at `level`.
std::vector<std::uint8_t> raw_deflate(Bytes src, int level);

/// Decompresses one zstd frame into exactly dst.size() bytes (frames without a content
/// size are fine). @return the frame's length in src.
std::size_t zstd_decompress(Bytes src, std::span<std::uint8_t> dst, std::uint64_t base);

/// Compresses as one zstd frame without a content size and with the given window log.
std::vector<std::uint8_t> zstd_compress(Bytes src, int level, int window_log);

}  // namespace navlab::codec
