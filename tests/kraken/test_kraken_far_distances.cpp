// The legacy far distance form (spec 3.5, packed byte >= 0xF0), hand-built: it reaches more
// than 8 MiB back, which only a stream of non-restart blocks allows, and the `mr` sample was
// the only file that used it. Independent of navlab's encoder (which writes restart blocks
// and never needs the form).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "codec/kraken/kraken.h"
#include "io/error.h"
#include "kraken/hand_built_streams.h"

using namespace navlab;
namespace ks = navlab::test::kraken_streams;
using Bytes = std::vector<std::uint8_t>;

namespace {

constexpr std::size_t kBlock = 0x40000;
/// Stored blocks ahead of the LZ block: 8,650,752 bytes of window, past the near form's reach.
constexpr std::size_t kStoredBlocks = 33;
/// The far form's smallest distance (nb = 4, t = 0, u = 0).
constexpr std::uint64_t kFarFirst = 0x7FFF00;

/// `kStoredBlocks` stored blocks holding `window` (block 0 restarts the window, the others do
/// not, so the window base stays at the stream's start; spec 1.5).
Bytes stored_prefix(const Bytes& window) {
    Bytes s;
    for (std::size_t k = 0; k < kStoredBlocks; ++k) {
        s.push_back(k == 0 ? 0xCC : 0x4C);  // magic C, stored, restart only in block 0
        s.push_back(0x06);
        s.insert(s.end(), window.begin() + static_cast<std::ptrdiff_t>(k * kBlock),
                 window.begin() + static_cast<std::ptrdiff_t>((k + 1) * kBlock));
    }
    return s;
}

/// A non-restart block holding one compressed quantum of `chunk` (spec 1.2-1.3).
Bytes lz_block(const Bytes& chunk) {
    const std::size_t c = chunk.size() - 1;
    return ks::concat({{0x0C, 0x06, static_cast<std::uint8_t>(c >> 16), static_cast<std::uint8_t>(c >> 8),
                        static_cast<std::uint8_t>(c)},
                       chunk});
}

}  // namespace

// After the stored window, one LZ chunk (not a window-start chunk: no raw bytes) of up to 30
// commands with explicit distances: far ones anywhere from 0x7FFF00 to the whole window, the
// eight distances 0x7FFF00 ... 0x7FFF07 that either form codes (each form in turn), near ones,
// and the recent slot 0; raw and delta literals (delta literals add the byte a far distance
// back). Checked against a byte copy of spec 3.7 over the whole output, with 1 and 2 threads.
// Hostile chunks hold one far distance past the window: either a few bytes to 8 MiB past it,
// or one above 2^32 whose low 32 bits (the reference decoders' arithmetic, spec 3.5) would
// land inside the window. Both must fail as a distance outside the window.
TEST(Kraken, LegacyFarDistancesReachBackPastEightMegabytes) {
    std::mt19937 rng(40);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) { return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng); };
    Bytes window(kBlock * kStoredBlocks);
    for (auto& b : window) b = static_cast<std::uint8_t>(rng());
    const Bytes prefix = stored_prefix(window);
    // Reused from trial to trial: each is 8 MiB and a fresh one costs its page faults.
    Bytes expected, literals, stream, out;
    int decoded = 0, refused = 0, far_forms = 0, overlaps = 0;
    for (int trial = 0; trial < 48; ++trial) {  // 36 valid chunks, 12 hostile (less the few too small to compress)
        const unsigned mode = trial & 1;  // 0 delta literals, 1 raw
        const int hostile = trial % 4 == 3 ? 1 + (trial / 4) % 2 : 0;  // 1 past the window, 2 wraps into it
        std::vector<ks::LzCommand> commands;
        expected.assign(window.begin(), window.end()), literals.clear();
        std::uint64_t recent = 8;  // spec 3.7: the recent distances start at 8 in every chunk
        auto add_literals = [&](std::size_t n) {
            for (std::size_t k = 0; k < n; ++k) {
                const auto lit = static_cast<std::uint8_t>(rng());
                literals.push_back(lit);
                expected.push_back(static_cast<std::uint8_t>(lit + (mode == 0 ? expected[expected.size() - recent] : 0)));
            }
        };
        const std::size_t count = pick(1, 30), bad_at = hostile ? pick(0, count - 1) : count;
        for (std::size_t n = 0; n < count; ++n) {
            const std::size_t lits = pick(0, 20), match = pick(2, 300);
            const std::uint64_t reach = expected.size() + lits;  // the largest distance allowed
            ks::LzCommand c{lits, match, 3, 0};
            const std::uint64_t r = pick(0, 9);
            if (n == bad_at) {
                c.distance = hostile == 1 ? reach + pick(1, r < 5 ? 64 : 0x800000)
                                          : (std::uint64_t{1} << 32) + pick(8, std::min<std::uint64_t>(reach, 0x7EFEFF));
            } else if (r < 5) {
                c.distance = pick(kFarFirst, reach);
            } else if (r == 5) {
                c.distance = kFarFirst + pick(0, 7), c.far = (overlaps++ & 1) != 0;
            } else if (r < 9 || n == 0) {
                c.distance = pick(8, kFarFirst + 7);
            } else {
                c.slot = 0, c.distance = recent;
            }
            far_forms += c.slot == 3 && (c.far || c.distance >= ks::kLegacyNearEnd);
            commands.push_back(c);
            add_literals(lits);
            recent = c.distance;
            if (n == bad_at) break;  // the decoder stops here; the bytes after do not matter
            for (std::size_t k = 0; k < match; ++k) expected.push_back(expected[expected.size() - c.distance]);
        }
        if (!hostile) add_literals(pick(0, 30));  // the chunk's trailing literals
        const std::size_t out_size = hostile ? expected.size() + commands.back().match : expected.size();
        const Bytes chunk = ks::lz_chunk(ks::lz_chunk_payload({}, literals, commands), mode);
        if (chunk.size() >= out_size - window.size()) continue;  // a chunk must be smaller than its output (spec 1.3)
        const Bytes block = lz_block(chunk);
        stream.assign(prefix.begin(), prefix.end());
        stream.insert(stream.end(), block.begin(), block.end());
        out.assign(out_size, 0xEE);
        const unsigned threads = 1 + (trial / 2) % 2;
        if (hostile) {
            try {
                kraken::decode(stream, out, threads);
                ADD_FAILURE() << "trial " << trial << ": a distance past the window decoded";
            } catch (const Error& e) {
                EXPECT_NE(std::string(e.what()).find("match distance outside the window"), std::string::npos)
                    << "trial " << trial << ": " << e.what();
                ++refused;
            }
            continue;
        }
        kraken::decode(stream, out, threads);
        ASSERT_TRUE(out == expected) << "trial " << trial;
        ++decoded;
    }
    EXPECT_GT(decoded, 30);
    EXPECT_GT(refused, 9);
    EXPECT_GT(far_forms, 200);
    EXPECT_GT(overlaps, 20);
}
