// Hash chains: head_[hash of 4 bytes] is the newest position with that hash, prev_[p] the
// next older one. The chain depth of each level bounds the work per position, so runs and
// periodic data (one long chain) cost no more than any other input.
#include "codec/kraken/match_finder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>

#include "codec/kraken/context.h"

namespace navlab::kraken::detail {
namespace {

/// Head tables left by finished finders of this thread, with the base of their next use (see HashHeads).
struct SpareHeads {
    ZeroedArray<std::uint32_t> table;
    std::uint32_t next_base;
};
thread_local std::vector<SpareHeads> spare_heads;

/// A chain array (prev_) left by a finished finder of this thread: 1 MiB for a full block.
thread_local DefaultInitVector<std::int32_t> spare_prev;

/// A head table and its base: every entry below the base (a fresh table: all 0, base kMaxBlock).
SpareHeads take_heads() {
    constexpr std::uint32_t kFirstBase = HashHeads::kMaxBlock;
    if (spare_heads.empty()) return {ZeroedArray<std::uint32_t>(std::size_t{1} << kHashBits), kFirstBase};
    SpareHeads heads = std::move(spare_heads.back());
    spare_heads.pop_back();
    // A stale entry must stay within 2^31 below the base to read as negative.
    if (heads.next_base > (1u << 31) - HashHeads::kMaxBlock) {
        std::fill(heads.table.begin(), heads.table.end(), 0);
        heads.next_base = kFirstBase;
    }
    return heads;
}

}  // namespace

LzParams lz_params(int level, std::size_t input_size) {
    // Small files (one 256 KiB block, such as event scripts and message binders) are where
    // the lazy parse falls furthest behind the game's Oodle (the 97 KB Elden Ring emevd:
    // 1.16x its bytes): the sparse optimal parse there (docs/kraken.md, "Seventh session").
    if (level == 6 && input_size <= kBlockSize) {
        // Sparse optimal parse (sparse_parse.h): one pass, seeded by a greedy parse, on hash
        // chains 16 deep (8: the emevd 3 % larger; 32: 1.2 times slower, docs/kraken.md).
        LzParams params{16, 0, 256, false, false, true, false, 0};
        params.sparse = true, params.passes = 1;
        return params;
    }
    // Level 9 keeps four arrivals per position on inputs of one block (the game's event
    // scripts and message binders: a fraction of a second each), two on larger ones.
    const unsigned arrivals_9 = input_size <= kBlockSize ? 4 : 2;
    switch (level) {
        // Levels 1-6 write Huffman arrays and legacy offsets only: they decode fastest (tANS,
        // split arrays and low-bits arrays cost decode time for 1-3 % of size, docs/kraken.md).
        case 1: {
            // Nice length 12: a recent-offset match of 12 bytes or more is taken without the
            // probe (its hash, head-table load and candidate test, and the position is not
            // hashed). 32 before: the emevd's encode 3.6 % fewer instructions and 6.7 % fewer
            // mispredicted branches, 0.5-1.9 % larger on the one-block files, -0.2 to +0.6 %
            // on the larger ones (docs/kraken.md, "Forty-first session").
            LzParams params{1, 0, 12, true, false, false, false, 0};
            params.quick_arrays = true;
            if (input_size <= kBlockSize) params.probe_hash_bits = kSmallInputProbeHashBits;
            return params;
        }
        case 2: return {2, 0, 48, true, false, true, false, 0};
        case 3: return {4, 0, 64, false, false, true, false, 0};
        case 4: return {8, 1, 96, false, false, true, false, 0};
        case 5: return {16, 1, 128, false, false, true, false, 0};
        case 6: return {32, 1, 192, false, false, true, false, 0};
        // Levels 7-9: optimal parse with 2+ arrivals per position (docs/kraken.md, "Levels").
        case 7: return {24, 0, 128, false, true, true, true, 2, 2, 1};
        case 8: return {48, 0, 256, false, true, true, true, 3, 2, 2};
        default: return {128, 0, 512, false, true, true, true, 3, arrivals_9, 3};
    }
}

HashHeads::HashHeads() {
    SpareHeads heads = take_heads();
    table_ = std::move(heads.table);
    base_ = heads.next_base;
}

HashHeads::~HashHeads() {
    try {
        spare_heads.push_back({std::move(table_), base_ + kMaxBlock});
    } catch (const std::bad_alloc&) {
        // No room to keep it: the next finder fills a new one.
    }
}

static_assert(HashHeads::kMaxBlock >= kBlockSize, "a head table's base moves on by a block");

MatchFinder::MatchFinder(std::span<const std::uint8_t> block, unsigned probe_hash_bits)
    : block_(block), probe_hash_bits_(probe_hash_bits) {
    // An entry of an earlier use at a position >= kMaxBlock would read as a valid position
    // of this one (and the chain walk would read outside the block).
    if (block.size() > HashHeads::kMaxBlock) throw std::length_error("MatchFinder: block larger than HashHeads::kMaxBlock");
    // The level-1 parse is compiled for these two widths (parse_probe).
    if (probe_hash_bits != kHashBits && probe_hash_bits != kSmallInputProbeHashBits)
        throw std::invalid_argument("MatchFinder: probe hash width neither kHashBits nor kSmallInputProbeHashBits");
}

MatchFinder::~MatchFinder() {
    if (!prev_.empty()) spare_prev = std::move(prev_);
}

// Inlined into walk(): at level 1 it runs once per searched position, mostly for one entry.
[[gnu::always_inline]] inline void MatchFinder::insert_up_to(std::size_t p) {
    const std::size_t last = insertable_end(p);
    // Taken on first use (level 1's probe never needs the chains) from this
    // thread's spare, not cleared: prev_[p] is written when p is inserted, before any read.
    if (prev_.empty() && inserted_ < last) {
        prev_ = std::move(spare_prev);
        if (prev_.size() < block_.size()) prev_.resize(block_.size());
    }
    // A local position, table pointers and head base: the member would be stored back on
    // every step, and the base read again after each store to the table (which might alias
    // it), twice a position.
    const std::uint8_t* data = block_.data();
    std::int32_t* prev = prev_.data();
    HashHeads::View heads = head_.view();
    std::size_t q = inserted_;
    for (; q < last; ++q) {
        const std::uint32_t h = hash4(data + q);
        prev[q] = heads.get(h);
        heads.set(h, q);
    }
    inserted_ = std::max(q, p);
}

/// Calls visit(match) for each candidate longer than every one before it; stops when visit
/// returns false.
template <class Visit>
void MatchFinder::walk(std::size_t p, std::size_t limit, const LzParams& params, Visit&& visit) {
    insert_up_to(p + 1);  // p's own link is the newest earlier position with its hash
    if (p + 4 > block_.size() || p + kMinMatch > limit) return;
    scan(p, limit, params, prev_[p], visit);
}

void MatchFinder::insert_before(std::size_t end) {
    // The insertion's head-table loads were 8-10 % of level 6 on the emevd, nearly all of it
    // waiting on the loads: the 256 KiB table is pushed out of L2 between encodes (by the
    // sparse parse's 1.5 MiB of steps), and random loads bring it back one line at a time. A
    // sequential pass of prefetches asks for all 4,096 lines at once (level 6 on the emevd
    // 5-8 % faster, same streams). Below kPrefetchHeadsFrom positions fewer lines are used
    // than the pass would bring in (counted on the positions insert_up_to really inserts).
    constexpr std::size_t kLineEntries = 64 / sizeof(std::uint32_t);
    constexpr std::size_t kPrefetchHeadsFrom = (std::size_t{1} << kHashBits) / kLineEntries * 4;
    if (insertable_end(end) >= inserted_ + kPrefetchHeadsFrom) {
        const HashHeads::View heads = head_.view();
        for (std::size_t i = 0; i < (std::size_t{1} << kHashBits); i += kLineEntries) __builtin_prefetch(heads.table + i);
    }
    insert_up_to(end);
}

void MatchFinder::find_all(std::size_t p, std::size_t limit, const LzParams& params, std::vector<Match>& out) {
    walk(p, limit, params, [&](const Match& m) {
        out.push_back(m);
        return true;
    });
}

}  // namespace navlab::kraken::detail
