// Binary-tree match finder. See tree_match_finder.h.
#include "codec/kraken/tree_match_finder.h"

#include <algorithm>

namespace navlab::kraken::detail {
namespace {

/// Child arrays left by finished finders of this thread: 2 entries per block position (2 MiB
/// for a full block), reused without clearing (every entry is written before it is read), so
/// a small input pays neither the allocation nor its page faults again.
thread_local std::vector<std::int32_t> spare_children;

}  // namespace

TreeMatchFinder::TreeMatchFinder(std::span<const std::uint8_t> block, unsigned max_length, unsigned depth)
    : block_(block),
      max_length_(std::max(max_length, kMinMatch)),
      depth_(std::max(depth, 1u)),
      heads_(block),
      children_(std::move(spare_children)) {
    if (children_.size() < 2 * block.size()) children_.resize(2 * block.size());
}

TreeMatchFinder::~TreeMatchFinder() { spare_children = std::move(children_); }

void TreeMatchFinder::find_all(std::size_t p, std::size_t limit, std::vector<MatchFinder::Match>& out) {
    const std::uint8_t* data = block_.data();
    if (p + 4 > block_.size()) return;
    // Suffixes are compared (and ordered) up to max_length bytes or the limit.
    const std::size_t compare_end = std::min(limit, p + max_length_);
    const std::uint32_t hash = hash4(data + p);
    std::int32_t node = heads_[hash];
    heads_[hash] = static_cast<std::int32_t>(p);
    heads_.hashed_up_to(p + 1);
    // smaller/larger: where the next node found smaller (larger) than p's suffix is linked;
    // known_smaller/known_larger: bytes common to p's suffix and every node below there.
    std::int32_t* smaller = &children_[2 * p];
    std::int32_t* larger = &children_[2 * p + 1];
    std::size_t known_smaller = 0, known_larger = 0;
    std::uint32_t best = kMinMatch - 1;
    for (unsigned visited = 0; node >= 0 && visited < depth_; ++visited) {
        const std::size_t c = static_cast<std::size_t>(node);
        const std::size_t len = common_length(data + c, data + p, std::min(known_smaller, known_larger), compare_end - p);
        if (len > best) {
            const std::size_t d = p - c;
            if (d >= kMinDistance) {
                best = static_cast<std::uint32_t>(len);
                out.push_back({best, static_cast<std::uint32_t>(d)});
            } else {
                // Distances below 8 cannot be written; on data of period d < 8 its smallest
                // multiple of at least 8 matches nearly as far (runs, short records).
                const std::size_t multiple = (kMinDistance + d - 1) / d * d;
                const std::uint32_t m = match_length(block_, p, multiple, compare_end);
                if (m > best) best = m, out.push_back({m, static_cast<std::uint32_t>(multiple)});
            }
        }
        std::int32_t* pair = &children_[2 * c];
        if (p + len == compare_end) {
            // Equal as far as suffixes are ordered: p takes c's place (c's subtrees become p's).
            *smaller = pair[0];
            *larger = pair[1];
            return;
        }
        if (data[c + len] < data[p + len]) {
            *smaller = node;  // c and its smaller subtree sort before p; its larger one is next
            smaller = &pair[1];
            known_smaller = len;
            node = pair[1];
        } else {
            *larger = node;
            larger = &pair[0];
            known_larger = len;
            node = pair[0];
        }
    }
    *smaller = -1;
    *larger = -1;
}

}  // namespace navlab::kraken::detail
