// Kraken LZ chunk encoder (spec 3): parses a chunk (lz_parse.h) and writes the sub-stream
// layout of spec 3.1 with legacy offsets (3.5), each sub-stream as a byte array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "codec/kraken/lz_parse.h"
#include "codec/kraken/match_finder.h"
#include "io/default_init_vector.h"

namespace navlab::kraken::detail {

/// An encoded LZ chunk: the payload (S bytes) and its literal mode (0 delta, 1 raw).
struct LzChunk {
    std::vector<std::uint8_t> payload;
    unsigned mode;
};

/// The eight bytes of a minus those of b, each modulo 256 (no borrow between bytes): delta
/// literals (spec 3.3) eight at a time, as one 8-byte vector subtraction (GCC and clang: one
/// SSE2 `psubb` on x86-64; the masked 64-bit form it replaced took seven instructions and
/// three 64-bit constants).
inline std::uint64_t bytewise_difference(std::uint64_t a, std::uint64_t b) {
    using Bytes8 = std::uint8_t __attribute__((vector_size(8)));
    Bytes8 x, y;
    std::memcpy(&x, &a, 8), std::memcpy(&y, &b, 8);
    const Bytes8 d = x - y;
    std::uint64_t out;
    std::memcpy(&out, &d, 8);
    return out;
}

/// The arrays a parse's commands fill before they are coded (spec 3.1, 3.3, 3.4).
struct CommandArrays {
    DefaultInitVector<std::uint8_t> raw, delta;  ///< the literals, raw and as deltas
    DefaultInitVector<std::uint8_t> command_bytes;
    DefaultInitVector<std::uint32_t> distances;  ///< the new ones, in order
    DefaultInitVector<std::uint8_t> lengths;     ///< LEN[]: a packed byte each
    std::vector<std::uint32_t> long_lengths;     ///< the long value of each LEN byte 255
};

/// The arrays of `commands` (a parse of block[first, end), first >= 8; trailing literals up to
/// end). Precondition, as every parse makes: each distance is at most its match's position, so
/// the delta literals after it read inside the block. Exposed for tests against a plain loop.
CommandArrays command_arrays(std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                             std::span<const Command> commands);
/// The same of level 1's commands, whose recent slots the parse gave (not replayed here).
CommandArrays command_arrays(std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                             std::span<const SlottedCommand> commands);

/// For tests: whether command_arrays() of level 1's commands may take its AVX2 loop (default
/// true); returns whether it will (false where the processor lacks AVX2, whatever `allowed` is).
bool allow_avx2_command_fields(bool allowed);

/// Appends the bit region of spec 3.4 (7): E (the count of long lengths + 1), the offsets'
/// raw bits and the long lengths, on two alternating MSB-first streams, the first in order
/// and the second byte-reversed behind it. Exposed for a test against MsbWriter.
void append_bit_region(std::vector<std::uint8_t>& out, std::span<const OffsetCode> offsets, std::span<const std::uint32_t> long_values);

/// Encodes block[start, start + n) as an LZ chunk; `start == 0` is the window-start chunk
/// (8 raw bytes first). Nothing when the payload would break the spec's size limits
/// (13 <= S < n). The finder must have been used for every earlier chunk of the block.
std::optional<LzChunk> encode_lz_chunk(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t start,
                                       std::size_t n, const LzParams& params);

}  // namespace navlab::kraken::detail
