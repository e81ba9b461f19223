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

}  // namespace navlab::kraken::detail
