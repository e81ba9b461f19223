// Sparse optimal parse of the Kraken encoder (level 6 on inputs of one block): price-based
// forward dynamic programming over the positions of a chunk, like the optimal parse of levels
// 7-9 (lz_parse.h), but expanding only the positions that can lie on a cheap path, and
// searching for matches only there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "codec/kraken/lz_parse.h"
#include "codec/kraken/match_finder.h"

namespace navlab::kraken::detail {

/// Sparse optimal parse of block[first, end) (docs/kraken.md, "Seventh session"): a greedy
/// parse on `finder`'s hash chains, then `passes` (params.passes, at least 1) rounds of dynamic
/// programming, each priced by the statistics of the parse before it; returns the last.
/// Matches come from the same chains (params.chain_depth candidates per searched position),
/// searched in any order (MatchFinder::find_all); the finder must have seen the block's
/// earlier chunks and no later position. Time: O(end - first) positions visited, each expanded one
/// searched at most chain_depth candidates deep; a match of params.nice_length or more is taken
/// whole and its inside skipped, so the bytes compared to measure lengths at full length stay
/// linear, and runs and periodic data cost no more per byte than other input.
std::vector<Command> parse_sparse(MatchFinder& finder, std::span<const std::uint8_t> block, std::size_t first,
                                  std::size_t end, const LzParams& params);

/// The recent slots (bit k: slot k) whose match at block[p] is at least 2 bytes long and
/// within block[.., end): match_length(block, p, slot, end) >= 2, which is 0 for a slot
/// below 8 or above p. The sparse parse measures the lengths of these slots only.
unsigned recent_pairs(std::span<const std::uint8_t> block, std::size_t p, std::size_t end, const Recent& recent);

/// Positions ahead that may make a position not worth expanding (two 64-byte lines of costs;
/// 16 and 64 measured the same) ...
inline constexpr std::size_t kDominanceWindow = 32;
/// ... when one of them is reached at most this much dearer, in 1/16 bit (3 bits: 0 and 1 bit
/// gave the same sizes, 10 % slower; 6 bits cost the emevd 2 %).
inline constexpr std::uint32_t kDominanceMargin = 48;

/// The sparse parse's dominance test, one subtraction and OR a lane: whether one of the
/// kDominanceWindow costs at `ahead` is at most c + kDominanceMargin. Each cost is at most
/// 2^31 - 1 (unreached) and c below 2^31 - kDominanceMargin - 1.
bool dominated_ahead(const std::uint32_t* ahead, std::uint32_t c);

/// For tests: whether the parse may take its AVX2 form of dominated_ahead (default true);
/// returns whether it will (false where the processor lacks AVX2, whatever `allowed` is).
/// The parse reads the switch when it starts a chunk.
bool allow_avx2_dominance(bool allowed);

}  // namespace navlab::kraken::detail
