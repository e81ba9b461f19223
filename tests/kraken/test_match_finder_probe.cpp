// Level 1's single-probe search (MatchFinder::probe, codec/kraken/match_finder.h) against a
// brute-force model: over random, copied, periodic and run inputs, probed at a random subset
// of positions with match ends inserted, each answer must be the newest earlier probed or
// inserted position with the same hash (or, closer than 8 bytes, its smallest multiple >= 8),
// extended byte by byte as far as the bytes agree, the limit allows and at least 4 bytes; for
// both hash widths (kHashBits, and kSmallInputProbeHashBits of one-block inputs). And level 1's
// parse (parse_probe, the probe inlined) against the greedy loop it was written out from.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "codec/kraken/lz_parse.h"
#include "codec/kraken/match_finder.h"

using namespace navlab::kraken::detail;
using ByteVec = std::vector<std::uint8_t>;

namespace {

/// Bytes data[p..] and data[p - d..] have in common, compared one by one, up to limit.
std::uint32_t brute_length(const ByteVec& data, std::size_t p, std::size_t d, std::size_t limit) {
    std::uint32_t n = 0;
    while (p + n < limit && data[p + n] == data[p + n - d]) ++n;
    return n;
}

/// Probes `data` at random positions (inserting the end of each match found, as the level-1
/// parse does) and checks every answer against the model.
void check_probes(const ByteVec& data, std::size_t limit, unsigned seed, unsigned bits) {
    MatchFinder finder(data, bits);
    std::mt19937 rng(seed);
    std::unordered_map<std::uint32_t, std::size_t> newest;  // hash -> newest position given
    std::size_t found = 0;
    for (std::size_t p = 0; p < data.size(); p += 1 + rng() % 3) {
        const MatchFinder::Match m = finder.probe(p, limit);
        MatchFinder::Match expected;
        if (p + 4 <= data.size()) {
            const std::uint32_t h = hash4(data.data() + p, bits);
            const auto it = newest.find(h);
            const bool seen = it != newest.end();
            const std::size_t before = seen ? it->second : 0;
            newest[h] = p;
            if (seen && p + kMinMatch <= limit) {
                std::size_t d = p - before;
                if (d < kMinDistance) d = (kMinDistance + d - 1) / d * d;
                const std::uint32_t len = d <= p ? brute_length(data, p, d, limit) : 0;
                if (len >= kMinMatch) expected = {len, static_cast<std::uint32_t>(d)};
            }
        }
        ASSERT_EQ(m.length, expected.length) << "p " << p;
        ASSERT_EQ(m.distance, expected.distance) << "p " << p;
        if (m.length) {
            ++found;
            // The parse hashes two of the last four positions of a match and skips its inside.
            for (std::size_t q = p + m.length - 4; q < p + m.length; q += 2) {
                finder.insert(q);
                if (q + 4 <= data.size()) newest[hash4(data.data() + q, bits)] = q;
            }
            p += m.length - 1;
        }
    }
    EXPECT_GT(found, 0u);
}

ByteVec random_bytes(std::size_t n, unsigned values, unsigned seed) {
    std::mt19937 rng(seed);
    ByteVec v(n);
    for (auto& b : v) b = static_cast<std::uint8_t>(rng() % values);
    return v;
}

}  // namespace

TEST(MatchFinderProbe, MatchesTheNewestSameHashPositionByteByByte) {
    for (unsigned values : {2u, 4u, 256u}) {
        ByteVec data = random_bytes(20000, values, values);
        // Pasted copies at several distances, so long matches exist on the 256-value data too.
        for (std::size_t at = 3000; at + 200 < data.size(); at += 2500)
            std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(at - 1000 - at % 700), 200, data.begin() + static_cast<std::ptrdiff_t>(at));
        for (unsigned bits : {kHashBits, kSmallInputProbeHashBits}) {
            check_probes(data, data.size(), values, bits);
            check_probes(data, data.size() - 37, values + 1, bits);  // a limit before the end
        }
    }
}

TEST(MatchFinderProbe, PeriodsBelowEightUseTheirMultiple) {
    for (unsigned period = 1; period <= 12; ++period) {
        ByteVec data(5000);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        check_probes(data, data.size(), period, kHashBits);
        check_probes(data, data.size(), period, kSmallInputProbeHashBits);
        // Probing every position: after the first period's worth, every probe matches to the end.
        MatchFinder finder(data);
        for (std::size_t p = 0; p < 100; ++p) {
            const MatchFinder::Match m = finder.probe(p, data.size());
            if (p >= 2 * std::max<std::size_t>(period, kMinDistance)) {
                EXPECT_EQ(m.length, data.size() - p) << period << " " << p;
                EXPECT_EQ(m.distance % period, 0u);
                EXPECT_GE(m.distance, kMinDistance);
            }
        }
    }
}

// Level 1's parse (parse_probe in lz_parse.cpp) inlines the probe and maps a candidate closer
// than 8 bytes to its multiple through a table (kPeriodMultiple), without branches: on data of
// every period 1..12 it must cover all but the start with matches at multiples of the period
// (a wrong table entry finds no match at all on that period).
TEST(MatchFinderProbe, LevelOneParseMatchesEveryShortPeriod) {
    const LzParams params = lz_params(1, 20000);
    ASSERT_FALSE(params.chains);
    for (unsigned period = 1; period <= 12; ++period) {
        ByteVec data(20000);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        MatchFinder finder(data);
        const std::vector<Command> commands = parse_lazy(finder, 8, data.size(), params);
        std::size_t matched = 0;
        for (const Command& c : commands) {
            matched += c.length;
            EXPECT_EQ(c.distance % period, 0u) << "period " << period;
            EXPECT_GE(c.distance, kMinDistance) << "period " << period;
        }
        EXPECT_GE(matched, data.size() - 8 - 2 * std::max<std::size_t>(period, kMinDistance)) << "period " << period;
    }
}

namespace {

/// The rough price model of levels 1-6 (match_gain in lz_parse.cpp): 7 bits a matched byte,
/// against 6 bits for a recent offset or 23 plus the raw bits for a new distance.
int model_gain(std::uint32_t length, std::uint32_t distance, bool recent) {
    return static_cast<int>(length) * 7 - (recent ? 6 : 23 + static_cast<int>(offset_code(distance).bits));
}

/// Level 1's nice length, written here and not read from lz_params(): a recent-offset match
/// of this many bytes is taken without probing the head table (so that position is not
/// hashed either). The tests against the slow loop fail when the parse's rule moves.
constexpr std::uint32_t kLevelOneNiceLength = 12;

/// Level 1's greedy parse the slow way, as it read before parse_probe wrote it out: at each
/// position the longest recent-offset match of 2 bytes or more (the first slot of equally long
/// ones), then MatchFinder::probe()'s candidate where it gains more, unless the recent one
/// reaches kLevelOneNiceLength; a miss moves on 1 + misses / 32 positions; after a match, two
/// of its last four positions are inserted (MatchFinder::insert).
std::vector<Command> reference_level_one(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params) {
    std::vector<Command> commands;
    Recent recent;
    std::size_t p = first, literal_start = first;
    unsigned misses = 0;
    while (p + kMinMatch <= end) {
        std::uint32_t length = 0, distance = 0;
        int gain = 0;
        for (const std::uint32_t d : recent.slot) {
            const std::uint32_t len = finder.match_length(p, d, end);
            if (len >= 2 && model_gain(len, d, true) > gain) length = len, distance = d, gain = model_gain(len, d, true);
        }
        if (length < kLevelOneNiceLength) {
            const MatchFinder::Match m = finder.probe(p, end);
            if (m.length >= kMinMatch && model_gain(m.length, m.distance, false) > gain)
                length = m.length, distance = m.distance, gain = model_gain(m.length, m.distance, false);
        }
        if (gain <= 0) {
            ++misses;
            p += params.skip_literals ? 1 + (misses >> 5) : 1;
            continue;
        }
        misses = 0;
        commands.push_back({static_cast<std::uint32_t>(p - literal_start), length, distance});
        recent.use(recent.index_of(distance), distance);
        for (std::size_t q = p + std::max<std::uint32_t>(length, 4) - 4; q < p + length; q += 2) finder.insert(q);
        p += length;
        literal_start = p;
    }
    return commands;
}

/// Records of 40 bytes copied from earlier ones with a few bytes changed, over runs and text.
ByteVec level_one_input(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    ByteVec b = random_bytes(40, 256, seed);
    while (b.size() < n) {
        switch (rng() % 4) {
            case 0: b.insert(b.end(), 1 + rng() % 300, static_cast<std::uint8_t>(rng() % 3)); break;  // a run
            case 1: for (unsigned k = 1 + rng() % 200; k > 0; --k) b.push_back(static_cast<std::uint8_t>('a' + rng() % 6)); break;
            default: {
                const std::size_t from = b.size() - std::min<std::size_t>(b.size(), 40 * (1 + rng() % 50));
                for (std::size_t i = 0; i < 40; ++i) b.push_back(b[from + i]);
                for (unsigned k = rng() % 4; k > 0; --k) b[b.size() - 1 - rng() % 40] = static_cast<std::uint8_t>(rng());
            }
        }
    }
    b.resize(n);
    return b;
}

}  // namespace

// The level-1 parse (parse_probe: the 8 bytes at p loaded once, the probe and the match-end
// insertions inlined and compiled per hash width) must make exactly the commands of the slow
// loop above, on one-block inputs (the narrow hash) and larger ones (the full width), over
// two chunks of one finder.
TEST(MatchFinderProbe, LevelOneParseEqualsTheGreedyLoopAtBothHashWidths) {
    constexpr std::size_t kChunk = 0x20000;
    for (const std::size_t input_size : {std::size_t{100000}, std::size_t{0x40000}, std::size_t{3000000}}) {
        const LzParams params = lz_params(1, input_size);
        ASSERT_EQ(params.probe_hash_bits, input_size <= 0x40000 ? kSmallInputProbeHashBits : kHashBits);
        for (unsigned seed = 1; seed <= 3; ++seed) {
            std::vector<ByteVec> inputs{level_one_input(std::min<std::size_t>(input_size, 0x40000), seed),
                                        random_bytes(50000 + seed, 4, seed)};
            for (unsigned period : {1u, 5u, 9u, 48u}) {
                ByteVec periodic(30000 + seed);
                for (std::size_t i = 0; i < periodic.size(); ++i) periodic[i] = static_cast<std::uint8_t>(i % period * 37 + seed);
                inputs.push_back(periodic);
            }
            for (const ByteVec& data : inputs) {
                MatchFinder fast(data, params.probe_hash_bits), slow(data, params.probe_hash_bits);
                std::size_t matched = 0;
                for (std::size_t start = 0; start < data.size(); start += kChunk) {
                    const std::size_t first = start == 0 ? 8 : start, end = std::min(data.size(), start + kChunk);
                    const std::vector<Command> got = parse_lazy(fast, first, end, params);
                    const std::vector<Command> want = reference_level_one(slow, first, end, params);
                    ASSERT_EQ(got.size(), want.size()) << "size " << data.size() << " seed " << seed << " chunk at " << start;
                    for (std::size_t k = 0; k < got.size(); ++k) {
                        ASSERT_EQ(got[k].literals, want[k].literals) << "command " << k;
                        ASSERT_EQ(got[k].length, want[k].length) << "command " << k;
                        ASSERT_EQ(got[k].distance, want[k].distance) << "command " << k;
                        matched += got[k].length;
                    }
                }
                EXPECT_GT(matched, data.size() / 4) << "size " << data.size() << " seed " << seed;
            }
        }
    }
}

/// Records of 16 bytes whose fields repeat the record before for 2, 3 or more bytes between
/// random bytes: recent-offset matches of 2 and 3 bytes (one or two positions hashed after
/// them) among longer ones.
ByteVec short_match_records(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    ByteVec b = random_bytes(16, 256, seed);
    while (b.size() < n) {
        const std::size_t at = b.size();
        for (std::size_t i = 0; i < 16; ++i) b.push_back(b[at + i - 16]);
        for (const std::size_t changed : {std::size_t{2}, std::size_t{6}, std::size_t{7 + rng() % 9}}) b[at + changed] = static_cast<std::uint8_t>(rng());
        if (rng() % 4 == 0) b[at + rng() % 16] = static_cast<std::uint8_t>(rng());
    }
    b.resize(n);
    return b;
}

// parse_probe hashes the end of each match without a loop (insert_match_end): matches of 2
// and 3 bytes, and matches ending 0-7 bytes before the block's end, must leave the table as
// MatchFinder::insert() on each position does, so every later search sees the same candidate.
TEST(MatchFinderProbe, LevelOneParseHashesShortMatchesAndTheBlockEndAsTheGreedyLoop) {
    for (const std::size_t input_size : {std::size_t{60000}, std::size_t{3000000}}) {
        const LzParams params = lz_params(1, input_size);
        std::size_t short_matches = 0;
        for (unsigned seed = 1; seed <= 4; ++seed)
            for (std::size_t size = 20000; size < 20008; ++size) {
                const ByteVec data = short_match_records(size, seed * 8 + static_cast<unsigned>(size % 8));
                MatchFinder fast(data, params.probe_hash_bits), slow(data, params.probe_hash_bits);
                const std::vector<Command> got = parse_lazy(fast, 8, data.size(), params);
                const std::vector<Command> want = reference_level_one(slow, 8, data.size(), params);
                ASSERT_EQ(got.size(), want.size()) << "size " << size << " seed " << seed;
                for (std::size_t k = 0; k < got.size(); ++k) {
                    ASSERT_EQ(got[k].literals, want[k].literals) << "command " << k << " size " << size;
                    ASSERT_EQ(got[k].length, want[k].length) << "command " << k << " size " << size;
                    ASSERT_EQ(got[k].distance, want[k].distance) << "command " << k << " size " << size;
                    short_matches += got[k].length <= 3;
                }
            }
        EXPECT_GT(short_matches, 1000u);  // the inputs do reach the 2- and 3-byte cases
    }
}

// parse_probe searches positions below 8 and the last 4-7 before `end` in loops of their own
// (the general search) around the hot loop, which keeps the recent offsets as scalars: every
// start 0..8 and every end up to 8 bytes short of the block, on runs, periods 1-9, two-letter
// and random bytes, records and short-match records, must give the slow loop's commands.
TEST(MatchFinderProbe, LevelOneParseEqualsTheGreedyLoopFromEveryStartToEveryEnd) {
    std::vector<ByteVec> inputs{ByteVec(3000, 7), random_bytes(3000, 2, 1), random_bytes(3000, 256, 2),
                                level_one_input(3000, 3), short_match_records(3000, 4)};
    for (unsigned period = 1; period <= 9; ++period) {
        ByteVec periodic(3000);
        for (std::size_t i = 0; i < periodic.size(); ++i) periodic[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        inputs.push_back(periodic);
    }
    for (const unsigned bits : {kSmallInputProbeHashBits, kHashBits}) {
        const LzParams params = lz_params(1, bits == kHashBits ? 0x40001 : 3000);
        ASSERT_EQ(params.probe_hash_bits, bits);
        std::size_t commands = 0;
        for (const ByteVec& data : inputs)
            for (std::size_t first = 0; first <= 8; ++first)
                for (std::size_t short_of_end = 0; short_of_end <= 8; ++short_of_end) {
                    const std::size_t end = data.size() - short_of_end;
                    MatchFinder fast(data, bits), slow(data, bits);
                    const std::vector<Command> got = parse_lazy(fast, first, end, params);
                    const std::vector<Command> want = reference_level_one(slow, first, end, params);
                    ASSERT_EQ(got.size(), want.size()) << "first " << first << " end " << end;
                    for (std::size_t k = 0; k < got.size(); ++k) {
                        ASSERT_EQ(got[k].literals, want[k].literals) << "command " << k << " first " << first << " end " << end;
                        ASSERT_EQ(got[k].length, want[k].length) << "command " << k << " first " << first << " end " << end;
                        ASSERT_EQ(got[k].distance, want[k].distance) << "command " << k << " first " << first << " end " << end;
                    }
                    commands += got.size();
                }
        EXPECT_GT(commands, 10000u);
    }
}

// Level 1's parse hands each command's recent slot to the chunk writer (parse_probe_slotted),
// taken from where its match came from (the slot test's pick, or 3 for a probe's match), not
// from comparing the distance with the slots. It must give parse_lazy's commands, each with
// the slot Recent::index_of finds replaying them (of equal slots the first): on records,
// runs, short-match records, periods 1-48 (slots holding equal values: 8, 8, 8 at the start
// and each period's multiples), random bytes, at both hash widths, from starts 0-8 and over
// two chunks of one finder.
TEST(MatchFinderProbe, LevelOneSlotsAreTheRecentSlotsOfTheParsesCommands) {
    std::vector<ByteVec> inputs{ByteVec(3000, 7), random_bytes(20000, 2, 5), random_bytes(20000, 256, 6),
                                level_one_input(0x30000, 7), short_match_records(20000, 8)};
    for (unsigned period : {1u, 3u, 8u, 9u, 16u, 48u}) {
        ByteVec periodic(20000);
        for (std::size_t i = 0; i < periodic.size(); ++i) periodic[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        inputs.push_back(periodic);
    }
    constexpr std::size_t kChunk = 0x20000;
    std::size_t per_slot[4] = {};
    for (const unsigned bits : {kSmallInputProbeHashBits, kHashBits}) {
        const LzParams params = lz_params(1, bits == kHashBits ? 0x40001 : 3000);
        ASSERT_EQ(params.probe_hash_bits, bits);
        for (const ByteVec& data : inputs)
            for (const std::size_t first : {std::size_t{0}, std::size_t{5}, std::size_t{8}}) {
                MatchFinder slotted_finder(data, bits), plain_finder(data, bits);
                for (std::size_t start = 0; start < data.size(); start += kChunk) {
                    const std::size_t from = start == 0 ? first : start, end = std::min(data.size(), start + kChunk);
                    const SlottedCommands got = parse_probe_slotted(slotted_finder, from, end, params);
                    const std::vector<Command> want = parse_lazy(plain_finder, from, end, params);
                    ASSERT_EQ(got.size(), want.size()) << "size " << data.size() << " first " << from;
                    Recent recent;  // per chunk, as the chunk's commands replay it
                    for (std::size_t k = 0; k < got.size(); ++k) {
                        const std::string at = "command " + std::to_string(k) + " size " + std::to_string(data.size()) + " first " + std::to_string(from);
                        ASSERT_EQ(got[k].literals, want[k].literals) << at;
                        ASSERT_EQ(got[k].length, want[k].length) << at;
                        ASSERT_EQ(got[k].distance, want[k].distance) << at;
                        const unsigned index = recent.index_of(want[k].distance);
                        ASSERT_EQ(got[k].slot, index) << at;
                        ++per_slot[index];
                        recent.use(index, want[k].distance);
                    }
                }
            }
    }
    for (unsigned i = 0; i < 4; ++i) EXPECT_GT(per_slot[i], 1000u) << "slot " << i;
}

// Level 1's hot loop (probe_hot_loop in lz_parse.cpp) tests the three recent slots on 2-byte
// loads, reads a head entry as base + position and compares a candidate past p (an entry of
// an earlier block, or a multiple past p) at the block's start before dropping it, and writes
// its commands into room made ahead (one command per 12 bytes), grown between its runs. On a
// table this thread has just filled from the same bytes (the newest spare: every hash an
// entry of an earlier block, behind the base) and on inputs whose start recurs every few
// bytes (two- and four-letter random bytes) or that make more than one command per 12 bytes,
// the slotted parse must give the slow loop's commands and Recent's slots.
TEST(MatchFinderProbe, LevelOneParseDropsAnEarlierBlocksEntriesAndGrowsItsRoom) {
    std::vector<ByteVec> inputs{random_bytes(20000, 2, 11), random_bytes(20000, 4, 12), short_match_records(30000, 13),
                                level_one_input(30000, 14), ByteVec(5000, 3)};
    for (unsigned period : {2u, 5u, 12u}) {
        ByteVec periodic(20000);
        for (std::size_t i = 0; i < periodic.size(); ++i) periodic[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        inputs.push_back(periodic);
    }
    std::size_t grown = 0;
    for (const unsigned bits : {kSmallInputProbeHashBits, kHashBits}) {
        const LzParams params = lz_params(1, bits == kHashBits ? 0x40001 : 3000);
        ASSERT_EQ(params.probe_hash_bits, bits);
        for (const ByteVec& data : inputs) {
            {
                MatchFinder earlier(data, bits);  // its table goes back to this thread's spares, filled
                (void)parse_lazy(earlier, 8, data.size(), params);
            }
            MatchFinder fast(data, bits), slow(data, bits);  // fast takes the newest spare
            const SlottedCommands got = parse_probe_slotted(fast, 8, data.size(), params);
            const std::vector<Command> want = reference_level_one(slow, 8, data.size(), params);
            ASSERT_EQ(got.size(), want.size()) << "size " << data.size();
            Recent recent;
            for (std::size_t k = 0; k < got.size(); ++k) {
                ASSERT_EQ(got[k].literals, want[k].literals) << "command " << k << " size " << data.size();
                ASSERT_EQ(got[k].length, want[k].length) << "command " << k << " size " << data.size();
                ASSERT_EQ(got[k].distance, want[k].distance) << "command " << k << " size " << data.size();
                const unsigned index = recent.index_of(want[k].distance);
                ASSERT_EQ(got[k].slot, index) << "command " << k << " size " << data.size();
                recent.use(index, want[k].distance);
            }
            grown += got.size() > (data.size() - 8) / 12 + 1;  // past the first room
        }
    }
    EXPECT_GE(grown, 4u);
}

TEST(MatchFinderProbe, OnlyLevelOneOnOneBlockInputsTakesTheNarrowHash) {
    EXPECT_EQ(lz_params(1, 0).probe_hash_bits, kSmallInputProbeHashBits);
    EXPECT_EQ(lz_params(1, 0x40000).probe_hash_bits, kSmallInputProbeHashBits);
    EXPECT_EQ(lz_params(1, 0x40001).probe_hash_bits, kHashBits);
    for (int level = 2; level <= 9; ++level) EXPECT_EQ(lz_params(level, 1000).probe_hash_bits, kHashBits) << level;
    EXPECT_THROW(MatchFinder(ByteVec(100), 15), std::invalid_argument);
}
