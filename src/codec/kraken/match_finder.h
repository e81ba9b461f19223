// Hash-chain match finder of the Kraken encoder, over one 256 KiB block (every block restarts
// the window, spec 1.5, so no match reaches before the block), and the per-level settings of
// the finder and the parser.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace navlab::kraken::detail {

/// Match-finder and parser settings of one compression level.
struct LzParams {
    unsigned chain_depth;  ///< hash-chain candidates examined per position (bounds the time)
    unsigned lazy_steps;   ///< 0 greedy; 1 or 2: look that many positions ahead for a better match
    unsigned nice_length;  ///< stop searching once a match this long is found
    bool skip_literals;    ///< speed up through incompressible runs (fast levels)
    bool optimal;          ///< price-based optimal parse (lz_parse.h) instead of greedy/lazy
    bool hash_matches;     ///< hash every position inside matches (level 1 hashes only their ends)
    bool search_entropy;   ///< also try offset scales and tANS arrays (slower, smaller)
    int split_depth;       ///< try type-5 split arrays of up to 2^split_depth parts (0 = never)
    unsigned arrivals = 1; ///< optimal parse: cheapest paths kept per position (distinct recent offsets)
    int passes = 3;        ///< optimal parse: re-priced dynamic-programming passes after the lazy start
    unsigned tried_lengths = 40;  ///< optimal parse: match lengths tried one by one up to this (longer: full length only)
};

/// The settings of levels 1..9 for an input of `input_size` bytes: the default level 6 takes
/// the optimal parse (Huffman arrays and legacy offsets still) on inputs of one block, where
/// its few extra milliseconds buy 5-10 % of size (docs/kraken.md, "Levels").
LzParams lz_params(int level, std::size_t input_size);

/// Smallest match distance written: the legacy offset code cannot express less (spec 3.5)
/// and decoders copy 8 bytes at a time (3.7).
inline constexpr std::size_t kMinDistance = 8;
/// Shortest match the finder reports (recent-offset matches may be 2 bytes, spec 3.6).
inline constexpr std::uint32_t kMinMatch = 4;

/// Length of the match at block[p] with distance d (0 when d < 8 or d > p), capped at limit - p.
std::uint32_t match_length(std::span<const std::uint8_t> block, std::size_t p, std::size_t d, std::size_t limit);

/// Hash chains over one block. Positions are inserted in order as the parser advances, so a
/// search at p sees exactly the positions before p; searches must come in increasing p.
class MatchFinder {
public:
    explicit MatchFinder(std::span<const std::uint8_t> block);
    /// Clears the head entries this finder set and hands the table to the next finder on
    /// this thread (see match_finder.cpp: filling a fresh table cost more than small blocks).
    ~MatchFinder();
    MatchFinder(const MatchFinder&) = delete;
    MatchFinder& operator=(const MatchFinder&) = delete;

    struct Match {
        std::uint32_t length = 0, distance = 0;
    };
    /// Longest match at p (distance >= 8, inside the block) not running past `limit`;
    /// length 0 when none of at least kMinMatch bytes exists.
    Match find(std::size_t p, std::size_t limit, const LzParams& params);
    /// Every match at p that is longer than all nearer ones (so lengths increase), up to
    /// params.chain_depth candidates; appended to `out`.
    void find_all(std::size_t p, std::size_t limit, const LzParams& params, std::vector<Match>& out);
    /// Leaves positions before p unhashed (fast levels skip the inside of matches).
    void skip_to(std::size_t p) { inserted_ = std::max(inserted_, p); }
    /// Length of the match at p with distance d (0 when d < 8 or d > p), capped at limit - p.
    std::uint32_t match_length(std::size_t p, std::size_t d, std::size_t limit) const {
        return detail::match_length(block_, p, d, limit);
    }

private:
    void insert_up_to(std::size_t p);
    template <class Visit>
    void walk(std::size_t p, std::size_t limit, const LzParams& params, Visit&& visit);
    std::span<const std::uint8_t> block_;
    std::vector<std::int32_t> head_, prev_;
    std::size_t inserted_ = 0;
};

}  // namespace navlab::kraken::detail
