// Kraken LZ chunk encoder (spec 3): parses a chunk (lz_parse.h) and writes the sub-stream
// layout of spec 3.1 with legacy offsets (3.5), each sub-stream as a byte array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "codec/kraken/match_finder.h"

namespace navlab::kraken::detail {

/// An encoded LZ chunk: the payload (S bytes) and its literal mode (0 delta, 1 raw).
struct LzChunk {
    std::vector<std::uint8_t> payload;
    unsigned mode;
};

/// The eight bytes of a minus those of b, each modulo 256 (no borrow between bytes): delta
/// literals (spec 3.3) eight at a time. The top bit of each byte is set in a and cleared in b
/// so that no byte's difference borrows from the next; the XOR puts the right top bit back.
inline std::uint64_t bytewise_difference(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t kTop = 0x8080808080808080;
    return ((a | kTop) - (b & ~kTop)) ^ ((a ^ ~b) & kTop);
}

/// Encodes block[start, start + n) as an LZ chunk; `start == 0` is the window-start chunk
/// (8 raw bytes first). Nothing when the payload would break the spec's size limits
/// (13 <= S < n). The finder must have been used for every earlier chunk of the block.
std::optional<LzChunk> encode_lz_chunk(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t start,
                                       std::size_t n, const LzParams& params);

}  // namespace navlab::kraken::detail
