// Hash-chain match finder of the Kraken encoder, over one 256 KiB block (every block restarts
// the window, spec 1.5, so no match reaches before the block), and the per-level settings of
// the finder and the parser.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <span>
#include <vector>

#include "io/default_init_vector.h"

namespace navlab::kraken::detail {

/// Width of the 4-byte hash that indexes the head tables of both match finders (a table has
/// 2^kHashBits entries).
inline constexpr unsigned kHashBits = 16;

/// Match-finder and parser settings of one compression level.
struct LzParams {
    unsigned chain_depth;  ///< hash-chain candidates examined per position (bounds the time)
    unsigned lazy_steps;   ///< 0 greedy; 1 or 2: look that many positions ahead for a better match
    unsigned nice_length;  ///< stop searching once a match this long is found
    bool skip_literals;    ///< speed up through incompressible runs (fast levels)
    bool optimal;          ///< price-based optimal parse (lz_parse.h) instead of greedy/lazy
    /// Hash chains, every position hashed (levels 2-9); false: level 1's single probe of the
    /// head table per searched position (MatchFinder::probe), only the positions searched and
    /// the ends of matches hashed (docs/kraken.md, "Sixth session").
    bool chains;
    bool search_entropy;   ///< also try offset scales and tANS arrays (slower, smaller)
    int split_depth;       ///< try type-5 split arrays of up to 2^split_depth parts (0 = never)
    unsigned arrivals = 1; ///< optimal parse: cheapest paths kept per position (distinct recent offsets)
    int passes = 3;        ///< optimal and sparse parses: re-priced dynamic-programming passes after the first parse
    unsigned tried_lengths = 40;  ///< optimal parse: match lengths tried one by one up to this (longer: full length only)
    /// Level 6 on inputs of one block: the sparse optimal parse (sparse_parse.h) on the hash
    /// chains, in place of the lazy or the optimal parse.
    bool sparse = false;
    /// Level 1: the literal mode chosen by the order-0 entropy of the two literal arrays
    /// (counted as they are made) instead of pricing both as Huffman arrays, and RLE or
    /// Huffman written by their estimates, not both (ArrayPolicy::estimate_rle; docs/kraken.md, "Level 1").
    bool quick_arrays = false;
    /// Width of level 1's probe hash (MatchFinder::probe): kHashBits, or kSmallInputProbeHashBits
    /// on inputs of one block. The hash chains of the other levels are always kHashBits wide.
    unsigned probe_hash_bits = kHashBits;
};

/// The settings of levels 1..9 for an input of `input_size` bytes: the default level 6 takes
/// the sparse optimal parse (Huffman arrays and legacy offsets still) on inputs of one block,
/// where it buys 5-6 % of size over the lazy parse (docs/kraken.md, "Levels").
LzParams lz_params(int level, std::size_t input_size);

/// Smallest match distance written: the legacy offset code cannot express less (spec 3.5)
/// and decoders copy 8 bytes at a time (3.7).
inline constexpr std::size_t kMinDistance = 8;
/// Shortest match the finder reports (recent-offset matches may be 2 bytes, spec 3.6).
inline constexpr std::uint32_t kMinMatch = 4;

/// Bytes a[from..] and b[from..] have in common, counted on from `from`, at most `max` in all.
inline std::size_t common_length(const std::uint8_t* a, const std::uint8_t* b, std::size_t from, std::size_t max) {
    std::size_t n = from;
    while (n + 8 <= max) {
        std::uint64_t x, y;
        std::memcpy(&x, a + n, 8);
        std::memcpy(&y, b + n, 8);
        if (x != y) return n + static_cast<std::size_t>(std::countr_zero(x ^ y) >> 3);  // little-endian
        n += 8;
    }
    while (n < max && a[n] == b[n]) ++n;
    return n;
}

/// Length of the match at block[p] with distance d (0 when d < 8 or d > p), capped at limit - p.
inline std::uint32_t match_length(std::span<const std::uint8_t> block, std::size_t p, std::size_t d, std::size_t limit) {
    if (d < kMinDistance || d > p) return 0;
    const std::uint8_t* a = block.data() + p;
    return static_cast<std::uint32_t>(common_length(a, a - d, 0, limit - p));
}

/// Level 1's probe hash on inputs of one block: the first 2^14 entries (64 KiB) of the head
/// table. A probe is one load from a random entry on the parse's critical path; on a small
/// input most of them miss the caches of a 256 KiB table (the bench times 5 encodes of a
/// file, and one alone is cold), where the quarter of it stays closer. The Elden Ring emevd:
/// about 1.2 times as fast in that measure, and the one-block files 0.4-1.5 % smaller;
/// the large binders, which reuse a thread's warm table block after block, 0.1-0.6 % larger,
/// so they keep the full width (docs/kraken.md, "Thirty-seventh session").
inline constexpr unsigned kSmallInputProbeHashBits = 14;
/// Hash of 4 bytes read as a little-endian value, `bits` (at most kHashBits) wide.
inline std::uint32_t hash4(std::uint32_t v, unsigned bits = kHashBits) { return (v * 2654435761u) >> (32 - bits); }
/// Hash of the 4 bytes at p.
inline std::uint32_t hash4(const std::uint8_t* p, unsigned bits = kHashBits) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return hash4(v, bits);
}

/// A head table (2^kHashBits entries) of a finder over one block. A fresh table is 256 KiB to
/// allocate and fill for every block, which cost more than encoding a small input (a quarter
/// of each run of fuzz_kraken_encode, plus the page faults of the new allocation); so a table
/// is taken from the spares of this thread. Entries hold a position plus the table's base,
/// which grows by a block at each use: entries of earlier blocks are below the base and read
/// as "no position" (negative), so a table is never cleared between blocks (only when the
/// base would pass 2^31), where resetting it was 4 % of level 1's encode of a one-block file.
class HashHeads {
public:
    /// Takes a spare table of this thread (or a new one); positions are below kMaxBlock.
    HashHeads();
    /// Gives the table back to this thread's spares.
    ~HashHeads();
    HashHeads(const HashHeads&) = delete;
    HashHeads& operator=(const HashHeads&) = delete;
    /// The newest position with this hash, or a negative value for none.
    std::int32_t get(std::uint32_t hash) const { return static_cast<std::int32_t>(table_[hash] - base_); }
    void set(std::uint32_t hash, std::size_t p) { table_[hash] = base_ + static_cast<std::uint32_t>(p); }
    /// The same table as plain values, for a hot loop (HashHeads::View).
    struct View {
        std::uint32_t* table;
        std::uint32_t base;
        std::int32_t get(std::uint32_t hash) const { return static_cast<std::int32_t>(table[hash] - base); }
        void set(std::uint32_t hash, std::size_t p) { table[hash] = base + static_cast<std::uint32_t>(p); }
    };
    View view() { return {table_.data(), base_}; }
    /// Largest block a table serves (the base moves on by this much per block).
    static constexpr std::uint32_t kMaxBlock = 1u << 18;

private:
    ZeroedArray<std::uint32_t> table_;
    std::uint32_t base_;
};

/// Hash chains over one block. Positions are inserted in order as the parser advances (or up
/// front, insert_before); a search at p enters the chain at p's own link (the newest earlier
/// position with p's hash), so it sees exactly the positions before p.
class MatchFinder {
public:
    /// `probe_hash_bits`: the width of probe()'s hash (LzParams::probe_hash_bits); the
    /// chains always hash kHashBits wide.
    explicit MatchFinder(std::span<const std::uint8_t> block, unsigned probe_hash_bits = kHashBits);
    ~MatchFinder();
    MatchFinder(const MatchFinder&) = delete;
    MatchFinder& operator=(const MatchFinder&) = delete;

    struct Match {
        std::uint32_t length = 0, distance = 0;
    };
    /// Longest match at p (distance >= 8, inside the block) not running past `limit`;
    /// length 0 when none of at least kMinMatch bytes exists. The walk inlined into the
    /// caller (visit_matches): a call's setup and the out-of-line insertion test cost the
    /// lazy parses more than the inlined code.
    Match find(std::size_t p, std::size_t limit, const LzParams& params) {
        Match best;
        visit_matches(p, limit, params, [&](const Match& m) {
            best = m;
            return true;
        });
        return best;
    }
    /// Every match at p that is longer than all nearer ones (so lengths increase), up to
    /// params.chain_depth candidates; appended to `out`. Searches may come in any order
    /// (several passes over a block, positions skipped): every position up to p is inserted
    /// first and the chain is entered at p's own link, whatever was searched before.
    void find_all(std::size_t p, std::size_t limit, const LzParams& params, std::vector<Match>& out);
    /// find_all()'s matches at p, each passed to visit(match) as the walk finds it (false
    /// stops it), in a walk inlined into the caller: for a parse that uses each match once
    /// and searches only where insert_before() has inserted the chains (else it inserts).
    template <class Visit>
    void visit_matches(std::size_t p, std::size_t limit, const LzParams& params, Visit&& visit) {
        if (p >= inserted_) [[unlikely]]
            insert_before(p + 1);
        if (p + 4 > block_.size() || p + kMinMatch > limit) return;
        scan(p, limit, params, prev_[p], visit);
    }
    /// Inserts every position before `end` into the chains now. Searches see only the
    /// positions before their own either way (each enters the chain at its position's own
    /// link), so their matches are the same; a parse that will search most of [.., end) pays
    /// for the insertion in one loop of independent table loads instead of one or a few
    /// positions between its searches.
    void insert_before(std::size_t end);
    /// Level 1's search: the newest earlier position with the same 4-byte hash, then p takes its
    /// head entry (no chain is kept, so p may not be searched twice). A candidate closer than
    /// 8 stands for its smallest multiple of at least 8, which matches as far on data of that
    /// period (runs, short records). Returns that match if it is at least kMinMatch long, not
    /// past `limit`; length 0 otherwise. Positions must come in increasing order; not to be
    /// mixed with find()/find_all() on one finder.
    Match probe(std::size_t p, std::size_t limit) {
        if (p + 4 > block_.size()) return {};
        const std::int32_t c = exchange_head(hash4(block_.data() + p, probe_hash_bits_), p);
        if (c < 0 || static_cast<std::size_t>(c) >= p || p + kMinMatch > limit) return {};
        std::size_t d = p - static_cast<std::size_t>(c);
        if (d < kMinDistance) d = (kMinDistance + d - 1) / d * d;
        const std::uint32_t len = match_length(p, d, limit);
        if (len < kMinMatch) return {};
        return {len, static_cast<std::uint32_t>(d)};
    }
    /// probe()'s table step alone: the newest earlier position with hash h (negative: none),
    /// then p (whose hash is h) in its place.
    std::int32_t exchange_head(std::uint32_t h, std::size_t p) {
        const std::int32_t c = head_.get(h);
        head_.set(h, p);
        return c;
    }
    /// The head table of probe() and insert() as local values (the table and its base do
    /// not change while the finder lives), for a parse loop that keeps them in registers: a
    /// member is read again after every store to the table.
    HashHeads::View heads() { return head_.view(); }
    unsigned probe_hash_bits() const { return probe_hash_bits_; }
    /// Sets p as the newest position of its hash for probe() (the ends of matches).
    void insert(std::size_t p) {
        if (p + 4 > block_.size()) return;
        head_.set(hash4(block_.data() + p, probe_hash_bits_), p);
    }
    std::span<const std::uint8_t> block() const { return block_; }
    /// Length of the match at p with distance d (0 when d < 8 or d > p), capped at limit - p.
    std::uint32_t match_length(std::size_t p, std::size_t d, std::size_t limit) const {
        return detail::match_length(block_, p, d, limit);
    }

private:
    void insert_up_to(std::size_t p);
    /// The end of the positions insert_up_to(p) inserts: a position needs 4 bytes of block.
    std::size_t insertable_end(std::size_t p) const { return block_.size() >= 4 ? std::min(p, block_.size() - 3) : 0; }
    template <class Visit>
    void walk(std::size_t p, std::size_t limit, const LzParams& params, Visit&& visit);
    template <class Visit>
    void scan(std::size_t p, std::size_t limit, const LzParams& params, std::int32_t c, Visit&& visit);
    std::span<const std::uint8_t> block_;
    HashHeads head_;
    DefaultInitVector<std::int32_t> prev_;  ///< written at p before it is read: never filled
    std::size_t inserted_ = 0;
    unsigned probe_hash_bits_;
};

/// The chain walk of walk() from candidate c, the newest position before p with p's hash.
template <class Visit>
inline void MatchFinder::scan(std::size_t p, std::size_t limit, const LzParams& params, std::int32_t c, Visit&& visit) {
    // Locals: the members would be read again after every store through `visit` (a vector
    // the compiler cannot tell apart from them).
    const std::uint8_t* data = block_.data();
    const std::int32_t* prev = prev_.data();
    const std::uint32_t nice_length = params.nice_length;
    const std::uint32_t max_length = static_cast<std::uint32_t>(limit - p);
    // The (at most 7) candidates closer than 8 are passed over uncounted: on data with a
    // period below 8 they would use up a shallow chain before the first usable distance. A
    // chain goes down in position, so they all come first, and the walk below needs no
    // distance test.
    while (c >= 0 && p - static_cast<std::size_t>(c) < kMinDistance) c = prev[c];
    // A longer match must agree on the 4 bytes that end at the byte just past the current
    // best (with no best yet: the first 4 bytes, those of the hash): one load and compare a
    // candidate, before its length is measured (the one byte past the best and then the
    // first 4 bytes before: twice the instructions a candidate, and most candidates fail
    // there). Those 4 bytes end at p + best, below the limit (a match reaching it ends the
    // walk). The test passes over only candidates that cannot be longer than the best, so
    // the walk reports what a byte-by-byte search does (test ChainSearchEqualsABruteForceWalk).
    std::uint32_t best = 0;
    const std::uint8_t* at = data;  // data + best - 3, or data
    std::uint32_t want;
    std::memcpy(&want, data + p, 4);
    for (unsigned left = params.chain_depth; c >= 0 && left != 0; --left, c = prev[c]) {
        std::uint32_t got;
        std::memcpy(&got, at + c, 4);
        if (got != want) continue;
        const std::uint32_t len = static_cast<std::uint32_t>(common_length(data + p, data + c, 0, max_length));
        if (len > best) {
            best = len;
            const std::size_t d = p - static_cast<std::size_t>(c);
            if (!visit(Match{len, static_cast<std::uint32_t>(d)}) || len >= nice_length || len == max_length) return;
            at = data + (len - 3);
            std::memcpy(&want, at + p, 4);
        }
    }
}

}  // namespace navlab::kraken::detail
