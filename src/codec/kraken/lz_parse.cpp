// LZ parsers of the Kraken encoder. See lz_parse.h.
#include "codec/kraken/lz_parse.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "codec/kraken/array_encoder.h"
#include "codec/kraken/lz_prices.h"
#include "io/default_init_vector.h"
#include "io/huge_page_allocator.h"

namespace navlab::kraken::detail {
namespace {

// ---- offset coding --------------------------------------------------------------------

/// Largest offset scale tried (spec 3.5 allows 1..128). Structured game data (4-, 8-, 16- or
/// 32-byte records) is where scales pay; each candidate costs one pass over the distances.
constexpr unsigned kMaxScale = 32;
/// Allowance in bits for the Huffman table of the extra low-bits array.
constexpr double kLowArrayBits = 240;

/// Estimated bits of the offsets coded with `scale` (0 = legacy): packed-byte entropy, raw
/// bits, and the low-bits array for scales of 2 and more.
double offset_bits(std::span<const std::uint32_t> distances, unsigned scale) {
    std::array<std::uint32_t, 256> packed{}, low{};
    double raw = 0;
    for (std::uint32_t d : distances) {
        std::uint8_t lo = 0;
        const OffsetCode code = coded_offset(d, scale, lo);
        ++packed[code.packed], ++low[lo];
        raw += code.bits;
    }
    return entropy_bits(packed) + raw + (scale >= 2 ? entropy_bits(low) + kLowArrayBits : 0);
}

// ---- greedy / lazy --------------------------------------------------------------------

/// Bits of a new (explicit) distance in the fixed cost model of levels 1-6, beside its raw
/// bits. About 13 would be its coded size; 23 also weighs its decode time (a bit-region read
/// and often a far match source, where a recent offset is a register move): the game's streams
/// take fewer explicit distances than a size-only model does (docs/kraken.md). Measured on
/// 4 MiB of er_allmaterial_dlc01 / sekiro_allmaterialbnd at level 6: 16 % / 14 % fewer explicit
/// distances and 0.1-0.6 % smaller (level 1: 3-5 % smaller) than with 13.
constexpr int kNewOffsetBits = 23;
/// The size-only figure, for the lazy start of the optimal parse (it only seeds the prices:
/// with 23 there the one-block Sekiro message binder came out 3 % larger).
constexpr int kNewOffsetSizeBits = 13;

/// Rough bit price of a match, against about 7 bits a literal: the fast levels' cost model.
int match_gain(std::uint32_t length, std::uint32_t distance, bool recent, int new_offset_bits = kNewOffsetBits) {
    const int cost = recent ? 6 : new_offset_bits + static_cast<int>(offset_code(distance).bits);
    return static_cast<int>(length) * 7 - cost;
}

struct Candidate {
    std::uint32_t length = 0, distance = 0;
    int gain = 0;
};

/// Whether a recent offset matches the 2 bytes at `at` (a position p >= 8, where every slot is
/// at most p: 8, or the distance of a match at an earlier position; 2 bytes readable there).
inline bool recent_pair_at(const std::uint8_t* at, const Recent& recent) {
    auto pair = [](const std::uint8_t* q) {
        std::uint16_t v;
        std::memcpy(&v, q, 2);
        return v;
    };
    const std::uint16_t here = pair(at), p0 = pair(at - recent.slot[0]), p1 = pair(at - recent.slot[1]),
                        p2 = pair(at - recent.slot[2]);
    return (p0 == here) | (p1 == here) | (p2 == here);
}

// Inlined into the parse loop: returned by value, the 12-byte candidate went through two
// 4-byte stack stores and an 8-byte reload (a store-forwarding stall that was a third of this
// function's time at level 1).
[[gnu::always_inline]] inline Candidate best_at(MatchFinder& finder, std::size_t p, std::size_t limit, const Recent& recent, const LzParams& params) {
    Candidate best;
    // Most positions match no recent offset on 2 bytes: one test for the three first, then the
    // three length measures only where one may match (level 4: 3 % fewer instructions). The
    // lazy loop's positions are all >= 8 with 4 bytes left; the other guards keep the test
    // within its own conditions.
    const bool may_match = p < kMinDistance || limit - p < 2 || recent_pair_at(finder.block().data() + p, recent);
    for (unsigned i = 0; i < 3 && may_match; ++i) {
        const std::uint32_t len = finder.match_length(p, recent.slot[i], limit);
        if (len >= 2) {
            const int gain = match_gain(len, recent.slot[i], true);
            if (gain > best.gain) best = {len, recent.slot[i], gain};
        }
    }
    if (best.length >= params.nice_length) return best;
    const MatchFinder::Match m = params.chains ? finder.find(p, limit, params) : finder.probe(p, limit);
    if (m.length >= kMinMatch) {
        const int gain = match_gain(m.length, m.distance, false);
        if (gain > best.gain) best = {m.length, m.distance, gain};
    }
    return best;
}

/// The greedy/lazy loop over [p, end): best(q, recent) gives the candidate at q. A match is
/// put off by one position at a time (up to lazy_steps) while the next position gains more
/// than the literal it costs.
template <class Best, class Matched>
std::vector<Command> lazy_loop(std::size_t p, std::size_t end, const LzParams& params, Best&& best, Matched&& matched) {
    std::vector<Command> commands;
    Recent recent;
    std::size_t literal_start = p;
    unsigned misses = 0;
    while (p + kMinMatch <= end) {
        Candidate c = best(p, recent);
        if (c.gain <= 0) {
            ++misses;
            p += params.skip_literals ? 1 + (misses >> 5) : 1;
            continue;
        }
        misses = 0;
        for (unsigned step = 0; step < params.lazy_steps && c.length < params.nice_length && p + 1 + kMinMatch <= end;
             ++step) {
            const Candidate next = best(p + 1, recent);
            if (next.gain <= c.gain + 7) break;
            c = next, ++p;
        }
        commands.push_back({static_cast<std::uint32_t>(p - literal_start), c.length, c.distance});
        recent.use(recent.index_of(c.distance), c.distance);
        matched(p, c.length);
        p += c.length;
        literal_start = p;
    }
    return commands;
}

// ---- optimal --------------------------------------------------------------------------

/// One parse state: the cheapest known way to reach a position.
struct Node {
    std::uint32_t cost = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t literal_run = 0;  ///< literals since the last match on this path
    std::uint32_t length = 0;       ///< 0: reached by a literal; else by a match of this length
    std::uint32_t distance = 0;
    Recent recent;
    std::uint32_t prev = 0;  ///< which arrival at the position before this step the path came from
};


/// Buffers of the optimal parser, kept per thread across chunks and blocks: made afresh for
/// each chunk (nodes of 32 bytes per arrival: 8 MiB for a full chunk at 2 arrivals, 16 at 4)
/// their page faults cost more than the parse of a small input. The nodes on huge pages
/// (io/huge_page_allocator.h), for the same reason.
struct ParseScratch {
    std::vector<MatchFinder::Match> matches;
    std::vector<std::uint32_t> starts;
    HugePageVector<Node> nodes;
};
thread_local ParseScratch parse_scratch;

class OptimalParser {
public:
    OptimalParser(std::span<const std::uint8_t> block, std::size_t first, std::size_t end, const LzParams& params)
        : block_(block), first_(first), end_(end), params_(params) {}

    /// Gathers the match candidates of every position (in order: the finder is incremental).
    void gather(MatchFinder& finder) {
        const std::size_t n = end_ - first_;
        matches_.clear();
        starts_.resize(n + 1);
        // Inside a match of nice length no search is made (that bounds the time on runs); each
        // position there gets the rest of that match as its one candidate.
        std::size_t long_end = 0;
        std::uint32_t long_distance = 0;
        for (std::size_t p = first_; p < end_; ++p) {
            starts_[p - first_] = static_cast<std::uint32_t>(matches_.size());
            if (p < long_end) {
                if (long_end - p >= kMinMatch)
                    matches_.push_back({static_cast<std::uint32_t>(long_end - p), long_distance});
                continue;
            }
            const std::size_t before = matches_.size();
            finder.find_all(p, end_, params_, matches_);
            if (matches_.size() > before && matches_.back().length >= params_.nice_length)
                long_end = p + matches_.back().length, long_distance = matches_.back().distance;
        }
        starts_[n] = static_cast<std::uint32_t>(matches_.size());
    }

    /// A lazy parse (two steps) over the gathered candidates (the finder has moved on).
    std::vector<Command> lazy() const {
        LzParams lazy_params = params_;
        lazy_params.lazy_steps = 2, lazy_params.skip_literals = false;
        return lazy_loop(first_, end_, lazy_params, [&](std::size_t q, const Recent& recent) {
            Candidate c;
            for (unsigned k = 0; k < 3; ++k) {
                const std::uint32_t len = match_length(q, recent.slot[k]);
                const int gain = match_gain(len, recent.slot[k], true, kNewOffsetSizeBits);
                if (len >= 2 && gain > c.gain) c = {len, recent.slot[k], gain};
            }
            const std::size_t i = q - first_;
            if (starts_[i + 1] > starts_[i]) {
                const MatchFinder::Match& m = matches_[starts_[i + 1] - 1];  // the longest
                const int gain = match_gain(m.length, m.distance, false, kNewOffsetSizeBits);
                if (gain > c.gain) c = {m.length, m.distance, gain};
            }
            return c;
        }, [](std::size_t, std::uint32_t) {});
    }

    std::vector<Command> run(const Prices& prices, bool delta) {
        const std::size_t n = end_ - first_;
        arrivals_ = std::max(1u, params_.arrivals);
        // Nodes are reset as the parse first reaches them (relax), not all up front.
        if (nodes_.size() < (n + 1) * arrivals_) nodes_.resize((n + 1) * arrivals_);
        std::fill_n(nodes_.begin(), arrivals_, Node{});
        nodes_[0].cost = 0;
        reached_ = 0;
        for (std::size_t i = 0; i < n; ++i) {
            std::uint32_t longest = 0;
            for (std::uint32_t a = 0; a < arrivals_; ++a) longest = std::max(longest, expand(prices, delta, i, a));
            // Long match: its end is reached; the positions inside it are not expanded.
            if (longest >= params_.nice_length) i += longest - 1;
        }
        return backtrack();
    }

private:
    /// Relaxes every step out of arrival `a` at position i; returns the longest match length.
    std::uint32_t expand(const Prices& prices, bool delta, std::size_t i, std::uint32_t a) {
            const Node s = nodes_[i * arrivals_ + a];
            if (s.cost == std::numeric_limits<std::uint32_t>::max()) return 0;
            current_ = a;
            const std::size_t p = first_ + i;
            const std::uint8_t lit = delta ? static_cast<std::uint8_t>(block_[p] - block_[p - s.recent.slot[0]]) : block_[p];
            relax(i + 1, s.cost + prices.literal[lit], s.literal_run + 1, 0, 0, s.recent);
            const std::uint32_t run_price = s.literal_run >= 3 ? length_price(prices, s.literal_run) : 0;
            const unsigned lit_field = std::min(s.literal_run, 3u);
            std::uint32_t longest = 0;
            // Recent offsets (spec 3.6 slots 0..2): matches of 2 bytes and more.
            for (unsigned k = 0; k < 3; ++k) {
                const std::uint32_t d = s.recent.slot[k];
                if ((k >= 1 && d == s.recent.slot[0]) || (k == 2 && d == s.recent.slot[1])) continue;
                const std::uint32_t len = match_length(p, d);
                if (len < 2) continue;
                try_lengths(prices, s, i, 2, len, d, k, s.cost + run_price, lit_field, 0);
                longest = std::max(longest, len);
            }
            std::uint32_t tried = kMinMatch - 1;
            for (std::uint32_t m = starts_[i]; m < starts_[i + 1]; ++m) {
                const MatchFinder::Match& match = matches_[m];
                const unsigned k = s.recent.index_of(match.distance);
                std::uint32_t extra = 0;
                if (k == 3) {
                    std::uint8_t low = 0;
                    const OffsetCode code = coded_offset(match.distance, prices.scale, low);
                    extra = prices.offset[code.packed] + 16 * code.bits + (prices.scale >= 2 ? prices.low[low] : 0);
                }
                try_lengths(prices, s, i, tried + 1, match.length, match.distance, k, s.cost + run_price, lit_field, extra);
                tried = match.length;
                longest = std::max(longest, match.length);
            }
            return longest;
    }

    std::uint32_t match_length(std::size_t p, std::size_t d) const { return detail::match_length(block_, p, d, end_); }

    void try_lengths(const Prices& prices, const Node& s, std::size_t i, std::uint32_t from, std::uint32_t to,
                     std::uint32_t d, unsigned k, std::uint32_t base, unsigned lit_field, std::uint32_t extra) {
        Recent next = s.recent;
        next.use(k, d);
        auto one = [&](std::uint32_t len) {
            const unsigned match_field = std::min(len - 2, 15u);
            std::uint32_t cost = base + extra + prices.command[lit_field | match_field << 2 | k << 6];
            if (len > 16) cost += length_price(prices, len - 14);
            relax(i + len, cost, 0, len, d, next);
        };
        const std::uint32_t tried = params_.tried_lengths;
        for (std::uint32_t len = from; len <= std::min(to, tried); ++len) one(len);
        if (to > tried) one(to);
    }

    /// Keeps the `arrivals_` cheapest ways to reach j with distinct recent offsets, cheapest
    /// first: a dearer path may carry the offsets that make the following matches cheap.
    void relax(std::size_t j, std::uint32_t cost, std::uint32_t run, std::uint32_t len, std::uint32_t d, const Recent& recent) {
        if (j > reached_) {
            std::fill(nodes_.begin() + static_cast<std::ptrdiff_t>((reached_ + 1) * arrivals_),
                      nodes_.begin() + static_cast<std::ptrdiff_t>((j + 1) * arrivals_), Node{});
            reached_ = j;
        }
        Node* t = &nodes_[j * arrivals_];
        if (arrivals_ == 1) {
            if (cost < t[0].cost) t[0] = Node{cost, run, len, d, recent, 0};
            return;
        }
        std::uint32_t slot = arrivals_ - 1;
        for (std::uint32_t a = 0; a < arrivals_; ++a) {
            const std::uint32_t* r = t[a].recent.slot;
            if (t[a].cost == std::numeric_limits<std::uint32_t>::max() ||
                (r[0] == recent.slot[0] && r[1] == recent.slot[1] && r[2] == recent.slot[2])) {
                slot = a;
                break;
            }
        }
        if (cost >= t[slot].cost) return;
        t[slot] = Node{cost, run, len, d, recent, current_};
        for (; slot > 0 && t[slot].cost < t[slot - 1].cost; --slot) std::swap(t[slot], t[slot - 1]);
    }

    std::vector<Command> backtrack() const {
        std::size_t j = end_ - first_;
        std::uint32_t literals = 0;
        // Trailing literals carry no command; each match collects the literals before it.
        std::vector<Command> matches;  // last first; `literals` = the literals after each match
        std::uint32_t a = 0;  // the cheapest arrival at the end
        while (j > 0) {
            const Node& t = nodes_[j * arrivals_ + a];
            a = t.prev;
            if (t.length == 0) {
                ++literals, --j;
            } else {
                matches.push_back({literals, t.length, t.distance});
                literals = 0;
                j -= t.length;
            }
        }
        return commands_in_order(matches, literals);  // `literals`: those before the first match
    }

    std::span<const std::uint8_t> block_;
    std::size_t first_, end_;
    LzParams params_;
    std::vector<MatchFinder::Match>& matches_ = parse_scratch.matches;
    std::vector<std::uint32_t>& starts_ = parse_scratch.starts;
    HugePageVector<Node>& nodes_ = parse_scratch.nodes;  ///< arrivals_ per position, cheapest first
    std::size_t reached_ = 0;       ///< nodes_ are reset up to this position
    std::uint32_t arrivals_ = 1;
    std::uint32_t current_ = 0;     ///< the arrival being expanded (the prev of what it relaxes)
};

}  // namespace

unsigned choose_scale(std::span<const std::uint32_t> distances) {
    unsigned best = 0;
    double best_bits = offset_bits(distances, 0);
    if (distances.size() < 16) return best;  // too few for a low-bits table to pay
    for (unsigned scale = 1; scale <= kMaxScale; ++scale) {
        const double bits = offset_bits(distances, scale);
        if (bits < best_bits) best_bits = bits, best = scale;
    }
    return best;
}

namespace {

/// The distance a probe candidate d = 0..7 bytes back stands for: its smallest multiple of at
/// least kMinDistance (MatchFinder::probe); 0 (never a candidate) maps past every position.
constexpr std::size_t kPeriodMultiple[8] = {SIZE_MAX, 8, 8, 9, 8, 10, 12, 14};

/// Level 1's hashing of a match of `length` (>= 2) at p: two of its last four positions
/// (its inside is not hashed), p + length - 4 and p + length - 2, or p alone for length 2
/// and p, p + 2 for length 3 (MatchFinder::insert() on each, in that order), without the
/// loop and its bounds test per position (a match every 13 bytes on the emevd; 7 % of the
/// parse's instructions). When the second position lacks its 4 bytes the match ends at most
/// 2 bytes before the block's end, where no search follows (one needs 4 bytes): neither
/// position is hashed, and the commands are those of inserting the first alone.
template <unsigned kProbeBits>
[[gnu::always_inline]] inline void insert_match_end(HashHeads::View heads, const std::uint8_t* data, std::size_t block_size,
                                                    std::size_t p, std::uint32_t length) {
    const std::size_t q0 = p + std::max<std::uint32_t>(length, 4) - 4;
    const std::size_t q1 = length == 2 ? q0 : q0 + 2;  // q0 again sets the same entry to the same value
    if (q1 + 4 > block_size) return;
    const std::uint32_t h0 = hash4(data + q0, kProbeBits), h1 = hash4(data + q1, kProbeBits);
    heads.set(h0, q0), heads.set(h1, q1);
}

/// Where level 1's parse stands between its loops: each loop copies it into locals (GCC keeps
/// a variable whose address a lambda or a call takes in memory, reloaded every position).
struct ProbeState {
    std::size_t p, literal_start;
    unsigned misses;  ///< counted only when skipping literals
    Recent recent;
    std::size_t count;  ///< commands written
};

/// The settings of level 1's parse, read once.
struct ProbeSettings {
    std::size_t end;
    /// At least 1 (level 1's is 12; 0 would read as 1): a position no slot matches then
    /// probes without a test of the setting (GCC tested nice != 0 at every such position).
    std::uint32_t nice;
    /// A run of misses moves on 1 + misses / 32 positions when skipping literals, else 1:
    /// the misses are counted by this (1 or 0).
    unsigned counted;
};

template <class C>
inline void write_command(C* out, std::uint32_t literals, std::uint32_t length, std::uint32_t distance, unsigned slot) {
    if constexpr (std::is_same_v<C, SlottedCommand>)
        *out = {literals, length, distance, slot};
    else
        *out = {literals, length, distance};
}

/// One position of level 1's parse through MatchFinder's bounds-checked searches (the
/// positions below 8 and the last 4-7 before the end), into `out` (room for one command).
template <unsigned kProbeBits, class C>
void slow_step(MatchFinder& finder, const ProbeSettings& settings, ProbeState& s, C* out) {
    const std::size_t p = s.p;
    Candidate best;
    for (unsigned i = 0; i < 3; ++i) {
        const std::uint32_t len = finder.match_length(p, s.recent.slot[i], settings.end);
        if (len >= 2 && len > best.length) best = {len, s.recent.slot[i], match_gain(len, s.recent.slot[i], true)};
    }
    if (best.length < settings.nice) {
        const MatchFinder::Match m = finder.probe(p, settings.end);
        if (m.length >= kMinMatch) {
            const int gain = match_gain(m.length, m.distance, false);
            if (gain > best.gain) best = {m.length, m.distance, gain};
        }
    }
    if (best.gain <= 0) {
        s.misses += settings.counted;
        s.p += 1 + (s.misses >> 5);
        return;
    }
    const unsigned slot = s.recent.index_of(best.distance);
    s.recent.use(slot, best.distance);
    write_command(out, static_cast<std::uint32_t>(p - s.literal_start), best.length, best.distance, slot);
    ++s.count;
    insert_match_end<kProbeBits>(finder.heads(), finder.block().data(), finder.block().size(), p, best.length);
    s.misses = 0;
    s.p = s.literal_start = p + best.length;
}

/// Level 1's hot loop: positions p >= 8 with 8 bytes at p (so every slot, 8 or the distance of
/// a match at an earlier position, is at most p and its bytes are in the block), until those
/// or the room for commands (`room_end`, past `out`) run out. The 8 bytes at p are loaded
/// once, for the three recent offsets, the hash and the probe's candidate, whose length is
/// only measured on when its first 4 bytes agree. Nothing is called and every value lives in
/// a local: the slots as negative offsets (one load each, `at + n`), the table's entries
/// compared as base + p (no subtraction of the base per probe).
template <unsigned kProbeBits, class C>
[[gnu::always_inline]] inline void probe_hot_loop(MatchFinder& finder, const ProbeSettings& settings, ProbeState& s, C* out,
                                                  C* const room_end) {
    const std::uint8_t* const data = finder.block().data();
    const std::size_t block_size = finder.block().size();
    const std::size_t end = settings.end;
    const std::uint32_t nice = std::max(settings.nice, 1u);  // known here to be at least 1
    const unsigned counted = settings.counted;
    const HashHeads::View heads = finder.heads();
    std::uint32_t* const table = heads.table;
    const std::uint32_t base = heads.base;
    std::size_t p = s.p, literal_start = s.literal_start;
    unsigned misses = s.misses;
    std::ptrdiff_t n0 = -static_cast<std::ptrdiff_t>(s.recent.slot[0]), n1 = -static_cast<std::ptrdiff_t>(s.recent.slot[1]),
                   n2 = -static_cast<std::ptrdiff_t>(s.recent.slot[2]);
    C* const first_out = out;
    for (;;) {
        std::uint32_t length = 0, distance = 0, slot = 0;
        int gain = 0;
        const std::uint8_t* at = data + p;
        const std::uint64_t x = load64(at);
        // Length at distance d from its first 8 bytes (l, 8 when all agree): measured on.
        auto extend = [&](std::uint32_t l, const std::uint8_t* from) {
            return l < 8 ? l : static_cast<std::uint32_t>(common_length(at, from, 8, end - p));
        };
        // MatchFinder::probe() on the loaded bytes, its match kept where it gains more.
        auto probe = [&](std::uint32_t& length, std::uint32_t& distance, int& gain, std::uint32_t& slot) __attribute__((always_inline)) {
            const std::uint32_t h = hash4(static_cast<std::uint32_t>(x), kProbeBits);
            // Entries are base + position: p minus the candidate's position is pb - entry,
            // exactly (an entry of an earlier block, below the base, gives more than p).
            const std::uint32_t pb = base + static_cast<std::uint32_t>(p);
            std::size_t d = pb - table[h];
            table[h] = pb;
            // A candidate closer than 8 stands for its multiple (0, never inserted before its
            // search, maps past every position). One past p (none, or a multiple past p) is
            // compared at the block's start, then dropped where the 4 bytes agree (rarely: the
            // 4-byte test is the branch, which mispredicts; min is a select).
            d = d < kMinDistance ? kPeriodMultiple[d & 7] : d;
            const std::uint64_t diff = x ^ load64(at - std::min(d, p));
            if ((diff & 0xFFFFFFFF) == 0 && d <= p) {  // at least kMinMatch bytes
                const std::uint32_t l = extend(static_cast<std::uint32_t>(std::countr_zero(diff)) >> 3, at - d);
                const int g = match_gain(l, static_cast<std::uint32_t>(d), false);
                const bool better = g > gain;
                length = better ? l : length;
                distance = better ? static_cast<std::uint32_t>(d) : distance;
                gain = better ? g : gain;
                slot = better ? 3 : slot;
            }
        };
        // Most positions match no slot on 2 bytes: one test for the three on 2-byte loads (a
        // product of 16-bit values, below 2^48: 0 only from a 0; the 8-byte values kept for
        // the lengths held a dozen registers, and GCC moved the loop's state to the stack),
        // then the lengths and the longest (the first of equally long ones, as best_at())
        // chosen without a branch per slot (which mispredicted often). Recent::index_of(distance)
        // is known from where the match came from: a probe's match never has a slot's distance
        // (that slot's match is as long and cheaper), and of equal slots the first is kept.
        const std::uint64_t x16 = x & 0xFFFF;
        if ((x16 ^ load16(at + n0)) * (x16 ^ load16(at + n1)) * (x16 ^ load16(at + n2)) == 0) {
            // data + (p + n), not at + n: GCC then keeps no address of the test above alive into
            // here (three registers; the slots it displaced went to the stack).
            const std::uint64_t x0 = x ^ load64(data + (p + n0)), x1 = x ^ load64(data + (p + n1)), x2 = x ^ load64(data + (p + n2));
            std::uint32_t l0 = static_cast<std::uint32_t>(std::countr_zero(x0)) >> 3;  // 8 when x0 == 0
            std::uint32_t l1 = static_cast<std::uint32_t>(std::countr_zero(x1)) >> 3;
            std::uint32_t l2 = static_cast<std::uint32_t>(std::countr_zero(x2)) >> 3;
            if ((l0 | l1 | l2) & 8) l0 = extend(l0, at + n0), l1 = extend(l1, at + n1), l2 = extend(l2, at + n2);
            std::ptrdiff_t n = n0;
            length = l0;
            slot = l1 > length ? 1 : slot, n = l1 > length ? n1 : n, length = std::max(length, l1);
            slot = l2 > length ? 2 : slot, n = l2 > length ? n2 : n, length = std::max(length, l2);
            distance = static_cast<std::uint32_t>(-n);
            gain = length >= 2 ? match_gain(length, distance, true) : 0;
            if (length < nice) probe(length, distance, gain, slot);
        } else {
            // No slot matched: length, distance and gain are all 0 here, and this inlined copy
            // of the probe is compiled with them known.
            probe(length, distance, gain, slot);
        }
        if (gain <= 0) {
            misses += counted;
            p += 1 + (misses >> 5);
        } else {
            // Recent::use(Recent::index_of(d), d) on the scalars: a new distance or the second
            // or third slot moves to the front; the third keeps its value only when d was the
            // second.
            const bool front_moves = slot != 0, second_moves = slot >= 2;
            n2 = second_moves ? n1 : n2;
            n1 = front_moves ? n0 : n1;
            n0 = -static_cast<std::ptrdiff_t>(distance);
            write_command(out++, static_cast<std::uint32_t>(p - literal_start), length, distance, slot);
            insert_match_end<kProbeBits>(heads, data, block_size, p, length);
            misses = 0;
            p += length;
            literal_start = p;
            if (out == room_end) break;
        }
        if (p + 8 > end) break;
    }
    s.p = p, s.literal_start = literal_start, s.misses = misses;
    s.recent.slot[0] = static_cast<std::uint32_t>(-n0), s.recent.slot[1] = static_cast<std::uint32_t>(-n1),
    s.recent.slot[2] = static_cast<std::uint32_t>(-n2);
    s.count += static_cast<std::size_t>(out - first_out);
}

/// Level 1's greedy parse (one probe, no chains; lazy_steps is not read): the choices of
/// lazy_loop() with best_at() and no lazy step, written out for its hot loop (about half of
/// level 1's encode on a one-block file). kProbeBits: the finder's probe_hash_bits(), a
/// constant of the loop. The positions that cannot load 8 bytes at p and 8 bytes back (p < 8,
/// only when `first` is: the encoder starts a window's parse at 8; and the last 4-7 positions
/// before `end`) take the general search (slow_step), so the hot loop holds only the fast path
/// (in one loop with both, GCC kept the slots on the stack: docs/kraken.md, "Fortieth
/// session"). Commands are written into room made ahead and grown between runs of the hot
/// loop, so the hot loop makes no calls. C: Command, or SlottedCommand (each command's recent slot kept too).
template <unsigned kProbeBits, class C>
DefaultInitVector<C> parse_probe(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params) {
    DefaultInitVector<C> commands((end - first) / 12 + 1);
    const ProbeSettings settings{end, std::max(params.nice_length, 1u), params.skip_literals ? 1u : 0u};
    ProbeState s{first, first, 0, {}, 0};
    auto room = [&] {  // for one command at least
        if (s.count == commands.size()) commands.resize(2 * commands.size());
    };
    while (s.p < kMinDistance && s.p + kMinMatch <= end) room(), slow_step<kProbeBits>(finder, settings, s, commands.data() + s.count);
    while (s.p + 8 <= end) {
        room();
        probe_hot_loop<kProbeBits>(finder, settings, s, commands.data() + s.count, commands.data() + commands.size());
    }
    while (s.p + kMinMatch <= end) room(), slow_step<kProbeBits>(finder, settings, s, commands.data() + s.count);
    commands.resize(s.count);
    return commands;
}

/// parse_probe's commands as parse_lazy returns them (level 1 without slots: tests), out of
/// line: inlined, the copy changed how GCC compiled the chained levels' loop in parse_lazy.
template <unsigned kProbeBits>
[[gnu::noinline]] std::vector<Command> probe_commands(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params) {
    const DefaultInitVector<Command> commands = parse_probe<kProbeBits, Command>(finder, first, end, params);
    return {commands.begin(), commands.end()};
}

}  // namespace

std::vector<Command> parse_lazy(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params) {
    // Without chains (level 1) the parse is parse_probe, which is greedy: no level without
    // chains has lazy steps (test LevelsWithoutChainsAreGreedy).
    if (!params.chains)
        return finder.probe_hash_bits() == kSmallInputProbeHashBits
                   ? probe_commands<kSmallInputProbeHashBits>(finder, first, end, params)
                   : probe_commands<kHashBits>(finder, first, end, params);
    return lazy_loop(
        first, end, params, [&](std::size_t q, const Recent& recent) { return best_at(finder, q, end, recent, params); },
        [](std::size_t, std::uint32_t) {});
}

SlottedCommands parse_probe_slotted(MatchFinder& finder, std::size_t first, std::size_t end, const LzParams& params) {
    return finder.probe_hash_bits() == kSmallInputProbeHashBits
               ? parse_probe<kSmallInputProbeHashBits, SlottedCommand>(finder, first, end, params)
               : parse_probe<kHashBits, SlottedCommand>(finder, first, end, params);
}

std::vector<std::vector<Command>> parse_optimal(MatchFinder& finder, std::span<const std::uint8_t> block,
                                                std::size_t first, std::size_t end, const LzParams& params) {
    OptimalParser parser(block, first, end, params);
    parser.gather(finder);
    // Start from a lazy parse; each pass is priced by what the previous one put in each array
    // (literals in the cheaper mode).
    std::vector<std::vector<Command>> parses{parser.lazy()};
    for (int pass = 0; pass < params.passes; ++pass) {
        // The offset coding the chunk will use (the writer chooses it the same way).
        std::vector<std::uint32_t> distances;
        Recent recent;
        for (const Command& c : parses.back()) {
            const unsigned index = recent.index_of(c.distance);
            if (index == 3) distances.push_back(c.distance);
            recent.use(index, c.distance);
        }
        const unsigned scale = params.search_entropy ? choose_scale(distances) : 0;
        const Stats stats = collect_stats(block, first, end, parses.back(), scale);
        const bool delta = entropy_bits(stats.delta) < entropy_bits(stats.raw);
        const Prices prices{prices_of(delta ? stats.delta : stats.raw, 8), prices_of(stats.command, 8),
                            prices_of(stats.offset, 8), prices_of(stats.length, 8), prices_of(stats.low, 8), scale};
        parses.push_back(parser.run(prices, delta));
    }
    return parses;
}

}  // namespace navlab::kraken::detail
