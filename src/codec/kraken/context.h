// Shared state of one Kraken decode: where the compressed stream lies (for error offsets and
// the over-read bound of fast copies) and per-thread scratch memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/default_init_vector.h"
#include "io/error.h"

namespace navlab::kraken {
struct StreamInfo;
}

namespace navlab::kraken::detail {

/// Deepest nesting of byte arrays below the top-level array (spec 2.1 recommends 16).
inline constexpr int kMaxDepth = 16;
/// Output bytes per chunk (spec 1.4) and per block (spec 1.2).
inline constexpr std::size_t kChunkSize = 0x20000;
inline constexpr std::size_t kBlockSize = 0x40000;
/// Slack after every scratch buffer so fast paths may over-read or over-write a little.
inline constexpr std::size_t kSlack = 64;

/// Scratch buffers reused across chunks by one thread.
struct Scratch {
    /// Byte buffers are not filled when they grow (DefaultInitVector): a decode writes what it
    /// reads of them, and fast copies that read into the slack past the written bytes only
    /// move bytes that later copies of the chunk overwrite (NAVLAB_POISON_SCRATCH builds fill
    /// them with poison instead, so the tests would see a byte that reached the output).
    DefaultInitVector<std::uint8_t> literals, commands, offsets, low_bits, lengths;
    std::vector<std::uint64_t> distances;
    std::vector<std::uint32_t> length_list;
    /// One buffer per nesting depth, for RLE command buffers and multi-array sources.
    std::array<DefaultInitVector<std::uint8_t>, kMaxDepth + 2> level;
};

struct Context {
    const std::uint8_t* begin;  ///< first byte of the compressed stream (offset 0 in errors)
    const std::uint8_t* end;    ///< one past its last byte: fast paths never read beyond it
    Scratch* scratch;
    /// When set (kraken::inspect), the decode records its blocks, chunks and arrays here:
    /// one test per array and per chunk, nothing per byte.
    StreamInfo* info = nullptr;

    /// Throws navlab::Error at the stream offset of `at`.
    [[noreturn]] void fail(const std::uint8_t* at, const std::string& message) const {
        throw Error(message, static_cast<std::uint64_t>(at - begin));
    }
    /// Throws unless `ok`; `message` is only built on failure.
    void check(bool ok, const std::uint8_t* at, const char* message) const {
        if (!ok) [[unlikely]]
            fail(at, message);
    }
};

/// Grows a scratch buffer to at least n bytes (plus slack) and returns its data.
inline std::uint8_t* ensure(DefaultInitVector<std::uint8_t>& buffer, std::size_t n) {
    if (buffer.size() < n + kSlack) buffer.resize(n + kSlack);
    return buffer.data();
}

inline std::uint32_t u24be(const std::uint8_t* p) { return std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]; }
inline std::uint32_t u16le(const std::uint8_t* p) { return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8; }
inline std::uint32_t u24le(const std::uint8_t* p) { return u16le(p) | std::uint32_t{p[2]} << 16; }

/// zigzag(v): 0, -1, +1, -2, +2, ... (spec 0). Without a branch (odd v gives ~(v >> 1) =
/// -((v + 1) >> 1)): code-length deltas have random signs, and a branch mispredicted on
/// half of them.
inline int zigzag(std::uint32_t v) { return static_cast<int>(v >> 1) ^ -static_cast<int>(v & 1); }

}  // namespace navlab::kraken::detail
