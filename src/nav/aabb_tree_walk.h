// Decoding D of audit-rules.md §6.11: the walk of a 6-byte pre-order AABB tree that checks
// its structure and decodes each leaf's box (nibble shrink by the parent's extent × nibble² / 226,
// high nibble from the minimum side, root from the domain). Explicit stack: trees of 2F − 1
// nodes can be deep.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/fromsoft/navmesh.h"

namespace navlab::nav {

struct TreeBox {
    std::array<double, 3> min{}, max{};
};

struct TreeLeaf {
    std::uint32_t face = 0;  ///< the leaf's data
    std::int64_t node = 0;   ///< its node index
    TreeBox box;
};

struct TreeWalk {
    bool valid = false;
    std::int64_t bad_node = -1;  ///< where the walk failed
    std::string problem;
    std::int64_t internal_nodes = 0;
    std::vector<TreeLeaf> leaves;  ///< in pre-order
};

/// Walks `nodes` from the root with the domain's x, y, z as the root's parent box.
TreeWalk walk_aabb_tree6(std::span<const fromsoft::AabbTreeNode6> nodes, const fromsoft::Aabb& domain);

}  // namespace navlab::nav
