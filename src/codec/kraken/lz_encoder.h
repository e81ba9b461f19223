// Kraken LZ chunk encoder (spec 3): hash-chain match finder over one 256 KiB block (each
// block restarts the window, so blocks encode independently), greedy or lazy parse with the
// three recent offsets, and the sub-stream layout of spec 3.1 with legacy offsets (3.5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace navlab::kraken::detail {

/// Match-finder and parser settings of one compression level.
struct LzParams {
    unsigned chain_depth;  ///< hash-chain candidates examined per position (bounds the time)
    unsigned lazy_steps;   ///< 0 greedy; 1 or 2: look that many positions ahead for a better match
    unsigned nice_length;  ///< stop searching once a match this long is found
    bool skip_literals;    ///< speed up through incompressible runs (fast levels)
};

LzParams lz_params(int level);

/// Hash chains over one block. Positions are inserted lazily, in order, as the parser
/// advances, so a search at p sees exactly the positions before p.
class MatchFinder {
public:
    explicit MatchFinder(std::span<const std::uint8_t> block);
    /// Longest match at p (distance >= 8, source inside the block) not running past `limit`;
    /// length 0 when none of at least 4 bytes exists.
    struct Match { std::uint32_t length = 0, distance = 0; };
    Match find(std::size_t p, std::size_t limit, const LzParams& params);
    /// Length of the match at p with distance d (0 when d < 8 or d > p), capped at limit - p.
    std::uint32_t match_length(std::size_t p, std::size_t d, std::size_t limit) const;

private:
    void insert_up_to(std::size_t p);
    std::span<const std::uint8_t> block_;
    std::vector<std::int32_t> head_, prev_;
    std::size_t inserted_ = 0;
};

/// An encoded LZ chunk: the payload (S bytes) and its literal mode (0 delta, 1 raw).
struct LzChunk {
    std::vector<std::uint8_t> payload;
    unsigned mode;
};

/// Encodes block[start, start + n) as an LZ chunk; `start == 0` is the window-start chunk
/// (8 raw bytes first). Nothing when the payload would break the spec's size limits
/// (13 <= S < n). The finder must have been used for every earlier chunk of the block.
std::optional<LzChunk> encode_lz_chunk(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t start,
                                       std::size_t n, const LzParams& params);

}  // namespace navlab::kraken::detail
