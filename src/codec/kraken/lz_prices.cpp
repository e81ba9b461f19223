// Symbol prices of the Kraken LZ parsers. See lz_prices.h.
#include "codec/kraken/lz_prices.h"

#include <algorithm>
#include <cmath>

namespace navlab::kraken::detail {

std::array<std::uint32_t, 256> prices_of(const Histogram& h, std::uint32_t flat_bits) {
    std::array<std::uint32_t, 256> p{};
    std::uint64_t total = 0;
    for (auto c : h) total += c;
    for (unsigned s = 0; s < 256; ++s) {
        if (total == 0) {
            p[s] = flat_bits * 16;
            continue;
        }
        const double bits = h[s] ? std::log2(static_cast<double>(total) / h[s]) : std::log2(static_cast<double>(total)) + 2;
        p[s] = static_cast<std::uint32_t>(std::clamp(bits, 0.5, 14.0) * 16);
    }
    return p;
}

Stats collect_stats(std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                    const std::vector<Command>& commands, unsigned scale) {
    Stats s;
    Recent recent;
    std::size_t p = first;
    auto literals = [&](std::size_t count) {
        for (std::size_t q = p; q < p + count; ++q) {
            ++s.raw[block[q]];
            ++s.delta[static_cast<std::uint8_t>(block[q] - block[q - recent.slot[0]])];
        }
        p += count;
    };
    auto length = [&](std::uint32_t v) { ++s.length[std::min<std::uint32_t>(v - 3, 255)]; };
    for (const Command& c : commands) {
        literals(c.literals);
        if (c.literals >= 3) length(c.literals);
        const unsigned index = recent.index_of(c.distance);
        if (index == 3) {
            std::uint8_t low = 0;
            ++s.offset[coded_offset(c.distance, scale, low).packed];
            ++s.low[low];
        }
        recent.use(index, c.distance);
        if (c.length > 16) length(c.length - 14);
        ++s.command[std::min(c.literals, 3u) | std::min(c.length - 2, 15u) << 2 | index << 6];
        p += c.length;
    }
    literals(end - p);
    return s;
}

std::vector<Command> commands_in_order(std::span<const Command> last_first, std::uint32_t leading) {
    std::vector<Command> commands;
    commands.reserve(last_first.size());
    for (std::size_t m = last_first.size(); m-- > 0;) {
        commands.push_back({leading, last_first[m].length, last_first[m].distance});
        leading = last_first[m].literals;
    }
    return commands;
}

}  // namespace navlab::kraken::detail
