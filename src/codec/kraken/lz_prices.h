// Symbol prices of the Kraken LZ parsers: what each byte value of a chunk's arrays costs, in
// 1/16 bit, taken from the statistics of an earlier parse of the same chunk. Shared by the
// optimal parse of levels 7-9 (lz_parse.cpp) and the sparse parse of level 6 (sparse_parse.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "codec/kraken/lz_parse.h"

namespace navlab::kraken::detail {

using Histogram = std::array<std::uint32_t, 256>;

/// Prices in 1/16 bit of each byte value of the four arrays a command writes to.
struct Prices {
    std::array<std::uint32_t, 256> literal, command, offset, length, low;
    unsigned scale;  ///< offset coding the offset and low prices are for (0 = legacy)
};

/// -log2 of each symbol's frequency (clamped to 0.5..14 bits); unseen symbols cost 2 bits
/// more than a symbol seen once; an empty histogram prices every symbol at `flat_bits`.
std::array<std::uint32_t, 256> prices_of(const Histogram& h, std::uint32_t flat_bits);

/// Statistics of a parse: what its arrays would hold (both literal modes).
struct Stats {
    Histogram raw{}, delta{}, command{}, offset{}, length{}, low{};
};

/// The statistics of `commands` over block[first, end) with offsets coded under `scale`.
Stats collect_stats(std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                    const std::vector<Command>& commands, unsigned scale);

/// LEN entry price (spec 3.4 item 8): the packed byte, plus the long value's bits.
inline std::uint32_t length_price(const Prices& prices, std::uint32_t value) {
    if (value - 3 < 255) return prices.length[value - 3];
    const std::uint32_t y = value - 258 + 64;
    return prices.length[255] + 16 * (2 * static_cast<std::uint32_t>(std::bit_width(y)) - 7);
}

/// A parse's commands in input order from its backtrack: `last_first` holds the path's matches
/// from the end backwards, each with the literals that *follow* it in `literals`; `leading` is
/// the literal run before the first match. Each command takes the run before its match, and
/// the trailing literals carry no command.
std::vector<Command> commands_in_order(std::span<const Command> last_first, std::uint32_t leading);

}  // namespace navlab::kraken::detail
