// Kraken LZ parsing: turning one chunk into commands (a literal run, then a match; spec 3.6).
// Greedy/lazy parsing with a fixed cost model for the fast levels, and a price-based optimal
// parse (forward dynamic programming over positions, with the recent-offset state carried
// along the cheapest path) priced by the entropy of the chunk's own arrays for the high levels.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "codec/kraken/match_finder.h"
#include "io/default_init_vector.h"

namespace navlab::kraken::detail {

/// Eight bytes at p in the machine's order: the parse and the chunk writer compare and subtract
/// them bytewise, so their order does not matter.
inline std::uint64_t load64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

/// Two bytes at p in the machine's order (compared only).
inline std::uint64_t load16(const std::uint8_t* p) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

/// One LZ command: `literals` literal bytes, then a match of `length` bytes at `distance`.
struct Command {
    std::uint32_t literals, length, distance;
};

/// A command of level 1's parse with the recent slot of its distance (Recent::index_of before
/// the command: 0-2, or 3 for a new distance), which that parse has at hand: the chunk writer
/// then need not replay the recent offsets (a third of its per-command work at level 1).
struct SlottedCommand {
    std::uint32_t literals, length, distance, slot;
};
/// Level 1's parse, written into room made ahead (DefaultInitVector: no fill).
using SlottedCommands = DefaultInitVector<SlottedCommand>;

/// Legacy near-offset code (spec 3.5) of distance d (8 ... 8,388,359): packed byte, raw bits.
struct OffsetCode {
    std::uint8_t packed;
    unsigned bits;
    std::uint32_t value;
};
inline OffsetCode offset_code(std::uint32_t d) {
    const std::uint32_t x = d + 248;
    const std::uint32_t high = x >> 4;
    const unsigned nb = static_cast<unsigned>(std::bit_width(high)) - 1;
    return {static_cast<std::uint8_t>((nb - 4) << 4 | (x & 15)), nb, high - (1u << nb)};
}

/// Spec 3.5 scaled code of distance d with scale s >= 1: d = s * d0 + low (low = 0 for s = 1),
/// d0 + 8 = (8 + (c & 7)) << k plus k raw bits.
inline OffsetCode scaled_code(std::uint32_t d, unsigned scale, std::uint8_t& low) {
    const std::uint32_t d0 = scale >= 2 ? d / scale : d;
    low = static_cast<std::uint8_t>(scale >= 2 ? d % scale : 0);
    const std::uint32_t x = d0 + 8;
    const unsigned k = static_cast<unsigned>(std::bit_width(x)) - 4;
    return {static_cast<std::uint8_t>(k << 3 | ((x >> k) & 7)), k, x & ((1u << k) - 1)};
}

/// The code of d under `scale`: 0 = legacy (no scale byte), else scaled_code.
inline OffsetCode coded_offset(std::uint32_t d, unsigned scale, std::uint8_t& low) {
    low = 0;
    return scale == 0 ? offset_code(d) : scaled_code(d, scale, low);
}

/// The offset coding (0 = legacy, else the scale 1..32) estimated smallest for the explicit
/// distances of a chunk, from the entropy of the packed bytes and low bits and the raw bits.
unsigned choose_scale(std::span<const std::uint32_t> distances);

/// Recent-offset slots with the move-to-front of spec 3.7 (reset to 8, 8, 8 per chunk).
/// Both functions are selects, not branches: whether a command reuses a slot, and which, is
/// the data's choice and mispredicted often (with write_chunk's new-distance store also
/// branch-free, level 1 on the Elden Ring emevd ran 3.5 % faster; index_of alone did nothing).
struct Recent {
    std::uint32_t slot[3] = {8, 8, 8};
    /// The slot holding d (0..2), or 3 for a new distance.
    unsigned index_of(std::uint32_t d) const {
        unsigned index = 3;
        index = slot[2] == d ? 2 : index;
        index = slot[1] == d ? 1 : index;
        return slot[0] == d ? 0 : index;
    }
    void use(unsigned index, std::uint32_t d) {
        slot[2] = index >= 2 ? slot[1] : slot[2];
        slot[1] = index >= 1 ? slot[0] : slot[1];
        slot[0] = index >= 1 ? d : slot[0];
    }
};

/// Greedy (lazy_steps 0) or lazy parse of [first, end); bytes after the last match are
/// trailing literals.
std::vector<Command> parse_lazy(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params);

/// parse_lazy() of a level without chains (level 1's greedy probe parse), each command with
/// its recent slot.
SlottedCommands parse_probe_slotted(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params);

/// Optimal parse of block[first, end): a lazy parse, then three passes of price-based dynamic
/// programming, each priced by the statistics of the parse before it. Returns all four: the
/// caller keeps whichever codes smallest (the prices ignore Huffman tables and rounding).
std::vector<std::vector<Command>> parse_optimal(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t first,
                                   std::size_t end, const LzParams& params);

}  // namespace navlab::kraken::detail
