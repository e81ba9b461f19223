// Binary-tree match finder of the Kraken encoder's fast optimal parse (level 6 on inputs of
// one block): every position of a 256 KiB block is a node of a binary search tree, ordered by
// the bytes that follow it, one tree per 4-byte hash. Inserting position p walks from the
// tree's root down the path where p's suffix belongs, and the nodes on that path are exactly
// the earlier suffixes that share the longest prefixes with p's: so the same walk that links p
// into the tree reports all of p's useful match lengths, each compared only from the prefix
// already known to be common (the classic LZ77 binary-tree finder, as described for LZMA's
// "bt4" and zstd's "btopt" match finders). A hash chain instead tests its candidates in age
// order and must test many equal prefixes to find a long match.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "codec/kraken/match_finder.h"

namespace navlab::kraken::detail {

class TreeMatchFinder {
public:
    /// A finder over `block` (not owned; must outlive the finder). `max_length`: longest match
    /// reported and the length up to which suffixes are ordered (>= kMinMatch); `depth`: tree
    /// nodes visited per position at most. Both bound the time per position, so long runs
    /// and periodic data cost no more than other input.
    TreeMatchFinder(std::span<const std::uint8_t> block, unsigned max_length, unsigned depth);
    ~TreeMatchFinder();
    TreeMatchFinder(const TreeMatchFinder&) = delete;
    TreeMatchFinder& operator=(const TreeMatchFinder&) = delete;

    /// Inserts position p and appends to `out` its matches (distance >= kMinDistance, not past
    /// `limit` <= block size, length >= kMinMatch), each longer than the ones before it; a match
    /// of max_length may continue further. Positions must be inserted in increasing order;
    /// positions never inserted are never found (a parser may skip the inside of long matches).
    void find_all(std::size_t p, std::size_t limit, std::vector<MatchFinder::Match>& out);

private:
    std::span<const std::uint8_t> block_;
    unsigned max_length_, depth_;
    HashHeads heads_;
    /// Children of node p: [2p] the subtree of smaller suffixes, [2p + 1] of larger ones;
    /// written when p is inserted, before any read (a buffer kept per thread, not cleared).
    std::vector<std::int32_t> children_;
};

}  // namespace navlab::kraken::detail
