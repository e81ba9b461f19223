// Level 1's single-probe search (MatchFinder::probe, codec/kraken/match_finder.h) against a
// brute-force model: over random, copied, periodic and run inputs, probed at a random subset
// of positions with match ends inserted, each answer must be the newest earlier probed or
// inserted position with the same hash (or, closer than 8 bytes, its smallest multiple >= 8),
// extended byte by byte as far as the bytes agree, the limit allows and at least 4 bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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
void check_probes(const ByteVec& data, std::size_t limit, unsigned seed) {
    MatchFinder finder(data);
    std::mt19937 rng(seed);
    std::unordered_map<std::uint32_t, std::size_t> newest;  // hash -> newest position given
    std::size_t found = 0;
    for (std::size_t p = 0; p < data.size(); p += 1 + rng() % 3) {
        const MatchFinder::Match m = finder.probe(p, limit);
        MatchFinder::Match expected;
        if (p + 4 <= data.size()) {
            const std::uint32_t h = hash4(data.data() + p);
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
                if (q + 4 <= data.size()) newest[hash4(data.data() + q)] = q;
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
        check_probes(data, data.size(), values);
        check_probes(data, data.size() - 37, values + 1);  // a limit before the end
    }
}

TEST(MatchFinderProbe, PeriodsBelowEightUseTheirMultiple) {
    for (unsigned period = 1; period <= 12; ++period) {
        ByteVec data(5000);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        check_probes(data, data.size(), period);
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
