// Sparse optimal parse. See sparse_parse.h and docs/kraken.md ("Seventh session").
//
// The optimal parse of levels 7-9 expands every position: a literal, the three recent
// offsets and every candidate match out of each. On the game's one-block files that cost
// 60-85 ns a position, three times what level 6's 40 MB/s allows, whatever the match finder
// (docs/kraken.md, "Sixth session"). Most of those positions lie inside matches, reached only
// by literals or by a short match that a longer one overtakes, and a path through them is
// almost never the cheapest. So a position is expanded only when
//   * no match relaxed so far reaches past it (a literal run: every position may start one), or
//   * it is reached by a match, or by at most kLiteralsAfterMatch literals after one (the
//     "match, literal, recent-offset match" steps through a record's changed bytes that make
//     the optimal parse's gain on structured data), and
//   * no position in the next kDominanceWindow is already reached at most kDominanceMargin
//     dearer: a path through it would have to win that back later, which a match from the
//     position ahead usually does at least as well.
// On the game's one-block files this expanded 13-14 % of the positions (17-19 % with the
// decode-time prices below), within 0.2 % of the size of expanding all of them, and only
// those are searched for matches (hash chains, entered at any position:
// MatchFinder::find_all; not where a recent offset already matches kRecentLongEnough
// bytes), so a pass costs a fraction of a full one. Memory: 20 bytes a position of the chunk
// (2.5 MiB for a full one), kept by the thread on huge pages, and a bit a position for the
// positions reached (16 KiB).
#include "codec/kraken/sparse_parse.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/context.h"
#include "codec/kraken/lz_prices.h"
#include "io/cpu_features.h"
#include "io/huge_page_allocator.h"

namespace navlab::kraken::detail {
namespace {

/// Literals after a match end through which positions inside other matches are still expanded.
constexpr std::uint32_t kLiteralsAfterMatch = 2;
/// A position with a recent-offset match this long is not searched (16: the emevd 0.5 %
/// larger; 24: sizes within 0.3 %, 5-10 % faster; docs/kraken.md).
constexpr std::uint32_t kRecentLongEnough = 24;
/// Chain candidates per searched position of the greedy parse whose statistics price the
/// first pass (1 and 2: the emevd 0.4 % larger; level 1's single probe: 1 % larger on the
/// Sekiro files, no faster).
constexpr unsigned kSeedChainDepth = 4;
/// What a command costs the decoder, priced like bits (1/16 bit): 7.5 bits on every match and
/// 2.5 bits more on a new distance. The parse with bits alone made 4.6-12.3 % more commands
/// and up to half again as many new distances as the game's Oodle on its one-block files, whose
/// streams navlab decoded in 5-7 % more instructions (about 105 a command); with these prices
/// they decode in 0.99-1.012x the game's, at sizes within 0.3 % of before (the emevd 1.0965 ->
/// 1.0977x the game's size, sekiro_m00 0.9888 -> 0.9914x, spaar_item 0.9517 -> 0.9388x), for
/// 11-24 % more encode instructions (fewer positions are dominated). Measured 1-24 bits a
/// command and 1-8 bits a new distance: less leaves more of the gap, more passes the emevd
/// over 1.10x (docs/kraken.md, "Fourteenth session").
constexpr std::uint32_t kCommandDecodePrice = 120;
constexpr std::uint32_t kNewDistanceDecodePrice = 40;
/// Positions below the backtrack's current one whose step is prefetched (64 lines of steps).
/// The backtrack's share of level 6 on the emevd (perf): 9 % without, about 1.7 / 1.1 / 0.9 %
/// at 64 / 128 / 256 positions.
constexpr std::size_t kBacktrackPrefetch = 256;
/// Cost of a position no step has reached (dominated() works on signed 32-bit lanes).
constexpr std::uint32_t kUnreached = std::numeric_limits<std::int32_t>::max();

/// dominated_ahead() a lane at a time.
bool dominated_plain(const std::uint32_t* ahead, std::uint32_t c) {
    // ahead[k] <= c + margin exactly when ahead[k] - (c + margin + 1) is negative: ahead[k]
    // lies in [0, kUnreached] and a reached cost far below 2^31 - 49 (a chunk's costs stay
    // under about 2^25), so the difference cannot overflow a signed lane. ORing the
    // differences keeps any sign bit: one subtraction and one OR a lane once vectorised
    // (a comparison per lane made GCC turn each mask into 0/1 first, three times the work
    // on a check that runs on most reached positions: a tenth of level 6's time).
    const std::int32_t above = static_cast<std::int32_t>(c + kDominanceMargin + 1);
    std::int32_t signs = 0;
    for (std::size_t k = 0; k < kDominanceWindow; ++k) signs |= static_cast<std::int32_t>(ahead[k]) - above;
    return signs < 0;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define NAVLAB_SPARSE_AVX2 1
/// dominated_ahead() on AVX2: the 32 differences in four vectors, their sign bits ORed and
/// taken as a mask. The SSE2 loop GCC makes of the plain one took 36 instructions, this 19
/// with its call (out of line: only a function compiled for AVX2 may hold them); the test
/// runs on three in four of the positions the pass visits (the emevd: 0.6 M instructions
/// less, 3.5 % of level 6).
__attribute__((target("avx2"), noinline)) bool dominated_avx2(const std::uint32_t* ahead, std::uint32_t c) {
    static_assert(kDominanceWindow == 32, "four vectors of 8 costs");
    const __m256i above = _mm256_set1_epi32(static_cast<std::int32_t>(c + kDominanceMargin + 1));
    const auto* v = reinterpret_cast<const __m256i*>(ahead);
    const __m256i low = _mm256_or_si256(_mm256_sub_epi32(_mm256_loadu_si256(v), above),
                                        _mm256_sub_epi32(_mm256_loadu_si256(v + 1), above));
    const __m256i high = _mm256_or_si256(_mm256_sub_epi32(_mm256_loadu_si256(v + 2), above),
                                         _mm256_sub_epi32(_mm256_loadu_si256(v + 3), above));
    const __m256i signs = _mm256_or_si256(low, high);
    return _mm256_movemask_ps(_mm256_castsi256_ps(signs)) != 0;
}

/// Whether the parse takes dominated_avx2: the processor has AVX2 (cpu_has_avx2), unless a
/// test switched it off (allow_avx2_dominance).
std::atomic<bool> g_avx2_dominance_allowed{true};
bool use_avx2_dominance() { return cpu_has_avx2() && g_avx2_dominance_allowed.load(std::memory_order_relaxed); }
#else
bool use_avx2_dominance() { return false; }
#endif

/// How the cheapest known path reaches a position (its cost is kept apart, see Scratch): 16
/// bytes, four to a cache line (the backtrack and the relaxations touch one per step).
struct Step {
    Recent recent;      ///< recent offsets after this step; a match's distance is slot 0
    std::uint32_t tag;  ///< a match's length, or kLiteralStep | the literal run so far on this path
    bool literal() const { return tag & kLiteralStep; }
    std::uint32_t literal_run() const { return literal() ? tag & ~kLiteralStep : 0; }
    static constexpr std::uint32_t kLiteralStep = 0x80000000;
};

/// Buffers kept per thread across chunks and blocks (their page faults cost more than the
/// parse of a small input). `cost` is separate from the steps so that the dominance test
/// reads two cache lines, and so that resetting it is one fill of 4 bytes a position.
struct Scratch {
    /// Both on huge pages (io/huge_page_allocator.h): a full chunk's steps are 2 MiB, 512
    /// faults of 4 KiB on a thread's first chunk, which cost more than a small input's parse.
    HugePageVector<std::uint32_t> cost;
    HugePageVector<Step> steps;
    std::vector<std::uint64_t> reached;
    std::vector<Command> backtrack;
};
thread_local Scratch scratch;

class SparseParser {
public:
    SparseParser(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t first, std::size_t end,
                 const LzParams& params)
        : finder_(finder), block_(block), first_(first), end_(end), params_(params) {}

    std::vector<Command> run(const Prices& prices, bool delta) {
        const std::size_t n = end_ - first_;
        // Room for a full chunk (512 KiB, enough for HugePageAllocator's huge page) whatever
        // this chunk's size: a thread's first small input zeroes a 2 MiB page for a few KB of
        // costs, once, instead of taking a fault every 4 KiB of them.
        cost_.reserve(kChunkSize + 1 + kDominanceWindow);
        // Unreached past the end too, so the dominance window never needs a bound check.
        cost_.assign(n + 1 + kDominanceWindow, kUnreached);
        if (steps_.size() < n + 1) steps_.resize(n + 1);
        reached_.assign(n / 64 + 1, 0);
        mark_reached(n);  // the end, where next_reached stops
        cost_[0] = 0;
        steps_[0] = Step{Recent{}, 0};  // a literal run of 0 (tag 0 is never read as a match)
        mark_reached(0);
        std::size_t covered = 0;  // the farthest end of a match relaxed so far
        for (std::size_t i = 0; i < n; i = next_reached(i + 1)) {
            const std::uint32_t c = cost_[i];
            if (i < covered && dominated(i, c)) continue;  // before the step is even loaded
            const Step s = steps_[i];
            if (i < covered && s.literal_run() > kLiteralsAfterMatch) continue;
            const std::uint32_t longest = expand(prices, delta, i, c, s);
            covered = std::max(covered, i + longest);
            // A match of nice length is taken whole: its inside is neither searched nor
            // expanded (bounds the time on runs and periodic data).
            if (longest >= params_.nice_length) i += longest - 1;
        }
        return backtrack();
    }

private:
    void mark_reached(std::size_t j) { reached_[j / 64] |= std::uint64_t(1) << (j % 64); }

    /// The first reached position at or after i (i <= n). Two positions in three are never
    /// reached (the insides of matches): a test of each one's cost mispredicted at every
    /// change from reached to unreached; this finds the next one a word of 64 at a time.
    std::size_t next_reached(std::size_t i) const {
        std::size_t w = i / 64;
        std::uint64_t bits = reached_[w] & (~std::uint64_t(0) << (i % 64));
        while (bits == 0) bits = reached_[++w];  // ends at the end's bit at the latest
        return w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
    }

    /// Whether a position in the next kDominanceWindow is reached at most at cost c.
    bool dominated(std::size_t i, std::uint32_t c) const {
        const std::uint32_t* ahead = cost_.data() + i + 1;
#if NAVLAB_SPARSE_AVX2
        if (avx2_) return dominated_avx2(ahead, c);
#endif
        return dominated_plain(ahead, c);
    }

    /// Relaxes a literal, the recent-offset matches and the found matches out of position i
    /// (reached at cost c by step s); returns the longest match length.
    std::uint32_t expand(const Prices& prices, bool delta, std::size_t i, std::uint32_t c, const Step& s) {
        const std::size_t p = first_ + i;
        const std::uint8_t lit = delta ? static_cast<std::uint8_t>(block_[p] - block_[p - s.recent.slot[0]]) : block_[p];
        const std::uint32_t run = s.literal_run();
        relax(i + 1, c + prices.literal[lit], Step{s.recent, Step::kLiteralStep | (run + 1)});
        // What every match out of here pays for the literal run before it (spec 3.6).
        const std::uint32_t base = c + (run >= 3 ? length_price(prices, run) : 0);
        const unsigned lit_field = std::min(run, 3u);
        std::uint32_t longest = 0;
        // Recent offsets (slots 0..2): matches of 2 bytes and more, at full length, measured
        // only for the slots that match the first 2 bytes (most do not), in slot order.
        for (unsigned matching = recent_pairs(block_, p, end_, s.recent); matching != 0; matching &= matching - 1) {
            const unsigned k = static_cast<unsigned>(std::countr_zero(matching));
            const std::uint32_t d = s.recent.slot[k];
            if ((k >= 1 && d == s.recent.slot[0]) || (k == 2 && d == s.recent.slot[1])) continue;
            const std::uint8_t* here = block_.data() + p;
            const auto len = static_cast<std::uint32_t>(common_length(here, here - d, 2, end_ - p));
            relax_match(prices, i, base, lit_field, len, d, k, 0, s.recent);
            longest = std::max(longest, len);
        }
        // A recent-offset match this long leaves a new distance little to win (it would pay
        // an offset's bits to go further): no search. Each match is relaxed as the walk finds
        // it (the relaxations touch nothing the walk reads), not listed first.
        if (longest >= kRecentLongEnough) return longest;
        finder_.visit_matches(p, end_, params_, [&](const MatchFinder::Match& m) {
            const unsigned k = s.recent.index_of(m.distance);
            if (k < 3) return true;  // measured above, at full length
            const OffsetCode code = offset_code(m.distance);
            const std::uint32_t offset_price = kNewDistanceDecodePrice + prices.offset[code.packed] + 16 * code.bits;
            relax_match(prices, i, base, lit_field, m.length, m.distance, 3, offset_price, s.recent);
            longest = std::max(longest, m.length);
            return true;
        });
        return longest;
    }

    void relax_match(const Prices& prices, std::size_t i, std::uint32_t base, unsigned lit_field, std::uint32_t len,
                     std::uint32_t d, unsigned k, std::uint32_t offset_price, const Recent& recent) {
        std::uint32_t cost = base + kCommandDecodePrice + offset_price +
                             prices.command[lit_field | std::min(len - 2, 15u) << 2 | k << 6];
        if (len > 16) cost += length_price(prices, len - 14);
        Recent next = recent;
        next.use(k, d);
        relax(i + len, cost, Step{next, len});
    }

    void relax(std::size_t j, std::uint32_t cost, const Step& step) {
        if (cost >= cost_[j]) return;
        cost_[j] = cost;
        steps_[j] = step;
        mark_reached(j);
    }

    /// The commands of the cheapest path to the end (trailing literals carry no command).
    std::vector<Command> backtrack() {
        std::vector<Command>& matches = backtrack_;  // last first; `literals` = the literals after each match
        matches.clear();
        std::uint32_t literals = 0;
        for (std::size_t j = end_ - first_; j > 0;) {
            // Each step's position comes from the one after it (a chain of dependent loads
            // going down a 16-byte-a-position array far larger than L2, most of it evicted by
            // the pass): the lines a few steps down are asked for ahead of the walk.
            __builtin_prefetch(steps_.data() + (j > kBacktrackPrefetch ? j - kBacktrackPrefetch : 0));
            const Step& t = steps_[j];
            if (t.literal()) {
                // The whole run at once: one arrival per position, so the path to j runs
                // through the steps stored at the run's positions (final before j was reached).
                const std::uint32_t run = t.literal_run();
                literals += run, j -= run;
            } else {
                matches.push_back({literals, t.tag, t.recent.slot[0]});
                literals = 0;
                j -= t.tag;
            }
        }
        return commands_in_order(matches, literals);  // `literals`: those before the first match
    }

    MatchFinder& finder_;
    std::span<const std::uint8_t> block_;
    std::size_t first_, end_;
    const LzParams& params_;
    HugePageVector<std::uint32_t>& cost_ = scratch.cost;  ///< per position; kUnreached until relaxed
    HugePageVector<Step>& steps_ = scratch.steps;         ///< per position, valid where cost_ is set
    std::vector<std::uint64_t>& reached_ = scratch.reached;  ///< a bit a position, set where cost_ is
    std::vector<Command>& backtrack_ = scratch.backtrack;
    const bool avx2_ = use_avx2_dominance();  ///< dominated() by dominated_avx2
};

}  // namespace

unsigned recent_pairs(std::span<const std::uint8_t> block, std::size_t p, std::size_t end, const Recent& recent) {
    // Measuring each slot's length (match_length) cost about 30 instructions a slot, and 6
    // slots in 10 match less than 2 bytes; this tests all three without a branch.
    if (p + 2 > end) return 0;
    const std::uint8_t* here = block.data() + p;
    const std::uint64_t pair = load16(here);
    unsigned bits = 0;
    for (unsigned k = 0; k < 3; ++k) {
        const std::uint32_t d = recent.slot[k];
        const bool usable = d >= kMinDistance && d <= p;
        // A slot that may not be read compares the pair with itself, and is masked off.
        bits |= static_cast<unsigned>(usable & (load16(here - (usable ? d : 0)) == pair)) << k;
    }
    return bits;
}

bool dominated_ahead(const std::uint32_t* ahead, std::uint32_t c) {
#if NAVLAB_SPARSE_AVX2
    if (use_avx2_dominance()) return dominated_avx2(ahead, c);
#endif
    return dominated_plain(ahead, c);
}

bool allow_avx2_dominance(bool allowed) {
#if NAVLAB_SPARSE_AVX2
    g_avx2_dominance_allowed.store(allowed, std::memory_order_relaxed);
#endif
    return use_avx2_dominance();
}

std::vector<Command> parse_sparse(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t first,
                                  std::size_t end, const LzParams& params) {
    // The first prices come from a greedy parse on the same hash chains (4 candidates a searched
    // position, skipping ahead in incompressible runs: about a fifth of the time of this
    // parse, and the chains it inserts are the ones the sparse pass searches). Seeding with
    // flat prices instead cost 5 % of size on the Elden Ring emevd; a first sparse pass over
    // the first eighth of the chunk cost 0.6 % for the same time (docs/kraken.md).
    const LzParams greedy{kSeedChainDepth, 0, 32, true, false, true, false, 0};
    // Every position is inserted before the seed parse searches (the sparse pass needs them
    // all): one loop of independent head-table loads, where the seed's searches between
    // insertions made each load wait (the same chains; level 6 about 2-3 % faster).
    finder.insert_before(end);
    std::vector<Command> commands = parse_lazy(finder, first, end, greedy);
    SparseParser parser(finder, block, first, end, params);
    for (int pass = 0; pass < std::max(params.passes, 1); ++pass) {
        const Stats stats = collect_stats(block, first, end, commands, 0);
        const bool delta = entropy_bits(stats.delta) < entropy_bits(stats.raw);
        const Prices prices{prices_of(delta ? stats.delta : stats.raw, 8), prices_of(stats.command, 8), prices_of(stats.offset, 8),
                            prices_of(stats.length, 8), prices_of(stats.low, 8), 0};
        commands = parser.run(prices, delta);
    }
    return commands;
}

}  // namespace navlab::kraken::detail
