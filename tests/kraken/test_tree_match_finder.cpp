// The binary-tree match finder (codec/kraken/tree_match_finder.h) against a brute-force
// longest match: on small random, copied, periodic and run inputs, with the depth unbounded,
// the longest match it reports at every position is the longest one that exists (distance 8
// or more, not past the limit, at most the finder's maximum length), and every match it reports
// is real; with a shallow depth its matches are still real.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "codec/kraken/tree_match_finder.h"

using namespace navlab::kraken::detail;
using ByteVec = std::vector<std::uint8_t>;

namespace {

/// Longest match at p over every distance 8..p, by comparing bytes one by one.
std::uint32_t brute_longest(const ByteVec& data, std::size_t p, std::size_t limit, std::uint32_t max_length) {
    std::uint32_t best = 0;
    for (std::size_t d = kMinDistance; d <= p; ++d) {
        std::uint32_t n = 0;
        while (p + n < limit && n < max_length && data[p + n] == data[p + n - d]) ++n;
        best = std::max(best, n);
    }
    return best < kMinMatch ? 0 : best;
}

/// Longest match at p over the distances 1..7 (which cannot be written).
std::uint32_t nearest_repeat(const ByteVec& data, std::size_t p, std::size_t limit) {
    std::uint32_t best = 0;
    for (std::size_t d = 1; d < kMinDistance && d <= p; ++d) {
        std::uint32_t n = 0;
        while (p + n < limit && data[p + n] == data[p + n - d]) ++n;
        best = std::max(best, n);
    }
    return best;
}

/// How much check_finder checks beside the soundness of every reported match.
enum class Longest { unchecked, where_no_near_repeat, everywhere };

/// Inserts every position; checks each reported match and, as asked, the longest.
void check_finder(const ByteVec& data, unsigned max_length, unsigned depth, Longest longest, const char* what) {
    const std::size_t limit = data.size();
    TreeMatchFinder finder(data, max_length, depth);
    std::vector<MatchFinder::Match> found;
    std::size_t mismatches = 0;
    for (std::size_t p = 0; p < data.size(); ++p) {
        found.clear();
        finder.find_all(p, limit, found);
        std::uint32_t previous = 0;
        for (const MatchFinder::Match& m : found) {
            ASSERT_GE(m.distance, kMinDistance) << what << " at " << p;
            ASSERT_LE(m.distance, p) << what << " at " << p;
            ASSERT_GE(m.length, kMinMatch) << what << " at " << p;
            ASSERT_LE(m.length, max_length) << what << " at " << p;
            ASSERT_GT(m.length, previous) << what << " at " << p << ": lengths must increase";
            ASSERT_GE(match_length(data, p, m.distance, limit), m.length) << what << " at " << p << ": not a real match";
            previous = m.length;
        }
        // A repeat closer than 8 bytes is met first on the walk and may hide a farther match
        // (its multiple of 8 or more is tried, which covers periodic data): not checked there.
        const bool checked = longest == Longest::everywhere ||
                             (longest == Longest::where_no_near_repeat && nearest_repeat(data, p, limit) < kMinMatch);
        if (checked && previous != brute_longest(data, p, limit, max_length)) ++mismatches;
    }
    EXPECT_EQ(mismatches, 0u) << what << ": positions where the longest match was missed";
}

ByteVec random_bytes(std::size_t n, unsigned alphabet, unsigned seed) {
    std::mt19937 rng(seed);
    ByteVec b(n);
    for (auto& v : b) v = static_cast<std::uint8_t>(rng() % alphabet);
    return b;
}

/// Random bytes with copies of earlier stretches (lengths 4..80, distances 8..n) pasted in.
ByteVec copied_bytes(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    ByteVec b = random_bytes(64, 256, seed);
    while (b.size() < n) {
        if (rng() % 3 == 0) {
            b.push_back(static_cast<std::uint8_t>(rng()));
            continue;
        }
        const std::size_t d = kMinDistance + rng() % (b.size() - kMinDistance + 1);
        const std::size_t len = 4 + rng() % 77;
        for (std::size_t i = 0; i < len; ++i) b.push_back(b[b.size() - d]);
    }
    b.resize(n);
    return b;
}

}  // namespace

TEST(TreeMatchFinder, FindsTheLongestMatchOnRandomAndCopiedData) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        check_finder(copied_bytes(3000, seed), 64, 1u << 30, Longest::where_no_near_repeat, "copied");
        check_finder(copied_bytes(3000, seed + 10), 16, 1u << 30, Longest::where_no_near_repeat, "copied, max 16");
        check_finder(random_bytes(2000, 256, seed), 32, 1u << 30, Longest::where_no_near_repeat, "random");
        check_finder(random_bytes(3000, 4, seed), 32, 1u << 30, Longest::where_no_near_repeat, "random, 4 values");
    }
}

TEST(TreeMatchFinder, FindsTheLongestMatchOnPeriodicDataAndRuns) {
    // Periods below 8 are reported at their smallest multiple of at least 8: exact everywhere.
    for (unsigned period = 1; period <= 12; ++period) {
        ByteVec data(1500);
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i % period * 37 + 1);
        check_finder(data, 48, 1u << 30, Longest::everywhere, "periodic");
    }
    ByteVec runs;
    for (unsigned r = 1; runs.size() < 2000; ++r) runs.insert(runs.end(), r % 29 + 1, static_cast<std::uint8_t>(r % 3));
    check_finder(runs, 40, 1u << 30, Longest::unchecked, "runs");
}

TEST(TreeMatchFinder, ShallowSearchesReportOnlyRealMatches) {
    // Small alphabets: many equal prefixes, nearby repeats; depth 1..8 as the levels use.
    for (unsigned depth : {1u, 2u, 8u})
        for (unsigned alphabet : {2u, 3u, 16u}) check_finder(random_bytes(4000, alphabet, depth * 7 + alphabet), 32, depth, Longest::unchecked, "small alphabet");
    check_finder(ByteVec(5000, 0), 256, 8, Longest::unchecked, "zeros");
}
